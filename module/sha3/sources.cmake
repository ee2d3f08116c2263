# Sources of module/sha3/: Keccak-f[1600] and the FIPS 202 sponge (SHA3, SHAKE).
list(APPEND FIPSMOD_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/keccak.c)
