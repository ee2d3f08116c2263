/* Fixed-width arithmetic modulo the P-curves' primes and orders: Montgomery multiplication
 * (CIOS, 64-bit limbs, unsigned __int128 products), modular addition and subtraction with a
 * masked final correction, and Fermat inversion. The limb count is the curve's (public); the
 * kernels are instantiated for 4, 6 and 9 limbs so the compiler can unroll them. No value drives
 * a branch or an address. */
#include <assert.h>
#include <string.h>

#include "module/ec/internal.h"
#include "module/internal.h"

typedef unsigned __int128 u128;

/* ---- Limb helpers ------------------------------------------------------------------------ */

uint64_t ec_limbs_is_zero(unsigned limbs, const uint64_t *a) {
  uint64_t acc = 0;
  for (unsigned i = 0; i < limbs; i++) acc |= a[i];
  return ct_is_zero_u64(acc);
}

uint64_t ec_limbs_eq(unsigned limbs, const uint64_t *a, const uint64_t *b) {
  uint64_t acc = 0;
  for (unsigned i = 0; i < limbs; i++) acc |= a[i] ^ b[i];
  return ct_is_zero_u64(acc);
}

/* sub_borrow sets r = a - b over |limbs| words and returns the borrow out (0 or 1). */
static inline __attribute__((always_inline)) uint64_t sub_borrow(uint64_t *r, const uint64_t *a,
                                                                  const uint64_t *b,
                                                                  const unsigned limbs) {
  uint64_t borrow = 0;
  for (unsigned i = 0; i < limbs; i++) {
    u128 d = (u128)a[i] - b[i] - borrow;
    r[i] = (uint64_t)d;
    borrow = (uint64_t)(d >> 64) & 1; /* the high word is all-ones exactly on a borrow */
  }
  return borrow;
}

static inline __attribute__((always_inline)) uint64_t add_carry(uint64_t *r, const uint64_t *a,
                                                                 const uint64_t *b,
                                                                 const unsigned limbs) {
  uint64_t carry = 0;
  for (unsigned i = 0; i < limbs; i++) {
    u128 s = (u128)a[i] + b[i] + carry;
    r[i] = (uint64_t)s;
    carry = (uint64_t)(s >> 64);
  }
  return carry;
}

uint64_t ec_limbs_lt(unsigned limbs, const uint64_t *a, const uint64_t *b) {
  uint64_t t[EC_MAX_LIMBS];
  /* a < b exactly when a - b borrows. */
  uint64_t borrow = sub_borrow(t, a, b, limbs);
  fm_zeroize(t, sizeof t);
  return 0u - borrow;
}

void ec_limbs_cond_sub(unsigned limbs, uint64_t *a, const uint64_t *m) {
  uint64_t t[EC_MAX_LIMBS];
  const uint64_t keep = 0u - sub_borrow(t, a, m, limbs); /* a < m: keep a */
  for (unsigned i = 0; i < limbs; i++) a[i] = ct_select_u64(keep, a[i], t[i]);
  fm_zeroize(t, sizeof t);
}

void ec_limbs_from_be(unsigned limbs, uint64_t *out, const uint8_t *in, size_t len) {
  memset(out, 0, limbs * sizeof(uint64_t));
  for (size_t i = 0; i < len; i++) {
    const size_t bit = 8 * (len - 1 - i);
    out[bit / 64] |= (uint64_t)in[i] << (bit % 64);
  }
}

void ec_limbs_to_be(uint8_t *out, size_t len, const uint64_t *a) {
  for (size_t i = 0; i < len; i++) {
    const size_t bit = 8 * (len - 1 - i);
    out[i] = (uint8_t)(a[bit / 64] >> (bit % 64));
  }
}

/* ---- Montgomery kernels ------------------------------------------------------------------ */

/* mont_mul_k: CIOS Montgomery multiplication (Koc, Acar and Kaliski 1996). With a, b < m the
 * running value stays below 2m, one word and one bit past the limbs; the final subtraction of m
 * is selected by mask. */
static inline __attribute__((always_inline)) void mont_mul_k(const ec_mod *md, uint64_t *r,
                                                              const uint64_t *a,
                                                              const uint64_t *b,
                                                              const unsigned limbs) {
  const uint64_t *m = md->m;
  uint64_t t[EC_MAX_LIMBS + 2] = {0};
  for (unsigned i = 0; i < limbs; i++) {
    u128 c = 0;
    for (unsigned j = 0; j < limbs; j++) {
      c = (u128)a[j] * b[i] + t[j] + (uint64_t)(c >> 64);
      t[j] = (uint64_t)c;
    }
    c = (u128)t[limbs] + (uint64_t)(c >> 64);
    t[limbs] = (uint64_t)c;
    t[limbs + 1] = (uint64_t)(c >> 64);
    const uint64_t q = t[0] * md->n0;
    c = (u128)q * m[0] + t[0];
    for (unsigned j = 1; j < limbs; j++) {
      c = (u128)q * m[j] + t[j] + (uint64_t)(c >> 64);
      t[j - 1] = (uint64_t)c;
    }
    c = (u128)t[limbs] + (uint64_t)(c >> 64);
    t[limbs - 1] = (uint64_t)c;
    t[limbs] = t[limbs + 1] + (uint64_t)(c >> 64);
  }
  uint64_t s[EC_MAX_LIMBS];
  const uint64_t borrow = sub_borrow(s, t, m, limbs);
  /* t < m exactly when the subtraction borrows and no top word is left to absorb it. */
  const uint64_t keep = ct_is_zero_u64(t[limbs]) & (0u - borrow);
  for (unsigned j = 0; j < limbs; j++) r[j] = ct_select_u64(keep, t[j], s[j]);
}

static inline __attribute__((always_inline)) void mod_add_k(const ec_mod *md, uint64_t *r,
                                                             const uint64_t *a, const uint64_t *b,
                                                             const unsigned limbs) {
  uint64_t t[EC_MAX_LIMBS], s[EC_MAX_LIMBS];
  const uint64_t carry = add_carry(t, a, b, limbs);
  const uint64_t borrow = sub_borrow(s, t, md->m, limbs);
  /* a + b < m: no carry out of the sum and a borrow out of sum - m. */
  const uint64_t keep = ct_is_zero_u64(carry) & (0u - borrow);
  for (unsigned j = 0; j < limbs; j++) r[j] = ct_select_u64(keep, t[j], s[j]);
}

static inline __attribute__((always_inline)) void mod_sub_k(const ec_mod *md, uint64_t *r,
                                                             const uint64_t *a, const uint64_t *b,
                                                             const unsigned limbs) {
  uint64_t t[EC_MAX_LIMBS], s[EC_MAX_LIMBS];
  const uint64_t borrow = sub_borrow(t, a, b, limbs);
  (void)add_carry(s, t, md->m, limbs);
  /* a < b: the difference wrapped, add m back. */
  const uint64_t fix = 0u - borrow;
  for (unsigned j = 0; j < limbs; j++) r[j] = ct_select_u64(fix, s[j], t[j]);
}

/* The dispatch on the limb count branches only on the curve (public). */
void ec_mod_mul(const ec_curve *c, const ec_mod *m, uint64_t *r, const uint64_t *a,
                const uint64_t *b) {
  switch (c->limbs) {
    case 4: mont_mul_k(m, r, a, b, 4); break;
    case 6: mont_mul_k(m, r, a, b, 6); break;
    default: mont_mul_k(m, r, a, b, 9); break;
  }
}

void ec_mod_add(const ec_curve *c, const ec_mod *m, uint64_t *r, const uint64_t *a,
                const uint64_t *b) {
  switch (c->limbs) {
    case 4: mod_add_k(m, r, a, b, 4); break;
    case 6: mod_add_k(m, r, a, b, 6); break;
    default: mod_add_k(m, r, a, b, 9); break;
  }
}

void ec_mod_sub(const ec_curve *c, const ec_mod *m, uint64_t *r, const uint64_t *a,
                const uint64_t *b) {
  switch (c->limbs) {
    case 4: mod_sub_k(m, r, a, b, 4); break;
    case 6: mod_sub_k(m, r, a, b, 6); break;
    default: mod_sub_k(m, r, a, b, 9); break;
  }
}

void ec_mod_to_mont(const ec_curve *c, const ec_mod *m, uint64_t *r, const uint64_t *a) {
  ec_mod_mul(c, m, r, a, m->rr);
}

void ec_mod_from_mont(const ec_curve *c, const ec_mod *m, uint64_t *r, const uint64_t *a) {
  uint64_t one[EC_MAX_LIMBS] = {1};
  ec_mod_mul(c, m, r, a, one);
}

void ec_mod_pow_public(const ec_curve *c, const ec_mod *m, uint64_t *r, const uint64_t *a,
                       const uint64_t *e) {
  uint64_t acc[EC_MAX_LIMBS], base[EC_MAX_LIMBS];
  memcpy(acc, m->one, sizeof acc);
  memcpy(base, a, sizeof base);
  /* Left to right over the exponent's bits: the pattern of multiplications follows e, which
   * every caller passes as a public constant (m - 2, (p + 1) / 4). */
  for (int i = (int)(64 * c->limbs) - 1; i >= 0; i--) {
    ec_mod_mul(c, m, acc, acc, acc);
    if ((e[i / 64] >> (i % 64)) & 1) ec_mod_mul(c, m, acc, acc, base);
  }
  memcpy(r, acc, c->limbs * sizeof(uint64_t));
  fm_zeroize(acc, sizeof acc);
  fm_zeroize(base, sizeof base);
}

void ec_mod_inv(const ec_curve *c, const ec_mod *m, uint64_t *r, const uint64_t *a) {
  uint64_t e[EC_MAX_LIMBS] = {0};
  const uint64_t two[EC_MAX_LIMBS] = {2};
  /* Fermat: a^(m-2) = a^-1 for prime m; the exponent is public. */
  (void)sub_borrow(e, m->m, two, c->limbs);
  ec_mod_pow_public(c, m, r, a, e);
}
