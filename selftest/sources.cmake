# Sources of selftest/ (inside the boundary): the runner, the report and the table. The known-answer
# tests themselves live in their units (module/<unit>/<unit>_cast.c).
list(APPEND FIPSMOD_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/power_on.c
  ${CMAKE_CURRENT_LIST_DIR}/kat.c)
# The runner runs its tests once each: built for size in release builds (every byte of code is
# hashed by the integrity check at each load); the tests' algorithms are the module's own code.
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/power_on.c
  PROPERTIES COMPILE_OPTIONS $<$<CONFIG:Release>:-Os>)
