/* The GCM and KDF known-answer self-tests (module/aes/aes_cast.c, module/kdf/kdf_cast.c) pass on
 * every (AES, GHASH) path of this machine, each unit refuses an id that is not its own, and their
 * cost is printed (for the load time budget; no timing is asserted). */
#define _GNU_SOURCE
#include <time.h>

#include "module/aes/internal.h"
#include "module/kdf/internal.h"
#include "tests/common/test_util.h"
#include "tests/gcm/gcm_test_paths.h"

/* The GCM CASTs: both directions of AES-128 and AES-256, and AES-192's test of both. */
static const fm_selftest_id gcm_casts[] = {FM_ST_AES128_GCM_ENC_KAT, FM_ST_AES128_GCM_DEC_KAT,
                                           FM_ST_AES256_GCM_ENC_KAT, FM_ST_AES256_GCM_DEC_KAT,
                                           FM_ST_AES192_GCM_KAT};
#define N_GCM_CASTS (sizeof gcm_casts / sizeof gcm_casts[0])

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
    for (size_t w = 0; w < N_GCM_CASTS; w++) CHECK_EQ_INT(aes_cast(gcm_casts[w]), FM_OK);
  }
  gcm_use_all_paths();
  CHECK_EQ_INT(aes_cast(FM_ST_HKDF_SHA256_KAT), FM_ERR_INTERNAL);
  CHECK_EQ_INT(aes_cast(FM_ST_INTEGRITY), FM_ERR_INTERNAL);
  CHECK_EQ_INT(kdf_cast(FM_ST_AES128_GCM_ENC_KAT), FM_ERR_INTERNAL);
  CHECK_EQ_INT(kdf_cast(FM_ST_HKDF_SHA256_KAT), FM_OK);
  CHECK_EQ_INT(kdf_cast(FM_ST_KBKDF_HMAC_SHA256_KAT), FM_OK);
  CHECK_EQ_INT(kdf_cast(FM_ST_PBKDF2_HMAC_SHA256_KAT), FM_OK);
  /* Cost on the default paths, best of 20 (warm). */
  double best = 1e9;
  for (int r = 0; r < 20; r++) {
    const double t0 = now_us();
    int st = FM_OK;
    for (size_t w = 0; w < N_GCM_CASTS; w++) st |= aes_cast(gcm_casts[w]);
    st |= kdf_cast(FM_ST_HKDF_SHA256_KAT) | kdf_cast(FM_ST_KBKDF_HMAC_SHA256_KAT) |
          kdf_cast(FM_ST_PBKDF2_HMAC_SHA256_KAT);
    const double t = now_us() - t0;
    CHECK_EQ_INT(st, FM_OK);
    if (t < best) best = t;
  }
  fprintf(stderr, "test_aead_kdf_selftest: all eight KATs take %.1f us (best of 20)\n", best);
  return test_main_result("test_aead_kdf_selftest");
}
