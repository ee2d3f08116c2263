# Sources of selftest/ (inside the boundary): the runner and report, and the known-answer tests.
list(APPEND FIPSMOD_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/power_on.c
  ${CMAKE_CURRENT_LIST_DIR}/kat.c)
list(APPEND FIPSMOD_SOURCES ${CMAKE_CURRENT_LIST_DIR}/kat_aead_kdf.c)
