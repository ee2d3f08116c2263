# Sources of module/aes/.
list(APPEND FIPSMOD_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/aes.c
  ${CMAKE_CURRENT_LIST_DIR}/aes_portable.c
  ${CMAKE_CURRENT_LIST_DIR}/aes_ni.c
  ${CMAKE_CURRENT_LIST_DIR}/aes_vaes.c
  ${CMAKE_CURRENT_LIST_DIR}/drbg_ni.c
  ${CMAKE_CURRENT_LIST_DIR}/drbg_vaes.c)
