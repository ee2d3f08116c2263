# Sources of module/sha/. The SHA-2/HMAC core (compression functions and their CPU dispatch,
# streaming states, contexts, HMAC) references nothing of the module's life cycle, so the
# post-link injector (integrity/CMakeLists.txt) is built from it alone; the public services of
# include/fipsmod/sha.h and hmac.h are the two *_service.c files.
set(FIPSMOD_SHA_CORE_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/sha256.c
  ${CMAKE_CURRENT_LIST_DIR}/sha256_shani.c
  ${CMAKE_CURRENT_LIST_DIR}/sha512.c
  ${CMAKE_CURRENT_LIST_DIR}/sha.c
  ${CMAKE_CURRENT_LIST_DIR}/hmac.c)
list(APPEND FIPSMOD_SOURCES
  ${FIPSMOD_SHA_CORE_SOURCES}
  ${CMAKE_CURRENT_LIST_DIR}/sha_service.c
  ${CMAKE_CURRENT_LIST_DIR}/sha_cast.c
  ${CMAKE_CURRENT_LIST_DIR}/hmac_service.c)
# The kernels built at -O3 in Release builds (see FIPSMOD_SPEED_SOURCES in CMakeLists.txt).
list(APPEND FIPSMOD_SPEED_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/sha256.c
  ${CMAKE_CURRENT_LIST_DIR}/sha512.c
  ${CMAKE_CURRENT_LIST_DIR}/hmac.c
  ${CMAKE_CURRENT_LIST_DIR}/sha_service.c)
