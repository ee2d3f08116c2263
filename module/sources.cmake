# The module's sources. Each area keeps its own list in <area>/sources.cmake.
list(APPEND FIPSMOD_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/module.c
  ${CMAKE_CURRENT_LIST_DIR}/cpu.c
  ${CMAKE_CURRENT_LIST_DIR}/util.c
  ${CMAKE_CURRENT_LIST_DIR}/indicator.c
  ${CMAKE_CURRENT_LIST_DIR}/approval.c
  ${CMAKE_CURRENT_LIST_DIR}/der.c
  ${CMAKE_CURRENT_LIST_DIR}/pqkey.c
  ${CMAKE_CURRENT_LIST_DIR}/pkcs8.c
  ${CMAKE_CURRENT_LIST_DIR}/keyload.c
  ${CMAKE_CURRENT_LIST_DIR}/version.c)
# Built for size in Release builds (see FIPSMOD_SIZE_SOURCES in CMakeLists.txt): the DER, PKCS#8
# and key-loading code, off every data path.
list(APPEND FIPSMOD_SIZE_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/der.c
  ${CMAKE_CURRENT_LIST_DIR}/pqkey.c
  ${CMAKE_CURRENT_LIST_DIR}/pkcs8.c
  ${CMAKE_CURRENT_LIST_DIR}/keyload.c)
# The algorithm units, in the order their sources are listed. A folder of module/ that is not
# named here fails the configure step, so a unit cannot be added and silently left out.
set(FIPSMOD_UNITS sha sha3 aes rand bn rsa kdf mldsa ec mlkem)
file(GLOB _fipsmod_unit_dirs LIST_DIRECTORIES true RELATIVE ${CMAKE_CURRENT_LIST_DIR}
  ${CMAKE_CURRENT_LIST_DIR}/*)
foreach(dir IN LISTS _fipsmod_unit_dirs)
  if(IS_DIRECTORY ${CMAKE_CURRENT_LIST_DIR}/${dir} AND NOT dir IN_LIST FIPSMOD_UNITS)
    message(FATAL_ERROR "module/${dir}/ is not a registered unit: add it to FIPSMOD_UNITS in "
      "module/sources.cmake")
  endif()
endforeach()
foreach(area IN LISTS FIPSMOD_UNITS)
  if(NOT EXISTS ${CMAKE_CURRENT_LIST_DIR}/${area}/sources.cmake)
    message(FATAL_ERROR "module/${area}/sources.cmake is missing (unit ${area})")
  endif()
  include(${CMAKE_CURRENT_LIST_DIR}/${area}/sources.cmake)
endforeach()

# The x86-64 fast paths (intrinsics and inline assembly of x86-64 instructions) are compiled for
# x86-64 only. Elsewhere (aarch64) fm_cpu_use is the constant false (module/internal.h), every
# call of these kernels is compiled out, and the portable twins run.
set(FIPSMOD_X86_64_ONLY_SOURCES
  aes/aes_ni.c aes/aes_vaes.c aes/drbg_ni.c aes/drbg_vaes.c aes/ghash_clmul.c aes/gcm_vaes.c
  aes/gcm_vaes256.c bn/mont_mulx.c bn/mont_ifma.c ec/ec_field_mulx.c ec/ec_p256_jac_adx.c
  ec/ec_p384_jac_adx.c ec/ec_p384_ifma.c ec/ec_p521_ifma.c mlkem/mlkem_avx2.c mldsa/mldsa_avx2.c
  sha/sha256_shani.c sha3/keccak_x4_avx2.c)
list(TRANSFORM FIPSMOD_X86_64_ONLY_SOURCES PREPEND ${CMAKE_CURRENT_LIST_DIR}/)
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  set(FIPSMOD_X86_64 ON)
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64|ARM64)$")
  set(FIPSMOD_X86_64 OFF)
  list(REMOVE_ITEM FIPSMOD_SOURCES ${FIPSMOD_X86_64_ONLY_SOURCES})
  list(REMOVE_ITEM FIPSMOD_SHA_CORE_SOURCES ${FIPSMOD_X86_64_ONLY_SOURCES})
  list(REMOVE_ITEM FIPSMOD_SPEED_SOURCES ${FIPSMOD_X86_64_ONLY_SOURCES})
else()
  message(FATAL_ERROR "fipsmod builds for x86-64 and aarch64 Linux, not for ${CMAKE_SYSTEM_PROCESSOR}")
endif()
