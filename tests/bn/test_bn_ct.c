/* Constant-time test of module/bn under valgrind memcheck.
 *
 * The secrets (a modulus, a base, an exponent and the inputs of the gcd/inverse/division
 * helpers) are marked undefined with VALGRIND_MAKE_MEM_UNDEFINED. Memcheck then reports every
 * branch, memory index or system-call argument that depends on them, so a clean run (ctest runs
 * this under `valgrind --error-exitcode=1`) shows that Montgomery setup for a secret modulus,
 * exponentiation with a secret exponent and the rest run in constant time on the path taken
 * (FIPSMOD_CPU=portable selects the portable one). Outputs are marked defined again before they
 * are compared with results computed on public copies. Run natively, the test checks the
 * answers only.
 *
 * With --self-check-leak the program branches on a secret on purpose: ctest expects valgrind to
 * fail that run, which shows the harness catches a leak. */
#include <string.h>
#include <valgrind/memcheck.h>

#include "fipsmod/module.h"
#include "module/bn/internal.h"
#include "module/internal.h"
#include "tests/common/test_util.h"

#define MAXN 136

static test_rng rng;

static void secret(void *p, size_t len) { (void)VALGRIND_MAKE_MEM_UNDEFINED(p, len); }
static void public(void *p, size_t len) { (void)VALGRIND_MAKE_MEM_DEFINED(p, len); }

static void rand_limbs(uint64_t *r, size_t n) {
  for (size_t i = 0; i < n; i++) r[i] = test_rng_u64(&rng);
}

/* Montgomery setup, multiplication, reduction and exponentiation at n limbs, with an exponent of
 * el limbs (every one of its bits processed: the exponent's width is public). */
static void check_mont_exp(size_t n, size_t el) {
  uint64_t N[MAXN], base[MAXN], exp[MAXN], wide[2 * MAXN];
  rand_limbs(N, n);
  N[0] |= 1;
  N[n - 1] |= 1ull << 63;
  if (n >= 2 && n % 2 == 0) N[n - 1] = 1 + (N[n - 1] & 0xff); /* a small top limb too */
  rand_limbs(base, n);
  rand_limbs(exp, n);
  rand_limbs(wide, 2 * n);

  /* Reference answers from public copies (the public-modulus setup, public exponent path). */
  bn_mont_ctx ref;
  CHECK_EQ_INT(bn_mont_ctx_init_public(&ref, N, n), FM_OK);
  uint64_t b_ref[MAXN], want_exp[MAXN], want_red[MAXN];
  bn_mod_reduce(b_ref, base, n, &ref);
  CHECK_EQ_INT(bn_mod_exp_public(want_exp, b_ref, exp, el, &ref), FM_OK);
  bn_mod_reduce(want_red, wide, 2 * n, &ref);

  /* The same computations on secrets. */
  bn_mont_ctx ctx;
  secret(N, sizeof(uint64_t) * n);
  secret(base, sizeof(uint64_t) * n);
  secret(exp, sizeof(uint64_t) * n);
  secret(wide, sizeof(uint64_t) * 2 * n);
  CHECK_EQ_INT(bn_mont_ctx_init_secret(&ctx, N, n), FM_OK);
  uint64_t b[MAXN], got_exp[MAXN], got_red[MAXN], got_mul[MAXN];
  bn_mod_reduce(b, base, n, &ctx);
  CHECK_EQ_INT(bn_mod_exp_consttime(got_exp, b, exp, el, &ctx), FM_OK);
  bn_mod_reduce(got_red, wide, 2 * n, &ctx);
  bn_mod_mul(got_mul, b, b, &ctx);

  public(&ctx, sizeof(ctx));
  public(got_exp, sizeof(uint64_t) * n);
  public(got_red, sizeof(uint64_t) * n);
  public(got_mul, sizeof(uint64_t) * n);
  public(N, sizeof(uint64_t) * n);
  CHECK_MEM(ctx.RR, ref.RR, n * sizeof(uint64_t));
  CHECK(ctx.n0 == ref.n0);
  CHECK_MEM(got_exp, want_exp, n * sizeof(uint64_t));
  CHECK_MEM(got_red, want_red, n * sizeof(uint64_t));
  uint64_t want_mul[MAXN];
  bn_mod_mul(want_mul, b_ref, b_ref, &ref);
  CHECK_MEM(got_mul, want_mul, n * sizeof(uint64_t));

  /* The paired exponentiation (RSA-CRT): same modulus twice, secret bases and exponents. */
  uint64_t r1[MAXN], r2[MAXN];
  secret(b, sizeof(uint64_t) * n);
  secret(exp, sizeof(uint64_t) * n);
  CHECK_EQ_INT(bn_mod_exp_consttime_x2(r1, b, exp, &ctx, r2, b, exp, &ctx, el), FM_OK);
  public(r1, sizeof(uint64_t) * n);
  public(r2, sizeof(uint64_t) * n);
  CHECK_MEM(r1, want_exp, n * sizeof(uint64_t));
  CHECK_MEM(r2, want_exp, n * sizeof(uint64_t));
}

static void check_mont(size_t n) { check_mont_exp(n, n); }

/* The divsteps inverse (bn_inverse.c) with a secret a and a secret odd modulus; its mask is
 * declassified by the test, after the call, as the callers do. */
static void check_inverse(size_t n) {
  uint64_t m[MAXN], a[MAXN], r[MAXN], w[MAXN];
  rand_limbs(m, n);
  rand_limbs(a, n);
  m[0] |= 1;
  const uint64_t want_ok = bn_mod_inverse_mask(w, a, m, n);
  secret(m, sizeof(uint64_t) * n);
  secret(a, sizeof(uint64_t) * n);
  uint64_t ok = bn_mod_inverse_mask(r, a, m, n);
  public(&ok, sizeof(ok));
  public(r, sizeof(uint64_t) * n);
  CHECK(ok == want_ok);
  CHECK_MEM(r, w, n * sizeof(uint64_t));
}

/* bn_mod_inverse_256_mask (the EC curves' inverse) with a secret a below a secret odd m. */
static void check_inverse_256(void) {
  uint64_t m[4], a[4], r[4], w[4];
  rand_limbs(m, 4);
  rand_limbs(a, 4);
  m[0] |= 1;
  m[3] |= UINT64_C(1) << 63;
  a[3] &= ~(UINT64_C(1) << 63); /* a < m */
  const uint64_t want_ok = bn_mod_inverse_256_mask(w, a, m);
  secret(m, sizeof m);
  secret(a, sizeof a);
  uint64_t ok = bn_mod_inverse_256_mask(r, a, m);
  public(&ok, sizeof(ok));
  public(r, sizeof r);
  CHECK(ok == want_ok);
  CHECK_MEM(r, w, sizeof r);
}

/* gcd, inverses, lcm, division, small moduli, shifts and bit counts on secrets (key generation
 * material). */
static void check_helpers(size_t n) {
  uint64_t p1[MAXN], q1[MAXN], m[MAXN], a[MAXN], e = 65537;
  rand_limbs(p1, n);
  rand_limbs(q1, n);
  rand_limbs(m, n);
  rand_limbs(a, n);
  p1[0] &= ~(uint64_t)1;
  q1[0] &= ~(uint64_t)1;
  m[0] |= 1;
  /* Public references. */
  uint64_t w_gcd[MAXN], w_lcm[2 * MAXN], w_inv[MAXN], w_d[MAXN], w_q[MAXN], w_r[MAXN];
  bn_gcd_consttime(w_gcd, p1, q1, n);
  bn_lcm_consttime(w_lcm, p1, q1, n);
  int w_inv_st = bn_mod_inverse_consttime(w_inv, a, m, n);
  int w_d_st = bn_mod_inverse_odd_value(w_d, &e, 1, p1, n);
  bn_div_consttime(w_q, w_r, p1, n, q1, n / 2);
  uint32_t w_small = bn_mod_small_consttime(m, n, 65521);
  size_t w_tz = bn_count_low_zero_bits(p1, n), w_bits = bn_bits_consttime(q1, n);

  secret(p1, sizeof(uint64_t) * n);
  secret(q1, sizeof(uint64_t) * n);
  secret(m, sizeof(uint64_t) * n);
  secret(a, sizeof(uint64_t) * n);
  uint64_t g[MAXN], l[2 * MAXN], inv[MAXN], d[MAXN], q[MAXN], r[MAXN], sh[MAXN];
  bn_gcd_consttime(g, p1, q1, n);
  bn_lcm_consttime(l, p1, q1, n);
  int inv_st = bn_mod_inverse_consttime(inv, a, m, n);
  int d_st = bn_mod_inverse_odd_value(d, &e, 1, p1, n);
  bn_div_consttime(q, r, p1, n, q1, n / 2);
  uint32_t small = bn_mod_small_consttime(m, n, 65521);
  size_t tz = bn_count_low_zero_bits(p1, n), bits = bn_bits_consttime(q1, n);
  bn_rshift_secret(sh, q1, tz, n);

  public(g, sizeof(g));
  public(l, sizeof(l));
  public(inv, sizeof(inv));
  public(d, sizeof(d));
  public(q, sizeof(q));
  public(r, sizeof(r));
  public(sh, sizeof(sh));
  public(&small, sizeof(small));
  public(&tz, sizeof(tz));
  public(&bits, sizeof(bits));
  public(p1, sizeof(uint64_t) * n);
  public(q1, sizeof(uint64_t) * n);
  CHECK_MEM(g, w_gcd, n * sizeof(uint64_t));
  CHECK_MEM(l, w_lcm, 2 * n * sizeof(uint64_t));
  CHECK_EQ_INT(inv_st, w_inv_st);
  CHECK_MEM(inv, w_inv, n * sizeof(uint64_t));
  CHECK_EQ_INT(d_st, w_d_st);
  CHECK_MEM(d, w_d, n * sizeof(uint64_t));
  CHECK_MEM(q, w_q, n * sizeof(uint64_t));
  CHECK_MEM(r, w_r, (n / 2) * sizeof(uint64_t));
  CHECK(small == w_small);
  CHECK(tz == w_tz);
  CHECK(bits == w_bits);
  uint64_t w_sh[MAXN];
  bn_rshift(w_sh, q1, tz, n);
  CHECK_MEM(sh, w_sh, n * sizeof(uint64_t));
}

int main(int argc, char **argv) {
  fprintf(stderr, "bn path: %s, under valgrind: %s\n",
          bn_path_name(),
          RUNNING_ON_VALGRIND ? "yes" : "no");
  if (argc > 1 && strcmp(argv[1], "--self-check-leak") == 0) {
    /* A deliberate secret-dependent branch: memcheck must report it. */
    uint64_t x = 0x1234;
    secret(&x, sizeof(x));
    volatile int sink = 0;
    if (x & 1) sink = 1;
    (void)sink;
    return 0;
  }
  (void)fm_module_state();
  test_rng_seed_fixed(&rng, 0x62616e6b73ull);
  /* 256, 1024 and 2048-bit moduli (odd and even limb counts); the MULX kernels' special widths
   * 6, 8 and 24; 48 and 64 limbs (3072 and 4096 bits, the largest 5-bit window for RSA primes and
   * moduli); 130 limbs, above 128, where the window is 4 bits (short exponents there: the
   * exponentiation's instruction stream does not depend on its length's value). */
  check_mont(4);
  check_mont(6);
  check_mont(8);
  check_mont(16);
  check_mont(17);
  check_mont(24);
  check_mont(32);
  check_mont(1);
  check_mont_exp(48, 8);
  check_mont_exp(64, 4);
  check_mont_exp(130, 2);
  check_inverse(1);
  check_inverse(16);
  check_inverse(32);
  check_inverse(64);
  check_inverse_256();
  check_helpers(16);
  check_helpers(3);
  return test_main_result("test_bn_ct");
}
