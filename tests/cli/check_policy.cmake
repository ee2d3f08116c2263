# `fipsmod policy`: every field is printed, the text and --json forms agree, and
# the MAC it reads from the loaded library is the one the injector computes for that file: the
# injector run on a copy of the library writes (and prints) the MAC of its hashed segments, and
# --verify accepts the original.
# -DCLI=fipsmod -DINJECT=fipsmod-integrity-inject -DWORK=scratch directory
execute_process(COMMAND ${CLI} policy RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "fipsmod policy exited ${rc} (not in the approved mode?):\n${out}${err}")
endif()
foreach(field
    "version:       fipsmod [0-9]+\\.[0-9]+\\.[0-9]+\n"
    "library:       /[^\n]*libfipsmod\\.so[^\n]*\n"
    "integrity MAC: [0-9a-f]+\n"
    "integrity:     passed\n"
    "cpu paths:     aes=[^\n]+ sha256=[^\n]+\n"
    "state:         OPERATIONAL\n"
    "approved mode: yes\n")
  if(NOT out MATCHES "${field}")
    message(FATAL_ERROR "fipsmod policy: no line matching '${field}' in:\n${out}")
  endif()
endforeach()
string(REGEX MATCH "integrity MAC: ([0-9a-f]+)" _ "${out}")
set(mac "${CMAKE_MATCH_1}")
string(LENGTH "${mac}" mac_len)
if(NOT mac_len EQUAL 64)
  message(FATAL_ERROR "fipsmod policy: the MAC '${mac}' is not 32 bytes")
endif()
string(REGEX MATCH "library:       ([^\n]+)" _ "${out}")
set(lib "${CMAKE_MATCH_1}")

# The injector's view of the same file.
execute_process(COMMAND ${INJECT} --verify ${lib} RESULT_VARIABLE rc OUTPUT_VARIABLE vout
  ERROR_VARIABLE verr)
if(NOT rc EQUAL 0 OR NOT vout MATCHES "integrity MAC matches")
  message(FATAL_ERROR "injector --verify ${lib}: ${rc}\n${vout}${verr}")
endif()
file(MAKE_DIRECTORY ${WORK})
configure_file(${lib} ${WORK}/libfipsmod-copy.so COPYONLY)
execute_process(COMMAND ${INJECT} ${WORK}/libfipsmod-copy.so RESULT_VARIABLE rc
  OUTPUT_VARIABLE iout ERROR_VARIABLE ierr)
if(NOT rc EQUAL 0 OR NOT iout MATCHES "integrity MAC ([0-9a-f]+) written")
  message(FATAL_ERROR "injector on a copy: ${rc}\n${iout}${ierr}")
endif()
if(NOT CMAKE_MATCH_1 STREQUAL mac)
  message(FATAL_ERROR "fipsmod policy printed ${mac}, the injector computes ${CMAKE_MATCH_1}")
endif()

# --json: the same values.
execute_process(COMMAND ${CLI} policy --json RESULT_VARIABLE rc OUTPUT_VARIABLE jout)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "fipsmod policy --json exited ${rc}")
endif()
foreach(key version library integrity_mac integrity cpu_paths state)
  string(JSON v GET "${jout}" ${key})
  if(v STREQUAL "")
    message(FATAL_ERROR "fipsmod policy --json: no ${key} in\n${jout}")
  endif()
endforeach()
string(JSON jmac GET "${jout}" integrity_mac)
string(JSON japproved GET "${jout}" approved_mode)
string(JSON jstate GET "${jout}" state)
if(NOT jmac STREQUAL mac OR NOT japproved STREQUAL "ON" OR NOT jstate STREQUAL "OPERATIONAL")
  message(FATAL_ERROR "fipsmod policy --json disagrees with the text form:\n${jout}")
endif()
message(STATUS "fipsmod policy: MAC ${mac} = the injector's")
