/* Fixed-width arithmetic modulo the P-curves' primes and orders: Montgomery multiplication
 * (CIOS, 64-bit limbs, unsigned __int128 products), modular addition and subtraction with a
 * masked final correction, and Fermat inversion. The limb count is the curve's (public); the
 * kernels are instantiated for 4, 6 and 9 limbs so the compiler can unroll them. No value drives
 * a branch or an address. */
#include <assert.h>
#include <stdbool.h>
#include <string.h>

#include "module/bn/internal.h"
#include "module/ec/ec_field_inline.h"
#include "module/ec/ec_p521.h"
#include "module/ec/internal.h"
#include "module/internal.h"

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

/* One out-of-line Montgomery multiplication per limb count, for any modulus of that width; the
 * group law has its own, per curve (ec_point.c). */
static __attribute__((noinline)) void mont_mul_4(const ec_mod *m, uint64_t *r, const uint64_t *a,
                                                 const uint64_t *b) {
  mont_mul_k(m, r, a, b, 4);
}
static __attribute__((noinline)) void mont_mul_6(const ec_mod *m, uint64_t *r, const uint64_t *a,
                                                 const uint64_t *b) {
  mont_mul_k(m, r, a, b, 6);
}
static __attribute__((noinline)) void mont_mul_9(const ec_mod *m, uint64_t *r, const uint64_t *a,
                                                 const uint64_t *b) {
  mont_mul_k(m, r, a, b, 9);
}

/* The dispatch on the limb count branches only on the curve (public). */
void ec_mod_mul(const ec_curve *c, const ec_mod *m, uint64_t *r, const uint64_t *a,
                const uint64_t *b) {
  switch (c->limbs) {
    case 4:
      /* P-256's p (public) takes the group law's product: the assembly where the CPU has BMI2
       * and ADX (a square for the same address twice), the BMI2 build of the same kernel where
       * it has BMI2 alone; the CPU's features are public. */
      if (m == &c->p && c->id == FM_EC_P256 && fm_cpu_use(FM_CPU_BMI2)) {
        if (!fm_cpu_use(FM_CPU_ADX)) ec_p256_mul_mulx(r, a, b);
        else if (a == b) ec_p256_sqr_adx(r, a);
        else ec_p256_mul_adx(r, a, b);
      } else {
        mont_mul_4(m, r, a, b);
      }
      break;
    case 6:
      /* P-384's p (public) takes the group law's assembly product where the CPU has BMI2 and ADX
       * (ec_p384_jac_adx.c), with the same results. */
      if (fm_cpu_use(FM_CPU_BMI2) && fm_cpu_use(FM_CPU_ADX) && m == &c->p)
        ec_p384_mul_adx(r, a, b);
      else
        mont_mul_6(m, r, a, b);
      break;
    default:
      /* P-521's p (public) has its own product, with the same results (ec_p521.c). */
      if (m == &c->p) ec_p521_mul(r, a, b);
      else mont_mul_9(m, r, a, b);
      break;
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

/* pow_public_k: a fixed 4-bit window over the exponent from its top non-zero digit. The digits
 * choose the multiplications and the table entries; every caller passes a public exponent
 * (m - 2, (p + 1) / 4), so only the base is secret, and it never drives a branch or index. */
static inline __attribute__((always_inline)) void pow_public_k(
    const ec_mod *m, uint64_t *r, const uint64_t *a, const uint64_t *e, const unsigned limbs,
    void (*mul)(const ec_mod *, uint64_t *, const uint64_t *, const uint64_t *)) {
  uint64_t tab[16][EC_MAX_LIMBS], acc[EC_MAX_LIMBS];
  memcpy(tab[0], m->one, sizeof tab[0]);
  memcpy(tab[1], a, limbs * sizeof(uint64_t));
  for (unsigned i = 2; i < 16; i++) mul(m, tab[i], tab[i - 1], a);
  memcpy(acc, m->one, sizeof acc);
  bool started = false;
  for (int w = (int)(16 * limbs) - 1; w >= 0; w--) {
    const unsigned digit = (unsigned)(e[w / 16] >> ((w % 16) * 4)) & 15;
    if (started)
      for (int i = 0; i < 4; i++) mul(m, acc, acc, acc);
    if (digit != 0) {
      if (started) mul(m, acc, acc, tab[digit]);
      else memcpy(acc, tab[digit], sizeof acc);
      started = true;
    }
  }
  memcpy(r, acc, limbs * sizeof(uint64_t));
  fm_zeroize(tab, sizeof tab);
  fm_zeroize(acc, sizeof acc);
}

void ec_mod_pow_public(const ec_curve *c, const ec_mod *m, uint64_t *r, const uint64_t *a,
                       const uint64_t *e) {
  switch (c->limbs) {
    case 4: pow_public_k(m, r, a, e, 4, mont_mul_4); break;
    case 6: pow_public_k(m, r, a, e, 6, mont_mul_6); break;
    default: pow_public_k(m, r, a, e, 9, mont_mul_9); break;
  }
}

void ec_mod_inv(const ec_curve *c, const ec_mod *m, uint64_t *r, const uint64_t *a) {
  /* The divsteps inverse of bn/ (Bernstein-Yang, a fixed number of steps for the width, constant
   * time) on the Montgomery form aR gives a^-1 R^-1; two Montgomery multiplications by R^2 turn
   * it into a^-1 R. For a = 0 it gives 0, as the point at infinity's conversion needs. */
  uint64_t t[EC_MAX_LIMBS];
  /* m is prime: every a != 0 is invertible. a < m < 2^256 on the 4-limb curves. */
  if (c->limbs == 4) (void)bn_mod_inverse_256_mask(t, a, m->m);
  else (void)bn_mod_inverse_mask(t, a, m->m, c->limbs);
  ec_mod_mul(c, m, t, t, m->rr);
  ec_mod_mul(c, m, r, t, m->rr);
  fm_zeroize(t, sizeof t);
}

void ec_mod_inv_public(const ec_curve *c, const ec_mod *m, uint64_t *r, const uint64_t *a) {
  /* VARIABLE TIME, for public a only: bn/'s divsteps stopped once done, then the two Montgomery
   * multiplications by R^2 of ec_mod_inv. Where those divsteps give up (a = 0, which has no
   * inverse, or a run past their cap), ec_mod_inv answers. */
  uint64_t t[EC_MAX_LIMBS];
  if (bn_mod_inverse_public(t, a, m->m, c->limbs) == 0) {
    ec_mod_inv(c, m, r, a);
    return;
  }
  ec_mod_mul(c, m, t, t, m->rr);
  ec_mod_mul(c, m, r, t, m->rr);
}
