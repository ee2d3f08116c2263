/* The P-curves and their group law: complete projective formulas (Renes, Costello and Batina,
 * "Complete addition formulas for prime order elliptic curves", 2016, Algorithms 4 and 6 for
 * a = -3), so that no input, the point at infinity and P == Q included, needs a branch, with
 * chains of doublings in Jacobian coordinates on P-256 and P-384 (ec_point_dbl_n); scalar
 * multiplication by a fixed window whose table is read by constant-time selection. Verification's
 * variable-time double multiplication is in ec_verify.c. */
#include <string.h>

#include "module/ec/ec_base_table.h"
#include "module/ec/ec_curves.h"
#include "module/ec/ec_field_inline.h"
#include "module/ec/ec_group_inline.h"
#include "module/ec/internal.h"
#include "module/internal.h"

/* ---- The curves (FIPS 186-5 / SP 800-186 3.2.1) ----------------------------------------- */

#define CURVE(ID, NAME, LIMBS, BITS)                                                          \
  {                                                                                           \
    .id = ID, .limbs = LIMBS, .bits = BITS, .bytes = (BITS + 7) / 8,                          \
    .p = {.m = NAME##_P, .rr = NAME##_P_RR, .one = NAME##_P_ONE, .n0 = NAME##_P_N0},          \
    .n = {.m = NAME##_N, .rr = NAME##_N_RR, .one = NAME##_N_ONE, .n0 = NAME##_N_N0},          \
    .b = NAME##_B_MONT, .gx = NAME##_GX_MONT, .gy = NAME##_GY_MONT                            \
  }

static const ec_curve curves[] = {
    CURVE(FM_EC_P224, P224, 4, 224),
    CURVE(FM_EC_P256, P256, 4, 256),
    CURVE(FM_EC_P384, P384, 6, 384),
    CURVE(FM_EC_P521, P521, 9, 521),
};

const ec_curve *ec_curve_get(fm_ec_curve id) {
  for (size_t i = 0; i < sizeof curves / sizeof curves[0]; i++)
    if (curves[i].id == id) return &curves[i];
  return NULL;
}

/* ---- Group law -------------------------------------------------------------------------- */

/* The formulas are instantiated per curve (point_add_k, point_dbl_k with a constant limb count
 * L). Each curve's field multiplication is one out-of-line function (fe_ops below) with the
 * curve's prime as a compile-time constant, so that the compiler folds the special form of p
 * into the Montgomery reduction; the formulas call it rather than inline it, which keeps each
 * instance of the group law a few kilobytes (inlined, the four curves' add and double were
 * 480 KB of code, and compiling them took minutes). Additions and subtractions (fe_add,
 * fe_sub) stay inline on P-256 and P-384; on P-224 and P-521, whose multiplications are the
 * portable ones and cost several times a call, they are out-of-line functions too, which takes
 * about 60 KB off the library (code the load-time integrity check hashes at every load). */
#define MUL(r, a, b) fe_mul(r, a, b)
#define ADD(r, a, b) fe_add(r, a, b)
#define SUB(r, a, b) fe_sub(r, a, b)

static inline __attribute__((always_inline)) void point_add_k(const ec_curve *c, ec_point *r,
                                                               const ec_point *p, const ec_point *q,
                                                               const unsigned L,
                                                               const fe_mul_fn fe_mul,
                                                               const fe_mul_fn fe_add,
                                                               const fe_mul_fn fe_sub) {
  uint64_t t0[EC_MAX_LIMBS], t1[EC_MAX_LIMBS], t2[EC_MAX_LIMBS], t3[EC_MAX_LIMBS],
      t4[EC_MAX_LIMBS], x3[EC_MAX_LIMBS], y3[EC_MAX_LIMBS], z3[EC_MAX_LIMBS];
  const uint64_t *b = c->b;
  /* RCB16 Algorithm 4; the step numbers are the paper's. */
  MUL(t0, p->x, q->x);  /* 1 */
  MUL(t1, p->y, q->y);  /* 2 */
  MUL(t2, p->z, q->z);  /* 3 */
  ADD(t3, p->x, p->y);  /* 4 */
  ADD(t4, q->x, q->y);  /* 5 */
  MUL(t3, t3, t4);      /* 6 */
  ADD(t4, t0, t1);      /* 7 */
  SUB(t3, t3, t4);      /* 8 */
  ADD(t4, p->y, p->z);  /* 9 */
  ADD(x3, q->y, q->z);  /* 10 */
  MUL(t4, t4, x3);      /* 11 */
  ADD(x3, t1, t2);      /* 12 */
  SUB(t4, t4, x3);      /* 13 */
  ADD(x3, p->x, p->z);  /* 14 */
  ADD(y3, q->x, q->z);  /* 15 */
  MUL(x3, x3, y3);      /* 16 */
  ADD(y3, t0, t2);      /* 17 */
  SUB(y3, x3, y3);      /* 18 */
  MUL(z3, b, t2);       /* 19 */
  SUB(x3, y3, z3);      /* 20 */
  ADD(z3, x3, x3);      /* 21 */
  ADD(x3, x3, z3);      /* 22 */
  SUB(z3, t1, x3);      /* 23 */
  ADD(x3, t1, x3);      /* 24 */
  MUL(y3, b, y3);       /* 25 */
  ADD(t1, t2, t2);      /* 26 */
  ADD(t2, t1, t2);      /* 27 */
  SUB(y3, y3, t2);      /* 28 */
  SUB(y3, y3, t0);      /* 29 */
  ADD(t1, y3, y3);      /* 30 */
  ADD(y3, t1, y3);      /* 31 */
  ADD(t1, t0, t0);      /* 32 */
  ADD(t0, t1, t0);      /* 33 */
  SUB(t0, t0, t2);      /* 34 */
  MUL(t1, t4, y3);      /* 35 */
  MUL(t2, t0, y3);      /* 36 */
  MUL(y3, x3, z3);      /* 37 */
  ADD(y3, y3, t2);      /* 38 */
  MUL(x3, t3, x3);      /* 39 */
  SUB(x3, x3, t1);      /* 40 */
  MUL(z3, t4, z3);      /* 41 */
  MUL(t1, t3, t0);      /* 42 */
  ADD(z3, z3, t1);      /* 43 */
  const size_t n = L * sizeof(uint64_t);
  memcpy(r->x, x3, n);
  memcpy(r->y, y3, n);
  memcpy(r->z, z3, n);
}

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

static inline __attribute__((always_inline)) void point_dbl_k(const ec_curve *c, ec_point *r,
                                                               const ec_point *p, const unsigned L,
                                                               const fe_mul_fn fe_mul,
                                                               const fe_mul_fn fe_add,
                                                               const fe_mul_fn fe_sub) {
  uint64_t t0[EC_MAX_LIMBS], t1[EC_MAX_LIMBS], t2[EC_MAX_LIMBS], t3[EC_MAX_LIMBS],
      x3[EC_MAX_LIMBS], y3[EC_MAX_LIMBS], z3[EC_MAX_LIMBS];
  const uint64_t *b = c->b;
  /* RCB16 Algorithm 6; the step numbers are the paper's. */
  MUL(t0, p->x, p->x);  /* 1 */
  MUL(t1, p->y, p->y);  /* 2 */
  MUL(t2, p->z, p->z);  /* 3 */
  MUL(t3, p->x, p->y);  /* 4 */
  ADD(t3, t3, t3);      /* 5 */
  MUL(z3, p->x, p->z);  /* 6 */
  ADD(z3, z3, z3);      /* 7 */
  MUL(y3, b, t2);       /* 8 */
  SUB(y3, y3, z3);      /* 9 */
  ADD(x3, y3, y3);      /* 10 */
  ADD(y3, x3, y3);      /* 11 */
  SUB(x3, t1, y3);      /* 12 */
  ADD(y3, t1, y3);      /* 13 */
  MUL(y3, x3, y3);      /* 14 */
  MUL(x3, x3, t3);      /* 15 */
  ADD(t3, t2, t2);      /* 16 */
  ADD(t2, t2, t3);      /* 17 */
  MUL(z3, b, z3);       /* 18 */
  SUB(z3, z3, t2);      /* 19 */
  SUB(z3, z3, t0);      /* 20 */
  ADD(t3, z3, z3);      /* 21 */
  ADD(z3, z3, t3);      /* 22 */
  ADD(t3, t0, t0);      /* 23 */
  ADD(t0, t3, t0);      /* 24 */
  SUB(t0, t0, t2);      /* 25 */
  MUL(t0, t0, z3);      /* 26 */
  ADD(y3, y3, t0);      /* 27 */
  MUL(t0, p->y, p->z);  /* 28 */
  ADD(t0, t0, t0);      /* 29 */
  MUL(z3, t0, z3);      /* 30 */
  SUB(x3, x3, z3);      /* 31 */
  MUL(z3, t0, t1);      /* 32 */
  ADD(z3, z3, z3);      /* 33 */
  ADD(z3, z3, z3);      /* 34 */
  const size_t n = L * sizeof(uint64_t);
  memcpy(r->x, x3, n);
  memcpy(r->y, y3, n);
  memcpy(r->z, z3, n);
}

/* point_dbln_k sets r = 2^count p: the homogeneous p is taken to Jacobian coordinates
 * (X Z, Y Z^2, Z), doubled |count| times with the a = -3 Jacobian doubling (Bernstein and Lange's
 * dbl-2001-b: 3M + 5S, against the complete formula's 13 multiplications), and taken back as
 * (X Z, Y, Z^3). The Jacobian doubling is exact for every point of these odd-order curves (no
 * point has Y = 0) and keeps Z = 0 for the point at infinity as long as its Y is not 0: the
 * infinity (0 : Y : 0) would map to (0, 0, 0), so its Jacobian Y is set to 1 by mask, and each
 * doubling then gives (0, -8 Y^4, 0). No branch: count is public (the caller's window). */
static inline __attribute__((always_inline)) void point_dbln_k(ec_point *r, const ec_point *p,
                                                                unsigned count, const unsigned L,
                                                                const ec_mod *fp,
                                                                const fe_mul_fn fe_mul,
                                                                const fe_mul_fn fe_add,
                                                                const fe_mul_fn fe_sub) {
  uint64_t x[EC_MAX_LIMBS], y[EC_MAX_LIMBS], z[EC_MAX_LIMBS], t0[EC_MAX_LIMBS];
  const size_t n = L * sizeof(uint64_t);
  MUL(t0, p->z, p->z);
  MUL(x, p->x, p->z);
  MUL(y, p->y, t0);
  memcpy(z, p->z, n);
  uint64_t zacc = 0;
  for (unsigned j = 0; j < L; j++) zacc |= z[j];
  const uint64_t inf = ct_is_zero_u64(zacc);
  for (unsigned j = 0; j < L; j++) y[j] = ct_select_u64(inf, fp->one[j], y[j]);
  for (unsigned i = 0; i < count; i++) jac_dbl_k(x, y, z, L, fe_mul, fe_add, fe_sub);
  MUL(t0, z, z);
  MUL(r->z, t0, z);
  MUL(r->x, x, z);
  memcpy(r->y, y, n);
}

#undef MUL
#undef ADD
#undef SUB

/* The dispatch on the limb count branches only on the curve (public). */
static const ec_mod k_p224_p = {.m = P224_P, .rr = P224_P_RR, .one = P224_P_ONE, .n0 = P224_P_N0};
static const ec_mod k_p521_p = {.m = P521_P, .rr = P521_P_RR, .one = P521_P_ONE, .n0 = P521_P_N0};

/* Each curve's field multiplication is NAME_mul (EC_FE_OPS, ec_group_inline.h), with a portable
 * build here; fe_ops(NAME, L, MOD) adds NAME_add, that curve's complete addition. dbl_ops adds
 * NAME_dbl, the complete doubling, on P-224 and P-521; dbln_ops adds NAME_dbln, the Jacobian
 * doubling chain of ec_point_dbl_n, on P-256 and P-384, where it also does single doublings (8
 * multiplications and 6 for the two conversions, against 13): each instance of either is 8 to
 * 17 KB of code, so each curve has one of them. */
#define portable_mul(FN, L, MOD, LINKAGE)                                                     \
  LINKAGE void FN(uint64_t *r, const uint64_t *a, const uint64_t *b) {                        \
    mont_mul_k(MOD, r, a, b, L);                                                              \
  }
#define fe_ops(NAME, L, MOD)                                                                  \
  static __attribute__((noinline)) void NAME##_add(const ec_curve *c, ec_point *r,            \
                                                   const ec_point *p, const ec_point *q) {    \
    point_add_k(c, r, p, q, L, NAME##_mul, NAME##_fadd, NAME##_fsub);                         \
  }
#define dbl_ops(NAME, L, MOD)                                                                 \
  static __attribute__((noinline)) void NAME##_dbl(const ec_curve *c, ec_point *r,            \
                                                   const ec_point *p) {                       \
    point_dbl_k(c, r, p, L, NAME##_mul, NAME##_fadd, NAME##_fsub);                            \
  }
#define madd_ops(NAME, L)                                                                     \
  static __attribute__((noinline)) void NAME##_add_affine(const ec_curve *c, ec_point *r,     \
                                                          const ec_point *p,                  \
                                                          const uint64_t *x2,                 \
                                                          const uint64_t *y2) {               \
    point_add_affine_k(c, r, p, x2, y2, L, NAME##_mul, NAME##_fadd, NAME##_fsub);             \
  }
#define dbln_ops(NAME, L, MOD)                                                                \
  static __attribute__((noinline)) void NAME##_dbln(ec_point *r, const ec_point *p,           \
                                                    unsigned count) {                         \
    point_dbln_k(r, p, count, L, MOD, NAME##_mul, NAME##_fadd, NAME##_fsub);                  \
  }

#define NOINLINE static __attribute__((noinline))
#define EXTERN_NOINLINE __attribute__((noinline))
portable_mul(ec_p256_mul_portable, 4, &k_p256_p, EXTERN_NOINLINE)
portable_mul(ec_p384_mul_portable, 6, &k_p384_p, EXTERN_NOINLINE)
portable_mul(p224_mul_portable, 4, &k_p224_p, NOINLINE)
portable_mul(p521_mul_portable, 9, &k_p521_p, NOINLINE)
EC_FE_OPS(p224, 4, &k_p224_p, p224_mul_portable, NO_MULX, NO_MULX, NO_SQR, CALLED_ADDSUB)
EC_FE_OPS(p521, 9, &k_p521_p, p521_mul_portable, NO_MULX, NO_MULX, NO_SQR, CALLED_ADDSUB)
fe_ops(p256, 4, &k_p256_p)
fe_ops(p384, 6, &k_p384_p)
fe_ops(p224, 4, &k_p224_p)
fe_ops(p521, 9, &k_p521_p)
dbln_ops(p256, 4, &k_p256_p)
dbln_ops(p384, 6, &k_p384_p)
madd_ops(p256, 4)
madd_ops(p384, 6)
dbl_ops(p224, 4, &k_p224_p)
dbl_ops(p521, 9, &k_p521_p)

/* ec_path_name (module/internal.h) names the P-256/P-384 field products in use, for the start-up
 * report (mulx+adx: P-256's assembly product); P-224 and P-521 always take the portable ones. */
const char *ec_path_name(void) {
  if (!fm_cpu_use(FM_CPU_BMI2)) return "portable";
  return fm_cpu_use(FM_CPU_ADX) ? "mulx+adx" : "mulx";
}

void ec_point_add(const ec_curve *c, ec_point *r, const ec_point *p, const ec_point *q) {
  switch (c->id) {
    case FM_EC_P256: p256_add(c, r, p, q); break;
    case FM_EC_P384: p384_add(c, r, p, q); break;
    case FM_EC_P224: p224_add(c, r, p, q); break;
    default: p521_add(c, r, p, q); break;
  }
}

void ec_point_dbl(const ec_curve *c, ec_point *r, const ec_point *p) {
  switch (c->id) {
    case FM_EC_P256: p256_dbln(r, p, 1); break;
    case FM_EC_P384: p384_dbln(r, p, 1); break;
    case FM_EC_P224: p224_dbl(c, r, p); break;
    default: p521_dbl(c, r, p); break;
  }
}

void ec_point_dbl_n(const ec_curve *c, ec_point *r, const ec_point *p, unsigned count) {
  switch (c->id) {
    case FM_EC_P256: p256_dbln(r, p, count); break;
    case FM_EC_P384: p384_dbln(r, p, count); break;
    default:
      *r = *p;
      for (unsigned i = 0; i < count; i++) ec_point_dbl(c, r, r);
      break;
  }
}

#define MUL(r, a, b) ec_mod_mul(c, &c->p, r, a, b)
#define ADD(r, a, b) ec_mod_add(c, &c->p, r, a, b)
#define SUB(r, a, b) ec_mod_sub(c, &c->p, r, a, b)

void ec_point_set_affine(const ec_curve *c, ec_point *r, const uint64_t *x, const uint64_t *y) {
  memset(r, 0, sizeof *r);
  memcpy(r->x, x, c->limbs * sizeof(uint64_t));
  memcpy(r->y, y, c->limbs * sizeof(uint64_t));
  memcpy(r->z, c->p.one, c->limbs * sizeof(uint64_t));
}

uint64_t ec_point_to_affine(const ec_curve *c, uint64_t *x, uint64_t *y, const ec_point *p) {
  uint64_t zi[EC_MAX_LIMBS];
  ec_mod_inv(c, &c->p, zi, p->z); /* 0 for the point at infinity, so x = y = 0 */
  MUL(x, p->x, zi);
  MUL(y, p->y, zi);
  fm_zeroize(zi, sizeof zi);
  return ~ec_limbs_is_zero(c->limbs, p->z);
}

uint64_t ec_point_on_curve(const ec_curve *c, const uint64_t *x, const uint64_t *y) {
  uint64_t lhs[EC_MAX_LIMBS], rhs[EC_MAX_LIMBS], t[EC_MAX_LIMBS];
  MUL(lhs, y, y);
  MUL(rhs, x, x);
  MUL(rhs, rhs, x);
  ADD(t, x, x);
  ADD(t, t, x);
  SUB(rhs, rhs, t);
  ADD(rhs, rhs, c->b);
  return ec_limbs_eq(c->limbs, lhs, rhs);
}

#undef MUL
#undef ADD
#undef SUB

/* ---- Scalar multiplication --------------------------------------------------------------- */

/* Both constant-time multiplications use signed 5-bit windows (Booth recoding): digit i of k is
 *   d_i = b(5i - 1) + b(5i) + 2 b(5i + 1) + 4 b(5i + 2) + 8 b(5i + 3) - 16 b(5i + 4),
 * b(j) the bits of k (b(-1) = 0), so that k = sum d_i 32^i with d_i in [-16, 16]: a table of the
 * multiples 1..16 and a conditional negation cover every digit, with one addition per 5 bits.
 * ceil((bits + 1) / 5) windows take the carry out of the top one. */
#define EC_WINDOW 5
#define EC_TABLE 16 /* multiples 1..16 of the point; digit 0 is the point at infinity */
_Static_assert(EC_TABLE == EC_BASE_ENTRIES, "a fixed-base row holds the multiples 1..16");
#define EC_WINDOWS(c) (((c)->bits + 1 + EC_WINDOW - 1) / EC_WINDOW)

/* booth_digit returns |d_i| (0..16) for window i of k and sets *neg all-ones when d_i < 0. k has
 * limbs + 1 words, the top one zero, so that every window's 6 bits are in the array. Constant
 * time in k: the word and shift depend only on i (public). */
static uint64_t booth_digit(const uint64_t *k, unsigned i, uint64_t *neg) {
  uint64_t w;
  if (i == 0) {
    w = k[0] << 1;
  } else {
    const unsigned b = EC_WINDOW * i - 1;
    w = k[b / 64] >> (b % 64);
    if (b % 64 > 64 - (EC_WINDOW + 1)) w |= k[b / 64 + 1] << (64 - b % 64);
  }
  w &= (1u << (EC_WINDOW + 1)) - 1;
  const uint64_t s = 0u - (w >> EC_WINDOW); /* all-ones when the digit is negative */
  const uint64_t d = ct_select_u64(s, ((1u << (EC_WINDOW + 1)) - 1) - w, w);
  *neg = s;
  return (d >> 1) + (d & 1);
}

/* cond_negate sets p = -p (Y to p - Y) where neg is all-ones, reading and writing the same words
 * either way. */
static void cond_negate(const ec_curve *c, ec_point *p, uint64_t neg) {
  static const uint64_t zero[EC_MAX_LIMBS] = {0};
  uint64_t t[EC_MAX_LIMBS];
  ec_mod_sub(c, &c->p, t, zero, p->y);
  for (unsigned j = 0; j < c->limbs; j++) p->y[j] = ct_select_u64(neg, t[j], p->y[j]);
  fm_zeroize(t, c->limbs * sizeof(uint64_t));
}

/* The table scans below work on pairs of words (GCC/Clang vector extension: SSE2 on x86-64, NEON
 * on AArch64, word pairs elsewhere), for the even limb counts of P-224, P-256 and P-384; P-521's
 * nine words take the one-word loop. Constant time in the digit: every entry is loaded, ANDed with
 * its mask and ORed in. */
typedef uint64_t ec_v2 __attribute__((vector_size(16)));

static inline __attribute__((always_inline)) ec_v2 v2_load(const uint64_t *p) {
  ec_v2 v;
  memcpy(&v, p, sizeof v);
  return v;
}

/* table_select_k sets r = d * P from table[j] = (j + 1) P for a secret digit d in [0, EC_TABLE],
 * reading every entry; d = 0 gives the point at infinity (0 : 1 : 0). Instantiated for a constant
 * limb count L, so that the scan unrolls into straight loads, ANDs and ORs. */
static inline __attribute__((always_inline)) void table_select_k(const ec_curve *c, ec_point *r,
                                                                  const ec_point table[EC_TABLE],
                                                                  uint64_t d, const unsigned L) {
  const uint64_t zero_digit = ct_is_zero_u64(d);
  memset(r, 0, sizeof *r);
  if (L % 2 == 0) {
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
  } else {
    for (unsigned i = 0; i < EC_TABLE; i++) {
      const uint64_t mask = ct_eq_u64(i + 1, d);
      _Pragma("GCC unroll 9")
      for (unsigned j = 0; j < L; j++) {
        r->x[j] |= mask & table[i].x[j];
        r->y[j] |= mask & table[i].y[j];
        r->z[j] |= mask & table[i].z[j];
      }
    }
  }
  for (unsigned j = 0; j < L; j++) r->y[j] |= zero_digit & c->p.one[j];
}

/* The limb count is the curve's (public). */
static void table_select(const ec_curve *c, ec_point *r, const ec_point table[EC_TABLE],
                         uint64_t d) {
  switch (c->limbs) {
    case 4: table_select_k(c, r, table, d, 4); break;
    case 6: table_select_k(c, r, table, d, 6); break;
    default: table_select_k(c, r, table, d, 9); break;
  }
}

void ec_scalar_mul(const ec_curve *c, ec_point *r, const uint64_t *k, const ec_point *p) {
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

/* row_select_k sets (x, y) to entry d - 1 of a fixed-base row of EC_BASE_ENTRIES affine points
 * (x then y, L words each, L even: P-256 and P-384), or to zeros for d = 0, reading every entry
 * (constant time in d). */
static inline __attribute__((always_inline)) void row_select_k(uint64_t *x, uint64_t *y,
                                                                const uint64_t *row, uint64_t d,
                                                                const unsigned L) {
  _Static_assert(EC_MAX_LIMBS / 2 >= 3, "the pairs hold P-384's six words");
  struct {
    ec_v2 x[3], y[3];
  } v;
  memset(&v, 0, sizeof v);
  for (unsigned e = 0; e < EC_TABLE; e++) {
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

/* mul_base_table sets r = k * G from the curve's fixed-base table (ec_base_table.h): row i
 * holds j * 32^i * G for j = 1..16 in affine form, so k * G is the sum over the scalar's signed
 * 5-bit digits of +-row[i][|digit| - 1], with no doubling, each by a mixed addition. Each row is
 * read in full by constant-time selection; a zero digit keeps the sum, by selection. */
static void mul_base_table(const ec_curve *c, ec_point *r, const uint64_t *k,
                           const uint64_t *table) {
  const unsigned n = c->limbs;
  const unsigned windows = EC_WINDOWS(c);
  ec_point acc, t, sum;
  uint64_t kk[EC_MAX_LIMBS + 1] = {0}, neg;
  memcpy(kk, k, c->limbs * sizeof(uint64_t));
  point_set_infinity(c, &acc);
  memset(&t, 0, sizeof t);
  for (unsigned i = 0; i < windows; i++) {
    const uint64_t d = booth_digit(kk, i, &neg);
    /* i is public: the window's index */
    const uint64_t *row = table + (size_t)i * EC_BASE_ENTRIES * 2 * n;
    if (n == 4) row_select_k(t.x, t.y, row, d, 4); /* the tables: P-256 (4 limbs), P-384 (6) */
    else row_select_k(t.x, t.y, row, d, 6);
    cond_negate(c, &t, neg);
    /* The mixed addition; a zero digit (the point at infinity, which it cannot take) keeps acc,
     * by selection. */
    if (c->id == FM_EC_P256) p256_add_affine(c, &sum, &acc, t.x, t.y);
    else p384_add_affine(c, &sum, &acc, t.x, t.y);
    const uint64_t nonzero = ~ct_is_zero_u64(d);
    for (unsigned j = 0; j < n; j++) {
      acc.x[j] = ct_select_u64(nonzero, sum.x[j], acc.x[j]);
      acc.y[j] = ct_select_u64(nonzero, sum.y[j], acc.y[j]);
      acc.z[j] = ct_select_u64(nonzero, sum.z[j], acc.z[j]);
    }
  }
  *r = acc;
  fm_zeroize(&acc, sizeof acc);
  fm_zeroize(&t, sizeof t);
  fm_zeroize(&sum, sizeof sum);
  fm_zeroize(kk, sizeof kk);
  fm_zeroize(&neg, sizeof neg);
}

void ec_scalar_mul_base(const ec_curve *c, ec_point *r, const uint64_t *k) {
  /* The tables are chosen by the curve's id (public), not by a pointer in the curve's
   * descriptor, which stays free of relocations. */
  const uint64_t *table = ec_base_table(c);
  if (table != NULL) {
    mul_base_table(c, r, k, table);
    return;
  }
  ec_point g;
  ec_point_set_affine(c, &g, c->gx, c->gy);
  ec_scalar_mul(c, r, k, &g);
}
