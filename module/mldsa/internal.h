/* What module/mldsa offers the rest of the module: ML-DSA (FIPS 204) arithmetic, sampling,
 * encodings and the internal algorithms (KeyGen_internal, Sign_internal, Verify_internal), below
 * the public API's service gate and argument checks.
 *
 * Secrecy. s1, s2, t0, K, rho', rho'', y, mu's inputs in signing, and every value computed from
 * them are secret: no branch, memory index or division depends on them. rho, t1, tr, the public
 * key, the signature and the message are public. What signing declassifies, and why FIPS 204
 * lets it, is listed in mldsa.c ("What signing reveals"). Parameter sets and lengths are public.
 *
 * Polynomials hold 256 int32 coefficients. Unless a function says otherwise a coefficient is in
 * (-q, q) ("small" range), and NTT-domain values carry no Montgomery factor. Everything here is
 * reentrant and keeps no state. */
#ifndef FIPSMOD_MODULE_MLDSA_INTERNAL_H
#define FIPSMOD_MODULE_MLDSA_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "module/internal.h"
#include "module/stack_wipe.h"

#define MLDSA_N 256
#define MLDSA_Q 8380417
#define MLDSA_D 13 /* dropped bits of t (FIPS 204 Table 1) */
#define MLDSA_SEED_BYTES 32
#define MLDSA_CRH_BYTES 64 /* tr, mu, rho' */
#define MLDSA_TR_BYTES 64
#define MLDSA_RND_BYTES 32
#define MLDSA_MAX_K 8
#define MLDSA_MAX_L 7
#define MLDSA_MAX_CTILDE 64

/* The sizes of the largest parameter set (ML-DSA-87), for buffers. */
#define MLDSA_MAX_PUBLIC_KEY_BYTES 2592
#define MLDSA_MAX_PRIVATE_KEY_BYTES 4896
#define MLDSA_MAX_SIGNATURE_BYTES 4627

typedef struct mldsa_poly {
  int32_t c[MLDSA_N];
} mldsa_poly;

/* One parameter set (FIPS 204 Table 1 and Table 2). Public. */
typedef struct mldsa_params {
  uint8_t k, l;        /* dimensions of A (k rows, l columns) */
  uint8_t eta;         /* private key range */
  uint8_t tau;         /* number of +-1 in c */
  uint8_t omega;       /* maximum number of 1s in the hint h */
  uint8_t ctilde_len;  /* lambda / 4 bytes */
  uint8_t eta_bits;    /* bitlen(2 eta): 3 or 4 */
  uint8_t z_bits;      /* 1 + bitlen(gamma1 - 1): 18 or 20 */
  uint8_t w1_bits;     /* bitlen((q-1)/(2 gamma2) - 1): 6 or 4 */
  int32_t beta;        /* tau * eta */
  int32_t gamma1;      /* y range: 2^17 or 2^19 */
  int32_t gamma2;      /* low-order rounding range: (q-1)/88 or (q-1)/32 */
  uint16_t pk_len, sk_len, sig_len;
} mldsa_params;

/* mldsa_params_get returns the parameter set for 44, 65 or 87, or NULL for anything else. */
const mldsa_params *mldsa_params_get(int level);

/* ---- Arithmetic (mldsa_poly.c) ----------------------------------------------------------- */

/* mldsa_montgomery_reduce returns a * 2^-32 mod q in (-q, q) for |a| < 2^31 * q: with
 * t = a * q^-1 mod 2^32 (read signed), a - t q is a multiple of 2^32. Right shifts of negative
 * values are arithmetic on the compilers the module builds with. Inline: the NTT's inner loop. */
#define MLDSA_QINV 58728449 /* q^-1 mod 2^32 */
static inline int32_t mldsa_montgomery_reduce(int64_t a) {
  const int32_t t = (int32_t)((uint32_t)(uint64_t)a * (uint32_t)MLDSA_QINV);
  return (int32_t)((a - (int64_t)t * MLDSA_Q) >> 32);
}

/* mldsa_zetas[m] = zeta^BitRev8(m) * 2^32 mod q, centred (FIPS 204 Appendix B; the NTTs of
 * mldsa_poly.c and mldsa_avx2.c). */
extern const int32_t mldsa_zetas[MLDSA_N];

/* mldsa_poly_ntt transforms |p| in place (FIPS 204 Algorithm 41). Input coefficients of
 * magnitude below q; output below 9q. On the fastest path the CPU allows; _portable is the C
 * twin, coefficient for coefficient the same output. */
void mldsa_poly_ntt(mldsa_poly *p);
void mldsa_poly_ntt_portable(mldsa_poly *p);

/* mldsa_poly_invntt_tomont is the inverse NTT (Algorithm 42) times 2^32, so that it undoes one
 * mldsa_poly_pointwise_mont. Input below 9q... any int32 below 2^31 - q in magnitude; output in
 * (-q, q). */
void mldsa_poly_invntt_tomont(mldsa_poly *p);
void mldsa_poly_invntt_tomont_portable(mldsa_poly *p);
/* mldsa_invntt_last_zeta is the factor of the inverse's last layer's differences, with the final
 * scaling by 2^64 / 256 folded in: -zetas[1] * (2^64 / 256) * 2^-32 mod q, in (-q, q). */
int32_t mldsa_invntt_last_zeta(void);

/* mldsa_poly_pointwise_mont sets r = a * b * 2^-32 coefficient by coefficient (inputs' product
 * below 2^31 q in magnitude); mldsa_poly_pointwise_acc_mont adds that product to r instead. */
void mldsa_poly_pointwise_mont(mldsa_poly *r, const mldsa_poly *a, const mldsa_poly *b);
void mldsa_poly_pointwise_mont_portable(mldsa_poly *r, const mldsa_poly *a, const mldsa_poly *b);
void mldsa_poly_pointwise_acc_mont(mldsa_poly *r, const mldsa_poly *a, const mldsa_poly *b);
void mldsa_poly_pointwise_acc_mont_portable(mldsa_poly *r, const mldsa_poly *a,
                                            const mldsa_poly *b);
/* mldsa_poly_dot_mont sets r = (sum over j < n of a[j] * v[j]) * 2^-32, coefficient by
 * coefficient, with one Montgomery reduction of the 64-bit sum (so r is congruent to, not equal
 * to, the sum of n pointwise products), in (-q, q); the sum below 2^31 q in magnitude (n <= 7
 * products of a coefficient in [0, q) and one below 9q). */
void mldsa_poly_dot_mont(mldsa_poly *r, const mldsa_poly *a, const mldsa_poly *v, unsigned n);
void mldsa_poly_dot_mont_portable(mldsa_poly *r, const mldsa_poly *a, const mldsa_poly *v,
                                  unsigned n);

/* mldsa_poly_reduce brings every coefficient (below 2^31 - 2^22 in magnitude) into
 * [-6283008, 6283008]; mldsa_poly_caddq adds q to negative ones; mldsa_poly_freeze does both, so
 * the result is in [0, q). */
void mldsa_poly_reduce(mldsa_poly *p);
void mldsa_poly_caddq(mldsa_poly *p);
void mldsa_poly_freeze(mldsa_poly *p);

void mldsa_poly_add(mldsa_poly *r, const mldsa_poly *a, const mldsa_poly *b);
void mldsa_poly_sub(mldsa_poly *r, const mldsa_poly *a, const mldsa_poly *b);

/* mldsa_poly_shiftl multiplies by 2^d (coefficients below 2^(31-d)). */
void mldsa_poly_shiftl(mldsa_poly *p);

/* Two small polynomials in one: for a and b with |a| < 2^8 and |a + 2^9 b| <= (q-1)/2, a
 * polynomial congruent to a + 2^9 b mod q (coefficients in (-q, q)) splits back into lo = a and
 * hi = b exactly (mldsa_poly_split_pair; lo may be v). Signing multiplies c by s1 and s2 so. */
#define MLDSA_PAIR_SHIFT 9
void mldsa_poly_split_pair(mldsa_poly *lo, mldsa_poly *hi, const mldsa_poly *v);

/* mldsa_poly_norm_exceeds returns all-ones when some coefficient c (in (-q, q), read as its
 * centred representative) has |c| >= bound, zero otherwise, without a branch on the
 * coefficients: the result is one mask over the whole polynomial. bound <= (q-1)/8. */
uint32_t mldsa_poly_norm_exceeds(const mldsa_poly *p, int32_t bound);

/* mldsa_poly_split_add_norm is mldsa_poly_split_pair(lo, hi, v), z = lo + y and
 * mldsa_poly_norm_exceeds(z, bound) in one pass (signing's z = y + cs1 and its norm check, with
 * cs2 in hi); z may be v. The same values and mask. */
uint32_t mldsa_poly_split_add_norm(mldsa_poly *z, mldsa_poly *hi, const mldsa_poly *v,
                                   const mldsa_poly *y, int32_t bound);

/* mldsa_poly_power2round splits a (in [0, q)) into a1 * 2^d + a0, a0 in (-2^(d-1), 2^(d-1)]
 * (Algorithm 35). */
void mldsa_poly_power2round(mldsa_poly *a1, mldsa_poly *a0, const mldsa_poly *a);

/* mldsa_poly_decompose splits a (in [0, q)) into a1 * 2 gamma2 + a0 with a0 in
 * (-gamma2, gamma2] (Algorithm 36), without division. a1 may be NULL. */
void mldsa_poly_decompose(const mldsa_params *p, mldsa_poly *a1, mldsa_poly *a0,
                          const mldsa_poly *a);
void mldsa_poly_decompose_portable(const mldsa_params *p, mldsa_poly *a1, mldsa_poly *a0,
                                   const mldsa_poly *a);

/* mldsa_poly_w1_encode takes w (in (-q, q)) to [0, q) in place and writes w1Encode(HighBits(w))
 * (Algorithm 28 of Algorithm 37's r1) to out (32 * w1_bits bytes): signing's w1, in one pass.
 * Constant time. */
void mldsa_poly_w1_encode(const mldsa_params *p, uint8_t *out, mldsa_poly *w);
void mldsa_poly_w1_encode_portable(const mldsa_params *p, uint8_t *out, mldsa_poly *w);

/* mldsa_poly_use_hint_encode writes w1Encode(UseHint(h, w)) for w in (-q, q) (taken to [0, q)
 * first; w itself is not changed) to out: verification's w1', in one pass. Public inputs. */
void mldsa_poly_use_hint_encode(const mldsa_params *p, uint8_t *out, const mldsa_poly *w,
                                const mldsa_poly *h);
void mldsa_poly_use_hint_encode_portable(const mldsa_params *p, uint8_t *out,
                                         const mldsa_poly *w, const mldsa_poly *h);

/* mldsa_poly_sign_row is the end of one row i of a signing attempt (Algorithm 7 steps 21, 23,
 * 25, 26, 28), in one pass: r = w - cs2 (w in [0, q), |cs2| < 2^8) taken to [0, q),
 * (v1, r0) = Decompose(r), h = MakeHint = [HighBits(r + ct0) != v1] (ct0 in (-q, q)). It adds
 * the number of ones in h to *ones and returns all-ones when ||r0|| >= gamma2 - beta or
 * ||ct0|| >= gamma2, zero otherwise. Constant time: no branch on the coefficients. */
uint32_t mldsa_poly_sign_row(const mldsa_params *p, mldsa_poly *h, const mldsa_poly *w,
                             const mldsa_poly *cs2, const mldsa_poly *ct0, unsigned *ones);
uint32_t mldsa_poly_sign_row_portable(const mldsa_params *p, mldsa_poly *h, const mldsa_poly *w,
                                      const mldsa_poly *cs2, const mldsa_poly *ct0,
                                      unsigned *ones);

/* mldsa_poly_use_hint sets a to UseHint(h, a) (Algorithm 40); a in [0, q). Verification only:
 * public inputs. */
void mldsa_poly_use_hint(const mldsa_params *p, mldsa_poly *a, const mldsa_poly *h);
void mldsa_poly_use_hint_portable(const mldsa_params *p, mldsa_poly *a, const mldsa_poly *h);

/* ---- Sampling (mldsa_sample.c) ----------------------------------------------------------- */

/* mldsa_expand_a_entry sets a to A-hat[r][s] = RejNTTPoly(rho || s || r) (Algorithms 30, 32).
 * rho is public: variable time. */
void mldsa_expand_a_entry(mldsa_poly *a, const uint8_t rho[32], unsigned r, unsigned s);

/* mldsa_rej_ntt_block_portable appends to out the candidates of one SHAKE128 block (168 bytes,
 * 56 candidates) that RejNTTPoly keeps, in order, and returns their number. Both may write
 * anything to out[n .. 56) past the n kept: out has room for 56 values. Public data: rho's
 * stream. mldsa_rej_ntt_block_avx2 (x86-64) is the AVX2 twin; it reads up to 8 bytes past the
 * block, which must be readable. */
size_t mldsa_rej_ntt_block_portable(int32_t *out, const uint8_t *block);
size_t mldsa_rej_ntt_block_avx2(int32_t *out, const uint8_t *block);

/* mldsa_rej_eta_block_portable appends to a[j..256) the coefficients RejBoundedPoly keeps from
 * one SHAKE256 block (136 bytes, 272 half-bytes, in order) and returns the new count (it stops
 * at 256). Secret stream: only the keep decision of each half-byte is declassified (see
 * mldsa_sample.c). mldsa_rej_eta_block_avx2 (x86-64) is its AVX2 twin, the same values. */
size_t mldsa_rej_eta_block_portable(const mldsa_params *p, int32_t *a, size_t j,
                                    const uint8_t *buf);
size_t mldsa_rej_eta_block_avx2(const mldsa_params *p, int32_t *a, size_t j, const uint8_t *buf);

/* mldsa_expand_a_x4 sets a[0..count) (count 1..4) to the entries first .. first + count - 1 of
 * A-hat, entry e being A-hat[e / l][e mod l], four sponges at a time (keccak_f1600_x4). */
void mldsa_expand_a_x4(mldsa_poly *a, const uint8_t rho[32], unsigned first, unsigned count,
                       unsigned l);

/* mldsa_expand_s_x4 sets a[i] = RejBoundedPoly(rho' || IntegerToBytes(nonce0 + i, 2)) for i <
 * count (1..4), four sponges at a time; the same polynomials as mldsa_expand_s. */
void mldsa_expand_s_x4(const mldsa_params *p, mldsa_poly *a, const uint8_t rhop[64],
                       uint16_t nonce0, unsigned count);

/* mldsa_expand_mask_x4 sets y[i] to ExpandMask's polynomial for kappa + i, i < count (1..4), four
 * sponges at a time; the same polynomials as mldsa_expand_mask. Constant time. */
void mldsa_expand_mask_x4(const mldsa_params *p, mldsa_poly *y, const uint8_t rhopp[64],
                          uint16_t kappa, unsigned count);

/* mldsa_expand_s sets a to RejBoundedPoly(rho' || IntegerToBytes(nonce, 2)) (Algorithms 31, 33).
 * rho' is secret; the one value that depends on it and is declassified is whether each half-byte
 * of the SHAKE256 stream is accepted (see mldsa_sample.c). */
void mldsa_expand_s(const mldsa_params *p, mldsa_poly *a, const uint8_t rhop[64], uint16_t nonce);

/* mldsa_expand_mask sets y to ExpandMask's polynomial for kappa + r (Algorithm 34): constant
 * time, no rejection. */
void mldsa_expand_mask(const mldsa_params *p, mldsa_poly *y, const uint8_t rhopp[64],
                       uint16_t kappa_plus_r);

/* mldsa_sample_in_ball sets c to SampleInBall(ctilde) (Algorithm 29). ctilde is treated as
 * public (signing declassifies it first; see mldsa.c): variable time. */
void mldsa_sample_in_ball(const mldsa_params *p, mldsa_poly *c, const uint8_t *ctilde);

/* ---- Encodings (mldsa_pack.c) -------------------------------------------------------------
 * Bit packings of FIPS 204 section 7.1. The unpackers of public data return 0 for an encoding
 * that is out of range (the hint) and 1 otherwise. */
void mldsa_pack_t1(uint8_t out[320], const mldsa_poly *t1);
void mldsa_unpack_t1(mldsa_poly *t1, const uint8_t in[320]);
void mldsa_pack_t0(uint8_t out[416], const mldsa_poly *t0);
void mldsa_unpack_t0(mldsa_poly *t0, const uint8_t in[416]);
void mldsa_pack_eta(const mldsa_params *p, uint8_t *out, const mldsa_poly *s);
/* mldsa_unpack_eta returns an all-ones mask when every coefficient is in [-eta, eta], zero
 * otherwise (a private key that is not well formed); constant time. */
uint32_t mldsa_unpack_eta(const mldsa_params *p, mldsa_poly *s, const uint8_t *in);
void mldsa_pack_z(const mldsa_params *p, uint8_t *out, const mldsa_poly *z);
void mldsa_unpack_z(const mldsa_params *p, mldsa_poly *z, const uint8_t *in);
/* The twins of mldsa_unpack_z (the AVX2 one in mldsa_avx2.c, x86-64 only), same values. */
void mldsa_unpack_z_portable(const mldsa_params *p, mldsa_poly *z, const uint8_t *in);
void mldsa_unpack_z_avx2(const mldsa_params *p, mldsa_poly *z, const uint8_t *in);
/* And of mldsa_pack_z (z in (-gamma1, gamma1]). */
void mldsa_pack_z_portable(const mldsa_params *p, uint8_t *out, const mldsa_poly *z);
void mldsa_pack_z_avx2(const mldsa_params *p, uint8_t *out, const mldsa_poly *z);
/* The portable unpackers of t1, t0 and (without the range check) s1, s2, and the AVX2 form
 * of all three (x86-64 only): the 256 values of |bits| <= 13 bits at in, as offset - v (negate)
 * or v. The same values (test_mldsa_diff). */
void mldsa_unpack_t1_portable(mldsa_poly *t1, const uint8_t in[320]);
void mldsa_unpack_t0_portable(mldsa_poly *t0, const uint8_t in[416]);
void mldsa_unpack_eta_values_portable(const mldsa_params *p, mldsa_poly *s, const uint8_t *in);
void mldsa_unpack_bits_avx2(mldsa_poly *p, const uint8_t *in, unsigned bits, int32_t offset,
                            int negate);
/* Likewise the packers: the portable ones of t1, t0, s1 and s2, and the AVX2 form of all
 * three (|bits| <= 13; the low |bits| bits of offset - c or c). */
void mldsa_pack_t1_portable(uint8_t out[320], const mldsa_poly *t1);
void mldsa_pack_t0_portable(uint8_t out[416], const mldsa_poly *t0);
void mldsa_pack_eta_portable(const mldsa_params *p, uint8_t *out, const mldsa_poly *s);
void mldsa_pack_bits_avx2(uint8_t *out, const mldsa_poly *p, unsigned bits, int32_t offset,
                          int negate);
void mldsa_pack_w1(const mldsa_params *p, uint8_t *out, const mldsa_poly *w1);
/* The twins of mldsa_pack_w1 (w1 in [0, (q-1)/(2 gamma2)); the AVX2 one x86-64 only). */
void mldsa_pack_w1_portable(const mldsa_params *p, uint8_t *out, const mldsa_poly *w1);
void mldsa_pack_w1_avx2(const mldsa_params *p, uint8_t *out, const mldsa_poly *w1);
void mldsa_pack_hint(const mldsa_params *p, uint8_t *out, const mldsa_poly *h);
int mldsa_unpack_hint(const mldsa_params *p, mldsa_poly *h, const uint8_t *in);

/* ---- The internal algorithms (mldsa.c) ----------------------------------------------------
 * No gate, no self-test: the public services (and the CASTs, through them) call these. */

/* mldsa_keygen_internal is ML-DSA.KeyGen_internal(xi) (Algorithm 6): writes p->pk_len bytes of
 * public key and p->sk_len of private key. xi and sk are secret. */
void mldsa_keygen_internal(const mldsa_params *p, uint8_t *pk, uint8_t *sk, const uint8_t xi[32]);

/* mldsa_keygen_pct is mldsa_keygen_internal followed by the pairwise consistency test: a
 * deterministic signature (Sign_internal) over M' = msg with the new private key, checked with
 * the new public key (Verify_internal). FM_OK; FM_ERR_KEYGEN when the test
 * fails; FM_ERR_NO_MEMORY when the workspace cannot be allocated (pk and sk then untouched). */
int mldsa_keygen_pct(const mldsa_params *p, uint8_t *pk, uint8_t *sk, const uint8_t xi[32],
                     const uint8_t *msg, size_t msg_len);

/* mldsa_pk_from_sk recomputes the public key of the private key |sk| (p->sk_len bytes, secret)
 * into |pk| (p->pk_len bytes) and checks sk against it: FM_OK when s1 and s2 are in range and t0
 * and tr are those of KeyGen_internal, FM_ERR_BAD_KEY otherwise (pk is then meaningless). Constant
 * time in sk; only the verdict and t1 (public) are released. */
int mldsa_pk_from_sk(const mldsa_params *p, uint8_t *pk, const uint8_t *sk);

/* mldsa_sign_mu is ML-DSA.Sign_internal (Algorithm 7) from step 7 on, given mu: writes
 * p->sig_len bytes of signature. FM_OK; FM_ERR_BAD_KEY when sk does not decode (s1 or s2 out of
 * range); FM_ERR_NO_MEMORY when the workspace cannot be allocated. sk, mu and rnd are secret.
 * sig is wiped on failure. */
int mldsa_sign_mu(const mldsa_params *p, uint8_t *sig, const uint8_t *sk, const uint8_t mu[64],
                  const uint8_t rnd[32]);

/* mldsa_compute_mu sets mu = H(tr || prefix || msg, 64) (Algorithm 7 step 6 with M' = prefix ||
 * msg; prefix may be empty), with tr taken from the key (sk) or hashed from the public key. */
void mldsa_mu_from_tr(uint8_t mu[64], const uint8_t tr[64], const uint8_t *prefix,
                      size_t prefix_len, const uint8_t *msg, size_t msg_len);
void mldsa_tr_from_pk(const mldsa_params *p, uint8_t tr[64], const uint8_t *pk);

/* mldsa_verify_mu is ML-DSA.Verify_internal (Algorithm 8) given mu: FM_OK or FM_ERR_VERIFY.
 * Everything is public: variable time. */
int mldsa_verify_mu(const mldsa_params *p, const uint8_t *pk, const uint8_t mu[64],
                    const uint8_t *sig);

/* mldsa_cast runs the known-answer self-test |id| (FM_ST_MLDSA_KEYGEN_KAT, _SIGN_KAT or
 * _VERIFY_KAT; mldsa_cast.c): FM_OK or FM_ERR_SELFTEST. Called by selftest/ only. */
int mldsa_cast(fm_selftest_id id);

/* mldsa_path_name names the NTT path in use, for the start-up report. */
const char *mldsa_path_name(void);

/* ---- Stack wipe ---------------------------------------------------------------------------- */

/* MLDSA_STACK_WIPE is how many bytes mldsa_stack_wipe zeroizes below its caller's frame: the
 * signing workspace is on the heap, and what signing spills stays within 2 KiB of the service.
 * MLDSA_STACK_WIPE_KEYGEN is mldsa_stack_wipe_keygen's, after key generation with its pairwise
 * test, which reach beyond 24 KiB (measured by test_mldsa_residue, which fails when a secret is
 * left above the wipe). */
#if defined(FM_STACK_WIPE_INSTRUMENTED)
#define MLDSA_STACK_WIPE (64 * 1024)
#define MLDSA_STACK_WIPE_KEYGEN (256 * 1024)
#else
#define MLDSA_STACK_WIPE (16 * 1024)
#define MLDSA_STACK_WIPE_KEYGEN (40 * 1024)
#endif

/* mldsa_stack_wipe zeroizes MLDSA_STACK_WIPE bytes of stack just below its caller's frame:
 * signing calls it once it has computed on the private key, and key generation calls
 * mldsa_stack_wipe_keygen (mldsa_stack_wipe.c). */
void mldsa_stack_wipe(void);
void mldsa_stack_wipe_keygen(void);

#endif
