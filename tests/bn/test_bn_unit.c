/* Unit tests of module/bn: hand-checkable known answers, algebraic properties and edge cases.
 * The differential test (test_bn_diff.c) compares with OpenSSL on random operands. */
#include <string.h>

#include "fipsmod/module.h"
#include "module/bn/internal.h"
#include "module/internal.h"
#include "tests/common/test_util.h"

#define MAXN 64

static test_rng rng;

static void rand_limbs(uint64_t *r, size_t n) {
  for (size_t i = 0; i < n; i++) r[i] = test_rng_u64(&rng);
}

/* A random odd n-limb modulus with a non-zero top limb. */
static void rand_modulus(uint64_t *N, size_t n) {
  rand_limbs(N, n);
  N[0] |= 1;
  if (N[n - 1] == 0) N[n - 1] = 1;
}

/* ref_mod: r = a mod m (m n limbs) through the division routine, an independent path from the
 * Montgomery code. */
static void ref_mod(uint64_t *r, const uint64_t *a, size_t an, const uint64_t *m, size_t n) {
  bn_div_consttime(NULL, r, a, an, m, n);
}

static void ref_mod_mul(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m,
                        size_t n) {
  uint64_t p[2 * MAXN];
  bn_mul(p, a, b, n);
  ref_mod(r, p, 2 * n, m, n);
}

static void test_bytes(void) {
  /* 0x0102...: big-endian bytes land in little-endian limbs. */
  static const uint8_t in[9] = {0x01, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88};
  uint64_t r[2];
  CHECK_EQ_INT(bn_from_bytes_be(r, 2, in, sizeof(in)), 1);
  CHECK(r[0] == 0x1122334455667788ull && r[1] == 1);
  uint8_t out[16], want[16] = {0};
  memcpy(want + 7, in, sizeof(in));
  bn_to_bytes_be(out, sizeof(out), r, 2);
  CHECK_MEM(out, want, 16);
  /* Does not fit in one limb: rejected, output zeroed. */
  CHECK_EQ_INT(bn_from_bytes_be(r, 1, in, sizeof(in)), 0);
  CHECK(r[0] == 0);
  /* Leading zero bytes beyond the width are fine. */
  static const uint8_t padded[12] = {0, 0, 0, 0, 0xde, 0xad, 0xbe, 0xef, 0, 0, 0, 1};
  CHECK_EQ_INT(bn_from_bytes_be(r, 1, padded, sizeof(padded)), 1);
  CHECK(r[0] == 0xdeadbeef00000001ull);
  /* Empty input is zero. */
  r[0] = 5;
  CHECK_EQ_INT(bn_from_bytes_be(r, 1, in, 0), 1);
  CHECK(r[0] == 0);
  /* Random round trips at odd byte lengths. */
  for (int iter = 0; iter < 200; iter++) {
    size_t len = 1 + test_rng_below(&rng, 8 * MAXN);
    uint8_t buf[8 * MAXN], back[8 * MAXN];
    uint64_t x[MAXN];
    test_rng_bytes(&rng, buf, len);
    size_t n = bn_limbs_for_bits(8 * len);
    CHECK_EQ_INT(bn_from_bytes_be(x, n, buf, len), 1);
    bn_to_bytes_be(back, len, x, n);
    CHECK_MEM(back, buf, len);
  }
  CHECK_EQ_INT(bn_limbs_for_bits(0), 0);
  CHECK_EQ_INT(bn_limbs_for_bits(1), 1);
  CHECK_EQ_INT(bn_limbs_for_bits(64), 1);
  CHECK_EQ_INT(bn_limbs_for_bits(65), 2);
  CHECK_EQ_INT(bn_limbs_for_bits(2048), 32);
}

static void test_add_sub_compare(void) {
  uint64_t a[2] = {UINT64_MAX, UINT64_MAX}, b[2] = {1, 0}, r[2];
  CHECK_EQ_INT(bn_add(r, a, b, 2), 1);
  CHECK(r[0] == 0 && r[1] == 0);
  CHECK_EQ_INT(bn_sub(r, b, a, 2), 1); /* 1 - (2^128 - 1) = 2 - 2^128 */
  CHECK(r[0] == 2 && r[1] == 0);
  CHECK_EQ_INT(bn_sub(r, a, b, 2), 0);
  CHECK(r[0] == UINT64_MAX - 1 && r[1] == UINT64_MAX);
  CHECK_EQ_INT(bn_add_word(r, a, 2, 2), 1);
  CHECK(r[0] == 1 && r[1] == 0);
  CHECK_EQ_INT(bn_sub_word(r, b, 2, 2), 1);
  CHECK(r[0] == UINT64_MAX && r[1] == UINT64_MAX);

  CHECK(bn_lt_mask(b, a, 2) == UINT64_MAX);
  CHECK(bn_lt_mask(a, b, 2) == 0);
  CHECK(bn_lt_mask(a, a, 2) == 0);
  uint64_t hi[2] = {0, 1}, lo[2] = {UINT64_MAX, 0};
  CHECK(bn_lt_mask(lo, hi, 2) == UINT64_MAX);
  CHECK(bn_eq_mask(a, a, 2) == UINT64_MAX);
  CHECK(bn_eq_mask(a, b, 2) == 0);
  uint64_t z[2] = {0, 0};
  CHECK(bn_is_zero_mask(z, 2) == UINT64_MAX);
  CHECK(bn_is_zero_mask(b, 2) == 0);
  CHECK(bn_is_odd_mask(b, 2) == UINT64_MAX);
  CHECK(bn_is_odd_mask(z, 2) == 0);

  bn_select(r, UINT64_MAX, a, b, 2);
  CHECK(bn_eq_mask(r, a, 2) == UINT64_MAX);
  bn_select(r, 0, a, b, 2);
  CHECK(bn_eq_mask(r, b, 2) == UINT64_MAX);
  uint64_t x[2] = {1, 2}, y[2] = {3, 4};
  bn_cond_swap(0, x, y, 2);
  CHECK(x[0] == 1 && y[1] == 4);
  bn_cond_swap(UINT64_MAX, x, y, 2);
  CHECK(x[0] == 3 && x[1] == 4 && y[0] == 1 && y[1] == 2);

  /* Modular add/sub mod 7 and mod a two-limb m. */
  uint64_t m7 = 7, s;
  uint64_t five = 5, four = 4;
  bn_mod_add(&s, &five, &four, &m7, 1);
  CHECK(s == 2);
  bn_mod_sub(&s, &four, &five, &m7, 1);
  CHECK(s == 6);
  uint64_t m[2] = {5, 1ull << 63}, mm1[2] = {4, 1ull << 63}, r2[2];
  bn_mod_add(r2, mm1, mm1, m, 2); /* (m-1) + (m-1) = m - 2, across the carry out */
  CHECK(r2[0] == 3 && r2[1] == 1ull << 63);
  bn_mod_sub(r2, z, mm1, m, 2);
  CHECK(r2[0] == 1 && r2[1] == 0);
}

static void test_mul(void) {
  uint64_t a[1] = {UINT64_MAX}, r[2];
  bn_mul(r, a, a, 1); /* (2^64 - 1)^2 = 2^128 - 2^65 + 1 */
  CHECK(r[0] == 1 && r[1] == UINT64_MAX - 1);
  uint64_t x[2] = {3, 1}, y[3] = {2, 0, 5}, p[5];
  bn_mul_unbalanced(p, x, 2, y, 3); /* (2^64 + 3)(5*2^128 + 2) */
  CHECK(p[0] == 6 && p[1] == 2 && p[2] == 15 && p[3] == 5 && p[4] == 0);
  uint64_t w[2] = {UINT64_MAX, UINT64_MAX}, q[2];
  CHECK(bn_mul_word(q, w, 2, 2) == 1);
  CHECK(q[0] == UINT64_MAX - 1 && q[1] == UINT64_MAX);
  /* Commutativity and agreement of balanced and unbalanced forms on random inputs. */
  for (int iter = 0; iter < 50; iter++) {
    size_t n = 1 + test_rng_below(&rng, MAXN);
    uint64_t A[MAXN], B[MAXN], P1[2 * MAXN], P2[2 * MAXN];
    rand_limbs(A, n);
    rand_limbs(B, n);
    bn_mul(P1, A, B, n);
    bn_mul_unbalanced(P2, B, n, A, n);
    CHECK_MEM(P1, P2, 2 * n * sizeof(uint64_t));
  }
}

static void test_shifts_and_bits(void) {
  uint64_t a[2] = {0x8000000000000001ull, 0x3}, r[2];
  bn_rshift1(r, a, 2);
  CHECK(r[0] == 0xC000000000000000ull && r[1] == 1);
  CHECK(bn_lshift1(r, a, 2) == 0);
  CHECK(r[0] == 2 && r[1] == 7);
  bn_rshift(r, a, 64, 2);
  CHECK(r[0] == 3 && r[1] == 0);
  bn_lshift(r, a, 65, 2);
  CHECK(r[0] == 0 && r[1] == 2);
  bn_rshift(r, a, 128, 2);
  CHECK(r[0] == 0 && r[1] == 0);
  CHECK_EQ_INT(bn_bits_public(a, 2), 66);
  CHECK_EQ_INT(bn_bits_consttime(a, 2), 66);
  uint64_t z[2] = {0, 0};
  CHECK_EQ_INT(bn_bits_public(z, 2), 0);
  CHECK_EQ_INT(bn_bits_consttime(z, 2), 0);
  CHECK_EQ_INT(bn_count_low_zero_bits(z, 2), 128);
  uint64_t t[2] = {0, 0x10};
  CHECK_EQ_INT(bn_count_low_zero_bits(t, 2), 68);
  CHECK_EQ_INT(bn_count_low_zero_bits(a, 2), 0);
  for (int iter = 0; iter < 300; iter++) {
    size_t n = 1 + test_rng_below(&rng, 8);
    uint64_t x[8], s1[8], s2[8];
    rand_limbs(x, n);
    /* Thin the value out so bit lengths and trailing zeros vary widely. */
    size_t cut = test_rng_below(&rng, 64 * n);
    bn_rshift(x, x, cut, n);
    bn_lshift(x, x, test_rng_below(&rng, 64 * n - bn_bits_public(x, n) + 1), n);
    CHECK_EQ_INT(bn_bits_consttime(x, n), bn_bits_public(x, n));
    size_t tz = bn_count_low_zero_bits(x, n);
    size_t shift = test_rng_below(&rng, 64 * n);
    bn_rshift_secret(s1, x, shift, n);
    bn_rshift(s2, x, shift, n);
    CHECK_MEM(s1, s2, n * sizeof(uint64_t));
    if (bn_is_zero_mask(x, n) == 0) {
      bn_rshift(s2, x, tz, n);
      CHECK(bn_is_odd_mask(s2, n) == UINT64_MAX);
      bn_lshift(s1, s2, tz, n);
      CHECK_MEM(s1, x, n * sizeof(uint64_t));
    }
  }
}

static void test_division(void) {
  uint64_t a[2] = {100, 0}, d[1] = {7}, q[2], r[1];
  bn_div_consttime(q, r, a, 2, d, 1);
  CHECK(q[0] == 14 && q[1] == 0 && r[0] == 2);
  for (int iter = 0; iter < 200; iter++) {
    size_t an = 1 + test_rng_below(&rng, 12), dn = 1 + test_rng_below(&rng, 6);
    uint64_t A[12], D[6], Q[12], R[6], back[18];
    rand_limbs(A, an);
    rand_limbs(D, dn);
    bn_rshift(D, D, test_rng_below(&rng, 64 * dn), dn);
    if (bn_is_zero_mask(D, dn)) D[0] = 1;
    bn_div_consttime(Q, R, A, an, D, dn);
    CHECK(bn_lt_mask(R, D, dn) == UINT64_MAX);
    /* Q * D + R == A. */
    bn_mul_unbalanced(back, Q, an, D, dn);
    uint64_t Rw[18] = {0};
    memcpy(Rw, R, dn * sizeof(uint64_t));
    bn_add(back, back, Rw, an + dn);
    uint64_t Aw[18] = {0};
    memcpy(Aw, A, an * sizeof(uint64_t));
    CHECK_MEM(back, Aw, (an + dn) * sizeof(uint64_t));
    /* Small divisors through the reciprocal method agree with the division. */
    uint32_t small = (uint32_t)(2 + test_rng_below(&rng, UINT32_MAX - 2));
    if (iter % 3 == 0) small = (uint32_t)(2 + test_rng_below(&rng, 1000));
    uint64_t sd = small, sr;
    bn_div_consttime(NULL, &sr, A, an, &sd, 1);
    CHECK(bn_mod_small_consttime(A, an, small) == sr);
  }
  uint64_t all_ones[3] = {UINT64_MAX, UINT64_MAX, UINT64_MAX};
  CHECK(bn_mod_small_consttime(all_ones, 3, 3) == 0); /* 2^192 - 1 = (2^2 - 1)(...) */
  CHECK(bn_mod_small_consttime(all_ones, 3, UINT32_MAX) == 0);
  CHECK(bn_mod_small_consttime(all_ones, 3, 65537) == 0); /* 2^32 == 1 mod 65537 */
  uint64_t two64[2] = {0, 1};
  CHECK(bn_mod_small_consttime(two64, 2, 10) == 6); /* 18446744073709551616 */
  CHECK(bn_mod_small_consttime(two64, 2, 1000003) == (uint32_t)(((unsigned __int128)1 << 64) % 1000003));
}

/* ref_gcd: Euclid with bn_div_consttime's remainders (n limbs), an independent path from the
 * divsteps. */
static void ref_gcd(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n) {
  uint64_t x[MAXN], y[MAXN], t[MAXN];
  bn_copy(x, a, n);
  bn_copy(y, b, n);
  while (!bn_is_zero_mask(y, n)) {
    ref_mod(t, x, n, y, n);
    bn_copy(x, y, n);
    bn_copy(y, t, n);
  }
  bn_copy(r, x, n);
}

/* bn_gcd_consttime against Euclid on random pairs with a shared random factor (of up to a limb,
 * with its powers of two) and shared low zero bits, either argument the larger: up to 12 limbs,
 * and a few at 24 (RSA-3072's primes; the reference's divisions are slow). */
static void test_gcd_random(void) {
  for (int iter = 0; iter < 300; iter++) {
    const size_t n = iter < 4 ? 24 : 1 + test_rng_below(&rng, 12);
    uint64_t a[MAXN], b[MAXN], g[MAXN], want[MAXN], s = 0;
    const size_t h = n > 1 ? n - 1 : 1;
    rand_limbs(a, h);
    rand_limbs(b, h);
    rand_limbs(&s, 1);
    s >>= test_rng_below(&rng, 64);
    if (s == 0) s = 1;
    if (n > 1) {
      a[n - 1] = bn_mul_word(a, a, s, n - 1);
      b[n - 1] = bn_mul_word(b, b, s, n - 1);
    }
    if (iter % 3 == 0) bn_lshift(a, a, test_rng_below(&rng, 8), n);
    if (iter % 5 == 0) b[0] = 0;
    if (iter % 50 == 0) bn_set_zero(iter % 100 ? a : b, n);
    bn_gcd_consttime(g, a, b, n);
    ref_gcd(want, a, b, n);
    if (!bn_eq_mask(g, want, n)) fprintf(stderr, "gcd differs at iteration %d (n = %zu)\n", iter, n);
    CHECK(bn_eq_mask(g, want, n) == UINT64_MAX);
  }
}

static void test_gcd_inverse(void) {
  uint64_t a = 12, b = 18, g;
  bn_gcd_consttime(&g, &a, &b, 1);
  CHECK(g == 6);
  a = 0;
  b = 40;
  bn_gcd_consttime(&g, &a, &b, 1);
  CHECK(g == 40);
  bn_gcd_consttime(&g, &b, &a, 1);
  CHECK(g == 40);
  uint64_t l[2], x4 = 4, x6 = 6;
  bn_lcm_consttime(l, &x4, &x6, 1);
  CHECK(l[0] == 12 && l[1] == 0);

  /* 3^-1 mod 7 = 5; 2 has no inverse mod 4 (even modulus refused); 6 has none mod 9. */
  uint64_t three = 3, seven = 7, inv, four = 4, six = 6, nine = 9, one = 1;
  CHECK_EQ_INT(bn_mod_inverse_consttime(&inv, &three, &seven, 1), FM_OK);
  CHECK(inv == 5);
  CHECK_EQ_INT(bn_mod_inverse_consttime(&inv, &three, &four, 1), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(bn_mod_inverse_consttime(&inv, &three, &one, 1), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(bn_mod_inverse_consttime(&inv, &six, &nine, 1), FM_ERR_OUT_OF_RANGE);
  CHECK(inv == 0);
  /* Odd value, even modulus: 3^-1 mod 8 = 3, 65537^-1 mod 2^64 - 2... checked by product. */
  uint64_t eight = 8;
  CHECK_EQ_INT(bn_mod_inverse_odd_value(&inv, &three, 1, &eight, 1), FM_OK);
  CHECK(inv == 3);
  CHECK_EQ_INT(bn_mod_inverse_odd_value(&inv, &three, 1, &six, 1), FM_ERR_OUT_OF_RANGE);
  CHECK_EQ_INT(bn_mod_inverse_odd_value(&inv, &six, 1, &seven, 1), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(bn_mod_inverse_odd_value(&inv, &one, 1, &eight, 1), FM_OK);
  CHECK(inv == 1);

  for (int iter = 0; iter < 60; iter++) {
    size_t n = 1 + test_rng_below(&rng, 16);
    uint64_t m[16], x[16], r[16], chk[16], g2[16], onew[16];
    rand_modulus(m, n);
    rand_limbs(x, n);
    bn_set_word(onew, n, 1);
    bn_gcd_consttime(g2, x, m, n);
    int st = bn_mod_inverse_consttime(r, x, m, n);
    if (bn_eq_mask(g2, onew, n)) {
      CHECK_EQ_INT(st, FM_OK);
      uint64_t xr[16];
      ref_mod(xr, x, n, m, n);
      ref_mod_mul(chk, xr, r, m, n);
      CHECK(bn_eq_mask(chk, onew, n) == UINT64_MAX);
      CHECK(bn_lt_mask(r, m, n) == UINT64_MAX);
    } else {
      CHECK_EQ_INT(st, FM_ERR_OUT_OF_RANGE);
    }
    /* RSA's d = e^-1 mod an even lambda: e * d == 1 (mod lambda). */
    uint64_t lam[16], e[2];
    rand_limbs(lam, n);
    lam[0] &= ~(uint64_t)1;
    if (lam[n - 1] == 0) lam[n - 1] = 1;
    size_t en = n >= 2 && iter % 2 ? 2 : 1;
    rand_limbs(e, en);
    e[0] |= 1;
    if (iter % 4 == 0) {
      e[0] = 65537;
      en = 1;
    }
    uint64_t ew[16] = {0};
    memcpy(ew, e, en * sizeof(uint64_t));
    bn_gcd_consttime(g2, ew, lam, n);
    st = bn_mod_inverse_odd_value(r, e, en, lam, n);
    if (bn_eq_mask(g2, onew, n)) {
      CHECK_EQ_INT(st, FM_OK);
      CHECK(bn_lt_mask(r, lam, n) == UINT64_MAX);
      uint64_t p[18];
      bn_mul_unbalanced(p, r, n, e, en);
      ref_mod(chk, p, n + en, lam, n);
      CHECK(bn_eq_mask(chk, onew, n) == UINT64_MAX);
    } else {
      CHECK_EQ_INT(st, FM_ERR_OUT_OF_RANGE);
    }
    /* lcm(a, b) * gcd(a, b) == a * b. */
    uint64_t A[16], B[16], L[32], G[16], AB[32], LG[48];
    rand_limbs(A, n);
    rand_limbs(B, n);
    A[0] &= ~(uint64_t)3; /* share some factors of two */
    B[0] &= ~(uint64_t)1;
    A[0] |= 4;
    B[0] |= 2;
    bn_lcm_consttime(L, A, B, n);
    bn_gcd_consttime(G, A, B, n);
    bn_mul(AB, A, B, n);
    bn_mul_unbalanced(LG, L, 2 * n, G, n);
    CHECK_MEM(LG, AB, 2 * n * sizeof(uint64_t));
    CHECK(bn_is_zero_mask(LG + 2 * n, n) == UINT64_MAX);
  }
}

/* check_ctx: n0 * N == -1 mod 2^64 and RR == 2^(128n) mod N (by division). */
static void check_ctx(const uint64_t *N, size_t n) {
  bn_mont_ctx ctx;
  CHECK_EQ_INT(bn_mont_ctx_init_secret(&ctx, N, n), FM_OK);
  CHECK(ctx.n == n);
  CHECK(ctx.n0 * N[0] == UINT64_MAX);
  uint64_t pow[2 * MAXN + 1] = {0}, want[MAXN];
  pow[2 * n] = 1;
  ref_mod(want, pow, 2 * n + 1, N, n);
  CHECK_MEM(ctx.RR, want, n * sizeof(uint64_t));
  bn_mont_ctx pub;
  CHECK_EQ_INT(bn_mont_ctx_init_public(&pub, N, n), FM_OK);
  CHECK_MEM(pub.RR, want, n * sizeof(uint64_t));
  CHECK(pub.n0 == ctx.n0);
}

static void test_mont_ctx(void) {
  /* N = 3 (one limb): R^2 mod 3 = 2^128 mod 3 = 1. */
  uint64_t three = 3;
  bn_mont_ctx ctx;
  CHECK_EQ_INT(bn_mont_ctx_init_secret(&ctx, &three, 1), FM_OK);
  CHECK(ctx.RR[0] == 1);
  CHECK(ctx.n0 == 0x5555555555555555ull); /* 3 * 0x5555...5 = 2^64 - 1 */
  check_ctx(&three, 1);
  /* Refusals: even, top limb zero, n == 0, N == 1, too wide. */
  uint64_t even[2] = {4, 1}, topzero[2] = {5, 0}, one = 1;
  CHECK_EQ_INT(bn_mont_ctx_init_secret(&ctx, even, 2), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(bn_mont_ctx_init_secret(&ctx, topzero, 2), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(bn_mont_ctx_init_secret(&ctx, even, 0), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(bn_mont_ctx_init_secret(&ctx, &one, 1), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(bn_mont_ctx_init_secret(&ctx, even, BN_MAX_LIMBS + 1), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(bn_mont_ctx_init_public(&ctx, even, 2), FM_ERR_BAD_ARGUMENT);
  CHECK(test_is_all_zero(&ctx, sizeof(ctx)));

  /* Many small moduli whose top limb has every bit length: the setup's word-shift quotient
   * estimates meet all normalizations. */
  for (int iter = 0; iter < 3000; iter++) {
    size_t n = 1 + test_rng_below(&rng, 8);
    uint64_t N[8];
    rand_modulus(N, n);
    N[n - 1] >>= test_rng_below(&rng, 64);
    if (N[n - 1] == 0) N[n - 1] = 1;
    if (iter % 5 == 0) N[n - 1] = 1ull << test_rng_below(&rng, 64); /* a power-of-two top limb */
    N[0] |= 1;
    if (n == 1 && N[0] == 1) N[0] = 3;
    check_ctx(N, n);
  }
  for (size_t n = 1; n <= MAXN; n += (n < 8 ? 1 : 7)) {
    uint64_t N[MAXN];
    for (size_t j = 0; j < n; j++) N[j] = UINT64_MAX; /* 2^(64n) - 1 */
    check_ctx(N, n);
    bn_set_word(N, n, 1); /* 2^(64(n-1)) + 1: top limb 1 */
    N[n - 1] = 1;
    if (n > 1) check_ctx(N, n);
    rand_modulus(N, n);
    N[n - 1] = 1 + test_rng_below(&rng, 255); /* small top limb */
    N[0] |= 1;
    if (n == 1 && N[0] == 1) N[0] = 3;
    check_ctx(N, n);
    rand_modulus(N, n);
    check_ctx(N, n);
  }
}

/* The paired exponentiation equals two single ones: same width (the interleaved IFMA path at
 * 1024 and 1536 bits; 18 limbs fill all but the top digit of its registers, 19 fill them all
 * and take the one-after-the-other route) and different widths (one after the other). */
static void test_exp_x2(void) {
  static const size_t widths[][2] = {{16, 16}, {24, 24}, {18, 18}, {19, 19},
                                     {16, 17}, {4, 32},   {32, 32}};
  for (size_t w = 0; w < sizeof(widths) / sizeof(widths[0]); w++) {
    size_t n1 = widths[w][0], n2 = widths[w][1], en = n1 < n2 ? n1 : n2;
    uint64_t N1[MAXN], N2[MAXN], b1[MAXN], b2[MAXN], e1[MAXN], e2[MAXN];
    uint64_t r1[MAXN], r2[MAXN], w1[MAXN], w2[MAXN];
    bn_mont_ctx c1, c2;
    rand_modulus(N1, n1);
    rand_modulus(N2, n2);
    CHECK_EQ_INT(bn_mont_ctx_init_secret(&c1, N1, n1), FM_OK);
    CHECK_EQ_INT(bn_mont_ctx_init_secret(&c2, N2, n2), FM_OK);
    rand_limbs(b1, n1);
    rand_limbs(b2, n2);
    ref_mod(b1, b1, n1, N1, n1);
    ref_mod(b2, b2, n2, N2, n2);
    rand_limbs(e1, en);
    rand_limbs(e2, en);
    CHECK_EQ_INT(bn_mod_exp_consttime_x2(r1, b1, e1, &c1, r2, b2, e2, &c2, en), FM_OK);
    CHECK_EQ_INT(bn_mod_exp_public(w1, b1, e1, en, &c1), FM_OK);
    CHECK_EQ_INT(bn_mod_exp_public(w2, b2, e2, en, &c2), FM_OK);
    CHECK_MEM(r1, w1, n1 * sizeof(uint64_t));
    CHECK_MEM(r2, w2, n2 * sizeof(uint64_t));
  }
}

/* Extreme moduli and operands for the radix-2^52 kernels (AVX-512 IFMA where the CPU has it,
 * 1024 to 4096 bits): all-ones moduli and bases N - 1 give runs of 52-bit digits equal to
 * 2^52 - 1, which is where a carry has to ripple through many lanes at the end of a
 * multiplication; a lone top bit gives near-zero digits. The exponentiations (constant-time,
 * paired and public, all radix 2^52 with IFMA) must agree with ref_exp, square and multiply
 * with bn_mod_mul (the 64-bit Montgomery kernels, never IFMA). 256-bit exponents keep the
 * reference cheap; the kernels still run on the extreme values throughout. */
static void ref_exp(uint64_t *r, const uint64_t *base, const uint64_t *e, size_t en,
                    const bn_mont_ctx *ctx) {
  uint64_t acc[MAXN];
  bn_set_word(acc, ctx->n, 1);
  for (size_t i = 64 * en; i > 0; i--) {
    bn_mod_mul(acc, acc, acc, ctx);
    if ((e[(i - 1) / 64] >> ((i - 1) % 64)) & 1) bn_mod_mul(acc, acc, base, ctx);
  }
  bn_copy(r, acc, ctx->n);
}

static void test_exp_extreme(void) {
  enum { EN = 4 };
  static const size_t widths[] = {16, 24, 32, 48, 64};
  for (size_t w = 0; w < sizeof(widths) / sizeof(widths[0]); w++) {
    const size_t n = widths[w];
    uint64_t N[4][MAXN];
    for (size_t j = 0; j < n; j++) {
      N[0][j] = ~(uint64_t)0;                                 /* 2^(64n) - 1 */
      N[1][j] = 0;                                            /* 2^(64n - 1) + 1 */
      N[2][j] = j % 2 ? ~(uint64_t)0 : 0xFFFFF00000000001ull; /* mixed runs */
      N[3][j] = ~(uint64_t)0;                                 /* 2^(64n) - 2^52 - 1 */
    }
    N[1][0] = 1;
    N[1][n - 1] = (uint64_t)1 << 63;
    N[2][n - 1] |= (uint64_t)1 << 63;
    N[3][0] = ~((uint64_t)1 << 52);
    for (size_t k = 0; k < 4; k++) {
      bn_mont_ctx ctx, ctx2;
      CHECK_EQ_INT(bn_mont_ctx_init_secret(&ctx, N[k], n), FM_OK);
      CHECK_EQ_INT(bn_mont_ctx_init_secret(&ctx2, N[(k + 1) % 4], n), FM_OK);
      uint64_t bases[3][MAXN], e[MAXN], r[MAXN], r2[MAXN], want[MAXN], want2[MAXN];
      bn_copy(bases[0], N[k], n);
      (void)bn_sub_word(bases[0], bases[0], 1, n); /* N - 1 */
      bn_copy(bases[1], N[k], n);
      (void)bn_sub_word(bases[1], bases[1], 2, n); /* N - 2 */
      uint64_t raw[MAXN];
      rand_limbs(raw, n);
      ref_mod(bases[2], raw, n, N[k], n);
      for (size_t b = 0; b < 3; b++) {
        for (size_t j = 0; j < EN; j++) e[j] = b == 1 ? test_rng_u64(&rng) : ~(uint64_t)0;
        ref_exp(want, bases[b], e, EN, &ctx);
        CHECK_EQ_INT(bn_mod_exp_consttime(r, bases[b], e, EN, &ctx), FM_OK);
        CHECK_MEM(r, want, n * sizeof(uint64_t));
        CHECK_EQ_INT(bn_mod_exp_public(r, bases[b], e, EN, &ctx), FM_OK);
        CHECK_MEM(r, want, n * sizeof(uint64_t));
        /* Paired with the next modulus (base N' - 1 there, N' the other one). */
        uint64_t b2[MAXN];
        bn_copy(b2, N[(k + 1) % 4], n);
        (void)bn_sub_word(b2, b2, 1, n);
        ref_exp(want2, b2, e, EN, &ctx2);
        CHECK_EQ_INT(bn_mod_exp_consttime_x2(r, bases[b], e, &ctx, r2, b2, e, &ctx2, EN), FM_OK);
        CHECK_MEM(r, want, n * sizeof(uint64_t));
        CHECK_MEM(r2, want2, n * sizeof(uint64_t));
      }
      bn_mont_ctx_wipe(&ctx);
      bn_mont_ctx_wipe(&ctx2);
    }
  }
}

static void test_mont_ops(void) {
  /* Known answers mod 1000003 (prime): 3^5 = 243, 2^20 mod 1000003 = 48573
   * (1048576 - 1000003), 7^(p-1) = 1 (Fermat). */
  uint64_t p = 1000003, three = 3, five = 5, two = 2, twenty = 20, seven = 7, pm1 = 1000002;
  bn_mont_ctx ctx;
  CHECK_EQ_INT(bn_mont_ctx_init_secret(&ctx, &p, 1), FM_OK);
  uint64_t r;
  CHECK_EQ_INT(bn_mod_exp_consttime(&r, &three, &five, 1, &ctx), FM_OK);
  CHECK(r == 243);
  CHECK_EQ_INT(bn_mod_exp_public(&r, &three, &five, 1, &ctx), FM_OK);
  CHECK(r == 243);
  CHECK_EQ_INT(bn_mod_exp_consttime(&r, &two, &twenty, 1, &ctx), FM_OK);
  CHECK(r == 48573);
  CHECK_EQ_INT(bn_mod_exp_consttime(&r, &seven, &pm1, 1, &ctx), FM_OK);
  CHECK(r == 1);
  CHECK_EQ_INT(bn_mod_exp_consttime(&r, &seven, &pm1, 0, &ctx), FM_OK); /* empty exponent */
  CHECK(r == 1);
  bn_mod_mul(&r, &three, &seven, &ctx);
  CHECK(r == 21);
  bn_mont_one(&r, &ctx); /* 2^64 mod 1000003 */
  CHECK(r == (uint64_t)(((unsigned __int128)1 << 64) % 1000003));

  for (int iter = 0; iter < 120; iter++) {
    size_t n = 1 + test_rng_below(&rng, MAXN);
    uint64_t N[MAXN], a[MAXN], b[MAXN], x[MAXN], y[MAXN], want[MAXN];
    rand_modulus(N, n);
    if (iter % 4 == 1) {
      N[n - 1] = 1 + test_rng_below(&rng, 3);
      N[0] |= 1;
      if (n == 1 && N[0] == 1) N[0] = 3;
    }
    if (iter % 4 == 2) {
      for (size_t j = 0; j < n; j++) N[j] = UINT64_MAX;
      N[0] -= 2 * test_rng_below(&rng, 1000);
    }
    CHECK_EQ_INT(bn_mont_ctx_init_secret(&ctx, N, n), FM_OK);
    rand_limbs(a, n);
    rand_limbs(b, n);
    ref_mod(a, a, n, N, n);
    ref_mod(b, b, n, N, n);
    if (iter % 10 == 0) bn_sub_word(a, N, 1, n); /* N - 1 */
    /* to_mont / from_mont round trip; mont_mul of Montgomery forms. */
    bn_to_mont(x, a, &ctx);
    bn_from_mont(y, x, &ctx);
    CHECK_MEM(y, a, n * sizeof(uint64_t));
    bn_to_mont(y, b, &ctx);
    bn_mont_mul(x, x, y, &ctx); /* aliasing r == a */
    bn_from_mont(x, x, &ctx);
    ref_mod_mul(want, a, b, N, n);
    CHECK_MEM(x, want, n * sizeof(uint64_t));
    bn_mod_mul(x, a, b, &ctx);
    CHECK_MEM(x, want, n * sizeof(uint64_t));
    /* Squaring agrees with multiplication. */
    bn_mont_sqr(x, a, &ctx);
    bn_mont_mul(y, a, a, &ctx);
    CHECK_MEM(x, y, n * sizeof(uint64_t));
    /* Reduction of a 2n- and a 3n+1-limb number. */
    uint64_t big[3 * MAXN + 1];
    rand_limbs(big, 3 * n + 1);
    bn_mod_reduce(x, big, 2 * n, &ctx);
    ref_mod(want, big, 2 * n, N, n);
    CHECK_MEM(x, want, n * sizeof(uint64_t));
    bn_mod_reduce(x, big, 3 * n + 1, &ctx);
    ref_mod(want, big, 3 * n + 1, N, n);
    CHECK_MEM(x, want, n * sizeof(uint64_t));
    /* Exponentiation: consttime == public == plain square-and-multiply with ref_mod_mul. */
    if (n <= 24) {
      size_t en = 1 + test_rng_below(&rng, n + 2);
      uint64_t e[MAXN + 2];
      rand_limbs(e, en);
      CHECK_EQ_INT(bn_mod_exp_consttime(x, a, e, en, &ctx), FM_OK);
      CHECK_EQ_INT(bn_mod_exp_public(y, a, e, en, &ctx), FM_OK);
      CHECK_MEM(x, y, n * sizeof(uint64_t));
      bn_set_word(want, n, 1);
      if (n == 1 && N[0] == 1) want[0] = 0;
      for (size_t i = 64 * en; i > 0; i--) {
        ref_mod_mul(want, want, want, N, n);
        if ((e[(i - 1) / 64] >> ((i - 1) % 64)) & 1) ref_mod_mul(want, want, a, N, n);
      }
      CHECK_MEM(x, want, n * sizeof(uint64_t));
    }
  }
}

/* The divsteps inverse (bn_inverse.c) on random odd moduli of every width from 1 to 64 limbs and
 * then 71 to 256 (top limb small in some, top bit set in others), random a below m and above it
 * (a is any n-limb value), plus a = 1, a = m - 1, a = 0 and a common factor: a * r = 1 mod m
 * whenever gcd(a, m) = 1 (gcd from the binary gcd, an independent algorithm), else a zero mask
 * and r = 0. */
static void test_mod_inverse_divsteps(void) {
  static uint64_t m[BN_MAX_LIMBS], a[BN_MAX_LIMBS], r[BN_MAX_LIMBS], t[BN_MAX_LIMBS],
      g[BN_MAX_LIMBS], one[BN_MAX_LIMBS];
  static bn_mont_ctx ctx;
  for (size_t n = 1; n <= BN_MAX_LIMBS; n += (n < 8 ? 1 : n < 64 ? 7 : 37)) {
    const int iters = n <= 64 ? 12 : 3;
    bn_set_word(one, n, 1);
    for (int iter = 0; iter < iters; iter++) {
      rand_limbs(m, n);
      if (iter % 4 == 1) m[n - 1] = 1 + (m[n - 1] >> 60); /* small top limb */
      if (iter % 4 == 2) m[n - 1] |= UINT64_C(1) << 63;
      m[0] |= 1;
      if (m[n - 1] == 0) m[n - 1] = 1;
      if (n == 1 && m[0] < 3) m[0] = 3; /* a modulus above 1 */
      CHECK_EQ_INT(bn_mont_ctx_init_public(&ctx, m, n), FM_OK);
      rand_limbs(a, n);
      if (iter % 2 == 0) { /* below m; odd iterations keep a full-width a, often above m */
        bn_mod_reduce(t, a, n, &ctx);
        bn_copy(a, t, n);
      }
      if (iter == 0) bn_set_word(a, n, 1);
      if (iter == 4) (void)bn_sub_word(a, m, 1, n);
      const uint64_t ok = bn_mod_inverse_mask(r, a, m, n);
      bn_gcd_consttime(g, a, m, n);
      const uint64_t coprime = bn_eq_mask(g, one, n);
      CHECK(ok == coprime);
      if (ok) {
        CHECK(bn_lt_mask(r, m, n) == UINT64_MAX);
        bn_mod_reduce(t, a, n, &ctx);
        bn_mod_mul(t, t, r, &ctx);
        CHECK(bn_eq_mask(t, one, n) == UINT64_MAX);
      } else {
        CHECK(bn_is_zero_mask(r, n) == UINT64_MAX);
      }
    }
    bn_set_zero(a, n); /* zero has no inverse */
    CHECK(bn_mod_inverse_mask(r, a, m, n) == 0);
    CHECK(bn_is_zero_mask(r, n) == UINT64_MAX);
  }
  /* A common factor: m = 3 * 5, a = 5; and m = 1, where every a has the inverse 0. */
  bn_set_word(m, 1, 15);
  bn_set_word(a, 1, 5);
  CHECK(bn_mod_inverse_mask(r, a, m, 1) == 0);
  bn_set_word(m, 1, 1);
  bn_set_word(a, 1, 12345);
  CHECK(bn_mod_inverse_mask(r, a, m, 1) == UINT64_MAX);
  CHECK(r[0] == 0);
}

/* bn_mod_inverse_256_mask (the 256-bit divsteps with delta starting at 1/2) against
 * bn_mod_inverse_mask and a * r = 1 mod m: random odd 4-limb moduli (top bit set, small top
 * limbs, the P-256 prime and order, 2^256 - 1) with random a below m, a = 1, a = m - 1, a = 0 and
 * a common factor. */
static void test_mod_inverse_256(void) {
  static const uint64_t p256[4] = {0xffffffffffffffffu, 0x00000000ffffffffu, 0,
                                   0xffffffff00000001u};
  static const uint64_t n256[4] = {0xf3b9cac2fc632551u, 0xbce6faada7179e84u,
                                   0xffffffffffffffffu, 0xffffffff00000000u};
  uint64_t m[4], a[4], r[4], w[4], t[4], one[4];
  static bn_mont_ctx ctx;
  bn_set_word(one, 4, 1);
  for (int iter = 0; iter < 4000; iter++) {
    rand_limbs(m, 4);
    if (iter % 5 == 1) m[3] = 1 + (m[3] >> 60);
    if (iter % 5 == 2) m[3] |= UINT64_C(1) << 63;
    if (iter % 5 == 3) memcpy(m, iter % 2 ? p256 : n256, sizeof m);
    if (iter == 4) memset(m, 0xff, sizeof m);
    m[0] |= 1;
    if (m[3] == 0) m[3] = 1;
    CHECK_EQ_INT(bn_mont_ctx_init_public(&ctx, m, 4), FM_OK);
    rand_limbs(a, 4);
    bn_mod_reduce(t, a, 4, &ctx);
    bn_copy(a, t, 4);
    if (iter % 97 == 0) bn_set_word(a, 4, 1);
    if (iter % 97 == 1) (void)bn_sub_word(a, m, 1, 4);
    if (iter % 97 == 2) bn_set_zero(a, 4);
    if (iter % 97 == 3) { /* a common factor of 3 with m, where m has one */
      bn_set_word(a, 4, 3);
    }
    const uint64_t want_ok = bn_mod_inverse_mask(w, a, m, 4);
    const uint64_t ok = bn_mod_inverse_256_mask(r, a, m);
    CHECK(ok == want_ok);
    CHECK_MEM(r, w, sizeof r);
    if (ok) {
      bn_mod_mul(t, a, r, &ctx);
      CHECK(bn_eq_mask(t, one, 4) == UINT64_MAX);
    } else {
      CHECK(bn_is_zero_mask(r, 4) == UINT64_MAX);
    }
  }
}

static const test_case cases[] = {
  TEST_CASE(bytes),
  TEST_CASE(add_sub_compare),
  TEST_CASE(mul),
  TEST_CASE(shifts_and_bits),
  TEST_CASE(division),
  TEST_CASE(gcd_inverse),
  TEST_CASE(gcd_random),
  TEST_CASE(mod_inverse_divsteps),
  TEST_CASE(mod_inverse_256),
  TEST_CASE(mont_ctx),
  TEST_CASE(mont_ops),
  TEST_CASE(exp_x2),
  TEST_CASE(exp_extreme),
};

int main(int argc, char **argv) {
  fprintf(stderr, "module state %s, cpu paths: %s, bn path: %s\n",
          fm_module_state_name(fm_module_state()), fm_module_cpu_paths(),
          bn_path_name());
  test_rng_seed(&rng, "test_bn_unit");
  return TEST_RUN(argc, argv, "test_bn_unit", cases);
}
