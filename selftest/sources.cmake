# Sources of selftest/ (inside the boundary).
list(APPEND FIPSMOD_SOURCES ${CMAKE_CURRENT_LIST_DIR}/power_on.c)
