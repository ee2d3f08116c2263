# Sources of selftest/ (inside the boundary): the runner and report, and the known-answer tests.
list(APPEND FIPSMOD_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/power_on.c
  ${CMAKE_CURRENT_LIST_DIR}/kat.c)
list(APPEND FIPSMOD_SOURCES ${CMAKE_CURRENT_LIST_DIR}/kat_aead_kdf.c)
# The runner runs its tests once each: built for size in release builds (every byte of code is
# hashed by the integrity check at each load); the tests' algorithms are the module's own code.
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/power_on.c
  PROPERTIES COMPILE_OPTIONS $<$<CONFIG:Release>:-Os>)
