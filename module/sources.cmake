# The module's sources. Each area keeps its own list in <area>/sources.cmake.
list(APPEND FIPSMOD_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/module.c
  ${CMAKE_CURRENT_LIST_DIR}/cpu.c
  ${CMAKE_CURRENT_LIST_DIR}/util.c
  ${CMAKE_CURRENT_LIST_DIR}/indicator.c
  ${CMAKE_CURRENT_LIST_DIR}/approval.c
  ${CMAKE_CURRENT_LIST_DIR}/der.c
  ${CMAKE_CURRENT_LIST_DIR}/pqkey.c
  ${CMAKE_CURRENT_LIST_DIR}/pkcs8.c
  ${CMAKE_CURRENT_LIST_DIR}/keyload.c
  ${CMAKE_CURRENT_LIST_DIR}/version.c)
# The algorithm units, in the order their sources are listed. A folder of module/ that is not
# named here fails the configure step, so a unit cannot be added and silently left out.
set(FIPSMOD_UNITS sha sha3 aes rand bn rsa kdf mldsa ec mlkem)
file(GLOB _fipsmod_unit_dirs LIST_DIRECTORIES true RELATIVE ${CMAKE_CURRENT_LIST_DIR}
  ${CMAKE_CURRENT_LIST_DIR}/*)
foreach(dir IN LISTS _fipsmod_unit_dirs)
  if(IS_DIRECTORY ${CMAKE_CURRENT_LIST_DIR}/${dir} AND NOT dir IN_LIST FIPSMOD_UNITS)
    message(FATAL_ERROR "module/${dir}/ is not a registered unit: add it to FIPSMOD_UNITS in "
      "module/sources.cmake")
  endif()
endforeach()
foreach(area IN LISTS FIPSMOD_UNITS)
  if(NOT EXISTS ${CMAKE_CURRENT_LIST_DIR}/${area}/sources.cmake)
    message(FATAL_ERROR "module/${area}/sources.cmake is missing (unit ${area})")
  endif()
  include(${CMAKE_CURRENT_LIST_DIR}/${area}/sources.cmake)
endforeach()
