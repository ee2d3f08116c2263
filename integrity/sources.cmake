# Runtime half of integrity/ (inside the boundary): the MAC's definition (also compiled into the
# injector) and the load-time check. The injector tool is built by integrity/CMakeLists.txt.
list(APPEND FIPSMOD_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/mac.c
  ${CMAKE_CURRENT_LIST_DIR}/integrity.c)
