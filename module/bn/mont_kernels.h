/* Montgomery multiplication and squaring kernels, shared by the portable build (mont.c) and the
 * MULX build (mont_mulx.c) of the same code. Private to module/bn/.
 *
 * Each kernel computes into a local accumulator, so the output may alias an input, and ends
 * with one masked subtraction of N: every path does the same work for every value. */
#ifndef FIPSMOD_MODULE_BN_MONT_KERNELS_H
#define FIPSMOD_MODULE_BN_MONT_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "module/bn/internal.h"
#include "module/internal.h"

typedef unsigned __int128 bn_u128;

#if defined(BN_KERNEL_MULX)
#define BN_INLINE static inline __attribute__((always_inline, target("bmi2")))
#else
#define BN_INLINE static inline __attribute__((always_inline))
#endif

/* bn_kernel_final_sub: r = t - N when (t_top:t) >= N, else t; (t_top:t) < 2N. */
BN_INLINE void bn_kernel_final_sub(uint64_t *r, const uint64_t *t, uint64_t t_top,
                                   const uint64_t *N, size_t n) {
  uint64_t borrow = 0;
  for (size_t j = 0; j < n; j++) {
    bn_u128 d = (bn_u128)t[j] - N[j] - borrow;
    r[j] = (uint64_t)d;
    borrow = (uint64_t)(d >> 64) & 1;
  }
  /* Keep t when t - N went negative, i.e. when it borrowed and t had no top bit to lend. */
  uint64_t keep_t = 0u - ct_value_barrier_u64(borrow & ~t_top & 1);
  for (size_t j = 0; j < n; j++) r[j] = (keep_t & t[j]) | (~keep_t & r[j]);
}

/* Product scanning. The kernels compute one column (one output limb) at a time, summing the
 * column's products into a three-limb accumulator (c2 : acc) with one multiplication and an
 * add/adc/adc chain per product; the carry out of the 128-bit add is exactly the overflow bit
 * __builtin_add_overflow reports (compiled to adc, not a branch).
 *
 * Montgomery multiplication (Koc et al.'s "finely integrated product scanning"): column k < n
 * also sums m[j] * N[k - j] for j < k, then picks m[k] = column * n0 mod 2^64 so that adding
 * m[k] * N[0] clears the column's low limb; columns n..2n-1 are the result. The accumulator
 * stays below 2N, so one masked subtraction finishes. */

/* BN_MAC: (c2 : acc) += x * y. The MULX build (mont_mulx.c defines BN_KERNEL_MULX first) takes
 * the product with the MULX intrinsic, which leaves the flags of the add chain alone and needs
 * no fixed registers; the portable build lets the compiler pick (MUL). */
#if defined(BN_KERNEL_MULX)
#define BN_MAC(acc, c2, x, y)                                         \
  do {                                                                \
    unsigned long long hi_;                                           \
    unsigned long long lo_ = _mulx_u64((x), (y), &hi_);               \
    bn_u128 p_ = ((bn_u128)hi_ << 64) | lo_;                          \
    (c2) += (uint64_t)__builtin_add_overflow((acc), p_, &(acc));      \
  } while (0)
#else
#define BN_MAC(acc, c2, x, y)                                         \
  do {                                                                \
    bn_u128 p_ = (bn_u128)(x) * (y);                                  \
    (c2) += (uint64_t)__builtin_add_overflow((acc), p_, &(acc));      \
  } while (0)
#endif
#define BN_ACC(x, y) BN_MAC(acc, c2, x, y)

/* BN_ACC_RUN: (c2 : acc) += sum over i < len of x[i] * y[-i] (y walks down). Two accumulators
 * take alternate products so that two carry chains run side by side; a macro, so that they
 * stay in registers. */
#define BN_ACC_RUN(x, y, len)                                                \
  do {                                                                       \
    const uint64_t *xp_ = (x), *yp_ = (y);                                   \
    size_t len_ = (len), i_ = 0;                                             \
    bn_u128 acc2_ = 0;                                                       \
    uint64_t c22_ = 0;                                                       \
    for (; i_ + 4 <= len_; i_ += 4, xp_ += 4, yp_ -= 4) {                    \
      BN_MAC(acc, c2, xp_[0], yp_[0]);                                       \
      BN_MAC(acc2_, c22_, xp_[1], yp_[-1]);                                  \
      BN_MAC(acc, c2, xp_[2], yp_[-2]);                                      \
      BN_MAC(acc2_, c22_, xp_[3], yp_[-3]);                                  \
    }                                                                        \
    for (; i_ < len_; i_++, xp_++, yp_--) BN_MAC(acc, c2, xp_[0], yp_[0]);   \
    c2 += c22_ + (uint64_t)__builtin_add_overflow(acc, acc2_, &acc);         \
  } while (0)

/* BN_NEXT_COL: the column is done; move the accumulator down one limb. */
#define BN_NEXT_COL()                              \
  do {                                             \
    acc = (acc >> 64) | ((bn_u128)c2 << 64);       \
    c2 = 0;                                        \
  } while (0)

/* bn_kernel_mont_mul: r = a * b * 2^(-64n) mod N for a, b < N. */
BN_INLINE void bn_kernel_mont_mul(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                  const uint64_t *N, uint64_t n0, size_t n) {
  uint64_t m[BN_MAX_LIMBS], t[BN_MAX_LIMBS];
  bn_u128 acc = 0;
  uint64_t c2 = 0;
  for (size_t k = 0; k < n; k++) {
    BN_ACC_RUN(a, b + k, k + 1);
    BN_ACC_RUN(m, N + k, k);
    m[k] = (uint64_t)acc * n0;
    BN_ACC(m[k], N[0]);
    BN_NEXT_COL();
  }
  for (size_t k = n; k < 2 * n - 1; k++) {
    size_t lo = k - n + 1;
    BN_ACC_RUN(a + lo, b + n - 1, n - lo);
    BN_ACC_RUN(m + lo, N + n - 1, n - lo);
    t[k - n] = (uint64_t)acc;
    BN_NEXT_COL();
  }
  t[n - 1] = (uint64_t)acc;
  bn_kernel_final_sub(r, t, (uint64_t)(acc >> 64), N, n);
  fm_zeroize(m, n * sizeof(uint64_t));
  fm_zeroize(t, n * sizeof(uint64_t));
}

/* bn_kernel_mont_sqr: r = a^2 * 2^(-64n) mod N for a < N. The cross products a[i] * a[k - i]
 * with i < k - i are summed once and doubled (half the multiplications of a general product),
 * then the carry in, the diagonal square and the m * N products are added. */
BN_INLINE void bn_kernel_mont_sqr(uint64_t *r, const uint64_t *a, const uint64_t *N, uint64_t n0,
                                  size_t n) {
  uint64_t m[BN_MAX_LIMBS], t[BN_MAX_LIMBS];
  bn_u128 acc = 0;
  uint64_t c2 = 0;
  for (size_t k = 0; k < 2 * n - 1; k++) {
    size_t lo = k < n ? 0 : k - n + 1;
    bn_u128 carry_in = acc;
    uint64_t carry_in2 = c2;
    acc = 0;
    c2 = 0;
    BN_ACC_RUN(a + lo, a + (k - lo), (k + 1 - 2 * lo) / 2);
    c2 = (c2 << 1) | (uint64_t)(acc >> 127);
    acc <<= 1;
    c2 += carry_in2 + (uint64_t)__builtin_add_overflow(acc, carry_in, &acc);
    if (k % 2 == 0) BN_ACC(a[k / 2], a[k / 2]);
    if (k < n) {
      BN_ACC_RUN(m, N + k, k);
      m[k] = (uint64_t)acc * n0;
      BN_ACC(m[k], N[0]);
    } else {
      BN_ACC_RUN(m + lo, N + n - 1, n - lo);
      t[k - n] = (uint64_t)acc;
    }
    BN_NEXT_COL();
  }
  t[n - 1] = (uint64_t)acc;
  bn_kernel_final_sub(r, t, (uint64_t)(acc >> 64), N, n);
  fm_zeroize(m, n * sizeof(uint64_t));
  fm_zeroize(t, n * sizeof(uint64_t));
}

/* The AVX-512 IFMA kernel (mont_ifma.c), radix 2^52: up to BN_IFMA_MAX_V registers of eight
 * digits, i.e. moduli up to 64 limbs (4096 bits; 79 digits of 52 bits keep R' > 4N).
 * bn_ifma_available: IFMA usable (and FIPSMOD_CPU not "portable"). bn_ifma_amm: r = a * b / R'
 * mod N, below 2N, for a, b < 2N, R' = 2^(52L), every array 8 * ceil(L / 8) digits of 52 bits
 * (zero above L); k0 = -N^-1 mod 2^52. r may alias a or b. */
#define BN_IFMA_MAX_V 10
#define BN_IFMA_MAX_LIMBS 64

/* BN_IFMA_DIGIT_MASK keeps the low 52 bits of a word: one radix-2^52 digit. */
#define BN_IFMA_DIGIT_BITS 52
#define BN_IFMA_DIGIT_MASK ((UINT64_C(1) << BN_IFMA_DIGIT_BITS) - 1)
static_assert(BN_IFMA_DIGIT_MASK == 0xFFFFFFFFFFFFFull, "52-bit digits");
#if FM_HAVE_X86_64_PATHS
bool bn_ifma_available(void);
#else
/* No IFMA kernel is built: a constant, so that the radix-2^52 paths are compiled out. */
#define bn_ifma_available() false
#endif
void bn_ifma_amm(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *N, uint64_t k0,
                 size_t L);
/* bn_ifma_amm_x2: two bn_ifma_amm of the same L in one interleaved loop for L of 17 to 31 digits
 * other than 24 (1024 and 1536-bit moduli among them; bench/README.md has the measured gain);
 * other L run one after the other. */
void bn_ifma_amm_x2(uint64_t *r1, const uint64_t *a1, const uint64_t *b1, const uint64_t *N1,
                    uint64_t k01, uint64_t *r2, const uint64_t *a2, const uint64_t *b2,
                    const uint64_t *N2, uint64_t k02, size_t L);

/* bn_ifma_table_read: r = table[idx] for a SECRET idx < entries, entries of `lanes` digits
 * (a multiple of 8, at most 8 * BN_IFMA_MAX_V), reading every entry under AVX-512 masks. */
void bn_ifma_table_read(uint64_t *r, const uint64_t *table, size_t entries, uint64_t idx,
                        size_t lanes);

/* The MULX builds of the kernels (mont_mulx.c); callers check fm_cpu_use(FM_CPU_BMI2) first. */
void bn_mont_mul_mulx(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *N,
                     uint64_t n0, size_t n);
void bn_mont_sqr_mulx(uint64_t *r, const uint64_t *a, const uint64_t *N, uint64_t n0, size_t n);

#endif
