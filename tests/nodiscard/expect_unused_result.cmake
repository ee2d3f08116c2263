# Proves that a dropped status is a compile error for the caller: compiles
# drop_status.c with COMPILER (LANG c or c++, standard STD) twice, under -Werror=unused-result.
# The control build, which uses every status, must succeed (so the header and flags are sound);
# the build with -DFM_DROP must fail, and fail because of the unused result.
foreach(v COMPILER LANG STD SOURCE INCLUDE)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "expect_unused_result.cmake: -D${v}=... is required")
  endif()
endforeach()
# A real compile (-c), not -fsyntax-only: gcc diagnoses an unused result only after parsing, so
# -fsyntax-only would let the FM_DROP build pass.
set(flags -std=${STD} -Wall -Wextra -pedantic -Werror -Werror=unused-result -c -o /dev/null
          -I${INCLUDE} -x ${LANG} ${SOURCE})

execute_process(COMMAND ${COMPILER} ${flags} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the control file, which checks every status, does not compile:\n${out}")
endif()

execute_process(COMMAND ${COMPILER} -DFM_DROP ${flags} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE out)
if(rc EQUAL 0)
  message(FATAL_ERROR "dropping the status of fm_rsa_verify_pss compiled without an error: "
                      "FM_MUST_CHECK is missing or expands to nothing for ${COMPILER} ${STD}")
endif()
if(NOT out MATCHES "unused-result")
  message(FATAL_ERROR "the FM_DROP build failed, but not on the unused result:\n${out}")
endif()
message(STATUS "${COMPILER} -std=${STD}: the dropped status is rejected:\n${out}")
