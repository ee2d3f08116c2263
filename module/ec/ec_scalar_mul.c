/* Constant-time scalar multiplication on the P-curves: the variable-base multiplication by
 * signed 5-bit windows (Booth recoding) whose table of multiples is read by constant-time
 * selection, in Jacobian coordinates with a mixed addition on P-256, P-384 and P-521 (an affine
 * table, one inversion) and with ec_point.c's complete formulas on P-224; the fixed-base
 * multiplication k * G from the tables of ec_base_table.c. The mixed additions (RCB16 Algorithm 5,
 * complete; Hankerson, Menezes and Vanstone's Jacobian one, not complete) are here, where they are
 * used. */
#include <stddef.h>
#include <string.h>

#include "module/ec/ec_base_table.h"
#include "module/ec/ec_curves.h"
#include "module/ec/ec_field_inline.h"
#include "module/ec/ec_group_inline.h"
#include "module/ec/ec_p521.h"
#include "module/ec/internal.h"
#include "module/internal.h"

/* ---- Mixed additions ---------------------------------------------------------------------- */

#define MUL(r, a, b) fe_mul(r, a, b)
#define ADD(r, a, b) fe_add(r, a, b)
#define SUB(r, a, b) fe_sub(r, a, b)


/* point_add_affine_k sets r = p + (x2 : y2 : 1) with RCB16 Algorithm 5 (mixed addition, a = -3:
 * 11 multiplications and two by b, against Algorithm 4's 12 and two): correct for every p, the
 * point at infinity included, but the affine point cannot be the point at infinity; the caller
 * handles that case by selection. */
static inline __attribute__((always_inline)) void point_add_affine_k(
    const ec_curve *c, ec_point *r, const ec_point *p, const uint64_t *x2, const uint64_t *y2,
    const unsigned L, const fe_mul_fn fe_mul, const fe_mul_fn fe_add, const fe_mul_fn fe_sub) {
  uint64_t t0[EC_MAX_LIMBS], t1[EC_MAX_LIMBS], t2[EC_MAX_LIMBS], t3[EC_MAX_LIMBS],
      t4[EC_MAX_LIMBS], x3[EC_MAX_LIMBS], y3[EC_MAX_LIMBS], z3[EC_MAX_LIMBS];
  const uint64_t *b = c->b;
  /* The step numbers are the paper's. */
  MUL(t0, p->x, x2);    /* 1 */
  MUL(t1, p->y, y2);    /* 2 */
  ADD(t3, x2, y2);      /* 3 */
  ADD(t4, p->x, p->y);  /* 4 */
  MUL(t3, t3, t4);      /* 5 */
  ADD(t4, t0, t1);      /* 6 */
  SUB(t3, t3, t4);      /* 7 */
  MUL(t4, y2, p->z);    /* 8 */
  ADD(t4, t4, p->y);    /* 9 */
  MUL(y3, x2, p->z);    /* 10 */
  ADD(y3, y3, p->x);    /* 11 */
  MUL(z3, b, p->z);     /* 12 */
  SUB(x3, y3, z3);      /* 13 */
  ADD(z3, x3, x3);      /* 14 */
  ADD(x3, x3, z3);      /* 15 */
  SUB(z3, t1, x3);      /* 16 */
  ADD(x3, t1, x3);      /* 17 */
  MUL(y3, b, y3);       /* 18 */
  ADD(t1, p->z, p->z);  /* 19 */
  ADD(t2, t1, p->z);    /* 20 */
  SUB(y3, y3, t2);      /* 21 */
  SUB(y3, y3, t0);      /* 22 */
  ADD(t1, y3, y3);      /* 23 */
  ADD(y3, t1, y3);      /* 24 */
  ADD(t1, t0, t0);      /* 25 */
  ADD(t0, t1, t0);      /* 26 */
  SUB(t0, t0, t2);      /* 27 */
  MUL(t1, t4, y3);      /* 28 */
  MUL(t2, t0, y3);      /* 29 */
  MUL(y3, x3, z3);      /* 30 */
  ADD(y3, y3, t2);      /* 31 */
  MUL(x3, t3, x3);      /* 32 */
  SUB(x3, x3, t1);      /* 33 */
  MUL(z3, t4, z3);      /* 34 */
  MUL(t1, t3, t0);      /* 35 */
  ADD(z3, z3, t1);      /* 36 */
  const size_t n = L * sizeof(uint64_t);
  memcpy(r->x, x3, n);
  memcpy(r->y, y3, n);
  memcpy(r->z, z3, n);
}

/* jac_madd_k sets (r->x, r->y, r->z) to the Jacobian point (p->x, p->y, p->z) plus the affine
 * (x2, y2), with the mixed addition of Hankerson, Menezes and Vanstone (madd-2004-hmv: 8M + 3S,
 * against 11 multiplications, two by b and twice the additions for RCB16 Algorithm 5):
 *   Z1Z1 = Z1^2, U2 = X2 Z1Z1, S2 = Y2 Z1 Z1Z1, H = U2 - X1, R = S2 - Y1,
 *   X3 = R^2 - H^3 - 2 X1 H^2, Y3 = R (X1 H^2 - X3) - Y1 H^3, Z3 = Z1 H.
 * NOT COMPLETE: the result is wrong when p is the point at infinity (Z1 = 0) or when p equals
 * (x2, y2) or its negation (H = 0); its callers (mul_base_table, scalar_mul_tab and the table
 * build of ec_scalar_mul_affine) prove that neither arises where they use it, or select around
 * the point at infinity. No branch. */
static inline __attribute__((always_inline)) void jac_madd_k(ec_point *r, const ec_point *p,
                                                              const uint64_t *x2,
                                                              const uint64_t *y2,
                                                              const unsigned L,
                                                              const fe_mul_fn fe_mul,
                                                              const fe_mul_fn fe_add,
                                                              const fe_mul_fn fe_sub) {
  uint64_t zz[EC_MAX_LIMBS], t[EC_MAX_LIMBS], h[EC_MAX_LIMBS], rr[EC_MAX_LIMBS],
      hh[EC_MAX_LIMBS], v[EC_MAX_LIMBS], x3[EC_MAX_LIMBS];
  (void)L;
  MUL(zz, p->z, p->z);  /* Z1Z1 */
  MUL(t, p->z, zz);     /* Z1^3 */
  MUL(h, x2, zz);       /* U2 */
  SUB(h, h, p->x);      /* H = U2 - X1 */
  MUL(rr, y2, t);       /* S2 */
  MUL(hh, h, h);        /* H^2 */
  SUB(rr, rr, p->y);    /* R = S2 - Y1 */
  MUL(r->z, p->z, h);   /* Z3 = Z1 H */
  MUL(x3, rr, rr);
  MUL(t, h, hh);        /* H^3 */
  MUL(v, p->x, hh);     /* V = X1 H^2 */
  SUB(x3, x3, t);
  SUB(x3, x3, v);
  SUB(x3, x3, v);       /* X3 = R^2 - H^3 - 2 V */
  MUL(t, p->y, t);      /* Y1 H^3 */
  SUB(v, v, x3);
  MUL(v, rr, v);        /* R (V - X3) */
  SUB(r->y, v, t);      /* Y3 */
  (void)fe_add;
  for (unsigned j = 0; j < L; j++) r->x[j] = x3[j];
}

#undef MUL
#undef ADD
#undef SUB

#define madd_ops(NAME, L)                                                                     \
  static __attribute__((noinline)) void NAME##_add_affine(const ec_curve *c, ec_point *r,     \
                                                          const ec_point *p,                  \
                                                          const uint64_t *x2,                 \
                                                          const uint64_t *y2) {               \
    point_add_affine_k(c, r, p, x2, y2, L, NAME##_mul, NAME##_fadd, NAME##_fsub);             \
  }
#define jmadd_ops(NAME, L, MADD_ASM)                                                          \
  static __attribute__((noinline)) void NAME##_jmadd(ec_point *r, const ec_point *p,          \
                                                     const uint64_t *x2, const uint64_t *y2) { \
    /* The CPU's features are public. */                                                       \
    if (MADD_ASM != NULL && fm_cpu_use(FM_CPU_BMI2 | FM_CPU_ADX)) MADD_ASM(r, p, x2, y2);      \
    else jac_madd_k(r, p, x2, y2, L, NAME##_mul, NAME##_fadd, NAME##_fsub);                   \
  }
typedef void (*jac_madd_fn)(ec_point *r, const ec_point *p, const uint64_t *x2,
                            const uint64_t *y2);
#define NO_MADD_ASM ((jac_madd_fn)NULL)
/* ec_p256_jmadd_adx and ec_p384_jmadd_adx find X, Y and Z at these offsets. */
_Static_assert(offsetof(ec_point, y) == 72 && offsetof(ec_point, z) == 144,
               "the assembly's layout of ec_point");

madd_ops(p256, 4)
madd_ops(p384, 6)
jmadd_ops(p256, 4, EC_ASM_FN(ec_p256_jmadd_adx))
jmadd_ops(p384, 6, EC_ASM_FN(ec_p384_jmadd_adx))
jmadd_ops(p521, 9, NO_MADD_ASM)

/* jdbl doubles the Jacobian (x, y, z) in place and jmadd is jac_madd_k, on the curve's field
 * (P-256, P-384 or P-521: the curve is public). */
static void jdbl(const ec_curve *c, uint64_t *x, uint64_t *y, uint64_t *z) {
  if (c->limbs == 4) ec_p256_jdbl(x, y, z);
  else if (c->limbs == 6) ec_p384_jdbl(x, y, z);
  else ec_p521_jdbl(x, y, z);
}
/* jdbl_n doubles |count| times: on P-256 and P-384 with BMI2 and ADX in one call of the assembly
 * loop. */
static void jdbl_n(const ec_curve *c, uint64_t *x, uint64_t *y, uint64_t *z, unsigned count) {
#if FM_HAVE_X86_64_PATHS
  /* The curve and the CPU's features are public. */
  if (c->limbs != 9 && fm_cpu_use(FM_CPU_BMI2 | FM_CPU_ADX)) {
    if (c->limbs == 4) ec_p256_jdbl_n_adx(x, y, z, count);
    else ec_p384_jdbl_n_adx(x, y, z, count);
    return;
  }
#endif
  for (unsigned i = 0; i < count; i++) jdbl(c, x, y, z);
}
static void jmadd(const ec_curve *c, ec_point *r, const ec_point *p, const uint64_t *x2,
                  const uint64_t *y2) {
  if (c->limbs == 4) p256_jmadd(r, p, x2, y2);
  else if (c->limbs == 6) p384_jmadd(r, p, x2, y2);
  else p521_jmadd(r, p, x2, y2);
}
madd_ops(p521, 9)

/* ---- Scalar multiplication --------------------------------------------------------------- */

/* The constant-time multiplications use signed W-bit windows (Booth recoding): digit i of k is
 *   d_i = b(Wi - 1) + b(Wi) + 2 b(Wi + 1) + ... + 2^(W-2) b(Wi + W - 2) - 2^(W-1) b(Wi + W - 1),
 * b(j) the bits of k (b(-1) = 0), so that k = sum d_i 2^(Wi) with d_i in [-2^(W-1), 2^(W-1)]: a
 * table of the multiples 1..2^(W-1) and a conditional negation cover every digit, with one
 * addition per W bits; ceil((bits + 1) / W) windows take the carry out of the top one. The
 * variable-base multiplication takes W = 5 on every curve; the fixed-base one the width of the
 * curve's table (ec_base_window: 6 on P-256, 5 on P-384 and P-521). */
#define EC_WINDOW 5
#define EC_TABLE 16 /* multiples 1..16 of the point; digit 0 is the point at infinity */
#define EC_WINDOWS(c) (((c)->bits + 1 + EC_WINDOW - 1) / EC_WINDOW)
_Static_assert(EC_TABLE <= EC_BASE_MAX_ENTRIES, "the row scans cover both kinds of table");

/* booth_digit_w returns |d_i| (0..2^(W-1)) for the width-W window i of k (W = |width|, 5 or 6) and
 * sets *neg all-ones when d_i < 0. k has limbs + 1 words, the top one zero, so that every window's
 * W + 1 bits are in the array. Constant time in k: the word and shift depend only on i and W
 * (public). */
static uint64_t booth_digit_w(const uint64_t *k, unsigned i, uint64_t *neg, unsigned width) {
  uint64_t w;
  if (i == 0) {
    w = k[0] << 1;
  } else {
    const unsigned b = width * i - 1;
    w = k[b / 64] >> (b % 64);
    if (b % 64 > 64 - (width + 1)) w |= k[b / 64 + 1] << (64 - b % 64);
  }
  const uint64_t all = (UINT64_C(1) << (width + 1)) - 1;
  w &= all;
  const uint64_t s = 0u - (w >> width); /* all-ones when the digit is negative */
  const uint64_t d = ct_select_u64(s, all - w, w);
  *neg = s;
  return (d >> 1) + (d & 1);
}

static uint64_t booth_digit(const uint64_t *k, unsigned i, uint64_t *neg) {
  return booth_digit_w(k, i, neg, EC_WINDOW);
}

/* cond_negate sets p = -p (Y to p - Y) where neg is all-ones, reading and writing the same words
 * either way. */
static void cond_negate(const ec_curve *c, ec_point *p, uint64_t neg) {
  static const uint64_t zero[EC_MAX_LIMBS] = {0};
  uint64_t t[EC_MAX_LIMBS];
  /* The curve is public: P-256's and P-384's subtraction inline, with p a constant, and P-521's
   * (p521_sub_k); P-224 takes the general one. */
  if (c->id == FM_EC_P256) mod_sub_k(&k_p256_p, t, zero, p->y, 4);
  else if (c->id == FM_EC_P384) mod_sub_k(&k_p384_p, t, zero, p->y, 6);
  else if (c->id == FM_EC_P521) p521_sub_k(t, zero, p->y);
  else ec_mod_sub(c, &c->p, t, zero, p->y);
  for (unsigned j = 0; j < c->limbs; j++) p->y[j] = ct_select_u64(neg, t[j], p->y[j]);
  fm_zeroize(t, c->limbs * sizeof(uint64_t));
}

/* The table scans below work on pairs of words (GCC/Clang vector extension: SSE2 on x86-64, NEON
 * on AArch64, word pairs elsewhere), for the even limb counts of P-224, P-256 and P-384; P-521's
 * rows take ec_p521_row_select. Constant time in the digit: every entry is loaded, ANDed with its
 * mask and ORed in. */
typedef uint64_t ec_v2 __attribute__((vector_size(16)));

static inline __attribute__((always_inline)) ec_v2 v2_load(const uint64_t *p) {
  ec_v2 v;
  memcpy(&v, p, sizeof v);
  return v;
}

/* table_select_k sets r = d * P from table[j] = (j + 1) P for a secret digit d in [0, EC_TABLE],
 * reading every entry; d = 0 gives the point at infinity (0 : 1 : 0). Instantiated for a constant
 * even limb count L, so that the scan unrolls into straight loads, ANDs and ORs. */
static inline __attribute__((always_inline)) void table_select_k(const ec_curve *c, ec_point *r,
                                                                  const ec_point table[EC_TABLE],
                                                                  uint64_t d, const unsigned L) {
  const uint64_t zero_digit = ct_is_zero_u64(d);
  memset(r, 0, sizeof *r);
  struct {
    ec_v2 x[EC_MAX_LIMBS / 2], y[EC_MAX_LIMBS / 2], z[EC_MAX_LIMBS / 2];
  } v;
  memset(&v, 0, sizeof v);
  for (unsigned i = 0; i < EC_TABLE; i++) {
    const uint64_t m = ct_eq_u64(i + 1, d); /* all-ones for the one wanted entry */
    const ec_v2 mask = {m, m};
    _Pragma("GCC unroll 4")
    for (unsigned j = 0; j < L / 2; j++) {
      v.x[j] |= mask & v2_load(&table[i].x[2 * j]);
      v.y[j] |= mask & v2_load(&table[i].y[2 * j]);
      v.z[j] |= mask & v2_load(&table[i].z[2 * j]);
    }
  }
  memcpy(r->x, v.x, L * sizeof(uint64_t));
  memcpy(r->y, v.y, L * sizeof(uint64_t));
  memcpy(r->z, v.z, L * sizeof(uint64_t));
  fm_zeroize(&v, sizeof v);
  for (unsigned j = 0; j < L; j++) r->y[j] |= zero_digit & c->p.one[j];
}

/* table_select serves ec_scalar_mul's projective table, which only P-224 (4 words) takes: the other
 * curves go through scalar_mul_affine. */
static void table_select(const ec_curve *c, ec_point *r, const ec_point table[EC_TABLE],
                         uint64_t d) {
  table_select_k(c, r, table, d, 4);
}

static void scalar_mul_affine(const ec_curve *c, ec_point *r, const uint64_t *k,
                              const ec_point *p);

void ec_scalar_mul(const ec_curve *c, ec_point *r, const uint64_t *k, const ec_point *p) {
  /* The curve is public. */
  if (c->id != FM_EC_P224) {
    scalar_mul_affine(c, r, k, p);
    return;
  }
  ec_point table[EC_TABLE], acc, t;
  uint64_t kk[EC_MAX_LIMBS + 1] = {0}, neg;
  memcpy(kk, k, c->limbs * sizeof(uint64_t));
  /* table[j] = (j + 1) p. */
  table[0] = *p;
  for (unsigned i = 1; i < EC_TABLE; i++) {
    if (i % 2 == 1) ec_point_dbl(c, &table[i], &table[i / 2]);
    else ec_point_add(c, &table[i], &table[i - 1], p);
  }
  /* Every window of the scalar, from the top, whatever its value: the number of doublings and
   * additions depends on the curve alone. */
  const unsigned windows = EC_WINDOWS(c);
  table_select(c, &acc, table, booth_digit(kk, windows - 1, &neg));
  cond_negate(c, &acc, neg);
  for (int w = (int)windows - 2; w >= 0; w--) {
    ec_point_dbl_n(c, &acc, &acc, EC_WINDOW);
    table_select(c, &t, table, booth_digit(kk, (unsigned)w, &neg));
    cond_negate(c, &t, neg);
    ec_point_add(c, &acc, &acc, &t);
  }
  *r = acc;
  fm_zeroize(table, sizeof table);
  fm_zeroize(&acc, sizeof acc);
  fm_zeroize(&t, sizeof t);
  fm_zeroize(kk, sizeof kk);
  fm_zeroize(&neg, sizeof neg);
}

/* row_select_k sets (x, y) to entry d - 1 of a row of E affine points (x then y, L words each, L
 * even: P-256 and P-384; E, 16 or 32, and L constants), or to zeros for d = 0, reading every
 * entry (constant time in d). */
static inline __attribute__((always_inline)) void row_select_k(uint64_t *x, uint64_t *y,
                                                                const uint64_t *row, uint64_t d,
                                                                const unsigned L,
                                                                const unsigned E) {
  _Static_assert(EC_MAX_LIMBS / 2 >= 3, "the pairs hold P-384's six words");
  struct {
    ec_v2 x[3], y[3];
  } v;
  memset(&v, 0, sizeof v);
  for (unsigned e = 0; e < E; e++) {
    const uint64_t m = ct_eq_u64(e + 1, d); /* all-ones for the one wanted entry */
    const ec_v2 mask = {m, m};
    _Pragma("GCC unroll 3")
    for (unsigned j = 0; j < L / 2; j++) {
      v.x[j] |= mask & v2_load(&row[(2 * e) * L + 2 * j]);
      v.y[j] |= mask & v2_load(&row[(2 * e + 1) * L + 2 * j]);
    }
  }
  memcpy(x, v.x, L * sizeof(uint64_t));
  memcpy(y, v.y, L * sizeof(uint64_t));
  fm_zeroize(&v, sizeof v);
}

#if defined(__x86_64__)
/* p256_row_select_avx2 is row_select_k for P-256 (L = 4) with 256-bit vectors: an entry's x and
 * y are one vector each, so the scan takes half the loads, ANDs and ORs of the SSE2 pairs. Call
 * only when the CPU has AVX2; row_select_k is its portable twin. Constant time in d: every entry
 * is loaded, ANDed with its mask and ORed in. */
typedef uint64_t ec_v4 __attribute__((vector_size(32)));
static inline __attribute__((always_inline, target("avx2"))) void p256_row_select_avx2_k(
    uint64_t *x, uint64_t *y, const uint64_t *row, uint64_t d, const unsigned E) {
  ec_v4 vx = {0, 0, 0, 0}, vy = {0, 0, 0, 0};
  for (unsigned e = 0; e < E; e++) {
    const uint64_t m = ct_eq_u64(e + 1, d); /* all-ones for the one wanted entry */
    const ec_v4 mask = {m, m, m, m};
    ec_v4 ex, ey;
    memcpy(&ex, &row[(2 * e) * 4], sizeof ex);
    memcpy(&ey, &row[(2 * e + 1) * 4], sizeof ey);
    vx |= mask & ex;
    vy |= mask & ey;
  }
  memcpy(x, &vx, sizeof vx);
  memcpy(y, &vy, sizeof vy);
}
/* ROW_SELECT_COPIES defines NAME_16 and NAME_32, the out-of-line copies of the kernel NAME_k for
 * the two row lengths, built for the CPU features TARGET. */
#define ROW_SELECT_COPIES(NAME, TARGET)                                                        \
  static __attribute__((target(TARGET), noinline)) void NAME##_16(                             \
      uint64_t *x, uint64_t *y, const uint64_t *row, uint64_t d) {                             \
    NAME##_k(x, y, row, d, 16);                                                                \
  }                                                                                            \
  static __attribute__((target(TARGET), noinline)) void NAME##_32(                             \
      uint64_t *x, uint64_t *y, const uint64_t *row, uint64_t d) {                             \
    NAME##_k(x, y, row, d, 32);                                                                \
  }
ROW_SELECT_COPIES(p256_row_select_avx2, "avx2")

/* p256_row_select_avx512 is row_select_k for P-256 with 512-bit vectors: an entry, x and y, is one
 * vector. Each entry's mask is made in vector registers (its index compared with d into a mask
 * register, then expanded to all-ones or zero lanes), and the entry is loaded, ANDed with it and
 * ORed in (one ternary-logic instruction), on two accumulators. Call only when the CPU has
 * AVX-512 (F, VL, BW); constant time in d, as its twins: every entry is read, and no address
 * or branch depends on d. */
static inline __attribute__((always_inline, target("avx512f"))) void p256_row_select_avx512_k(
    uint64_t *x, uint64_t *y, const uint64_t *row, uint64_t d, const unsigned E) {
  const __m512i dv = _mm512_set1_epi64((long long)d), one = _mm512_set1_epi64(1),
                ones = _mm512_set1_epi64(-1);
  __m512i idx = one, acc0 = _mm512_setzero_si512(), acc1 = _mm512_setzero_si512();
  for (unsigned e = 0; e < E; e += 2) {
    const __m512i m0 = _mm512_maskz_mov_epi64(_mm512_cmpeq_epi64_mask(idx, dv), ones);
    idx = _mm512_add_epi64(idx, one);
    const __m512i m1 = _mm512_maskz_mov_epi64(_mm512_cmpeq_epi64_mask(idx, dv), ones);
    idx = _mm512_add_epi64(idx, one);
    /* 0xf8: a | (b & c) */
    acc0 = _mm512_ternarylogic_epi64(acc0, _mm512_loadu_si512(&row[8 * e]), m0, 0xf8);
    acc1 = _mm512_ternarylogic_epi64(acc1, _mm512_loadu_si512(&row[8 * e + 8]), m1, 0xf8);
  }
  acc0 = _mm512_or_si512(acc0, acc1);
  _mm256_storeu_si256((__m256i *)x, _mm512_castsi512_si256(acc0));
  _mm256_storeu_si256((__m256i *)y, _mm512_extracti64x4_epi64(acc0, 1));
}
ROW_SELECT_COPIES(p256_row_select_avx512, "avx512f")
#undef ROW_SELECT_COPIES

/* wide_row_select_avx2 is row_select_k (P-384, L = 6) and ec_p521_row_select (P-521, L = 9) with
 * 256-bit vectors, over rows of 16 entries: an entry's 2L words, x then y, are 2L / 4 vectors
 * and, for P-521's 18, one pair of words more, which are loaded, ANDed with the entry's mask and
 * ORed in: half the SSE2 pairs' instructions on P-384 and about a quarter of the scalar words'
 * on P-521. Call only when the CPU has AVX2; constant time in d, as its twins: every
 * entry is read, and no address or branch depends on d. */
static inline __attribute__((always_inline, target("avx2"))) void wide_row_select_avx2_k(
    uint64_t *x, uint64_t *y, const uint64_t *row, uint64_t d, const unsigned L) {
  /* Three vectors (P-384's 12 words) or four and a pair (P-521's 18), kept in registers. */
  const unsigned vecs = 2 * L / 4, pair = (2 * L) % 4 != 0;
  __m256i a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0;
  __m128i a4 = _mm_setzero_si128();
  for (unsigned e = 0; e < EC_TABLE; e++) {
    /* all-ones for the one wanted entry */
    const __m256i mask = _mm256_set1_epi64x((long long)ct_eq_u64(e + 1, d));
    const uint64_t *entry = &row[e * 2 * L];
    const __m256i *v = (const __m256i *)entry;
    a0 = _mm256_or_si256(a0, _mm256_and_si256(mask, _mm256_loadu_si256(&v[0])));
    a1 = _mm256_or_si256(a1, _mm256_and_si256(mask, _mm256_loadu_si256(&v[1])));
    a2 = _mm256_or_si256(a2, _mm256_and_si256(mask, _mm256_loadu_si256(&v[2])));
    if (vecs > 3) a3 = _mm256_or_si256(a3, _mm256_and_si256(mask, _mm256_loadu_si256(&v[3])));
    if (pair)
      a4 = _mm_or_si128(a4, _mm_and_si128(_mm256_castsi256_si128(mask),
                                          _mm_loadu_si128((const __m128i *)&entry[4 * vecs])));
  }
  /* Stored straight to x and y (a buffer in between would be kept in memory by the compiler, and
   * the accumulators with it). */
  _mm256_storeu_si256((__m256i *)&x[0], a0);
  if (L == 6) {
    _mm_storeu_si128((__m128i *)&x[4], _mm256_castsi256_si128(a1));
    _mm_storeu_si128((__m128i *)&y[0], _mm256_extracti128_si256(a1, 1));
    _mm256_storeu_si256((__m256i *)&y[2], a2);
  } else {
    _mm256_storeu_si256((__m256i *)&x[4], a1);
    x[8] = (uint64_t)_mm256_extract_epi64(a2, 0);
    y[0] = (uint64_t)_mm256_extract_epi64(a2, 1);
    _mm_storeu_si128((__m128i *)&y[1], _mm256_extracti128_si256(a2, 1));
    _mm256_storeu_si256((__m256i *)&y[3], a3);
    _mm_storeu_si128((__m128i *)&y[7], a4);
  }
}
static __attribute__((target("avx2"), noinline)) void p384_row_select_avx2(
    uint64_t *x, uint64_t *y, const uint64_t *row, uint64_t d) {
  wide_row_select_avx2_k(x, y, row, d, 6);
}
static __attribute__((target("avx2"), noinline)) void p521_row_select_avx2(
    uint64_t *x, uint64_t *y, const uint64_t *row, uint64_t d) {
  wide_row_select_avx2_k(x, y, row, d, 9);
}
#endif

/* row_select sets (x, y) to entry d - 1 of a fixed-base-layout row of |entries| entries (16, or 32
 * on P-256's fixed-base table; d = 0: zeros): on P-256 the 512-bit scan where the CPU has
 * AVX-512, else the AVX2 one where it has AVX2 (public), else row_select_k; on P-384 and P-521
 * (rows of 16) wide_row_select_avx2 where it has AVX2, else row_select_k or ec_p521_row_select. */
static void row_select(const ec_curve *c, uint64_t *x, uint64_t *y, const uint64_t *row,
                       uint64_t d, unsigned entries) {
  if (c->limbs == 4) {
#if defined(__x86_64__)
    if (fm_cpu_use(FM_CPU_AVX512)) {
      if (entries == 32) p256_row_select_avx512_32(x, y, row, d);
      else p256_row_select_avx512_16(x, y, row, d);
      return;
    }
    if (fm_cpu_use(FM_CPU_AVX2)) {
      if (entries == 32) p256_row_select_avx2_32(x, y, row, d);
      else p256_row_select_avx2_16(x, y, row, d);
      return;
    }
#endif
    if (entries == 32) row_select_k(x, y, row, d, 4, 32);
    else row_select_k(x, y, row, d, 4, 16);
    return;
  }
  /* P-384 and P-521: rows of 16 entries. */
  (void)entries;
#if defined(__x86_64__)
  if (fm_cpu_use(FM_CPU_AVX2)) {
    if (c->limbs == 6) p384_row_select_avx2(x, y, row, d);
    else p521_row_select_avx2(x, y, row, d);
    return;
  }
#endif
  if (c->limbs == 6) row_select_k(x, y, row, d, 6, 16);
  else ec_p521_row_select(x, y, row, d);
}

/* acc_select_k sets acc = (inf ? t : sum) where nonzero, keeping acc elsewhere, for a constant
 * even limb count L, on word pairs (the masks are all-ones or zero; no branch, no index). t's Z is
 * one (R mod p). */
static inline __attribute__((always_inline)) void acc_select_k(const ec_curve *c, ec_point *acc,
                                                                const ec_point *sum,
                                                                const ec_point *t, uint64_t inf,
                                                                uint64_t nonzero,
                                                                const unsigned L) {
  inf = ct_value_barrier_u64(inf);
  nonzero = ct_value_barrier_u64(nonzero);
  const ec_v2 mi = {inf, inf}, mn = {nonzero, nonzero};
  _Pragma("GCC unroll 4")
  for (unsigned j = 0; j < L; j += 2) {
    const ec_v2 x = (mi & v2_load(&t->x[j])) | (~mi & v2_load(&sum->x[j]));
    const ec_v2 y = (mi & v2_load(&t->y[j])) | (~mi & v2_load(&sum->y[j]));
    const ec_v2 z = (mi & v2_load(&c->p.one[j])) | (~mi & v2_load(&sum->z[j]));
    const ec_v2 ax = (mn & x) | (~mn & v2_load(&acc->x[j]));
    const ec_v2 ay = (mn & y) | (~mn & v2_load(&acc->y[j]));
    const ec_v2 az = (mn & z) | (~mn & v2_load(&acc->z[j]));
    memcpy(&acc->x[j], &ax, sizeof ax);
    memcpy(&acc->y[j], &ay, sizeof ay);
    memcpy(&acc->z[j], &az, sizeof az);
  }
}

/* jac_acc_add sets acc = acc + t for the Jacobian acc and the affine t (P-256, P-384, P-521) with
 * the mixed addition jac_madd_k, which is wrong for the point at infinity and for equal or opposite
 * points: the callers prove that the last two cannot arise, and the point at infinity is handled
 * here by selection. *acc_inf is all-ones while acc is the point at infinity (its coordinates then
 * mean nothing): the sum is then t itself. A zero digit (nonzero = 0: t stands for the point at
 * infinity) keeps acc. No branch on the values. |sum| is the caller's scratch, which it wipes
 * once, after its last window (wipe_window_state), rather than at every call. */
static void jac_acc_add(const ec_curve *c, ec_point *acc, uint64_t *acc_inf, const ec_point *t,
                        uint64_t nonzero, ec_point *sum) {
  jmadd(c, sum, acc, t->x, t->y);
  /* The limb count is public. */
  if (c->limbs == 4) {
    acc_select_k(c, acc, sum, t, *acc_inf, nonzero, 4);
  } else if (c->limbs == 6) {
    acc_select_k(c, acc, sum, t, *acc_inf, nonzero, 6);
  } else {
    /* P-521: words 0..7 in pairs as above, then word 8 alone (the same selections). */
    acc_select_k(c, acc, sum, t, *acc_inf, nonzero, 8);
    const unsigned j = 8;
    const uint64_t inf = ct_value_barrier_u64(*acc_inf), nz = ct_value_barrier_u64(nonzero);
    acc->x[j] = ct_select_u64(nz, ct_select_u64(inf, t->x[j], sum->x[j]), acc->x[j]);
    acc->y[j] = ct_select_u64(nz, ct_select_u64(inf, t->y[j], sum->y[j]), acc->y[j]);
    acc->z[j] = ct_select_u64(nz, ct_select_u64(inf, c->p.one[j], sum->z[j]), acc->z[j]);
  }
  *acc_inf &= ~nonzero;
}

/* jac_acc_add_last sets r = acc + t as jac_acc_add does, but with the complete mixed addition of
 * RCB16 (Algorithm 5), correct for every acc: acc goes from Jacobian (X, Y, Z) to homogeneous
 * (X Z : Y : Z^3), or to (0 : 1 : 0) where acc_inf says it is the point at infinity. r is
 * homogeneous. */
static void jac_acc_add_last(const ec_curve *c, ec_point *r, ec_point *acc, uint64_t acc_inf,
                             const ec_point *t, uint64_t nonzero) {
  ec_point sum;
  uint64_t zz[EC_MAX_LIMBS];
  ec_mod_mul(c, &c->p, zz, acc->z, acc->z);
  ec_mod_mul(c, &c->p, acc->x, acc->x, acc->z);
  ec_mod_mul(c, &c->p, acc->z, zz, acc->z);
  for (unsigned j = 0; j < c->limbs; j++) {
    acc->x[j] &= ~acc_inf;
    acc->y[j] = ct_select_u64(acc_inf, c->p.one[j], acc->y[j]);
    acc->z[j] &= ~acc_inf;
  }
  if (c->id == FM_EC_P256) p256_add_affine(c, &sum, acc, t->x, t->y);
  else if (c->id == FM_EC_P384) p384_add_affine(c, &sum, acc, t->x, t->y);
  else p521_add_affine(c, &sum, acc, t->x, t->y);
  for (unsigned j = 0; j < c->limbs; j++) {
    acc->x[j] = ct_select_u64(nonzero, sum.x[j], acc->x[j]);
    acc->y[j] = ct_select_u64(nonzero, sum.y[j], acc->y[j]);
    acc->z[j] = ct_select_u64(nonzero, sum.z[j], acc->z[j]);
  }
  *r = *acc;
  fm_zeroize(&sum, sizeof sum);
  fm_zeroize(zz, sizeof zz);
}

/* wipe_window_state zeroizes what mul_base_table and scalar_mul_tab keep of the scalar and the
 * sum: the running sum, jac_acc_add's scratch and the selected entry, the scalar's copy, the last digit's sign and the
 * infinity mask. */
static void wipe_window_state(ec_point *acc, ec_point *t, ec_point *sum,
                              uint64_t kk[EC_MAX_LIMBS + 1], uint64_t *neg, uint64_t *acc_inf) {
  fm_zeroize(acc, sizeof *acc);
  fm_zeroize(sum, sizeof *sum);
  fm_zeroize(t, sizeof *t);
  fm_zeroize(kk, (EC_MAX_LIMBS + 1) * sizeof kk[0]);
  fm_zeroize(neg, sizeof *neg);
  fm_zeroize(acc_inf, sizeof *acc_inf);
}

/* mul_base_table sets r = k * G from the curve's fixed-base table (ec_base_table.h) on P-256, P-384
 * and P-521: with the table's width W (6 on P-256, 5 on the others), B = 2^W and E = 2^(W-1), row
 * i holds j * B^i * G for j = 1..E in affine form, so k * G is the sum over the scalar's signed
 * W-bit digits d_i of +-row[i][|d_i| - 1], with no doubling. Each row is read in full by
 * constant-time selection; a zero digit keeps the sum, by selection.
 *
 * The sum runs in Jacobian coordinates with jac_acc_add, whose mixed addition is wrong for equal or
 * opposite points. Before window i the sum is m G with m = sum_{j<i} d_j B^j, |d_j| <= E, so |m|
 * <= E (B^i - 1) / (B - 1) < B^i; m = 0 only when every digit so far is 0 (the highest non-zero
 * digit outweighs all below it): that is the point at infinity, which jac_acc_add selects around.
 * Otherwise the addend is d_i B^i G with B^i <= |d_i| B^i <= E B^i, and the points are equal or
 * opposite only if m - d_i B^i or m + d_i B^i is a multiple of n: both are non-zero (|m| <
 * |d_i| B^i) and below (E + 1) B^i in absolute value, which is below n for every window but the
 * last (P-256: 33 * 2^246 < 2^252 < n for i <= 41 of 43; P-384: 17 * 2^375 < 2^383 < n for i <= 75
 * of 77; P-521: 17 * 2^515 < 2^520 < n for i <= 103 of 105). The last window takes the complete
 * addition (jac_acc_add_last), so the result is right for every k below 2^bits. */
static void mul_base_table(const ec_curve *c, ec_point *r, const uint64_t *k,
                           const uint64_t *table) {
  const unsigned n = c->limbs;
  /* The curve's table shape is public. */
  const unsigned width = ec_base_window(c), entries = ec_base_entries(c);
  const unsigned windows = ec_base_rows(c);
  ec_point acc, t, sum;
  uint64_t kk[EC_MAX_LIMBS + 1] = {0}, neg;
  memcpy(kk, k, c->limbs * sizeof(uint64_t));
  memset(&acc, 0, sizeof acc);
  memset(&t, 0, sizeof t);
  uint64_t acc_inf = ~(uint64_t)0;
  for (unsigned i = 0; i < windows; i++) {
    const uint64_t d = booth_digit_w(kk, i, &neg, width);
    /* i is public: the window's index */
    const uint64_t *row = table + (size_t)i * entries * 2 * n;
    row_select(c, t.x, t.y, row, d, entries);
    cond_negate(c, &t, neg);
    const uint64_t nonzero = ~ct_is_zero_u64(d);
    if (i + 1 < windows) jac_acc_add(c, &acc, &acc_inf, &t, nonzero, &sum);
    else jac_acc_add_last(c, r, &acc, acc_inf, &t, nonzero);
  }
  wipe_window_state(&acc, &t, &sum, kk, &neg, &acc_inf);
}

/* scalar_mul_tab sets r = k * P on P-256, P-384 and P-521 from tab, the affine multiples P..16P (x
 * then y, L words each) of a point P of order n (constant time in k and P): the sum runs in
 * Jacobian coordinates with five doublings and one mixed addition (jac_acc_add) per signed 5-bit
 * window, from the top.
 *
 * The mixed addition is not needed where the points are equal or opposite. After the doublings of
 * window w the sum is 32 m P, m = sum_{j>w} d_j 32^(j-w-1), and the addend d_w P, 1 <= |d_w| <= 16.
 * Since k = sum_j d_j 32^j < 2^bits and the digits up to w add up to less than 32^(w+1) in absolute
 * value, |32 m| <= k / 32^w + 32, which for w >= 1 is below 2^(bits-5) + 32; so 32 m -+ d_w is
 * below n in absolute value, and non-zero (32 divides 32 m, not d_w): P has the prime order n, so
 * the points are neither equal nor opposite. m = 0 exactly when the digits above are all 0 (the
 * point at infinity, selected around by jac_acc_add; the top window's entry is the sum itself).
 * Window 0 takes the complete addition (jac_acc_add_last). The Jacobian doubling is exact for every
 * point of these odd-order curves. */
#if FM_HAVE_X86_64_PATHS
/* scalar_mul_tab_ifma is scalar_mul_tab on P-384 or P-521 with AVX-512 IFMA: the same windows and
 * formulas, every window but the last one's addition in |ladder| (ec_p384_ifma.c's or
 * ec_p521_ifma.c's, ec_ifma_ladder.inc), which takes the digits from here. */
typedef void (*ifma_ladder_fn)(uint64_t *x, uint64_t *y, uint64_t *z, uint64_t *acc_inf,
                               const uint64_t *tab, const uint64_t *digit, const uint64_t *neg,
                               unsigned windows);
static void scalar_mul_tab_ifma(const ec_curve *c, ec_point *r, const uint64_t *k,
                                const uint64_t *tab, const ifma_ladder_fn ladder) {
  enum { W_MAX = (521 + 1 + EC_WINDOW - 1) / EC_WINDOW };
  const unsigned windows = EC_WINDOWS(c);
  uint64_t kk[EC_MAX_LIMBS + 1] = {0}, digit[W_MAX], neg[W_MAX], acc_inf;
  ec_point acc, t;
  memcpy(kk, k, c->limbs * sizeof(uint64_t));
  for (unsigned w = 0; w < windows; w++) digit[w] = booth_digit(kk, w, &neg[w]);
  ladder(acc.x, acc.y, acc.z, &acc_inf, tab, digit, neg, windows);
  ec_stack_wipe_ifma();
  memset(&t, 0, sizeof t);
  row_select(c, t.x, t.y, tab, digit[0], EC_TABLE);
  cond_negate(c, &t, neg[0]);
  jac_acc_add_last(c, r, &acc, acc_inf, &t, ~ct_is_zero_u64(digit[0]));
  fm_zeroize(kk, sizeof kk);
  fm_zeroize(digit, sizeof digit);
  fm_zeroize(neg, sizeof neg);
  fm_zeroize(&acc_inf, sizeof acc_inf);
  fm_zeroize(&acc, sizeof acc);
  fm_zeroize(&t, sizeof t);
}
#endif

static void scalar_mul_tab(const ec_curve *c, ec_point *r, const uint64_t *k,
                           const uint64_t *tab) {
#if FM_HAVE_X86_64_PATHS
  /* The curve and the CPU's features are public. */
  if (c->id == FM_EC_P521 && ec_ifma_in_use()) {
    scalar_mul_tab_ifma(c, r, k, tab, ec_p521_ladder_ifma);
    return;
  }
  if (c->id == FM_EC_P384 && ec_ifma_in_use()) {
    scalar_mul_tab_ifma(c, r, k, tab, ec_p384_ladder_ifma);
    return;
  }
#endif
  const unsigned n = c->limbs;
  ec_point acc, t, sum;
  uint64_t kk[EC_MAX_LIMBS + 1] = {0}, neg;
  memcpy(kk, k, n * sizeof(uint64_t));
  const unsigned windows = EC_WINDOWS(c);
  memset(&acc, 0, sizeof acc);
  memset(&t, 0, sizeof t);
  uint64_t acc_inf = ~(uint64_t)0;
  for (unsigned w = windows; w-- > 0;) {
    if (w + 1 < windows) {
      jdbl_n(c, acc.x, acc.y, acc.z, EC_WINDOW);
    }
    const uint64_t d = booth_digit(kk, w, &neg);
    row_select(c, t.x, t.y, tab, d, EC_TABLE);
    cond_negate(c, &t, neg);
    const uint64_t nonzero = ~ct_is_zero_u64(d);
    if (w + 1 == windows) {
      /* The sum so far is the top window's entry, or the point at infinity for a zero digit. */
      memcpy(acc.x, t.x, sizeof acc.x);
      memcpy(acc.y, t.y, sizeof acc.y);
      memcpy(acc.z, c->p.one, sizeof acc.z);
      acc_inf = ~nonzero;
    } else if (w > 0) {
      jac_acc_add(c, &acc, &acc_inf, &t, nonzero, &sum);
    } else {
      jac_acc_add_last(c, r, &acc, acc_inf, &t, nonzero);
    }
  }
  wipe_window_state(&acc, &t, &sum, kk, &neg, &acc_inf);
}

/* scalar_mul_affine sets r = k * p on P-256, P-384 and P-521 for any homogeneous p (constant time
 * in k and p): p is taken to affine coordinates (one inversion) for ec_scalar_mul_affine. Where p
 * is the point at infinity (Z = 0: its affine coordinates are then (0, 0), for which the table
 * means nothing), the result is set to it by selection. */
static void scalar_mul_affine(const ec_curve *c, ec_point *r, const uint64_t *k,
                              const ec_point *p) {
  uint64_t x[EC_MAX_LIMBS], y[EC_MAX_LIMBS];
  const uint64_t p_inf = ~ec_point_to_affine(c, x, y, p);
  ec_scalar_mul_affine(c, r, k, x, y);
  for (unsigned j = 0; j < c->limbs; j++) {
    r->x[j] &= ~p_inf;
    r->y[j] = ct_select_u64(p_inf, c->p.one[j], r->y[j]);
    r->z[j] &= ~p_inf;
  }
  fm_zeroize(x, sizeof x);
  fm_zeroize(y, sizeof y);
}

/* ec_scalar_mul_affine on P-256, P-384 and P-521: the multiples of the affine P = (x, y) are built
 * in Jacobian coordinates, 2iP = 2 (iP) by the Jacobian doubling and (2i + 1)P = 2iP + P by the
 * mixed addition jac_madd_k, which is exact here: P has the prime order n > 16, so for 2 <= i <= 15
 * iP is neither the point at infinity nor equal or opposite to P (n divides neither i - 1 nor i +
 * 1). One inversion (Montgomery's trick over Z_2 ... Z_16; P's Z is 1) then gives each entry's x
 * Z^-2 and y Z^-3 for scalar_mul_tab. P is public, and the table depends on P alone: the inversion
 * is the variable-time one, the rest constant time in k. */
void ec_scalar_mul_affine(const ec_curve *c, ec_point *r, const uint64_t *k, const uint64_t *x,
                          const uint64_t *y) {
  /* The curve is public. */
  if (c->id == FM_EC_P224) {
    ec_point p;
    ec_point_set_affine(c, &p, x, y);
    ec_scalar_mul(c, r, k, &p);
    return;
  }
  const unsigned n = c->limbs;
  const size_t sz = n * sizeof(uint64_t);
  ec_point jac[EC_TABLE];
  uint64_t tab[EC_TABLE * 2 * EC_MAX_LIMBS], pre[EC_TABLE][EC_MAX_LIMBS], inv[EC_MAX_LIMBS],
      zi[EC_MAX_LIMBS], zi2[EC_MAX_LIMBS];
  /* jac[j] = (j + 1) P, Jacobian. */
  ec_point_set_affine(c, &jac[0], x, y);
  for (unsigned i = 1; i < EC_TABLE; i++) {
    if (i % 2 == 1) {
      jac[i] = jac[i / 2];
      jdbl(c, jac[i].x, jac[i].y, jac[i].z);
    } else {
      jmadd(c, &jac[i], &jac[i - 1], x, y);
    }
  }
  /* pre[i] = Z_1 ... Z_i (i >= 1); one inversion, then each Z_i^-1 from the top. */
  memcpy(pre[1], jac[1].z, sz);
  for (unsigned i = 2; i < EC_TABLE; i++) ec_mod_mul(c, &c->p, pre[i], pre[i - 1], jac[i].z);
  /* The multiples of P are public (P is: a peer's validated public key, or G), so the
   * variable-time inverse serves; k has not been used yet. */
  ec_mod_inv_public(c, &c->p, inv, pre[EC_TABLE - 1]);
  for (unsigned i = EC_TABLE; i-- > 1;) {
    if (i > 1) {
      ec_mod_mul(c, &c->p, zi, inv, pre[i - 1]);
      ec_mod_mul(c, &c->p, inv, inv, jac[i].z);
    } else {
      memcpy(zi, inv, sz);
    }
    ec_mod_mul(c, &c->p, zi2, zi, zi);
    ec_mod_mul(c, &c->p, &tab[(2 * i) * n], jac[i].x, zi2);
    ec_mod_mul(c, &c->p, zi2, zi2, zi);
    ec_mod_mul(c, &c->p, &tab[(2 * i + 1) * n], jac[i].y, zi2);
  }
  memcpy(&tab[0], x, sz);
  memcpy(&tab[n], y, sz);
  scalar_mul_tab(c, r, k, tab);
  fm_zeroize(jac, sizeof jac);
  fm_zeroize(tab, sizeof tab);
  fm_zeroize(pre, sizeof pre);
  fm_zeroize(inv, sizeof inv);
  fm_zeroize(zi, sizeof zi);
  fm_zeroize(zi2, sizeof zi2);
}

void ec_scalar_mul_base(const ec_curve *c, ec_point *r, const uint64_t *k) {
  /* The tables are chosen by the curve's id (public), not by a pointer in the curve's
   * descriptor, which stays free of relocations. */
  const uint64_t *table = ec_base_table(c);
  if (table != NULL) {
    mul_base_table(c, r, k, table);
    return;
  }
  ec_scalar_mul_affine(c, r, k, c->gx, c->gy);
}
