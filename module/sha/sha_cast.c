/* sha_selftest_ensure and hmac_selftest_ensure: the first-use known-answer tests (FIPS 140-3
 * IG 10.3.A) that the services of the module ask for before they hash or MAC with an algorithm,
 * and the known-answer test of the truncated SHA-2 variants this unit keeps itself. Not part of
 * the hash core: the post-link injector knows nothing of self-tests.
 *
 * IG 10.3.A lets one test cover the algorithms that share an implementation: SHA-224 runs the
 * SHA-256 compression and SHA-512/t the SHA-512 one, so what their own test adds is the initial
 * values and the truncation, all three checked by FM_ST_SHA2_TRUNCATED_KAT. HMAC with them is the
 * HMAC code of SHA-256 and SHA-512 (whose HMAC tests cover it) with that hash. */
#include "fipsmod/hmac.h"
#include "fipsmod/sha.h"
#include "module/internal.h"
#include "module/sha/internal.h"
#include "module/sha3/internal.h"

#include "module/sha/sha2t_known_values.inc"

int sha_selftest_ensure(fm_hash_alg alg) {
  switch (alg) {
    case FM_HASH_SHA256: return fm_selftest_ensure(FM_ST_SHA256_KAT);
    case FM_HASH_SHA384: return fm_selftest_ensure(FM_ST_SHA384_KAT);
    case FM_HASH_SHA512: return fm_selftest_ensure(FM_ST_SHA512_KAT);
    case FM_HASH_SHA224:
    case FM_HASH_SHA512_224:
    case FM_HASH_SHA512_256: return fm_selftest_ensure(FM_ST_SHA2_TRUNCATED_KAT);
    case FM_HASH_SHA3_224:
    case FM_HASH_SHA3_256:
    case FM_HASH_SHA3_384:
    case FM_HASH_SHA3_512: return fm_selftest_ensure(FM_ST_SHA3_KAT);
    default: return FM_OK; /* an algorithm the module does not offer: refused by the caller */
  }
}

int hmac_selftest_ensure(fm_hash_alg alg) {
  int st;
  switch (alg) {
    case FM_HASH_SHA256: return fm_selftest_ensure(FM_ST_HMAC_SHA256_KAT); /* at power-on */
    case FM_HASH_SHA384: return fm_selftest_ensure(FM_ST_HMAC_SHA384_KAT);
    case FM_HASH_SHA512: return fm_selftest_ensure(FM_ST_HMAC_SHA512_KAT);
    case FM_HASH_SHA224:
      st = fm_selftest_ensure(FM_ST_HMAC_SHA256_KAT);
      return st == FM_OK ? fm_selftest_ensure(FM_ST_SHA2_TRUNCATED_KAT) : st;
    case FM_HASH_SHA512_224:
    case FM_HASH_SHA512_256:
      st = fm_selftest_ensure(FM_ST_HMAC_SHA512_KAT);
      return st == FM_OK ? fm_selftest_ensure(FM_ST_SHA2_TRUNCATED_KAT) : st;
    case FM_HASH_SHA3_224:
    case FM_HASH_SHA3_256:
    case FM_HASH_SHA3_384:
    case FM_HASH_SHA3_512: return fm_selftest_ensure(FM_ST_HMAC_SHA3_KAT);
    default: return FM_OK;
  }
}

/* truncated_kat hashes one known message with |alg| through the public service and compares. */
static int truncated_kat(fm_hash_alg alg, const uint8_t *msg, size_t msg_len,
                         const uint8_t *digest, size_t digest_len) {
  uint8_t out[FM_MAX_DIGEST_LEN];
  int st = fm_sha_digest(alg, msg, msg_len, out, sizeof out);
  if (st == FM_OK) st = fm_selftest_expect(out, digest, digest_len);
  fm_zeroize(out, sizeof out);
  return st;
}

int sha_selftest_truncated_kat(void) {
  int st = truncated_kat(FM_HASH_SHA224, kat_sha224_msg, sizeof kat_sha224_msg,
                         kat_sha224_digest, sizeof kat_sha224_digest);
  if (st == FM_OK)
    st = truncated_kat(FM_HASH_SHA512_224, kat_sha512_224_msg, sizeof kat_sha512_224_msg,
                       kat_sha512_224_digest, sizeof kat_sha512_224_digest);
  if (st == FM_OK)
    st = truncated_kat(FM_HASH_SHA512_256, kat_sha512_256_msg, sizeof kat_sha512_256_msg,
                       kat_sha512_256_digest, sizeof kat_sha512_256_digest);
  return st;
}
