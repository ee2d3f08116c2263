/* RSA keys: import from components, validation, export and free.
 *
 * Validation answers one public question, "is this key acceptable", so it may branch on the
 * outcome of each check; the arithmetic behind the checks (divisions, products, inverses) runs in
 * constant time in the secret values. Once built, a key is never written again. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "module/approval.h"
#include "module/internal.h"
#include "module/rsa/internal.h"

/* ---- Allocation ---------------------------------------------------------------------------- */

int rsa_key_valid(const fm_rsa_key *key) { return key != NULL && key->magic == RSA_KEY_MAGIC; }

fm_rsa_key *rsa_key_alloc(void) {
  fm_rsa_key *key = calloc(1, sizeof(*key));
  if (key != NULL) key->magic = RSA_KEY_MAGIC;
  return key;
}

#if defined(FIPSMOD_TEST_HOOKS)
static void (*g_free_hook)(const void *key, size_t len);
void rsa_key_set_free_hook_for_testing(void (*hook)(const void *key, size_t len)) {
  g_free_hook = hook;
}
#endif

int fm_rsa_key_free(fm_rsa_key *key) {
  /* Zeroization is an approved service in every state (no gate, so a key can always go). */
  fm_indicator_approved();
  if (key == NULL) return FM_OK;
  fm_zeroize(key, sizeof(*key));
#if defined(FIPSMOD_TEST_HOOKS)
  if (g_free_hook != NULL) g_free_hook(key, sizeof(*key));
#endif
  free(key);
  return FM_OK;
}

/* ---- Parsing ------------------------------------------------------------------------------- */

/* strip_leading_zeros drops leading zero bytes of a PUBLIC number (n, e). */
static void strip_leading_zeros(const uint8_t **p, size_t *len) {
  while (*len > 0 && (*p)[0] == 0) {
    (*p)++;
    (*len)--;
  }
}

/* parse_modulus sets n, n_bits, k and nl from a big-endian n, checking the size bounds.
 * Returns FM_OK, FM_ERR_KEY_SIZE or FM_ERR_BAD_KEY (even n). */
static int parse_modulus(fm_rsa_key *key, const uint8_t *n, size_t n_len, size_t min_bits) {
  strip_leading_zeros(&n, &n_len);
  if (n_len == 0 || n_len > FM_RSA_MAX_BYTES) return FM_ERR_KEY_SIZE;
  size_t top_bits = 0;
  for (unsigned v = n[0]; v != 0; v >>= 1) top_bits++;
  key->n_bits = (n_len - 1) * 8 + top_bits;
  if (key->n_bits < min_bits || key->n_bits > FM_RSA_MAX_BITS) return FM_ERR_KEY_SIZE;
  key->k = n_len;
  key->nl = bn_limbs_for_bits(key->n_bits);
  if (!bn_from_bytes_be(key->mont_n.N, key->nl, n, n_len)) return FM_ERR_KEY_SIZE;
  if ((n[n_len - 1] & 1) == 0) return FM_ERR_BAD_KEY;
  return FM_OK;
}

/* parse_exponent loads e into nl limbs and checks it: with |fips_range| 2^16 < e < 2^256 and
 * odd (FIPS 186-5 5.4 (e)); without it (component-test keys) odd and 3 <= e < n. */
static int parse_exponent(fm_rsa_key *key, const uint8_t *e, size_t e_len, int fips_range) {
  strip_leading_zeros(&e, &e_len);
  if (e_len == 0 || !bn_from_bytes_be(key->e, key->nl, e, e_len)) return FM_ERR_BAD_KEY;
  key->e_bits = bn_bits_public(key->e, key->nl);
  key->el = bn_limbs_for_bits(key->e_bits);
  if ((key->e[0] & 1) == 0) return FM_ERR_BAD_KEY;
  if (fips_range) {
    if (key->e_bits > 256 || (key->el == 1 && key->e[0] < 65537)) return FM_ERR_BAD_KEY;
  } else {
    if (key->el == 1 && key->e[0] < 3) return FM_ERR_BAD_KEY;
    if (!bn_lt_mask(key->e, key->mont_n.N, key->nl)) return FM_ERR_BAD_KEY;
  }
  return FM_OK;
}

/* ---- Validation and derived values --------------------------------------------------------- */

/* Reductions mod p - 1 without division.
 *
 * p - 1 is even, so Montgomery reduction does not apply to it, and bn's shift-and-subtract
 * division costs a bit-serial pass per bit. Instead: write x = a1 * p + a0 with a0 = x mod p (a
 * Montgomery reduction) and a1 = (x - a0) / p (an exact division, done as a multiplication by
 * p^-1 mod 2^(64 k) for a quotient known to fit in k limbs). Since p = 1 (mod p - 1),
 * x = a1 + a0 (mod p - 1), and a0 + a1 is small enough that three conditional subtractions of
 * p - 1 finish the job. Constant time: widths are public, values secret. */

/* inverse_mod_2k sets the k-limb r = p^-1 mod 2^(64k) for odd p by Newton's iteration
 * (x <- x * (2 - p * x) doubles the number of correct low limbs). */
static void inverse_mod_2k(uint64_t *r, const uint64_t *p, size_t k) {
  uint64_t t[2 * RSA_PRIME_MAX_LIMBS], u[2 * RSA_PRIME_MAX_LIMBS], pk[RSA_PRIME_MAX_LIMBS];
  uint64_t w = p[0];
  for (int i = 0; i < 5; i++) w *= 2 - p[0] * w;
  bn_set_zero(r, k);
  r[0] = w;
  for (size_t have = 1; have < k;) {
    const size_t next = have * 2 < k ? have * 2 : k;
    bn_copy(pk, p, next);
    bn_mul(t, pk, r, next); /* p * x; r's limbs above |have| are zero */
    bn_set_zero(u, next);
    (void)bn_sub(u, u, t, next); /* -p * x */
    (void)bn_add_word(u, u, 2, next);
    bn_mul(t, r, u, next);
    bn_copy(r, t, next);
    have = next;
  }
  fm_zeroize(t, sizeof(t));
  fm_zeroize(u, sizeof(u));
  fm_zeroize(pk, sizeof(pk));
}

/* mod_p_minus_1 sets the pl-limb r = x mod (p - 1) for the xl-limb x, where floor(x / p) fits
 * in qk <= pl limbs and floor(x / p) < 3p - 2 (so a0 + a1 < 4(p - 1)). pinv holds p^-1 mod
 * 2^(64 pl) and pm1 = p - 1. */
static void mod_p_minus_1(uint64_t *r, const uint64_t *x, size_t xl, const bn_mont_ctx *ctx_p,
                          const uint64_t *pinv, const uint64_t *pm1, size_t qk) {
  const size_t pl = ctx_p->n;
  uint64_t a0[RSA_PRIME_MAX_LIMBS], t[BN_MAX_LIMBS], prod[2 * RSA_PRIME_MAX_LIMBS];
  uint64_t s[RSA_PRIME_MAX_LIMBS + 1], d[RSA_PRIME_MAX_LIMBS + 1], m1[RSA_PRIME_MAX_LIMBS + 1];
  bn_mod_reduce(a0, x, xl, ctx_p);
  /* t = x - a0, a multiple of p; only its low qk limbs matter for the exact quotient. */
  bn_set_zero(t, qk);
  bn_copy(t, a0, qk < pl ? qk : pl);
  (void)bn_sub(t, x, t, qk < xl ? qk : xl);
  if (qk > xl) bn_set_zero(t + xl, qk - xl);
  bn_mul(prod, t, pinv, qk); /* a1 = t * p^-1 mod 2^(64 qk) */
  /* s = a0 + a1 (pl + 1 limbs). */
  bn_set_zero(s, pl + 1);
  bn_copy(s, prod, qk);
  s[pl] = bn_add(s, s, a0, pl);
  bn_copy(m1, pm1, pl);
  m1[pl] = 0;
  for (int i = 0; i < 3; i++) {
    uint64_t borrow = bn_sub(d, s, m1, pl + 1);
    bn_select(s, 0u - borrow, s, d, pl + 1); /* keep s when s < p - 1 */
  }
  bn_copy(r, s, pl);
  fm_zeroize(a0, sizeof(a0));
  fm_zeroize(t, qk * sizeof(uint64_t));
  fm_zeroize(prod, sizeof(prod));
  fm_zeroize(s, sizeof(s));
  fm_zeroize(d, sizeof(d));
}

/* crt_exponent_check sets dx = d mod (x - 1) for the prime x (context ctx) and returns
 * all-ones when e * dx = 1 mod (x - 1). */
static uint64_t crt_exponent_check(const fm_rsa_key *key, uint64_t *dx, const bn_mont_ctx *ctx) {
  const size_t xl = ctx->n;
  uint64_t xinv[RSA_PRIME_MAX_LIMBS], xm1[RSA_PRIME_MAX_LIMBS], r[RSA_PRIME_MAX_LIMBS];
  uint64_t prod[RSA_E_MAX_LIMBS + RSA_PRIME_MAX_LIMBS], one[RSA_PRIME_MAX_LIMBS];
  inverse_mod_2k(xinv, ctx->N, xl);
  bn_copy(xm1, ctx->N, xl);
  xm1[0] ^= 1; /* x is odd: x - 1 clears bit 0 */
  /* d < n = p q, so floor(d / x) < the other prime < 2x: it fits in xl limbs. */
  mod_p_minus_1(dx, key->d, key->nl, ctx, xinv, xm1, xl);
  /* e * dx < e * x, so floor(e * dx / x) < e: it fits in el limbs. */
  bn_mul_unbalanced(prod, key->e, key->el, dx, xl);
  mod_p_minus_1(r, prod, key->el + xl, ctx, xinv, xm1, key->el);
  bn_set_word(one, xl, 1);
  uint64_t ok = bn_eq_mask(r, one, xl);
  fm_zeroize(xinv, sizeof(xinv));
  fm_zeroize(r, sizeof(r));
  fm_zeroize(prod, sizeof(prod));
  return ok;
}

/* exact_bits_mask returns all-ones when the l-limb x has exactly |bits| bits (bits <= 64 l):
 * x >> (bits - 1) == 1. Constant time in x. */
static uint64_t exact_bits_mask(const uint64_t *x, size_t l, size_t bits) {
  uint64_t t[RSA_PRIME_MAX_LIMBS], one[RSA_PRIME_MAX_LIMBS];
  bn_rshift(t, x, bits - 1, l);
  bn_set_word(one, l, 1);
  const uint64_t ok = bn_eq_mask(t, one, l);
  fm_zeroize(t, sizeof(t));
  return ok;
}

/* prime_not_too_small_mask returns all-ones when the l-limb x >= sqrt(2) * 2^(nlen/2 - 1). Both
 * sides are positive, so that is x^2 >= 2^(nlen - 1): an exact test on integers, with no
 * approximation of sqrt(2). x^2 < 2^(128 l), so it is the bits of x^2 from nlen - 1 up that must
 * not all be zero. Constant time in x. */
static uint64_t prime_not_too_small_mask(const uint64_t *x, size_t l, size_t nlen) {
  uint64_t sq[2 * RSA_PRIME_MAX_LIMBS];
  bn_mul(sq, x, x, l);
  bn_rshift(sq, sq, nlen - 1, 2 * l);
  const uint64_t ok = ~bn_is_zero_mask(sq, 2 * l);
  fm_zeroize(sq, sizeof(sq));
  return ok;
}

/* primes_far_apart_mask returns all-ones when |p - q| > 2^k (both l limbs): |p - q| - 1 has a
 * bit at k or above, and p != q. Constant time in p and q. */
static uint64_t primes_far_apart_mask(const uint64_t *p, const uint64_t *q, size_t l, size_t k) {
  uint64_t d[RSA_PRIME_MAX_LIMBS], d2[RSA_PRIME_MAX_LIMBS];
  const uint64_t borrow = bn_sub(d, p, q, l);
  (void)bn_sub(d2, q, p, l);
  bn_select(d, 0u - borrow, d2, d, l); /* |p - q| */
  uint64_t ok = ~bn_is_zero_mask(d, l);
  (void)bn_sub_word(d, d, 1, l);
  bn_rshift(d, d, k, l);
  ok &= ~bn_is_zero_mask(d, l);
  fm_zeroize(d, sizeof(d));
  fm_zeroize(d2, sizeof(d2));
  return ok;
}

/* d_below_lambda_mask returns all-ones when d < lambda(n) = lcm(p - 1, q - 1) (p and q of pl
 * limbs, d of nl <= 2 pl limbs). With e * d = 1 mod lambda(n) (checked through dp and dq), that
 * makes d the one private exponent FIPS 186-5 A.1.1 step 3 allows, not d + k * lambda(n).
 * lambda(n) = (p - 1)(q - 1) / g with g = gcd(p - 1, q - 1), so the test is d * g < (p - 1)(q - 1),
 * with no division. Constant time. */
static uint64_t d_below_lambda_mask(const fm_rsa_key *key) {
  const size_t pl = key->pl, nl = key->nl;
  uint64_t pm1[RSA_PRIME_MAX_LIMBS], qm1[RSA_PRIME_MAX_LIMBS], g[RSA_PRIME_MAX_LIMBS];
  uint64_t phi[3 * RSA_PRIME_MAX_LIMBS], dg[3 * RSA_PRIME_MAX_LIMBS];
  bn_copy(pm1, key->mont_p.N, pl);
  pm1[0] ^= 1; /* p is odd: p - 1 clears bit 0 */
  bn_copy(qm1, key->mont_q.N, pl);
  qm1[0] ^= 1;
  bn_gcd_consttime(g, pm1, qm1, pl);
  bn_set_zero(phi, nl + pl);
  bn_mul(phi, pm1, qm1, pl); /* 2 pl <= nl + pl limbs */
  bn_mul_unbalanced(dg, key->d, nl, g, pl);
  const uint64_t ok = bn_lt_mask(dg, phi, nl + pl);
  fm_zeroize(pm1, sizeof(pm1));
  fm_zeroize(qm1, sizeof(qm1));
  fm_zeroize(g, sizeof(g));
  fm_zeroize(phi, sizeof(phi));
  fm_zeroize(dg, sizeof(dg));
  return ok;
}

/* passes: a check's verdict, declassified: whether a key is acceptable is public. */
static int passes(uint64_t mask) { return fm_declassify_u64(mask) != 0; }

int rsa_key_setup_private(fm_rsa_key *key, int have_crt, int test_primes) {
  const size_t nl = key->nl, pl = key->pl, ql = key->ql;
  const uint64_t *p = key->mont_p.N, *q = key->mont_q.N;
  uint64_t prod[2 * RSA_PRIME_MAX_LIMBS];
  uint64_t dp[RSA_PRIME_MAX_LIMBS], dq[RSA_PRIME_MAX_LIMBS], t[RSA_PRIME_MAX_LIMBS];
  uint64_t bound[BN_MAX_LIMBS];
  int st = FM_ERR_BAD_KEY;

  /* The cheap checks first, Miller-Rabin last. Widths and e are public. */
  if (key->el > RSA_E_MAX_LIMBS || pl != ql) goto done;
  /* FIPS 186-5 A.1.1 / A.1.3: p and q are odd, each of half of n's bit length. */
  const size_t half = (key->n_bits + 1) / 2;
  if (!passes(bn_is_odd_mask(p, pl) & bn_is_odd_mask(q, ql) & exact_bits_mask(p, pl, half) &
              exact_bits_mask(q, ql, half)))
    goto done;
  /* SP 800-56B Rev. 2 6.4.1.2.1 step 3 (FIPS 186-5 A.1.3 steps 4.4 and 5.4): p and q are at
   * least sqrt(2) * 2^(nlen/2 - 1), so that no n of nlen bits has a factor below that. */
  if (!passes(prime_not_too_small_mask(p, pl, key->n_bits) &
              prime_not_too_small_mask(q, ql, key->n_bits)))
    goto done;
  /* SP 800-56B Rev. 2 6.4.1.2.1 step 3 (FIPS 186-5 A.1.3 step 5.4): |p - q| > 2^(nlen/2 - 100),
   * or Fermat's method factors n from sqrt(n). */
  if (!passes(primes_far_apart_mask(p, q, pl, half - 100))) goto done;
  if (bn_mont_ctx_init_secret(&key->mont_p, p, pl) != FM_OK) goto done;
  if (bn_mont_ctx_init_secret(&key->mont_q, q, ql) != FM_OK) goto done;

  /* n = p * q (the product's limbs beyond n's width must be zero). */
  bn_mul_unbalanced(prod, p, pl, q, ql);
  uint64_t ok = bn_eq_mask(prod, key->mont_n.N, nl);
  if (pl + ql > nl) ok &= bn_is_zero_mask(prod + nl, pl + ql - nl);
  if (!passes(ok)) goto done;

  /* 2^(nlen/2) < d < n (FIPS 186-5 A.1.1 step 3 bounds d below; d < n keeps it in width). */
  bn_set_zero(bound, nl);
  bound[(key->n_bits / 2) / 64] = UINT64_C(1) << ((key->n_bits / 2) % 64);
  if (!passes(bn_lt_mask(bound, key->d, nl) & bn_lt_mask(key->d, key->mont_n.N, nl))) goto done;

  /* e * d = 1 mod (p-1) and mod (q-1), hence mod lcm(p-1, q-1): checked through dp and dq. */
  if (!passes(crt_exponent_check(key, dp, &key->mont_p) &
              crt_exponent_check(key, dq, &key->mont_q)))
    goto done;
  /* d < lambda(n) (FIPS 186-5 A.1.1 step 3, SP 800-56B Rev. 2 6.4.1.2.1 step 4). */
  if (!passes(d_below_lambda_mask(key))) goto done;

  /* FIPS 186-5 A.1.1 / B.3.1, SP 800-56B Rev. 2 6.4.1.2.1 step 3: p and q are prime, tested
   * with the Miller-Rabin rounds of Table B.1 for the size. */
  if (test_primes) {
    const int rounds = rsa_mr_rounds(key->n_bits);
    const int prime = rsa_are_probable_primes(&key->mont_p, &key->mont_q, half, rounds);
    if (prime != 1) {
      st = prime < 0 ? prime : FM_ERR_BAD_KEY;
      goto done;
    }
  }

  if (have_crt) {
    /* The given CRT values must be exactly d mod (p-1), d mod (q-1) and q^-1 mod p. */
    ok = bn_eq_mask(dp, key->dp, pl) & bn_eq_mask(dq, key->dq, ql);
    ok &= bn_lt_mask(key->qinv, p, pl);
    bn_mod_reduce(t, q, ql, &key->mont_p);
    bn_mod_mul(t, t, key->qinv, &key->mont_p);
    uint64_t one[RSA_PRIME_MAX_LIMBS];
    bn_set_word(one, pl, 1);
    ok &= bn_eq_mask(t, one, pl);
    if (!passes(ok)) goto done;
  } else {
    bn_copy(key->dp, dp, pl);
    bn_copy(key->dq, dq, ql);
    bn_mod_reduce(t, q, ql, &key->mont_p);
    if (bn_mod_inverse_consttime(key->qinv, t, p, pl) != FM_OK) goto done;
  }
  bn_to_mont(key->qinv_mont, key->qinv, &key->mont_p);
  key->has_private = 1;
  key->has_crt = 1;
  st = FM_OK;

done:
  fm_zeroize(prod, sizeof(prod));
  fm_zeroize(dp, sizeof(dp));
  fm_zeroize(dq, sizeof(dq));
  fm_zeroize(t, sizeof(t));
  rsa_stack_wipe();
  return st;
}

/* ---- Import -------------------------------------------------------------------------------- */

static int component_ok(const uint8_t *p, size_t len) { return p != NULL || len == 0; }

static int import_private(const fm_rsa_private_components *c, fm_rsa_key *key, int test_primes) {
  int st = parse_modulus(key, c->n, c->n_len, FM_RSA_MIN_PRIVATE_BITS);
  if (st != FM_OK) return st;
  if ((st = parse_exponent(key, c->e, c->e_len, 1)) != FM_OK) return st;
  if (!bn_from_bytes_be(key->d, key->nl, c->d, c->d_len)) return FM_ERR_BAD_KEY;
  /* p and q must have half of n's bit length: give them exactly the limbs that needs. */
  key->p_bits = key->q_bits = (key->n_bits + 1) / 2;
  key->pl = key->ql = bn_limbs_for_bits(key->p_bits);
  if (!bn_from_bytes_be(key->mont_p.N, key->pl, c->p, c->p_len)) return FM_ERR_BAD_KEY;
  if (!bn_from_bytes_be(key->mont_q.N, key->ql, c->q, c->q_len)) return FM_ERR_BAD_KEY;
  const int have_crt = c->dp_len != 0;
  if (have_crt) {
    if (!bn_from_bytes_be(key->dp, key->pl, c->dp, c->dp_len) ||
        !bn_from_bytes_be(key->dq, key->ql, c->dq, c->dq_len) ||
        !bn_from_bytes_be(key->qinv, key->pl, c->qinv, c->qinv_len))
      return FM_ERR_BAD_KEY;
  }
  if ((st = rsa_key_setup_private(key, have_crt, test_primes)) != FM_OK) return st;
  return bn_mont_ctx_init_public(&key->mont_n, key->mont_n.N, key->nl) == FM_OK ? FM_OK
                                                                                 : FM_ERR_BAD_KEY;
}

/* refuse_key refuses a call whose output is a key pointer: *key (when key is not NULL) is NULL. */
static int refuse_key(int st, fm_rsa_key **key) {
  if (key != NULL) *key = NULL;
  return fm_refuse(st, NULL, 0);
}

/* private_components_ok checks the shape of |c| (not the values). */
static int private_components_ok(const fm_rsa_private_components *c) {
  if (!component_ok(c->n, c->n_len) || !component_ok(c->e, c->e_len) ||
      !component_ok(c->d, c->d_len) || !component_ok(c->p, c->p_len) ||
      !component_ok(c->q, c->q_len) || !component_ok(c->dp, c->dp_len) ||
      !component_ok(c->dq, c->dq_len) || !component_ok(c->qinv, c->qinv_len))
    return 0;
  if (c->n_len == 0 || c->e_len == 0 || c->d_len == 0 || c->p_len == 0 || c->q_len == 0)
    return 0;
  const int crt_given = (c->dp_len != 0) + (c->dq_len != 0) + (c->qinv_len != 0);
  return crt_given == 0 || crt_given == 3;
}

static int import_private_key(const fm_rsa_private_components *c, fm_rsa_key **key,
                              int test_primes) {
  int st = fm_service_gate();
  if (st == FM_OK && (c == NULL || key == NULL || !private_components_ok(c)))
    st = FM_ERR_BAD_ARGUMENT;
  if (st != FM_OK) return refuse_key(st, key);
  *key = NULL;
  fm_rsa_key *k = rsa_key_alloc();
  if (k == NULL) return refuse_key(FM_ERR_NO_MEMORY, key);
  st = import_private(c, k, test_primes);
  if (st != FM_OK) {
    fm_rsa_key_free(k); /* zeroizes every value the checks had loaded */
    return refuse_key(st, key);
  }
  *key = k;
  return FM_OK;
}

int fm_rsa_key_import_private(const fm_rsa_private_components *c, fm_rsa_key **key) {
  return import_private_key(c, key, 1);
}

int rsa_key_import_selftest_private(const fm_rsa_private_components *c, fm_rsa_key **key) {
  return import_private_key(c, key, 0);
}

int fm_rsa_key_import_private_consistent(const fm_rsa_private_components *c, fm_rsa_key **key) {
  return import_private_key(c, key, 0);
}

int fm_rsa_key_validate(const fm_rsa_key *key) {
  int st = fm_service_gate();
  if (st == FM_OK && !rsa_key_valid(key)) st = FM_ERR_BAD_ARGUMENT;
  /* A public key was checked at import (SP 800-89 5.3.3); a key from (n, e, d) has no primes. */
  if (st == FM_OK && !key->has_crt) st = FM_ERR_UNSUPPORTED;
  if (st != FM_OK) return fm_refuse(st, NULL, 0);
  /* Every other check of fm_rsa_key_import_private ran when the key was built, and a key is
   * never written afterwards: what is left is the primality of p and q (FIPS 186-5 B.3.1 with
   * the rounds of Table B.1, SP 800-56B Rev. 2 6.4.1.2.1 step 3). */
  const int prime = rsa_are_probable_primes(&key->mont_p, &key->mont_q, key->p_bits,
                                            rsa_mr_rounds(key->n_bits));
  rsa_stack_wipe();
  if (prime != 1) return fm_refuse(prime < 0 ? prime : FM_ERR_BAD_KEY, NULL, 0);
  return FM_OK;
}

/* The fixed value whose round trip (x^e)^d checks a key given as (n, e, d). */
#define RSA_ND_CHECK_VALUE UINT64_C(0x5a17c3e9b20d4f61)

static int import_private_nd(fm_rsa_key *key, const uint8_t *n, size_t n_len, const uint8_t *e,
                             size_t e_len, const uint8_t *d, size_t d_len) {
  int st = parse_modulus(key, n, n_len, FM_RSA_MIN_PRIVATE_BITS);
  if (st != FM_OK) return st;
  if ((st = parse_exponent(key, e, e_len, 0)) != FM_OK) return st;
  if (!bn_from_bytes_be(key->d, key->nl, d, d_len)) return FM_ERR_BAD_KEY;
  if (!fm_declassify_u64(~bn_is_zero_mask(key->d, key->nl) &
                         bn_lt_mask(key->d, key->mont_n.N, key->nl)))
    return FM_ERR_BAD_KEY;
  if (bn_mont_ctx_init_public(&key->mont_n, key->mont_n.N, key->nl) != FM_OK)
    return FM_ERR_BAD_KEY;
  /* d must invert e: (x^e)^d == x for a fixed x (n > 2^1023, so x < n). */
  uint64_t x[BN_MAX_LIMBS], y[BN_MAX_LIMBS];
  bn_set_word(x, key->nl, RSA_ND_CHECK_VALUE);
  rsa_public_op(key, y, x);
  bn_mod_exp_consttime(y, y, key->d, key->nl, &key->mont_n);
  const uint64_t ok = fm_declassify_u64(bn_eq_mask(x, y, key->nl));
  fm_zeroize(y, sizeof(y));
  rsa_stack_wipe();
  if (!ok) return FM_ERR_BAD_KEY;
  key->has_private = 1;
  key->has_crt = 0;
  key->component_test_only = 1;
  return FM_OK;
}

int fm_rsa_key_import_private_nd(const uint8_t *n, size_t n_len, const uint8_t *e, size_t e_len,
                                 const uint8_t *d, size_t d_len, fm_rsa_key **key) {
  int st = fm_service_gate();
  if (st == FM_OK && (key == NULL || n == NULL || e == NULL || d == NULL || n_len == 0 ||
                      e_len == 0 || d_len == 0))
    st = FM_ERR_BAD_ARGUMENT;
  if (st != FM_OK) return refuse_key(st, key);
  *key = NULL;
  fm_rsa_key *k = rsa_key_alloc();
  if (k == NULL) return refuse_key(FM_ERR_NO_MEMORY, key);
  st = import_private_nd(k, n, n_len, e, e_len, d, d_len);
  if (st != FM_OK) {
    fm_rsa_key_free(k);
    return refuse_key(st, key);
  }
  *key = k;
  fm_indicator_not_approved(); /* a key for the component tests only */
  return FM_OK;
}

/* pq_to_nd writes n = p q and d = e^-1 mod lcm(p - 1, q - 1) (FIPS 186-5 5.1) as |*len|-byte
 * big-endian numbers into nb and db (FM_RSA_MAX_BYTES each). The widths follow the byte lengths
 * of p and q without leading zeros (public); the values are handled in constant time. */
static int pq_to_nd(const uint8_t *e, size_t e_len, const uint8_t *p, size_t p_len,
                    const uint8_t *q, size_t q_len, uint8_t *nb, uint8_t *db, size_t *len) {
  while (p_len > 1 && p[0] == 0) p++, p_len--;
  while (q_len > 1 && q[0] == 0) q++, q_len--;
  while (e_len > 1 && e[0] == 0) e++, e_len--;
  const size_t pl = ((p_len > q_len ? p_len : q_len) + 7) / 8, el = (e_len + 7) / 8;
  if (2 * pl > BN_MAX_LIMBS) return FM_ERR_KEY_SIZE;
  if (el > 2 * pl) return FM_ERR_BAD_KEY;
  uint64_t pw[BN_MAX_LIMBS / 2], qw[BN_MAX_LIMBS / 2], three[BN_MAX_LIMBS / 2];
  uint64_t ew[BN_MAX_LIMBS], lambda[BN_MAX_LIMBS], d[BN_MAX_LIMBS], n[BN_MAX_LIMBS];
  int st = FM_OK;
  (void)bn_from_bytes_be(pw, pl, p, p_len); /* fits: pl limbs hold the longer of p and q */
  (void)bn_from_bytes_be(qw, pl, q, q_len);
  (void)bn_from_bytes_be(ew, el, e, e_len);
  bn_set_word(three, pl, 3);
  if (fm_declassify_u64(bn_lt_mask(pw, three, pl) | bn_lt_mask(qw, three, pl)) != 0) {
    st = FM_ERR_BAD_KEY;
    goto done;
  }
  bn_mul(n, pw, qw, pl);
  bn_sub_word(pw, pw, 1, pl);
  bn_sub_word(qw, qw, 1, pl);
  bn_lcm_consttime(lambda, pw, qw, pl);
  /* e even or without an inverse modulo lambda: no private exponent */
  if (bn_mod_inverse_odd_value(d, ew, el, lambda, 2 * pl) != FM_OK) {
    st = FM_ERR_BAD_KEY;
    goto done;
  }
  *len = 16 * pl;
  bn_to_bytes_be(nb, *len, n, 2 * pl);
  bn_to_bytes_be(db, *len, d, 2 * pl);
done:
  fm_zeroize(pw, sizeof(pw));
  fm_zeroize(qw, sizeof(qw));
  fm_zeroize(lambda, sizeof(lambda));
  fm_zeroize(d, sizeof(d));
  fm_zeroize(n, sizeof(n));
  return st;
}

int fm_rsa_key_import_private_pq(const uint8_t *e, size_t e_len, const uint8_t *p, size_t p_len,
                                 const uint8_t *q, size_t q_len, fm_rsa_key **key) {
  int st = fm_service_gate();
  if (st == FM_OK && (key == NULL || e == NULL || p == NULL || q == NULL || e_len == 0 ||
                      p_len == 0 || q_len == 0))
    st = FM_ERR_BAD_ARGUMENT;
  if (st != FM_OK) return refuse_key(st, key);
  *key = NULL;
  uint8_t nb[FM_RSA_MAX_BYTES], db[FM_RSA_MAX_BYTES];
  size_t len = 0;
  st = pq_to_nd(e, e_len, p, p_len, q, q_len, nb, db, &len);
  fm_rsa_key *k = NULL;
  if (st == FM_OK && (k = rsa_key_alloc()) == NULL) st = FM_ERR_NO_MEMORY;
  if (st == FM_OK) st = import_private_nd(k, nb, len, e, e_len, db, len);
  fm_zeroize(db, sizeof(db));
  if (st != FM_OK) {
    fm_rsa_key_free(k);
    return refuse_key(st, key);
  }
  *key = k;
  fm_indicator_not_approved(); /* a key for the component tests only */
  return FM_OK;
}

int fm_rsa_key_import_public(const uint8_t *n, size_t n_len, const uint8_t *e, size_t e_len,
                             fm_rsa_key **key) {
  int st = fm_service_gate();
  if (st == FM_OK && (key == NULL || n == NULL || e == NULL || n_len == 0 || e_len == 0))
    st = FM_ERR_BAD_ARGUMENT;
  if (st != FM_OK) return refuse_key(st, key);
  *key = NULL;
  fm_rsa_key *k = rsa_key_alloc();
  if (k == NULL) return refuse_key(FM_ERR_NO_MEMORY, key);
  st = parse_modulus(k, n, n_len, FM_RSA_MIN_PUBLIC_BITS);
  if (st == FM_OK) st = parse_exponent(k, e, e_len, 1);
  if (st == FM_OK && bn_mont_ctx_init_public(&k->mont_n, k->mont_n.N, k->nl) != FM_OK)
    st = FM_ERR_BAD_KEY;
  if (st == FM_OK) st = rsa_public_key_check(k); /* SP 800-89 5.3.3 */
  if (st != FM_OK) {
    fm_rsa_key_free(k);
    return refuse_key(st, key);
  }
  *key = k;
  if (!fm_approval_rsa_public_key(k->n_bits)) fm_indicator_not_approved(); /* legacy use */
  return FM_OK;
}

/* ---- Queries and export -------------------------------------------------------------------- */

int fm_rsa_key_bits(const fm_rsa_key *key, size_t *bits) {
  const uint8_t ind = fm_tl_indicator; /* informational: the indicator is left as it was */
  int st = fm_service_gate();
  if (st == FM_OK && (!rsa_key_valid(key) || bits == NULL)) st = FM_ERR_BAD_ARGUMENT;
  if (st != FM_OK) return fm_indicator_keep(ind, fm_refuse(st, bits, bits != NULL ? sizeof(*bits) : 0));
  *bits = key->n_bits;
  return fm_indicator_keep(ind, FM_OK);
}

int fm_rsa_key_size(const fm_rsa_key *key, size_t *bytes) {
  const uint8_t ind = fm_tl_indicator; /* informational: the indicator is left as it was */
  int st = fm_service_gate();
  if (st == FM_OK && (!rsa_key_valid(key) || bytes == NULL)) st = FM_ERR_BAD_ARGUMENT;
  if (st != FM_OK) return fm_indicator_keep(ind, fm_refuse(st, bytes, bytes != NULL ? sizeof(*bytes) : 0));
  *bytes = key->k;
  return fm_indicator_keep(ind, FM_OK);
}

int fm_rsa_key_is_private(const fm_rsa_key *key, int *is_private) {
  const uint8_t ind = fm_tl_indicator; /* informational: the indicator is left as it was */
  int st = fm_service_gate();
  if (st == FM_OK && (!rsa_key_valid(key) || is_private == NULL)) st = FM_ERR_BAD_ARGUMENT;
  if (st != FM_OK) return fm_indicator_keep(ind, fm_refuse(st, is_private, is_private != NULL ? sizeof(*is_private) : 0));
  *is_private = key->has_private;
  return fm_indicator_keep(ind, FM_OK);
}

static int export_component(const fm_rsa_key *key, fm_rsa_component which, uint8_t *out,
                            size_t out_cap, size_t *out_len) {
  const uint64_t *v;
  size_t limbs, len;
  size_t p_bytes = (key->p_bits + 7) / 8, q_bytes = (key->q_bits + 7) / 8;
  switch (which) {
    case FM_RSA_N: v = key->mont_n.N; limbs = key->nl; len = key->k; break;
    case FM_RSA_E: v = key->e; limbs = key->nl; len = (key->e_bits + 7) / 8; break;
    case FM_RSA_D: v = key->d; limbs = key->nl; len = key->k; break;
    case FM_RSA_P: v = key->mont_p.N; limbs = key->pl; len = p_bytes; break;
    case FM_RSA_Q: v = key->mont_q.N; limbs = key->ql; len = q_bytes; break;
    case FM_RSA_DP: v = key->dp; limbs = key->pl; len = p_bytes; break;
    case FM_RSA_DQ: v = key->dq; limbs = key->ql; len = q_bytes; break;
    case FM_RSA_QINV: v = key->qinv; limbs = key->pl; len = p_bytes; break;
    default: return FM_ERR_BAD_ARGUMENT;
  }
  if (which == FM_RSA_D && !key->has_private) return FM_ERR_BAD_KEY;
  if (which >= FM_RSA_P && !key->has_crt) return FM_ERR_BAD_KEY;
  if (out_cap < len) return FM_ERR_BUFFER_TOO_SMALL;
  bn_to_bytes_be(out, len, v, limbs);
  *out_len = len;
  return FM_OK;
}

int fm_rsa_key_export(const fm_rsa_key *key, fm_rsa_component which, uint8_t *out,
                      size_t out_cap, size_t *out_len) {
  int st = fm_service_gate();
  if (st == FM_OK && (!rsa_key_valid(key) || out == NULL || out_len == NULL))
    st = FM_ERR_BAD_ARGUMENT;
  if (st == FM_OK) st = export_component(key, which, out, out_cap, out_len);
  if (st == FM_OK) return FM_OK;
  /* No component is longer than n: the key's size (FM_RSA_MAX_BYTES without a valid key) bounds
   * what the call could have written. */
  const size_t most = rsa_key_valid(key) ? key->k : FM_RSA_MAX_BYTES;
  const size_t len = out != NULL ? (out_cap < most ? out_cap : most) : 0;
  return fm_refuse2(st, out, len, out_len, out_len != NULL ? sizeof(*out_len) : 0);
}

/* ---- Test hooks ---------------------------------------------------------------------------- */

#if defined(FIPSMOD_TEST_HOOKS)
size_t rsa_key_secret_regions_for_testing(const fm_rsa_key *key, const void **ptrs, size_t *lens,
                                          size_t max) {
  size_t count = 0;
#define RSA_ADD_REGION(ptr, len)      \
  do {                                \
    if (count < max) {                \
      ptrs[count] = (ptr);            \
      lens[count] = (len);            \
      count++;                        \
    }                                 \
  } while (0)
  if (!rsa_key_valid(key) || !key->has_private) return 0;
  RSA_ADD_REGION(key->d, key->nl * sizeof(uint64_t));
  if (key->has_crt) {
    RSA_ADD_REGION(key->mont_p.N, key->pl * sizeof(uint64_t));
    RSA_ADD_REGION(key->mont_p.RR, key->pl * sizeof(uint64_t));
    RSA_ADD_REGION(&key->mont_p.n0, sizeof(uint64_t));
    RSA_ADD_REGION(key->mont_q.N, key->ql * sizeof(uint64_t));
    RSA_ADD_REGION(key->mont_q.RR, key->ql * sizeof(uint64_t));
    RSA_ADD_REGION(&key->mont_q.n0, sizeof(uint64_t));
    RSA_ADD_REGION(key->dp, key->pl * sizeof(uint64_t));
    RSA_ADD_REGION(key->dq, key->ql * sizeof(uint64_t));
    RSA_ADD_REGION(key->qinv, key->pl * sizeof(uint64_t));
    RSA_ADD_REGION(key->qinv_mont, key->pl * sizeof(uint64_t));
  }
#undef RSA_ADD_REGION
  return count;
}
#endif
