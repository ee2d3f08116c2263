/* The known-answer self-tests (CASTs, FIPS 140-3 IG 10.3.A) of SHA-2 and HMAC-SHA-2, and
 * sha_selftest_ensure and hmac_selftest_ensure, through which the services of the module ask for
 * them before they hash or MAC with an algorithm. Not part of the hash core: the post-link
 * injector knows nothing of self-tests.
 *
 * SHA-256, SHA-384, SHA-512 and HMAC with each have a test of their own, through the public
 * services, on inputs and answers in sha_kat_vectors.h (gen_sha_kat.py: Python's hashlib and
 * hmac); HMAC-SHA-256's vector also serves the first check at load, on the internal HMAC code.
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
#include "module/sha/sha_kat_vectors.h"

/* V(x) passes a vector and its length. */
#define V(x) x, sizeof x

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

static int run_sha(fm_hash_alg alg, const uint8_t *msg, size_t msg_len, const uint8_t *digest,
                   size_t digest_len) {
  uint8_t out[FM_MAX_DIGEST_LEN];
  int st = fm_sha_digest(alg, msg, msg_len, out, sizeof out);
  if (st == FM_OK) st = fm_selftest_expect(out, digest, digest_len);
  fm_zeroize(out, sizeof out);
  return st;
}

static int run_hmac(fm_hash_alg alg, const uint8_t *key, size_t key_len, const uint8_t *msg,
                    size_t msg_len, const uint8_t *tag, size_t tag_len) {
  uint8_t out[FM_MAX_DIGEST_LEN];
  int st = fm_hmac(alg, key, key_len, msg, msg_len, out, sizeof out);
  if (st == FM_OK) st = fm_selftest_expect(out, tag, tag_len);
  fm_zeroize(out, sizeof out);
  return st;
}

int sha_hmac_sha256_core_cast(void) {
  hmac_ctx c;
  uint8_t out[32];
  int st = hmac_ctx_init(&c, FM_HASH_SHA256, V(kat_hmac_sha256_key));
  if (st == FM_OK) st = hmac_ctx_update(&c, V(kat_hmac_sha256_msg));
  if (st == FM_OK) st = hmac_ctx_final(&c, out);
  if (st == FM_OK) st = fm_ct_memeq(out, kat_hmac_sha256_tag, sizeof out) ? FM_OK : FM_ERR_SELFTEST;
  hmac_ctx_wipe(&c);
  fm_zeroize(out, sizeof out);
  return st;
}

#define SHA_KAT(alg, bits) run_sha(alg, V(kat_sha##bits##_msg), V(kat_sha##bits##_digest))
#define HMAC_KAT(alg, bits) \
  run_hmac(alg, V(kat_hmac_sha##bits##_key), V(kat_hmac_sha##bits##_msg), V(kat_hmac_sha##bits##_tag))

int sha_cast(int id) {
  switch (id) {
    case FM_ST_HMAC_SHA256_KAT: return HMAC_KAT(FM_HASH_SHA256, 256);
    case FM_ST_SHA256_KAT: return SHA_KAT(FM_HASH_SHA256, 256);
    case FM_ST_SHA384_KAT: return SHA_KAT(FM_HASH_SHA384, 384);
    case FM_ST_SHA512_KAT: return SHA_KAT(FM_HASH_SHA512, 512);
    case FM_ST_HMAC_SHA384_KAT: return HMAC_KAT(FM_HASH_SHA384, 384);
    case FM_ST_HMAC_SHA512_KAT: return HMAC_KAT(FM_HASH_SHA512, 512);
    case FM_ST_SHA2_TRUNCATED_KAT: return sha_selftest_truncated_kat();
    default: return FM_ERR_INTERNAL;
  }
}
