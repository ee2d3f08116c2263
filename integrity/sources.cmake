# Runtime half of integrity/ (inside the boundary). The injector tool is built by integrity/CMakeLists.txt.
list(APPEND FIPSMOD_SOURCES ${CMAKE_CURRENT_LIST_DIR}/integrity.c)
