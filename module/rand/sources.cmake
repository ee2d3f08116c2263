# Sources of module/rand/.
list(APPEND FIPSMOD_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/ctr_drbg.c
  ${CMAKE_CURRENT_LIST_DIR}/entropy.c
  ${CMAKE_CURRENT_LIST_DIR}/rand.c
  ${CMAKE_CURRENT_LIST_DIR}/fork_detect.c
  ${CMAKE_CURRENT_LIST_DIR}/uniform.c
  ${CMAKE_CURRENT_LIST_DIR}/uuid.c
  ${CMAKE_CURRENT_LIST_DIR}/rand_cast.c)
