# Sources of module/kdf/: HKDF, SP 800-108 counter-mode KDF and PBKDF2 on module/sha's HMAC.
list(APPEND FIPSMOD_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/kdf.c
  ${CMAKE_CURRENT_LIST_DIR}/kdf_cast.c)
