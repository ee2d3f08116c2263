# Sources of module/aes/: AES (portable, AES-NI, VAES), the fused CTR_DRBG kernels, GHASH, GCM
# and their CASTs.
list(APPEND FIPSMOD_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/aes.c
  ${CMAKE_CURRENT_LIST_DIR}/aes_portable.c
  ${CMAKE_CURRENT_LIST_DIR}/aes_ni.c
  ${CMAKE_CURRENT_LIST_DIR}/aes_vaes.c
  ${CMAKE_CURRENT_LIST_DIR}/drbg_ni.c
  ${CMAKE_CURRENT_LIST_DIR}/drbg_vaes.c
  ${CMAKE_CURRENT_LIST_DIR}/ghash.c
  ${CMAKE_CURRENT_LIST_DIR}/ghash_clmul.c
  ${CMAKE_CURRENT_LIST_DIR}/gcm.c
  ${CMAKE_CURRENT_LIST_DIR}/gcm_ctx.c
  ${CMAKE_CURRENT_LIST_DIR}/gcm_oneshot.c
  ${CMAKE_CURRENT_LIST_DIR}/gcm_vaes.c
  ${CMAKE_CURRENT_LIST_DIR}/gcm_vaes256.c
  ${CMAKE_CURRENT_LIST_DIR}/stack_wipe.c
  ${CMAKE_CURRENT_LIST_DIR}/aes_cast.c)
# The kernels built at -O3 in Release builds (see FIPSMOD_SPEED_SOURCES in CMakeLists.txt).
list(APPEND FIPSMOD_SPEED_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/aes.c
  ${CMAKE_CURRENT_LIST_DIR}/gcm.c
  ${CMAKE_CURRENT_LIST_DIR}/gcm_ctx.c
  ${CMAKE_CURRENT_LIST_DIR}/gcm_oneshot.c)
