/* The P-curves and their group law: complete projective formulas (Renes, Costello and Batina,
 * "Complete addition formulas for prime order elliptic curves", 2016, Algorithms 4 and 6 for
 * a = -3), so that no input, the point at infinity and P == Q included, needs a branch, with
 * chains of doublings in Jacobian coordinates on P-256, P-384, P-521 (ec_point_dbl_n); scalar
 * multiplication by a fixed window whose table is read by constant-time selection; and, for
 * verification only, a variable-time interleaved wNAF double multiplication. */
#include <string.h>

#include "module/ec/ec_base_table.h"
#include "module/ec/ec_curves.h"
#include "module/ec/ec_field_inline.h"
#include "module/ec/ec_p521.h"
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
typedef void (*fe_mul_fn)(uint64_t *r, const uint64_t *a, const uint64_t *b);

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

/* jac_dbl_k doubles the Jacobian point (x, y, z), (x / z^2, y / z^3), in place with the a = -3
 * doubling of Bernstein and Lange (dbl-2001-b: 3M + 5S). */
static inline __attribute__((always_inline)) void jac_dbl_k(uint64_t *x, uint64_t *y, uint64_t *z,
                                                             const unsigned L,
                                                             const fe_mul_fn fe_mul,
                                                             const fe_mul_fn fe_add,
                                                             const fe_mul_fn fe_sub) {
  uint64_t t0[EC_MAX_LIMBS], t1[EC_MAX_LIMBS], t2[EC_MAX_LIMBS], t3[EC_MAX_LIMBS];
  (void)L;
  MUL(t0, z, z);      /* delta = Z^2 */
  MUL(t1, y, y);      /* gamma = Y^2 */
  MUL(t2, x, t1);     /* beta = X gamma */
  SUB(t3, x, t0);
  ADD(t0, x, t0);
  MUL(t3, t3, t0);
  ADD(t0, t3, t3);
  ADD(t3, t0, t3);    /* alpha = 3 (X - delta)(X + delta) */
  MUL(z, y, z);
  ADD(z, z, z);       /* Z3 = 2 Y Z */
  MUL(x, t3, t3);
  ADD(t2, t2, t2);
  ADD(t2, t2, t2);    /* 4 beta */
  SUB(x, x, t2);
  SUB(x, x, t2);      /* X3 = alpha^2 - 8 beta */
  SUB(t2, t2, x);
  MUL(t2, t3, t2);    /* alpha (4 beta - X3) */
  MUL(t1, t1, t1);
  ADD(t1, t1, t1);
  ADD(t1, t1, t1);
  ADD(t1, t1, t1);    /* 8 gamma^2 */
  SUB(y, t2, t1);     /* Y3 = alpha (4 beta - X3) - 8 gamma^2 */
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
static const ec_mod k_p256_p = {.m = P256_P, .rr = P256_P_RR, .one = P256_P_ONE, .n0 = P256_P_N0};
static const ec_mod k_p384_p = {.m = P384_P, .rr = P384_P_RR, .one = P384_P_ONE, .n0 = P384_P_N0};
static const ec_mod k_p224_p = {.m = P224_P, .rr = P224_P_RR, .one = P224_P_ONE, .n0 = P224_P_N0};
static const ec_mod k_p521_p = {.m = P521_P, .rr = P521_P_RR, .one = P521_P_ONE, .n0 = P521_P_N0};

/* fe_ops(NAME, L, MOD, MULX, ADX, ADDSUB) defines NAME_fadd and NAME_fsub (inline or out of
 * line, as ADDSUB says), NAME_mul (the out-of-line field multiplication of one curve: ADX, the
 * assembly product of ec_field_mulx.c, where the curve has one and the CPU BMI2 and ADX; else
 * MULX, its BMI2 build, where the curve has one and the CPU BMI2; else the portable build) and
 * NAME_add, that curve's complete addition. dbl_ops adds NAME_dbl, the complete doubling, on
 * P-224; dbln_ops adds NAME_dbln, the Jacobian doubling chain of ec_point_dbl_n, on P-256,
 * P-384 and P-521, where it also does single doublings (8 multiplications and 6 for the two
 * conversions, against 13): each instance of either is 8 to 17 KB of code, so each curve has
 * one of them. */
#define fe_ops(NAME, L, MOD, MULX, ADX, ADX_SQR, ADDSUB)                                      \
  ADDSUB void NAME##_fadd(uint64_t *r, const uint64_t *a, const uint64_t *b) {                \
    mod_add_k(MOD, r, a, b, L);                                                               \
  }                                                                                           \
  ADDSUB void NAME##_fsub(uint64_t *r, const uint64_t *a, const uint64_t *b) {                \
    mod_sub_k(MOD, r, a, b, L);                                                               \
  }                                                                                           \
  static __attribute__((noinline)) void NAME##_mul_portable(uint64_t *r, const uint64_t *a,   \
                                                            const uint64_t *b) {              \
    mont_mul_k(MOD, r, a, b, L);                                                              \
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
      NAME##_mul_portable(r, a, b);                                                           \
  }                                                                                           \
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

#define NO_MULX ((fe_mul_fn)NULL)
#define NO_SQR ((void (*)(uint64_t *, const uint64_t *))NULL)
#define INLINE_ADDSUB static inline __attribute__((always_inline))
#define CALLED_ADDSUB static __attribute__((noinline))
fe_ops(p256, 4, &k_p256_p, ec_p256_mul_mulx, ec_p256_mul_adx, ec_p256_sqr_adx, INLINE_ADDSUB)
fe_ops(p384, 6, &k_p384_p, ec_p384_mul_mulx, NO_MULX, NO_SQR, INLINE_ADDSUB)
fe_ops(p224, 4, &k_p224_p, NO_MULX, NO_MULX, NO_SQR, CALLED_ADDSUB)
/* P-521's multiplication and square are ec_p521.c's on every CPU (portable C, no product by p):
 * the same address twice (public) is a square. */
CALLED_ADDSUB void p521_fadd(uint64_t *r, const uint64_t *a, const uint64_t *b) {
  mod_add_k(&k_p521_p, r, a, b, 9);
}
CALLED_ADDSUB void p521_fsub(uint64_t *r, const uint64_t *a, const uint64_t *b) {
  mod_sub_k(&k_p521_p, r, a, b, 9);
}
static inline void p521_mul(uint64_t *r, const uint64_t *a, const uint64_t *b) {
  if (a == b) ec_p521_sqr(r, a);
  else ec_p521_mul(r, a, b);
}
static __attribute__((noinline)) void p521_add(const ec_curve *c, ec_point *r, const ec_point *p,
                                               const ec_point *q) {
  point_add_k(c, r, p, q, 9, p521_mul, p521_fadd, p521_fsub);
}
dbln_ops(p256, 4, &k_p256_p)
dbln_ops(p384, 6, &k_p384_p)
dbln_ops(p521, 9, &k_p521_p)
madd_ops(p256, 4)
madd_ops(p384, 6)
madd_ops(p521, 9)
dbl_ops(p224, 4, &k_p224_p)

/* ec_path_name (module/internal.h) names the P-256/P-384 field products in use, for the start-up
 * report (mulx+adx: P-256's assembly product); P-224 and P-521 take portable ones on every CPU. */
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
    default: p521_dbln(r, p, 1); break;
  }
}

void ec_point_dbl_n(const ec_curve *c, ec_point *r, const ec_point *p, unsigned count) {
  switch (c->id) {
    case FM_EC_P256: p256_dbln(r, p, count); break;
    case FM_EC_P384: p384_dbln(r, p, count); break;
    case FM_EC_P521: p521_dbln(r, p, count); break;
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

/* set_infinity: (0 : 1 : 0). */
static void set_infinity(const ec_curve *c, ec_point *r) {
  memset(r, 0, sizeof *r);
  memcpy(r->y, c->p.one, c->limbs * sizeof(uint64_t));
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
  set_infinity(c, &acc);
  memset(&t, 0, sizeof t);
  for (unsigned i = 0; i < windows; i++) {
    const uint64_t d = booth_digit(kk, i, &neg);
    /* i is public: the window's index */
    const uint64_t *row = table + (size_t)i * EC_BASE_ENTRIES * 2 * n;
    if (n == 4) row_select_k(t.x, t.y, row, d, 4); /* P-256 (4 limbs), P-384 (6), P-521 (9) */
    else if (n == 6) row_select_k(t.x, t.y, row, d, 6);
    else ec_p521_row_select(t.x, t.y, row, d);
    cond_negate(c, &t, neg);
    /* The mixed addition; a zero digit (the point at infinity, which it cannot take) keeps acc,
     * by selection. */
    if (c->id == FM_EC_P256) p256_add_affine(c, &sum, &acc, t.x, t.y);
    else if (c->id == FM_EC_P384) p384_add_affine(c, &sum, &acc, t.x, t.y);
    else p521_add_affine(c, &sum, &acc, t.x, t.y);
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

/* ---- Verification: public scalars, variable time ---------------------------------------- */

#define EC_WNAF_W 5                           /* digits odd, |digit| < 2^(W-1) */
#define EC_WNAF_ODD (1u << (EC_WNAF_W - 2))   /* odd multiples 1, 3, ..., 2^(W-1) - 1 */
#define EC_WNAF_MAX (64 * EC_MAX_LIMBS + 1)
#define EC_WNAF_G 8 /* G's width on P-256, P-384, P-521: odd multiples up to 127 G (ec_base_odd) */
_Static_assert(EC_BASE_ODD == 1u << (EC_WNAF_G - 2), "the odd multiples of G for width 8");

/* wnaf_public writes the width-w non-adjacent form of a public k (limbs words, w at most 8):
 * digits d[i] in {0, +-1, +-3, ..., +-(2^(w-1) - 1)}, k = sum d[i] 2^i, at most one non-zero
 * digit in any w in a row. Returns the number of digits (at most 64 * limbs + 1). VARIABLE TIME:
 * the loop, the branches and the digits all follow k, so it is only for public scalars (ECDSA
 * verification's u1, u2). */
static unsigned wnaf_public(int8_t *d, const uint64_t *k, unsigned limbs, unsigned w) {
  uint64_t t[EC_MAX_LIMBS + 1];
  memcpy(t, k, limbs * sizeof(uint64_t));
  t[limbs] = 0;
  unsigned len = 0;
  for (;;) {
    uint64_t any = 0;
    for (unsigned j = 0; j <= limbs; j++) any |= t[j];
    if (any == 0) break;
    int digit = 0;
    if (t[0] & 1) {
      digit = (int)(t[0] & ((1u << w) - 1));
      if (digit >= (1 << (w - 1))) digit -= 1 << w;
      /* t -= digit: afterwards t is a multiple of 2^W. */
      if (digit > 0) {
        uint64_t borrow = (uint64_t)digit;
        for (unsigned j = 0; j <= limbs && borrow; j++) {
          const uint64_t before = t[j];
          t[j] = before - borrow;
          borrow = before < borrow;
        }
      } else {
        uint64_t carry = (uint64_t)-digit;
        for (unsigned j = 0; j <= limbs && carry; j++) {
          t[j] += carry;
          carry = t[j] < carry;
        }
      }
    }
    d[len++] = (int8_t)digit;
    for (unsigned j = 0; j < limbs; j++) t[j] = (t[j] >> 1) | (t[j + 1] << 63);
    t[limbs] >>= 1;
  }
  return len;
}

/* add_digit_public sets acc = acc + digit * P from the odd multiples tab[i] = (2i + 1) P, negating
 * the entry for a negative digit. Public digit and points: variable time. */
static void add_digit_public(const ec_curve *c, ec_point *acc, const ec_point *tab, int digit) {
  static const uint64_t zero[EC_MAX_LIMBS] = {0};
  if (digit > 0) {
    ec_point_add(c, acc, acc, &tab[(digit - 1) / 2]);
  } else {
    ec_point t = tab[(-digit - 1) / 2];
    ec_mod_sub(c, &c->p, t.y, zero, t.y);
    ec_point_add(c, acc, acc, &t);
  }
}

/* odd_multiples sets tab[i] = (2i + 1) p for i < EC_WNAF_ODD. */
static void odd_multiples(const ec_curve *c, ec_point *tab, const ec_point *p) {
  ec_point p2;
  tab[0] = *p;
  ec_point_dbl(c, &p2, p);
  for (unsigned i = 1; i < EC_WNAF_ODD; i++) ec_point_add(c, &tab[i], &tab[i - 1], &p2);
}

/* double_mul_projective is ec_double_mul_public with the complete projective formulas, for
 * P-224, and for P-256, P-384 and P-521 when their fixed-base table is not at hand. */
static void double_mul_projective(const ec_curve *c, ec_point *r, const uint64_t *u1,
                                  const uint64_t *u2, const ec_point *q) {
  /* VARIABLE TIME, for public inputs only (ECDSA verification: u1, u2 and Q are all public).
   * Straus-Shamir interleaving: u1 and u2 in width-5 NAF, one shared chain of doublings (run in
   * Jacobian coordinates between additions, ec_point_dbl_n) and an addition of an odd multiple
   * of G or Q for each non-zero digit. G's odd multiples come from row 0 of the fixed-base table
   * where the curve has one. The complete addition formula takes every case (equal points,
   * opposite points, infinity) without a branch of its own. */
  ec_point tg[EC_WNAF_ODD], tq[EC_WNAF_ODD], acc;
  int8_t d1[EC_WNAF_MAX], d2[EC_WNAF_MAX];
  const unsigned n = c->limbs;
  const uint64_t *row0 = ec_base_table(c); /* row 0 starts the table */
  if (row0 != NULL) {
    /* Row 0, entry j is (j + 1) G, affine: (2i + 1) G is entry 2i. */
    for (unsigned i = 0; i < EC_WNAF_ODD; i++)
      ec_point_set_affine(c, &tg[i], &row0[(4 * i) * n], &row0[(4 * i + 1) * n]);
  } else {
    ec_point g;
    ec_point_set_affine(c, &g, c->gx, c->gy);
    odd_multiples(c, tg, &g);
  }
  odd_multiples(c, tq, q);
  const unsigned len1 = wnaf_public(d1, u1, n, EC_WNAF_W), len2 = wnaf_public(d2, u2, n, EC_WNAF_W);
  const unsigned len = len1 > len2 ? len1 : len2;
  set_infinity(c, &acc);
  unsigned pending = 0; /* doublings owed to acc; none until the first addition */
  bool started = false;
  for (int i = (int)len - 1; i >= 0; i--) {
    if (started) pending++;
    const int a = (unsigned)i < len1 ? d1[i] : 0, b = (unsigned)i < len2 ? d2[i] : 0;
    if (a == 0 && b == 0) continue;
    if (pending) ec_point_dbl_n(c, &acc, &acc, pending);
    pending = 0;
    if (a != 0) add_digit_public(c, &acc, tg, a);
    if (b != 0) add_digit_public(c, &acc, tq, b);
    started = true;
  }
  if (pending) ec_point_dbl_n(c, &acc, &acc, pending);
  *r = acc;
}

/* ---- Verification on P-256, P-384, P-521: Jacobian coordinates, public inputs, variable time */

#define MUL(r, a, b) fe_mul(r, a, b)
#define ADD(r, a, b) fe_add(r, a, b)
#define SUB(r, a, b) fe_sub(r, a, b)

/* A Jacobian point (X, Y, Z) is the affine (X / Z^2, Y / Z^3). Q's odd multiples are kept with
 * Z^2 and Z^3 beside them, which each addition of one of them uses. */
typedef struct jac_cached {
  uint64_t x[EC_MAX_LIMBS], y[EC_MAX_LIMBS], z[EC_MAX_LIMBS], zz[EC_MAX_LIMBS], zzz[EC_MAX_LIMBS];
} jac_cached;

static bool limbs_zero_public(const uint64_t *a, unsigned L) {
  uint64_t acc = 0;
  for (unsigned j = 0; j < L; j++) acc |= a[j];
  return acc == 0;
}

/* jac_add_k sets the Jacobian point (x, y, z), which is not the point at infinity, to itself plus
 * the point (x2, y2, z2) with z2^2 = zz2 and z2^3 = zzz2, or plus the affine (x2, y2) when zz2 is
 * NULL (Bernstein and Lange's add-2007-bl and madd-2007-bl: 11M + 5S, 7M + 4S). Returns false
 * when the sum is the point at infinity. VARIABLE TIME: equal and opposite points are told apart
 * by branches, so this is for public points only. */
static inline __attribute__((always_inline)) bool jac_add_k(
    uint64_t *x, uint64_t *y, uint64_t *z, const uint64_t *x2, const uint64_t *y2,
    const uint64_t *z2, const uint64_t *zz2, const uint64_t *zzz2, const unsigned L,
    const fe_mul_fn fe_mul, const fe_mul_fn fe_add, const fe_mul_fn fe_sub) {
  uint64_t z1z1[EC_MAX_LIMBS], u1[EC_MAX_LIMBS], u2[EC_MAX_LIMBS], s1[EC_MAX_LIMBS],
      s2[EC_MAX_LIMBS], h[EC_MAX_LIMBS], rr[EC_MAX_LIMBS], hh[EC_MAX_LIMBS], hhh[EC_MAX_LIMBS],
      v[EC_MAX_LIMBS];
  MUL(z1z1, z, z);
  MUL(u2, x2, z1z1);
  MUL(s2, z, z1z1);
  MUL(s2, y2, s2);
  if (zz2 != NULL) {
    MUL(u1, x, zz2);
    MUL(s1, y, zzz2);
  } else {
    memcpy(u1, x, L * sizeof(uint64_t));
    memcpy(s1, y, L * sizeof(uint64_t));
  }
  SUB(h, u2, u1);
  SUB(rr, s2, s1);
  if (limbs_zero_public(h, L)) {
    if (!limbs_zero_public(rr, L)) return false; /* P + (-P) */
    jac_dbl_k(x, y, z, L, fe_mul, fe_add, fe_sub); /* P + P */
    return true;
  }
  MUL(hh, h, h);
  MUL(hhh, h, hh);
  MUL(v, u1, hh);
  MUL(x, rr, rr);
  SUB(x, x, hhh);
  SUB(x, x, v);
  SUB(x, x, v);   /* X3 = R^2 - H^3 - 2 U1 H^2 */
  SUB(v, v, x);
  MUL(v, rr, v);
  MUL(s1, s1, hhh);
  SUB(y, v, s1);  /* Y3 = R (U1 H^2 - X3) - S1 H^3 */
  MUL(z, z, h);
  if (zz2 != NULL) MUL(z, z, z2); /* Z3 = Z1 Z2 H */
  return true;
}

/* double_mul_jac_k is ec_double_mul_public on P-256, P-384, P-521. VARIABLE TIME, for public inputs
 * only (ECDSA verification: u1, u2 and Q are all public). Straus-Shamir interleaving of u1 in
 * width-8 NAF and u2 in width-5 NAF with one chain of Jacobian doublings; G's 64 odd multiples
 * are affine (ec_base_odd, built with the fixed-base table), so each of its digits costs a mixed
 * addition, and Q's 8 are Jacobian with Z^2 and Z^3 at hand. Returns false, with nothing written, when Q's table meets the point at
 * infinity (Q is not a point of order n): the caller then takes the projective path. */
typedef void (*jac_dbl_fn)(uint64_t *x, uint64_t *y, uint64_t *z);
typedef bool (*jac_add_fn)(uint64_t *x, uint64_t *y, uint64_t *z, const uint64_t *x2,
                           const uint64_t *y2, const uint64_t *z2, const uint64_t *zz2,
                           const uint64_t *zzz2);

/* The curve's Jacobian doubling and addition, out of line: verification calls each from several
 * places, and one copy per curve keeps the loaded image (hashed at every load) small. */
#define JAC_FNS(NAME, L)                                                                       \
  static __attribute__((noinline)) void NAME##_jdbl(uint64_t *x, uint64_t *y, uint64_t *z) {  \
    jac_dbl_k(x, y, z, L, NAME##_mul, NAME##_fadd, NAME##_fsub);                              \
  }                                                                                            \
  static __attribute__((noinline)) bool NAME##_jadd(                                          \
      uint64_t *x, uint64_t *y, uint64_t *z, const uint64_t *x2, const uint64_t *y2,           \
      const uint64_t *z2, const uint64_t *zz2, const uint64_t *zzz2) {                         \
    return jac_add_k(x, y, z, x2, y2, z2, zz2, zzz2, L, NAME##_mul, NAME##_fadd, NAME##_fsub); \
  }
JAC_FNS(p256, 4)
JAC_FNS(p384, 6)
JAC_FNS(p521, 9)

static inline __attribute__((always_inline)) bool double_mul_jac_k(
    const ec_curve *c, ec_point *r, const uint64_t *u1, const uint64_t *u2, const ec_point *q,
    const uint64_t *godd, const unsigned L, const fe_mul_fn fe_mul, const fe_mul_fn fe_add,
    const fe_mul_fn fe_sub, const jac_dbl_fn jdbl, const jac_add_fn jadd) {
  (void)fe_add; /* the MUL and SUB macros take fe_mul and fe_sub; additions are in jdbl/jadd */
  static const uint64_t zero[EC_MAX_LIMBS] = {0};
  const size_t n = L * sizeof(uint64_t);
  jac_cached tq[EC_WNAF_ODD], q2;
  uint64_t x[EC_MAX_LIMBS], y[EC_MAX_LIMBS], z[EC_MAX_LIMBS], ny[EC_MAX_LIMBS];
  int8_t d1[EC_WNAF_MAX], d2[EC_WNAF_MAX];
  if (limbs_zero_public(q->z, L)) return false;
  /* Q's homogeneous (X : Y : Z) is the Jacobian (X Z, Y Z^2, Z). */
  MUL(tq[0].zz, q->z, q->z);
  MUL(tq[0].zzz, tq[0].zz, q->z);
  MUL(tq[0].x, q->x, q->z);
  MUL(tq[0].y, q->y, tq[0].zz);
  memcpy(tq[0].z, q->z, n);
  /* 2Q, then (2i + 1) Q = (2i - 1) Q + 2Q. */
  memcpy(q2.x, tq[0].x, n);
  memcpy(q2.y, tq[0].y, n);
  memcpy(q2.z, tq[0].z, n);
  jdbl(q2.x, q2.y, q2.z);
  MUL(q2.zz, q2.z, q2.z);
  MUL(q2.zzz, q2.zz, q2.z);
  for (unsigned i = 1; i < EC_WNAF_ODD; i++) {
    tq[i] = tq[i - 1];
    if (!jadd(tq[i].x, tq[i].y, tq[i].z, q2.x, q2.y, q2.z, q2.zz, q2.zzz))
      return false;
    MUL(tq[i].zz, tq[i].z, tq[i].z);
    MUL(tq[i].zzz, tq[i].zz, tq[i].z);
  }
  const unsigned len1 = wnaf_public(d1, u1, L, EC_WNAF_G), len2 = wnaf_public(d2, u2, L, EC_WNAF_W);
  const unsigned len = len1 > len2 ? len1 : len2;
  bool inf = true; /* (x, y, z) is the point at infinity: its coordinates are not used */
  for (int i = (int)len - 1; i >= 0; i--) {
    if (!inf) jdbl(x, y, z);
    const int a = (unsigned)i < len1 ? d1[i] : 0, b = (unsigned)i < len2 ? d2[i] : 0;
    if (a != 0) {
      /* Entry e of the odd multiples is (2e + 1) G, affine. */
      const unsigned e = ((unsigned)(a > 0 ? a : -a) - 1) / 2;
      const uint64_t *gx = &godd[(2 * e) * L], *gy = &godd[(2 * e + 1) * L];
      if (a < 0) SUB(ny, zero, gy);
      else memcpy(ny, gy, n);
      if (inf) {
        memcpy(x, gx, n);
        memcpy(y, ny, n);
        memcpy(z, c->p.one, n);
        inf = false;
      } else {
        inf = !jadd(x, y, z, gx, ny, NULL, NULL, NULL);
      }
    }
    if (b != 0) {
      const jac_cached *e = &tq[((b > 0 ? b : -b) - 1) / 2];
      if (b < 0) SUB(ny, zero, e->y);
      else memcpy(ny, e->y, n);
      if (inf) {
        memcpy(x, e->x, n);
        memcpy(y, ny, n);
        memcpy(z, e->z, n);
        inf = false;
      } else {
        inf = !jadd(x, y, z, e->x, ny, e->z, e->zz, e->zzz);
      }
    }
  }
  memset(r, 0, sizeof *r);
  if (inf) {
    memcpy(r->y, c->p.one, n); /* (0 : 1 : 0) */
  } else {
    /* Jacobian (X, Y, Z) to homogeneous (X Z : Y : Z^3). */
    MUL(ny, z, z);
    MUL(r->z, ny, z);
    MUL(r->x, x, z);
    memcpy(r->y, y, n);
  }
  return true;
}

#undef MUL
#undef ADD
#undef SUB

static __attribute__((noinline)) bool p256_double_mul(const ec_curve *c, ec_point *r,
                                                      const uint64_t *u1, const uint64_t *u2,
                                                      const ec_point *q, const uint64_t *godd) {
  return double_mul_jac_k(c, r, u1, u2, q, godd, 4, p256_mul, p256_fadd, p256_fsub, p256_jdbl,
                          p256_jadd);
}
static __attribute__((noinline)) bool p384_double_mul(const ec_curve *c, ec_point *r,
                                                      const uint64_t *u1, const uint64_t *u2,
                                                      const ec_point *q, const uint64_t *godd) {
  return double_mul_jac_k(c, r, u1, u2, q, godd, 6, p384_mul, p384_fadd, p384_fsub, p384_jdbl,
                          p384_jadd);
}

static __attribute__((noinline)) bool p521_double_mul(const ec_curve *c, ec_point *r,
                                                      const uint64_t *u1, const uint64_t *u2,
                                                      const ec_point *q, const uint64_t *godd) {
  return double_mul_jac_k(c, r, u1, u2, q, godd, 9, p521_mul, p521_fadd, p521_fsub, p521_jdbl,
                          p521_jadd);
}

void ec_double_mul_public(const ec_curve *c, ec_point *r, const uint64_t *u1, const uint64_t *u2,
                          const ec_point *q) {
  /* Public inputs: the branches below follow the curve and Q. */
  const uint64_t *godd = ec_base_odd(c);
  bool done = false;
  if (godd != NULL && c->id == FM_EC_P256) done = p256_double_mul(c, r, u1, u2, q, godd);
  else if (godd != NULL && c->id == FM_EC_P384) done = p384_double_mul(c, r, u1, u2, q, godd);
  else if (godd != NULL && c->id == FM_EC_P521) done = p521_double_mul(c, r, u1, u2, q, godd);
  if (!done) double_mul_projective(c, r, u1, u2, q);
}
