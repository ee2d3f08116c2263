# jansson (the JSON vector files of the KAT runner, cli/vectors, and the tests that read them),
# looked up once for the whole tree. Defines the interface target fipsmod_jansson and the variable
# FIPSMOD_JANSSON naming it, and sets FIPSMOD_HAVE_JANSSON. Outside the boundary only: the module
# links nothing but libc. Required by the tests; without them (a library-only build) a missing
# jansson only leaves the fipsmod command out.
find_package(PkgConfig QUIET)
if(PKG_CONFIG_FOUND)
  pkg_check_modules(JANSSON QUIET IMPORTED_TARGET jansson)
endif()
if(FIPSMOD_BUILD_TESTS)
  set(_jansson_required REQUIRED)
endif()
set(FIPSMOD_HAVE_JANSSON ON)
add_library(fipsmod_jansson INTERFACE)
if(TARGET PkgConfig::JANSSON)
  target_link_libraries(fipsmod_jansson INTERFACE PkgConfig::JANSSON)
else()
  find_path(JANSSON_INCLUDE_DIR jansson.h ${_jansson_required})
  find_library(JANSSON_LIBRARY jansson ${_jansson_required})
  if(JANSSON_INCLUDE_DIR AND JANSSON_LIBRARY)
    target_include_directories(fipsmod_jansson INTERFACE ${JANSSON_INCLUDE_DIR})
    target_link_libraries(fipsmod_jansson INTERFACE ${JANSSON_LIBRARY})
  else()
    set(FIPSMOD_HAVE_JANSSON OFF)
  endif()
endif()
set(FIPSMOD_JANSSON fipsmod_jansson)
