# Runtime half of integrity/ (inside the boundary): the MAC's definition (also compiled into the
# injector) and the load-time check. The injector tool is built by integrity/CMakeLists.txt.
list(APPEND FIPSMOD_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/mac.c
  ${CMAKE_CURRENT_LIST_DIR}/integrity.c)
# The load-time check's own code runs once per load, and every byte of code is hashed at each
# load: it is built for size in release builds (the hashing itself is module/sha's, built as the
# rest of the module).
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/mac.c ${CMAKE_CURRENT_LIST_DIR}/integrity.c
  PROPERTIES COMPILE_OPTIONS $<$<CONFIG:Release>:-Os>)
