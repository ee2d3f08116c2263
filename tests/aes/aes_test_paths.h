/* The AES implementations a test can reach on this machine: every bulk width of the AES-NI
 * schedule that the CPU has (through aes_limit_path_for_testing), or the portable path alone when
 * the module runs portable (FIPSMOD_CPU=portable or no AES-NI). */
#ifndef FIPSMOD_TESTS_AES_PATHS_H
#define FIPSMOD_TESTS_AES_PATHS_H

#include "module/aes/internal.h"
#include "module/internal.h"

/* aes_test_paths fills |paths| with the reachable AES_PATH_* caps (0 meaning "portable") and
 * returns how many. */
static inline int aes_test_paths(int paths[3]) {
  if (!fm_cpu_use(FM_CPU_AESNI)) {
    paths[0] = 0;
    return 1;
  }
  int n = 0;
  paths[n++] = AES_PATH_AESNI;
  if (fm_cpu_use(FM_CPU_VAES)) paths[n++] = AES_PATH_VAES_AVX2;
  if (fm_cpu_use(FM_CPU_VAES | FM_CPU_AVX512)) paths[n++] = AES_PATH_VAES_AVX512;
  return n;
}

static inline const char *aes_test_path_name(int path) {
  switch (path) {
    case AES_PATH_AESNI: return "aes-ni";
    case AES_PATH_VAES_AVX2: return "vaes-avx2";
    case AES_PATH_VAES_AVX512: return "vaes-avx512";
  }
  return "portable";
}

#endif
