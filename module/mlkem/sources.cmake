# Sources of module/mlkem/: ML-KEM (FIPS 203), its polynomial kernels (portable and AVX2) and its
# CAST.
list(APPEND FIPSMOD_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/mlkem.c
  ${CMAKE_CURRENT_LIST_DIR}/mlkem_poly.c
  ${CMAKE_CURRENT_LIST_DIR}/mlkem_avx2.c
  ${CMAKE_CURRENT_LIST_DIR}/mlkem_sample.c
  ${CMAKE_CURRENT_LIST_DIR}/mlkem_service.c
  ${CMAKE_CURRENT_LIST_DIR}/mlkem_keyfile.c
  ${CMAKE_CURRENT_LIST_DIR}/mlkem_stack_wipe.c
  ${CMAKE_CURRENT_LIST_DIR}/mlkem_cast.c)
