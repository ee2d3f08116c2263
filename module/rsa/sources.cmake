# Sources of module/rsa/: keys, signatures, key generation, primality, and the key-file codec
# (PKCS#1, PKCS#8, SPKI; DER and PEM) on the public key interface.
list(APPEND FIPSMOD_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/rsa_key.c
  ${CMAKE_CURRENT_LIST_DIR}/rsa_sign.c
  ${CMAKE_CURRENT_LIST_DIR}/rsa_keygen.c
  ${CMAKE_CURRENT_LIST_DIR}/rsa_prime.c
  ${CMAKE_CURRENT_LIST_DIR}/rsa_pubcheck.c
  ${CMAKE_CURRENT_LIST_DIR}/rsa_keyfile.c
  ${CMAKE_CURRENT_LIST_DIR}/rsa_cast.c
  ${CMAKE_CURRENT_LIST_DIR}/rsa_stack_wipe.c)
