# Runs the KAT runner on a corrupted copy of a vector file, made at test time in the build
# directory, and checks the exit status and that the output names the case or the line.
#   -DDRIVER=<runner> -DSRC=<vector file> -DWORK=<copy path> -DEXPECT_RC=<status>
#   -DEXPECT_REGEX=<regex the output must match>
#   corruption (one of):
#     -DFROM=<text> -DTO=<text>      replace the one occurrence of FROM (it must be unique)
#       -DFROM_NTH=<n>               ... or its n-th occurrence (1-based; FROM may repeat)
#     -DCUT_AFTER=<text> -DCUT_KEEP=<n>  keep the file up to n bytes after the unique text
#     -DEMPTY=1                      an empty file
#     -DMISSING=1                    no file at all
#     -DCOPY=1                       an unchanged copy
#   -DARGS=<extra runner options, :-separated>
cmake_minimum_required(VERSION 3.20)

if(DEFINED MISSING)
  file(REMOVE "${WORK}")
elseif(DEFINED EMPTY)
  file(WRITE "${WORK}" "")
elseif(DEFINED COPY)
  configure_file("${SRC}" "${WORK}" COPYONLY)
else()
  file(READ "${SRC}" content)
  if(DEFINED FROM)
    set(needle "${FROM}")
  else()
    set(needle "${CUT_AFTER}")
  endif()
  string(FIND "${content}" "${needle}" first)
  string(FIND "${content}" "${needle}" last REVERSE)
  if(first EQUAL -1)
    message(FATAL_ERROR "corruption text not found in ${SRC}: ${needle}")
  endif()
  if(DEFINED FROM_NTH)
    # Walk to the n-th occurrence: each search starts after the previous match.
    string(LENGTH "${needle}" nlen)
    set(base 0)
    set(tail_text "${content}")
    foreach(k RANGE 1 ${FROM_NTH})
      string(FIND "${tail_text}" "${needle}" at)
      if(at EQUAL -1)
        message(FATAL_ERROR "corruption text has fewer than ${FROM_NTH} occurrences: ${needle}")
      endif()
      math(EXPR first "${base} + ${at}")
      math(EXPR skip "${at} + ${nlen}")
      math(EXPR base "${base} + ${skip}")
      string(SUBSTRING "${tail_text}" ${skip} -1 tail_text)
    endforeach()
  elseif(NOT first EQUAL last)
    message(FATAL_ERROR "corruption text is not unique in ${SRC}: ${needle}")
  endif()
  if(DEFINED FROM)
    string(LENGTH "${FROM}" flen)
    string(SUBSTRING "${content}" 0 ${first} head)
    math(EXPR tail_at "${first} + ${flen}")
    string(SUBSTRING "${content}" ${tail_at} -1 tail)
    set(content "${head}${TO}${tail}")
  else()
    math(EXPR keep "${first} + ${CUT_KEEP}")
    string(SUBSTRING "${content}" 0 ${keep} content)
  endif()
  file(WRITE "${WORK}" "${content}")
endif()

string(REPLACE ":" ";" ARGS "${ARGS}")
execute_process(COMMAND "${DRIVER}" ${ARGS} "${WORK}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc STREQUAL "${EXPECT_RC}")
  message(FATAL_ERROR "exit status ${rc}, expected ${EXPECT_RC}")
endif()
if(NOT "${out}${err}" MATCHES "${EXPECT_REGEX}")
  message(FATAL_ERROR "output does not match: ${EXPECT_REGEX}")
endif()
