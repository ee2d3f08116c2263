# The one-way rules of the architecture: the algorithm folders reach the life cycle only
# through module/internal.h, never a selftest/ or integrity/ header; integrity/ includes nothing
# from selftest/; cpu.c (life cycle) includes no algorithm folder's header.
#   cmake -DSRC=<source dir> -P check_layering.cmake
set(problems "")
file(GLOB_RECURSE algo_files ${SRC}/module/aes/* ${SRC}/module/sha/* ${SRC}/module/rand/*
     ${SRC}/module/bn/* ${SRC}/module/rsa/* ${SRC}/module/kdf/*)
foreach(f IN LISTS algo_files)
  file(STRINGS ${f} hits REGEX "#include \"(selftest|integrity)/")
  if(hits)
    list(APPEND problems "${f}: ${hits}")
  endif()
endforeach()
file(GLOB integrity_files ${SRC}/integrity/*)
foreach(f IN LISTS integrity_files)
  file(STRINGS ${f} hits REGEX "#include \"selftest/")
  if(hits)
    list(APPEND problems "${f}: ${hits}")
  endif()
endforeach()
file(STRINGS ${SRC}/module/cpu.c hits REGEX "#include \"module/(aes|sha|rand|bn|rsa|kdf)/")
if(hits)
  list(APPEND problems "module/cpu.c: ${hits}")
endif()
if(problems)
  string(REPLACE ";" "\n" text "${problems}")
  message(FATAL_ERROR "one-way include rules broken:\n${text}")
endif()
message(STATUS "the include rules hold")
