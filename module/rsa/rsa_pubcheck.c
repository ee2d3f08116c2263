/* Partial public-key validation of an imported RSA public key (SP 800-89 5.3.3): the exponent's
 * range (checked by parse_exponent: odd, 2^16 < e < 2^256), and that the modulus n is odd,
 * composite, not a perfect power (so not a prime power) and has no prime factor below 752.
 *
 * n is public: everything here may take time that depends on it. The checks, cheapest first:
 *   - trial division by the odd primes 3..751;
 *   - compositeness: 2^(n-1) mod n != 1 proves n composite (Fermat). A prime always gives 1, so
 *     a prime n is always refused; a composite that happens to give 1 (a base-2 pseudoprime) is
 *     refused too, which can only turn away a key, never let a bad one through;
 *   - perfect powers: n = m^k for some k >= 2 means n = m'^r for a prime r dividing k, and
 *     m' > 751 (no small factor), so r <= log(n) / log(757). For each such prime r a sieve asks
 *     whether n is an r-th power residue modulo primes q = 1 (mod r): a "no" from any q proves n
 *     is no r-th power (a random modulus answers "no" for r = 2 with probability 1/2 per q). Only
 *     when RSA_PP_SIEVE primes all say "maybe" (true powers, or chance: 2^-16 for r = 2) is the
 *     integer r-th root computed bit by bit and raised to the r-th power. */
#include <string.h>

#include "module/bn/internal.h"
#include "module/internal.h"
#include "module/rsa/internal.h"

#define RSA_PP_SIEVE 16

/* small_prime: trial division of a 32-bit q (public, small). */
static bool small_prime(uint64_t q) {
  if (q < 2) return false;
  for (uint64_t d = 2; d * d <= q; d++)
    if (q % d == 0) return false;
  return true;
}

/* pow_mod64 returns b^e mod m for m < 2^32. */
static uint64_t pow_mod64(uint64_t b, uint64_t e, uint64_t m) {
  uint64_t r = 1 % m;
  b %= m;
  while (e != 0) {
    if (e & 1) r = r * b % m;
    b = b * b % m;
    e >>= 1;
  }
  return r;
}

/* maybe_rth_power: false when some prime q = 1 (mod r) proves n no r-th power residue. */
static bool maybe_rth_power(const uint64_t *n, size_t nl, uint64_t r) {
  int asked = 0;
  for (uint64_t q = 2 * r + 1; asked < RSA_PP_SIEVE && q < (UINT64_C(1) << 31); q += 2 * r) {
    if (!small_prime(q)) continue;
    const uint64_t a = bn_mod_small_consttime(n, nl, (uint32_t)q);
    if (a == 0) continue; /* q divides n: no answer from this q */
    asked++;
    if (pow_mod64(a, (q - 1) / r, q) != 1) return false; /* not an r-th power mod q */
  }
  return true;
}

/* pow_cmp compares m^r (m: ml limbs, non-zero) with n (nl limbs): -1, 0 or 1. */
static int pow_cmp(const uint64_t *m, size_t ml, uint64_t r, const uint64_t *n, size_t nl,
                   size_t n_bits) {
  uint64_t acc[2 * BN_MAX_LIMBS], t[2 * BN_MAX_LIMBS];
  size_t al = 1;
  bn_set_word(acc, 1, 1);
  for (uint64_t i = 0; i < r; i++) {
    if (al + ml > 2 * BN_MAX_LIMBS) return 1;
    bn_mul_unbalanced(t, acc, al, m, ml);
    al += ml;
    while (al > 1 && t[al - 1] == 0) al--;
    memcpy(acc, t, al * sizeof acc[0]);
    if (bn_bits_public(acc, al) > n_bits) return 1;
  }
  if (al > nl) return 1;
  uint64_t wide[BN_MAX_LIMBS];
  bn_set_zero(wide, nl);
  memcpy(wide, acc, al * sizeof acc[0]);
  if (bn_eq_mask(wide, n, nl)) return 0;
  return bn_lt_mask(wide, n, nl) ? -1 : 1;
}

/* is_rth_power: n is the r-th power of an integer (the root found bit by bit from the top). */
static bool is_rth_power(const uint64_t *n, size_t nl, size_t n_bits, uint64_t r) {
  const size_t root_bits = (n_bits + r - 1) / r;
  const size_t ml = bn_limbs_for_bits(root_bits);
  uint64_t m[BN_MAX_LIMBS];
  bn_set_zero(m, ml);
  for (size_t bit = root_bits; bit-- > 0;) {
    m[bit / 64] |= UINT64_C(1) << (bit % 64);
    const int c = pow_cmp(m, ml, r, n, nl, n_bits);
    if (c == 0) return true;
    if (c > 0) m[bit / 64] &= ~(UINT64_C(1) << (bit % 64));
  }
  return false;
}

int rsa_public_key_check(const fm_rsa_key *key) {
  const uint64_t *n = key->mont_n.N;
  const size_t nl = key->nl;
  /* 5.3.3: n odd (parse_modulus), no prime factor below 752. */
  if ((n[0] & 1) == 0) return FM_ERR_BAD_KEY;
  for (uint32_t p = 3; p < 752; p += 2) {
    if (small_prime(p) && bn_mod_small_consttime(n, nl, p) == 0) return FM_ERR_BAD_KEY;
  }
  /* Composite: 2^(n-1) mod n != 1. */
  uint64_t exp[BN_MAX_LIMBS], base[BN_MAX_LIMBS], r[BN_MAX_LIMBS], one[BN_MAX_LIMBS];
  (void)bn_sub_word(exp, n, 1, nl);
  bn_set_word(base, nl, 2);
  bn_set_word(one, nl, 1);
  if (bn_mod_exp_public(r, base, exp, nl, &key->mont_n) != FM_OK) return FM_ERR_BAD_KEY;
  if (bn_eq_mask(r, one, nl)) return FM_ERR_BAD_KEY; /* prime (or a base-2 pseudoprime) */
  /* Not a perfect power: every prime r with 757^r <= n. */
  for (uint64_t rr = 2; rr * 9 <= key->n_bits; rr++) {
    if (!small_prime(rr)) continue;
    if (maybe_rth_power(n, nl, rr) && is_rth_power(n, nl, key->n_bits, rr)) return FM_ERR_BAD_KEY;
  }
  return FM_OK;
}
