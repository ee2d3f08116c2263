/* EC unit tests: the group law's properties (doubling agrees with adding a point to itself, the
 * point at infinity is the identity, P + (-P) is infinity, nG = O), round trips on every curve and
 * hash, each malformed input refused with its specific status and its outputs wiped, compressed
 * points, the service indicator, zeroization, and the gate in the ERROR state. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fipsmod/ec.h"
#include "fipsmod/indicator.h"
#include "fipsmod/module.h"
#include "module/ec/internal.h"
#include "module/internal.h"
#include "tests/common/test_util.h"
#include "tests/ec/ec_test_util.h"

static const fm_ec_curve k_curves[] = {FM_EC_P224, FM_EC_P256, FM_EC_P384, FM_EC_P521};

static fm_indicator indicator(void) {
  fm_indicator ind = FM_INDICATOR_NONE;
  CHECK_EQ_INT(fm_service_indicator(&ind), FM_OK);
  return ind;
}

/* same_point: the two projective points are equal (X1 Z2 = X2 Z1 and Y1 Z2 = Y2 Z1). */
static int same_point(const ec_curve *c, const ec_point *a, const ec_point *b) {
  uint64_t l[EC_MAX_LIMBS], r[EC_MAX_LIMBS];
  ec_mod_mul(c, &c->p, l, a->x, b->z);
  ec_mod_mul(c, &c->p, r, b->x, a->z);
  int ok = ec_limbs_eq(c->limbs, l, r) != 0;
  ec_mod_mul(c, &c->p, l, a->y, b->z);
  ec_mod_mul(c, &c->p, r, b->y, a->z);
  return ok && ec_limbs_eq(c->limbs, l, r) != 0;
}

static int is_infinity(const ec_curve *c, const ec_point *p) {
  return ec_limbs_is_zero(c->limbs, p->z) != 0 && ec_limbs_is_zero(c->limbs, p->y) == 0;
}

static void test_group_law(void) {
  test_rng rng;
  test_rng_seed(&rng, "test_ec_unit.group_law");
  for (size_t i = 0; i < sizeof k_curves / sizeof k_curves[0]; i++) {
    const ec_curve *c = ec_curve_get(k_curves[i]);
    for (int round = 0; round < 8; round++) {
      uint64_t k[EC_MAX_LIMBS];
      ec_point p, d1, d2, inf, s, neg;
      ec_test_random_scalar(&rng, c, k);
      ec_scalar_mul_base(c, &p, k);
      ec_point_dbl(c, &d1, &p);
      ec_point_add(c, &d2, &p, &p);
      CHECK(same_point(c, &d1, &d2));
      /* The identity, in both slots and doubled. */
      memset(&inf, 0, sizeof inf);
      memcpy(inf.y, c->p.one, sizeof inf.y);
      ec_point_add(c, &s, &p, &inf);
      CHECK(same_point(c, &s, &p));
      ec_point_add(c, &s, &inf, &p);
      CHECK(same_point(c, &s, &p));
      ec_point_dbl(c, &s, &inf);
      CHECK(is_infinity(c, &s));
      /* P + (-P) = O. */
      const uint64_t zero[EC_MAX_LIMBS] = {0};
      neg = p;
      ec_mod_sub(c, &c->p, neg.y, zero, p.y);
      ec_point_add(c, &s, &p, &neg);
      CHECK(is_infinity(c, &s));
      uint64_t x[EC_MAX_LIMBS], y[EC_MAX_LIMBS];
      CHECK(ec_point_to_affine(c, x, y, &p) != 0);
      CHECK(ec_point_on_curve(c, x, y) != 0);
    }
    /* nG is the point at infinity; (n-1)G is -G. */
    ec_point r;
    ec_scalar_mul_base(c, &r, c->n.m);
    CHECK(is_infinity(c, &r));
    uint64_t nm1[EC_MAX_LIMBS], x[EC_MAX_LIMBS], y[EC_MAX_LIMBS], gy[EC_MAX_LIMBS];
    memcpy(nm1, c->n.m, sizeof nm1);
    nm1[0] -= 1;
    ec_scalar_mul_base(c, &r, nm1);
    CHECK(ec_point_to_affine(c, x, y, &r) != 0);
    const uint64_t zero[EC_MAX_LIMBS] = {0};
    ec_mod_sub(c, &c->p, gy, zero, c->gy);
    CHECK(ec_limbs_eq(c->limbs, x, c->gx) != 0);
    CHECK(ec_limbs_eq(c->limbs, y, gy) != 0);
  }
}

/* edge_scalar writes the i-th of EC_EDGE_SCALARS scalars below n with the shapes that stress a
 * recoding: 0, 1, 2, 3, n-1, n-2, (n-1)/2, one top bit, every bit below the top one set, long
 * runs of ones and of zeros in alternating words, alternating bits, and a lone low word. */
#define EC_EDGE_SCALARS 14
static void edge_scalar(const ec_curve *c, unsigned i, uint64_t *k) {
  const unsigned top = c->bits - 1; /* n > 2^top on every curve */
  memset(k, 0, EC_MAX_LIMBS * sizeof(uint64_t));
  switch (i) {
    case 0: break;
    case 1: k[0] = 1; break;
    case 2: k[0] = 2; break;
    case 3: k[0] = 3; break;
    case 4: memcpy(k, c->n.m, EC_MAX_LIMBS * sizeof(uint64_t)); k[0] -= 1; break;
    case 5: memcpy(k, c->n.m, EC_MAX_LIMBS * sizeof(uint64_t)); k[0] -= 2; break;
    case 6:
      memcpy(k, c->n.m, EC_MAX_LIMBS * sizeof(uint64_t));
      for (unsigned j = 0; j < c->limbs; j++)
        k[j] = (k[j] >> 1) | (j + 1 < c->limbs ? k[j + 1] << 63 : 0);
      break;
    case 7: k[top / 64] = (uint64_t)1 << (top % 64); break;
    case 8:
      for (unsigned b = 0; b < top; b++) k[b / 64] |= (uint64_t)1 << (b % 64);
      break;
    case 9: case 10:
      for (unsigned b = 0; b < top; b++)
        if ((b / 64) % 2 == i - 9) k[b / 64] |= (uint64_t)1 << (b % 64);
      break;
    case 11: case 12:
      for (unsigned b = 0; b < top; b++)
        if (b % 2 == i - 11) k[b / 64] |= (uint64_t)1 << (b % 64);
      break;
    default: k[0] = 0xfffffffffffffff1u; break;
  }
}

/* Verification compares x_R mod n with r; when x_R is in [n, p), r is x_R - n. A public key is
 * made so that the verification's R = u1 G + u2 Q is a point with x in [n, p): Q = u2^-1 (R -
 * u1 G). The signature (x_R - n, s) must verify, and (x_R - n + 1, s) must not (P-256 and P-384,
 * whose p = 3 mod 4 gives square roots as a power). */
static void test_verify_large_x(void) {
  test_rng rng;
  test_rng_seed(&rng, "test_ec_unit.verify_large_x");
  const fm_ec_curve ids[] = {FM_EC_P256, FM_EC_P384};
  for (size_t ci = 0; ci < 2; ci++) {
    const ec_curve *c = ec_curve_get(ids[ci]);
    const unsigned L = c->limbs;
    const ec_mod *fp = &c->p, *fn = &c->n;
    /* e = (p + 1) / 4. */
    uint64_t e[EC_MAX_LIMBS] = {0}, one[EC_MAX_LIMBS] = {1};
    memcpy(e, fp->m, sizeof e);
    uint64_t carry = 1;
    for (unsigned j = 0; j < L; j++) {
      e[j] += carry;
      carry = carry && e[j] == 0;
    }
    for (unsigned j = 0; j < L; j++) e[j] = (e[j] >> 2) | (j + 1 < L ? e[j + 1] << 62 : 0);
    /* The first x > n on the curve (x = n would make r = 0). */
    uint64_t x[EC_MAX_LIMBS], xm[EC_MAX_LIMBS], ym[EC_MAX_LIMBS], rhs[EC_MAX_LIMBS],
        t[EC_MAX_LIMBS];
    memcpy(x, fn->m, sizeof x);
    ec_mod_add(c, fp, x, x, one);
    int found = 0;
    for (int tries = 0; tries < 200 && !found; tries++) {
      ec_mod_to_mont(c, fp, xm, x);
      ec_mod_mul(c, fp, rhs, xm, xm);
      ec_mod_mul(c, fp, rhs, rhs, xm);
      ec_mod_sub(c, fp, rhs, rhs, xm);
      ec_mod_sub(c, fp, rhs, rhs, xm);
      ec_mod_sub(c, fp, rhs, rhs, xm);
      ec_mod_add(c, fp, rhs, rhs, c->b);
      ec_mod_pow_public(c, fp, ym, rhs, e);
      ec_mod_mul(c, fp, t, ym, ym);
      found = ec_limbs_eq(L, t, rhs) != 0;
      if (!found) ec_mod_add(c, fp, x, x, one);
    }
    CHECK(found);
    if (!found) continue;
    CHECK(ec_point_on_curve(c, xm, ym) != 0);
    ec_point rp, t1, t2, q;
    ec_point_set_affine(c, &rp, xm, ym);
    /* r = x - n; a random digest below n and s; u1 = e / s, u2 = r / s (mod n). */
    uint64_t r[EC_MAX_LIMBS], dg[EC_MAX_LIMBS], s[EC_MAX_LIMBS], sm[EC_MAX_LIMBS], w[EC_MAX_LIMBS],
        u1[EC_MAX_LIMBS], u2[EC_MAX_LIMBS], a[EC_MAX_LIMBS], b[EC_MAX_LIMBS];
    ec_mod_sub(c, fp, r, x, fn->m); /* x < p: no wrap, x >= n */
    ec_test_random_scalar(&rng, c, dg);
    ec_test_random_scalar(&rng, c, s);
    ec_mod_to_mont(c, fn, sm, s);
    ec_mod_inv(c, fn, w, sm);     /* s^-1 R */
    ec_mod_mul(c, fn, u1, dg, w); /* plain e / s */
    ec_mod_mul(c, fn, u2, r, w);  /* plain r / s */
    /* a = u2^-1, b = -u1 u2^-1 (mod n); Q = a R + b G. */
    ec_mod_to_mont(c, fn, t, u2);
    ec_mod_inv(c, fn, a, t);
    ec_mod_from_mont(c, fn, a, a);
    ec_mod_to_mont(c, fn, t, u1);
    ec_mod_mul(c, fn, b, t, a);
    const uint64_t zero[EC_MAX_LIMBS] = {0};
    ec_mod_sub(c, fn, b, zero, b);
    ec_scalar_mul(c, &t1, a, &rp);
    ec_scalar_mul_base(c, &t2, b);
    ec_point_add(c, &q, &t1, &t2);
    uint64_t qx[EC_MAX_LIMBS], qy[EC_MAX_LIMBS];
    CHECK(ec_point_to_affine(c, qx, qy, &q) != 0);
    ec_mod_from_mont(c, fp, qx, qx);
    ec_mod_from_mont(c, fp, qy, qy);
    uint8_t pub[1 + 2 * EC_MAX_BYTES], sig[2 * EC_MAX_BYTES], digest[EC_MAX_BYTES];
    pub[0] = 4;
    ec_limbs_to_be(pub + 1, c->bytes, qx);
    ec_limbs_to_be(pub + 1 + c->bytes, c->bytes, qy);
    ec_limbs_to_be(digest, c->bytes, dg);
    ec_limbs_to_be(sig, c->bytes, r);
    ec_limbs_to_be(sig + c->bytes, c->bytes, s);
    fm_ec_key *key = NULL;
    CHECK_EQ_INT(fm_ec_key_import_public(ids[ci], pub, 1 + 2 * c->bytes, &key), FM_OK);
    CHECK_EQ_INT(fm_ecdsa_verify_digest(key, digest, c->bytes, sig, 2 * c->bytes), FM_OK);
    ec_mod_add(c, fn, r, r, one);
    ec_limbs_to_be(sig, c->bytes, r);
    CHECK_EQ_INT(fm_ecdsa_verify_digest(key, digest, c->bytes, sig, 2 * c->bytes), FM_ERR_VERIFY);
    CHECK_EQ_INT(fm_ec_key_free(key), FM_OK);
  }
}

/* ec_point_dbl_n agrees with that many complete additions of a point to itself (independent of
 * either doubling), on random points and infinity. */
static void test_dbl_n(void) {
  test_rng rng;
  test_rng_seed(&rng, "test_ec_unit.dbl_n");
  for (size_t i = 0; i < sizeof k_curves / sizeof k_curves[0]; i++) {
    const ec_curve *c = ec_curve_get(k_curves[i]);
    for (int round = 0; round < 4; round++) {
      uint64_t k[EC_MAX_LIMBS];
      ec_point p, a, b;
      ec_test_random_scalar(&rng, c, k);
      ec_scalar_mul_base(c, &p, k);
      if (round == 0) {
        memset(&p, 0, sizeof p);
        memcpy(p.y, c->p.one, sizeof p.y);
      }
      for (unsigned count = 0; count <= 6; count++) {
        b = p;
        for (unsigned j = 0; j < count; j++) ec_point_add(c, &b, &b, &b);
        ec_point_dbl_n(c, &a, &p, count);
        CHECK(same_point(c, &a, &b));
        CHECK_EQ_INT(is_infinity(c, &a), round == 0);
      }
    }
  }
}

/* ec_scalar_mul(k, G) equals the fixed-base k G for the edge scalars and random ones. */
static void test_scalar_mul_edges(void) {
  test_rng rng;
  test_rng_seed(&rng, "test_ec_unit.scalar_mul_edges");
  for (size_t i = 0; i < sizeof k_curves / sizeof k_curves[0]; i++) {
    const ec_curve *c = ec_curve_get(k_curves[i]);
    ec_point g, a, b;
    ec_point_set_affine(c, &g, c->gx, c->gy);
    for (unsigned e = 0; e < EC_EDGE_SCALARS + 4; e++) {
      uint64_t k[EC_MAX_LIMBS];
      if (e < EC_EDGE_SCALARS) edge_scalar(c, e, k);
      else ec_test_random_scalar(&rng, c, k);
      ec_scalar_mul(c, &a, k, &g);
      ec_scalar_mul_base(c, &b, k);
      CHECK(same_point(c, &a, &b));
      CHECK_EQ_INT(is_infinity(c, &a), e == 0);
      ec_scalar_mul_affine(c, &a, k, c->gx, c->gy);
      CHECK(same_point(c, &a, &b));
      CHECK_EQ_INT(is_infinity(c, &a), e == 0);
    }
  }
}

/* same_finite: a and b are the same point and a has Z != 0 (same_point alone takes (0 : 0 : 0),
 * which no formula should give, for any point). */
static int same_finite(const ec_curve *c, const ec_point *a, const ec_point *b) {
  return ec_limbs_is_zero(c->limbs, a->z) == 0 && same_point(c, a, b);
}

/* The scalars where the Jacobian mixed additions of ec_scalar_mul and ec_scalar_mul_base would
 * meet equal or opposite points or the point at infinity (k = 1..64, n-64..n-1 and n+1..n+64,
 * which the functions take (k below 2^bits): the last window's digit against the rest, n + 30 on
 * P-256 among them, and long runs of zero windows), for the base point and for
 * another point P = 7G, against multiples built one complete addition at a time; and the point at
 * infinity as the variable base, which gives the point at infinity. */
static void test_scalar_mul_exceptional(void) {
  static const uint64_t zero[EC_MAX_LIMBS] = {0};
  for (size_t i = 0; i < sizeof k_curves / sizeof k_curves[0]; i++) {
    const ec_curve *c = ec_curve_get(k_curves[i]);
    ec_point g, p, want, neg, a, b, inf;
    uint64_t seven[EC_MAX_LIMBS] = {7};
    ec_point_set_affine(c, &g, c->gx, c->gy);
    ec_scalar_mul_base(c, &p, seven);
    for (unsigned base = 0; base < 2; base++) {
      const ec_point *q = base == 0 ? &g : &p;
      uint64_t qx[EC_MAX_LIMBS], qy[EC_MAX_LIMBS];
      CHECK(ec_point_to_affine(c, qx, qy, q) != 0);
      want = *q;
      for (unsigned j = 1; j <= 64; j++) {
        uint64_t k[EC_MAX_LIMBS] = {j}, nk[EC_MAX_LIMBS], pk[EC_MAX_LIMBS];
        memcpy(nk, c->n.m, sizeof nk);
        memcpy(pk, c->n.m, sizeof pk);
        nk[0] -= j; /* n - j: the low word of every n is above 64 */
        pk[0] += j; /* n + j, below 2^bits on every curve; no carry out of the low word */
        neg = want;
        ec_mod_sub(c, &c->p, neg.y, zero, neg.y);
        ec_scalar_mul(c, &a, k, q);
        CHECK(same_finite(c, &a, &want));
        ec_scalar_mul(c, &a, nk, q);
        CHECK(same_finite(c, &a, &neg));
        ec_scalar_mul(c, &a, pk, q);
        CHECK(same_finite(c, &a, &want));
        /* The same from Q's affine coordinates (ECDH's entry, its own table build). */
        ec_scalar_mul_affine(c, &a, k, qx, qy);
        CHECK(same_finite(c, &a, &want));
        ec_scalar_mul_affine(c, &a, nk, qx, qy);
        CHECK(same_finite(c, &a, &neg));
        ec_scalar_mul_affine(c, &a, pk, qx, qy);
        CHECK(same_finite(c, &a, &want));
        if (base == 0) {
          ec_scalar_mul_base(c, &b, k);
          CHECK(same_finite(c, &b, &want));
          ec_scalar_mul_base(c, &b, nk);
          CHECK(same_finite(c, &b, &neg));
          ec_scalar_mul_base(c, &b, pk);
          CHECK(same_finite(c, &b, &want));
        }
        ec_point_add(c, &want, &want, q);
      }
    }
    memset(&inf, 0, sizeof inf);
    memcpy(inf.y, c->p.one, sizeof inf.y);
    uint64_t k[EC_MAX_LIMBS] = {0x1234567u, 5};
    ec_scalar_mul(c, &a, k, &inf);
    CHECK(is_infinity(c, &a));
  }
}

/* ec_double_mul_public(u1, u2, Q) with Q = dG equals the fixed-base (u1 + u2 d mod n) G, for edge
 * and random u1, u2 and d in {1, n-1, 2, random} (Q = G and Q = -G make the interleaved additions
 * meet equal and opposite points), and gives infinity when u1 = -u2 d mod n. */
static void test_double_mul_public(void) {
  test_rng rng;
  test_rng_seed(&rng, "test_ec_unit.double_mul_public");
  for (size_t i = 0; i < sizeof k_curves / sizeof k_curves[0]; i++) {
    const ec_curve *c = ec_curve_get(k_curves[i]);
    for (unsigned qi = 0; qi < 4; qi++) {
      uint64_t d[EC_MAX_LIMBS] = {0};
      if (qi == 0) d[0] = 1;
      else if (qi == 1) edge_scalar(c, 4, d);
      else if (qi == 2) d[0] = 2;
      else ec_test_random_scalar(&rng, c, d);
      ec_point q, r, want;
      ec_scalar_mul_base(c, &q, d);
      for (unsigned e1 = 0; e1 < EC_EDGE_SCALARS + 2; e1++) {
        for (unsigned e2 = 0; e2 < EC_EDGE_SCALARS + 3; e2++) {
          /* P-224 and P-521 have no fixed-base table, so the reference costs a variable-base
           * multiplication: a third of the edge pairs there keeps the test short. */
          const int full = c->id == FM_EC_P256 || c->id == FM_EC_P384;
          if (!full && e2 < EC_EDGE_SCALARS && (e1 + e2) % 3 != 0) continue;
          uint64_t u1[EC_MAX_LIMBS], u2[EC_MAX_LIMBS], t[EC_MAX_LIMBS], sum[EC_MAX_LIMBS];
          if (e2 < EC_EDGE_SCALARS) edge_scalar(c, e2, u2);
          else ec_test_random_scalar(&rng, c, u2);
          ec_mod_to_mont(c, &c->n, t, u2);
          ec_mod_mul(c, &c->n, t, t, d); /* u2 d mod n, plain */
          const uint64_t zero[EC_MAX_LIMBS] = {0};
          if (e1 < EC_EDGE_SCALARS) edge_scalar(c, e1, u1);
          else if (e1 == EC_EDGE_SCALARS) ec_test_random_scalar(&rng, c, u1);
          else ec_mod_sub(c, &c->n, u1, zero, t); /* u1 = -u2 d: the sum is infinity */
          ec_mod_add(c, &c->n, sum, u1, t);
          ec_double_mul_public(c, &r, u1, u2, &q);
          ec_scalar_mul_base(c, &want, sum);
          CHECK(same_point(c, &r, &want));
          CHECK_EQ_INT(is_infinity(c, &r), ec_limbs_is_zero(c->limbs, sum) != 0);
          if (test_failures) return;
        }
      }
    }
  }
}

static void test_sign_round_trip(void) {
  const fm_hash_alg hashes[] = {FM_HASH_SHA256, FM_HASH_SHA384, FM_HASH_SHA512};
  for (size_t i = 0; i < sizeof k_curves / sizeof k_curves[0]; i++) {
    fm_ec_key *key = NULL, *pub = NULL;
    CHECK_EQ_INT(fm_ec_key_generate(k_curves[i], &key), FM_OK);
    CHECK_EQ_INT(indicator(), FM_INDICATOR_APPROVED);
    uint8_t pt[FM_EC_MAX_POINT_BYTES], sig[FM_EC_MAX_SIG_BYTES], sig2[FM_EC_MAX_SIG_BYTES];
    size_t pt_len = 0, sig_len = 0, sig2_len = 0;
    CHECK_EQ_INT(fm_ec_key_export_public(key, 0, pt, sizeof pt, &pt_len), FM_OK);
    CHECK_EQ_INT(fm_ec_key_import_public(k_curves[i], pt, pt_len, &pub), FM_OK);
    for (size_t h = 0; h < 3; h++) {
      const uint8_t msg[] = "the message";
      CHECK_EQ_INT(fm_ecdsa_sign(key, hashes[h], msg, sizeof msg, sig, sizeof sig, &sig_len),
                   FM_OK);
      CHECK_EQ_INT(indicator(), FM_INDICATOR_APPROVED);
      CHECK_EQ_INT(sig_len, 2 * fm_ec_curve_bytes(k_curves[i]));
      CHECK_EQ_INT(fm_ecdsa_verify(pub, hashes[h], msg, sizeof msg, sig, sig_len), FM_OK);
      CHECK_EQ_INT(indicator(), FM_INDICATOR_APPROVED);
      /* A fresh k each time: two signatures of one message differ. */
      CHECK_EQ_INT(fm_ecdsa_sign(key, hashes[h], msg, sizeof msg, sig2, sizeof sig2, &sig2_len),
                   FM_OK);
      CHECK(memcmp(sig, sig2, sig_len) != 0);
      CHECK_EQ_INT(fm_ecdsa_verify(pub, hashes[h], msg, sizeof msg - 1, sig, sig_len),
                   FM_ERR_VERIFY);
      CHECK_EQ_INT(indicator(), FM_INDICATOR_NOT_APPROVED);
    }
    fm_ec_key_free(key);
    fm_ec_key_free(pub);
  }
}

static void test_ecdh_agrees(void) {
  for (size_t i = 0; i < sizeof k_curves / sizeof k_curves[0]; i++) {
    fm_ec_key *a = NULL, *b = NULL;
    CHECK_EQ_INT(fm_ec_key_generate(k_curves[i], &a), FM_OK);
    CHECK_EQ_INT(fm_ec_key_generate(k_curves[i], &b), FM_OK);
    uint8_t pa[FM_EC_MAX_POINT_BYTES], pb[FM_EC_MAX_POINT_BYTES];
    uint8_t za[FM_EC_MAX_BYTES], zb[FM_EC_MAX_BYTES];
    size_t la = 0, lb = 0, zla = 0, zlb = 0;
    CHECK_EQ_INT(fm_ec_key_export_public(a, 0, pa, sizeof pa, &la), FM_OK);
    CHECK_EQ_INT(fm_ec_key_export_public(b, 1, pb, sizeof pb, &lb), FM_OK);
    const int compressed_ok = k_curves[i] != FM_EC_P224;
    CHECK_EQ_INT(fm_ecdh(a, pb, lb, za, sizeof za, &zla),
                 compressed_ok ? FM_OK : FM_ERR_UNSUPPORTED);
    CHECK_EQ_INT(fm_ecdh(b, pa, la, zb, sizeof zb, &zlb), FM_OK);
    CHECK_EQ_INT(indicator(), FM_INDICATOR_APPROVED);
    if (compressed_ok) {
      CHECK_EQ_INT(zla, zlb);
      CHECK_MEM(za, zb, zlb);
    }
    fm_ec_key_free(a);
    fm_ec_key_free(b);
  }
}

/* A point that is not on the curve, infinity, a coordinate >= p, a bad prefix or length. */
static void test_bad_points(void) {
  for (size_t i = 0; i < sizeof k_curves / sizeof k_curves[0]; i++) {
    const ec_curve *c = ec_curve_get(k_curves[i]);
    const size_t nb = c->bytes;
    fm_ec_key *key = (fm_ec_key *)&key, *priv = NULL;
    CHECK_EQ_INT(fm_ec_key_generate(k_curves[i], &priv), FM_OK);
    uint8_t pt[FM_EC_MAX_POINT_BYTES], bad[FM_EC_MAX_POINT_BYTES];
    size_t len = 0;
    CHECK_EQ_INT(fm_ec_key_export_public(priv, 0, pt, sizeof pt, &len), FM_OK);
    /* Off the curve: y + 1. */
    memcpy(bad, pt, len);
    bad[len - 1] ^= 1;
    CHECK_EQ_INT(fm_ec_key_import_public(k_curves[i], bad, len, &key), FM_ERR_BAD_KEY);
    CHECK(key == NULL);
    CHECK_EQ_INT(indicator(), FM_INDICATOR_NOT_APPROVED);
    /* The point at infinity (SEC1's single 00) and an all-zero (0, 0), which is not on any of
     * these curves (b != 0). */
    const uint8_t inf = 0;
    CHECK_EQ_INT(fm_ec_key_import_public(k_curves[i], &inf, 1, &key), FM_ERR_BAD_KEY);
    memset(bad, 0, len);
    bad[0] = 4;
    CHECK_EQ_INT(fm_ec_key_import_public(k_curves[i], bad, len, &key), FM_ERR_BAD_KEY);
    /* x = p: out of range. */
    memcpy(bad, pt, len);
    ec_limbs_to_be(bad + 1, nb, c->p.m);
    CHECK_EQ_INT(fm_ec_key_import_public(k_curves[i], bad, len, &key), FM_ERR_BAD_KEY);
    /* Bad prefix, bad lengths. */
    memcpy(bad, pt, len);
    bad[0] = 0x05;
    CHECK_EQ_INT(fm_ec_key_import_public(k_curves[i], bad, len, &key), FM_ERR_BAD_KEY);
    CHECK_EQ_INT(fm_ec_key_import_public(k_curves[i], pt, len - 1, &key), FM_ERR_LENGTH);
    CHECK_EQ_INT(fm_ec_key_import_public(k_curves[i], pt, 0, &key), FM_ERR_LENGTH);
    CHECK_EQ_INT(fm_ec_key_import_public((fm_ec_curve)9, pt, len, &key), FM_ERR_UNSUPPORTED);
    CHECK_EQ_INT(fm_ec_key_import_public(k_curves[i], NULL, len, &key), FM_ERR_BAD_ARGUMENT);
    /* ECDH refuses the same peers, and wipes its output. */
    uint8_t z[FM_EC_MAX_BYTES];
    size_t z_len = 77;
    memcpy(bad, pt, len);
    bad[len - 1] ^= 1;
    memset(z, 0xaa, sizeof z);
    CHECK_EQ_INT(fm_ecdh(priv, bad, len, z, sizeof z, &z_len), FM_ERR_BAD_KEY);
    CHECK_EQ_INT(z_len, 0);
    CHECK(test_is_all_zero(z, nb));
    fm_ec_key_free(priv);
  }
}

static void test_ecdh_refusals_wipe(void) {
  fm_ec_key *priv = NULL, *pub = NULL;
  CHECK_EQ_INT(fm_ec_key_generate(FM_EC_P256, &priv), FM_OK);
  uint8_t pt[65], z[32];
  size_t len = 0, z_len = 5;
  CHECK_EQ_INT(fm_ec_key_export_public(priv, 0, pt, sizeof pt, &len), FM_OK);
  CHECK_EQ_INT(fm_ec_key_import_public(FM_EC_P256, pt, len, &pub), FM_OK);
  memset(z, 0xaa, sizeof z);
  CHECK_EQ_INT(fm_ecdh(pub, pt, len, z, sizeof z, &z_len), FM_ERR_BAD_ARGUMENT);
  CHECK(test_is_all_zero(z, sizeof z) && z_len == 0);
  memset(z, 0xaa, sizeof z);
  CHECK_EQ_INT(fm_ecdh(priv, pt, len, z, 31, &z_len), FM_ERR_BUFFER_TOO_SMALL);
  CHECK(test_is_all_zero(z, 31) && z[31] == 0xaa);
  /* A P-384 point to a P-256 key: a length no P-256 point has. */
  fm_ec_key *p384 = NULL;
  uint8_t pt384[97];
  size_t l384 = 0;
  CHECK_EQ_INT(fm_ec_key_generate(FM_EC_P384, &p384), FM_OK);
  CHECK_EQ_INT(fm_ec_key_export_public(p384, 0, pt384, sizeof pt384, &l384), FM_OK);
  CHECK_EQ_INT(fm_ecdh(priv, pt384, l384, z, sizeof z, &z_len), FM_ERR_LENGTH);
  fm_ec_key_free(p384);
  fm_ec_key_free(priv);
  fm_ec_key_free(pub);
}

/* r or s of 0 or n (or more), and wrong lengths, are FM_ERR_VERIFY. */
static void test_bad_signatures(void) {
  for (size_t i = 0; i < sizeof k_curves / sizeof k_curves[0]; i++) {
    const ec_curve *c = ec_curve_get(k_curves[i]);
    const size_t nb = c->bytes;
    fm_ec_key *key = NULL;
    CHECK_EQ_INT(fm_ec_key_generate(k_curves[i], &key), FM_OK);
    uint8_t sig[FM_EC_MAX_SIG_BYTES], bad[FM_EC_MAX_SIG_BYTES];
    size_t sl = 0;
    const uint8_t msg[] = "m";
    CHECK_EQ_INT(fm_ecdsa_sign(key, FM_HASH_SHA256, msg, 1, sig, sizeof sig, &sl), FM_OK);
    if (sl != 2 * nb) { /* no signature to alter (the check above has failed) */
      CHECK_EQ_INT((int)sl, (int)(2 * nb));
      fm_ec_key_free(key);
      continue;
    }
    CHECK_EQ_INT(fm_ecdsa_verify(key, FM_HASH_SHA256, msg, 1, sig, sl), FM_OK);
    for (int which = 0; which < 2; which++) {
      memcpy(bad, sig, sl);
      memset(bad + which * nb, 0, nb); /* 0 */
      CHECK_EQ_INT(fm_ecdsa_verify(key, FM_HASH_SHA256, msg, 1, bad, sl), FM_ERR_VERIFY);
      ec_limbs_to_be(bad + which * nb, nb, c->n.m); /* n */
      CHECK_EQ_INT(fm_ecdsa_verify(key, FM_HASH_SHA256, msg, 1, bad, sl), FM_ERR_VERIFY);
      memset(bad + which * nb, 0xff, nb); /* above n */
      if (c->bits % 8) bad[which * nb] = (uint8_t)((1u << (c->bits % 8)) - 1);
      CHECK_EQ_INT(fm_ecdsa_verify(key, FM_HASH_SHA256, msg, 1, bad, sl), FM_ERR_VERIFY);
    }
    CHECK_EQ_INT(fm_ecdsa_verify(key, FM_HASH_SHA256, msg, 1, sig, sl - 1), FM_ERR_VERIFY);
    CHECK_EQ_INT(fm_ecdsa_verify(key, FM_HASH_SHA256, msg, 1, NULL, 0), FM_ERR_VERIFY);
    CHECK_EQ_INT(fm_ecdsa_verify(key, (fm_hash_alg)99, msg, 1, sig, sl), FM_ERR_UNSUPPORTED);
    /* Signing: a short buffer, an unknown hash, a digest under 28 bytes: all wiped. */
    size_t out_len = 9;
    memset(bad, 0xaa, sizeof bad);
    CHECK_EQ_INT(fm_ecdsa_sign(key, FM_HASH_SHA256, msg, 1, bad, sl - 1, &out_len),
                 FM_ERR_BUFFER_TOO_SMALL);
    CHECK(test_is_all_zero(bad, sl - 1) && out_len == 0);
    CHECK_EQ_INT(fm_ecdsa_sign(key, (fm_hash_alg)99, msg, 1, bad, sizeof bad, &out_len),
                 FM_ERR_UNSUPPORTED);
    CHECK_EQ_INT(fm_ecdsa_sign_digest(key, msg, 20, bad, sizeof bad, &out_len), FM_ERR_LENGTH);
    fm_ec_key_free(key);
  }
}

/* d = 0, d = n, a wrong length, a point that is not dG. */
static void test_bad_private_keys(void) {
  for (size_t i = 0; i < sizeof k_curves / sizeof k_curves[0]; i++) {
    const ec_curve *c = ec_curve_get(k_curves[i]);
    const size_t nb = c->bytes;
    uint8_t d[FM_EC_MAX_BYTES] = {0}, pt[FM_EC_MAX_POINT_BYTES];
    fm_ec_key *key = NULL, *other = NULL;
    CHECK_EQ_INT(fm_ec_key_import_private(k_curves[i], d, nb, NULL, 0, &key), FM_ERR_OUT_OF_RANGE);
    ec_limbs_to_be(d, nb, c->n.m);
    CHECK_EQ_INT(fm_ec_key_import_private(k_curves[i], d, nb, NULL, 0, &key), FM_ERR_OUT_OF_RANGE);
    CHECK(key == NULL);
    d[nb - 1] -= 1; /* n - 1: the largest valid d */
    CHECK_EQ_INT(fm_ec_key_import_private(k_curves[i], d, nb, NULL, 0, &key), FM_OK);
    CHECK_EQ_INT(fm_ec_key_import_private(k_curves[i], d, nb - 1, NULL, 0, &other),
                 FM_ERR_LENGTH);
    CHECK_EQ_INT(fm_ec_key_generate(k_curves[i], &other), FM_OK);
    size_t len = 0;
    CHECK_EQ_INT(fm_ec_key_export_public(other, 0, pt, sizeof pt, &len), FM_OK);
    fm_ec_key *mismatch = NULL;
    CHECK_EQ_INT(fm_ec_key_import_private(k_curves[i], d, nb, pt, len, &mismatch), FM_ERR_BAD_KEY);
    CHECK(mismatch == NULL);
    /* Export of d round-trips; a public key has none. */
    uint8_t out[FM_EC_MAX_BYTES];
    size_t out_len = 0;
    CHECK_EQ_INT(fm_ec_key_export_private(key, out, sizeof out, &out_len), FM_OK);
    CHECK_EQ_INT(out_len, nb);
    CHECK_MEM(out, d, nb);
    fm_ec_key *pub = NULL;
    CHECK_EQ_INT(fm_ec_key_import_public(k_curves[i], pt, len, &pub), FM_OK);
    CHECK_EQ_INT(fm_ec_key_export_private(pub, out, sizeof out, &out_len), FM_ERR_BAD_ARGUMENT);
    uint8_t sig[FM_EC_MAX_SIG_BYTES];
    CHECK_EQ_INT(fm_ecdsa_sign(pub, FM_HASH_SHA256, out, 1, sig, sizeof sig, &out_len),
                 FM_ERR_BAD_ARGUMENT);
    fm_ec_curve cv = (fm_ec_curve)0;
    CHECK_EQ_INT(fm_ec_key_curve(pub, &cv), FM_OK);
    CHECK_EQ_INT(cv, k_curves[i]);
    fm_ec_key_free(pub);
    fm_ec_key_free(key);
    fm_ec_key_free(other);
  }
}

/* Compressed points decode to the same key (P-256, P-384, P-521), both parities. */
static void test_compressed_points(void) {
  for (size_t i = 1; i < sizeof k_curves / sizeof k_curves[0]; i++) {
    for (int round = 0; round < 4; round++) {
      fm_ec_key *key = NULL, *pub = NULL;
      CHECK_EQ_INT(fm_ec_key_generate(k_curves[i], &key), FM_OK);
      uint8_t c[FM_EC_MAX_POINT_BYTES], u[FM_EC_MAX_POINT_BYTES], u2[FM_EC_MAX_POINT_BYTES];
      size_t cl = 0, ul = 0, ul2 = 0;
      CHECK_EQ_INT(fm_ec_key_export_public(key, 1, c, sizeof c, &cl), FM_OK);
      CHECK_EQ_INT(fm_ec_key_export_public(key, 0, u, sizeof u, &ul), FM_OK);
      CHECK_EQ_INT(fm_ec_key_import_public(k_curves[i], c, cl, &pub), FM_OK);
      if (pub != NULL) CHECK_EQ_INT(fm_ec_key_export_public(pub, 0, u2, sizeof u2, &ul2), FM_OK);
      CHECK_EQ_INT(ul, ul2);
      CHECK_MEM(u, u2, ul);
      fm_ec_key_free(key);
      fm_ec_key_free(pub);
    }
  }
}

static size_t g_freed, g_freed_nonzero;
static void observe_free(const void *p, size_t len) {
  g_freed++;
  if (!test_is_all_zero(p, len)) g_freed_nonzero++;
}

static void test_free_zeroizes_the_key(void) {
  ec_key_set_free_hook_for_testing(observe_free);
  fm_ec_key *priv = NULL, *pub = NULL;
  CHECK_EQ_INT(fm_ec_key_generate(FM_EC_P384, &priv), FM_OK);
  uint8_t pt[97];
  size_t len = 0;
  CHECK_EQ_INT(fm_ec_key_export_public(priv, 0, pt, sizeof pt, &len), FM_OK);
  CHECK_EQ_INT(fm_ec_key_import_public(FM_EC_P384, pt, len, &pub), FM_OK);
  g_freed = g_freed_nonzero = 0;
  CHECK_EQ_INT(fm_ec_key_free(priv), FM_OK);
  CHECK_EQ_INT(fm_ec_key_free(pub), FM_OK);
  CHECK_EQ_INT(g_freed, 2);
  CHECK_EQ_INT(g_freed_nonzero, 0);
  ec_key_set_free_hook_for_testing(NULL);
}

/* In ERROR every service refuses and wipes; fm_ec_key_free still works. Runs last. */
static void test_gate_in_error_state(void) {
  fm_ec_key *key = NULL;
  CHECK_EQ_INT(fm_ec_key_generate(FM_EC_P256, &key), FM_OK);
  fm_module_force_error_for_testing();
  uint8_t sig[64];
  size_t sl = 3;
  memset(sig, 0xaa, sizeof sig);
  CHECK_EQ_INT(fm_ecdsa_sign(key, FM_HASH_SHA256, sig, 1, sig, sizeof sig, &sl),
               FM_ERR_NOT_OPERATIONAL);
  CHECK(test_is_all_zero(sig, sizeof sig) && sl == 0);
  fm_ec_key *k2 = (fm_ec_key *)&k2;
  CHECK_EQ_INT(fm_ec_key_generate(FM_EC_P256, &k2), FM_ERR_NOT_OPERATIONAL);
  CHECK(k2 == NULL);
  CHECK_EQ_INT(fm_ecdsa_verify(key, FM_HASH_SHA256, sig, 1, sig, 64), FM_ERR_NOT_OPERATIONAL);
  CHECK_EQ_INT(fm_ec_key_free(key), FM_OK);
}

static const test_case cases[] = {
    TEST_CASE(group_law),        TEST_CASE(sign_round_trip),        TEST_CASE(ecdh_agrees),
    TEST_CASE(bad_points),       TEST_CASE(ecdh_refusals_wipe),     TEST_CASE(bad_signatures),
    TEST_CASE(bad_private_keys), TEST_CASE(compressed_points),      TEST_CASE(free_zeroizes_the_key),
    TEST_CASE(verify_large_x),
    TEST_CASE(gate_in_error_state), TEST_CASE(dbl_n), TEST_CASE(scalar_mul_edges),
    TEST_CASE(scalar_mul_exceptional),
    TEST_CASE(double_mul_public),
};

int main(int argc, char **argv) { return TEST_RUN(argc, argv, "test_ec_unit", cases); }
