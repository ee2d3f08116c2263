/* What module/ec/ offers the rest of the module: the NIST P-curves' field and scalar arithmetic,
 * the group law, scalar multiplication, and the ECDSA / ECDH cores behind fipsmod/ec.h.
 *
 * Widths: every number has the limb count of its curve (4 for P-224 and P-256, 6 for P-384, 9
 * for P-521), never one that depends on its value. The curve, and so the limb count, is public;
 * every field element, scalar and point is treated as secret unless a comment says otherwise,
 * and the functions below take time that depends only on the curve. */
#ifndef FIPSMOD_MODULE_EC_INTERNAL_H
#define FIPSMOD_MODULE_EC_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fipsmod/ec.h"
#include "fipsmod/sha.h"
#include "module/internal.h"
#include "module/stack_wipe.h"

#define EC_MAX_LIMBS 9
#define EC_MAX_BYTES 66 /* P-521: ceil(521 / 8) */

/* An ec_mod is an odd modulus (the field prime p or the group order n) with its Montgomery
 * constants: R = 2^(64 * limbs), rr = R^2 mod m, one = R mod m, n0 = -m^-1 mod 2^64. Public. */
typedef struct ec_mod {
  uint64_t m[EC_MAX_LIMBS];
  uint64_t rr[EC_MAX_LIMBS];
  uint64_t one[EC_MAX_LIMBS];
  uint64_t n0;
} ec_mod;

/* An ec_curve is one short Weierstrass curve y^2 = x^3 - 3x + b of prime order n (cofactor 1).
 * b and the base point G are kept in the Montgomery form of p. Public constants. */
typedef struct ec_curve {
  fm_ec_curve id;
  unsigned limbs; /* words of p and of n */
  unsigned bits;  /* bit length of p, equal to that of n on every P-curve */
  unsigned bytes; /* octets of a field element or scalar, ceil(bits / 8) */
  ec_mod p, n;
  uint64_t b[EC_MAX_LIMBS];
  uint64_t gx[EC_MAX_LIMBS], gy[EC_MAX_LIMBS];
} ec_curve;

/* A point in homogeneous projective coordinates (X : Y : Z), each in Montgomery form; the point
 * at infinity is (0 : 1 : 0), and the complete formulas take it like any other point. */
typedef struct ec_point {
  uint64_t x[EC_MAX_LIMBS], y[EC_MAX_LIMBS], z[EC_MAX_LIMBS];
} ec_point;

/* ec_curve_get returns the curve |id|, or NULL for an unknown id (public). */
const ec_curve *ec_curve_get(fm_ec_curve id);

/* ---- Fixed-width arithmetic modulo p or n (ec_field.c) --------------------------------------
 * Inputs are fully reduced (< m) and outputs are too; outputs may alias inputs. */

/* ec_mod_mul sets r = a * b * R^-1 mod m (Montgomery multiplication). */
void ec_mod_mul(const ec_curve *c, const ec_mod *m, uint64_t *r, const uint64_t *a,
                const uint64_t *b);
void ec_mod_add(const ec_curve *c, const ec_mod *m, uint64_t *r, const uint64_t *a,
                const uint64_t *b);
void ec_mod_sub(const ec_curve *c, const ec_mod *m, uint64_t *r, const uint64_t *a,
                const uint64_t *b);
/* ec_p256_mul_mulx sets r = a * b * R^-1 mod p: mont_mul_k
 * built for BMI2 (ec_field_mulx.c). Call only when the CPU has BMI2; the group law does when
 * fm_cpu_use(FM_CPU_BMI2). */
void ec_p256_mul_mulx(uint64_t *r, const uint64_t *a, const uint64_t *b);
/* ec_p256_mul_adx is the same product in assembly with MULX, ADCX and ADOX (ec_p256_jac_adx.c):
 * call only when the CPU has BMI2 and ADX. */
void ec_p256_mul_adx(uint64_t *r, const uint64_t *a, const uint64_t *b);
/* ec_p256_sqr_adx sets r = a * a * R^-1 mod p, the dedicated square of the same assembly (same
 * CPU requirements). */
void ec_p256_sqr_adx(uint64_t *r, const uint64_t *a);
/* ec_p256_jdbl_n_adx doubles the Jacobian point (x, y, z) in place |count| times (public) on
 * P-256: jac_dbl_k (ec_group_inline.h) in assembly (ec_p256_jac_adx.c), bit-identical to it;
 * call only when the CPU has BMI2 and ADX. */
void ec_p256_jdbl_n_adx(uint64_t *x, uint64_t *y, uint64_t *z, uint64_t count);
/* ec_p256_jmadd_adx sets r to the Jacobian p plus the affine (x2, y2) on P-256: jac_madd_k
 * (ec_scalar_mul.c) in the same assembly, bit-identical to it, with the same exceptions (not
 * for p at infinity, nor for p equal or opposite to (x2, y2)); r may be p. Call only when the
 * CPU has BMI2 and ADX. */
void ec_p256_jmadd_adx(ec_point *r, const ec_point *p, const uint64_t *x2, const uint64_t *y2);
/* ec_p384_jdbl_n_adx and ec_p384_jmadd_adx are P-384's doubling loop and mixed addition in
 * assembly (ec_p384_jac_adx.c), with the same contracts as P-256's above; call only when the CPU
 * has BMI2 and ADX. */
void ec_p384_jdbl_n_adx(uint64_t *x, uint64_t *y, uint64_t *z, uint64_t count);
void ec_p384_jmadd_adx(ec_point *r, const ec_point *p, const uint64_t *x2, const uint64_t *y2);
/* EC_ASM_FN(f) is f where the x86-64 assembly is built and a null pointer of f's type elsewhere
 * (aarch64), for the formulas' fast paths: no reference to the absent functions is left to link
 * (__typeof__ does not evaluate f). */
#if defined(__x86_64__)
#define EC_ASM_FN(f) (&(f))
#else
#define EC_ASM_FN(f) ((__typeof__(&(f)))0)
#endif
/* ec_p384_mul_adx is P-384's product in assembly with MULX, ADCX and ADOX (ec_p384_jac_adx.c):
 * call only when the CPU has BMI2 and ADX. */
void ec_p384_mul_adx(uint64_t *r, const uint64_t *a, const uint64_t *b);
/* ec_p384_sqr_adx sets r = a * a * R^-1 mod p, its dedicated square (same CPU requirements). */
void ec_p384_sqr_adx(uint64_t *r, const uint64_t *a);
/* ec_mod_to_mont sets r = a * R mod m for any a < m; ec_mod_from_mont the inverse map. */
void ec_mod_to_mont(const ec_curve *c, const ec_mod *m, uint64_t *r, const uint64_t *a);
void ec_mod_from_mont(const ec_curve *c, const ec_mod *m, uint64_t *r, const uint64_t *a);
/* ec_mod_inv sets r to the Montgomery form of the inverse of a Montgomery-form a (0 for a = 0):
 * bn/'s constant-time divsteps inverse. m must be prime (p or n). */
void ec_mod_inv(const ec_curve *c, const ec_mod *m, uint64_t *r, const uint64_t *a);
/* ec_mod_inv_public is ec_mod_inv in VARIABLE TIME (bn_mod_inverse_public), for a public a only:
 * ECDSA verification's s^-1 and its normalization of Q's odd multiples. */
void ec_mod_inv_public(const ec_curve *c, const ec_mod *m, uint64_t *r, const uint64_t *a);
/* ec_mod_pow_public sets r = a^e for a public exponent e (limbs words); variable time in e. */
void ec_mod_pow_public(const ec_curve *c, const ec_mod *m, uint64_t *r, const uint64_t *a,
                       const uint64_t *e);

/* ec_limbs_is_zero is all-ones when a == 0; ec_limbs_lt all-ones when a < b. */
uint64_t ec_limbs_is_zero(unsigned limbs, const uint64_t *a);
uint64_t ec_limbs_lt(unsigned limbs, const uint64_t *a, const uint64_t *b);
uint64_t ec_limbs_eq(unsigned limbs, const uint64_t *a, const uint64_t *b);
/* ec_limbs_cond_sub sets a = a - m when a >= m (a < 2m, a fits the limbs). */
void ec_limbs_cond_sub(unsigned limbs, uint64_t *a, const uint64_t *m);

/* ec_limbs_from_be reads the |len|-byte big-endian number at in into |limbs| words; len is at
 * most 8 * limbs. ec_limbs_to_be writes the low |len| bytes of a big-endian. */
void ec_limbs_from_be(unsigned limbs, uint64_t *out, const uint8_t *in, size_t len);
void ec_limbs_to_be(uint8_t *out, size_t len, const uint64_t *a);

/* ---- The group (ec_point.c; scalar multiplication: ec_scalar_mul.c) ------------------------ */

/* ec_point_add sets r = p + q with the complete addition formula for a = -3 (Renes, Costello
 * and Batina 2016, Algorithm 4): correct for every pair of points, infinity and p == q included,
 * with no branch. ec_point_dbl sets r = 2p (Algorithm 6 on P-224; on P-256, P-384 and P-521
 * ec_point_dbl_n's Jacobian doubling, as complete on these curves). */
void ec_point_add(const ec_curve *c, ec_point *r, const ec_point *p, const ec_point *q);
void ec_point_dbl(const ec_curve *c, ec_point *r, const ec_point *p);

/* ec_point_dbl_n sets r = 2^count p (count public), on P-256, P-384, P-521 through Jacobian
 * coordinates and their cheaper doubling, elsewhere by ec_point_dbl; correct for every point, the point at infinity included, with no branch on
 * the point. r may alias p. */
void ec_point_dbl_n(const ec_curve *c, ec_point *r, const ec_point *p, unsigned count);

/* ec_point_set_affine sets r = (x : y : 1) from Montgomery-form x and y. */
void ec_point_set_affine(const ec_curve *c, ec_point *r, const uint64_t *x, const uint64_t *y);

/* ec_point_to_affine writes the Montgomery-form affine coordinates of p and returns all-ones,
 * or writes zeros and returns 0 when p is the point at infinity. */
uint64_t ec_point_to_affine(const ec_curve *c, uint64_t *x, uint64_t *y, const ec_point *p);

/* ec_point_on_curve is all-ones when Montgomery-form (x, y) satisfies y^2 = x^3 - 3x + b. */
uint64_t ec_point_on_curve(const ec_curve *c, const uint64_t *x, const uint64_t *y);

/* ec_scalar_mul sets r = k * p for a secret k < 2^bits (limbs words) and a PUBLIC point p (on
 * P-256, P-384 and P-521 it goes through ec_scalar_mul_affine): signed 5-bit windows (Booth
 * recoding) over every window of the scalar, the table of p..16p read by constant-time selection
 * and the entry negated by mask. */
void ec_scalar_mul(const ec_curve *c, ec_point *r, const uint64_t *k, const ec_point *p);

/* ec_scalar_mul_affine sets r = k * P for a secret k < 2^bits and the affine point P = (x, y)
 * (Montgomery form), which must be on the curve (a validated public key; never the point at
 * infinity): ec_scalar_mul with the table of P built by cheaper formulas on P-256, P-384 and
 * P-521. P must be PUBLIC: the table of its multiples is made affine with a variable-time
 * inversion. Constant time in k. */
void ec_scalar_mul_affine(const ec_curve *c, ec_point *r, const uint64_t *k, const uint64_t *x,
                          const uint64_t *y);

/* ec_scalar_mul_base sets r = k * G (constant time in k): on P-256, P-384, P-521 from fixed-base
 * tables with signed digits of the table's width (6 bits on P-256, 5 on P-384 and P-521) and no
 * doubling, elsewhere (or where the table is not available) by ec_scalar_mul_affine. */
void ec_scalar_mul_base(const ec_curve *c, ec_point *r, const uint64_t *k);

/* ec_double_mul_public sets r = u1 * G + u2 * q for public u1, u2 and q (ECDSA verification;
 * ec_verify.c). */
void ec_double_mul_public(const ec_curve *c, ec_point *r, const uint64_t *u1, const uint64_t *u2,
                          const ec_point *q);

/* ---- Keys, ECDSA and ECDH ---------------------------------------------------------------- */

#define EC_KEY_MAGIC 0x45434b59u /* "ECKY" */

struct fm_ec_key {
  uint32_t magic;    /* EC_KEY_MAGIC while live */
  bool has_private;  /* d is set */
  const ec_curve *curve;
  uint64_t d[EC_MAX_LIMBS];   /* secret: the private scalar, in [1, n-1], plain (not Montgomery) */
  uint64_t qx[EC_MAX_LIMBS];  /* the public point Q = dG, affine, Montgomery form of p */
  uint64_t qy[EC_MAX_LIMBS];
};

/* ec_key_valid is true for a live key object (public). */
bool ec_key_valid(const fm_ec_key *key);

/* ec_decode_point decodes a SEC1 octet string (04 || X || Y, or 02/03 || X) and runs the
 * SP 800-56A 5.6.2.3.3 full public-key validation: not the point at infinity, coordinates in
 * [0, p-1], on the curve (nQ = O holds for every point on these cofactor-1 curves). Writes
 * Montgomery-form x, y. Returns FM_OK, FM_ERR_BAD_KEY (infinity, not on the curve, coordinate out
 * of range, bad prefix), FM_ERR_LENGTH (wrong length). The point is public. */
int ec_decode_point(const ec_curve *c, const uint8_t *in, size_t len, uint64_t *x, uint64_t *y);

/* ec_random_scalar draws a secret scalar in [1, n-1] by FIPS 186-5 A.2.2 / A.3.2 rejection
 * sampling from the module's DRBG. Only whether a candidate was rejected is made public. */
int ec_random_scalar(const ec_curve *c, uint64_t *k);

/* ecdsa_sign_digest_with_k signs |digest| with key and the secret nonce k in [1, n-1] (FIPS 186-5
 * 6.4.1, steps 3 to 13) and writes r || s (2 * bytes). Returns FM_OK, or FM_ERR_INTERNAL when r
 * or s is 0 (the caller draws another k). Constant time in d, k and the digest. */
int ecdsa_sign_digest_with_k(const fm_ec_key *key, const uint8_t *digest, size_t digest_len,
                             const uint64_t *k, uint8_t *sig);

/* ecdsa_sign_digest_deterministic signs |digest| with the per-message secret k of RFC 6979 3.2 /
 * FIPS 186-5 A.3.3 (an HMAC_DRBG over |alg| seeded with d and the digest) and writes r || s.
 * FM_OK, or an HMAC status (FM_ERR_UNSUPPORTED for an unknown alg). Constant time in d, k and
 * the digest; only the rejection of a candidate k (probability at most about 2^-32) is public. */
int ecdsa_sign_digest_deterministic(const fm_ec_key *key, fm_hash_alg alg, const uint8_t *digest,
                                    size_t digest_len, uint8_t *sig);

/* ecdsa_verify_digest checks r || s over |digest| (FIPS 186-5 6.4.2): FM_OK or FM_ERR_VERIFY.
 * Variable time: the signature, key and digest are public. */
int ecdsa_verify_digest(const fm_ec_key *key, const uint8_t *digest, size_t digest_len,
                        const uint8_t *sig, size_t sig_len);

/* ec_pct runs the pairwise consistency test of a new key pair (an ECDSA signature over a fixed
 * digest, verified with the public key) and records it as FM_ST_ECDSA_PCT. */
int ec_pct(const fm_ec_key *key);

/* The known-answer self-tests (ec_cast.c), run by selftest/ before the first use: FM_OK or the
 * failure's status. */
int ec_selftest_ecdsa_sign(void);
int ec_selftest_ecdsa_verify(void);
int ec_selftest_ecdh(void);

/* ---- Stack wipe ---------------------------------------------------------------------------- */

/* EC_STACK_WIPE is how many bytes ec_stack_wipe zeroizes below its caller's frame: ECDH, ECDSA
 * signing and Q = dG reach about 13 KiB below the service (gcc 12 -O2, measured by
 * test_ec_residue, which fails when a secret is left above the wipe). EC_STACK_WIPE_KEYGEN is
 * ec_stack_wipe_keygen's, for key generation, whose pairwise test's verification (its odd
 * multiples of Q) reaches about 22 KiB with gcc 12 -O2 and 28 KiB with clang 14 -O2. */
#if defined(FM_STACK_WIPE_INSTRUMENTED)
/* Sanitizers keep every intermediate in memory, in larger frames: four times as much (a margin;
 * test_ec_residue does not run under ASan). */
#define EC_STACK_WIPE (64 * 1024)
#define EC_STACK_WIPE_KEYGEN (128 * 1024)
#define EC_STACK_WIPE_IFMA (64 * 1024)
#else
#define EC_STACK_WIPE (16 * 1024)
#define EC_STACK_WIPE_KEYGEN (32 * 1024)
/* EC_STACK_WIPE_IFMA is ec_stack_wipe_ifma's: P-521's IFMA ladder (ec_p521_ifma.c) keeps its
 * field elements in frames reaching about 8.4 KiB below it with gcc 12 -O3 (-fstack-usage: its
 * own 6.3 KiB and its doubling's 1.9 KiB) and 10.5 KiB with clang 14 (5.9 KiB and the mixed
 * addition's 4.2 KiB), deeper than ec_stack_wipe, 16 KiB below the service, reaches. P-384's
 * (ec_p384_ifma.c) reaches about 4 KiB (gcc: 3 KiB and the doubling's 1 KiB) and 5.6 KiB (clang:
 * 3.2 KiB and the mixed addition's 2.3 KiB). */
#define EC_STACK_WIPE_IFMA (16 * 1024)
#endif

/* ec_stack_wipe zeroizes EC_STACK_WIPE bytes of stack just below its caller's frame; each service
 * that computed on a secret scalar (ECDH, ECDSA signing, Q = dG) calls it before returning, and
 * key generation calls ec_stack_wipe_keygen after its pairwise test (ec_stack_wipe.c). */
void ec_stack_wipe(void);
void ec_stack_wipe_keygen(void);
/* ec_ifma_in_use: P-384's and P-521's variable-base multiplication and verification run
 * with AVX-512 IFMA (ec_p384_ifma.c in radix 2^48, ec_p521_ifma.c in radix 2^50): the CPU has it
 * and FIPSMOD_CPU does not force the portable paths. The CPU's features are public. */
static inline bool ec_ifma_in_use(void) {
  return fm_cpu_use(FM_CPU_AVX512 | FM_CPU_AVX512IFMA);
}

/* ec_radix_to_words sets the nw words w to the sum of the nl limbs l[k] 2^(radix k), for
 * radix < 64 and a sum below 2^(64 nw): the IFMA files' limbs (radix 2^48 and 2^50) back to words
 * before their full reduction. Loops of public length only (the limbs may be secret). */
static inline void ec_radix_to_words(uint64_t *w, unsigned nw, const uint64_t *l, unsigned nl,
                                     unsigned radix) {
  for (unsigned i = 0; i < nw; i++) w[i] = 0;
  for (unsigned k = 0; k < nl; k++) {
    const unsigned bit = radix * k, j = bit / 64, sh = bit % 64;
    const unsigned __int128 s = (unsigned __int128)l[k] << sh;
    uint64_t c = 0;
    for (unsigned i = j; i < nw; i++) {
      const uint64_t add = i == j ? (uint64_t)s : i == j + 1 ? (uint64_t)(s >> 64) : 0;
      const unsigned __int128 u = (unsigned __int128)w[i] + add + c;
      w[i] = (uint64_t)u;
      c = (uint64_t)(u >> 64);
    }
  }
}

#if defined(__x86_64__)
/* ec_p384_ladder_ifma and ec_p384_double_mul_ifma are ec_p521_ladder_ifma and
 * ec_p521_double_mul_ifma (ec_p521.h) on P-384, coordinates of 6 words. */
void ec_p384_ladder_ifma(uint64_t x[6], uint64_t y[6], uint64_t z[6], uint64_t *acc_inf,
                         const uint64_t *tab, const uint64_t *digit, const uint64_t *neg,
                         unsigned windows);
bool ec_p384_double_mul_ifma(uint64_t x[6], uint64_t y[6], uint64_t z[6], const int16_t *d1,
                             unsigned len1, const int16_t *d2, unsigned len2,
                             const uint64_t *godd, const uint64_t *qodd);
#endif

/* ec_stack_wipe_ifma zeroizes EC_STACK_WIPE_IFMA bytes below its caller's frame: the caller of
 * an IFMA ladder (P-384's or P-521's) calls it when the ladder returns. */
void ec_stack_wipe_ifma(void);

#if defined(FIPSMOD_TEST_HOOKS)
/* fm_ecdsa_sign_digest_with_k_for_testing is ecdsa_sign_digest_with_k with k as big-endian bytes
 * (the CAVP SigGen files give k): FM_ERR_OUT_OF_RANGE when k is not in [1, n-1]. */
int fm_ecdsa_sign_digest_with_k_for_testing(const fm_ec_key *key, const uint8_t *digest,
                                            size_t digest_len, const uint8_t *k, size_t k_len,
                                            uint8_t *sig, size_t sig_cap);
/* ec_key_set_free_hook_for_testing makes fm_ec_key_free call |hook| with the key's memory after
 * zeroizing it and before freeing it (NULL: no hook). */
void ec_key_set_free_hook_for_testing(void (*hook)(const void *key, size_t len));
#endif

#endif
