# Sources of module/ec/: the P-curves' field and group code, keys, ECDSA, ECDH and their
# self-tests, and the key-file codec (SEC1, PKCS#8, SPKI; DER and PEM) and DER signatures on the
# public key interface.
list(APPEND FIPSMOD_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/ec_field.c
  ${CMAKE_CURRENT_LIST_DIR}/ec_point.c
  ${CMAKE_CURRENT_LIST_DIR}/ec_scalar_mul.c
  ${CMAKE_CURRENT_LIST_DIR}/ec_verify.c
  ${CMAKE_CURRENT_LIST_DIR}/ec_base_table.c
  ${CMAKE_CURRENT_LIST_DIR}/ec_p521.c
  ${CMAKE_CURRENT_LIST_DIR}/ec_p521_ifma.c
  ${CMAKE_CURRENT_LIST_DIR}/ec_p384_ifma.c
  ${CMAKE_CURRENT_LIST_DIR}/ec_field_mulx.c
  ${CMAKE_CURRENT_LIST_DIR}/ec_p256_jac_adx.c
  ${CMAKE_CURRENT_LIST_DIR}/ec_p384_jac_adx.c
  ${CMAKE_CURRENT_LIST_DIR}/ec_key.c
  ${CMAKE_CURRENT_LIST_DIR}/ecdsa.c
  ${CMAKE_CURRENT_LIST_DIR}/ecdh.c
  ${CMAKE_CURRENT_LIST_DIR}/ec_cast.c
  ${CMAKE_CURRENT_LIST_DIR}/ec_keyfile.c
  ${CMAKE_CURRENT_LIST_DIR}/ecdsa_der.c
  ${CMAKE_CURRENT_LIST_DIR}/ec_stack_wipe.c)
# The kernels built at -O3 in Release builds (see FIPSMOD_SPEED_SOURCES in CMakeLists.txt).
list(APPEND FIPSMOD_SPEED_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/ec_field.c
  ${CMAKE_CURRENT_LIST_DIR}/ec_field_mulx.c
  ${CMAKE_CURRENT_LIST_DIR}/ec_p521.c
  ${CMAKE_CURRENT_LIST_DIR}/ec_p521_ifma.c
  ${CMAKE_CURRENT_LIST_DIR}/ec_p384_ifma.c)
# Built for size in Release builds (see FIPSMOD_SIZE_SOURCES in CMakeLists.txt).
list(APPEND FIPSMOD_SIZE_SOURCES ${CMAKE_CURRENT_LIST_DIR}/ecdsa_der.c)
