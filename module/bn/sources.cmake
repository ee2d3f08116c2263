# Sources of module/bn/.
list(APPEND FIPSMOD_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/bn.c
  ${CMAKE_CURRENT_LIST_DIR}/bn_inverse.c
  ${CMAKE_CURRENT_LIST_DIR}/mont.c
  ${CMAKE_CURRENT_LIST_DIR}/mont_mulx.c
  ${CMAKE_CURRENT_LIST_DIR}/mont_ifma.c)
