# Sources of module/sha/: SHA-256 (portable and SHA-NI), SHA-384/512, HMAC and the public
# services of include/fipsmod/sha.h and hmac.h.
list(APPEND FIPSMOD_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/sha256.c
  ${CMAKE_CURRENT_LIST_DIR}/sha256_shani.c
  ${CMAKE_CURRENT_LIST_DIR}/sha512.c
  ${CMAKE_CURRENT_LIST_DIR}/sha.c
  ${CMAKE_CURRENT_LIST_DIR}/hmac.c)
