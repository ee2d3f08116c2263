/* ECDSA (FIPS 186-5 6.4): signing with a per-message secret k from the module's DRBG (A.3.2)
 * or derived deterministically (6.3.2, RFC 6979), constant time in d, k and the digest;
 * verification, variable time on its public inputs; and the pairwise consistency test of new key
 * pairs. Scalars mod n are kept in Montgomery form of n while they are combined. */
#include <string.h>

#include "module/ec/internal.h"
#include "module/internal.h"
#include "module/sha/internal.h"

/* bits_to_int sets e = bits2int(digest) (RFC 6979 2.3.2): the leftmost |bits| bits of the
 * digest as an integer, below 2^bits. digest_to_scalar reduces it mod n: it
 * sets e = bits2int(digest) mod n: the leftmost |bits| bits of the digest as an
 * integer (FIPS 186-5 6.4.1 step 2 and 3), which is below 2^bits < 2n, so one conditional
 * subtraction reduces it. The digest is secret only as far as the signature is. */
static void bits_to_int(const ec_curve *c, uint64_t *e, const uint8_t *digest, size_t len) {
  const size_t take = len < c->bytes ? len : c->bytes;
  ec_limbs_from_be(c->limbs, e, digest, take);
  const size_t extra = 8 * take > c->bits ? 8 * take - c->bits : 0; /* public: the lengths */
  if (extra != 0) {
    for (unsigned i = 0; i < c->limbs; i++)
      e[i] = (e[i] >> extra) | (i + 1 < c->limbs ? e[i + 1] << (64 - extra) : 0);
  }
}

static void digest_to_scalar(const ec_curve *c, uint64_t *e, const uint8_t *digest, size_t len) {
  bits_to_int(c, e, digest, len);
  ec_limbs_cond_sub(c->limbs, e, c->n.m);
}

int ecdsa_sign_digest_with_k(const fm_ec_key *key, const uint8_t *digest, size_t digest_len,
                             const uint64_t *k, uint8_t *sig) {
  const ec_curve *c = key->curve;
  const ec_mod *n = &c->n;
  ec_point rp;
  uint64_t x[EC_MAX_LIMBS], y[EC_MAX_LIMBS], r[EC_MAX_LIMBS], e[EC_MAX_LIMBS], t[EC_MAX_LIMBS],
      km[EC_MAX_LIMBS], s[EC_MAX_LIMBS];
  int st = FM_OK;
  /* Steps 5-6: R = kG and r = x_R mod n (x_R < p < 2n). */
  ec_scalar_mul_base(c, &rp, k);
  (void)ec_point_to_affine(c, x, y, &rp); /* k in [1, n-1]: R is finite */
  ec_mod_from_mont(c, &c->p, r, x);
  ec_limbs_cond_sub(c->limbs, r, n->m);
  /* Step 8: k^-1 mod n by Fermat, in Montgomery form. */
  ec_mod_to_mont(c, n, km, k);
  ec_mod_inv(c, n, km, km);
  /* Step 9-10: s = k^-1 (e + r d) mod n. */
  digest_to_scalar(c, e, digest, digest_len);
  ec_mod_to_mont(c, n, e, e);
  ec_mod_to_mont(c, n, t, r);
  ec_mod_to_mont(c, n, s, key->d);
  ec_mod_mul(c, n, t, t, s);
  ec_mod_add(c, n, t, t, e);
  ec_mod_mul(c, n, s, km, t);
  ec_mod_from_mont(c, n, s, s);
  /* Steps 7 and 11: r = 0 or s = 0 means another k; r and s are about to be released. */
  const uint64_t bad = ec_limbs_is_zero(c->limbs, r) | ec_limbs_is_zero(c->limbs, s);
  if (fm_declassify_u64(bad)) {
    st = FM_ERR_INTERNAL;
  } else {
    ec_limbs_to_be(sig, c->bytes, r);
    ec_limbs_to_be(sig + c->bytes, c->bytes, s);
    fm_declassify(sig, 2 * c->bytes);
  }
  fm_zeroize(&rp, sizeof rp);
  fm_zeroize(x, sizeof x);
  fm_zeroize(y, sizeof y);
  fm_zeroize(e, sizeof e);
  fm_zeroize(t, sizeof t);
  fm_zeroize(km, sizeof km);
  fm_zeroize(s, sizeof s);
  fm_zeroize(r, sizeof r);
  return st;
}

/* sign_digest draws k until the signature is good (r and s not 0 fails with probability about
 * 2^-bits per draw). */
static int sign_digest(const fm_ec_key *key, const uint8_t *digest, size_t digest_len,
                       uint8_t *sig) {
  uint64_t k[EC_MAX_LIMBS];
  int st;
  do {
    st = ec_random_scalar(key->curve, k);
    if (st != FM_OK) break;
    st = ecdsa_sign_digest_with_k(key, digest, digest_len, k, sig);
  } while (st == FM_ERR_INTERNAL);
  fm_zeroize(k, sizeof k);
  ec_stack_wipe();
  return st;
}

/* ---- Deterministic ECDSA (FIPS 186-5 6.3.2, RFC 6979 3.2) ---------------------------------- */

/* det_hmac sets out = HMAC_K(V || sep || x || h1) with the first |parts| of (V, sep, x, h1):
 * every input but V's length is secret, and HMAC's time depends on the lengths only. */
static int det_hmac(fm_hash_alg alg, const uint8_t *key, size_t hlen, const uint8_t *v,
                    const uint8_t *sep, const uint8_t *x, const uint8_t *h1, size_t rlen,
                    unsigned parts, uint8_t *out) {
  hmac_ctx h;
  int st = hmac_ctx_init(&h, alg, key, hlen);
  if (st == FM_OK) st = hmac_ctx_update(&h, v, hlen);
  if (st == FM_OK && parts > 1) st = hmac_ctx_update(&h, sep, 1);
  if (st == FM_OK && parts > 2) st = hmac_ctx_update(&h, x, rlen);
  if (st == FM_OK && parts > 3) st = hmac_ctx_update(&h, h1, rlen);
  if (st == FM_OK) st = hmac_ctx_final(&h, out);
  hmac_ctx_wipe(&h);
  return st;
}

/* ecdsa_sign_digest_deterministic signs |digest| (the output of |alg|, or any digest the caller computed) with
 * the nonce of RFC 6979 3.2 / FIPS 186-5 A.3.3: an HMAC_DRBG over |alg| seeded with
 * int2octets(d) || bits2octets(digest). Steps (b)..(g) seed K and V; step (h) draws candidates.
 *
 * Constant time: d, the digest, K, V and every candidate stay secret; only whether a candidate is
 * rejected (k = 0, k >= n, or r = 0 or s = 0 after signing) is made public, and a rejected
 * candidate is discarded, never used. A uniform bits2int(T) is >= n with probability
 * (2^bits - n) / 2^bits: below 2^-32 on P-256, 2^-112 on P-224, 2^-190 on P-384 and 2^-260 on
 * P-521; r or s is 0 with probability about 2^-bits. So the loop runs again only with that
 * negligible probability, and its running time reveals nothing about the k it returns. */
int ecdsa_sign_digest_deterministic(const fm_ec_key *key, fm_hash_alg alg, const uint8_t *digest,
                                    size_t digest_len, uint8_t *sig) {
  const ec_curve *c = key->curve;
  const size_t hlen = sha_alg_digest_len(alg), rlen = c->bytes;
  uint8_t kk[FM_MAX_DIGEST_LEN], v[FM_MAX_DIGEST_LEN], x[EC_MAX_BYTES], h1[EC_MAX_BYTES],
      t[EC_MAX_BYTES + FM_MAX_DIGEST_LEN];
  uint64_t e[EC_MAX_LIMBS], k[EC_MAX_LIMBS];
  /* (a)-(c): x = int2octets(d), h1 = bits2octets(H(m)) = int2octets(bits2int(H(m)) mod n). */
  ec_limbs_to_be(x, rlen, key->d);
  digest_to_scalar(c, e, digest, digest_len);
  ec_limbs_to_be(h1, rlen, e);
  memset(v, 0x01, hlen);
  memset(kk, 0x00, hlen);
  int st = FM_OK;
  /* (d)-(g): K = HMAC_K(V || 0x00 || x || h1), V = HMAC_K(V); again with 0x01. */
  for (uint8_t round = 0; round < 2 && st == FM_OK; round++) {
    st = det_hmac(alg, kk, hlen, v, &round, x, h1, rlen, 4, kk);
    if (st == FM_OK) st = det_hmac(alg, kk, hlen, v, NULL, NULL, NULL, rlen, 1, v);
  }
  while (st == FM_OK) {
    /* (h.1)-(h.2): T = V || V' || ... until it has rlen octets (qlen bits or more). */
    for (size_t tlen = 0; tlen < rlen && st == FM_OK; tlen += hlen) {
      st = det_hmac(alg, kk, hlen, v, NULL, NULL, NULL, rlen, 1, v);
      memcpy(t + tlen, v, hlen);
    }
    if (st != FM_OK) break;
    /* (h.3): k = bits2int(T); accept 1 <= k < n that gives r != 0 and s != 0. */
    bits_to_int(c, k, t, rlen);
    const uint64_t ok = ~ec_limbs_is_zero(c->limbs, k) & ec_limbs_lt(c->limbs, k, c->n.m);
    if (fm_declassify_u64(ok)) {
      st = ecdsa_sign_digest_with_k(key, digest, digest_len, k, sig);
      if (st != FM_ERR_INTERNAL) break;
      st = FM_OK;
    }
    /* Rejected: K = HMAC_K(V || 0x00), V = HMAC_K(V). */
    static const uint8_t zero = 0;
    st = det_hmac(alg, kk, hlen, v, &zero, NULL, NULL, rlen, 2, kk);
    if (st == FM_OK) st = det_hmac(alg, kk, hlen, v, NULL, NULL, NULL, rlen, 1, v);
  }
  fm_zeroize(kk, sizeof kk);
  fm_zeroize(v, sizeof v);
  fm_zeroize(x, sizeof x);
  fm_zeroize(h1, sizeof h1);
  fm_zeroize(t, sizeof t);
  fm_zeroize(e, sizeof e);
  fm_zeroize(k, sizeof k);
  ec_stack_wipe();
  return st;
}

int ecdsa_verify_digest(const fm_ec_key *key, const uint8_t *digest, size_t digest_len,
                        const uint8_t *sig, size_t sig_len) {
  /* Every input is public: this takes variable time. */
  const ec_curve *c = key->curve;
  const ec_mod *n = &c->n;
  uint64_t r[EC_MAX_LIMBS], s[EC_MAX_LIMBS], e[EC_MAX_LIMBS], w[EC_MAX_LIMBS], u1[EC_MAX_LIMBS],
      u2[EC_MAX_LIMBS], x[EC_MAX_LIMBS], y[EC_MAX_LIMBS];
  if (sig_len != 2 * c->bytes) return FM_ERR_VERIFY;
  ec_limbs_from_be(c->limbs, r, sig, c->bytes);
  ec_limbs_from_be(c->limbs, s, sig + c->bytes, c->bytes);
  /* FIPS 186-5 6.4.2 step 2: r and s in [1, n-1]. */
  if (ec_limbs_is_zero(c->limbs, r) || ec_limbs_is_zero(c->limbs, s) ||
      !ec_limbs_lt(c->limbs, r, n->m) || !ec_limbs_lt(c->limbs, s, n->m))
    return FM_ERR_VERIFY;
  /* Steps 3-7: w = s^-1, u1 = e w, u2 = r w (mod n). */
  digest_to_scalar(c, e, digest, digest_len);
  ec_mod_to_mont(c, n, w, s);
  ec_mod_inv_public(c, n, w, w); /* s is public: VARIABLE TIME */
  ec_mod_mul(c, n, u1, e, w); /* e * w * R * R^-1: plain e w */
  ec_mod_mul(c, n, u2, r, w);
  /* Step 8: R = u1 G + u2 Q; infinity rejects. */
  ec_point q, rp;
  ec_point_set_affine(c, &q, key->qx, key->qy);
  ec_double_mul_public(c, &rp, u1, u2, &q);
  if (ec_limbs_is_zero(c->limbs, rp.z)) return FM_ERR_VERIFY;
  /* Steps 9-10: accept when x_R mod n = r, without taking R to affine coordinates: x_R = X / Z
   * and x_R < p < 2n, so x_R mod n = r exactly when X = r Z, or X = (r + n) Z with r + n < p. */
  const ec_mod *fp = &c->p;
  uint64_t rz[EC_MAX_LIMBS];
  ec_mod_to_mont(c, fp, x, r); /* r < n < p */
  ec_mod_mul(c, fp, rz, x, rp.z);
  if (ec_limbs_eq(c->limbs, rz, rp.x)) return FM_OK;
  /* r + n < p: the sum does not carry out of the limbs (n < p < 2^bits). */
  uint64_t carry = 0;
  for (unsigned i = 0; i < c->limbs; i++) {
    const uint64_t t = r[i] + carry;
    carry = t < carry;
    y[i] = t + n->m[i];
    carry += y[i] < t;
  }
  if (carry != 0 || !ec_limbs_lt(c->limbs, y, fp->m)) return FM_ERR_VERIFY;
  ec_mod_to_mont(c, fp, x, y);
  ec_mod_mul(c, fp, rz, x, rp.z);
  return ec_limbs_eq(c->limbs, rz, rp.x) ? FM_OK : FM_ERR_VERIFY;
}

/* ---- Pairwise consistency test ------------------------------------------------------------ */

int ec_pct(const fm_ec_key *key) {
  /* FIPS 140-3 IG 10.3.A: sign a fixed digest with the new private key and verify it with the
   * public key. */
  static const uint8_t digest[32] = {0x50, 0x43, 0x54};
  uint8_t sig[FM_EC_MAX_SIG_BYTES];
  int st = sign_digest(key, digest, sizeof digest, sig);
  if (st == FM_OK) st = ecdsa_verify_digest(key, digest, sizeof digest, sig, 2 * key->curve->bytes);
  fm_zeroize(sig, sizeof sig);
  if (st == FM_ERR_ENTROPY) return st;
  fm_selftest_record_conditional(FM_ST_ECDSA_PCT, st == FM_OK ? FM_OK : FM_ERR_SELFTEST);
  /* A failed pairwise test has put the module in ERROR: no key leaves it then. */
  if (st == FM_OK && !fm_module_operational()) st = FM_ERR_KEYGEN;
  return st == FM_OK ? FM_OK : FM_ERR_KEYGEN;
}

/* ---- Services ---------------------------------------------------------------------------- */

static int refuse_sig(int st, const fm_ec_key *key, uint8_t *sig, size_t cap, size_t *sig_len) {
  const size_t most = ec_key_valid(key) ? 2 * key->curve->bytes : FM_EC_MAX_SIG_BYTES;
  const size_t len = sig != NULL ? (cap < most ? cap : most) : 0;
  return fm_refuse2(st, sig, len, sig_len, sig_len != NULL ? sizeof(*sig_len) : 0);
}

static int sign_prologue(const fm_ec_key *key, const uint8_t *sig, size_t cap,
                         const size_t *sig_len) {
  int st = fm_service_gate_tested(FM_ST_ECDSA_SIGN_KAT);
  if (st != FM_OK) return st;
  if (!ec_key_valid(key) || sig == NULL || sig_len == NULL || !key->has_private)
    return FM_ERR_BAD_ARGUMENT;
  if (cap < 2 * key->curve->bytes) return FM_ERR_BUFFER_TOO_SMALL;
  return FM_OK;
}

int fm_ecdsa_sign(const fm_ec_key *key, fm_hash_alg hash, const uint8_t *msg, size_t msg_len,
                  uint8_t *sig, size_t cap, size_t *sig_len) {
  int st = sign_prologue(key, sig, cap, sig_len);
  if (st == FM_OK && msg == NULL && msg_len > 0) st = FM_ERR_BAD_ARGUMENT;
  if (st == FM_OK && sha_alg_digest_len(hash) == 0) st = FM_ERR_UNSUPPORTED;
  if (st == FM_OK) st = sha_selftest_ensure(hash);
  if (st != FM_OK) return refuse_sig(st, key, sig, cap, sig_len);
  uint8_t digest[FM_MAX_DIGEST_LEN];
  (void)sha_digest_internal(hash, msg, msg_len, digest);
  st = sign_digest(key, digest, sha_alg_digest_len(hash), sig);
  fm_zeroize(digest, sizeof digest);
  if (st != FM_OK) return refuse_sig(st, key, sig, cap, sig_len);
  *sig_len = 2 * key->curve->bytes;
  return FM_OK;
}

int fm_ecdsa_sign_digest(const fm_ec_key *key, const uint8_t *digest, size_t digest_len,
                         uint8_t *sig, size_t cap, size_t *sig_len) {
  int st = sign_prologue(key, sig, cap, sig_len);
  if (st == FM_OK && digest == NULL) st = FM_ERR_BAD_ARGUMENT;
  /* A digest shorter than SHA-224's gives less than 112 bits of security: refused. */
  if (st == FM_OK && (digest_len < 28 || digest_len > FM_MAX_DIGEST_LEN)) st = FM_ERR_LENGTH;
  if (st != FM_OK) return refuse_sig(st, key, sig, cap, sig_len);
  st = sign_digest(key, digest, digest_len, sig);
  if (st != FM_OK) return refuse_sig(st, key, sig, cap, sig_len);
  *sig_len = 2 * key->curve->bytes;
  return FM_OK;
}

int fm_ecdsa_sign_deterministic(const fm_ec_key *key, fm_hash_alg hash, const uint8_t *msg,
                                size_t msg_len, uint8_t *sig, size_t cap, size_t *sig_len) {
  int st = sign_prologue(key, sig, cap, sig_len);
  if (st == FM_OK && msg == NULL && msg_len > 0) st = FM_ERR_BAD_ARGUMENT;
  if (st == FM_OK && sha_alg_digest_len(hash) == 0) st = FM_ERR_UNSUPPORTED;
  if (st == FM_OK) st = sha_selftest_ensure(hash);
  if (st != FM_OK) return refuse_sig(st, key, sig, cap, sig_len);
  uint8_t digest[FM_MAX_DIGEST_LEN];
  (void)sha_digest_internal(hash, msg, msg_len, digest);
  st = ecdsa_sign_digest_deterministic(key, hash, digest, sha_alg_digest_len(hash), sig);
  fm_zeroize(digest, sizeof digest);
  if (st != FM_OK) return refuse_sig(st, key, sig, cap, sig_len);
  *sig_len = 2 * key->curve->bytes;
  return FM_OK;
}

int fm_ecdsa_sign_deterministic_digest(const fm_ec_key *key, fm_hash_alg hash,
                                       const uint8_t *digest, size_t digest_len, uint8_t *sig,
                                       size_t cap, size_t *sig_len) {
  int st = sign_prologue(key, sig, cap, sig_len);
  if (st == FM_OK && digest == NULL) st = FM_ERR_BAD_ARGUMENT;
  if (st == FM_OK && sha_alg_digest_len(hash) == 0) st = FM_ERR_UNSUPPORTED;
  if (st == FM_OK && digest_len != sha_alg_digest_len(hash)) st = FM_ERR_LENGTH;
  if (st == FM_OK) st = sha_selftest_ensure(hash);
  if (st != FM_OK) return refuse_sig(st, key, sig, cap, sig_len);
  st = ecdsa_sign_digest_deterministic(key, hash, digest, digest_len, sig);
  if (st != FM_OK) return refuse_sig(st, key, sig, cap, sig_len);
  *sig_len = 2 * key->curve->bytes;
  return FM_OK;
}

int fm_ecdsa_verify(const fm_ec_key *key, fm_hash_alg hash, const uint8_t *msg, size_t msg_len,
                    const uint8_t *sig, size_t sig_len) {
  int st = fm_service_gate_tested(FM_ST_ECDSA_VERIFY_KAT);
  if (st == FM_OK && (!ec_key_valid(key) || (msg == NULL && msg_len > 0) ||
                      (sig == NULL && sig_len > 0)))
    st = FM_ERR_BAD_ARGUMENT;
  if (st == FM_OK && sha_alg_digest_len(hash) == 0) st = FM_ERR_UNSUPPORTED;
  if (st == FM_OK) st = sha_selftest_ensure(hash);
  if (st != FM_OK) return fm_refuse(st, NULL, 0);
  uint8_t digest[FM_MAX_DIGEST_LEN];
  (void)sha_digest_internal(hash, msg, msg_len, digest);
  st = ecdsa_verify_digest(key, digest, sha_alg_digest_len(hash), sig, sig_len);
  if (st != FM_OK) return fm_refuse(st, NULL, 0);
  return FM_OK;
}

int fm_ecdsa_verify_digest(const fm_ec_key *key, const uint8_t *digest, size_t digest_len,
                           const uint8_t *sig, size_t sig_len) {
  int st = fm_service_gate_tested(FM_ST_ECDSA_VERIFY_KAT);
  if (st == FM_OK && (!ec_key_valid(key) || digest == NULL || (sig == NULL && sig_len > 0)))
    st = FM_ERR_BAD_ARGUMENT;
  if (st == FM_OK && (digest_len == 0 || digest_len > FM_MAX_DIGEST_LEN)) st = FM_ERR_LENGTH;
  if (st != FM_OK) return fm_refuse(st, NULL, 0);
  st = ecdsa_verify_digest(key, digest, digest_len, sig, sig_len);
  if (st != FM_OK) return fm_refuse(st, NULL, 0);
  return FM_OK;
}

#if defined(FIPSMOD_TEST_HOOKS)
int fm_ecdsa_sign_digest_with_k_for_testing(const fm_ec_key *key, const uint8_t *digest,
                                            size_t digest_len, const uint8_t *k, size_t k_len,
                                            uint8_t *sig, size_t sig_cap) {
  if (!ec_key_valid(key) || !key->has_private || digest == NULL || k == NULL || sig == NULL)
    return FM_ERR_BAD_ARGUMENT;
  const ec_curve *c = key->curve;
  if (k_len != c->bytes || sig_cap < 2 * c->bytes) return FM_ERR_LENGTH;
  uint64_t kk[EC_MAX_LIMBS];
  ec_limbs_from_be(c->limbs, kk, k, k_len);
  int st = FM_ERR_OUT_OF_RANGE;
  /* Whether the given k is in range is public (the caller chose it). */
  if (fm_declassify_u64(~ec_limbs_is_zero(c->limbs, kk) & ec_limbs_lt(c->limbs, kk, c->n.m)))
    st = ecdsa_sign_digest_with_k(key, digest, digest_len, kk, sig);
  fm_zeroize(kk, sizeof kk);
  return st;
}
#endif
