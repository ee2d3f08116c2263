/* The first-use known-answer self-tests (CASTs, FIPS 140-3 IG 10.3.A) of SHA-3, SHAKE and
 * HMAC-SHA3, which the runner calls, on the inputs and answers of sha3_known_values.inc
 * (gen_known_values.py: Python's hashlib and hmac).
 *
 * IG 10.3.A: one test of SHA3-256 covers the four SHA3-* hashes (one Keccak, one sponge; only
 * the rate and the output length differ, both constants). SHAKE is a separate function of the
 * same sponge with another domain byte and a longer squeeze: one test runs both XOFs past a rate
 * of output. HMAC-SHA3 gets its own test, HMAC-SHA3-256 with a key longer than the rate. */
#include <assert.h>

#include "fipsmod/hmac.h"
#include "fipsmod/sha.h"
#include "module/internal.h"
#include "module/sha3/internal.h"

#include "module/sha3/sha3_known_values.inc"

int sha3_selftest_sha3_kat(void) {
  uint8_t out[FM_SHA3_256_DIGEST_LEN];
  int st = fm_sha_digest(FM_HASH_SHA3_256, kat_sha3_256_msg, sizeof kat_sha3_256_msg, out,
                         sizeof out);
  if (st == FM_OK) st = fm_selftest_expect(out, kat_sha3_256_digest, sizeof out);
  fm_zeroize(out, sizeof out);
  return st;
}

int sha3_selftest_shake_kat(void) {
  uint8_t out[sizeof kat_shake128_out];
  static_assert(sizeof kat_shake128_out >= sizeof kat_shake256_out, "one buffer for both");
  int st = fm_shake128(kat_shake_msg, sizeof kat_shake_msg, out, sizeof kat_shake128_out);
  if (st == FM_OK) st = fm_selftest_expect(out, kat_shake128_out, sizeof kat_shake128_out);
  if (st == FM_OK) st = fm_shake256(kat_shake_msg, sizeof kat_shake_msg, out,
                                    sizeof kat_shake256_out);
  if (st == FM_OK) st = fm_selftest_expect(out, kat_shake256_out, sizeof kat_shake256_out);
  fm_zeroize(out, sizeof out);
  return st;
}

int sha3_selftest_hmac_kat(void) {
  uint8_t out[FM_SHA3_256_DIGEST_LEN];
  int st = fm_hmac(FM_HASH_SHA3_256, kat_hmac_sha3_256_key, sizeof kat_hmac_sha3_256_key,
                   kat_hmac_sha3_256_msg, sizeof kat_hmac_sha3_256_msg, out, sizeof out);
  if (st == FM_OK) st = fm_selftest_expect(out, kat_hmac_sha3_256_tag, sizeof out);
  fm_zeroize(out, sizeof out);
  return st;
}
