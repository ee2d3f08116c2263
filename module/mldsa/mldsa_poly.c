/* ML-DSA arithmetic in R_q = Z_q[X]/(X^256 + 1), q = 8380417 (FIPS 204 sections 7.4 and 7.5):
 * the parameter sets, reductions, the NTT, rounding (Power2Round, Decompose, hints) and norm
 * checks.
 *
 * Every function here that takes a secret is branch-free in the coefficients: reductions are
 * Montgomery and Barrett-style multiply-shifts, never a division; comparisons become masks from
 * a sign bit (an arithmetic right shift of a difference that cannot overflow). The portable
 * functions are the reference for the AVX2 twins (mldsa_avx2.c), which must give the same
 * coefficients. */
#include <assert.h>
#include <stddef.h>
#include <stdint.h>

#include "module/internal.h"
#include "module/mldsa/internal.h"

/* ---- Parameter sets (FIPS 204 Table 1 and Table 2) ----------------------------------------- */

#define PK_LEN(k) (32 + 320 * (k))
#define SK_LEN(k, l, eta_bits) (128 + 32 * ((k) + (l)) * (eta_bits) + 416 * (k))
#define SIG_LEN(ct, l, z_bits, omega, k) ((ct) + 32 * (l) * (z_bits) + (omega) + (k))

static const mldsa_params kMldsa44 = {
    .k = 4, .l = 4, .eta = 2, .tau = 39, .omega = 80, .ctilde_len = 32, .eta_bits = 3,
    .z_bits = 18, .w1_bits = 6, .beta = 78, .gamma1 = 1 << 17, .gamma2 = (MLDSA_Q - 1) / 88,
    .pk_len = PK_LEN(4), .sk_len = SK_LEN(4, 4, 3), .sig_len = SIG_LEN(32, 4, 18, 80, 4)};
static const mldsa_params kMldsa65 = {
    .k = 6, .l = 5, .eta = 4, .tau = 49, .omega = 55, .ctilde_len = 48, .eta_bits = 4,
    .z_bits = 20, .w1_bits = 4, .beta = 196, .gamma1 = 1 << 19, .gamma2 = (MLDSA_Q - 1) / 32,
    .pk_len = PK_LEN(6), .sk_len = SK_LEN(6, 5, 4), .sig_len = SIG_LEN(48, 5, 20, 55, 6)};
static const mldsa_params kMldsa87 = {
    .k = 8, .l = 7, .eta = 2, .tau = 60, .omega = 75, .ctilde_len = 64, .eta_bits = 3,
    .z_bits = 20, .w1_bits = 4, .beta = 120, .gamma1 = 1 << 19, .gamma2 = (MLDSA_Q - 1) / 32,
    .pk_len = PK_LEN(8), .sk_len = SK_LEN(8, 7, 3), .sig_len = SIG_LEN(64, 7, 20, 75, 8)};

/* FIPS 204 Table 2. */
static_assert(PK_LEN(4) == 1312 && SK_LEN(4, 4, 3) == 2560 && SIG_LEN(32, 4, 18, 80, 4) == 2420,
              "ML-DSA-44 sizes");
static_assert(PK_LEN(6) == 1952 && SK_LEN(6, 5, 4) == 4032 && SIG_LEN(48, 5, 20, 55, 6) == 3309,
              "ML-DSA-65 sizes");
static_assert(PK_LEN(8) == MLDSA_MAX_PUBLIC_KEY_BYTES &&
                  SK_LEN(8, 7, 3) == MLDSA_MAX_PRIVATE_KEY_BYTES &&
                  SIG_LEN(64, 7, 20, 75, 8) == MLDSA_MAX_SIGNATURE_BYTES,
              "ML-DSA-87 sizes are the largest");

const mldsa_params *mldsa_params_get(int level) {
  switch (level) {
    case 44: return &kMldsa44;
    case 65: return &kMldsa65;
    case 87: return &kMldsa87;
    default: return NULL;
  }
}

/* ---- Reductions ------------------------------------------------------------------------------
 * Right shifts of negative int32/int64 values are arithmetic on every compiler the module builds
 * with (gcc and clang define it so); the code relies on it for sign masks. */

static_assert((uint32_t)((uint64_t)MLDSA_Q * MLDSA_QINV) == 1u, "MLDSA_QINV is q^-1 mod 2^32");

/* reduce32: a - round(a / 2^23) * q, in [-6283008, 6283008] for |a| < 2^31 - 2^22 (2^23 is
 * q + 2^13 - 1, so a / 2^23 underestimates a / q by at most a 2^-10 part). */
static inline int32_t reduce32(int32_t a) {
  const int32_t t = (a + (1 << 22)) >> 23;
  return a - t * MLDSA_Q;
}

/* caddq adds q when a is negative: the sign bit spread into a mask. */
static inline int32_t caddq(int32_t a) { return a + ((a >> 31) & MLDSA_Q); }

/* The element-wise functions below are written once (ELEMENTWISE) and built twice: for the
 * baseline ISA and, on x86-64, for AVX2 (the same C, so the same values; the compiler widens the
 * loops to eight lanes). The plain names dispatch on fm_cpu_use like the NTT below. */
#define ELEMENTWISE(SFX, ATTR)                                                                    \
  ATTR static void poly_reduce_##SFX(mldsa_poly *p) {                                           \
    for (size_t i = 0; i < MLDSA_N; i++) p->c[i] = reduce32(p->c[i]);                            \
  }                                                                                              \
  ATTR static void poly_caddq_##SFX(mldsa_poly *p) {                                            \
    for (size_t i = 0; i < MLDSA_N; i++) p->c[i] = caddq(p->c[i]);                               \
  }                                                                                              \
  ATTR static void poly_freeze_##SFX(mldsa_poly *p) {                                           \
    for (size_t i = 0; i < MLDSA_N; i++) p->c[i] = caddq(reduce32(p->c[i]));                     \
  }                                                                                              \
  ATTR static void poly_add_##SFX(mldsa_poly *r, const mldsa_poly *a, const mldsa_poly *b) {    \
    for (size_t i = 0; i < MLDSA_N; i++) r->c[i] = a->c[i] + b->c[i];                            \
  }                                                                                              \
  ATTR static void poly_sub_##SFX(mldsa_poly *r, const mldsa_poly *a, const mldsa_poly *b) {    \
    for (size_t i = 0; i < MLDSA_N; i++) r->c[i] = a->c[i] - b->c[i];                            \
  }                                                                                              \
  ATTR static void poly_shiftl_##SFX(mldsa_poly *p) {                                           \
    for (size_t i = 0; i < MLDSA_N; i++) p->c[i] = (int32_t)((uint32_t)p->c[i] << MLDSA_D);      \
  }                                                                                              \
  /* v in (-q, q) to [0, q), to (-(q-1)/2, (q-1)/2] (q off when above (q-1)/2), then the      \
   * split of that x = lo + 2^9 hi with lo in [-2^8, 2^8): hi = floor((x + 2^8) / 2^9). */        \
  ATTR static void poly_split_pair_##SFX(mldsa_poly *lo, mldsa_poly *hi, const mldsa_poly *v) { \
    for (size_t i = 0; i < MLDSA_N; i++) {                                                       \
      int32_t x = caddq(v->c[i]);                                                                \
      x -= (((MLDSA_Q - 1) / 2 - x) >> 31) & MLDSA_Q;                                            \
      const int32_t h = (x + (1 << (MLDSA_PAIR_SHIFT - 1))) >> MLDSA_PAIR_SHIFT;                 \
      hi->c[i] = h;                                                                              \
      lo->c[i] = x - h * (1 << MLDSA_PAIR_SHIFT);                                                \
    }                                                                                            \
  }                                                                                              \
  /* |c| >= bound for any coefficient, c centred: an OR of sign masks, no branch. For          \
   * |r| < q, the centred representative's magnitude is min(|r|, q - |r|). */                    \
  ATTR static uint32_t poly_norm_exceeds_##SFX(const mldsa_poly *p, int32_t bound) {            \
    uint32_t bad = 0;                                                                            \
    for (size_t i = 0; i < MLDSA_N; i++) {                                                       \
      const int32_t r = p->c[i], s = r >> 31;                                                    \
      const int32_t a = (r ^ s) - s, d = MLDSA_Q - 2 * a; /* |r|; (q - |r|) - |r| */             \
      const int32_t mag = a + (d & (d >> 31));            /* min(|r|, q - |r|) */                \
      bad |= (uint32_t)((bound - 1 - mag) >> 31);         /* negative exactly when mag >= bound */ \
    }                                                                                            \
    return ct_value_barrier_u32(bad);                                                            \
  }                                                                                              \
  /* poly_split_pair's split of v, then z = lo + y and poly_norm_exceeds on z, in one pass. */   \
  ATTR static uint32_t poly_split_add_norm_##SFX(mldsa_poly *z, mldsa_poly *hi,                 \
                                                 const mldsa_poly *v, const mldsa_poly *y,      \
                                                 int32_t bound) {                               \
    uint32_t bad = 0;                                                                            \
    for (size_t i = 0; i < MLDSA_N; i++) {                                                       \
      int32_t x = caddq(v->c[i]);                                                                \
      x -= (((MLDSA_Q - 1) / 2 - x) >> 31) & MLDSA_Q;                                            \
      const int32_t h = (x + (1 << (MLDSA_PAIR_SHIFT - 1))) >> MLDSA_PAIR_SHIFT;                 \
      const int32_t r = x - h * (1 << MLDSA_PAIR_SHIFT) + y->c[i], s = r >> 31;                  \
      const int32_t a = (r ^ s) - s, d = MLDSA_Q - 2 * a;                                        \
      bad |= (uint32_t)((bound - 1 - (a + (d & (d >> 31)))) >> 31);                              \
      hi->c[i] = h;                                                                              \
      z->c[i] = r;                                                                               \
    }                                                                                            \
    return ct_value_barrier_u32(bad);                                                            \
  }

ELEMENTWISE(base, )
#if defined(__x86_64__)
ELEMENTWISE(avx2, __attribute__((target("avx2"))))
#define ELEMENTWISE_AVX2() fm_cpu_use(FM_CPU_AVX2)
#else
#define ELEMENTWISE_AVX2() false
#define poly_reduce_avx2 poly_reduce_base
#define poly_caddq_avx2 poly_caddq_base
#define poly_freeze_avx2 poly_freeze_base
#define poly_add_avx2 poly_add_base
#define poly_sub_avx2 poly_sub_base
#define poly_shiftl_avx2 poly_shiftl_base
#define poly_split_pair_avx2 poly_split_pair_base
#define poly_norm_exceeds_avx2 poly_norm_exceeds_base
#define poly_split_add_norm_avx2 poly_split_add_norm_base
#endif

void mldsa_poly_reduce(mldsa_poly *p) {
  if (ELEMENTWISE_AVX2()) poly_reduce_avx2(p);
  else poly_reduce_base(p);
}
void mldsa_poly_caddq(mldsa_poly *p) {
  if (ELEMENTWISE_AVX2()) poly_caddq_avx2(p);
  else poly_caddq_base(p);
}
void mldsa_poly_freeze(mldsa_poly *p) {
  if (ELEMENTWISE_AVX2()) poly_freeze_avx2(p);
  else poly_freeze_base(p);
}
void mldsa_poly_add(mldsa_poly *r, const mldsa_poly *a, const mldsa_poly *b) {
  if (ELEMENTWISE_AVX2()) poly_add_avx2(r, a, b);
  else poly_add_base(r, a, b);
}
void mldsa_poly_sub(mldsa_poly *r, const mldsa_poly *a, const mldsa_poly *b) {
  if (ELEMENTWISE_AVX2()) poly_sub_avx2(r, a, b);
  else poly_sub_base(r, a, b);
}
void mldsa_poly_shiftl(mldsa_poly *p) {
  if (ELEMENTWISE_AVX2()) poly_shiftl_avx2(p);
  else poly_shiftl_base(p);
}
void mldsa_poly_split_pair(mldsa_poly *lo, mldsa_poly *hi, const mldsa_poly *v) {
  if (ELEMENTWISE_AVX2()) poly_split_pair_avx2(lo, hi, v);
  else poly_split_pair_base(lo, hi, v);
}
uint32_t mldsa_poly_norm_exceeds(const mldsa_poly *p, int32_t bound) {
  return ELEMENTWISE_AVX2() ? poly_norm_exceeds_avx2(p, bound) : poly_norm_exceeds_base(p, bound);
}
uint32_t mldsa_poly_split_add_norm(mldsa_poly *z, mldsa_poly *hi, const mldsa_poly *v,
                                   const mldsa_poly *y, int32_t bound) {
  return ELEMENTWISE_AVX2() ? poly_split_add_norm_avx2(z, hi, v, y, bound)
                            : poly_split_add_norm_base(z, hi, v, y, bound);
}

/* ---- The NTT (FIPS 204 Algorithms 41 and 42) -------------------------------------------------
 * mldsa_zetas[m] = zeta^BitRev8(m) * 2^32 mod q (mldsa_zetas.inc, written by gen_zetas.py), so that
 * one Montgomery multiplication by it multiplies by zeta^BitRev8(m). No reduction between
 * layers: each forward layer grows the coefficients by less than q, eight layers stay below 9q;
 * the inverse's sums double per layer from below q, 256q < 2^31. */
/* OUT_OF_LINE keeps a portable kernel that its dispatcher below would inline as one call: the
 * kernel is also called by name (the tests, other units), so inlining would carry two copies. */
#define OUT_OF_LINE __attribute__((noinline))

const int32_t mldsa_zetas[MLDSA_N] = {
#include "module/mldsa/mldsa_zetas.inc"
};

OUT_OF_LINE void mldsa_poly_ntt_portable(mldsa_poly *p) {
  int32_t *w = p->c;
  size_t m = 0;
  for (size_t len = 128; len >= 1; len >>= 1) {
    for (size_t start = 0; start < MLDSA_N; start += 2 * len) {
      const int64_t z = mldsa_zetas[++m];
      for (size_t j = start; j < start + len; j++) {
        const int32_t t = mldsa_montgomery_reduce(z * w[j + len]);
        w[j + len] = w[j] - t;
        w[j] = w[j] + t;
      }
    }
  }
}

/* 2^64 / 256 mod q: the final scaling by 256^-1, with the extra 2^32 of "tomont". */
#define INVNTT_F 41978
static_assert((uint64_t)INVNTT_F * 256 % MLDSA_Q == ((uint64_t)1 << 63) % MLDSA_Q * 2 % MLDSA_Q,
              "INVNTT_F * 256 = 2^64 mod q");

void mldsa_poly_invntt_tomont_portable(mldsa_poly *p) {
  int32_t *w = p->c;
  size_t m = MLDSA_N;
  for (size_t len = 1; len < MLDSA_N / 2; len <<= 1) {
    for (size_t start = 0; start < MLDSA_N; start += 2 * len) {
      const int64_t z = -(int64_t)mldsa_zetas[--m];
      for (size_t j = start; j < start + len; j++) {
        const int32_t t = w[j];
        w[j] = t + w[j + len];
        w[j + len] = mldsa_montgomery_reduce(z * (t - w[j + len]));
      }
    }
  }
  /* The last layer (length 128, -zetas[1]) with the scaling folded in: the sums times F, the
   * differences times mldsa_invntt_last_zeta(), -zetas[1] F 2^-32. */
  const int64_t fz = mldsa_invntt_last_zeta();
  for (size_t j = 0; j < MLDSA_N / 2; j++) {
    const int32_t t = w[j];
    w[j] = mldsa_montgomery_reduce((int64_t)INVNTT_F * (t + w[j + MLDSA_N / 2]));
    w[j + MLDSA_N / 2] = mldsa_montgomery_reduce(fz * (t - w[j + MLDSA_N / 2]));
  }
}

int32_t mldsa_invntt_last_zeta(void) {
  return mldsa_montgomery_reduce(-(int64_t)mldsa_zetas[1] * INVNTT_F);
}

OUT_OF_LINE void mldsa_poly_pointwise_mont_portable(mldsa_poly *r, const mldsa_poly *a,
                                                   const mldsa_poly *b) {
  for (size_t i = 0; i < MLDSA_N; i++)
    r->c[i] = mldsa_montgomery_reduce((int64_t)a->c[i] * b->c[i]);
}

OUT_OF_LINE void mldsa_poly_pointwise_acc_mont_portable(mldsa_poly *r, const mldsa_poly *a,
                                                       const mldsa_poly *b) {
  for (size_t i = 0; i < MLDSA_N; i++)
    r->c[i] += mldsa_montgomery_reduce((int64_t)a->c[i] * b->c[i]);
}

OUT_OF_LINE void mldsa_poly_dot_mont_portable(mldsa_poly *r, const mldsa_poly *a,
                                              const mldsa_poly *v, unsigned n) {
  for (size_t i = 0; i < MLDSA_N; i++) {
    int64_t sum = 0;
    for (unsigned j = 0; j < n; j++) sum += (int64_t)a[j].c[i] * v[j].c[i];
    r->c[i] = mldsa_montgomery_reduce(sum);
  }
}

/* ---- Rounding (FIPS 204 section 7.4) ------------------------------------------------------- */

void mldsa_poly_power2round(mldsa_poly *a1, mldsa_poly *a0, const mldsa_poly *a) {
  /* Algorithm 35: r0 = r mod+- 2^d, r1 = (r - r0) / 2^d; for r in [0, q) that is
   * r1 = floor((r + 2^(d-1) - 1) / 2^d). */
  for (size_t i = 0; i < MLDSA_N; i++) {
    const int32_t r = a->c[i];
    const int32_t r1 = (r + (1 << (MLDSA_D - 1)) - 1) >> MLDSA_D;
    a1->c[i] = r1;
    a0->c[i] = r - (r1 << MLDSA_D);
  }
}

/* decompose_one: Algorithm 36 for r in [0, q). r1 = round(r / (2 gamma2)) computed as a
 * multiply-shift: first ceil(r / 128) (2 gamma2 is a multiple of 128), then times a fixed-point
 * reciprocal of 2 gamma2 / 128 (1025 / 2^22 for 4092, 11275 / 2^24 for 1488), exact on this
 * range (mldsa tests check every r). The top value (r near q, where r - r0 = q - 1) wraps to 0:
 * FIPS 204's special case, r1 = 0 and r0 = r0 - 1, which the last step gives as r - q. */
static inline int32_t decompose_one(int32_t gamma2, int32_t r, int32_t *r0) {
  int32_t r1 = (r + 127) >> 7;
  if (gamma2 == (MLDSA_Q - 1) / 32) { /* public: the parameter set */
    r1 = (r1 * 1025 + (1 << 21)) >> 22;
    r1 &= 15; /* 16 becomes 0 */
  } else {
    r1 = (r1 * 11275 + (1 << 23)) >> 24;
    r1 ^= ((43 - r1) >> 31) & r1; /* 44 becomes 0: xor with itself where 43 - r1 < 0 */
  }
  int32_t lo = r - r1 * 2 * gamma2;
  lo -= (((MLDSA_Q - 1) / 2 - lo) >> 31) & MLDSA_Q; /* lo > (q-1)/2 only in the wrapped case */
  *r0 = lo;
  return r1;
}

OUT_OF_LINE void mldsa_poly_decompose_portable(const mldsa_params *p, mldsa_poly *a1,
                                               mldsa_poly *a0, const mldsa_poly *a) {
  for (size_t i = 0; i < MLDSA_N; i++) {
    int32_t r0;
    const int32_t r1 = decompose_one(p->gamma2, a->c[i], &r0);
    if (a1 != NULL) a1->c[i] = r1;
    a0->c[i] = r0;
  }
}

uint32_t mldsa_poly_sign_row_portable(const mldsa_params *p, mldsa_poly *h, const mldsa_poly *w,
                                      const mldsa_poly *cs2, const mldsa_poly *ct0,
                                      unsigned *ones) {
  uint32_t bad = 0;
  unsigned count = 0;
  for (size_t i = 0; i < MLDSA_N; i++) {
    /* r = w - cs2 in [0, q); (v1, r0) = Decompose(r); ||r0|| >= gamma2 - beta (r0 centred) */
    const int32_t r = caddq(reduce32(w->c[i] - cs2->c[i]));
    int32_t r0, lo;
    const int32_t v1 = decompose_one(p->gamma2, r, &r0);
    const int32_t s0 = r0 >> 31, m0 = (r0 ^ s0) - s0;
    bad |= (uint32_t)((p->gamma2 - p->beta - 1 - m0) >> 31);
    /* ||ct0|| >= gamma2: ct0 in (-q, q), magnitude min(|ct0|, q - |ct0|) */
    const int32_t c = ct0->c[i], sc = c >> 31, ac = (c ^ sc) - sc, d = MLDSA_Q - 2 * ac;
    bad |= (uint32_t)((p->gamma2 - 1 - (ac + (d & (d >> 31)))) >> 31);
    /* Algorithm 39: h = [HighBits(r + ct0) != v1] */
    const int32_t r1 = decompose_one(p->gamma2, caddq(reduce32(r + c)), &lo);
    const uint32_t differ = ~ct_eq_u32((uint32_t)r1, (uint32_t)v1) & 1u;
    h->c[i] = (int32_t)differ;
    count += differ;
  }
  *ones += count;
  return ct_value_barrier_u32(bad);
}

OUT_OF_LINE void mldsa_poly_use_hint_encode_portable(const mldsa_params *p, uint8_t *out,
                                                     const mldsa_poly *w, const mldsa_poly *h) {
  mldsa_poly w1;
  for (size_t i = 0; i < MLDSA_N; i++) w1.c[i] = caddq(w->c[i]);
  mldsa_poly_use_hint_portable(p, &w1, h);
  mldsa_pack_w1_portable(p, out, &w1);
}

OUT_OF_LINE void mldsa_poly_w1_encode_portable(const mldsa_params *p, uint8_t *out,
                                               mldsa_poly *w) {
  mldsa_poly w1;
  for (size_t i = 0; i < MLDSA_N; i++) {
    int32_t r0;
    w->c[i] = caddq(w->c[i]);
    w1.c[i] = decompose_one(p->gamma2, w->c[i], &r0);
  }
  mldsa_pack_w1_portable(p, out, &w1);
  fm_zeroize(&w1, sizeof w1);
}

OUT_OF_LINE void mldsa_poly_use_hint_portable(const mldsa_params *p, mldsa_poly *a,
                                             const mldsa_poly *h) {
  /* Algorithm 40 with masks (the inputs are public, but a branch per hint mispredicts):
   * r1 + 1 where h = 1 and r0 > 0, r1 - 1 where h = 1 and r0 <= 0, then m wraps to 0 and -1
   * to m - 1; m = (q-1) / (2 gamma2). h is 0 or 1 (mldsa_unpack_hint). */
  const int32_t m = (MLDSA_Q - 1) / (2 * p->gamma2);
  for (size_t i = 0; i < MLDSA_N; i++) {
    int32_t r0;
    int32_t r1 = decompose_one(p->gamma2, a->c[i], &r0);
    const int32_t step = (((-r0) >> 31) & 2) - 1; /* +1 when r0 > 0, else -1 */
    r1 += step & -h->c[i];
    r1 -= ((m - 1 - r1) >> 31) & m; /* m to 0 */
    r1 += (r1 >> 31) & m;           /* -1 to m - 1 */
    a->c[i] = r1;
  }
}

/* ---- Dispatch ------------------------------------------------------------------------------- */

#if defined(__x86_64__)
void mldsa_poly_ntt_avx2(mldsa_poly *p);
void mldsa_poly_invntt_tomont_avx2(mldsa_poly *p);
void mldsa_poly_ntt_avx512(mldsa_poly *p);
void mldsa_poly_invntt_tomont_avx512(mldsa_poly *p);
void mldsa_poly_pointwise_mont_avx2(mldsa_poly *r, const mldsa_poly *a, const mldsa_poly *b);
void mldsa_poly_pointwise_acc_mont_avx2(mldsa_poly *r, const mldsa_poly *a, const mldsa_poly *b);
void mldsa_poly_dot_mont_avx2(mldsa_poly *r, const mldsa_poly *a, const mldsa_poly *v,
                              unsigned n);
void mldsa_poly_decompose_avx2(const mldsa_params *p, mldsa_poly *a1, mldsa_poly *a0,
                               const mldsa_poly *a);
uint32_t mldsa_poly_sign_row_avx2(const mldsa_params *p, mldsa_poly *h, const mldsa_poly *w,
                                  const mldsa_poly *cs2, const mldsa_poly *ct0, unsigned *ones);
void mldsa_poly_use_hint_avx2(const mldsa_params *p, mldsa_poly *a, const mldsa_poly *h);
void mldsa_poly_w1_encode_avx2(const mldsa_params *p, uint8_t *out, mldsa_poly *w);
void mldsa_poly_use_hint_encode_avx2(const mldsa_params *p, uint8_t *out, const mldsa_poly *w,
                                     const mldsa_poly *h);
#define MLDSA_HAVE_AVX2 1
#endif

#if defined(MLDSA_HAVE_AVX2)
static inline bool use_avx2(void) { return fm_cpu_use(FM_CPU_AVX2); }
static inline bool use_avx512(void) { return fm_cpu_use(FM_CPU_AVX2 | FM_CPU_AVX512); }
#else
static inline bool use_avx2(void) { return false; }
#endif

void mldsa_poly_ntt(mldsa_poly *p) {
#if defined(MLDSA_HAVE_AVX2)
  if (use_avx512()) {
    mldsa_poly_ntt_avx512(p);
    return;
  }
  if (use_avx2()) {
    mldsa_poly_ntt_avx2(p);
    return;
  }
#endif
  mldsa_poly_ntt_portable(p);
}

void mldsa_poly_invntt_tomont(mldsa_poly *p) {
#if defined(MLDSA_HAVE_AVX2)
  if (use_avx512()) {
    mldsa_poly_invntt_tomont_avx512(p);
    return;
  }
  if (use_avx2()) {
    mldsa_poly_invntt_tomont_avx2(p);
    return;
  }
#endif
  mldsa_poly_invntt_tomont_portable(p);
}

void mldsa_poly_pointwise_mont(mldsa_poly *r, const mldsa_poly *a, const mldsa_poly *b) {
#if defined(MLDSA_HAVE_AVX2)
  if (use_avx2()) {
    mldsa_poly_pointwise_mont_avx2(r, a, b);
    return;
  }
#endif
  mldsa_poly_pointwise_mont_portable(r, a, b);
}

void mldsa_poly_pointwise_acc_mont(mldsa_poly *r, const mldsa_poly *a, const mldsa_poly *b) {
#if defined(MLDSA_HAVE_AVX2)
  if (use_avx2()) {
    mldsa_poly_pointwise_acc_mont_avx2(r, a, b);
    return;
  }
#endif
  mldsa_poly_pointwise_acc_mont_portable(r, a, b);
}

void mldsa_poly_dot_mont(mldsa_poly *r, const mldsa_poly *a, const mldsa_poly *v, unsigned n) {
#if defined(MLDSA_HAVE_AVX2)
  if (use_avx2()) {
    mldsa_poly_dot_mont_avx2(r, a, v, n);
    return;
  }
#endif
  mldsa_poly_dot_mont_portable(r, a, v, n);
}

void mldsa_poly_decompose(const mldsa_params *p, mldsa_poly *a1, mldsa_poly *a0,
                          const mldsa_poly *a) {
#if defined(MLDSA_HAVE_AVX2)
  if (use_avx2() && a1 != NULL) {
    mldsa_poly_decompose_avx2(p, a1, a0, a);
    return;
  }
#endif
  mldsa_poly_decompose_portable(p, a1, a0, a);
}

uint32_t mldsa_poly_sign_row(const mldsa_params *p, mldsa_poly *h, const mldsa_poly *w,
                             const mldsa_poly *cs2, const mldsa_poly *ct0, unsigned *ones) {
#if defined(MLDSA_HAVE_AVX2)
  if (use_avx2()) return mldsa_poly_sign_row_avx2(p, h, w, cs2, ct0, ones);
#endif
  return mldsa_poly_sign_row_portable(p, h, w, cs2, ct0, ones);
}

void mldsa_poly_use_hint(const mldsa_params *p, mldsa_poly *a, const mldsa_poly *h) {
#if defined(MLDSA_HAVE_AVX2)
  if (use_avx2()) {
    mldsa_poly_use_hint_avx2(p, a, h);
    return;
  }
#endif
  mldsa_poly_use_hint_portable(p, a, h);
}

void mldsa_poly_w1_encode(const mldsa_params *p, uint8_t *out, mldsa_poly *w) {
#if defined(MLDSA_HAVE_AVX2)
  if (use_avx2()) {
    mldsa_poly_w1_encode_avx2(p, out, w);
    return;
  }
#endif
  mldsa_poly_w1_encode_portable(p, out, w);
}

void mldsa_poly_use_hint_encode(const mldsa_params *p, uint8_t *out, const mldsa_poly *w,
                                const mldsa_poly *h) {
#if defined(MLDSA_HAVE_AVX2)
  if (use_avx2()) {
    mldsa_poly_use_hint_encode_avx2(p, out, w, h);
    return;
  }
#endif
  mldsa_poly_use_hint_encode_portable(p, out, w, h);
}

const char *mldsa_path_name(void) {
#if defined(MLDSA_HAVE_AVX2)
  if (use_avx512()) return "avx2+ntt-avx512";
#endif
  return use_avx2() ? "avx2" : "portable";
}
