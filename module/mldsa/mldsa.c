/* ML-DSA's internal algorithms (FIPS 204 section 6): KeyGen_internal, Sign_internal from mu on,
 * Verify_internal from mu on, and the hashing of M' into mu.
 *
 * Memory. KeyGen_internal and verification work on the stack (about 32 KiB and 28 KiB for
 * ML-DSA-87: the k rows of A-hat s1 or A-hat z are accumulated together while A-hat is expanded
 * four entries at a time). Signing puts its working set in one heap workspace (sign_ws: the
 * matrix A-hat, s1 and s2 (paired, see sign_ws) and t0 in the NTT domain, y, z, w, the hint and
 * four ExpandMask polynomials; about 118 KiB for ML-DSA-87) that it wipes (all but A-hat, which
 * is public) and frees before it returns, so its own stack use is under 4 KiB. Key generation
 * with its pairwise test (mldsa_keygen_pct) generates into such a workspace, keeping A-hat, and
 * signs from it. A-hat is expanded once per signature and kept for every iteration of the
 * rejection loop (regenerating it per iteration costs k * l SHAKE128 expansions each time, about
 * 25% more signing time for ML-DSA-65).
 *
 * What signing reveals (the declassifications, each at its call):
 * - ctilde, at every iteration, before SampleInBall. ctilde = H(mu || w1Encode(w1)) with
 *   w1 = HighBits(A y): a function of mu and y alone, and y (ExpandMask of rho'', fresh per
 *   iteration) is independent of s1, s2 and t0, so ctilde says nothing about them; for the
 *   accepted iteration it is part of the signature. rho'' itself stays secret (it is a hash
 *   output, and ctilde is a one-way function of it).
 * - One bit per iteration: whether the candidate (z, h) is rejected, the OR of all four tests of
 *   Algorithm 7 steps 23 and 28 (||z|| >= gamma1 - beta, ||r0|| >= gamma2 - beta,
 *   ||ct0|| >= gamma2, more than omega ones in h). All four are computed at every iteration, so
 *   which test failed is never visible: the only secret-dependent behaviour is the number of
 *   iterations, which FIPS 204 treats as public. The rejected z, r0, ct0 and h are wiped with the
 *   workspace and never leave.
 * - The accepted signature (z, h) once it is final: it is the output.
 * Key generation declassifies rho (part of the public key) and, in RejBoundedPoly, the
 * keep/reject outcome of each half-byte (mldsa_sample.c says why that is independent of s1, s2).
 * Signing declassifies rho read from the private key (it is the public key's rho). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "module/internal.h"
#include "module/mldsa/internal.h"
#include "module/sha3/internal.h"

/* Offsets in the private key: rho || K || tr || s1 || s2 || t0 (Algorithm 24, skEncode). */
#define SK_RHO 0
#define SK_KEY 32
#define SK_TR 64
#define SK_S1 128

static size_t eta_poly_bytes(const mldsa_params *p) { return (size_t)32 * p->eta_bits; }
static size_t z_poly_bytes(const mldsa_params *p) { return (size_t)32 * p->z_bits; }
static size_t w1_poly_bytes(const mldsa_params *p) { return (size_t)32 * p->w1_bits; }

/* ---- A-hat times a vector ------------------------------------------------------------------ */

/* a_times sets t[i] = sum over j of A-hat[i][j] o v[j] (pointwise Montgomery products, not
 * reduced), for the k rows, expanding A-hat four entries at a time in row-major order; each
 * entry is used once and dropped. rho is public. */
static void a_times(const mldsa_params *p, mldsa_poly *t, const uint8_t rho[32],
                    const mldsa_poly *v) {
  const unsigned k = p->k, l = p->l, entries = k * l;
  mldsa_poly a[4];
  memset(t, 0, k * sizeof t[0]);
  for (unsigned first = 0; first < entries; first += 4) {
    const unsigned count = entries - first < 4 ? entries - first : 4;
    mldsa_expand_a_x4(a, rho, first, count, l);
    for (unsigned s = 0; s < count; s++) {
      const unsigned e = first + s;
      mldsa_poly_pointwise_acc_mont(&t[e / l], &a[s], &v[e % l]);
    }
  }
}

/* a_hat_expand sets a[0 .. k l) to A-hat, row-major, four entries at a time. rho is public. */
static void a_hat_expand(const mldsa_params *p, mldsa_poly *a, const uint8_t rho[32]) {
  const unsigned entries = p->k * p->l;
  for (unsigned e = 0; e < entries; e += 4)
    mldsa_expand_a_x4(&a[e], rho, e, entries - e < 4 ? entries - e : 4, p->l);
}

/* a_times_cached is a_times with A-hat already expanded in a (row-major): each row one dot
 * product, reduced once (congruent to a_times's sums, which is all the callers' inverse NTTs
 * need). */
static void a_times_cached(const mldsa_params *p, mldsa_poly *t, const mldsa_poly *a,
                           const mldsa_poly *v) {
  for (unsigned i = 0; i < p->k; i++) mldsa_poly_dot_mont(&t[i], &a[i * p->l], v, p->l);
}

/* ---- KeyGen_internal (Algorithm 6) ---------------------------------------------------------- */

/* keygen_core is Algorithm 6 into pk and sk, leaving NTT(s1) in s12[0 .. l), s2 in s12[l .. l+k)
 * and t0 in t (the caller wipes them). With a (k l polynomials) A-hat is expanded into it whole
 * and kept; with a NULL it is streamed (a_times). */
static void keygen_core(const mldsa_params *p, uint8_t *pk, uint8_t *sk, const uint8_t xi[32],
                        mldsa_poly *a, mldsa_poly *s12, mldsa_poly *t) {
  /* Step 1: (rho, rho', K) = H(xi || IntegerToBytes(k, 1) || IntegerToBytes(l, 1), 128). */
  uint8_t in[34], seeds[128];
  memcpy(in, xi, 32);
  in[32] = p->k;
  in[33] = p->l;
  shake256(seeds, sizeof seeds, in, sizeof in);
  const uint8_t *rho = seeds, *rhop = seeds + 32, *key = seeds + 96;
  fm_declassify(seeds, 32); /* rho is the public key's seed */

  uint8_t *s1_out = sk + SK_S1;
  uint8_t *s2_out = s1_out + p->l * eta_poly_bytes(p);
  uint8_t *t0_out = s2_out + p->k * eta_poly_bytes(p);

  /* Step 4: s1 (nonces 0 .. l-1) and s2 (l .. l+k-1), four at a time; s1 is packed into sk,
   * then kept in the NTT domain for step 5. */
  mldsa_poly *s1hat = s12, *s2 = s12 + p->l;
  for (unsigned n = 0; n < p->l + p->k; n += 4) {
    const unsigned count = p->l + p->k - n < 4 ? p->l + p->k - n : 4;
    mldsa_expand_s_x4(p, &s12[n], rhop, (uint16_t)n, count);
  }
  for (unsigned j = 0; j < p->l; j++) {
    mldsa_pack_eta(p, s1_out + j * eta_poly_bytes(p), &s1hat[j]);
    mldsa_poly_ntt(&s1hat[j]);
  }

  /* Steps 3, 5, 6: t_i = NTT^-1(sum_j A[i][j] s1hat[j]) + s2_i, then Power2Round. */
  mldsa_poly t1;
  memcpy(pk, rho, 32);
  if (a != NULL) {
    a_hat_expand(p, a, rho);
    a_times_cached(p, t, a, s1hat);
  } else {
    a_times(p, t, rho, s1hat);
  }
  for (unsigned i = 0; i < p->k; i++) {
    mldsa_poly_reduce(&t[i]);
    mldsa_poly_invntt_tomont(&t[i]);
    mldsa_pack_eta(p, s2_out + i * eta_poly_bytes(p), &s2[i]);
    mldsa_poly_add(&t[i], &t[i], &s2[i]);
    mldsa_poly_freeze(&t[i]);
    mldsa_poly_power2round(&t1, &t[i], &t[i]);
    fm_declassify(&t1, sizeof t1); /* t1 is the public key */
    mldsa_pack_t1(pk + 32 + 320 * i, &t1);
    mldsa_pack_t0(t0_out + 416 * i, &t[i]);
  }

  /* Steps 8-10: pk = rho || t1; tr = H(pk, 64); sk = rho || K || tr || s1 || s2 || t0. */
  memcpy(sk + SK_RHO, rho, 32);
  memcpy(sk + SK_KEY, key, 32);
  shake256(sk + SK_TR, MLDSA_TR_BYTES, pk, p->pk_len);

  fm_zeroize(in, sizeof in);
  fm_zeroize(seeds, sizeof seeds);
}

void mldsa_keygen_internal(const mldsa_params *p, uint8_t *pk, uint8_t *sk, const uint8_t xi[32]) {
  mldsa_poly s12[MLDSA_MAX_L + MLDSA_MAX_K], t[MLDSA_MAX_K];
  keygen_core(p, pk, sk, xi, NULL, s12, t);
  fm_zeroize(s12, (size_t)(p->l + p->k) * sizeof s12[0]); /* the entries keygen_core wrote */
  fm_zeroize(t, p->k * sizeof t[0]);
}

/* ---- Checking an expanded private key ----------------------------------------------------
 * An sk read from a file without its seed is checked by recomputing what KeyGen_internal would
 * have computed from its parts: s1 and s2 must be in range, t = NTT^-1(A-hat NTT(s1)) + s2 must
 * split (Power2Round) into the sk's t0 and a t1 that, with rho, is a public key whose hash is the
 * sk's tr. All verdicts are gathered in one mask and only the final one is released. */

int mldsa_pk_from_sk(const mldsa_params *p, uint8_t *pk, const uint8_t *sk) {
  const uint8_t *s1_in = sk + SK_S1;
  const uint8_t *s2_in = s1_in + p->l * eta_poly_bytes(p);
  const uint8_t *t0_in = s2_in + p->k * eta_poly_bytes(p);
  uint8_t rho[32], t0[416], tr[MLDSA_TR_BYTES];
  memcpy(rho, sk + SK_RHO, sizeof rho);
  fm_declassify(rho, sizeof rho); /* the public key's seed */
  uint32_t ok = 0xffffffffu;

  mldsa_poly s1hat[MLDSA_MAX_L];
  for (unsigned j = 0; j < p->l; j++) {
    ok &= mldsa_unpack_eta(p, &s1hat[j], s1_in + j * eta_poly_bytes(p));
    mldsa_poly_ntt(&s1hat[j]);
  }
  mldsa_poly t[MLDSA_MAX_K], s2, t1;
  memcpy(pk, rho, 32);
  a_times(p, t, rho, s1hat);
  for (unsigned i = 0; i < p->k; i++) {
    mldsa_poly_reduce(&t[i]);
    mldsa_poly_invntt_tomont(&t[i]);
    ok &= mldsa_unpack_eta(p, &s2, s2_in + i * eta_poly_bytes(p));
    mldsa_poly_add(&t[i], &t[i], &s2);
    mldsa_poly_freeze(&t[i]);
    mldsa_poly_power2round(&t1, &t[i], &t[i]);
    fm_declassify(&t1, sizeof t1); /* t1 is the public key */
    mldsa_pack_t1(pk + 32 + 320 * i, &t1);
    mldsa_pack_t0(t0, &t[i]);
    /* fm_ct_memeq gives 1 or 0; 0 - 1 is all ones: a mask without a branch. */
    ok &= 0u - (uint32_t)fm_ct_memeq(t0, t0_in + 416 * i, sizeof t0);
  }
  shake256(tr, sizeof tr, pk, p->pk_len);
  ok &= 0u - (uint32_t)fm_ct_memeq(tr, sk + SK_TR, sizeof tr);

  fm_zeroize(s1hat, sizeof s1hat);
  fm_zeroize(t, sizeof t);
  fm_zeroize(&s2, sizeof s2);
  fm_zeroize(t0, sizeof t0);
  return fm_declassify_u64(ok) == 0xffffffffu ? FM_OK : FM_ERR_BAD_KEY; /* the verdict */
}

/* ---- mu ---------------------------------------------------------------------------------- */

void mldsa_tr_from_pk(const mldsa_params *p, uint8_t tr[64], const uint8_t *pk) {
  shake256(tr, MLDSA_TR_BYTES, pk, p->pk_len);
}

void mldsa_mu_from_tr(uint8_t mu[64], const uint8_t tr[64], const uint8_t *prefix,
                      size_t prefix_len, const uint8_t *msg, size_t msg_len) {
  keccak_state st;
  shake256_init(&st);
  keccak_absorb(&st, tr, MLDSA_TR_BYTES);
  if (prefix_len != 0) keccak_absorb(&st, prefix, prefix_len);
  if (msg_len != 0) keccak_absorb(&st, msg, msg_len);
  keccak_squeeze(&st, mu, MLDSA_CRH_BYTES);
  keccak_wipe(&st);
}

/* ---- Sign_internal (Algorithm 7) ------------------------------------------------------------ */

typedef struct sign_ws {
  mldsa_poly a[MLDSA_MAX_K * MLDSA_MAX_L]; /* A-hat, row-major: public, first, not wiped */
  /* s[i] = NTT(s1[i] + 2^9 s2[i]) for i < l (k >= l in every set), NTT(s2[i]) for l <= i < k:
   * one inverse NTT of c s[i] gives both c s1[i] and c s2[i] (mldsa_poly_split_pair: both are
   * at most tau eta = 196 in magnitude). Entries [k, l + k) are key generation's scratch. */
  mldsa_poly s[MLDSA_MAX_L + MLDSA_MAX_K];
  mldsa_poly t0[MLDSA_MAX_K];              /* NTT(t0) */
  mldsa_poly y[MLDSA_MAX_L];
  mldsa_poly z[MLDSA_MAX_L];               /* NTT(y), then z */
  mldsa_poly w[MLDSA_MAX_K];
  mldsa_poly h[MLDSA_MAX_K];
  mldsa_poly c;                            /* NTT(c) */
  mldsa_poly r, ct0;                       /* one row's scratch */
  mldsa_poly mask[4];                      /* ExpandMask's, made ahead (mask_next) */
  unsigned mask_used, mask_count;
  uint8_t rhopp[64];
  uint8_t w1enc[MLDSA_MAX_K * 192];
  uint8_t ctilde[MLDSA_MAX_CTILDE];
  uint8_t hash_in[32 + 32 + 64]; /* K || rnd || mu */
} sign_ws;

/* sign_ws_decode_key fills the workspace's s and t0 from sk (steps 1-5): FM_OK, or
 * FM_ERR_BAD_KEY for s1 or s2 coefficients outside [-eta, eta]. The validity bit is
 * declassified: whether a key is well formed is not a secret of a well-formed key. */
static int sign_ws_decode_key(const mldsa_params *p, sign_ws *ws, const uint8_t *sk) {
  const uint8_t *s1_in = sk + SK_S1;
  const uint8_t *s2_in = s1_in + p->l * eta_poly_bytes(p);
  const uint8_t *t0_in = s2_in + p->k * eta_poly_bytes(p);
  uint32_t ok = ~0u;
  mldsa_poly s1;
  for (unsigned i = 0; i < p->k; i++) {
    ok &= mldsa_unpack_eta(p, &ws->s[i], s2_in + i * eta_poly_bytes(p));
    if (i < p->l) { /* public: the parameter set */
      ok &= mldsa_unpack_eta(p, &s1, s1_in + i * eta_poly_bytes(p));
      for (size_t n = 0; n < MLDSA_N; n++)
        ws->s[i].c[n] = s1.c[n] + ws->s[i].c[n] * (1 << MLDSA_PAIR_SHIFT);
    }
    mldsa_poly_ntt(&ws->s[i]);
    mldsa_unpack_t0(&ws->t0[i], t0_in + 416 * i);
    mldsa_poly_ntt(&ws->t0[i]);
  }
  fm_zeroize(&s1, sizeof s1);
  return fm_declassify_u64(ok) ? FM_OK : FM_ERR_BAD_KEY;
}

/* sign_ws_decode is sign_ws_decode_key and A-hat from sk's rho. */
static int sign_ws_decode(const mldsa_params *p, sign_ws *ws, const uint8_t *sk) {
  const int st = sign_ws_decode_key(p, ws, sk);
  if (st != FM_OK) return st;

  uint8_t rho[32];
  memcpy(rho, sk + SK_RHO, 32);
  fm_declassify(rho, sizeof rho); /* the public key's rho */
  a_hat_expand(p, ws->a, rho);
  return FM_OK;
}

/* mask_next sets y to ExpandMask's polynomial for |nonce| (kappa + r), which is the one after
 * the previous call's (the loop's nonces are consecutive across iterations). The polynomials are
 * made four at a time, whatever l is, and those not yet used wait in the workspace. */
static void mask_next(const mldsa_params *p, sign_ws *ws, mldsa_poly *y, uint16_t nonce) {
  if (ws->mask_used == ws->mask_count) {
    mldsa_expand_mask_x4(p, ws->mask, ws->rhopp, nonce, 4);
    ws->mask_used = 0;
    ws->mask_count = 4;
  }
  *y = ws->mask[ws->mask_used++];
}

/* sign_attempt runs one iteration of the loop (steps 11-30) for kappa and returns an all-ones
 * mask when the candidate is rejected: every test runs, and only their joint verdict is
 * declassified, by the caller (see "What signing reveals"). */
static uint32_t sign_attempt(const mldsa_params *p, sign_ws *ws, const uint8_t mu[64],
                             uint16_t kappa) {
  const unsigned k = p->k, l = p->l;
  /* Steps 11-12: y = ExpandMask(rho'', kappa); w = NTT^-1(A-hat o NTT(y)). */
  for (unsigned j = 0; j < l; j++) {
    mask_next(p, ws, &ws->y[j], (uint16_t)(kappa + j));
    ws->z[j] = ws->y[j];
    mldsa_poly_ntt(&ws->z[j]);
  }
  a_times_cached(p, ws->w, ws->a, ws->z); /* rows in (-q, q): the inverse NTT's input range */
  for (unsigned i = 0; i < k; i++) {
    mldsa_poly_invntt_tomont(&ws->w[i]);
    /* Steps 13, 15: w (to [0, q)), w1 = HighBits(w), encoded for ctilde = H(mu || w1Encode(w1),
     * lambda/4). */
    mldsa_poly_w1_encode(p, ws->w1enc + i * w1_poly_bytes(p), &ws->w[i]);
  }
  keccak_state st;
  shake256_init(&st);
  keccak_absorb(&st, mu, MLDSA_CRH_BYTES);
  keccak_absorb(&st, ws->w1enc, k * w1_poly_bytes(p));
  keccak_squeeze(&st, ws->ctilde, p->ctilde_len);
  keccak_wipe(&st);
  fm_declassify(ws->ctilde, p->ctilde_len); /* see "What signing reveals" */

  /* Steps 16-17: c = SampleInBall(ctilde), kept as NTT(c). */
  mldsa_sample_in_ball(p, &ws->c, ws->ctilde);
  mldsa_poly_ntt(&ws->c);

  /* Steps 18-28, every row i (k >= l): cs1[i] (i < l) and cs2[i] (in r) from c s[i]; for
   * i < l, z = y + cs1, ||z|| < gamma1 - beta; ct0 = NTT^-1(c t0[i]) (in (-q, q)); then
   * mldsa_poly_sign_row: r = w - cs2, ||LowBits(r)|| < gamma2 - beta, ||ct0|| < gamma2,
   * h = MakeHint(-ct0, w - cs2 + ct0), that is [HighBits(r + ct0) != HighBits(r)], counted. */
  uint32_t reject = 0;
  unsigned ones = 0;
  for (unsigned i = 0; i < k; i++) {
    if (i < l) { /* public: the parameter set */
      mldsa_poly_pointwise_mont(&ws->z[i], &ws->c, &ws->s[i]);
      mldsa_poly_invntt_tomont(&ws->z[i]);
      reject |= mldsa_poly_split_add_norm(&ws->z[i], &ws->r, &ws->z[i], &ws->y[i],
                                          p->gamma1 - p->beta);
    } else {
      mldsa_poly_pointwise_mont(&ws->r, &ws->c, &ws->s[i]);
      mldsa_poly_invntt_tomont(&ws->r);
    }
    mldsa_poly_pointwise_mont(&ws->ct0, &ws->c, &ws->t0[i]);
    mldsa_poly_invntt_tomont(&ws->ct0);
    reject |= mldsa_poly_sign_row(p, &ws->h[i], &ws->w[i], &ws->r, &ws->ct0, &ones);
  }
  /* More than omega ones: omega - ones is negative (both are below 2^16). */
  reject |= (uint32_t)(((int32_t)p->omega - (int32_t)ones) >> 31);
  return reject;
}

/* sign_loop is Algorithm 7 steps 7-33 on a workspace whose A-hat, s and t0 are filled, with the
 * private key's K: FM_OK with the signature in sig, or FM_ERR_INTERNAL when the loop's bound is
 * reached (sig is then the caller's to wipe). */
static int sign_loop(const mldsa_params *p, sign_ws *ws, uint8_t *sig, const uint8_t key[32],
                     const uint8_t mu[64], const uint8_t rnd[32]) {
  /* Step 7: rho'' = H(K || rnd || mu, 64). */
  memcpy(ws->hash_in, key, 32);
  memcpy(ws->hash_in + 32, rnd, MLDSA_RND_BYTES);
  memcpy(ws->hash_in + 64, mu, MLDSA_CRH_BYTES);
  shake256(ws->rhopp, sizeof ws->rhopp, ws->hash_in, sizeof ws->hash_in);

  /* Steps 10-32. kappa grows by l per iteration. FIPS 204 Appendix C lets the loop be bounded,
   * by no fewer than 814 iterations (Table 3), a bound reached with probability about 2^-256;
   * reaching it is reported as an internal failure, with no signature. */
  ws->mask_used = ws->mask_count = 0;
  unsigned kappa = 0;
  uint32_t reject = ~0u;
  for (unsigned iter = 0; iter < 814 && reject != 0; iter++, kappa += p->l) {
    /* The last declassified outcome of an iteration (see "What signing reveals"). */
    reject = (uint32_t)fm_declassify_u64(sign_attempt(p, ws, mu, (uint16_t)kappa));
  }
  if (reject != 0) return FM_ERR_INTERNAL;

  /* Step 33: sigEncode(ctilde, z mod+- q, h). z = y + cs1 is already z mod+- q: y is in
   * (-gamma1, gamma1] and cs1 (mldsa_poly_split_add_norm's lo) in [-2^8, 2^8), so |z| < 2^19 +
   * 2^8, far below (q-1)/2. The signature is public from here on. */
  uint8_t *out = sig;
  memcpy(out, ws->ctilde, p->ctilde_len);
  out += p->ctilde_len;
  for (unsigned j = 0; j < p->l; j++) {
    fm_declassify(&ws->z[j], sizeof ws->z[j]);
    mldsa_pack_z(p, out, &ws->z[j]);
    out += z_poly_bytes(p);
  }
  fm_declassify(ws->h, sizeof ws->h[0] * p->k);
  mldsa_pack_hint(p, out, ws->h);
  return FM_OK;
}

/* sign_ws_free wipes what the workspace held for the parameter set p, all but A-hat (public: a
 * function of rho), and frees it. The vectors' entries past k or l are never written. */
static void sign_ws_free(const mldsa_params *p, sign_ws *ws) {
  const size_t k = p->k, l = p->l, poly = sizeof(mldsa_poly);
  fm_zeroize(ws->s, k * poly);
  fm_zeroize(ws->t0, k * poly);
  fm_zeroize(ws->y, l * poly);
  fm_zeroize(ws->z, l * poly);
  fm_zeroize(ws->w, k * poly);
  fm_zeroize(ws->h, k * poly);
  fm_zeroize(&ws->c, sizeof *ws - offsetof(sign_ws, c)); /* c to the end */
  free(ws);
}

int mldsa_sign_mu(const mldsa_params *p, uint8_t *sig, const uint8_t *sk, const uint8_t mu[64],
                  const uint8_t rnd[32]) {
  sign_ws *ws = malloc(sizeof *ws);
  if (ws == NULL) {
    fm_zeroize(sig, p->sig_len);
    return FM_ERR_NO_MEMORY;
  }
  int st = sign_ws_decode(p, ws, sk);
  if (st == FM_OK) st = sign_loop(p, ws, sig, sk + SK_KEY, mu, rnd);
  if (st != FM_OK) fm_zeroize(sig, p->sig_len);
  sign_ws_free(p, ws);
  return st;
}

/* ---- Verify_internal (Algorithm 8) ---------------------------------------------------------- */

/* verify_core is Verify_internal given mu, with A-hat expanded in a or, a NULL, streamed. */
static int verify_core(const mldsa_params *p, const uint8_t *pk, const uint8_t mu[64],
                       const uint8_t *sig, const mldsa_poly *a) {
  const unsigned k = p->k, l = p->l;
  const uint8_t *rho = pk;
  mldsa_poly zhat[MLDSA_MAX_L], h[MLDSA_MAX_K], c, w[MLDSA_MAX_K], t1;

  /* Steps 2-4 and 13 (the norm half): sigDecode, h must decode, ||z|| < gamma1 - beta. */
  const uint8_t *ctilde = sig;
  const uint8_t *zin = sig + p->ctilde_len;
  if (!mldsa_unpack_hint(p, h, zin + l * z_poly_bytes(p))) return FM_ERR_VERIFY;
  for (unsigned j = 0; j < l; j++) {
    mldsa_unpack_z(p, &zhat[j], zin + j * z_poly_bytes(p));
    if (mldsa_poly_norm_exceeds(&zhat[j], p->gamma1 - p->beta)) return FM_ERR_VERIFY;
    mldsa_poly_ntt(&zhat[j]);
  }

  /* Steps 8-10: w'_approx = NTT^-1(A-hat o NTT(z) - NTT(c) o NTT(t1 * 2^d)), w1' = UseHint. */
  mldsa_sample_in_ball(p, &c, ctilde);
  mldsa_poly_ntt(&c);
  uint8_t w1enc[MLDSA_MAX_K * 192];
  if (a != NULL) a_times_cached(p, w, a, zhat);
  else a_times(p, w, rho, zhat);
  for (unsigned i = 0; i < k; i++) {
    mldsa_unpack_t1(&t1, pk + 32 + 320 * i);
    mldsa_poly_shiftl(&t1);
    mldsa_poly_ntt(&t1);
    mldsa_poly_pointwise_mont(&t1, &c, &t1);
    mldsa_poly_sub(&w[i], &w[i], &t1);
    mldsa_poly_reduce(&w[i]);
    mldsa_poly_invntt_tomont(&w[i]);
    mldsa_poly_use_hint_encode(p, w1enc + i * w1_poly_bytes(p), &w[i], &h[i]);
  }

  /* Steps 12-13: ctilde' = H(mu || w1Encode(w1'), lambda/4) must equal ctilde. */
  uint8_t ctilde2[MLDSA_MAX_CTILDE];
  keccak_state st;
  shake256_init(&st);
  keccak_absorb(&st, mu, MLDSA_CRH_BYTES);
  keccak_absorb(&st, w1enc, k * w1_poly_bytes(p));
  keccak_squeeze(&st, ctilde2, p->ctilde_len);
  return fm_ct_memeq(ctilde, ctilde2, p->ctilde_len) ? FM_OK : FM_ERR_VERIFY;
}

int mldsa_verify_mu(const mldsa_params *p, const uint8_t *pk, const uint8_t mu[64],
                    const uint8_t *sig) {
  return verify_core(p, pk, mu, sig, NULL);
}

/* ---- Key generation with its pairwise consistency test -------------------------------------
 * The test signs with the new private key and verifies with the new public key, as the public
 * services do: signing decodes s1, s2 and t0 from the written sk and takes K and tr from it,
 * verification reads t1 from pk and hashes pk for its tr, like mldsa_verify_mu. What is shared
 * is A-hat, a function of the public rho alone: expanded once by key generation, in the signing
 * workspace. Signing is deterministic (rnd = 0): the test needs no DRBG output. */

int mldsa_keygen_pct(const mldsa_params *p, uint8_t *pk, uint8_t *sk, const uint8_t xi[32],
                     const uint8_t *msg, size_t msg_len) {
  static const uint8_t kZeroRnd[MLDSA_RND_BYTES];
  sign_ws *ws = malloc(sizeof *ws);
  if (ws == NULL) return FM_ERR_NO_MEMORY;
  /* keygen_core's scratch (s1, s2, t0) is in ws->s and ws->t0: the decoding overwrites s[0, k)
   * and t0, and the rest is wiped. */
  keygen_core(p, pk, sk, xi, ws->a, ws->s, ws->t0);
  int st = sign_ws_decode_key(p, ws, sk);
  fm_zeroize(&ws->s[p->k], p->l * sizeof ws->s[0]);
  uint8_t mu[MLDSA_CRH_BYTES], tr[MLDSA_TR_BYTES], sig[MLDSA_MAX_SIGNATURE_BYTES];
  mldsa_mu_from_tr(mu, sk + SK_TR, NULL, 0, msg, msg_len);
  if (st == FM_OK) st = sign_loop(p, ws, sig, sk + SK_KEY, mu, kZeroRnd);
  if (st == FM_OK) {
    mldsa_tr_from_pk(p, tr, pk);
    mldsa_mu_from_tr(mu, tr, NULL, 0, msg, msg_len);
    st = verify_core(p, pk, mu, sig, ws->a);
  }
  fm_zeroize(mu, sizeof mu);
  fm_zeroize(sig, sizeof sig);
  sign_ws_free(p, ws);
  return st == FM_OK ? FM_OK : FM_ERR_KEYGEN;
}
