/* The x86-64 field and point kernels of module/ec/ against portable references: the BMI2 build
 * of the P-256 product (ec_field_mulx.c), the ADX assembly's P-256 and P-384 products and squares
 * (ec_p256_jac_adx.c, ec_p384_jac_adx.c), and their Jacobian doubling and mixed addition against
 * formulas on the portable ec_mod_mul, on edge operands and random ones; P-521's variable-base
 * multiplication (the AVX-512 IFMA ladder of ec_p521_ifma.c where it runs) against the complete
 * formulas, on edge scalars and random ones. Each case runs whenever
 * the CPU has the kernel's features, whatever FIPSMOD_CPU says; elsewhere (no such CPU, aarch64)
 * it says there is nothing to compare. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fipsmod/ec.h"
#include "fipsmod/module.h"
#include "module/ec/internal.h"
#include "module/internal.h"
#include "tests/common/test_util.h"
#include "tests/ec/ec_test_util.h"

#if defined(__x86_64__)
/* ref_mul is the portable Montgomery product modulo p: ec_mod_mul on a copy of the curve's p,
 * which ec_mod_mul does not take for the curve's own (where it may call the kernels under test,
 * x86-64 only). */
static void ref_mul(const ec_curve *c, uint64_t *r, const uint64_t *a, const uint64_t *b) {
  const ec_mod m = c->p;
  ec_mod_mul(c, &m, r, a, b);
}
#endif

#if defined(__x86_64__)
/* edge_values fills v with field elements of the curve c for the assembly's tests: d and
 * p - 1 - d for d < 4, 2^(bits-1) and 2^(bits-1) - 1, R mod p and R^2 mod p, p's words with one
 * word lowered (values just below p in each word), and random values below p; returns their count
 * (24). */
static unsigned edge_values(const ec_curve *c, test_rng *rng, uint64_t v[24][EC_MAX_LIMBS]) {
  const uint64_t zero[EC_MAX_LIMBS] = {0};
  const unsigned L = c->limbs;
  memset(v, 0, 24 * sizeof v[0]);
  unsigned nv = 0;
  for (uint64_t d = 0; d < 4; d++) { /* d and p - 1 - d */
    v[nv][0] = d;
    nv++;
    v[nv][0] = d + 1;
    ec_mod_sub(c, &c->p, v[nv], zero, v[nv]);
    nv++;
  }
  v[nv][(c->bits - 1) / 64] = (uint64_t)1 << ((c->bits - 1) % 64); /* 2^(bits-1), minus 1 */
  nv++;
  for (unsigned b = 0; b + 1 < c->bits; b++) v[nv][b / 64] |= (uint64_t)1 << (b % 64);
  nv++;
  memcpy(v[nv++], c->p.one, sizeof v[0]);
  memcpy(v[nv++], c->p.rr, sizeof v[0]);
  /* p's words with one word lowered: values just below p in each word (the first six). */
  for (unsigned j = 0; j < L && j < 6; j++) {
    memcpy(v[nv], c->p.m, sizeof v[0]);
    unsigned w = j;
    while (v[nv][w] == 0) w++; /* a zero word: lower the next one (p's top word is not zero) */
    v[nv][w] -= 1;
    nv++;
  }
  while (nv < 24) {
    uint8_t b[EC_MAX_BYTES];
    uint64_t t[EC_MAX_LIMBS] = {0};
    test_rng_bytes(rng, b, c->bytes);
    ec_limbs_from_be(L, t, b, c->bytes);
    if (ec_limbs_lt(L, t, c->p.m)) memcpy(v[nv++], t, sizeof t);
  }
  return nv;
}
#endif

/* The BMI2 build of the P-256 field multiplication (ec_field_mulx.c) and the ADX assembly of
 * P-256 (ec_p256_jac_adx.c) and of P-384 (ec_p384_jac_adx.c, its square too) against the portable
 * ec_mod_mul (given a copy of p), on edge operands (0, 1, p-1, p-2, R mod p, 2^(bits-1) - 1,
 * all-ones words, words with zero low halves) and random ones, then on 20000 random pairs,
 * whenever the CPU has the kernel's features, whatever FIPSMOD_CPU says; ec_mod_mul with the
 * curve's own p (which takes P-384's assembly where the module uses ADX) on the edge operands
 * too. */
static void test_field_mulx(void) {
#if !defined(__x86_64__)
  printf("test_ec_asm.field_mulx: the BMI2 builds are x86-64 only, nothing to compare\n");
  return;
#else
  test_rng rng;
  test_rng_seed(&rng, "test_ec_asm.field_mulx");
  const struct {
    fm_ec_curve id;
    void (*mul)(uint64_t *, const uint64_t *, const uint64_t *);
    int adx;
    void (*sqr)(uint64_t *, const uint64_t *); /* the kernel's square, or NULL */
  } k[] = {{FM_EC_P256, ec_p256_mul_mulx, 0, NULL},
           {FM_EC_P256, ec_p256_mul_adx, 1, NULL},
           {FM_EC_P384, ec_p384_mul_adx, 1, ec_p384_sqr_adx}};
  /* The CPU's features as the module detected them (clang 14's __builtin_cpu_supports knows no
   * "adx"), whatever FIPSMOD_CPU says. */
  uint32_t detected = 0;
  CHECK_EQ_INT(fm_module_cpu_features(&detected, NULL), FM_OK);
  for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
    if (!(detected & FM_CPU_BMI2) || (k[i].adx && !(detected & FM_CPU_ADX))) {
      printf("test_ec_asm.field_mulx: kernel %zu: the CPU lacks its features, nothing to compare\n", i);
      continue;
    }
    const ec_curve *c = ec_curve_get(k[i].id);
    /* A copy of p: ec_mod_mul takes the generic product for it, never P-384's own. */
    const ec_mod pm = c->p;
    uint64_t v[16][EC_MAX_LIMBS] = {{0}};
    const uint64_t zero[EC_MAX_LIMBS] = {0};
    v[1][0] = 1;
    v[2][0] = 1;
    ec_mod_sub(c, &c->p, v[2], zero, v[2]); /* p - 1 */
    v[3][0] = 2;
    ec_mod_sub(c, &c->p, v[3], zero, v[3]); /* p - 2 */
    memcpy(v[4], c->p.one, sizeof v[4]);
    for (unsigned b = 0; b + 1 < c->bits; b++) v[5][b / 64] |= (uint64_t)1 << (b % 64);
    for (unsigned j = 0; j + 1 < c->limbs; j++) v[6][j] = ~(uint64_t)0;
    for (unsigned e = 7; e < 16; e++) {
      uint8_t b[EC_MAX_BYTES];
      test_rng_bytes(&rng, b, c->bytes);
      b[0] &= 0x7f; /* below p (p's top bit is set) */
      ec_limbs_from_be(c->limbs, v[e], b, c->bytes);
    }
    /* Words whose low halves are zero, which the P-384 reduction's shifts meet as t0 << 32 = 0:
     * 2^32 (every product's low word by it), 2^16 (its square's), and a random value with the
     * low half of every word cleared. */
    memset(v[13], 0, sizeof v[13]);
    v[13][0] = UINT64_C(1) << 32;
    memset(v[14], 0, sizeof v[14]);
    v[14][0] = UINT64_C(1) << 16;
    for (unsigned j = 0; j < c->limbs; j++) v[15][j] &= UINT64_C(0xffffffff00000000);
    for (unsigned x = 0; x < 16; x++) {
      for (unsigned y = 0; y < 16; y++) {
        uint64_t want[EC_MAX_LIMBS], got[EC_MAX_LIMBS];
        ec_mod_mul(c, &pm, want, v[x], v[y]);
        k[i].mul(got, v[x], v[y]);
        CHECK(ec_limbs_eq(c->limbs, got, want) != 0);
        ec_mod_mul(c, &c->p, got, v[x], v[y]);
        CHECK(ec_limbs_eq(c->limbs, got, want) != 0);
      }
      if (k[i].sqr != NULL) {
        uint64_t want[EC_MAX_LIMBS], got[EC_MAX_LIMBS];
        ec_mod_mul(c, &pm, want, v[x], v[x]);
        k[i].sqr(got, v[x]);
        CHECK(ec_limbs_eq(c->limbs, got, want) != 0);
      }
    }
    /* Random operands below p, chained: each product feeds the next. */
    uint64_t a[EC_MAX_LIMBS], b[EC_MAX_LIMBS], want[EC_MAX_LIMBS], got[EC_MAX_LIMBS];
    memcpy(a, v[7], sizeof a);
    memcpy(b, v[8], sizeof b);
    for (unsigned n = 0; n < 20000; n++) {
      ec_mod_mul(c, &pm, want, a, b);
      k[i].mul(got, a, b);
      if (!ec_limbs_eq(c->limbs, got, want)) {
        CHECK(0);
        break;
      }
      if (k[i].sqr != NULL) {
        uint64_t want2[EC_MAX_LIMBS], got2[EC_MAX_LIMBS];
        ec_mod_mul(c, &pm, want2, a, a);
        k[i].sqr(got2, a);
        if (!ec_limbs_eq(c->limbs, got2, want2)) {
          CHECK(0);
          break;
        }
      }
      memcpy(a, b, sizeof a);
      memcpy(b, got, sizeof b);
      if (n % 64 == 0) { /* fresh random input now and then, and p - 1 */
        uint8_t r[EC_MAX_BYTES];
        test_rng_bytes(&rng, r, c->bytes);
        r[0] &= 0x7f;
        ec_limbs_from_be(c->limbs, b, r, c->bytes);
        if (n % 128 == 0) memcpy(a, v[2], sizeof a);
      }
    }
  }
#endif
}

/* The P-256 ADX kernels (ec_p256_jac_adx.c) against the portable ec_mod_mul over the whole range
 * [0, p): the square and the product on the operands next to 0, to 2^255 and to p (each word
 * at its extremes), then on 20000 random operands below p, whenever the CPU has BMI2 and ADX. */
static void test_field_p256_adx(void) {
#if !defined(__x86_64__)
  printf("test_ec_asm.field_p256_adx: the ADX kernels are x86-64 only, nothing to compare\n");
  return;
#else
  uint32_t detected = 0;
  CHECK_EQ_INT(fm_module_cpu_features(&detected, NULL), FM_OK);
  if (!(detected & FM_CPU_BMI2) || !(detected & FM_CPU_ADX)) {
    printf("test_ec_asm.field_p256_adx: the CPU lacks BMI2 or ADX, nothing to compare\n");
    return;
  }
  test_rng rng;
  test_rng_seed(&rng, "test_ec_asm.field_p256_adx");
  const ec_curve *c = ec_curve_get(FM_EC_P256);
  uint64_t v[24][EC_MAX_LIMBS];
  const unsigned nv = edge_values(c, &rng, v);
  for (unsigned x = 0; x < nv; x++) {
    uint64_t want[EC_MAX_LIMBS] = {0}, got[EC_MAX_LIMBS] = {0};
    ref_mul(c, want, v[x], v[x]);
    ec_p256_sqr_adx(got, v[x]);
    CHECK(ec_limbs_eq(4, got, want) != 0);
    for (unsigned y = 0; y < nv; y++) {
      ref_mul(c, want, v[x], v[y]);
      ec_p256_mul_adx(got, v[x], v[y]);
      CHECK(ec_limbs_eq(4, got, want) != 0);
    }
  }
  for (unsigned n = 0; n < 20000; n++) {
    uint8_t b[64];
    uint64_t a[EC_MAX_LIMBS] = {0}, bb[EC_MAX_LIMBS] = {0}, want[EC_MAX_LIMBS] = {0},
             got[EC_MAX_LIMBS] = {0};
    test_rng_bytes(&rng, b, sizeof b);
    ec_limbs_from_be(4, a, b, 32);
    ec_limbs_from_be(4, bb, b + 32, 32);
    if (!ec_limbs_lt(4, a, c->p.m) || !ec_limbs_lt(4, bb, c->p.m)) continue;
    ref_mul(c, want, a, a);
    ec_p256_sqr_adx(got, a);
    if (!ec_limbs_eq(4, got, want)) {
      CHECK(0);
      break;
    }
    ref_mul(c, want, a, bb);
    ec_p256_mul_adx(got, a, bb);
    if (!ec_limbs_eq(4, got, want)) {
      CHECK(0);
      break;
    }
  }
#endif
}

#if defined(__x86_64__)
/* The reference formulas for test_jac_adx, from the generic field operations on a copy of the
 * curve's p (never the assembly under test): the textbook dbl-2001-b doubling (a = -3) and the
 * madd-2004-hmv mixed addition, in the order of neither implementation. */
static void ref_add(const ec_curve *c, uint64_t *r, const uint64_t *a, const uint64_t *b) {
  const ec_mod m = c->p;
  ec_mod_add(c, &m, r, a, b);
}
static void ref_sub(const ec_curve *c, uint64_t *r, const uint64_t *a, const uint64_t *b) {
  const ec_mod m = c->p;
  ec_mod_sub(c, &m, r, a, b);
}
static void ref_jdbl(const ec_curve *c, uint64_t *x, uint64_t *y, uint64_t *z) {
  uint64_t delta[EC_MAX_LIMBS], gamma[EC_MAX_LIMBS], beta[EC_MAX_LIMBS], alpha[EC_MAX_LIMBS],
      t[EC_MAX_LIMBS], u[EC_MAX_LIMBS], x3[EC_MAX_LIMBS], y3[EC_MAX_LIMBS], z3[EC_MAX_LIMBS];
  ref_mul(c, delta, z, z);
  ref_mul(c, gamma, y, y);
  ref_mul(c, beta, x, gamma);
  ref_sub(c, t, x, delta);
  ref_add(c, u, x, delta);
  ref_mul(c, alpha, t, u);
  ref_add(c, t, alpha, alpha);
  ref_add(c, alpha, t, alpha); /* 3 (X - delta)(X + delta) */
  ref_mul(c, x3, alpha, alpha);
  ref_add(c, t, beta, beta);
  ref_add(c, t, t, t);
  ref_add(c, u, t, t); /* 8 beta */
  ref_sub(c, x3, x3, u);
  ref_add(c, t, y, z);
  ref_mul(c, z3, t, t);
  ref_sub(c, z3, z3, gamma);
  ref_sub(c, z3, z3, delta); /* (Y + Z)^2 - gamma - delta */
  ref_add(c, t, beta, beta);
  ref_add(c, t, t, t); /* 4 beta */
  ref_sub(c, t, t, x3);
  ref_mul(c, y3, alpha, t);
  ref_mul(c, u, gamma, gamma);
  ref_add(c, u, u, u);
  ref_add(c, u, u, u);
  ref_add(c, u, u, u); /* 8 gamma^2 */
  ref_sub(c, y3, y3, u);
  memcpy(x, x3, sizeof x3);
  memcpy(y, y3, sizeof y3);
  memcpy(z, z3, sizeof z3);
}
static void ref_jmadd(const ec_curve *c, ec_point *r, const ec_point *p, const uint64_t *x2,
                      const uint64_t *y2) {
  uint64_t zz[EC_MAX_LIMBS], u2[EC_MAX_LIMBS], s2[EC_MAX_LIMBS], h[EC_MAX_LIMBS],
      rr[EC_MAX_LIMBS], hh[EC_MAX_LIMBS], hhh[EC_MAX_LIMBS], v[EC_MAX_LIMBS], t[EC_MAX_LIMBS];
  ec_point out;
  memset(&out, 0, sizeof out);
  ref_mul(c, zz, p->z, p->z);
  ref_mul(c, u2, x2, zz);
  ref_mul(c, t, zz, p->z);
  ref_mul(c, s2, y2, t);
  ref_sub(c, h, u2, p->x);
  ref_sub(c, rr, s2, p->y);
  ref_mul(c, hh, h, h);
  ref_mul(c, hhh, hh, h);
  ref_mul(c, v, p->x, hh);
  ref_mul(c, out.x, rr, rr);
  ref_add(c, t, v, v);
  ref_add(c, t, t, hhh);
  ref_sub(c, out.x, out.x, t); /* R^2 - (H^3 + 2 V) */
  ref_sub(c, t, v, out.x);
  ref_mul(c, out.y, rr, t);
  ref_mul(c, t, p->y, hhh);
  ref_sub(c, out.y, out.y, t);
  ref_mul(c, out.z, p->z, h);
  *r = out;
}
#endif

/* The Jacobian doubling and mixed addition in assembly of P-256 (ec_p256_jac_adx.c) and P-384
 * (ec_p384_jac_adx.c) against the reference formulas above, on coordinates drawn from edge_values
 * (0, 1, p - 1, words just below p's, R mod p, ...) and random ones: the formulas are identities
 * of the field, so they must agree word for word on any coordinates below p, points of the curve
 * or not. The addition is also run in place (r = p). Then the doubling loop and the addition on
 * points of the curve, against ec_point_add. Wherever the CPU has BMI2 and ADX, whatever
 * FIPSMOD_CPU says. */
static void test_jac_adx(void) {
#if !defined(__x86_64__)
  printf("test_ec_asm.jac_adx: the assembly is x86-64 only, nothing to compare\n");
  return;
#else
  uint32_t detected = 0;
  CHECK_EQ_INT(fm_module_cpu_features(&detected, NULL), FM_OK);
  if (!(detected & FM_CPU_BMI2) || !(detected & FM_CPU_ADX)) {
    printf("test_ec_asm.jac_adx: the CPU lacks BMI2 or ADX, nothing to compare\n");
    return;
  }
  test_rng rng;
  test_rng_seed(&rng, "test_ec_asm.jac_adx");
  const struct {
    fm_ec_curve id;
    void (*dbl_n)(uint64_t *, uint64_t *, uint64_t *, uint64_t);
    void (*madd)(ec_point *, const ec_point *, const uint64_t *, const uint64_t *);
  } k[] = {{FM_EC_P256, ec_p256_jdbl_n_adx, ec_p256_jmadd_adx},
           {FM_EC_P384, ec_p384_jdbl_n_adx, ec_p384_jmadd_adx}};
  for (size_t ci = 0; ci < sizeof k / sizeof k[0]; ci++) {
    const ec_curve *c = ec_curve_get(k[ci].id);
    const unsigned L = c->limbs;
    uint64_t v[24][EC_MAX_LIMBS];
    const unsigned nv = edge_values(c, &rng, v);
    unsigned failed = 0;
    for (unsigned n = 0; n < 4000 && failed == 0; n++) {
      if (n % 24 == 23) (void)edge_values(c, &rng, v); /* fresh random values, same edges */
      ec_point p, want, got;
      uint64_t x2[EC_MAX_LIMBS], y2[EC_MAX_LIMBS];
      memset(&p, 0, sizeof p);
      memcpy(p.x, v[test_rng_below(&rng, nv)], sizeof p.x);
      memcpy(p.y, v[test_rng_below(&rng, nv)], sizeof p.y);
      memcpy(p.z, v[test_rng_below(&rng, nv)], sizeof p.z);
      memcpy(x2, v[test_rng_below(&rng, nv)], sizeof x2);
      memcpy(y2, v[test_rng_below(&rng, nv)], sizeof y2);
      want = p;
      got = p;
      ref_jdbl(c, want.x, want.y, want.z);
      k[ci].dbl_n(got.x, got.y, got.z, 1);
      failed += !ec_limbs_eq(L, got.x, want.x) || !ec_limbs_eq(L, got.y, want.y) ||
                !ec_limbs_eq(L, got.z, want.z);
      ref_jmadd(c, &want, &p, x2, y2);
      memset(&got, 0, sizeof got);
      k[ci].madd(&got, &p, x2, y2);
      failed += !ec_limbs_eq(L, got.x, want.x) || !ec_limbs_eq(L, got.y, want.y) ||
                !ec_limbs_eq(L, got.z, want.z);
      k[ci].madd(&p, &p, x2, y2); /* in place */
      failed += !ec_limbs_eq(L, p.x, want.x) || !ec_limbs_eq(L, p.y, want.y) ||
                !ec_limbs_eq(L, p.z, want.z);
    }
    if (failed != 0) printf("test_ec_asm.jac_adx: P-%u differs\n", c->bits);
    CHECK_EQ_INT((int)failed, 0);
    /* On the curve: Q = kG, then 2^5 Q + G by the assembly in Jacobian coordinates (the loop of
     * five doublings; a count of 0 changes nothing), against the complete formulas
     * (ec_point_add) on the homogeneous points. */
    for (int round = 0; round < 8; round++) {
      uint64_t kk[EC_MAX_LIMBS];
      ec_test_random_scalar(&rng, c, kk);
      ec_point q, jac, want, g;
      uint64_t qx[EC_MAX_LIMBS], qy[EC_MAX_LIMBS], ax[EC_MAX_LIMBS], ay[EC_MAX_LIMBS],
          wx[EC_MAX_LIMBS], wy[EC_MAX_LIMBS];
      ec_scalar_mul_base(c, &q, kk);
      CHECK(ec_point_to_affine(c, qx, qy, &q) != 0);
      ec_point_set_affine(c, &jac, qx, qy); /* Z = 1: Jacobian and homogeneous alike */
      want = jac;
      ec_point same = jac;
      k[ci].dbl_n(same.x, same.y, same.z, 0); /* no doubling */
      CHECK(memcmp(&same, &jac, sizeof same) == 0);
      k[ci].dbl_n(jac.x, jac.y, jac.z, 5);
      for (int i = 0; i < 5; i++) ec_point_add(c, &want, &want, &want);
      k[ci].madd(&jac, &jac, c->gx, c->gy);
      ec_point_set_affine(c, &g, c->gx, c->gy);
      ec_point_add(c, &want, &want, &g);
      /* Jacobian (X, Y, Z) is (X Z, Y, Z^3) homogeneous. */
      uint64_t zz[EC_MAX_LIMBS];
      ref_mul(c, zz, jac.z, jac.z);
      ref_mul(c, jac.x, jac.x, jac.z);
      ref_mul(c, jac.z, zz, jac.z);
      CHECK(ec_point_to_affine(c, ax, ay, &jac) != 0);
      CHECK(ec_point_to_affine(c, wx, wy, &want) != 0);
      CHECK(ec_limbs_eq(L, ax, wx) != 0);
      CHECK(ec_limbs_eq(L, ay, wy) != 0);
    }
  }
#endif
}

/* ref_scalar_mul sets r = k p by binary double-and-add on the complete formulas (ec_point_add),
 * from the top bit: no window, no table, no Jacobian formula. */
static void ref_scalar_mul(const ec_curve *c, ec_point *r, const uint64_t *k, const ec_point *p) {
  ec_point acc;
  memset(&acc, 0, sizeof acc);
  memcpy(acc.y, c->p.one, sizeof acc.y); /* the point at infinity (0 : 1 : 0) */
  for (unsigned i = c->bits; i-- > 0;) {
    ec_point_add(c, &acc, &acc, &acc);
    if ((k[i / 64] >> (i % 64)) & 1) ec_point_add(c, &acc, &acc, p);
  }
  *r = acc;
}

/* ladder_vs_reference: k P by ec_scalar_mul_affine (with AVX-512 IFMA in use, the IFMA ladder of
 * ec_p384_ifma.c or ec_p521_ifma.c; otherwise the ADX or portable windows, which the -portable
 * run also takes) against ref_scalar_mul on |curve|, for P = G and two random points, and scalars
 * at the edges of the signed 5-bit digits (0, small values, n - 1 and its neighbours, 2^(bits-1)
 * and 2^(bits-1) - 1, runs of digits 16 and 0, long runs of ones) and 24 random ones. */
static void ladder_vs_reference(const char *name, fm_ec_curve curve) {
  const ec_curve *c = ec_curve_get(curve);
  const unsigned L = c->limbs, top = c->bits - 1;
  test_rng rng;
  test_rng_seed(&rng, name);
  printf("%s: %s\n", name, ec_ifma_in_use() ? "the AVX-512 IFMA ladder" : "the windows without IFMA");
  enum { EDGES = 16 };
  uint64_t k[EDGES + 24][EC_MAX_LIMBS];
  memset(k, 0, sizeof k);
  const uint64_t small[] = {0, 1, 2, 15, 16, 17, 31, 32, 33};
  unsigned nk = 0;
  for (size_t i = 0; i < sizeof small / sizeof small[0]; i++) k[nk++][0] = small[i];
  for (uint64_t d = 1; d <= 3; d++) { /* n - d */
    memcpy(k[nk], c->n.m, sizeof k[nk]);
    k[nk++][0] -= d;
  }
  k[nk++][top / 64] = UINT64_C(1) << (top % 64); /* 2^(bits-1) */
  for (unsigned j = 0; j < top / 64; j++) k[nk][j] = ~(uint64_t)0; /* 2^(bits-1) - 1 */
  k[nk++][top / 64] = (UINT64_C(1) << (top % 64)) - 1;
  /* Digits 16 and 0, and long runs of ones, below 2^(bits-1). */
  for (unsigned j = 0; j < L; j++) k[nk][j] = 0x8421084210842108ull;
  k[nk][top / 64] &= (UINT64_C(1) << (top % 64)) - 1;
  nk++;
  for (unsigned j = 0; j < L; j++) k[nk][j] = 0xf07c1f07c1f07c1full;
  k[nk][top / 64] &= (UINT64_C(1) << (top % 64)) - 1;
  nk++;
  CHECK_EQ_INT((int)nk, EDGES);
  for (; nk < EDGES + 24; nk++) ec_test_random_scalar(&rng, c, k[nk]);
  unsigned failed = 0;
  for (int pt = 0; pt < 3; pt++) {
    uint64_t px[EC_MAX_LIMBS] = {0}, py[EC_MAX_LIMBS] = {0};
    if (pt == 0) {
      memcpy(px, c->gx, sizeof px);
      memcpy(py, c->gy, sizeof py);
    } else {
      uint64_t s[EC_MAX_LIMBS];
      ec_point q;
      ec_test_random_scalar(&rng, c, s);
      ec_scalar_mul_base(c, &q, s);
      CHECK(ec_point_to_affine(c, px, py, &q) != 0);
    }
    ec_point p;
    ec_point_set_affine(c, &p, px, py);
    for (unsigned i = 0; i < nk; i++) {
      ec_point got, want;
      uint64_t gx[EC_MAX_LIMBS], gy[EC_MAX_LIMBS], wx[EC_MAX_LIMBS], wy[EC_MAX_LIMBS];
      ec_scalar_mul_affine(c, &got, k[i], px, py);
      ref_scalar_mul(c, &want, k[i], &p);
      const uint64_t gf = ec_point_to_affine(c, gx, gy, &got);
      const uint64_t wf = ec_point_to_affine(c, wx, wy, &want);
      const int bad = (gf != 0) != (wf != 0) ||
                      (wf != 0 && (!ec_limbs_eq(L, gx, wx) || !ec_limbs_eq(L, gy, wy)));
      if (bad) printf("%s: point %d, scalar %u differs\n", name, pt, i);
      failed += (unsigned)bad;
    }
  }
  CHECK_EQ_INT((int)failed, 0);
}

static void test_p384_ladder(void) { ladder_vs_reference("test_ec_asm.p384_ladder", FM_EC_P384); }
static void test_p521_ladder(void) { ladder_vs_reference("test_ec_asm.p521_ladder", FM_EC_P521); }

static const test_case cases[] = {
    TEST_CASE(field_mulx),
    TEST_CASE(field_p256_adx),
    TEST_CASE(jac_adx),
    TEST_CASE(p384_ladder),
    TEST_CASE(p521_ladder),
};

int main(int argc, char **argv) { return TEST_RUN(argc, argv, "test_ec_asm", cases); }
