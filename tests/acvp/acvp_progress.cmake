# The progress line: drawn on a terminal, never into a redirected stderr.
#   -DFIPSMOD=<fipsmod> -DPROMPT=<a set with an LDT> -DOUT=<response path> -DSCRIPT=<script(1)>
cmake_minimum_required(VERSION 3.20)
execute_process(COMMAND "${FIPSMOD}" acvp "${PROMPT}" -o "${OUT}"
  RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR err MATCHES "MiB")
  message(FATAL_ERROR "status ${rc}; without a terminal stderr must carry no progress line:\n${err}")
endif()
# script(1) gives the command a pseudo-terminal.
execute_process(COMMAND "${SCRIPT}" -qec "\"${FIPSMOD}\" acvp \"${PROMPT}\" -o \"${OUT}\"" /dev/null
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
# Any progress line will do: how many are drawn depends on the machine's speed (one every 0.2 s).
if(NOT rc EQUAL 0 OR NOT out MATCHES "[0-9]+/[0-9]+ tests")
  message(FATAL_ERROR "status ${rc}; on a terminal a progress line was expected:\n${out}${err}")
endif()
