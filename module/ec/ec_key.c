/* EC keys: the key object, SEC1 point decoding with full public-key validation (SP 800-56A
 * Rev. 3 5.6.2.3.3), private-key import with its range and consistency checks, and key-pair
 * generation (FIPS 186-5 A.2.2) with its pairwise consistency test. */
#include <stdlib.h>
#include <string.h>

#include "fipsmod/rand.h"
#include "module/ec/internal.h"
#include "module/internal.h"

size_t fm_ec_curve_bytes(fm_ec_curve curve) {
  const ec_curve *c = ec_curve_get(curve);
  return c != NULL ? c->bytes : 0;
}

bool ec_key_valid(const fm_ec_key *key) {
  return key != NULL && key->magic == EC_KEY_MAGIC && key->curve != NULL;
}

static fm_ec_key *key_new(const ec_curve *c) {
  fm_ec_key *key = calloc(1, sizeof(*key));
  if (key == NULL) return NULL;
  key->magic = EC_KEY_MAGIC;
  key->curve = c;
  return key;
}

#if defined(FIPSMOD_TEST_HOOKS)
static void (*g_free_hook)(const void *key, size_t len);
void ec_key_set_free_hook_for_testing(void (*hook)(const void *key, size_t len)) {
  g_free_hook = hook;
}
#endif

int fm_ec_key_free(fm_ec_key *key) {
  fm_indicator_approved(); /* zeroization: an approved service in every state */
  if (key == NULL) return FM_OK;
  fm_zeroize(key, sizeof(*key));
#if defined(FIPSMOD_TEST_HOOKS)
  if (g_free_hook != NULL) g_free_hook(key, sizeof(*key));
#endif
  free(key);
  return FM_OK;
}

/* ---- Points ------------------------------------------------------------------------------
 * Public keys are public: decoding may branch on them. */

/* sqrt_public sets y = sqrt(a) (Montgomery form) for p = 3 mod 4, as a^((p+1)/4), and returns
 * true when a is a square. */
static bool sqrt_public(const ec_curve *c, uint64_t *y, const uint64_t *a) {
  uint64_t e[EC_MAX_LIMBS] = {0}, chk[EC_MAX_LIMBS];
  /* (p + 1) / 4: p + 1 has no carry past the limbs since p < 2^bits <= 2^(64 * limbs) - 1. */
  uint64_t carry = 1;
  for (unsigned i = 0; i < c->limbs; i++) {
    e[i] = c->p.m[i] + carry;
    carry = e[i] < carry;
  }
  for (unsigned i = 0; i < c->limbs; i++)
    e[i] = (e[i] >> 2) | (i + 1 < c->limbs ? e[i + 1] << 62 : 0);
  ec_mod_pow_public(c, &c->p, y, a, e);
  ec_mod_mul(c, &c->p, chk, y, y);
  return ec_limbs_eq(c->limbs, chk, a) != 0;
}

int ec_decode_point(const ec_curve *c, const uint8_t *in, size_t len, uint64_t *x, uint64_t *y) {
  const size_t nb = c->bytes;
  uint64_t xr[EC_MAX_LIMBS], yr[EC_MAX_LIMBS];
  if (len == 0) return FM_ERR_LENGTH;
  /* SEC1 2.3.4: a lone 00 is the point at infinity, never a valid public key (5.6.2.3.3
   * step 1). */
  if (len == 1 && in[0] == 0x00) return FM_ERR_BAD_KEY;
  if (in[0] == 0x04) {
    if (len != 1 + 2 * nb) return FM_ERR_LENGTH;
  } else if (in[0] == 0x02 || in[0] == 0x03) {
    if (len != 1 + nb) return FM_ERR_LENGTH;
  } else {
    return FM_ERR_BAD_KEY;
  }
  ec_limbs_from_be(c->limbs, xr, in + 1, nb);
  /* Step 2: each coordinate in [0, p-1]. */
  if (!ec_limbs_lt(c->limbs, xr, c->p.m)) return FM_ERR_BAD_KEY;
  ec_mod_to_mont(c, &c->p, x, xr);
  if (in[0] == 0x04) {
    ec_limbs_from_be(c->limbs, yr, in + 1 + nb, nb);
    if (!ec_limbs_lt(c->limbs, yr, c->p.m)) return FM_ERR_BAD_KEY;
    ec_mod_to_mont(c, &c->p, y, yr);
  } else {
    /* Only p = 3 mod 4 has the one-exponentiation square root; P-224's p = 1 mod 4. */
    if ((c->p.m[0] & 3) != 3) return FM_ERR_UNSUPPORTED;
    uint64_t rhs[EC_MAX_LIMBS], t[EC_MAX_LIMBS];
    ec_mod_mul(c, &c->p, rhs, x, x);
    ec_mod_mul(c, &c->p, rhs, rhs, x);
    ec_mod_add(c, &c->p, t, x, x);
    ec_mod_add(c, &c->p, t, t, x);
    ec_mod_sub(c, &c->p, rhs, rhs, t);
    ec_mod_add(c, &c->p, rhs, rhs, c->b);
    if (!sqrt_public(c, y, rhs)) return FM_ERR_BAD_KEY;
    ec_mod_from_mont(c, &c->p, yr, y);
    if ((yr[0] & 1) != (uint64_t)(in[0] & 1)) {
      const uint64_t zero[EC_MAX_LIMBS] = {0};
      ec_mod_sub(c, &c->p, y, zero, y);
    }
  }
  /* Step 3: on the curve. Step 4, nQ = O, holds for every point of a cofactor-1 curve
   * (SP 800-186 D.1.1.1 leaves it out for h = 1). */
  if (!ec_point_on_curve(c, x, y)) return FM_ERR_BAD_KEY;
  return FM_OK;
}

/* encode_point writes Q as a SEC1 point. */
static size_t encode_point(const fm_ec_key *key, int compressed, uint8_t *out) {
  const ec_curve *c = key->curve;
  uint64_t xr[EC_MAX_LIMBS], yr[EC_MAX_LIMBS];
  ec_mod_from_mont(c, &c->p, xr, key->qx);
  ec_mod_from_mont(c, &c->p, yr, key->qy);
  if (compressed) {
    out[0] = (uint8_t)(0x02 | (yr[0] & 1));
    ec_limbs_to_be(out + 1, c->bytes, xr);
    return 1 + c->bytes;
  }
  out[0] = 0x04;
  ec_limbs_to_be(out + 1, c->bytes, xr);
  ec_limbs_to_be(out + 1 + c->bytes, c->bytes, yr);
  return 1 + 2 * c->bytes;
}

/* ---- Public services --------------------------------------------------------------------- */

static int refuse_key(int st, fm_ec_key **key) {
  if (key != NULL) *key = NULL;
  return fm_refuse(st, NULL, 0);
}

int fm_ec_key_import_public(fm_ec_curve curve, const uint8_t *pub, size_t pub_len,
                            fm_ec_key **key) {
  int st = fm_service_gate();
  if (st != FM_OK) return refuse_key(st, key);
  if (key == NULL || pub == NULL) return refuse_key(FM_ERR_BAD_ARGUMENT, key);
  const ec_curve *c = ec_curve_get(curve);
  if (c == NULL) return refuse_key(FM_ERR_UNSUPPORTED, key);
  fm_ec_key *k = key_new(c);
  if (k == NULL) return refuse_key(FM_ERR_NO_MEMORY, key);
  st = ec_decode_point(c, pub, pub_len, k->qx, k->qy);
  if (st != FM_OK) {
    fm_ec_key_free(k);
    return refuse_key(st, key);
  }
  *key = k;
  return FM_OK;
}

/* set_public_from_private computes Q = dG into the key. Constant time in d. Returns false when Q
 * is the point at infinity (never, for d in [1, n-1]; a fault otherwise). */
static bool set_public_from_private(fm_ec_key *k) {
  const ec_curve *c = k->curve;
  ec_point q;
  ec_scalar_mul_base(c, &q, k->d);
  const uint64_t finite = ec_point_to_affine(c, k->qx, k->qy, &q);
  fm_zeroize(&q, sizeof q);
  ec_stack_wipe();
  /* Q is the public key: public from here on. */
  fm_declassify(k->qx, sizeof k->qx);
  fm_declassify(k->qy, sizeof k->qy);
  return fm_declassify_u64(finite) != 0;
}

int fm_ec_key_import_private(fm_ec_curve curve, const uint8_t *d, size_t d_len,
                             const uint8_t *pub, size_t pub_len, fm_ec_key **key) {
  int st = fm_service_gate_tested(FM_ST_ECDSA_SIGN_KAT);
  if (st != FM_OK) return refuse_key(st, key);
  if (key == NULL || d == NULL || (pub == NULL && pub_len > 0))
    return refuse_key(FM_ERR_BAD_ARGUMENT, key);
  const ec_curve *c = ec_curve_get(curve);
  if (c == NULL) return refuse_key(FM_ERR_UNSUPPORTED, key);
  if (d_len != c->bytes) return refuse_key(FM_ERR_LENGTH, key);
  fm_ec_key *k = key_new(c);
  if (k == NULL) return refuse_key(FM_ERR_NO_MEMORY, key);
  uint64_t gx[EC_MAX_LIMBS], gy[EC_MAX_LIMBS];
  ec_limbs_from_be(c->limbs, k->d, d, d_len);
  /* d in [1, n-1], checked in constant time; only the verdict is made public. */
  const uint64_t in_range = ~ec_limbs_is_zero(c->limbs, k->d) & ec_limbs_lt(c->limbs, k->d, c->n.m);
  if (!fm_declassify_u64(in_range)) {
    st = FM_ERR_OUT_OF_RANGE;
    goto fail;
  }
  k->has_private = true;
  if (!set_public_from_private(k)) {
    st = FM_ERR_INTERNAL;
    goto fail;
  }
  if (pub != NULL) {
    /* The given point must be valid and be dG (its coordinates are public). */
    st = ec_decode_point(c, pub, pub_len, gx, gy);
    if (st != FM_OK) goto fail;
    if (!ec_limbs_eq(c->limbs, gx, k->qx) || !ec_limbs_eq(c->limbs, gy, k->qy)) {
      st = FM_ERR_BAD_KEY;
      goto fail;
    }
  }
  *key = k;
  return FM_OK;
fail:
  fm_ec_key_free(k);
  return refuse_key(st, key);
}

int ec_random_scalar(const ec_curve *c, uint64_t *k) {
  uint8_t buf[EC_MAX_BYTES];
  uint64_t cand[EC_MAX_LIMBS], nm1[EC_MAX_LIMBS];
  memcpy(nm1, c->n.m, sizeof nm1);
  nm1[0] -= 1; /* n is odd: no borrow */
  int st;
  for (;;) {
    /* FIPS 186-5 A.2.2 / A.3.2: draw |bits| random bits c; if c > n - 2 draw again; the scalar
     * is c + 1. */
    st = fm_rand_bytes(buf, c->bytes);
    if (st != FM_OK) break;
    if (c->bits % 8 != 0) buf[0] &= (uint8_t)((1u << (c->bits % 8)) - 1);
    ec_limbs_from_be(c->limbs, cand, buf, c->bytes);
    /* Whether this candidate is rejected is public; its value is not. */
    if (fm_declassify_u64(ec_limbs_lt(c->limbs, cand, nm1))) break;
  }
  if (st == FM_OK) {
    /* c + 1 < n: no carry past the limbs, and the carry chain has no branch. */
    uint64_t carry = 1;
    for (unsigned i = 0; i < c->limbs; i++) {
      const uint64_t v = cand[i] + carry;
      carry = ct_lt_u64(v, carry) & 1;
      k[i] = v;
    }
  }
  fm_zeroize(buf, sizeof buf);
  fm_zeroize(cand, sizeof cand);
  return st;
}

int fm_ec_key_generate(fm_ec_curve curve, fm_ec_key **key) {
  /* The pairwise consistency test signs and verifies: both CASTs first. */
  int st = fm_service_gate_tested(FM_ST_ECDSA_SIGN_KAT);
  if (st == FM_OK && (st = fm_selftest_ensure(FM_ST_ECDSA_VERIFY_KAT)) != FM_OK)
    fm_indicator_not_approved();
  if (st != FM_OK) return refuse_key(st, key);
  if (key == NULL) return refuse_key(FM_ERR_BAD_ARGUMENT, key);
  const ec_curve *c = ec_curve_get(curve);
  if (c == NULL) return refuse_key(FM_ERR_UNSUPPORTED, key);
  fm_ec_key *k = key_new(c);
  if (k == NULL) return refuse_key(FM_ERR_NO_MEMORY, key);
  st = ec_random_scalar(c, k->d);
  if (st != FM_OK) goto fail;
  k->has_private = true;
  if (!set_public_from_private(k)) {
    st = FM_ERR_INTERNAL;
    goto fail;
  }
  st = ec_pct(k);
  ec_stack_wipe_keygen(); /* the signature's verification, after sign_digest's own wipe */
  if (st != FM_OK) goto fail;
  *key = k;
  return FM_OK;
fail:
  fm_ec_key_free(k);
  return refuse_key(st, key);
}

int fm_ec_key_export_public(const fm_ec_key *key, int compressed, uint8_t *out, size_t cap,
                            size_t *out_len) {
  int st = fm_service_gate();
  if (st == FM_OK && (!ec_key_valid(key) || out == NULL || out_len == NULL))
    st = FM_ERR_BAD_ARGUMENT;
  if (st == FM_OK) {
    const size_t need = compressed ? 1 + key->curve->bytes : 1 + 2 * key->curve->bytes;
    if (cap < need) st = FM_ERR_BUFFER_TOO_SMALL;
  }
  if (st != FM_OK) {
    const size_t most = cap < FM_EC_MAX_POINT_BYTES ? cap : FM_EC_MAX_POINT_BYTES;
    return fm_refuse2(st, out, out != NULL ? most : 0, out_len,
                      out_len != NULL ? sizeof(*out_len) : 0);
  }
  *out_len = encode_point(key, compressed, out);
  return FM_OK;
}

int fm_ec_key_export_private(const fm_ec_key *key, uint8_t *out, size_t cap, size_t *out_len) {
  int st = fm_service_gate();
  if (st == FM_OK && (!ec_key_valid(key) || out == NULL || out_len == NULL || !key->has_private))
    st = FM_ERR_BAD_ARGUMENT;
  if (st == FM_OK && cap < key->curve->bytes) st = FM_ERR_BUFFER_TOO_SMALL;
  if (st != FM_OK) {
    const size_t most = cap < FM_EC_MAX_BYTES ? cap : FM_EC_MAX_BYTES;
    return fm_refuse2(st, out, out != NULL ? most : 0, out_len,
                      out_len != NULL ? sizeof(*out_len) : 0);
  }
  ec_limbs_to_be(out, key->curve->bytes, key->d);
  *out_len = key->curve->bytes;
  return FM_OK;
}

int fm_ec_key_curve(const fm_ec_key *key, fm_ec_curve *curve) {
  const uint8_t saved = fm_tl_indicator;
  int st = fm_service_gate();
  if (st == FM_OK && (!ec_key_valid(key) || curve == NULL)) st = FM_ERR_BAD_ARGUMENT;
  if (st != FM_OK) {
    if (curve != NULL) *curve = (fm_ec_curve)0;
    return fm_indicator_keep(saved, st);
  }
  *curve = key->curve->id;
  return fm_indicator_keep(saved, FM_OK);
}
