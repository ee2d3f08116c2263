# Sources of module/mldsa/: ML-DSA (FIPS 204), portable and AVX2 paths, its services and CASTs.
list(APPEND FIPSMOD_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/mldsa_poly.c
  ${CMAKE_CURRENT_LIST_DIR}/mldsa_avx2.c
  ${CMAKE_CURRENT_LIST_DIR}/mldsa_sample.c
  ${CMAKE_CURRENT_LIST_DIR}/mldsa_pack.c
  ${CMAKE_CURRENT_LIST_DIR}/mldsa.c
  ${CMAKE_CURRENT_LIST_DIR}/mldsa_service.c
  ${CMAKE_CURRENT_LIST_DIR}/mldsa_keyfile.c
  ${CMAKE_CURRENT_LIST_DIR}/mldsa_cast.c)
