/* The GCM implementations a test can reach on this machine: every AES bulk width (as
 * tests/aes/aes_test_paths.h) combined with every GHASH path up to the widest this CPU has
 * (ghash_limit_path_for_testing). On the portable run (FIPSMOD_CPU=portable) only the portable
 * AES and GHASH paths exist. */
#ifndef FIPSMOD_TESTS_GCM_PATHS_H
#define FIPSMOD_TESTS_GCM_PATHS_H

#include <stdio.h>

#include "module/aes/internal.h"
#include "module/internal.h"
#include "tests/aes/aes_test_paths.h"

typedef struct gcm_path {
  int aes;   /* AES_PATH_* cap, 0 = portable */
  int ghash; /* GHASH_PATH_* cap */
} gcm_path;

/* gcm_test_paths fills |p| (room for 12) with every (AES, GHASH) pair this machine reaches and
 * returns how many. Each AES width is paired with each GHASH path, so the stitched and
 * non-stitched combinations both run. */
static inline int gcm_test_paths(gcm_path p[12]) {
  int aes[3];
  const int na = aes_test_paths(aes);
  const int gmax = ghash_path();
  int n = 0;
  for (int a = 0; a < na; a++) {
    for (int g = GHASH_PATH_PORTABLE; g <= gmax; g++) p[n++] = (gcm_path){aes[a], g};
  }
  return n;
}

static inline void gcm_use_path(gcm_path p) {
  aes_limit_path_for_testing(p.aes);
  ghash_limit_path_for_testing(p.ghash);
}

static inline void gcm_use_all_paths(void) {
  aes_limit_path_for_testing(0);
  ghash_limit_path_for_testing(-1);
}

static inline const char *ghash_test_path_name(int g) {
  switch (g) {
    case GHASH_PATH_CLMUL: return "pclmulqdq";
    case GHASH_PATH_VPCLMUL256: return "vpclmulqdq-256";
    case GHASH_PATH_VPCLMUL512: return "vpclmulqdq-512";
  }
  return "portable";
}

#endif
