/* The known-answer self-tests (CASTs, FIPS 140-3 IG 10.3.A) of the KDFs, run before their first
 * use, through the public API: HKDF-SHA-256 (extract and expand, 42 bytes out), the SP 800-108
 * counter-mode KDF with HMAC-SHA-256 (32-bit counter in the middle of the fixed data, 40 bytes
 * out: two PRF blocks) and PBKDF2-HMAC-SHA-256 (2 iterations, 40 bytes out: two blocks). Inputs
 * and answers are in kdf_kat_vectors.h (gen_kdf_kat.py, pyca/cryptography). Every buffer is
 * wiped before a test returns. */
#include "fipsmod/kdf.h"
#include "module/internal.h"
#include "module/kdf/internal.h"
#include "module/kdf/kdf_kat_vectors.h"

static int run_hkdf(void) {
  uint8_t out[sizeof kat_hkdf_okm];
  int st = fm_hkdf(FM_HASH_SHA256, kat_hkdf_ikm, sizeof kat_hkdf_ikm, kat_hkdf_salt,
                   sizeof kat_hkdf_salt, kat_hkdf_info, sizeof kat_hkdf_info, out, sizeof out);
  if (st == FM_OK) st = fm_selftest_expect(out, kat_hkdf_okm, sizeof out);
  fm_zeroize(out, sizeof out);
  return st;
}

static int run_kbkdf(void) {
  uint8_t out[sizeof kat_kbkdf_okm];
  int st = fm_kbkdf_ctr_hmac(FM_HASH_SHA256, kat_kbkdf_key, sizeof kat_kbkdf_key, kat_kbkdf_fixed,
                             sizeof kat_kbkdf_fixed, KAT_KBKDF_CTR_POS, 32, out, sizeof out);
  if (st == FM_OK) st = fm_selftest_expect(out, kat_kbkdf_okm, sizeof out);
  fm_zeroize(out, sizeof out);
  return st;
}

static int run_pbkdf2(void) {
  uint8_t out[sizeof kat_pbkdf2_dk];
  int st = fm_pbkdf2_hmac(FM_HASH_SHA256, kat_pbkdf2_password, sizeof kat_pbkdf2_password,
                          kat_pbkdf2_salt, sizeof kat_pbkdf2_salt, KAT_PBKDF2_ITERATIONS, out,
                          sizeof out);
  if (st == FM_OK) st = fm_selftest_expect(out, kat_pbkdf2_dk, sizeof out);
  fm_zeroize(out, sizeof out);
  return st;
}

int kdf_cast(fm_selftest_id id) {
  switch (id) {
    case FM_ST_HKDF_SHA256_KAT: return run_hkdf();
    case FM_ST_KBKDF_HMAC_SHA256_KAT: return run_kbkdf();
    case FM_ST_PBKDF2_HMAC_SHA256_KAT: return run_pbkdf2();
    default: return FM_ERR_INTERNAL;
  }
}
