/* The pieces of the P-curves' group law that ec_point.c, ec_scalar_mul.c (constant-time scalar
 * multiplication) and ec_verify.c (verification's variable-time double multiplication) share: the
 * per-curve field operations of P-256 and P-384 with their CPU dispatch and P-521's, the point at
 * infinity, and the a = -3 Jacobian doubling. Constant time: no value drives a branch or an
 * address. For those three files only. */
#ifndef FIPSMOD_MODULE_EC_GROUP_INLINE_H
#define FIPSMOD_MODULE_EC_GROUP_INLINE_H

#include <stdint.h>
#include <string.h>

#include "module/ec/ec_curves.h"
#include "module/ec/ec_field_inline.h"
#include "module/ec/ec_p521.h"
#include "module/ec/internal.h"
#include "module/internal.h"

typedef void (*fe_mul_fn)(uint64_t *r, const uint64_t *a, const uint64_t *b);

static const ec_mod k_p256_p = {.m = P256_P, .rr = P256_P_RR, .one = P256_P_ONE, .n0 = P256_P_N0};
static const ec_mod k_p384_p = {.m = P384_P, .rr = P384_P_RR, .one = P384_P_ONE, .n0 = P384_P_N0};
static const ec_mod k_p521_p = {.m = P521_P, .rr = P521_P_RR, .one = P521_P_ONE, .n0 = P521_P_N0};

/* ec_p256_mul_portable and ec_p384_mul_portable are the portable builds of the curves' field
 * multiplications (mont_mul_k with the prime as a constant, ec_point.c), for CPUs without BMI2
 * (P-384: without BMI2 and ADX) and FIPSMOD_CPU=portable. */
void ec_p256_mul_portable(uint64_t *r, const uint64_t *a, const uint64_t *b);
void ec_p384_mul_portable(uint64_t *r, const uint64_t *a, const uint64_t *b);

/* EC_FE_OPS(NAME, L, MOD, PORTABLE, MULX, ADX, ADX_SQR, ADDSUB) defines NAME_fadd and NAME_fsub
 * (inline or out of line, as ADDSUB says) and NAME_mul: ADX, the assembly product of
 * ec_p256_jac_adx.c or ec_p384_jac_adx.c (ADX_SQR for a square), where the curve has one and the
 * CPU BMI2 and ADX; else MULX, the BMI2 build of ec_field_mulx.c, where the curve has one and the
 * CPU BMI2; else PORTABLE. */
#define EC_FE_OPS(NAME, L, MOD, PORTABLE, MULX, ADX, ADX_SQR, ADDSUB)                         \
  ADDSUB void NAME##_fadd(uint64_t *r, const uint64_t *a, const uint64_t *b) {                \
    mod_add_k(MOD, r, a, b, L);                                                               \
  }                                                                                           \
  ADDSUB void NAME##_fsub(uint64_t *r, const uint64_t *a, const uint64_t *b) {                \
    mod_sub_k(MOD, r, a, b, L);                                                               \
  }                                                                                           \
  static inline void NAME##_mul(uint64_t *r, const uint64_t *a, const uint64_t *b) {          \
    /* The CPU's features are public. */                                                      \
    if (ADX != NULL && fm_cpu_use(FM_CPU_BMI2) && fm_cpu_use(FM_CPU_ADX)) {                   \
      /* The same address twice (public) is a square. */                                      \
      if (ADX_SQR != NULL && a == b) ADX_SQR(r, a);                                           \
      else ADX(r, a, b);                                                                      \
    } else if (MULX != NULL && fm_cpu_use(FM_CPU_BMI2))                                       \
      MULX(r, a, b);                                                                          \
    else                                                                                      \
      PORTABLE(r, a, b);                                                                      \
  }

#define NO_MULX ((fe_mul_fn)NULL)
#define NO_SQR ((void (*)(uint64_t *, const uint64_t *))NULL)
/* The formulas take the field operations as function pointers and are inlined with them; at -O0,
 * where GCC resolves no such pointer before inlining, always_inline would be an error, so the
 * additions there are plain static inline functions, called. */
#if defined(__OPTIMIZE__)
#define INLINE_ADDSUB static inline __attribute__((always_inline))
#else
#define INLINE_ADDSUB static inline
#endif
#define CALLED_ADDSUB static __attribute__((noinline))
EC_FE_OPS(p256, 4, &k_p256_p, ec_p256_mul_portable, ec_p256_mul_mulx, ec_p256_mul_adx,
          ec_p256_sqr_adx, INLINE_ADDSUB)
EC_FE_OPS(p384, 6, &k_p384_p, ec_p384_mul_portable, NO_MULX, ec_p384_mul_adx,
          ec_p384_sqr_adx, INLINE_ADDSUB)

/* P-521's field operations: ec_p521.c's product and square (the ADX assembly where the CPU has
 * BMI2 and ADX, else portable C; no product by p; the same address twice, public, is a square);
 * the additions mostly out of line, since
 * they are several times cheaper than a call to the product and inlining them everywhere would
 * only grow the code.
 *
 * The additions use p = 2^521 - 1 and keep outputs fully reduced (below p), as mod_add_k's and
 * mod_sub_k's are, with two carry chains and no comparison: a + b is computed as t = a + b + 1,
 * which reaches bit 521 exactly when a + b >= p, and then t without that bit is a + b - p, else
 * t - 1 is a + b; a - b is taken over nine words, and where it borrows, a - b + p is the
 * difference minus 1 (the borrow) with the bits above 520 dropped. No value drives a branch. */
static inline __attribute__((always_inline)) uint64_t p521_adc(uint64_t *r, uint64_t a,
                                                                uint64_t b, uint64_t c) {
#if defined(__x86_64__)
  unsigned long long s;
  c = _addcarry_u64((unsigned char)c, a, b, &s);
  *r = (uint64_t)s;
  return c;
#else
  const u128 s = (u128)a + b + c;
  *r = (uint64_t)s;
  return (uint64_t)(s >> 64);
#endif
}
static inline __attribute__((always_inline)) uint64_t p521_sbb(uint64_t *r, uint64_t a,
                                                                uint64_t b, uint64_t c) {
#if defined(__x86_64__)
  unsigned long long d;
  c = _subborrow_u64((unsigned char)c, a, b, &d);
  *r = (uint64_t)d;
  return c;
#else
  const u128 d = (u128)a - b - c;
  *r = (uint64_t)d;
  return (uint64_t)(d >> 64) & 1;
#endif
}
static inline __attribute__((always_inline)) void p521_add_k(uint64_t *r, const uint64_t *a,
                                                              const uint64_t *b) {
  uint64_t t[9], c = 1;
  _Pragma("GCC unroll 9")
  for (unsigned i = 0; i < 9; i++) c = p521_adc(&t[i], a[i], b[i], c);
  /* t <= 2p - 1 < 2^522: bit 521 is its top bit, and no carry leaves the ninth word. */
  c = ct_value_barrier_u64((t[8] >> 9) ^ 1); /* 1: a + b < p, subtract the 1 again */
  _Pragma("GCC unroll 9")
  for (unsigned i = 0; i < 9; i++) c = p521_sbb(&r[i], t[i], 0, c);
  r[8] &= 0x1ff;
}
static inline __attribute__((always_inline)) void p521_sub_k(uint64_t *r, const uint64_t *a,
                                                              const uint64_t *b) {
  uint64_t t[9], c = 0;
  _Pragma("GCC unroll 9")
  for (unsigned i = 0; i < 9; i++) c = p521_sbb(&t[i], a[i], b[i], c);
  c = ct_value_barrier_u64(c); /* 1: a < b, add p, that is subtract 1 modulo 2^521 */
  _Pragma("GCC unroll 9")
  for (unsigned i = 0; i < 9; i++) c = p521_sbb(&r[i], t[i], 0, c);
  r[8] &= 0x1ff;
}
/* p521_fadd and p521_fsub are the out-of-line copies the formulas call; the Jacobian doubling, the
 * hottest of them, has p521_add_k and p521_sub_k inline. */
static __attribute__((noinline, unused)) void p521_fadd(uint64_t *r, const uint64_t *a,
                                                        const uint64_t *b) {
  p521_add_k(r, a, b);
}
static __attribute__((noinline, unused)) void p521_fsub(uint64_t *r, const uint64_t *a,
                                                        const uint64_t *b) {
  p521_sub_k(r, a, b);
}
static inline void p521_mul(uint64_t *r, const uint64_t *a, const uint64_t *b) {
#if FM_HAVE_X86_64_PATHS
  /* The CPU's features are public: the assembly is called directly, without ec_p521_mul's own
   * dispatch. */
  if (fm_cpu_use(FM_CPU_BMI2 | FM_CPU_ADX)) {
    if (a == b) ec_p521_sqr_adx(r, a);
    else ec_p521_mul_adx(r, a, b);
    return;
  }
#endif
  if (a == b) ec_p521_sqr(r, a);
  else ec_p521_mul(r, a, b);
}

/* ec_p256_jdbl, ec_p384_jdbl and ec_p521_jdbl double the Jacobian point (x, y, z) in place
 * (jac_dbl_k below, out of line in ec_verify.c: one copy per curve for verification and scalar
 * multiplication; on P-256 with BMI2 and ADX, ec_p256_jac_adx.c's assembly of it). */
void ec_p256_jdbl(uint64_t *x, uint64_t *y, uint64_t *z);
void ec_p384_jdbl(uint64_t *x, uint64_t *y, uint64_t *z);
void ec_p521_jdbl(uint64_t *x, uint64_t *y, uint64_t *z);

/* point_set_infinity sets r = (0 : 1 : 0). */
static inline void point_set_infinity(const ec_curve *c, ec_point *r) {
  memset(r, 0, sizeof *r);
  memcpy(r->y, c->p.one, c->limbs * sizeof(uint64_t));
}

#define MUL(r, a, b) fe_mul(r, a, b)
#define ADD(r, a, b) fe_add(r, a, b)
#define SUB(r, a, b) fe_sub(r, a, b)

/* mod_half_k sets r = a / 2 mod m (a < m, m odd): a + m where a is odd (selected by mask), then
 * shifted right one bit with the carry. */
static inline __attribute__((always_inline)) void mod_half_k(const ec_mod *md, uint64_t *r,
                                                              const uint64_t *a,
                                                              const unsigned L) {
  uint64_t t[EC_MAX_LIMBS], mm[EC_MAX_LIMBS];
  const uint64_t odd = ct_value_barrier_u64(0u - (a[0] & 1));
  for (unsigned j = 0; j < L; j++) mm[j] = md->m[j] & odd;
  const uint64_t carry = add_carry(t, a, mm, L);
  for (unsigned j = 0; j + 1 < L; j++) r[j] = (t[j] >> 1) | (t[j + 1] << 63);
  r[L - 1] = (t[L - 1] >> 1) | (carry << 63);
}

/* p521_half sets r = a / 2 mod p on P-521 (a < p): a 521-bit rotation right by one bit, since
 * for an odd a, (a + p) / 2 = (a - 1) / 2 + 2^520. The result is below p: for an odd a <= p - 2
 * it is at most 2^520 - 2 + 2^520. No value drives a branch. */
static inline __attribute__((always_inline)) void p521_half(uint64_t *r, const uint64_t *a) {
  const uint64_t low = a[0] & 1;
  _Pragma("GCC unroll 8")
  for (unsigned j = 0; j < 8; j++) r[j] = (a[j] >> 1) | (a[j + 1] << 63);
  r[8] = (a[8] >> 1) | (low << 8);
}

/* p521_twice sets r = 2 a mod p on P-521 (a < p): a 521-bit rotation left by one bit, since
 * 2^521 = 1 mod p. A rotation of a value below p (not all 521 bits set) is below p. r may alias a
 * (the words are read from the top down). No value drives a branch. */
static inline __attribute__((always_inline)) void p521_twice(uint64_t *r, const uint64_t *a) {
  const uint64_t top = (a[8] >> 8) & 1; /* bit 520 */
  r[8] = ((a[8] << 1) | (a[7] >> 63)) & 0x1ff;
  _Pragma("GCC unroll 7")
  for (unsigned j = 7; j > 0; j--) r[j] = (a[j] << 1) | (a[j - 1] >> 63);
  r[0] = (a[0] << 1) | top;
}

/* jac_dbl_k doubles the Jacobian point (x, y, z), (x / z^2, y / z^3), in place with the a = -3
 * doubling (Bernstein and Lange's dbl-2001-b, 4M + 4S here with Z3 = 2 Y Z), arranged for few
 * additions: with S = (2Y)^2 = 4 gamma, 4 beta is X S and 8 gamma^2 is S^2 / 2:
 *   alpha = 3 (X - Z^2)(X + Z^2), X3 = alpha^2 - 2 X S, Y3 = alpha (X S - X3) - S^2 / 2,
 *   Z3 = 2 Y Z.
 * On P-256 (L = 4), P-384 (L = 6) and P-521 (L = 9), the curves that use it. */
static inline __attribute__((always_inline)) void jac_dbl_k(uint64_t *x, uint64_t *y, uint64_t *z,
                                                             const unsigned L,
                                                             const fe_mul_fn fe_mul,
                                                             const fe_mul_fn fe_add,
                                                             const fe_mul_fn fe_sub) {
  uint64_t s[EC_MAX_LIMBS], d[EC_MAX_LIMBS], m[EC_MAX_LIMBS], b[EC_MAX_LIMBS];
  const ec_mod *fp = L == 4 ? &k_p256_p : L == 6 ? &k_p384_p : &k_p521_p;
  /* On P-521, TWICE(r, a) is ADD(r, a, a) by rotation, and ADDI and SUBI are ADD and SUB
   * inline. */
#define TWICE(r, a)                                                                            \
  do {                                                                                         \
    if (L == 9) p521_twice(r, a);                                                              \
    else ADD(r, a, a);                                                                         \
  } while (0)
#define ADDI(r, a, b)                                                                          \
  do {                                                                                         \
    if (L == 9) p521_add_k(r, a, b);                                                           \
    else ADD(r, a, b);                                                                         \
  } while (0)
#define SUBI(r, a, b)                                                                          \
  do {                                                                                         \
    if (L == 9) p521_sub_k(r, a, b);                                                           \
    else SUB(r, a, b);                                                                         \
  } while (0)
  TWICE(s, y);        /* 2 Y */
  MUL(d, z, z);       /* delta = Z^2 */
  MUL(z, s, z);       /* Z3 = 2 Y Z */
  MUL(s, s, s);       /* S = 4 Y^2 */
  ADDI(m, x, d);
  SUBI(d, x, d);
  MUL(m, m, d);
  MUL(b, x, s);       /* 4 beta = X S */
  TWICE(d, m);
  ADDI(m, d, m);      /* alpha = 3 (X - delta)(X + delta) */
  MUL(x, m, m);
  MUL(s, s, s);
  if (L == 9) p521_half(s, s); /* 8 gamma^2 = S^2 / 2 */
  else mod_half_k(fp, s, s, L);
  TWICE(d, b);
  SUBI(x, x, d);      /* X3 = alpha^2 - 8 beta */
  SUBI(b, b, x);
  MUL(b, m, b);       /* alpha (4 beta - X3) */
  SUBI(y, b, s);      /* Y3 = alpha (4 beta - X3) - 8 gamma^2 */
#undef TWICE
#undef ADDI
#undef SUBI
}

#undef MUL
#undef ADD
#undef SUB

#endif
