/* The ML-DSA services (fipsmod/mldsa.h): the state and self-test gate, argument checks, the
 * formatting of M' for the pure and pre-hash interfaces (FIPS 204 Algorithms 2 to 5), the
 * pairwise consistency test of key generation, and the refusal rules of module/internal.h.
 *
 * Each operation has its own CAST (IG 10.3.A), run before its first use: key generation
 * FM_ST_MLDSA_KEYGEN_KAT, signing FM_ST_MLDSA_SIGN_KAT, verification FM_ST_MLDSA_VERIFY_KAT.
 * Key generation also runs the signing and verification CASTs, because its pairwise consistency
 * test (FM_ST_MLDSA_PCT) signs and verifies. Every parameter set in every interface is approved,
 * so the indicator is what the gate set unless the call fails. */
#include <string.h>

#include "fipsmod/mldsa.h"
#include "fipsmod/rand.h"
#include "module/internal.h"
#include "module/mldsa/internal.h"
#include "module/sha/internal.h"
#include "module/sha3/internal.h"

size_t fm_mldsa_public_key_len(fm_mldsa_param param) {
  const mldsa_params *p = mldsa_params_get((int)param);
  return p != NULL ? p->pk_len : 0;
}

size_t fm_mldsa_private_key_len(fm_mldsa_param param) {
  const mldsa_params *p = mldsa_params_get((int)param);
  return p != NULL ? p->sk_len : 0;
}

size_t fm_mldsa_signature_len(fm_mldsa_param param) {
  const mldsa_params *p = mldsa_params_get((int)param);
  return p != NULL ? p->sig_len : 0;
}

static size_t min_size(size_t a, size_t b) { return a < b ? a : b; }

/* ---- Key generation -------------------------------------------------------------------------- */

/* The pairwise consistency test (FIPS 140-3 IG 10.3.A; FIPS 204 section 3.6.1 leaves it to the
 * module): mldsa_keygen_pct signs this fixed, public message with the new private key
 * (deterministically: the test needs no DRBG output) and verifies it with the new public key. */
static const uint8_t kPctMsg[] = "fipsmod ML-DSA pairwise consistency test";

/* keygen_gate: the state, then the CASTs key generation relies on (its own, and signing's and
 * verification's for the PCT). */
static int keygen_gate(void) {
  int st = fm_service_gate_tested(FM_ST_MLDSA_KEYGEN_KAT);
  if (st == FM_OK) st = fm_selftest_ensure(FM_ST_MLDSA_SIGN_KAT);
  if (st == FM_OK) st = fm_selftest_ensure(FM_ST_MLDSA_VERIFY_KAT);
  if (st != FM_OK) fm_indicator_not_approved();
  return st;
}

static int keygen_refuse(int st, uint8_t *pk, size_t pk_len, uint8_t *sk, size_t sk_len,
                         uint8_t *seed) {
  const mldsa_params *big = mldsa_params_get(87);
  fm_zeroize(seed, seed != NULL ? FM_MLDSA_SEED_LEN : 0);
  fm_zeroize(sk, sk != NULL ? min_size(sk_len, big->sk_len) : 0);
  return fm_refuse(st, pk, pk != NULL ? min_size(pk_len, big->pk_len) : 0);
}

static int keygen_checks(const mldsa_params *p, const uint8_t *pk, size_t pk_len,
                         const uint8_t *sk, size_t sk_len) {
  if (p == NULL) return FM_ERR_UNSUPPORTED;
  if (pk == NULL || sk == NULL) return FM_ERR_BAD_ARGUMENT;
  if (pk_len != p->pk_len || sk_len != p->sk_len) return FM_ERR_KEY_SIZE;
  if (fm_buffers_overlap(pk, pk_len, sk, sk_len)) return FM_ERR_OVERLAP;
  return FM_OK;
}

/* keygen_from_seed_checked runs KeyGen_internal and the PCT on checked arguments. Out of line:
 * its callers' stack wipe (mldsa_stack_wipe_keygen) then covers this frame's spills too. */
static __attribute__((noinline)) int keygen_from_seed_checked(const mldsa_params *p,
                                                              const uint8_t *seed, uint8_t *pk,
                                                              uint8_t *sk) {
  int st = mldsa_keygen_pct(p, pk, sk, seed, kPctMsg, sizeof kPctMsg - 1);
  if (st != FM_ERR_NO_MEMORY) {
    fm_selftest_record_conditional(FM_ST_MLDSA_PCT, st);
    /* A failed pairwise test has put the module in ERROR: no key leaves it then. */
    if (st == FM_OK && !fm_module_operational()) st = FM_ERR_KEYGEN;
  }
  return st;
}

int fm_mldsa_keygen_from_seed(fm_mldsa_param param, const uint8_t *seed, uint8_t *pk,
                              size_t pk_len, uint8_t *sk, size_t sk_len) {
  int st = keygen_gate();
  if (st != FM_OK) return keygen_refuse(st, pk, pk_len, sk, sk_len, NULL);
  const mldsa_params *p = mldsa_params_get((int)param);
  st = keygen_checks(p, pk, pk_len, sk, sk_len);
  if (st == FM_OK && seed == NULL) st = FM_ERR_BAD_ARGUMENT;
  if (st == FM_OK && (fm_buffers_overlap(seed, 32, pk, pk_len) ||
                      fm_buffers_overlap(seed, 32, sk, sk_len)))
    st = FM_ERR_OVERLAP;
  if (st == FM_OK) {
    st = keygen_from_seed_checked(p, seed, pk, sk);
    mldsa_stack_wipe_keygen();
  }
  if (st != FM_OK) return keygen_refuse(st, pk, pk_len, sk, sk_len, NULL);
  return FM_OK;
}

int fm_mldsa_keygen(fm_mldsa_param param, uint8_t *pk, size_t pk_len, uint8_t *sk,
                    size_t sk_len, uint8_t *seed) {
  int st = keygen_gate();
  if (st != FM_OK) return keygen_refuse(st, pk, pk_len, sk, sk_len, seed);
  const mldsa_params *p = mldsa_params_get((int)param);
  st = keygen_checks(p, pk, pk_len, sk, sk_len);
  if (st == FM_OK && seed != NULL &&
      (fm_buffers_overlap(seed, 32, pk, pk_len) || fm_buffers_overlap(seed, 32, sk, sk_len)))
    st = FM_ERR_OVERLAP;
  uint8_t xi[FM_MLDSA_SEED_LEN];
  if (st == FM_OK) st = fm_rand_bytes(xi, sizeof xi); /* Algorithm 1, step 1 */
  if (st == FM_OK) {
    st = keygen_from_seed_checked(p, xi, pk, sk);
    mldsa_stack_wipe_keygen();
  }
  if (st == FM_OK && seed != NULL) memcpy(seed, xi, sizeof xi);
  fm_zeroize(xi, sizeof xi);
  if (st != FM_OK) return keygen_refuse(st, pk, pk_len, sk, sk_len, seed);
  return FM_OK;
}

/* ---- Formatting M' ----------------------------------------------------------------------------
 * Pure (Algorithm 2 step 10): M' = 0 || |ctx| || ctx || M. HashML-DSA (Algorithm 4 steps 10-23):
 * M' = 1 || |ctx| || ctx || OID || PH(M), the OID in DER (06 09 2.16.840.1.101.3.4.2.x). The
 * prefix holds everything but M for the pure form, all of M' for the pre-hash form. */

#define PREFIX_MAX (2 + 255 + 11 + 64)

typedef struct mprime_prefix {
  uint8_t b[PREFIX_MAX];
  size_t len;
} mprime_prefix;

static void prefix_pure(mprime_prefix *pre, const uint8_t *ctx, size_t ctx_len) {
  pre->b[0] = 0;
  pre->b[1] = (uint8_t)ctx_len;
  if (ctx_len != 0) memcpy(pre->b + 2, ctx, ctx_len);
  pre->len = 2 + ctx_len;
}

/* The pre-hash functions HashML-DSA offers: the last arc of the hash's OID
 * (2.16.840.1.101.3.4.2.x), the digest length, and the SHA-2 hash or the Keccak function. */
typedef struct prehash_info {
  uint8_t oid_last;
  uint8_t dlen;
  fm_hash_alg sha2; /* 0 for the FIPS 202 functions */
  uint16_t keccak;  /* SHA3-n: n; SHAKE128/256: 128/256 */
} prehash_info;

static const prehash_info *prehash_get(fm_mldsa_prehash ph) {
  static const prehash_info kInfo[] = {
      [FM_MLDSA_PH_SHA256] = {0x01, 32, FM_HASH_SHA256, 0},
      [FM_MLDSA_PH_SHA384] = {0x02, 48, FM_HASH_SHA384, 0},
      [FM_MLDSA_PH_SHA512] = {0x03, 64, FM_HASH_SHA512, 0},
      [FM_MLDSA_PH_SHA3_224] = {0x07, 28, (fm_hash_alg)0, 224},
      [FM_MLDSA_PH_SHA3_256] = {0x08, 32, (fm_hash_alg)0, 256},
      [FM_MLDSA_PH_SHA3_384] = {0x09, 48, (fm_hash_alg)0, 384},
      [FM_MLDSA_PH_SHA3_512] = {0x0a, 64, (fm_hash_alg)0, 512},
      [FM_MLDSA_PH_SHAKE128] = {0x0b, 32, (fm_hash_alg)0, 128},
      [FM_MLDSA_PH_SHAKE256] = {0x0c, 64, (fm_hash_alg)0, 256},
      [FM_MLDSA_PH_SHA224] = {0x04, 28, FM_HASH_SHA224, 0},
      [FM_MLDSA_PH_SHA512_224] = {0x05, 28, FM_HASH_SHA512_224, 0},
      [FM_MLDSA_PH_SHA512_256] = {0x06, 32, FM_HASH_SHA512_256, 0},
  };
  const size_t i = (size_t)ph;
  if (i >= sizeof kInfo / sizeof kInfo[0] || kInfo[i].dlen == 0) return NULL;
  return &kInfo[i];
}

/* prehash_digest writes PH(M) (info->dlen bytes) to |out|. The message is public. */
static int prehash_digest(fm_mldsa_prehash ph, const prehash_info *info, const uint8_t *msg,
                          size_t msg_len, uint8_t *out) {
  if (info->sha2 != 0) {
    int st = sha_selftest_ensure(info->sha2);
    return st == FM_OK ? sha_digest_internal(info->sha2, msg, msg_len, out) : st;
  }
  if (ph == FM_MLDSA_PH_SHAKE128) {
    shake128(out, info->dlen, msg, msg_len);
  } else if (ph == FM_MLDSA_PH_SHAKE256) {
    shake256(out, info->dlen, msg, msg_len);
  } else {
    sha3_digest(info->keccak, msg, msg_len, out);
  }
  return FM_OK;
}

/* prefix_prehash returns FM_ERR_UNSUPPORTED for an unknown pre-hash. */
static int prefix_prehash(mprime_prefix *pre, fm_mldsa_prehash ph, const uint8_t *ctx,
                          size_t ctx_len, const uint8_t *msg, size_t msg_len) {
  const prehash_info *info = prehash_get(ph);
  if (info == NULL) return FM_ERR_UNSUPPORTED;
  static const uint8_t kOidPrefix[10] = {0x06, 0x09, 0x60, 0x86, 0x48,
                                         0x01, 0x65, 0x03, 0x04, 0x02};
  uint8_t *o = pre->b;
  *o++ = 1;
  *o++ = (uint8_t)ctx_len;
  if (ctx_len != 0) memcpy(o, ctx, ctx_len);
  o += ctx_len;
  memcpy(o, kOidPrefix, sizeof kOidPrefix);
  o += sizeof kOidPrefix;
  *o++ = info->oid_last;
  pre->len = (size_t)(o - pre->b) + info->dlen;
  return prehash_digest(ph, info, msg, msg_len, o);
}

/* ---- Signing ------------------------------------------------------------------------------- */

static int sign_refuse(int st, uint8_t *sig, size_t sig_cap, size_t *sig_len) {
  const size_t len = sig != NULL ? min_size(sig_cap, MLDSA_MAX_SIGNATURE_BYTES) : 0;
  return fm_refuse2(st, sig, len, sig_len, sig_len != NULL ? sizeof *sig_len : 0);
}

/* sign_checks: the arguments every signing entry point shares, after the gate. */
static int sign_checks(const mldsa_params *p, const uint8_t *sk, size_t sk_len,
                       const uint8_t *msg, size_t msg_len, const uint8_t *ctx, size_t ctx_len,
                       const uint8_t *sig, size_t sig_cap, const size_t *sig_len) {
  if (p == NULL) return FM_ERR_UNSUPPORTED;
  if (sk == NULL || sig == NULL || sig_len == NULL || (msg == NULL && msg_len != 0) ||
      (ctx == NULL && ctx_len != 0))
    return FM_ERR_BAD_ARGUMENT;
  if (sk_len != p->sk_len) return FM_ERR_KEY_SIZE;
  if (ctx_len > FM_MLDSA_MAX_CONTEXT_LEN) return FM_ERR_LENGTH;
  if (sig_cap < p->sig_len) return FM_ERR_BUFFER_TOO_SMALL;
  if (fm_buffers_overlap(sig, p->sig_len, sk, sk_len) ||
      fm_buffers_overlap(sig, p->sig_len, msg, msg_len) ||
      fm_buffers_overlap(sig, p->sig_len, ctx, ctx_len))
    return FM_ERR_OVERLAP;
  return FM_OK;
}

/* sign_finish computes mu = H(tr || prefix || msg), draws rnd unless deterministic (or takes
 * |rnd_in|), and signs. */
static int sign_finish(const mldsa_params *p, const uint8_t *sk, const uint8_t *prefix,
                       size_t prefix_len, const uint8_t *msg, size_t msg_len, int deterministic,
                       const uint8_t *rnd_in, uint8_t *sig, size_t *sig_len) {
  uint8_t mu[MLDSA_CRH_BYTES], rnd[MLDSA_RND_BYTES];
  int st = FM_OK;
  if (rnd_in != NULL) {
    memcpy(rnd, rnd_in, sizeof rnd);
  } else if (deterministic) {
    memset(rnd, 0, sizeof rnd);
  } else {
    st = fm_rand_bytes(rnd, sizeof rnd); /* Algorithm 2 step 5 */
  }
  if (st == FM_OK) {
    mldsa_mu_from_tr(mu, sk + 64, prefix, prefix_len, msg, msg_len);
    st = mldsa_sign_mu(p, sig, sk, mu, rnd);
    mldsa_stack_wipe();
  }
  fm_zeroize(mu, sizeof mu);
  fm_zeroize(rnd, sizeof rnd);
  if (st == FM_OK) *sig_len = p->sig_len;
  return st;
}

int fm_mldsa_sign(fm_mldsa_param param, const uint8_t *sk, size_t sk_len, const uint8_t *msg,
                  size_t msg_len, const uint8_t *ctx, size_t ctx_len, unsigned flags,
                  uint8_t *sig, size_t sig_cap, size_t *sig_len) {
  int st = fm_service_gate_tested(FM_ST_MLDSA_SIGN_KAT);
  if (st != FM_OK) return sign_refuse(st, sig, sig_cap, sig_len);
  const mldsa_params *p = mldsa_params_get((int)param);
  st = sign_checks(p, sk, sk_len, msg, msg_len, ctx, ctx_len, sig, sig_cap, sig_len);
  if (st == FM_OK && (flags & ~FM_MLDSA_SIGN_DETERMINISTIC) != 0) st = FM_ERR_BAD_ARGUMENT;
  if (st != FM_OK) return sign_refuse(st, sig, sig_cap, sig_len);
  mprime_prefix pre;
  prefix_pure(&pre, ctx, ctx_len);
  st = sign_finish(p, sk, pre.b, pre.len, msg, msg_len, flags & FM_MLDSA_SIGN_DETERMINISTIC,
                   NULL, sig, sig_len);
  if (st != FM_OK) return sign_refuse(st, sig, sig_cap, sig_len);
  return FM_OK;
}

int fm_mldsa_hash_sign(fm_mldsa_param param, const uint8_t *sk, size_t sk_len,
                       fm_mldsa_prehash ph, const uint8_t *msg, size_t msg_len,
                       const uint8_t *ctx, size_t ctx_len, unsigned flags, uint8_t *sig,
                       size_t sig_cap, size_t *sig_len) {
  int st = fm_service_gate_tested(FM_ST_MLDSA_SIGN_KAT);
  if (st != FM_OK) return sign_refuse(st, sig, sig_cap, sig_len);
  const mldsa_params *p = mldsa_params_get((int)param);
  st = sign_checks(p, sk, sk_len, msg, msg_len, ctx, ctx_len, sig, sig_cap, sig_len);
  if (st == FM_OK && (flags & ~FM_MLDSA_SIGN_DETERMINISTIC) != 0) st = FM_ERR_BAD_ARGUMENT;
  mprime_prefix pre;
  if (st == FM_OK) st = prefix_prehash(&pre, ph, ctx, ctx_len, msg, msg_len);
  if (st == FM_OK)
    st = sign_finish(p, sk, pre.b, pre.len, NULL, 0, flags & FM_MLDSA_SIGN_DETERMINISTIC, NULL,
                     sig, sig_len);
  if (st != FM_OK) return sign_refuse(st, sig, sig_cap, sig_len);
  return FM_OK;
}

int fm_mldsa_sign_with_rnd(fm_mldsa_param param, const uint8_t *sk, size_t sk_len,
                           fm_mldsa_prehash ph, const uint8_t *msg, size_t msg_len,
                           const uint8_t *ctx, size_t ctx_len, const uint8_t *rnd, uint8_t *sig,
                           size_t sig_cap, size_t *sig_len) {
  int st = fm_service_gate_tested(FM_ST_MLDSA_SIGN_KAT);
  if (st != FM_OK) return sign_refuse(st, sig, sig_cap, sig_len);
  const mldsa_params *p = mldsa_params_get((int)param);
  st = sign_checks(p, sk, sk_len, msg, msg_len, ctx, ctx_len, sig, sig_cap, sig_len);
  if (st == FM_OK && rnd != NULL && fm_buffers_overlap(sig, p->sig_len, rnd, MLDSA_RND_BYTES))
    st = FM_ERR_OVERLAP;
  mprime_prefix pre;
  if (st == FM_OK && ph == FM_MLDSA_PH_NONE) {
    prefix_pure(&pre, ctx, ctx_len);
    st = sign_finish(p, sk, pre.b, pre.len, msg, msg_len, 1, rnd, sig, sig_len);
  } else if (st == FM_OK) {
    st = prefix_prehash(&pre, ph, ctx, ctx_len, msg, msg_len);
    if (st == FM_OK) st = sign_finish(p, sk, pre.b, pre.len, NULL, 0, 1, rnd, sig, sig_len);
  }
  if (st != FM_OK) return sign_refuse(st, sig, sig_cap, sig_len);
  return FM_OK;
}

int fm_mldsa_sign_internal(fm_mldsa_param param, const uint8_t *sk, size_t sk_len,
                           const uint8_t *mprime, size_t mprime_len, const uint8_t *rnd,
                           uint8_t *sig, size_t sig_cap, size_t *sig_len) {
  int st = fm_service_gate_tested(FM_ST_MLDSA_SIGN_KAT);
  if (st != FM_OK) return sign_refuse(st, sig, sig_cap, sig_len);
  const mldsa_params *p = mldsa_params_get((int)param);
  st = sign_checks(p, sk, sk_len, mprime, mprime_len, NULL, 0, sig, sig_cap, sig_len);
  if (st == FM_OK && rnd != NULL && fm_buffers_overlap(sig, p->sig_len, rnd, 32))
    st = FM_ERR_OVERLAP;
  if (st == FM_OK) st = sign_finish(p, sk, NULL, 0, mprime, mprime_len, 1, rnd, sig, sig_len);
  if (st != FM_OK) return sign_refuse(st, sig, sig_cap, sig_len);
  return FM_OK;
}

int fm_mldsa_sign_mu(fm_mldsa_param param, const uint8_t *sk, size_t sk_len, const uint8_t *mu,
                     const uint8_t *rnd, uint8_t *sig, size_t sig_cap, size_t *sig_len) {
  int st = fm_service_gate_tested(FM_ST_MLDSA_SIGN_KAT);
  if (st != FM_OK) return sign_refuse(st, sig, sig_cap, sig_len);
  const mldsa_params *p = mldsa_params_get((int)param);
  st = sign_checks(p, sk, sk_len, NULL, 0, NULL, 0, sig, sig_cap, sig_len);
  if (st == FM_OK && mu == NULL) st = FM_ERR_BAD_ARGUMENT;
  if (st == FM_OK && (fm_buffers_overlap(sig, p->sig_len, mu, 64) ||
                      (rnd != NULL && fm_buffers_overlap(sig, p->sig_len, rnd, 32))))
    st = FM_ERR_OVERLAP;
  if (st == FM_OK) {
    static const uint8_t kZero[MLDSA_RND_BYTES];
    st = mldsa_sign_mu(p, sig, sk, mu, rnd != NULL ? rnd : kZero);
    mldsa_stack_wipe();
    if (st == FM_OK) *sig_len = p->sig_len;
  }
  if (st != FM_OK) return sign_refuse(st, sig, sig_cap, sig_len);
  return FM_OK;
}

/* ---- Verification ----------------------------------------------------------------------------
 * Everything is public here. A signature of the wrong length is FM_ERR_LENGTH (still a
 * rejection). */

static int verify_checks(const mldsa_params *p, const uint8_t *pk, size_t pk_len,
                         const uint8_t *msg, size_t msg_len, const uint8_t *ctx, size_t ctx_len,
                         const uint8_t *sig, size_t sig_len) {
  if (p == NULL) return FM_ERR_UNSUPPORTED;
  if (pk == NULL || sig == NULL || (msg == NULL && msg_len != 0) || (ctx == NULL && ctx_len != 0))
    return FM_ERR_BAD_ARGUMENT;
  if (pk_len != p->pk_len) return FM_ERR_KEY_SIZE;
  if (ctx_len > FM_MLDSA_MAX_CONTEXT_LEN || sig_len != p->sig_len) return FM_ERR_LENGTH;
  return FM_OK;
}

static int verify_finish(const mldsa_params *p, const uint8_t *pk, const uint8_t *prefix,
                         size_t prefix_len, const uint8_t *msg, size_t msg_len,
                         const uint8_t *sig) {
  uint8_t tr[MLDSA_TR_BYTES], mu[MLDSA_CRH_BYTES];
  mldsa_tr_from_pk(p, tr, pk);
  mldsa_mu_from_tr(mu, tr, prefix, prefix_len, msg, msg_len);
  return mldsa_verify_mu(p, pk, mu, sig);
}

static int verify_refuse(int st) { return fm_refuse(st, NULL, 0); }

int fm_mldsa_verify(fm_mldsa_param param, const uint8_t *pk, size_t pk_len, const uint8_t *msg,
                    size_t msg_len, const uint8_t *ctx, size_t ctx_len, const uint8_t *sig,
                    size_t sig_len) {
  int st = fm_service_gate_tested(FM_ST_MLDSA_VERIFY_KAT);
  if (st != FM_OK) return st;
  const mldsa_params *p = mldsa_params_get((int)param);
  st = verify_checks(p, pk, pk_len, msg, msg_len, ctx, ctx_len, sig, sig_len);
  if (st != FM_OK) return verify_refuse(st);
  mprime_prefix pre;
  prefix_pure(&pre, ctx, ctx_len);
  st = verify_finish(p, pk, pre.b, pre.len, msg, msg_len, sig);
  return st == FM_OK ? FM_OK : verify_refuse(st);
}

int fm_mldsa_hash_verify(fm_mldsa_param param, const uint8_t *pk, size_t pk_len,
                         fm_mldsa_prehash ph, const uint8_t *msg, size_t msg_len,
                         const uint8_t *ctx, size_t ctx_len, const uint8_t *sig,
                         size_t sig_len) {
  int st = fm_service_gate_tested(FM_ST_MLDSA_VERIFY_KAT);
  if (st != FM_OK) return st;
  const mldsa_params *p = mldsa_params_get((int)param);
  st = verify_checks(p, pk, pk_len, msg, msg_len, ctx, ctx_len, sig, sig_len);
  mprime_prefix pre;
  if (st == FM_OK) st = prefix_prehash(&pre, ph, ctx, ctx_len, msg, msg_len);
  if (st == FM_OK) st = verify_finish(p, pk, pre.b, pre.len, NULL, 0, sig);
  return st == FM_OK ? FM_OK : verify_refuse(st);
}

int fm_mldsa_verify_internal(fm_mldsa_param param, const uint8_t *pk, size_t pk_len,
                             const uint8_t *mprime, size_t mprime_len, const uint8_t *sig,
                             size_t sig_len) {
  int st = fm_service_gate_tested(FM_ST_MLDSA_VERIFY_KAT);
  if (st != FM_OK) return st;
  const mldsa_params *p = mldsa_params_get((int)param);
  st = verify_checks(p, pk, pk_len, mprime, mprime_len, NULL, 0, sig, sig_len);
  if (st == FM_OK) st = verify_finish(p, pk, NULL, 0, mprime, mprime_len, sig);
  return st == FM_OK ? FM_OK : verify_refuse(st);
}

int fm_mldsa_verify_mu(fm_mldsa_param param, const uint8_t *pk, size_t pk_len, const uint8_t *mu,
                       const uint8_t *sig, size_t sig_len) {
  int st = fm_service_gate_tested(FM_ST_MLDSA_VERIFY_KAT);
  if (st != FM_OK) return st;
  const mldsa_params *p = mldsa_params_get((int)param);
  st = verify_checks(p, pk, pk_len, NULL, 0, NULL, 0, sig, sig_len);
  if (st == FM_OK && mu == NULL) st = FM_ERR_BAD_ARGUMENT;
  if (st == FM_OK) st = mldsa_verify_mu(p, pk, mu, sig);
  return st == FM_OK ? FM_OK : verify_refuse(st);
}
