# Sources of selftest/ (inside the boundary): the runner, the report and the table. The known-answer
# tests themselves live in their units (module/<unit>/<unit>_cast.c).
list(APPEND FIPSMOD_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/power_on.c
  ${CMAKE_CURRENT_LIST_DIR}/kat.c)
