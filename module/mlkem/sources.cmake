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
# The kernels built at -O3 in Release builds (see FIPSMOD_SPEED_SOURCES in CMakeLists.txt).
list(APPEND FIPSMOD_SPEED_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/mlkem.c
  ${CMAKE_CURRENT_LIST_DIR}/mlkem_poly.c
  ${CMAKE_CURRENT_LIST_DIR}/mlkem_avx2.c
  ${CMAKE_CURRENT_LIST_DIR}/mlkem_sample.c)
