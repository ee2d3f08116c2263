# Sources of module/rsa/.
list(APPEND FIPSMOD_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/rsa_key.c
  ${CMAKE_CURRENT_LIST_DIR}/rsa_sign.c
  ${CMAKE_CURRENT_LIST_DIR}/rsa_keygen.c
  ${CMAKE_CURRENT_LIST_DIR}/rsa_prime.c)
