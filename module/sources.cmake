# The module's sources. Each area keeps its own list in <area>/sources.cmake.
list(APPEND FIPSMOD_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/module.c
  ${CMAKE_CURRENT_LIST_DIR}/cpu.c
  ${CMAKE_CURRENT_LIST_DIR}/util.c
  ${CMAKE_CURRENT_LIST_DIR}/indicator.c
  ${CMAKE_CURRENT_LIST_DIR}/version.c)
foreach(area sha aes rand bn rsa kdf)
  include(${CMAKE_CURRENT_LIST_DIR}/${area}/sources.cmake)
endforeach()
