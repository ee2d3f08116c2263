/* The P-curves and their group law: complete projective formulas (Renes, Costello and Batina,
 * "Complete addition formulas for prime order elliptic curves", 2016, Algorithms 4 and 6 for
 * a = -3), so that no input, the point at infinity and P == Q included, needs a branch, with
 * chains of doublings in Jacobian coordinates on P-256, P-384 and P-521 (ec_point_dbl_n). The
 * constant-time scalar multiplications are in ec_scalar_mul.c, verification's variable-time
 * double multiplication in ec_verify.c. */
#include <string.h>

#include "module/ec/ec_curves.h"
#include "module/ec/ec_field_inline.h"
#include "module/ec/ec_group_inline.h"
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
 * fe_sub) stay inline on P-256 and P-384. P-521's are out-of-line copies except in its Jacobian
 * doubling, the hottest formula (ec_group_inline.h); P-224's, whose multiplication is the
 * portable one and costs several times a call, are out-of-line functions. Out-of-line copies keep
 * code off the library (code the load-time integrity check hashes at every load). */
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

/* Each curve's field multiplication is NAME_mul (EC_FE_OPS, ec_group_inline.h), with a portable
 * build here; fe_ops(NAME, L, MOD) adds NAME_add, that curve's complete addition. dbl_ops adds
 * NAME_dbl, the complete doubling, on P-224; dbln_ops adds NAME_dbln, the Jacobian
 * doubling chain of ec_point_dbl_n, on P-256, P-384 and P-521 (whose field operations are
 * ec_group_inline.h's), where it also does single doublings (8
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
EC_FE_OPS(p224, 4, &k_p224_p, p224_mul_portable, NO_MULX, NO_MULX, NO_SQR, CALLED_ADDSUB)
fe_ops(p256, 4, &k_p256_p)
fe_ops(p384, 6, &k_p384_p)
fe_ops(p224, 4, &k_p224_p)
fe_ops(p521, 9, &k_p521_p)
dbln_ops(p256, 4, &k_p256_p)
dbln_ops(p384, 6, &k_p384_p)
dbln_ops(p521, 9, &k_p521_p)
dbl_ops(p224, 4, &k_p224_p)

/* ec_path_name (module/internal.h) names the field products in use, for the start-up report
 * (mulx+adx: the assembly products of P-256, P-384 and P-521; mulx: P-256's BMI2 build, P-384
 * and P-521 portable; +ifma: the variable-base ladders of P-384 in radix 2^48 and P-521 in radix
 * 2^50 with AVX-512 IFMA, ec_p384_ifma.c and ec_p521_ifma.c, and P-521's verification); P-224
 * takes the portable product on every CPU. */
const char *ec_path_name(void) {
  const bool ifma = ec_ifma_in_use();
  if (!fm_cpu_use(FM_CPU_BMI2)) return ifma ? "portable+ifma" : "portable";
  if (!fm_cpu_use(FM_CPU_ADX)) return ifma ? "mulx+ifma" : "mulx";
  return ifma ? "mulx+adx+ifma" : "mulx+adx";
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
