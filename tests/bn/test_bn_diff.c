/* Differential test of module/bn against OpenSSL's BN: Montgomery setup (R^2 mod N against
 * BN_mod of 2^(128n)), Montgomery multiplication (against BN_mod_mul_montgomery, same R),
 * modular multiplication (BN_mod_mul), reduction of 2n-limb values (BN_mod) and exponentiation
 * (BN_mod_exp), for every width from 256 to 4096 bits in 64-bit steps, with odd moduli of three
 * shapes: random with the top bit set, a small top limb, and just under 2^(64n).
 * Over 100,000 random operands in all (FIPSMOD_DIFF_DIVISOR divides that: test_util.h). The seed
 * is printed; FIPSMOD_TEST_SEED replays a run. */
#include <openssl/bn.h>
#include <string.h>

#include "fipsmod/module.h"
#include "module/bn/internal.h"
#include "module/internal.h"
#include "tests/common/test_util.h"

#define MAXN 64

static test_rng rng;
static BN_CTX *bnctx;
static long operands;

static void to_bn(BIGNUM *r, const uint64_t *a, size_t n) {
  uint8_t buf[8 * MAXN * 2];
  bn_to_bytes_be(buf, 8 * n, a, n);
  if (BN_bin2bn(buf, (int)(8 * n), r) == NULL) CHECK(0);
}

/* check_equal: our n-limb value against OpenSSL's, as fixed-width big-endian bytes. */
static int check_equal(const uint64_t *ours, const BIGNUM *theirs, size_t n, const char *what,
                       size_t bits) {
  uint8_t a[8 * MAXN], b[8 * MAXN];
  bn_to_bytes_be(a, 8 * n, ours, n);
  if (BN_num_bytes(theirs) > (int)(8 * n) || BN_bn2binpad(theirs, b, (int)(8 * n)) < 0) {
    CHECK(0);
    return 0;
  }
  if (memcmp(a, b, 8 * n) != 0) {
    test_failures++;
    fprintf(stderr, "mismatch: %s at %zu bits\n", what, bits);
    return 0;
  }
  return 1;
}

static void rand_limbs(uint64_t *r, size_t n) {
  for (size_t i = 0; i < n; i++) r[i] = test_rng_u64(&rng);
}

/* make_modulus: shape 0 random with the top bit set, 1 a small top limb, 2 just under 2^(64n). */
static void make_modulus(uint64_t *N, size_t n, int shape) {
  rand_limbs(N, n);
  if (shape == 0) N[n - 1] |= 1ull << 63;
  if (shape == 1) N[n - 1] = 1 + test_rng_below(&rng, 1 + (test_rng_u64(&rng) & 0xff));
  if (shape == 2) {
    for (size_t j = 0; j < n; j++) N[j] = UINT64_MAX;
    N[0] -= 2 * test_rng_below(&rng, 1u << 16);
  }
  N[0] |= 1;
  if (n == 1 && N[0] == 1) N[0] = 3; /* 1 is no modulus */
}

/* rand_below: a random value < N: usually uniform-ish (random mod N), sometimes N - 1 or small. */
static void rand_below(uint64_t *a, const uint64_t *N, size_t n, const bn_mont_ctx *ctx) {
  uint64_t wide[2 * MAXN];
  rand_limbs(wide, 2 * n);
  bn_mod_reduce(a, wide, 2 * n, ctx);
  uint64_t pick = test_rng_below(&rng, 32);
  if (pick == 0) bn_sub_word(a, N, 1, n);
  if (pick == 1) bn_set_word(a, n, test_rng_below(&rng, 4));
}

static void test_width(size_t n, int mods, int muls, int exps) {
  const size_t bits = 64 * n;
  BIGNUM *bN = BN_new(), *ba = BN_new(), *bb = BN_new(), *br = BN_new(), *be = BN_new(),
         *bx = BN_new();
  BN_MONT_CTX *mont = BN_MONT_CTX_new();
  /* The previous modulus of this width, for the paired exponentiation. */
  bn_mont_ctx prev;
  uint64_t prevN[MAXN];
  int have_prev = 0;
  for (int mi = 0; mi < mods; mi++) {
    uint64_t N[MAXN], a[MAXN], b[MAXN], r[MAXN], e[MAXN];
    make_modulus(N, n, mi % 3);
    bn_mont_ctx ctx;
    CHECK_EQ_INT(bn_mont_ctx_init_secret(&ctx, N, n), FM_OK);
    to_bn(bN, N, n);
    if (!BN_MONT_CTX_set(mont, bN, bnctx)) CHECK(0);
    /* Setup: RR == 2^(128n) mod N, and the public-modulus setup agrees. */
    BN_one(bx);
    BN_lshift(bx, bx, (int)(128 * n));
    BN_mod(br, bx, bN, bnctx);
    check_equal(ctx.RR, br, n, "R^2 mod N (secret setup)", bits);
    bn_mont_ctx pub;
    CHECK_EQ_INT(bn_mont_ctx_init_public(&pub, N, n), FM_OK);
    check_equal(pub.RR, br, n, "R^2 mod N (public setup)", bits);
    CHECK(ctx.n0 * N[0] == UINT64_MAX);
    operands++;

    for (int k = 0; k < muls; k++) {
      rand_below(a, N, n, &ctx);
      rand_below(b, N, n, &ctx);
      to_bn(ba, a, n);
      to_bn(bb, b, n);
      /* Montgomery product with the same R = 2^(64n). */
      bn_mont_mul(r, a, b, &ctx);
      BN_mod_mul_montgomery(br, ba, bb, mont, bnctx);
      check_equal(r, br, n, "mont_mul", bits);
      bn_mont_sqr(r, a, &ctx);
      BN_mod_mul_montgomery(br, ba, ba, mont, bnctx);
      check_equal(r, br, n, "mont_sqr", bits);
      if (k % 4 == 0) {
        bn_mod_mul(r, a, b, &ctx);
        BN_mod_mul(br, ba, bb, bN, bnctx);
        check_equal(r, br, n, "mod_mul", bits);
        /* A 2n-limb value reduced mod N, as RSA-CRT does. */
        uint64_t wide[2 * MAXN];
        rand_limbs(wide, 2 * n);
        bn_mod_reduce(r, wide, 2 * n, &ctx);
        to_bn(bx, wide, 2 * n);
        BN_mod(br, bx, bN, bnctx);
        check_equal(r, br, n, "mod_reduce", bits);
      }
      operands += 2;
    }
    for (int k = 0; k < exps; k++) {
      rand_below(a, N, n, &ctx);
      /* Full-width exponents, and now and then a short one or a public e = 65537. */
      size_t en = k % 3 == 2 ? 1 + test_rng_below(&rng, n) : n;
      rand_limbs(e, en);
      to_bn(ba, a, n);
      to_bn(be, e, en);
      CHECK_EQ_INT(bn_mod_exp_consttime(r, a, e, en, &ctx), FM_OK);
      BN_mod_exp(br, ba, be, bN, bnctx);
      check_equal(r, br, n, "mod_exp_consttime", bits);
      uint64_t e65537 = 65537;
      CHECK_EQ_INT(bn_mod_exp_public(r, a, &e65537, 1, &ctx), FM_OK);
      BN_set_word(be, 65537);
      BN_mod_exp(br, ba, be, bN, bnctx);
      check_equal(r, br, n, "mod_exp_public", bits);
      operands += 2;
    }
    if (have_prev && exps > 0) {
      /* Two exponentiations at once (RSA-CRT style), each against OpenSSL. */
      uint64_t a2[MAXN], e2[MAXN], r2[MAXN];
      rand_below(a, N, n, &ctx);
      rand_below(a2, prevN, n, &prev);
      rand_limbs(e, n);
      rand_limbs(e2, n);
      CHECK_EQ_INT(bn_mod_exp_consttime_x2(r, a, e, &ctx, r2, a2, e2, &prev, n), FM_OK);
      to_bn(ba, a, n);
      to_bn(be, e, n);
      BN_mod_exp(br, ba, be, bN, bnctx);
      check_equal(r, br, n, "mod_exp_consttime_x2 (first)", bits);
      BIGNUM *bN2 = BN_new();
      to_bn(bN2, prevN, n);
      to_bn(ba, a2, n);
      to_bn(be, e2, n);
      BN_mod_exp(br, ba, be, bN2, bnctx);
      check_equal(r2, br, n, "mod_exp_consttime_x2 (second)", bits);
      BN_free(bN2);
      operands += 2;
    }
    prev = ctx;
    memcpy(prevN, N, n * sizeof(uint64_t));
    have_prev = 1;
    bn_mont_ctx_wipe(&ctx);
  }
  bn_mont_ctx_wipe(&prev);
  BN_free(bN);
  BN_free(ba);
  BN_free(bb);
  BN_free(br);
  BN_free(be);
  BN_free(bx);
  BN_MONT_CTX_free(mont);
}

int main(void) {
  fprintf(stderr, "bn path: %s (module state %s)\n",
          bn_path_name(),
          fm_module_state_name(fm_module_state()));
  test_rng_seed(&rng, "test_bn_diff");
  bnctx = BN_CTX_new();
  /* Every width from 256 to 4096 bits in 64-bit steps; fewer operations as the width grows
   * so that the whole run stays within a minute or so. Plus the small widths below 256. Under
   * the sanitizer presets (FIPSMOD_DIFF_DIVISOR) the multiplications are divided, not the moduli
   * or the exponentiations. */
  for (size_t n = 1; n <= 64; n++) {
    int mods = 6;
    int muls = (int)test_case_count(n <= 16 ? 300 : n <= 32 ? 250 : 200);
    int exps = n <= 8 ? 4 : n <= 24 ? 2 : n <= 40 ? 1 : (n % 2);
    test_width(n, mods, muls, exps);
  }
  fprintf(stderr, "test_bn_diff: %ld operands compared\n", operands);
  CHECK(operands >= test_case_count(100000));
  BN_CTX_free(bnctx);
  return test_main_result("test_bn_diff");
}
