/* RSA keys: import from components, validation, export and free.
 *
 * Validation answers one public question, "is this key acceptable", so it may branch on the
 * outcome of each check; the arithmetic behind the checks (divisions, products, inverses) runs in
 * constant time in the secret values. Once built, a key is never written again. */
#define _GNU_SOURCE
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "module/internal.h"
#include "module/rsa/internal.h"

/* ---- Allocation ---------------------------------------------------------------------------- */

int rsa_key_valid(const fm_rsa_key *key) { return key != NULL && key->magic == RSA_KEY_MAGIC; }

/* The last key id handed out; only key creation touches it. */
static _Atomic uint64_t g_last_key_id;

fm_rsa_key *rsa_key_alloc(void) {
  fm_rsa_key *key = calloc(1, sizeof(*key));
  if (key != NULL) {
    key->magic = RSA_KEY_MAGIC;
    key->id = atomic_fetch_add(&g_last_key_id, 1) + 1;
  }
  return key;
}

int fm_rsa_key_free(fm_rsa_key *key) {
  if (key == NULL) return FM_OK;
  rsa_blinding_forget(key);
  fm_zeroize(key, sizeof(*key));
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

int rsa_key_setup_private(fm_rsa_key *key, int have_crt) {
  const size_t nl = key->nl, pl = key->pl, ql = key->ql;
  const uint64_t *p = key->mont_p.N, *q = key->mont_q.N;
  uint64_t prod[2 * RSA_PRIME_MAX_LIMBS];
  uint64_t dp[RSA_PRIME_MAX_LIMBS], dq[RSA_PRIME_MAX_LIMBS], t[RSA_PRIME_MAX_LIMBS];
  uint64_t bound[BN_MAX_LIMBS];
  int st = FM_ERR_BAD_KEY;

  if (key->el > RSA_E_MAX_LIMBS) goto done;
  /* FIPS 186-5 A.1.1 / A.1.3: p and q are odd, each of half of n's bit length. */
  const size_t half = (key->n_bits + 1) / 2;
  if ((p[0] & 1) == 0 || (q[0] & 1) == 0) goto done;
  if (bn_bits_public(p, pl) != half || bn_bits_public(q, ql) != half) goto done;
  if (bn_mont_ctx_init_secret(&key->mont_p, p, pl) != FM_OK) goto done;
  if (bn_mont_ctx_init_secret(&key->mont_q, q, ql) != FM_OK) goto done;

  /* n = p * q (the product's limbs beyond n's width must be zero). */
  bn_mul_unbalanced(prod, p, pl, q, ql);
  uint64_t ok = bn_eq_mask(prod, key->mont_n.N, nl);
  if (pl + ql > nl) ok &= bn_is_zero_mask(prod + nl, pl + ql - nl);
  if (!ok) goto done;

  /* 2^(nlen/2) < d < n (FIPS 186-5 A.1.1 step 3 bounds d below; d < n keeps it in width). */
  bn_set_zero(bound, nl);
  bound[(key->n_bits / 2) / 64] = UINT64_C(1) << ((key->n_bits / 2) % 64);
  if (!bn_lt_mask(bound, key->d, nl) || !bn_lt_mask(key->d, key->mont_n.N, nl)) goto done;

  /* e * d = 1 mod (p-1) and mod (q-1), hence mod lcm(p-1, q-1): checked through dp and dq. */
  if (!(crt_exponent_check(key, dp, &key->mont_p) & crt_exponent_check(key, dq, &key->mont_q)))
    goto done;

  if (have_crt) {
    /* The given CRT values must be exactly d mod (p-1), d mod (q-1) and q^-1 mod p. */
    ok = bn_eq_mask(dp, key->dp, pl) & bn_eq_mask(dq, key->dq, ql);
    ok &= bn_lt_mask(key->qinv, p, pl);
    bn_mod_reduce(t, q, ql, &key->mont_p);
    bn_mod_mul(t, t, key->qinv, &key->mont_p);
    uint64_t one[RSA_PRIME_MAX_LIMBS];
    bn_set_word(one, pl, 1);
    ok &= bn_eq_mask(t, one, pl);
    if (!ok) goto done;
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
  return st;
}

/* ---- Import -------------------------------------------------------------------------------- */

static int component_ok(const uint8_t *p, size_t len) { return p != NULL || len == 0; }

static int import_private(const fm_rsa_private_components *c, fm_rsa_key *key) {
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
  if ((st = rsa_key_setup_private(key, have_crt)) != FM_OK) return st;
  return bn_mont_ctx_init_public(&key->mont_n, key->mont_n.N, key->nl) == FM_OK ? FM_OK
                                                                                 : FM_ERR_BAD_KEY;
}

int fm_rsa_key_import_private(const fm_rsa_private_components *c, fm_rsa_key **key) {
  if (key != NULL) *key = NULL;
  if (!fm_module_operational()) return FM_ERR_NOT_OPERATIONAL;
  if (c == NULL || key == NULL) return FM_ERR_BAD_ARGUMENT;
  if (!component_ok(c->n, c->n_len) || !component_ok(c->e, c->e_len) ||
      !component_ok(c->d, c->d_len) || !component_ok(c->p, c->p_len) ||
      !component_ok(c->q, c->q_len) || !component_ok(c->dp, c->dp_len) ||
      !component_ok(c->dq, c->dq_len) || !component_ok(c->qinv, c->qinv_len))
    return FM_ERR_BAD_ARGUMENT;
  if (c->n_len == 0 || c->e_len == 0 || c->d_len == 0 || c->p_len == 0 || c->q_len == 0)
    return FM_ERR_BAD_ARGUMENT;
  const int crt_given = (c->dp_len != 0) + (c->dq_len != 0) + (c->qinv_len != 0);
  if (crt_given != 0 && crt_given != 3) return FM_ERR_BAD_ARGUMENT;

  fm_rsa_key *k = rsa_key_alloc();
  if (k == NULL) return FM_ERR_NO_MEMORY;
  int st = import_private(c, k);
  if (st != FM_OK) {
    fm_rsa_key_free(k);
    return st;
  }
  *key = k;
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
  if (bn_is_zero_mask(key->d, key->nl) || !bn_lt_mask(key->d, key->mont_n.N, key->nl))
    return FM_ERR_BAD_KEY;
  if (bn_mont_ctx_init_public(&key->mont_n, key->mont_n.N, key->nl) != FM_OK)
    return FM_ERR_BAD_KEY;
  /* d must invert e: (x^e)^d == x for a fixed x (n > 2^1023, so x < n). */
  uint64_t x[BN_MAX_LIMBS], y[BN_MAX_LIMBS];
  bn_set_word(x, key->nl, RSA_ND_CHECK_VALUE);
  rsa_public_op(key, y, x);
  bn_mod_exp_consttime(y, y, key->d, key->nl, &key->mont_n);
  uint64_t ok = bn_eq_mask(x, y, key->nl);
  fm_zeroize(y, sizeof(y));
  if (!ok) return FM_ERR_BAD_KEY;
  key->has_private = 1;
  key->has_crt = 0;
  return FM_OK;
}

int fm_rsa_key_import_private_nd(const uint8_t *n, size_t n_len, const uint8_t *e, size_t e_len,
                                 const uint8_t *d, size_t d_len, fm_rsa_key **key) {
  if (key != NULL) *key = NULL;
  if (!fm_module_operational()) return FM_ERR_NOT_OPERATIONAL;
  if (key == NULL || n == NULL || e == NULL || d == NULL || n_len == 0 || e_len == 0 ||
      d_len == 0)
    return FM_ERR_BAD_ARGUMENT;
  fm_rsa_key *k = rsa_key_alloc();
  if (k == NULL) return FM_ERR_NO_MEMORY;
  int st = import_private_nd(k, n, n_len, e, e_len, d, d_len);
  if (st != FM_OK) {
    fm_rsa_key_free(k);
    return st;
  }
  *key = k;
  return FM_OK;
}

int fm_rsa_key_import_public(const uint8_t *n, size_t n_len, const uint8_t *e, size_t e_len,
                             fm_rsa_key **key) {
  if (key != NULL) *key = NULL;
  if (!fm_module_operational()) return FM_ERR_NOT_OPERATIONAL;
  if (key == NULL || n == NULL || e == NULL || n_len == 0 || e_len == 0)
    return FM_ERR_BAD_ARGUMENT;
  fm_rsa_key *k = rsa_key_alloc();
  if (k == NULL) return FM_ERR_NO_MEMORY;
  int st = parse_modulus(k, n, n_len, FM_RSA_MIN_PUBLIC_BITS);
  if (st == FM_OK) st = parse_exponent(k, e, e_len, 1);
  if (st == FM_OK && bn_mont_ctx_init_public(&k->mont_n, k->mont_n.N, k->nl) != FM_OK)
    st = FM_ERR_BAD_KEY;
  if (st != FM_OK) {
    fm_rsa_key_free(k);
    return st;
  }
  *key = k;
  return FM_OK;
}

/* ---- Queries and export -------------------------------------------------------------------- */

int fm_rsa_key_bits(const fm_rsa_key *key, size_t *bits) {
  if (bits != NULL) *bits = 0;
  if (!fm_module_operational()) return FM_ERR_NOT_OPERATIONAL;
  if (!rsa_key_valid(key) || bits == NULL) return FM_ERR_BAD_ARGUMENT;
  *bits = key->n_bits;
  return FM_OK;
}

int fm_rsa_key_size(const fm_rsa_key *key, size_t *bytes) {
  if (bytes != NULL) *bytes = 0;
  if (!fm_module_operational()) return FM_ERR_NOT_OPERATIONAL;
  if (!rsa_key_valid(key) || bytes == NULL) return FM_ERR_BAD_ARGUMENT;
  *bytes = key->k;
  return FM_OK;
}

int fm_rsa_key_is_private(const fm_rsa_key *key, int *is_private) {
  if (is_private != NULL) *is_private = 0;
  if (!fm_module_operational()) return FM_ERR_NOT_OPERATIONAL;
  if (!rsa_key_valid(key) || is_private == NULL) return FM_ERR_BAD_ARGUMENT;
  *is_private = key->has_private;
  return FM_OK;
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
  if (out_len != NULL) *out_len = 0;
  if (out != NULL) fm_zeroize(out, out_cap);
  if (!fm_module_operational()) return FM_ERR_NOT_OPERATIONAL;
  if (!rsa_key_valid(key) || out == NULL || out_len == NULL) return FM_ERR_BAD_ARGUMENT;
  return export_component(key, which, out, out_cap, out_len);
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
