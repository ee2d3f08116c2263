/* P-521's dedicated field arithmetic and fixed-base row selection (ec_p521.c), for ec_point.c,
 * ec_field.c and the tests. Field elements are 9 words in the Montgomery form the rest of
 * module/ec/ uses (R = 2^576), fully reduced (< p = 2^521 - 1) on input and on output; outputs may
 * alias inputs. Constant time: no value drives a branch or an address. */
#ifndef FIPSMOD_MODULE_EC_P521_H
#define FIPSMOD_MODULE_EC_P521_H

#include <stdbool.h>
#include <stdint.h>

/* ec_p521_mul sets r = a * b * 2^-576 mod p: the same result as the generic Montgomery
 * multiplication (mont_mul_k) with P-521's p, computed without any multiplication by p. */
void ec_p521_mul(uint64_t *r, const uint64_t *a, const uint64_t *b);

/* ec_p521_sqr sets r = a * a * 2^-576 mod p (45 word products against 81). */
void ec_p521_sqr(uint64_t *r, const uint64_t *a);

#if defined(__x86_64__)
/* ec_p521_mul_adx and ec_p521_sqr_adx are ec_p521_mul and ec_p521_sqr in assembly with MULX, ADCX
 * and ADOX (the same results): call only when the CPU has BMI2 and ADX. */
void ec_p521_mul_adx(uint64_t *r, const uint64_t *a, const uint64_t *b);
void ec_p521_sqr_adx(uint64_t *r, const uint64_t *a);

/* ec_p521_ladder_ifma runs scalar_mul_tab's windows (ec_scalar_mul.c) from the top one down to
 * the doublings of window 0, on a CPU with AVX-512 IFMA (ec_p521_ifma.c): tab holds the affine
 * multiples P..16P (x then y, 9 words each, Montgomery form), digit[w] and neg[w] window w's
 * signed digit (its magnitude, 0..16, and all-ones where it is negative). Writes the Jacobian sum
 * (x, y, z) in Montgomery form, fully reduced, and *acc_inf (all-ones where the sum is the point
 * at infinity, its coordinates then meaningless), for the caller's last window. Constant time in
 * the digits and P. */
void ec_p521_ladder_ifma(uint64_t x[9], uint64_t y[9], uint64_t z[9], uint64_t *acc_inf,
                         const uint64_t *tab, const uint64_t *digit, const uint64_t *neg,
                         unsigned windows);

/* ec_p521_double_mul_ifma is the digit loop of ec_verify.c's double_mul_jac_k on P-521 with AVX-512
 * IFMA: the sum of d1's digits times G's odd multiples godd (the affine (2e + 1) G, x then y,
 * Montgomery form) and d2's times Q's, qodd (eight entries, the same layout), with one doubling
 * a digit position from the top (len1 and len2 positions). Writes the Jacobian sum in Montgomery
 * form and returns true, or returns false for the point at infinity. VARIABLE TIME: for public
 * inputs (verification) only. */
bool ec_p521_double_mul_ifma(uint64_t x[9], uint64_t y[9], uint64_t z[9], const int16_t *d1,
                             unsigned len1, const int16_t *d2, unsigned len2,
                             const uint64_t *godd, const uint64_t *qodd);
#endif

/* ec_p521_row_select sets (x, y) to entry d - 1 of a fixed-base row of 16 affine points (x then
 * y, 9 words each), or to zeros for d = 0, reading every entry (constant time in the secret d). */
void ec_p521_row_select(uint64_t *x, uint64_t *y, const uint64_t *row, uint64_t d);

#endif
