/* The GCM and KDF known-answer self-tests (selftest/kat_aead_kdf.c) pass on every (AES, GHASH)
 * path of this machine, refuse an unknown test number, and their cost is printed (for the load
 * time budget; no timing is asserted). */
#define _GNU_SOURCE
#include <time.h>

#include "selftest/kat_aead_kdf.h"
#include "tests/common/test_util.h"
#include "tests/gcm/gcm_test_paths.h"

static double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

int main(void) {
  gcm_path paths[12];
  const int n = gcm_test_paths(paths);
  for (int p = 0; p < n; p++) {
    gcm_use_path(paths[p]);
    for (int w = 0; w <= SELFTEST_GCM_AES192_BOTH; w++) CHECK_EQ_INT(selftest_kat_gcm(w), FM_OK);
  }
  gcm_use_all_paths();
  CHECK_EQ_INT(selftest_kat_gcm(SELFTEST_GCM_AES192_BOTH + 1), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(selftest_kat_gcm(-1), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(selftest_kat_hkdf(), FM_OK);
  CHECK_EQ_INT(selftest_kat_kbkdf(), FM_OK);
  CHECK_EQ_INT(selftest_kat_pbkdf2(), FM_OK);
  /* Cost on the default paths, best of 20 (warm). */
  double best = 1e9;
  for (int r = 0; r < 20; r++) {
    const double t0 = now_us();
    int st = FM_OK;
    for (int w = 0; w <= SELFTEST_GCM_AES192_BOTH; w++) st |= selftest_kat_gcm(w);
    st |= selftest_kat_hkdf() | selftest_kat_kbkdf() | selftest_kat_pbkdf2();
    const double t = now_us() - t0;
    CHECK_EQ_INT(st, FM_OK);
    if (t < best) best = t;
  }
  fprintf(stderr, "test_aead_kdf_selftest: all eight KATs take %.1f us (best of 20)\n", best);
  return test_main_result("test_aead_kdf_selftest");
}
