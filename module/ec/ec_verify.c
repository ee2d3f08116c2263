/* ECDSA verification's double multiplication u1 G + u2 Q: public scalars and points, so VARIABLE
 * TIME. On P-256, P-384 and P-521 an interleaved wNAF (G's odd multiples from the fixed-base table's
 * build, affine) with Jacobian formulas; on P-224, or when Q's table meets the point at
 * infinity, the same interleaving with the complete projective group law of ec_point.c. */
#include <stdbool.h>
#include <string.h>

#include "module/ec/ec_base_table.h"
#include "module/ec/ec_group_inline.h"
#include "module/ec/internal.h"
#include "module/internal.h"

/* ---- Verification: public scalars, variable time ---------------------------------------- */

#define EC_WNAF_W 5                           /* digits odd, |digit| < 2^(W-1) */
#define EC_WNAF_ODD (1u << (EC_WNAF_W - 2))   /* odd multiples 1, 3, ..., 2^(W-1) - 1 */
#define EC_WNAF_MAX (64 * EC_MAX_LIMBS + 1)
#define EC_WNAF_G 9 /* G's width on P-256, P-384, P-521: odd multiples up to 255 G (ec_base_odd) */
/* Q's width in the Jacobian path is EC_WNAF_W on every curve: with Q's odd multiples affine
 * (one inversion for the table), width 6 on P-384 and P-521 counts more instructions than width 5
 * (callgrind, portable field products), the 8 more entries costing more than the additions the
 * wider digits save. */
_Static_assert(EC_BASE_ODD == 1u << (EC_WNAF_G - 2), "the odd multiples of G for width 9");

/* bits_public returns the |w| bits of k (limbs words) from bit |bit| up, those above the top word
 * read as zeros (w at most 9). */
static inline uint64_t bits_public(const uint64_t *k, unsigned limbs, unsigned bit, unsigned w) {
  const unsigned j = bit / 64, s = bit % 64;
  uint64_t v = j < limbs ? k[j] >> s : 0;
  if (s + w > 64 && j + 1 < limbs) v |= k[j + 1] << (64 - s);
  return v & ((1u << w) - 1);
}

/* wnaf_public writes the width-w non-adjacent form of a public k (limbs words, w at most 9):
 * digits d[i] in {0, +-1, +-3, ..., +-(2^(w-1) - 1)}, k = sum d[i] 2^i, at most one non-zero
 * digit in any w in a row. Returns the number of digits (at most 64 * limbs + 1). VARIABLE TIME:
 * the loop, the branches and the digits all follow k, so it is only for public scalars (ECDSA
 * verification's u1, u2).
 *
 * With t = (k >> i) + carry the value still to write from bit i: where t is even the digit is 0;
 * where it is odd the digit is t mod 2^w taken in (-2^(w-1), 2^(w-1)), read from the w bits at
 * i plus the carry, and t minus the digit is a multiple of 2^w, so the next w - 1 digits are 0
 * and the walk jumps w bits, carrying 1 where the digit was negative. A carry needs the window's
 * top bit set, so it lands at bit 64 * limbs at most. */
static unsigned wnaf_public(int16_t *d, const uint64_t *k, unsigned limbs, unsigned w) {
  const unsigned top = 64 * limbs;
  unsigned len = 0;
  uint64_t carry = 0;
  memset(d, 0, (top + 1) * sizeof *d);
  for (unsigned i = 0; i <= top;) {
    if (bits_public(k, limbs, i, 1) == carry) {
      i++;
      continue;
    }
    int digit = (int)(bits_public(k, limbs, i, w) + carry);
    carry = (uint64_t)(digit >> (w - 1)) & 1;
    digit -= (int)(carry << w);
    d[i] = (int16_t)digit;
    len = i + 1;
    i += w;
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
  int16_t d1[EC_WNAF_MAX], d2[EC_WNAF_MAX];
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
  point_set_infinity(c, &acc);
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
/* P-521's subtraction inline (its fe_sub is an out-of-line copy); the other curves' are inline. */
#define SUB(r, a, b)                                                                           \
  do {                                                                                         \
    if (L == 9) p521_sub_k(r, a, b);                                                           \
    else fe_sub(r, a, b);                                                                      \
  } while (0)

/* A Jacobian point (X, Y, Z) is the affine (X / Z^2, Y / Z^3). 2Q, and Q's odd multiples where
 * they stay Jacobian, are kept with Z^2 and Z^3 beside them, which each addition of one uses. */
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

/* double_mul_jac_k is ec_double_mul_public on P-256, P-384, P-521. VARIABLE TIME, for public
 * inputs only (ECDSA verification: u1, u2 and Q are all public). Straus-Shamir interleaving of u1
 * in width-9 NAF and u2 in width-5 NAF with one chain of Jacobian doublings; G's 128 odd multiples
 * are affine (ec_base_odd, built with the fixed-base table), and Q's 8 are made affine with one
 * variable-time inversion on P-384 and P-521 (and on P-256 where its assembly mixed addition
 * runs), so each digit there costs a mixed addition: the assembly one on P-256 and P-384 with
 * BMI2 and ADX (add_affine_public below). On P-384 and P-521 with AVX-512 IFMA the digit loop
 * runs in ec_p384_ifma.c or ec_p521_ifma.c (ec_ifma_ladder.inc's verification loop).
 * Returns false, with nothing written, when Q's table meets the point at infinity (Q is not a
 * point of order n): the caller then takes the projective path. */
typedef void (*jac_dbl_fn)(uint64_t *x, uint64_t *y, uint64_t *z);
typedef bool (*jac_add_fn)(uint64_t *x, uint64_t *y, uint64_t *z, const uint64_t *x2,
                           const uint64_t *y2, const uint64_t *z2, const uint64_t *zz2,
                           const uint64_t *zzz2);

/* The curve's assembly doubling (of a given count), where it has one: P-256's and P-384's, taken
 * when the CPU has BMI2 and ADX. */
#define NO_JDBL_ASM ((void (*)(uint64_t *, uint64_t *, uint64_t *, uint64_t))NULL)

/* The curve's Jacobian doubling and addition, out of line: verification calls each from several
 * places (and ec_scalar_mul.c's variable-base multiplication the doubling), and one copy per curve
 * keeps the loaded image (hashed at every load) small. */
#define JAC_FNS(NAME, L, DBL_ASM)                                                              \
  __attribute__((noinline)) void ec_##NAME##_jdbl(uint64_t *x, uint64_t *y, uint64_t *z) {     \
    /* The CPU's features are public. */                                                       \
    if (DBL_ASM != NULL && fm_cpu_use(FM_CPU_BMI2 | FM_CPU_ADX)) DBL_ASM(x, y, z, 1);          \
    else jac_dbl_k(x, y, z, L, NAME##_mul, NAME##_fadd, NAME##_fsub);                         \
  }                                                                                            \
  static __attribute__((noinline)) bool NAME##_jadd(                                          \
      uint64_t *x, uint64_t *y, uint64_t *z, const uint64_t *x2, const uint64_t *y2,           \
      const uint64_t *z2, const uint64_t *zz2, const uint64_t *zzz2) {                         \
    return jac_add_k(x, y, z, x2, y2, z2, zz2, zzz2, L, NAME##_mul, NAME##_fadd, NAME##_fsub); \
  }
JAC_FNS(p256, 4, EC_ASM_FN(ec_p256_jdbl_n_adx))
JAC_FNS(p384, 6, EC_ASM_FN(ec_p384_jdbl_n_adx))
JAC_FNS(p521, 9, NO_JDBL_ASM)

/* The curve's assembly mixed addition (ec_p256_jmadd_adx, ec_p384_jmadd_adx), or NULL. */
typedef void (*jac_madd_asm_fn)(ec_point *r, const ec_point *p, const uint64_t *x2,
                                const uint64_t *y2);

/* add_affine_public sets pt = pt + (x2, y2) for the Jacobian pt, not the point at infinity, and
 * the affine (x2, y2); returns false when the sum is the point at infinity. With use_asm, the
 * assembly's mixed addition into sum, which is wrong only where pt is (x2, y2) or its negation:
 * there its Z, Z1 H, is 0 (Z1 is not), and jadd, which tells the two apart, redoes the addition.
 * VARIABLE TIME, for public points. */
static inline __attribute__((always_inline)) bool add_affine_public(
    ec_point *pt, ec_point *sum, const uint64_t *x2, const uint64_t *y2, const unsigned L,
    const bool use_asm, const jac_madd_asm_fn madd_asm, const jac_add_fn jadd) {
  if (use_asm) {
    madd_asm(sum, pt, x2, y2);
    if (!limbs_zero_public(sum->z, L)) {
      const size_t n = L * sizeof(uint64_t);
      memcpy(pt->x, sum->x, n);
      memcpy(pt->y, sum->y, n);
      memcpy(pt->z, sum->z, n);
      return true;
    }
  }
  return jadd(pt->x, pt->y, pt->z, x2, y2, NULL, NULL, NULL);
}

static inline __attribute__((always_inline)) bool double_mul_jac_k(
    const ec_curve *c, ec_point *r, const uint64_t *u1, const uint64_t *u2, const ec_point *q,
    const uint64_t *godd, const unsigned L, const fe_mul_fn fe_mul, const fe_mul_fn fe_add,
    const fe_mul_fn fe_sub, const jac_dbl_fn jdbl, const jac_add_fn jadd,
    const jac_madd_asm_fn madd_asm) {
  (void)fe_add; /* the MUL and SUB macros take fe_mul and fe_sub; additions are in jdbl/jadd */
  static const uint64_t zero[EC_MAX_LIMBS] = {0};
  const size_t n = L * sizeof(uint64_t);
  const unsigned odd_q = EC_WNAF_ODD;
  /* The CPU's features are public. */
  const bool use_asm = madd_asm != NULL && fm_cpu_use(FM_CPU_BMI2 | FM_CPU_ADX);
  /* Q's odd multiples affine on P-384 and P-521, and on P-256 where its assembly mixed addition
   * runs; on P-256 otherwise, where the inversion costs more than the C mixed additions save
   * (timed), Jacobian with Z^2 and Z^3 at hand. */
  const bool affine_q = L != 4 || use_asm;
  jac_cached q2, tq[EC_WNAF_ODD];
  uint64_t acc[EC_WNAF_ODD][EC_MAX_LIMBS], inv[EC_MAX_LIMBS], zi[EC_MAX_LIMBS],
      zi2[EC_MAX_LIMBS];
  ec_point pt, sum;
  uint64_t *const x = pt.x, *const y = pt.y, *const z = pt.z;
  uint64_t ny[EC_MAX_LIMBS];
  int16_t d1[EC_WNAF_MAX], d2[EC_WNAF_MAX];
  if (limbs_zero_public(q->z, L)) return false;
  /* Q's homogeneous (X : Y : Z) is the Jacobian (X Z, Y Z^2, Z). */
  MUL(q2.zz, q->z, q->z);
  MUL(tq[0].x, q->x, q->z);
  MUL(tq[0].y, q->y, q2.zz);
  memcpy(tq[0].z, q->z, n);
  /* 2Q, then (2i + 1) Q = (2i - 1) Q + 2Q, in Jacobian coordinates. */
  memcpy(q2.x, tq[0].x, n);
  memcpy(q2.y, tq[0].y, n);
  memcpy(q2.z, tq[0].z, n);
  jdbl(q2.x, q2.y, q2.z);
  MUL(q2.zz, q2.z, q2.z);
  MUL(q2.zzz, q2.zz, q2.z);
  for (unsigned i = 1; i < odd_q; i++) {
    tq[i] = tq[i - 1];
    if (!jadd(tq[i].x, tq[i].y, tq[i].z, q2.x, q2.y, q2.z, q2.zz, q2.zzz)) return false;
  }
  if (!affine_q) {
    for (unsigned i = 0; i < odd_q; i++) {
      MUL(tq[i].zz, tq[i].z, tq[i].z);
      MUL(tq[i].zzz, tq[i].zz, tq[i].z);
    }
  }
  /* The odd multiples to affine with one inversion (Montgomery's trick): acc[i] is the product
   * of Z_0 .. Z_i, none of them zero (no entry is the point at infinity); walking down from
   * inv = acc[k-1]^-1, Z_i^-1 = inv acc[i-1], then inv = inv Z_i drops Z_i. Q is public, so
   * the inverse is the variable-time one. Each digit of u2 then costs a mixed addition. */
  if (affine_q) memcpy(acc[0], tq[0].z, n);
  for (unsigned i = 1; affine_q && i < odd_q; i++) MUL(acc[i], acc[i - 1], tq[i].z);
  if (affine_q) ec_mod_inv_public(c, &c->p, inv, acc[odd_q - 1]);
  for (unsigned i = odd_q; affine_q && i-- > 0;) {
    if (i > 0) {
      MUL(zi, inv, acc[i - 1]);
      MUL(inv, inv, tq[i].z);
    } else {
      memcpy(zi, inv, n);
    }
    MUL(zi2, zi, zi);
    MUL(tq[i].x, tq[i].x, zi2);
    MUL(zi2, zi2, zi);
    MUL(tq[i].y, tq[i].y, zi2);
  }
  const unsigned len1 = wnaf_public(d1, u1, L, EC_WNAF_G), len2 = wnaf_public(d2, u2, L, EC_WNAF_W);
  const unsigned len = len1 > len2 ? len1 : len2;
  bool inf = true; /* (x, y, z) is the point at infinity: its coordinates are not used */
  int top = (int)len - 1;
#if FM_HAVE_X86_64_PATHS
  /* P-384 and P-521 with AVX-512 IFMA: the digit loop in radix 2^48 (ec_p384_ifma.c) or 2^50
   * (ec_p521_ifma.c), on the affine odd multiples of Q made above. The curve and the CPU's
   * features are public. */
  if ((L == 6 || L == 9) && ec_ifma_in_use()) {
    _Static_assert(EC_WNAF_ODD == 8, "the IFMA digit loops take Q's eight odd multiples");
    uint64_t qodd[EC_WNAF_ODD * 2 * 9];
    for (unsigned i = 0; i < odd_q; i++) {
      memcpy(&qodd[(2 * i) * L], tq[i].x, n);
      memcpy(&qodd[(2 * i + 1) * L], tq[i].y, n);
    }
    if (L == 6) inf = !ec_p384_double_mul_ifma(x, y, z, d1, len1, d2, len2, godd, qodd);
    else inf = !ec_p521_double_mul_ifma(x, y, z, d1, len1, d2, len2, godd, qodd);
    top = -1; /* no digit left for the loop below */
  }
#endif
  for (int i = top; i >= 0; i--) {
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
        inf = !add_affine_public(&pt, &sum, gx, ny, L, use_asm, madd_asm, jadd);
      }
    }
    if (b != 0) {
      /* Entry e of Q's odd multiples is (2e + 1) Q. */
      const jac_cached *e = &tq[((b > 0 ? b : -b) - 1) / 2];
      if (b < 0) SUB(ny, zero, e->y);
      else memcpy(ny, e->y, n);
      if (inf) {
        memcpy(x, e->x, n);
        memcpy(y, ny, n);
        memcpy(z, affine_q ? c->p.one : e->z, n);
        inf = false;
      } else if (affine_q) {
        inf = !add_affine_public(&pt, &sum, e->x, ny, L, use_asm, madd_asm, jadd);
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
  return double_mul_jac_k(c, r, u1, u2, q, godd, 4, p256_mul, p256_fadd, p256_fsub, ec_p256_jdbl,
                          p256_jadd, EC_ASM_FN(ec_p256_jmadd_adx));
}
static __attribute__((noinline)) bool p384_double_mul(const ec_curve *c, ec_point *r,
                                                      const uint64_t *u1, const uint64_t *u2,
                                                      const ec_point *q, const uint64_t *godd) {
  return double_mul_jac_k(c, r, u1, u2, q, godd, 6, p384_mul, p384_fadd, p384_fsub, ec_p384_jdbl,
                          p384_jadd, EC_ASM_FN(ec_p384_jmadd_adx));
}

static __attribute__((noinline)) bool p521_double_mul(const ec_curve *c, ec_point *r,
                                                      const uint64_t *u1, const uint64_t *u2,
                                                      const ec_point *q, const uint64_t *godd) {
  return double_mul_jac_k(c, r, u1, u2, q, godd, 9, p521_mul, p521_fadd, p521_fsub, ec_p521_jdbl,
                          p521_jadd, NULL);
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
