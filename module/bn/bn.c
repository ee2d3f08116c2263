/* Fixed-width big-number arithmetic on 64-bit limbs: import/export, add/sub, compare, select,
 * shifts, multiplication, constant-time division, gcd and modular inverses.
 *
 * Every function here except bn_bits_public runs in time that depends only on the limb counts.
 * Carries and borrows come out of 128-bit arithmetic (add/adc, sub/sbb), comparisons come from
 * borrows turned into masks, and choices are made with masks, never with branches. */
#include <string.h>

#include "module/bn/internal.h"
#include "module/bn/mont_kernels.h"
#include "module/internal.h"

typedef bn_u128 u128;

/* ---- Sizes, import and export ----------------------------------------------------------- */

size_t bn_limbs_for_bits(size_t bits) { return (bits + BN_LIMB_BITS - 1) / BN_LIMB_BITS; }

int bn_from_bytes_be(uint64_t *r, size_t n, const uint8_t *in, size_t in_len) {
  uint64_t overflow = 0;
  bn_set_zero(r, n);
  /* Byte i counts from the least significant end; the limb it lands in is a public index. */
  for (size_t i = 0; i < in_len; i++) {
    uint64_t byte = in[in_len - 1 - i];
    size_t limb = i / 8;
    if (limb < n) {
      r[limb] |= byte << (8 * (i % 8));
    } else {
      overflow |= byte;
    }
  }
  /* Whether the value fits is the public answer; the bytes that decided it stay hidden. */
  uint64_t fits = fm_declassify_u64(ct_is_zero_u64(overflow));
  if (fits == 0) {
    bn_set_zero(r, n);
    return 0;
  }
  return 1;
}

void bn_to_bytes_be(uint8_t *out, size_t out_len, const uint64_t *a, size_t n) {
  for (size_t i = 0; i < out_len; i++) {
    size_t limb = i / 8;
    uint8_t byte = 0;
    if (limb < n) byte = (uint8_t)(a[limb] >> (8 * (i % 8)));
    out[out_len - 1 - i] = byte;
  }
}

/* ---- Word-level arithmetic -------------------------------------------------------------- */

void bn_set_zero(uint64_t *r, size_t n) {
  for (size_t i = 0; i < n; i++) r[i] = 0;
}

void bn_copy(uint64_t *r, const uint64_t *a, size_t n) {
  if (r != a) memmove(r, a, n * sizeof(uint64_t));
}

void bn_set_word(uint64_t *r, size_t n, uint64_t w) {
  bn_set_zero(r, n);
  r[0] = w;
}

uint64_t bn_add(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n) {
  uint64_t carry = 0;
  for (size_t i = 0; i < n; i++) {
    u128 t = (u128)a[i] + b[i] + carry;
    r[i] = (uint64_t)t;
    carry = (uint64_t)(t >> 64);
  }
  return carry;
}

uint64_t bn_sub(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n) {
  uint64_t borrow = 0;
  for (size_t i = 0; i < n; i++) {
    u128 t = (u128)a[i] - b[i] - borrow;
    r[i] = (uint64_t)t;
    /* The high half of a wrapped 128-bit difference is all-ones: its low bit is the borrow. */
    borrow = (uint64_t)(t >> 64) & 1;
  }
  return borrow;
}

uint64_t bn_add_word(uint64_t *r, const uint64_t *a, uint64_t w, size_t n) {
  uint64_t carry = w;
  for (size_t i = 0; i < n; i++) {
    u128 t = (u128)a[i] + carry;
    r[i] = (uint64_t)t;
    carry = (uint64_t)(t >> 64);
  }
  return carry;
}

uint64_t bn_sub_word(uint64_t *r, const uint64_t *a, uint64_t w, size_t n) {
  uint64_t borrow = w;
  for (size_t i = 0; i < n; i++) {
    u128 t = (u128)a[i] - borrow;
    r[i] = (uint64_t)t;
    borrow = (uint64_t)(t >> 64) & 1;
  }
  return borrow;
}

uint64_t bn_lt_mask(const uint64_t *a, const uint64_t *b, size_t n) {
  uint64_t borrow = 0;
  for (size_t i = 0; i < n; i++) {
    u128 t = (u128)a[i] - b[i] - borrow;
    borrow = (uint64_t)(t >> 64) & 1;
  }
  /* a < b exactly when a - b borrows out of the top limb. */
  return 0u - ct_value_barrier_u64(borrow);
}

uint64_t bn_eq_mask(const uint64_t *a, const uint64_t *b, size_t n) {
  uint64_t diff = 0;
  for (size_t i = 0; i < n; i++) diff |= a[i] ^ b[i];
  return ct_is_zero_u64(diff);
}

uint64_t bn_is_zero_mask(const uint64_t *a, size_t n) {
  uint64_t acc = 0;
  for (size_t i = 0; i < n; i++) acc |= a[i];
  return ct_is_zero_u64(acc);
}

uint64_t bn_is_odd_mask(const uint64_t *a, size_t n) {
  (void)n;
  return 0u - ct_value_barrier_u64(a[0] & 1);
}

void bn_select(uint64_t *r, uint64_t mask, const uint64_t *a, const uint64_t *b, size_t n) {
  mask = ct_value_barrier_u64(mask);
  for (size_t i = 0; i < n; i++) r[i] = (mask & a[i]) | (~mask & b[i]);
}

void bn_cond_swap(uint64_t mask, uint64_t *a, uint64_t *b, size_t n) {
  mask = ct_value_barrier_u64(mask);
  for (size_t i = 0; i < n; i++) {
    /* XOR-swap restricted by the mask: a no-op when the mask is zero. */
    uint64_t t = mask & (a[i] ^ b[i]);
    a[i] ^= t;
    b[i] ^= t;
  }
}

void bn_mod_add(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m, size_t n) {
  uint64_t tmp[BN_MAX_LIMBS];
  uint64_t carry = bn_add(r, a, b, n);
  uint64_t borrow = bn_sub(tmp, r, m, n);
  /* a + b - m is the answer unless it went negative, i.e. unless it borrowed without the sum
   * having carried out (carry - borrow == -1). */
  uint64_t keep_sum = 0u - ct_value_barrier_u64(borrow & ~carry & 1);
  bn_select(r, keep_sum, r, tmp, n);
  fm_zeroize(tmp, n * sizeof(uint64_t));
}

void bn_mod_sub(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m, size_t n) {
  uint64_t borrow = bn_sub(r, a, b, n);
  /* Add m back exactly when a - b borrowed: add (m & mask). */
  uint64_t mask = 0u - ct_value_barrier_u64(borrow);
  uint64_t carry = 0;
  for (size_t i = 0; i < n; i++) {
    u128 t = (u128)r[i] + (m[i] & mask) + carry;
    r[i] = (uint64_t)t;
    carry = (uint64_t)(t >> 64);
  }
}

uint64_t bn_mul_word(uint64_t *r, const uint64_t *a, uint64_t w, size_t n) {
  uint64_t carry = 0;
  for (size_t i = 0; i < n; i++) {
    u128 t = (u128)a[i] * w + carry;
    r[i] = (uint64_t)t;
    carry = (uint64_t)(t >> 64);
  }
  return carry;
}

void bn_mul_unbalanced(uint64_t *r, const uint64_t *a, size_t an, const uint64_t *b, size_t bn) {
  bn_set_zero(r, an + bn);
  for (size_t j = 0; j < bn; j++) {
    uint64_t bj = b[j], carry = 0;
    for (size_t i = 0; i < an; i++) {
      u128 t = (u128)a[i] * bj + r[i + j] + carry;
      r[i + j] = (uint64_t)t;
      carry = (uint64_t)(t >> 64);
    }
    r[j + an] = carry;
  }
}

void bn_mul(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n) {
  bn_mul_unbalanced(r, a, n, b, n);
}

/* ---- Shifts ----------------------------------------------------------------------------- */

void bn_rshift1(uint64_t *r, const uint64_t *a, size_t n) {
  for (size_t i = 0; i + 1 < n; i++) r[i] = (a[i] >> 1) | (a[i + 1] << 63);
  r[n - 1] = a[n - 1] >> 1;
}

uint64_t bn_lshift1(uint64_t *r, const uint64_t *a, size_t n) {
  uint64_t out = a[n - 1] >> 63;
  for (size_t i = n - 1; i > 0; i--) r[i] = (a[i] << 1) | (a[i - 1] >> 63);
  r[0] = a[0] << 1;
  return out;
}

void bn_rshift(uint64_t *r, const uint64_t *a, size_t shift, size_t n) {
  size_t limbs = shift / 64, bits = shift % 64;
  for (size_t i = 0; i < n; i++) {
    uint64_t lo = i + limbs < n ? a[i + limbs] : 0;
    uint64_t hi = i + limbs + 1 < n ? a[i + limbs + 1] : 0;
    /* bits == 0 would make the hi shift undefined; the public branch avoids it. */
    r[i] = bits == 0 ? lo : (lo >> bits) | (hi << (64 - bits));
  }
}

void bn_lshift(uint64_t *r, const uint64_t *a, size_t shift, size_t n) {
  size_t limbs = shift / 64, bits = shift % 64;
  for (size_t k = n; k > 0; k--) {
    size_t i = k - 1;
    uint64_t hi = i >= limbs ? a[i - limbs] : 0;
    uint64_t lo = i >= limbs + 1 ? a[i - limbs - 1] : 0;
    r[i] = bits == 0 ? hi : (hi << bits) | (lo >> (64 - bits));
  }
}

/* Shift by a secret amount: one pass per bit of the amount, each pass computing the shift by
 * 2^k (a public amount) and keeping it or not under a mask. */
void bn_rshift_secret(uint64_t *r, const uint64_t *a, size_t shift, size_t n) {
  uint64_t tmp[BN_MAX_LIMBS];
  bn_copy(r, a, n);
  for (size_t k = 0; ((size_t)1 << k) <= 64 * n; k++) {
    uint64_t take = 0u - ct_value_barrier_u64(((uint64_t)shift >> k) & 1);
    bn_rshift(tmp, r, (size_t)1 << k, n);
    bn_select(r, take, tmp, r, n);
  }
  fm_zeroize(tmp, n * sizeof(uint64_t));
}

static void bn_lshift_secret(uint64_t *r, const uint64_t *a, size_t shift, size_t n) {
  uint64_t tmp[BN_MAX_LIMBS];
  bn_copy(r, a, n);
  for (size_t k = 0; ((size_t)1 << k) <= 64 * n; k++) {
    uint64_t take = 0u - ct_value_barrier_u64(((uint64_t)shift >> k) & 1);
    bn_lshift(tmp, r, (size_t)1 << k, n);
    bn_select(r, take, tmp, r, n);
  }
  fm_zeroize(tmp, n * sizeof(uint64_t));
}

/* ctz64_ct: trailing zeros of one word (64 for zero). The lowest set bit y = x & -x is a single
 * bit; its index is the sum of the k for which y lies in the upper half of a 2k-bit block. */
static uint64_t ctz64_ct(uint64_t x) {
  static const uint64_t upper[6] = {0xAAAAAAAAAAAAAAAAull, 0xCCCCCCCCCCCCCCCCull,
                                    0xF0F0F0F0F0F0F0F0ull, 0xFF00FF00FF00FF00ull,
                                    0xFFFF0000FFFF0000ull, 0xFFFFFFFF00000000ull};
  uint64_t y = x & (0u - x), pos = 0;
  for (int k = 0; k < 6; k++) pos += ((uint64_t)1 << k) & ~ct_is_zero_u64(y & upper[k]);
  return ct_select_u64(ct_is_zero_u64(x), 64, pos);
}

/* bits64_ct: bit length of one word: smear the top bit down, then count the ones (SWAR). */
static uint64_t bits64_ct(uint64_t x) {
  x |= x >> 1;
  x |= x >> 2;
  x |= x >> 4;
  x |= x >> 8;
  x |= x >> 16;
  x |= x >> 32;
  x = x - ((x >> 1) & 0x5555555555555555ull);
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
  return (x * 0x0101010101010101ull) >> 56;
}

size_t bn_count_low_zero_bits(const uint64_t *a, size_t n) {
  uint64_t count = 0, found = 0;
  for (size_t i = 0; i < n; i++) {
    /* Add this limb's count until (and including) the first non-zero limb. */
    count += ~found & ctz64_ct(a[i]);
    found |= ~ct_is_zero_u64(a[i]);
  }
  return (size_t)count;
}

size_t bn_bits_consttime(const uint64_t *a, size_t n) {
  uint64_t bits = 0;
  for (size_t i = 0; i < n; i++) {
    uint64_t nz = ~ct_is_zero_u64(a[i]);
    bits = ct_select_u64(nz, 64 * (uint64_t)i + bits64_ct(a[i]), bits);
  }
  return (size_t)bits;
}

size_t bn_bits_public(const uint64_t *a, size_t n) {
  for (size_t i = n; i > 0; i--) {
    if (a[i - 1] != 0) return 64 * (i - 1) + (size_t)(64 - __builtin_clzll(a[i - 1]));
  }
  return 0;
}

/* ---- Division and small moduli ---------------------------------------------------------- */

void bn_div_consttime(uint64_t *q, uint64_t *rem, const uint64_t *a, size_t an, const uint64_t *d,
                      size_t dn) {
  uint64_t r[BN_MAX_LIMBS], t[BN_MAX_LIMBS];
  bn_set_zero(r, dn);
  if (q != NULL) bn_set_zero(q, an);
  /* Schoolbook binary long division: the remainder r < d is doubled, the next bit of a shifted
   * in, and d subtracted when the result reaches d (2r + 1 < 2d, so once is enough). */
  for (size_t i = 64 * an; i > 0; i--) {
    size_t bit = i - 1;
    uint64_t top = bn_lshift1(r, r, dn);
    r[0] |= (a[bit / 64] >> (bit % 64)) & 1;
    uint64_t borrow = bn_sub(t, r, d, dn);
    /* r >= d when the doubling overflowed the width or the subtraction did not borrow. */
    uint64_t ge = 0u - ct_value_barrier_u64((top | (borrow ^ 1)) & 1);
    bn_select(r, ge, t, r, dn);
    if (q != NULL) q[bit / 64] |= (ge & 1) << (bit % 64);
  }
  if (rem != NULL) bn_copy(rem, r, dn);
  fm_zeroize(r, dn * sizeof(uint64_t));
  fm_zeroize(t, dn * sizeof(uint64_t));
}

uint32_t bn_mod_small_consttime(const uint64_t *a, size_t n, uint32_t d) {
  /* recip = floor((2^64 - 1) / d) divides only public values. For x < 2^64 the estimate
   * floor(x * recip / 2^64) is at most 2 below floor(x / d); two masked corrections fix it. */
  const uint64_t recip = UINT64_MAX / d;
  uint64_t r = 0;
  for (size_t i = n; i > 0; i--) {
    for (int half = 1; half >= 0; half--) {
      uint64_t x = (r << 32) | ((a[i - 1] >> (32 * half)) & 0xFFFFFFFFu);
      uint64_t qe = (uint64_t)(((u128)x * recip) >> 64);
      r = x - qe * d;
      for (int k = 0; k < 2; k++) r -= d & ~ct_lt_u64(r, d);
    }
  }
  return (uint32_t)r;
}

/* ---- Greatest common divisor and inverses ----------------------------------------------- */

void bn_gcd_consttime(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n) {
  uint64_t x[BN_MAX_LIMBS], y[BN_MAX_LIMBS], t[BN_MAX_LIMBS], ab[BN_MAX_LIMBS] = {0};
  /* gcd(a, b) = 2^k * gcd(a', b') where k counts the trailing zeros shared by a and b, i.e. those
   * of a | b; after dividing both by 2^k at least one of them is odd. */
  for (size_t i = 0; i < n; i++) ab[i] = a[i] | b[i];
  size_t k = bn_count_low_zero_bits(ab, n);
  bn_rshift_secret(x, a, k, n);
  bn_rshift_secret(y, b, k, n);
  /* Keep the odd one in y (both are zero only for gcd(0, 0) = 0, which the divsteps keep). */
  bn_cond_swap(~bn_is_odd_mask(y, n), x, y, n);
  /* gcd(y, x) with y odd, by divsteps: the odd part of the gcd. */
  bn_gcd_odd_consttime(t, y, x, n);
  bn_lshift_secret(r, t, k, n);
  fm_zeroize(x, sizeof(x));
  fm_zeroize(y, sizeof(y));
  fm_zeroize(t, sizeof(t));
  fm_zeroize(ab, sizeof(ab));
}

int bn_mod_inverse_consttime(uint64_t *r, const uint64_t *a, const uint64_t *m, size_t n) {
  if (n == 0 || n > BN_MAX_LIMBS) return FM_ERR_BAD_ARGUMENT;
  /* m's parity and m > 1 are preconditions the caller states publicly. */
  uint64_t one[BN_MAX_LIMBS];
  bn_set_word(one, n, 1);
  uint64_t bad = ~bn_is_odd_mask(m, n) | ~bn_lt_mask(one, m, n);
  if (fm_declassify_u64(bad) != 0) {
    bn_set_zero(r, n);
    return FM_ERR_BAD_ARGUMENT;
  }
  uint64_t ok = bn_mod_inverse_mask(r, a, m, n);
  /* Invertibility is the public answer. */
  return fm_declassify_u64(ok) != 0 ? FM_OK : FM_ERR_OUT_OF_RANGE;
}

/* inv64: a^-1 mod 2^64 for odd a by Newton's iteration x <- x(2 - ax), which doubles the number
 * of correct low bits; a*a == 1 mod 8 gives 3 correct bits to start, so five steps reach 96. */
static uint64_t inv64(uint64_t a) {
  uint64_t x = a;
  for (int i = 0; i < 5; i++) x *= 2 - a * x;
  return x;
}

int bn_mod_inverse_odd_value(uint64_t *r, const uint64_t *a, size_t a_limbs, const uint64_t *m,
                             size_t n) {
  if (n == 0 || n > BN_MAX_LIMBS || a_limbs == 0 || a_limbs > n) return FM_ERR_BAD_ARGUMENT;
  uint64_t one[BN_MAX_LIMBS];
  bn_set_word(one, n, 1);
  uint64_t bad = ~bn_is_odd_mask(a, a_limbs) | ~bn_lt_mask(one, m, n);
  if (fm_declassify_u64(bad) != 0) {
    bn_set_zero(r, n);
    return FM_ERR_BAD_ARGUMENT;
  }
  uint64_t mm[BN_MAX_LIMBS], y[BN_MAX_LIMBS], t[2 * BN_MAX_LIMBS];
  /* y = -m^-1 mod a, so that m*y == -1 (mod a) and 1 + m*y is a multiple of a. */
  bn_div_consttime(NULL, mm, m, n, a, a_limbs);
  uint64_t ok = bn_mod_inverse_mask(y, mm, a, a_limbs);
  bn_sub(mm, a, y, a_limbs);
  bn_select(y, bn_is_zero_mask(y, a_limbs), y, mm, a_limbs);
  /* t = 1 + m*y < m*a, so the quotient t / a is below m and fits in n limbs. */
  bn_mul_unbalanced(t, m, n, y, a_limbs);
  bn_add_word(t, t, 1, n + a_limbs);
  /* Exact division, limb by limb from the bottom (the quotient's limb i is the one that clears
   * limb i of what is left): q_i = t_i * a_0^-1 mod 2^64, then t -= q_i * a * 2^(64i). Only the
   * low n limbs of t matter for the low n limbs of the quotient. */
  uint64_t a0inv = inv64(a[0]);
  for (size_t i = 0; i < n; i++) {
    uint64_t q = t[i] * a0inv, carry = 0, borrow = 0;
    for (size_t j = 0; j < a_limbs && i + j < n; j++) {
      u128 p = (u128)a[j] * q + carry;
      carry = (uint64_t)(p >> 64);
      u128 s = (u128)t[i + j] - (uint64_t)p - borrow;
      t[i + j] = (uint64_t)s;
      borrow = (uint64_t)(s >> 64) & 1;
    }
    for (size_t j = i + a_limbs; j < n; j++) {
      u128 s = (u128)t[j] - carry - borrow;
      t[j] = (uint64_t)s;
      borrow = (uint64_t)(s >> 64) & 1;
      carry = 0;
    }
    r[i] = q;
  }
  for (size_t i = 0; i < n; i++) r[i] &= ok;
  fm_zeroize(mm, sizeof(mm));
  fm_zeroize(y, sizeof(y));
  fm_zeroize(t, sizeof(t));
  return fm_declassify_u64(ok) != 0 ? FM_OK : FM_ERR_OUT_OF_RANGE;
}

void bn_lcm_consttime(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n) {
  uint64_t g[BN_MAX_LIMBS], bq[BN_MAX_LIMBS];
  bn_gcd_consttime(g, a, b, n);
  bn_div_consttime(bq, NULL, b, n, g, n);
  bn_mul(r, a, bq, n);
  fm_zeroize(g, sizeof(g));
  fm_zeroize(bq, sizeof(bq));
}
