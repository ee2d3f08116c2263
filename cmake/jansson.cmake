# jansson (the JSON vector files of the KAT runner, cli/kat, and the tests that read them),
# looked up once for the whole tree. Defines the interface target fipsmod_jansson and the variable
# FIPSMOD_JANSSON naming it. Outside the boundary only: the module links nothing but libc.
find_package(PkgConfig QUIET)
if(PKG_CONFIG_FOUND)
  pkg_check_modules(JANSSON QUIET IMPORTED_TARGET jansson)
endif()
add_library(fipsmod_jansson INTERFACE)
if(TARGET PkgConfig::JANSSON)
  target_link_libraries(fipsmod_jansson INTERFACE PkgConfig::JANSSON)
else()
  find_path(JANSSON_INCLUDE_DIR jansson.h REQUIRED)
  find_library(JANSSON_LIBRARY jansson REQUIRED)
  target_include_directories(fipsmod_jansson INTERFACE ${JANSSON_INCLUDE_DIR})
  target_link_libraries(fipsmod_jansson INTERFACE ${JANSSON_LIBRARY})
endif()
set(FIPSMOD_JANSSON fipsmod_jansson)
