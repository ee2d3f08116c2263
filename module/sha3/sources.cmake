# Sources of module/sha3/: Keccak-f[1600] and the FIPS 202 sponge (SHA3, SHAKE), and the SHAKE
# services. The sponge is part of the hash core (module/sha's SHA3-* hashes and HMAC-SHA3 run on
# it), so keccak.c joins FIPSMOD_SHA_CORE_SOURCES, from which the post-link injector is built.
list(APPEND FIPSMOD_SHA_CORE_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/keccak.c
  ${CMAKE_CURRENT_LIST_DIR}/keccak_x4_avx2.c)
list(APPEND FIPSMOD_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/keccak.c
  ${CMAKE_CURRENT_LIST_DIR}/keccak_x4_avx2.c
  ${CMAKE_CURRENT_LIST_DIR}/sha3_service.c
  ${CMAKE_CURRENT_LIST_DIR}/sha3_cast.c)
# The kernels built at -O3 in Release builds (see FIPSMOD_SPEED_SOURCES in CMakeLists.txt).
list(APPEND FIPSMOD_SPEED_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/keccak_x4_avx2.c)
