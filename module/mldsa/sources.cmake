# Sources of module/mldsa/: ML-DSA (FIPS 204), portable and AVX2 paths, its services and CASTs.
list(APPEND FIPSMOD_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/mldsa_poly.c
  ${CMAKE_CURRENT_LIST_DIR}/mldsa_avx2.c
  ${CMAKE_CURRENT_LIST_DIR}/mldsa_sample.c
  ${CMAKE_CURRENT_LIST_DIR}/mldsa_pack.c
  ${CMAKE_CURRENT_LIST_DIR}/mldsa.c
  ${CMAKE_CURRENT_LIST_DIR}/mldsa_service.c
  ${CMAKE_CURRENT_LIST_DIR}/mldsa_stack_wipe.c
  ${CMAKE_CURRENT_LIST_DIR}/mldsa_keyfile.c
  ${CMAKE_CURRENT_LIST_DIR}/mldsa_cast.c)
# The kernels built at -O3 in Release builds (see FIPSMOD_SPEED_SOURCES in CMakeLists.txt).
list(APPEND FIPSMOD_SPEED_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/mldsa.c
  ${CMAKE_CURRENT_LIST_DIR}/mldsa_poly.c
  ${CMAKE_CURRENT_LIST_DIR}/mldsa_avx2.c
  ${CMAKE_CURRENT_LIST_DIR}/mldsa_sample.c)
