# Fails when the Doxygen warning log -DLOG=<file> is not empty (a malformed doc comment).
file(READ "${LOG}" log)
if(NOT log STREQUAL "")
  message(FATAL_ERROR "Doxygen warnings:\n${log}")
endif()
