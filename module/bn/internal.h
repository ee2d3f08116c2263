/* Fixed-width big numbers and Montgomery arithmetic (module/bn/).
 *
 * A number is a little-endian array of uint64_t limbs with an explicit limb count n. The limb
 * count (the width) is always public and comes from a modulus, never from a value; the values
 * themselves are secret unless a function says otherwise. Functions on secrets run in time that
 * depends only on the widths: no branch, memory index or division depends on a secret value, on
 * the MULX, the AVX-512 IFMA and the portable paths alike.
 *
 * Unless a comment says otherwise: outputs may alias inputs of the same width, widths are >= 1
 * and <= BN_MAX_LIMBS (a violated width is the caller's bug), and nothing allocates. */
#ifndef FIPSMOD_MODULE_BN_INTERNAL_H
#define FIPSMOD_MODULE_BN_INTERNAL_H

#include <assert.h>
#include <stddef.h>
#include <stdint.h>

#define BN_LIMB_BITS 64
#define BN_MAX_LIMBS 256 /* 16384 bits: the largest RSA modulus the module takes */
#define BN_MAX_BITS (BN_MAX_LIMBS * BN_LIMB_BITS)

static_assert(BN_MAX_BITS == 16384, "BN_MAX_LIMBS must cover RSA-16384");
static_assert(sizeof(uint64_t) * 8 == BN_LIMB_BITS, "limbs are 64-bit words");

/* ---- Sizes, import and export ----------------------------------------------------------- */

/* bn_limbs_for_bits returns the number of limbs needed for |bits| bits (public). */
size_t bn_limbs_for_bits(size_t bits);

/* bn_from_bytes_be sets the n-limb r to the big-endian number in[0..in_len). Returns 1, or 0 when
 * the value does not fit in n limbs (then r is zeroed). Leading zero bytes beyond the width are
 * allowed. Constant time in the value; whether it fits is public (the answer is returned). */
int bn_from_bytes_be(uint64_t *r, size_t n, const uint8_t *in, size_t in_len);

/* bn_to_bytes_be writes the n-limb a as exactly out_len big-endian bytes, left-padded with zeros.
 * Non-zero bytes above out_len are dropped: avoiding that is the caller's job. Constant time. */
void bn_to_bytes_be(uint8_t *out, size_t out_len, const uint64_t *a, size_t n);

/* ---- Word-level arithmetic (all constant time) ------------------------------------------ */

/* bn_set_zero zeroes n limbs; bn_copy copies n limbs (r == a allowed). */
void bn_set_zero(uint64_t *r, size_t n);
void bn_copy(uint64_t *r, const uint64_t *a, size_t n);

/* bn_set_word sets the n-limb r to the single word w. */
void bn_set_word(uint64_t *r, size_t n, uint64_t w);

/* bn_add sets r = a + b mod 2^(64n) and returns the carry (0 or 1). */
uint64_t bn_add(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n);

/* bn_sub sets r = a - b mod 2^(64n) and returns the borrow (0 or 1). */
uint64_t bn_sub(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n);

/* bn_add_word sets r = a + w and returns the carry; bn_sub_word sets r = a - w and returns the
 * borrow. */
uint64_t bn_add_word(uint64_t *r, const uint64_t *a, uint64_t w, size_t n);
uint64_t bn_sub_word(uint64_t *r, const uint64_t *a, uint64_t w, size_t n);

/* bn_lt_mask returns all-ones when a < b, else zero. */
uint64_t bn_lt_mask(const uint64_t *a, const uint64_t *b, size_t n);

/* bn_eq_mask returns all-ones when a == b, else zero. */
uint64_t bn_eq_mask(const uint64_t *a, const uint64_t *b, size_t n);

/* bn_is_zero_mask returns all-ones when a == 0, else zero. */
uint64_t bn_is_zero_mask(const uint64_t *a, size_t n);

/* bn_is_odd_mask returns all-ones when a is odd, else zero. */
uint64_t bn_is_odd_mask(const uint64_t *a, size_t n);

/* bn_select sets r = mask ? a : b; mask must be all-ones or zero. r may alias a or b. */
void bn_select(uint64_t *r, uint64_t mask, const uint64_t *a, const uint64_t *b, size_t n);

/* bn_cond_swap swaps a and b when mask is all-ones, leaves them when it is zero. */
void bn_cond_swap(uint64_t mask, uint64_t *a, uint64_t *b, size_t n);

/* bn_mod_add sets r = (a + b) mod m for a, b < m. */
void bn_mod_add(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m, size_t n);

/* bn_mod_sub sets r = (a - b) mod m for a, b < m. */
void bn_mod_sub(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m, size_t n);

/* bn_mul sets the 2n-limb r = a * b. r must not alias a or b. */
void bn_mul(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n);

/* bn_mul_unbalanced sets the (an + bn)-limb r = a * b. r must not alias a or b. */
void bn_mul_unbalanced(uint64_t *r, const uint64_t *a, size_t an, const uint64_t *b, size_t bn);

/* bn_mul_word sets the n-limb r = a * w mod 2^(64n) and returns the high word of a * w. */
uint64_t bn_mul_word(uint64_t *r, const uint64_t *a, uint64_t w, size_t n);

/* ---- Shifts ----------------------------------------------------------------------------- */

/* bn_rshift1 sets r = a >> 1; bn_lshift1 sets r = a << 1 mod 2^(64n) and returns the bit shifted
 * out. */
void bn_rshift1(uint64_t *r, const uint64_t *a, size_t n);
uint64_t bn_lshift1(uint64_t *r, const uint64_t *a, size_t n);

/* bn_rshift / bn_lshift shift by a PUBLIC number of bits (any value, >= 64n gives zero). The
 * value shifted is secret. bn_lshift drops bits above the width. */
void bn_rshift(uint64_t *r, const uint64_t *a, size_t shift, size_t n);
void bn_lshift(uint64_t *r, const uint64_t *a, size_t shift, size_t n);

/* bn_rshift_secret sets r = a >> shift where the shift amount is SECRET (shift < 64n); constant
 * time in both shift and a (log2(64n) masked passes). */
void bn_rshift_secret(uint64_t *r, const uint64_t *a, size_t shift, size_t n);

/* bn_count_low_zero_bits returns the number of trailing zero bits of a (64n for a == 0). The
 * result is as secret as a; computed in constant time. For Miller-Rabin's w - 1 = 2^a * m. */
size_t bn_count_low_zero_bits(const uint64_t *a, size_t n);

/* bn_bits_public returns the bit length of a (0 for a == 0). VARIABLE TIME: public values only. */
size_t bn_bits_public(const uint64_t *a, size_t n);

/* bn_bits_consttime returns the bit length of a in constant time; the result is as secret as a. */
size_t bn_bits_consttime(const uint64_t *a, size_t n);

/* ---- Division and small moduli ---------------------------------------------------------- */

/* bn_div_consttime computes q = a / d (an limbs, may be NULL) and rem = a mod d (dn limbs, may be
 * NULL) by shift-and-subtract over all 64*an bits of a. a and d are secret, only the widths an
 * and dn are public; d must be non-zero (a zero d is the caller's bug; then q is all-ones and
 * rem = a mod 2^(64dn)). Outputs must not alias inputs. dn <= BN_MAX_LIMBS. Cost O(an * dn). */
void bn_div_consttime(uint64_t *q, uint64_t *rem, const uint64_t *a, size_t an, const uint64_t *d,
                      size_t dn);

/* bn_mod_small_consttime returns a mod d for a small PUBLIC divisor 2 <= d < 2^32 (trial division
 * of prime candidates); a is secret and the result as secret as a. No division instruction
 * touches a: the quotient comes from a precomputed reciprocal. */
uint32_t bn_mod_small_consttime(const uint64_t *a, size_t n, uint32_t d);

/* ---- Greatest common divisor and inverses ----------------------------------------------- */

/* bn_gcd_consttime sets r = gcd(a, b) (n limbs). a and b are secret; constant time. gcd(0, b) = b. */
void bn_gcd_consttime(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n);

/* bn_gcd_odd_consttime sets r = gcd(f, g) (n limbs) for an odd f and any g, by divsteps
 * (bn_inverse.c): a fixed number of steps for the width. f and g are secret; constant time. */
void bn_gcd_odd_consttime(uint64_t *r, const uint64_t *f, const uint64_t *g, size_t n);

/* bn_mod_inverse_mask sets r = a^-1 mod m (n limbs, 0 <= r < m) for an ODD modulus m (any n-limb
 * a; m = 1 gives r = 0) and returns all-ones when gcd(a, m) = 1; otherwise zero with r zeroed.
 * Divsteps (bn_inverse.c): a fixed number of steps for the width, constant time; a, m and the
 * returned mask are secret (declassify the mask with fm_declassify_u64 where invertibility is
 * public). An even m is the caller's bug (the result is then meaningless). */
uint64_t bn_mod_inverse_mask(uint64_t *r, const uint64_t *a, const uint64_t *m, size_t n);

/* bn_mod_inverse_256_mask is bn_mod_inverse_mask for n = 4 with 0 <= a < m < 2^256 (m odd): the
 * same constant-time divsteps with fewer steps (a bound computed for this width only) and fewer
 * limbs. */
uint64_t bn_mod_inverse_256_mask(uint64_t *r, const uint64_t *a, const uint64_t *m);

/* bn_mod_inverse_public is bn_mod_inverse_mask in VARIABLE TIME, for a public a and m (ECDSA
 * verification's s^-1 mod n): divsteps that stop once done. Returns all-ones with r = a^-1 mod m
 * when gcd(a, m) = 1; otherwise, or (never seen, allowed for) when the steps run past their cap,
 * zero with r zeroed. */
uint64_t bn_mod_inverse_public(uint64_t *r, const uint64_t *a, const uint64_t *m, size_t n);

/* bn_mod_inverse_consttime sets r = a^-1 mod m for an ODD modulus m > 1 (n limbs; a is any n-limb
 * value). Returns FM_OK, FM_ERR_OUT_OF_RANGE when gcd(a, m) != 1 (then r is zeroed),
 * FM_ERR_BAD_ARGUMENT when m is even or m <= 1 (the parity of m is treated as public; a and m are
 * otherwise secret). bn_mod_inverse_mask with the public checks; constant time. Whether a is
 * invertible is public (it is the return value). */
int bn_mod_inverse_consttime(uint64_t *r, const uint64_t *a, const uint64_t *m, size_t n);

/* bn_mod_inverse_odd_value sets r = a^-1 mod m (n limbs, 0 <= r < m) for an ODD value a of
 * a_limbs <= n limbs and any modulus m > 1, e.g. an even one: this is RSA's d = e^-1 mod
 * lcm(p-1, q-1). Both a and m are secret (only the widths are public). Works by
 * y = -m^-1 mod a, then r = (1 + m*y) / a, an exact division done with a's inverse mod 2^64.
 * Returns FM_OK, FM_ERR_OUT_OF_RANGE when gcd(a, m) != 1 (r zeroed), FM_ERR_BAD_ARGUMENT when a is
 * even or m <= 1 (a's parity and m > 1 are treated as public). Constant time. */
int bn_mod_inverse_odd_value(uint64_t *r, const uint64_t *a, size_t a_limbs, const uint64_t *m,
                             size_t n);

/* bn_lcm_consttime sets the 2n-limb r = lcm(a, b) = a * (b / gcd(a, b)) for non-zero a, b of n
 * limbs (RSA's lambda(n) from p-1 and q-1). Secret inputs; constant time. */
void bn_lcm_consttime(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n);

/* ---- Montgomery arithmetic -------------------------------------------------------------- */

/* A Montgomery context for an odd modulus N of n limbs (top limb non-zero), R = 2^(64n).
 * N, n0 and RR are as secret as N; n is public. Built once, then read-only: safe to share
 * between threads. */
typedef struct bn_mont_ctx {
  size_t n;                 /* limb count (public) */
  uint64_t n0;              /* -N^-1 mod 2^64 */
  uint64_t N[BN_MAX_LIMBS];  /* the modulus; limbs >= n are not used */
  uint64_t RR[BN_MAX_LIMBS]; /* R^2 mod N; limbs >= n are not used */
} bn_mont_ctx;

/* bn_path_name names the kernels in use (public): "mulx+ifma" (MULX for Montgomery
 * multiplication and contexts below 1536 bits, AVX-512 IFMA for exponentiation from 1024 bits
 * and for contexts from 1536 bits, up to 4096), "mulx", or "portable" (FIPSMOD_CPU=portable or
 * no BMI2). */
const char *bn_path_name(void);

/* bn_mont_ctx_init_secret builds ctx for a SECRET modulus N (e.g. an RSA prime) in constant time:
 * n0 by Newton iteration; R^2 mod N with no division instruction: 2^(64(n-1)) is shifted up
 * to 2^t mod N in steps of 61 bits (each step's quotient estimated from N's normalized top word
 * and its reciprocal, itself from Newton's iteration), then finished with k Montgomery
 * squarings, t = 64n + 64n / 2^k (see mont.c; k is picked per width, and with AVX-512 IFMA
 * from 1536 bits two radix-2^52 squarings are used). Returns FM_OK, or FM_ERR_BAD_ARGUMENT
 * when n is 0 or > BN_MAX_LIMBS, N is even, N's top limb is zero or N == 1 (these facts are
 * treated as public; ctx is wiped then). Only n is public; N's bit length stays secret. */
int bn_mont_ctx_init_secret(bn_mont_ctx *ctx, const uint64_t *N, size_t n);

/* bn_mont_ctx_init_public builds ctx for a PUBLIC modulus (e.g. an RSA n); same checks and
 * results as bn_mont_ctx_init_secret. It may take variable time in N, but the constant-time
 * construction is faster than any division-based one, so it simply uses that. */
int bn_mont_ctx_init_public(bn_mont_ctx *ctx, const uint64_t *N, size_t n);

/* bn_mont_ctx_wipe zeroizes ctx. */
void bn_mont_ctx_wipe(bn_mont_ctx *ctx);

/* bn_mont_mul sets r = a * b * R^-1 mod N for a, b < N (ctx->n limbs). r may alias a or b. */
void bn_mont_mul(uint64_t *r, const uint64_t *a, const uint64_t *b, const bn_mont_ctx *ctx);

/* bn_mont_sqr sets r = a^2 * R^-1 mod N for a < N. r may alias a. */
void bn_mont_sqr(uint64_t *r, const uint64_t *a, const bn_mont_ctx *ctx);

/* bn_to_mont sets r = a * R mod N for a < N; bn_from_mont sets r = a * R^-1 mod N for a < N
 * (also correct for any a < 2^(64n): the result is then still < N). */
void bn_to_mont(uint64_t *r, const uint64_t *a, const bn_mont_ctx *ctx);
void bn_from_mont(uint64_t *r, const uint64_t *a, const bn_mont_ctx *ctx);

/* bn_mont_one sets r = R mod N (one in Montgomery form). */
void bn_mont_one(uint64_t *r, const bn_mont_ctx *ctx);

/* bn_mod_reduce sets the ctx->n-limb r = a mod N for any a of a_limbs limbs (for instance 2n for
 * RSA-CRT's c mod p). a and N secret; a_limbs public; constant time (Montgomery reductions, no
 * division). r may alias a. */
void bn_mod_reduce(uint64_t *r, const uint64_t *a, size_t a_limbs, const bn_mont_ctx *ctx);

/* bn_mod_mul sets r = a * b mod N (plain, not Montgomery form) for a, b < N: two Montgomery
 * multiplications. */
void bn_mod_mul(uint64_t *r, const uint64_t *a, const uint64_t *b, const bn_mont_ctx *ctx);

/* bn_mod_exp_consttime sets r = base^exp mod N for base < N (plain form in and out). base, exp
 * and N are secret; exp_limbs is public and every one of its 64*exp_limbs bits is processed
 * (fixed 5-bit window, 4-bit above 8192-bit moduli; the table is read by scanning every entry
 * with masks). From 1024 to 4096 bits with AVX-512 IFMA it runs in radix 2^52 (mont_ifma.c).
 * Returns FM_OK or FM_ERR_BAD_ARGUMENT when exp_limbs > BN_MAX_LIMBS (r zeroed).
 * exp_limbs == 0 gives 1. r may alias base. Stack use up to about 40 KiB. */
int bn_mod_exp_consttime(uint64_t *r, const uint64_t *base, const uint64_t *exp, size_t exp_limbs,
                         const bn_mont_ctx *ctx);

/* bn_mod_exp_consttime_x2 computes r1 = base1^exp1 mod N1 and r2 = base2^exp2 mod N2 (two
 * contexts, e.g. RSA-CRT's p and q; both exponents exp_limbs limbs), with the same guarantees
 * as two bn_mod_exp_consttime calls. With AVX-512 IFMA and equal widths of 1024 or 1536 bits
 * the two run interleaved in one loop (faster than one after the other: bench/README.md;
 * 1216-bit widths, whose digits fill the registers, run one after the other). Returns
 * FM_OK or FM_ERR_BAD_ARGUMENT (exp_limbs > BN_MAX_LIMBS; r1 and r2 zeroed). */
int bn_mod_exp_consttime_x2(uint64_t *r1, const uint64_t *base1, const uint64_t *exp1,
                            const bn_mont_ctx *ctx1, uint64_t *r2, const uint64_t *base2,
                            const uint64_t *exp2, const bn_mont_ctx *ctx2, size_t exp_limbs);

/* bn_mod_exp_public sets r = base^exp mod N where exp is PUBLIC (e.g. RSA e): time may depend on
 * exp's value, never on base or N. Same status codes and aliasing as bn_mod_exp_consttime. From
 * 1024 to 4096 bits with AVX-512 IFMA it runs in radix 2^52 (faster: bench/README.md). */
int bn_mod_exp_public(uint64_t *r, const uint64_t *base, const uint64_t *exp, size_t exp_limbs,
                      const bn_mont_ctx *ctx);

#endif
