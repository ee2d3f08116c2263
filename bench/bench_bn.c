/* Montgomery set-up and exponentiation for secret moduli: module/bn/ against OpenSSL's BIGNUM.
 *
 * Built into fipsmod-speed-bn, which links the module's internal library (these functions are
 * not exported by libfipsmod.so). Moduli are primes of exactly the named size made by
 * BN_generate_prime_ex at start-up (RSA primes are what secret moduli are in practice); both
 * sides use the same modulus, base and exponent. What one operation is:
 * - mont-setup-consttime: fipsmod bn_mont_ctx_init_secret (n0 and R^2 mod N, constant time)
 *   against OpenSSL BN_MONT_CTX_set on a BN_MONT_CTX allocated once, the modulus flagged
 *   BN_FLG_CONSTTIME (so OpenSSL takes its constant-time inverse and reduction).
 * - modexp-consttime: base^exp mod N with a full-width secret exponent (as many bits as N, top
 *   bit set) and a Montgomery context built beforehand: fipsmod bn_mod_exp_consttime against
 *   OpenSSL BN_mod_exp_mont_consttime with a precomputed BN_MONT_CTX. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>

#include "bench/bench.h"
#include "bench/bench_ops.h"
#include "fipsmod/status.h"
#include "module/bn/internal.h"

typedef struct {
  unsigned bits;
  size_t n; /* limbs */
  BIGNUM *N, *base, *exp;
  BN_MONT_CTX *mont;
  uint64_t fN[BN_MAX_LIMBS], fbase[BN_MAX_LIMBS], fexp[BN_MAX_LIMBS];
  bn_mont_ctx fctx;
} bn_fixture;

static void to_limbs(uint64_t *r, size_t n, const BIGNUM *a) {
  uint8_t buf[BN_MAX_BITS / 8];
  size_t len = n * 8;
  BN_bn2binpad(a, buf, (int)len);
  bn_from_bytes_be(r, n, buf, len);
}

static void fixture_free(bn_fixture *f) {
  BN_free(f->N);
  BN_free(f->base);
  BN_free(f->exp);
  BN_MONT_CTX_free(f->mont);
  free(f);
}

static bn_fixture *fixture_new(unsigned bits, BN_CTX *bnctx) {
  bn_fixture *f = calloc(1, sizeof(*f));
  if (f == NULL) return NULL;
  f->bits = bits;
  f->n = bn_limbs_for_bits(bits);
  f->N = BN_new();
  f->base = BN_new();
  f->exp = BN_new();
  f->mont = BN_MONT_CTX_new();
  int ok = f->N && f->base && f->exp && f->mont &&
           BN_generate_prime_ex(f->N, (int)bits, 0, NULL, NULL, NULL) == 1 &&
           BN_rand_range(f->base, f->N) == 1 &&
           BN_rand(f->exp, (int)bits, BN_RAND_TOP_ONE, BN_RAND_BOTTOM_ANY) == 1;
  if (ok) {
    BN_set_flags(f->N, BN_FLG_CONSTTIME);
    BN_set_flags(f->exp, BN_FLG_CONSTTIME);
    ok = BN_MONT_CTX_set(f->mont, f->N, bnctx) == 1;
  }
  if (!ok) {
    bench_note("%u bits: OpenSSL could not make the modulus", bits);
    fixture_free(f);
    return NULL;
  }
  to_limbs(f->fN, f->n, f->N);
  to_limbs(f->fbase, f->n, f->base);
  to_limbs(f->fexp, f->n, f->exp);
  int st = bn_mont_ctx_init_secret(&f->fctx, f->fN, f->n);
  if (st != FM_OK) bench_note("%u bits: bn_mont_ctx_init_secret failed (%d)", bits, st);

  /* A cross-check, so that a wrong answer is not timed as a fast one. */
  uint64_t r[BN_MAX_LIMBS];
  BIGNUM *want = BN_new();
  uint8_t a[BN_MAX_BITS / 8], b[BN_MAX_BITS / 8];
  if (st == FM_OK && want != NULL &&
      bn_mod_exp_consttime(r, f->fbase, f->fexp, f->n, &f->fctx) == FM_OK &&
      BN_mod_exp_mont_consttime(want, f->base, f->exp, f->N, bnctx, f->mont) == 1) {
    bn_to_bytes_be(a, f->n * 8, r, f->n);
    BN_bn2binpad(want, b, (int)(f->n * 8));
    if (memcmp(a, b, f->n * 8) != 0)
      bench_note("%u bits: fipsmod's modular exponentiation differs from OpenSSL's!", bits);
  }
  BN_free(want);
  return f;
}

/* ---- Set-up -------------------------------------------------------------------------------- */

typedef struct {
  const bn_fixture *f;
  BN_CTX *bnctx;
  BN_MONT_CTX *mont;
  BIGNUM *r;
  bn_mont_ctx *fctx;
} bn_thread;

static void bn_thread_free(void *p) {
  bn_thread *t = p;
  if (t == NULL) return;
  BN_CTX_free(t->bnctx);
  BN_MONT_CTX_free(t->mont);
  BN_free(t->r);
  free(t->fctx);
  free(t);
}

static void *bn_thread_new(const void *param, size_t size, char *why, size_t why_len) {
  (void)size;
  bn_thread *t = calloc(1, sizeof(*t));
  if (t == NULL) return NULL;
  t->f = param;
  t->bnctx = BN_CTX_new();
  t->mont = BN_MONT_CTX_new();
  t->r = BN_new();
  t->fctx = malloc(sizeof(*t->fctx));
  if (!t->bnctx || !t->mont || !t->r || !t->fctx) {
    snprintf(why, why_len, "out of memory");
    bn_thread_free(t);
    return NULL;
  }
  return t;
}

static int fm_setup_run(void *p, size_t size, uint64_t n) {
  (void)size;
  bn_thread *t = p;
  for (uint64_t i = 0; i < n; i++)
    if (bn_mont_ctx_init_secret(t->fctx, t->f->fN, t->f->n) != FM_OK) return 1;
  return 0;
}

static int ossl_setup_run(void *p, size_t size, uint64_t n) {
  (void)size;
  bn_thread *t = p;
  for (uint64_t i = 0; i < n; i++)
    if (BN_MONT_CTX_set(t->mont, t->f->N, t->bnctx) != 1) return 1;
  return 0;
}

static int fm_exp_run(void *p, size_t size, uint64_t n) {
  (void)size;
  bn_thread *t = p;
  uint64_t r[BN_MAX_LIMBS];
  for (uint64_t i = 0; i < n; i++)
    if (bn_mod_exp_consttime(r, t->f->fbase, t->f->fexp, t->f->n, &t->f->fctx) != FM_OK) return 1;
  return 0;
}

static int ossl_exp_run(void *p, size_t size, uint64_t n) {
  (void)size;
  bn_thread *t = p;
  for (uint64_t i = 0; i < n; i++)
    if (BN_mod_exp_mont_consttime(t->r, t->f->base, t->f->exp, t->f->N, t->bnctx, t->f->mont) !=
        1)
      return 1;
  return 0;
}

void bench_bn(void) {
  static const unsigned setup_sizes[] = {256, 384, 512, 521, 1024, 1536, 2048, 3072, 4096};
  bool want_setup = bench_wants("mont-setup-consttime");
  bool want_exp = bench_wants("modexp-consttime");
  if (!want_setup && !want_exp) return;
  BN_CTX *bnctx = BN_CTX_new();
  if (bnctx == NULL) return;
  for (size_t i = 0; i < sizeof(setup_sizes) / sizeof(setup_sizes[0]); i++) {
    unsigned bits = setup_sizes[i];
    bool exp_size = bits == 1024 || bits == 1536 || bits == 2048;
    if (!want_setup && !(want_exp && exp_size)) continue;
    uint64_t t0 = bench_now_ns();
    bn_fixture *f = fixture_new(bits, bnctx);
    if (f == NULL) continue;
    if (bits >= 3072)
      printf("(a %u-bit prime took %.1f s to generate)\n", bits,
             (double)(bench_now_ns() - t0) / 1e9);
    const bench_impl setup[] = {{"fipsmod", bn_thread_new, fm_setup_run, bn_thread_free, f},
                                {"openssl", bn_thread_new, ossl_setup_run, bn_thread_free, f}};
    const bench_impl exp[] = {{"fipsmod", bn_thread_new, fm_exp_run, bn_thread_free, f},
                              {"openssl", bn_thread_new, ossl_exp_run, bn_thread_free, f}};
    bench_measure("mont-setup-consttime", bits, BENCH_BITS, setup, 2, false);
    if (exp_size) bench_measure("modexp-consttime", bits, BENCH_BITS, exp, 2, false);
    fixture_free(f);
  }
  BN_CTX_free(bnctx);
}
