/* P-521's dedicated field arithmetic and fixed-base row selection (ec_p521.c), for ec_point.c,
 * ec_field.c and the tests. Field elements are 9 words in the Montgomery form the rest of
 * module/ec/ uses (R = 2^576), fully reduced (< p = 2^521 - 1) on input and on output; outputs may
 * alias inputs. Constant time: no value drives a branch or an address. */
#ifndef FIPSMOD_MODULE_EC_P521_H
#define FIPSMOD_MODULE_EC_P521_H

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
#endif

/* ec_p521_row_select sets (x, y) to entry d - 1 of a fixed-base row of 16 affine points (x then
 * y, 9 words each), or to zeros for d = 0, reading every entry (constant time in the secret d). */
void ec_p521_row_select(uint64_t *x, uint64_t *y, const uint64_t *row, uint64_t d);

#endif
