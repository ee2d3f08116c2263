/* P-521's field, p = 2^521 - 1, in the Montgomery form of the rest of module/ec/ (R = 2^576).
 *
 * Since 2^521 = 1 mod p, a * b * R^-1 = a * b * 2^-55 mod p, and multiplying by 2^-55 modulo
 * 2^521 - 1 moves bits rather than multiplies (reduce below): the 1042-bit product becomes a sum of two
 * 521-bit values, folded once at bit 521. The one 521-bit value congruent to 0 besides 0 is p
 * itself (all ones), and a mask turns it into 0, so outputs are fully reduced like mont_mul_k's,
 * bit for bit. No multiplication by p and no quotient digit: the products are the operands' only.
 * Constant time: the same instructions and addresses for every value. */
#include "module/ec/ec_p521.h"

#include "module/ec/ec_field_inline.h"
#include "module/internal.h"

#define P521_TOP_MASK 0x1ffu /* the 9 bits of p in its top word */

/* reduce sets r = t * 2^-576 mod p, fully reduced, for t < 2^1042 (t[17] is 0). With t split
 * as T + 2^576 H (T the low 9 words, H < 2^466 the high ones) and T as A + 2^55 B (A < 2^55,
 * B < 2^521): t 2^-576 = H + T 2^-55 = H + B + A 2^466 mod p, since 2^-576 = 2^-55 and
 * 2^-55 = 2^466 mod p. H and A 2^466 occupy different bits (H ends below bit 466), so one addition
 * of B to their union leaves a sum below 2^522, and a fold of bit 521 (2^521 = 1) then brings it
 * to at most p. */
static inline __attribute__((always_inline)) void reduce(uint64_t *r, const uint64_t t[18]) {
  uint64_t x[9], b[9], s[9];
  _Pragma("GCC unroll 8")
  for (unsigned i = 0; i < 8; i++) {
    x[i] = t[9 + i];
    b[i] = (t[i] >> 55) | (t[i + 1] << 9);
  }
  b[8] = t[8] >> 55;
  x[7] |= t[0] << 18; /* A's bits 0..45 at 466..511 */
  x[8] = (t[0] >> 46) & P521_TOP_MASK; /* and its bits 46..54 at 512..520 */
  (void)add_carry(s, x, b, 9); /* below 2^522: no carry out of 9 words */
  /* s <= 2^522 - 2: (s mod 2^521) + (s >> 521) <= 2^521 - 1. */
  uint64_t c = s[8] >> 9;
  s[8] &= P521_TOP_MASK;
  _Pragma("GCC unroll 9")
  for (unsigned i = 0; i < 9; i++) {
    const u128 v = (u128)s[i] + c;
    r[i] = (uint64_t)v;
    c = (uint64_t)(v >> 64);
  }
  /* r = p (all 521 bits set) is 0 mod p. */
  uint64_t all = r[0];
  _Pragma("GCC unroll 8")
  for (unsigned i = 1; i < 8; i++) all &= r[i];
  const uint64_t is_p = ct_eq_u64(all, ~(uint64_t)0) & ct_eq_u64(r[8], P521_TOP_MASK);
  _Pragma("GCC unroll 9")
  for (unsigned i = 0; i < 9; i++) r[i] &= ~is_p;
}

/* mac adds a * b to the three-word accumulator (c0, c1, c2). On x86-64 the carry intrinsics
 * compile to one add and two adc (the 128-bit form takes about three times the instructions
 * there); elsewhere the 128-bit form computes the same. */
static inline __attribute__((always_inline)) void mac(uint64_t *c0, uint64_t *c1, uint64_t *c2,
                                                       uint64_t a, uint64_t b) {
  const u128 p = (u128)a * b;
#if defined(__x86_64__)
  unsigned long long s0, s1, s2;
  unsigned char cf = _addcarry_u64(0, *c0, (uint64_t)p, &s0);
  cf = _addcarry_u64(cf, *c1, (uint64_t)(p >> 64), &s1);
  (void)_addcarry_u64(cf, *c2, 0, &s2);
  *c0 = (uint64_t)s0;
  *c1 = (uint64_t)s1;
  *c2 = (uint64_t)s2;
#else
  u128 s = (u128)*c0 + (uint64_t)p;
  *c0 = (uint64_t)s;
  s = (u128)*c1 + (uint64_t)(p >> 64) + (uint64_t)(s >> 64);
  *c1 = (uint64_t)s;
  *c2 += (uint64_t)(s >> 64);
#endif
}

/* Both products scan columns (Comba): word k of the product is the sum of a[i] b[k - i] and the
 * carry of column k - 1. A column holds at most 9 products, under 2^132 with the carry, so three
 * words accumulate it. */
void ec_p521_mul(uint64_t *r, const uint64_t *a, const uint64_t *b) {
  uint64_t t[18], c0 = 0, c1 = 0, c2 = 0;
  _Pragma("GCC unroll 17")
  for (unsigned k = 0; k < 17; k++) {
    _Pragma("GCC unroll 9")
    for (unsigned i = 0; i < 9; i++)
      if (k >= i && k - i < 9) mac(&c0, &c1, &c2, a[i], b[k - i]);
    t[k] = c0;
    c0 = c1;
    c1 = c2;
    c2 = 0;
  }
  t[17] = c0;
  reduce(r, t);
}

/* The square sums the products a[i] a[j], i < j, once (36 in all) by columns, doubles the
 * whole, and adds the squares a[i]^2 (9) in one carry chain. */
void ec_p521_sqr(uint64_t *r, const uint64_t *a) {
  uint64_t t[18], c0 = 0, c1 = 0, c2 = 0;
  t[0] = 0;
  _Pragma("GCC unroll 17")
  for (unsigned k = 1; k < 16; k++) {
    _Pragma("GCC unroll 9")
    for (unsigned i = 0; i < 9; i++)
      if (k >= i && k - i < 9 && i < k - i) mac(&c0, &c1, &c2, a[i], a[k - i]);
    t[k] = c0;
    c0 = c1;
    c1 = c2;
    c2 = 0;
  }
  t[16] = c0;
  t[17] = c1;
  /* Doubled: the cross sum is below 2^1041, so the shift loses nothing. */
  _Pragma("GCC unroll 18")
  for (unsigned i = 17; i > 0; i--) t[i] = (t[i] << 1) | (t[i - 1] >> 63);
  uint64_t sq[18];
  _Pragma("GCC unroll 9")
  for (unsigned i = 0; i < 9; i++) {
    const u128 p = (u128)a[i] * a[i];
    sq[2 * i] = (uint64_t)p;
    sq[2 * i + 1] = (uint64_t)(p >> 64);
  }
  (void)add_carry(t, t, sq, 18);
  reduce(r, t);
}

void ec_p521_row_select(uint64_t *x, uint64_t *y, const uint64_t *row, uint64_t d) {
  uint64_t vx[9] = {0}, vy[9] = {0};
  for (unsigned e = 0; e < 16; e++) {
    const uint64_t m = ct_eq_u64(e + 1, d); /* all-ones for the one wanted entry */
    _Pragma("GCC unroll 9")
    for (unsigned j = 0; j < 9; j++) {
      vx[j] |= m & row[(2 * e) * 9 + j];
      vy[j] |= m & row[(2 * e + 1) * 9 + j];
    }
  }
  _Pragma("GCC unroll 9")
  for (unsigned j = 0; j < 9; j++) {
    x[j] = vx[j];
    y[j] = vy[j];
  }
  fm_zeroize(vx, sizeof vx);
  fm_zeroize(vy, sizeof vy);
}
