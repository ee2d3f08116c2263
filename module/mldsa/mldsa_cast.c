/* ML-DSA's known-answer self-tests (FIPS 140-3 IG 10.3.A), one per operation as BoringSSL
 * splits them, each run before the first use of its operation, on ML-DSA-44 (the cheapest set;
 * every set shares the code under test but the parameters):
 * - key generation: KeyGen_internal from a fixed xi; the known answer is SHA3-256(pk || sk);
 * - signing: deterministic Sign_internal with that key on a fixed M'; SHA3-256 of the signature;
 * - verification: Verify_internal of a known signature (its copy made by
 *   fm_selftest_expected_copy, which corrupts it when the test is being broken) must succeed.
 * The known values are in mldsa_known_values.inc (gen_known_values.py says where they come
 * from). */
#include <stdlib.h>
#include <assert.h>
#include <string.h>

#include "module/internal.h"
#include "module/mldsa/internal.h"
#include "module/sha3/internal.h"

#include "module/mldsa/mldsa_known_values.inc"

static_assert(sizeof kMldsaKatPublicKey == 1312 && sizeof kMldsaKatSignature == 2420,
              "ML-DSA-44 sizes");

/* The M' the signing and verification tests use: the pure form, empty context, message
 * kMldsaKatMessage. */
static void kat_mu(const uint8_t *tr, uint8_t mu[64]) {
  static const uint8_t kPrefix[2] = {0, 0};
  mldsa_mu_from_tr(mu, tr, kPrefix, sizeof kPrefix, kMldsaKatMessage, sizeof kMldsaKatMessage);
}

static int cast_keygen(const mldsa_params *p, uint8_t *pk, uint8_t *sk) {
  uint8_t digest[32];
  mldsa_keygen_internal(p, pk, sk, kMldsaKatSeed);
  keccak_state st;
  sha3_init(&st, 256);
  keccak_absorb(&st, pk, p->pk_len);
  keccak_absorb(&st, sk, p->sk_len);
  keccak_squeeze(&st, digest, sizeof digest);
  keccak_wipe(&st);
  return fm_selftest_expect(digest, kMldsaKatKeyDigest, sizeof digest);
}

static int cast_sign(const mldsa_params *p, uint8_t *pk, uint8_t *sk, uint8_t *sig) {
  static const uint8_t kRnd[32];
  uint8_t mu[64], digest[32];
  mldsa_keygen_internal(p, pk, sk, kMldsaKatSeed);
  kat_mu(sk + 64, mu);
  int st = mldsa_sign_mu(p, sig, sk, mu, kRnd);
  if (st == FM_OK) {
    sha3_digest(256, sig, p->sig_len, digest);
    st = fm_selftest_expect(digest, kMldsaKatSignatureDigest, sizeof digest);
  } else {
    st = FM_ERR_SELFTEST;
  }
  fm_zeroize(mu, sizeof mu);
  return st;
}

static int cast_verify(const mldsa_params *p, uint8_t *sig) {
  uint8_t tr[64], mu[64];
  fm_selftest_expected_copy(sig, kMldsaKatSignature, sizeof kMldsaKatSignature);
  mldsa_tr_from_pk(p, tr, kMldsaKatPublicKey);
  kat_mu(tr, mu);
  return mldsa_verify_mu(p, kMldsaKatPublicKey, mu, sig) == FM_OK ? FM_OK : FM_ERR_SELFTEST;
}

int mldsa_cast(fm_selftest_id id) {
  const mldsa_params *p = mldsa_params_get(44);
  uint8_t pk[1312], sk[2560], sig[2420];
  int st;
  switch (id) {
    case FM_ST_MLDSA_KEYGEN_KAT: st = cast_keygen(p, pk, sk); break;
    case FM_ST_MLDSA_SIGN_KAT: st = cast_sign(p, pk, sk, sig); break;
    case FM_ST_MLDSA_VERIFY_KAT: st = cast_verify(p, sig); break;
    default: st = FM_ERR_INTERNAL; break;
  }
  fm_zeroize(sk, sizeof sk);
  fm_zeroize(sig, sizeof sig);
  return st;
}
