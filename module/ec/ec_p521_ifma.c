/* P-521's variable-base ladder with AVX-512 IFMA: scalar_mul_tab's windows (ec_scalar_mul.c) with
 * the field in radix 2^50, eleven limbs in two 512-bit registers (limbs 0..7, then 8..10 in lanes
 * 0..2 with lanes 3..7 zero), not fully reduced: a value is only known modulo p = 2^521 - 1. The
 * verification's digit loop (ec_verify.c's double_mul_jac_k) runs on the same field and formulas
 * (ec_ifma_ladder.inc's, instantiated at the end of the file), in variable time on its public
 * inputs.
 *
 * Bounds. Every field value here is the output of fe_carry (below): limb 0 below 2^50 + 2^42, the
 * others below 2^50 + 2^13, so every limb is below 2^52, which is what VPMADD52LUQ/HUQ read (they
 * take the low 52 bits of each lane: a larger limb would lose bits). fe_carry takes limbs below
 * 2^63 and brings them back within those bounds; every operation ends with it:
 * - fe_mul: the 121 limb products, low halves (bits 0..51) at their column and high halves (bits
 *   52..103, times 4 since 52 = 50 + 2) at the next; a column gathers at most 11 of each, below
 *   2^58. The columns 10..21 (weight 2^500 and up) are folded with 2^521 = 1 mod p: column 10
 *   keeps its low 21 bits (bits 500..520), its bits above go to limb 0; column k >= 11 has weight
 *   2^550 2^(50 (k - 11)) = 2^29 2^(50 (k - 11)) mod p, so its low 21 bits go to limb k - 11
 *   shifted up 29 (below 2^50) and the rest to limb k - 10 (limb 11, from column 21, to limb 0
 *   shifted up 29, since 2^550 = 2^29 mod p). The limbs are then below 2^59, and fe_carry follows.
 * - fe_sub: a + Q - b, with Q a multiple of p whose limbs are all at least 2^52 (above every limb
 *   of b) and below 2^53: non-negative and below 2^54.
 * - fe_shl: times 2, 4 or 8, below 2^54.
 * Loose values skip fe_carry: fe_add_loose and fe_sub_loose (with a multiple of p whose limbs lie
 * just above fe_carry's bounds), and the doubling's 3m, have limbs below 2^52; they only ever go
 * to fe_mul and fe_sqr, or as b to fe_sub.
 *
 * Representation. The rest of module/ec/ keeps fully reduced 9-word values in Montgomery form (a
 * R mod p, R = 2^576 = 2^55 mod p); here values are plain (a mod p): from_mont multiplies by 2^-55
 * = 2^466 mod p, a rotation of the 521-bit string, and to_mont reduces fully and rotates back. Both
 * run once per entry of the table and once for the result.
 *
 * Formulas and the ladder: ec_ifma_ladder.inc, shared with P-384's file.
 *
 * Measured on this host (AMD Zen 5; same-process A/B against the ADX windows, median of 41
 * pairs): ECDH P-521 1.73 times as fast. A product takes 54-59 TSC ticks of latency and 31-32 of
 * throughput, against 66 and 65.5 for the ADX one; a doubling 309-327 against 553.
 *
 * Constant time: a fixed instruction stream; table entries are read in full and combined with
 * all-ones or zero masks made from the digit by integer arithmetic, as are the negation and the
 * point-at-infinity selections; IFMA's timing does not depend on its operands. (Valgrind cannot run
 * AVX-512 code: test_ec_ct covers the other paths under memcheck, and this one is constant time
 * by construction, as module/bn/mont_ifma.c is.) */
#include <immintrin.h>
#include <string.h>

#include "module/ec/ec_p521.h"
#include "module/ec/internal.h"
#include "module/internal.h"

#define IFMA_FN __attribute__((target("avx512f,avx512ifma,avx512vl,avx512bw")))
#define IFMA_INLINE IFMA_FN static inline __attribute__((always_inline))

#define M50 ((1ull << 50) - 1)
#define M21 ((1ull << 21) - 1)

typedef struct fe {
  __m512i lo, hi; /* limbs 0..7; limbs 8..10 in lanes 0..2, lanes 3..7 zero */
} fe;

/* Q = 2^32 p with limbs 0..9 raised by 2^52 and the next lowered by 4 each time (the same value):
 * every limb in [2^52, 2^53). A wrong Q would offset every subtraction, and with it every
 * P-521 ECDH known answer. */
static const uint64_t k_q[16] = {
    0x13ffff00000000ull, 0x13fffffffffffbull, 0x13fffffffffffbull, 0x13fffffffffffbull,
    0x13fffffffffffbull, 0x13fffffffffffbull, 0x13fffffffffffbull, 0x13fffffffffffbull,
    0x13fffffffffffbull, 0x13fffffffffffbull, 0x1ffffffffffffbull, 0, 0, 0, 0, 0};

#define AL(a, b, s) _mm512_alignr_epi64((a), (b), (s))

/* fe_carry: each limb's bits from 50 up move to the next limb (limb 10's, weight 2^550 = 2^29 mod
 * p, to limb 0 shifted up 29). For limbs below 2^63 the carries are below 2^13. */
IFMA_INLINE fe fe_carry(__m512i lo, __m512i hi) {
  const __m512i m50 = _mm512_set1_epi64((long long)M50), z = _mm512_setzero_si512();
  const __m512i qlo = _mm512_srli_epi64(lo, 50), qhi = _mm512_srli_epi64(hi, 50);
  lo = _mm512_and_si512(lo, m50);
  hi = _mm512_and_si512(hi, m50);
  const __m512i top = _mm512_maskz_permutexvar_epi64(0x01, _mm512_set1_epi64(2), qhi);
  lo = _mm512_add_epi64(lo, _mm512_add_epi64(AL(qlo, z, 7), _mm512_slli_epi64(top, 29)));
  hi = _mm512_add_epi64(hi, _mm512_maskz_alignr_epi64(0x07, qhi, qlo, 7));
  const fe r = {lo, hi};
  return r;
}

/* fe_fold: the value of the column sums (l_V: low halves at columns 8V..8V+7, h_V: high halves,
 * one column up and times 4) modulo p, through the fold above and fe_carry. */
IFMA_INLINE fe fe_fold(const __m512i l0, const __m512i h0, const __m512i l1, const __m512i h1,
                       const __m512i l2, const __m512i h2) {
  const __m512i z = _mm512_setzero_si512();
  const __m512i h0s = _mm512_slli_epi64(h0, 2), h1s = _mm512_slli_epi64(h1, 2);
  const __m512i h2s = _mm512_slli_epi64(h2, 2);
  /* Columns 0..21: each high half one column up. */
  const __m512i c0 = _mm512_add_epi64(l0, AL(h0s, z, 7));
  const __m512i c1 = _mm512_add_epi64(l1, AL(h1s, h0s, 7));
  const __m512i c2 = _mm512_add_epi64(l2, AL(h2s, h1s, 7));
  /* The fold: u = columns 10 + m, v = columns 11 + m, for limbs m = 0..7 and 8..10. */
  const __m512i m21 = _mm512_set1_epi64((long long)M21);
  const __m512i u0 = AL(c2, c1, 2), u1 = AL(z, c2, 2), v0 = AL(c2, c1, 3), v1 = AL(z, c2, 3);
  __m512i lo = _mm512_add_epi64(c0, _mm512_srli_epi64(u0, 21));
  lo = _mm512_add_epi64(lo, _mm512_slli_epi64(_mm512_and_si512(v0, m21), 29));
  /* Limb 11 (column 21's bits from 21 up) to limb 0, shifted up 29. */
  const __m512i t11 = _mm512_maskz_permutexvar_epi64(0x01, _mm512_set1_epi64(3), u1);
  lo = _mm512_add_epi64(lo, _mm512_slli_epi64(_mm512_srli_epi64(t11, 21), 29));
  /* Limbs 8 and 9 are columns 8 and 9, limb 10 column 10's low 21 bits. */
  const __m512i keep = _mm512_set_epi64(0, 0, 0, 0, 0, (long long)M21, -1, -1);
  __m512i hi = _mm512_and_si512(c1, keep);
  hi = _mm512_add_epi64(hi, _mm512_maskz_srli_epi64(0x07, u1, 21));
  hi = _mm512_add_epi64(hi, _mm512_maskz_slli_epi64(0x07, _mm512_and_si512(v1, m21), 29));
  return fe_carry(lo, hi);
}

/* MAC adds the low halves of the lanes' products x y to lo, the high halves to hi. */
#define MAC(lo, hi, x, y)                                                                      \
  do {                                                                                         \
    lo = _mm512_madd52lo_epu64(lo, x, y);                                                      \
    hi = _mm512_madd52hi_epu64(hi, x, y);                                                      \
  } while (0)

/* fe_mul: a b mod p (above), for limbs below 2^52. Column vector V holds columns 8V..8V+7; for
 * b's limb j the product column c takes a_{c-j}: the vectors of a moved up j lanes (AL), zero
 * below. Two accumulators per column vector (even and odd j), so that no chain of dependent
 * multiply-adds is longer than six. */
IFMA_INLINE fe fe_mul(const fe a, const fe b) {
  const __m512i z = _mm512_setzero_si512(), a0 = a.lo, a1 = a.hi;
  __m512i bj[11];
  for (int j = 0; j < 8; j++) bj[j] = _mm512_permutexvar_epi64(_mm512_set1_epi64(j), b.lo);
  for (int j = 8; j < 11; j++) bj[j] = _mm512_permutexvar_epi64(_mm512_set1_epi64(j - 8), b.hi);
  __m512i l0a = z, h0a = z, l0b = z, h0b = z, l1a = z, h1a = z, l1b = z, h1b = z;
  __m512i l2 = z, h2 = z, l2b = z, h2b = z;
  __m512i x;
  /* j = 0: columns 0..7 take a0, columns 8..15 a1. */
  MAC(l0a, h0a, a0, bj[0]);
  MAC(l1a, h1a, a1, bj[0]);
  /* j = 1..7: columns 0..7 take AL(a0, 0, 8 - j), columns 8..15 AL(a1, a0, 8 - j). */
#define FE_STEP(J, L0, H0, L1, H1)                                                             \
  x = AL(a0, z, 8 - (J));                                                                      \
  MAC(L0, H0, x, bj[J]);                                                                       \
  x = AL(a1, a0, 8 - (J));                                                                     \
  MAC(L1, H1, x, bj[J]);
  FE_STEP(1, l0b, h0b, l1b, h1b)
  FE_STEP(2, l0a, h0a, l1a, h1a)
  FE_STEP(3, l0b, h0b, l1b, h1b)
  FE_STEP(4, l0a, h0a, l1a, h1a)
  FE_STEP(5, l0b, h0b, l1b, h1b)
  FE_STEP(6, l0a, h0a, l1a, h1a)
  FE_STEP(7, l0b, h0b, l1b, h1b)
#undef FE_STEP
  /* Columns 16..23 from j = 6 on: AL(0, a1, 8 - j) for j = 6, 7, a1 for j = 8, then
   * AL(a1, a0, 16 - j); columns 8..15 for j = 8, 9, 10: a0, AL(a0, 0, 7), AL(a0, 0, 6). */
  x = AL(z, a1, 2);
  MAC(l2, h2, x, bj[6]);
  x = AL(z, a1, 1);
  MAC(l2b, h2b, x, bj[7]);
  MAC(l1a, h1a, a0, bj[8]);
  MAC(l2, h2, a1, bj[8]);
  x = AL(a0, z, 7);
  MAC(l1b, h1b, x, bj[9]);
  x = AL(a1, a0, 7);
  MAC(l2b, h2b, x, bj[9]);
  x = AL(a0, z, 6);
  MAC(l1a, h1a, x, bj[10]);
  x = AL(a1, a0, 6);
  MAC(l2, h2, x, bj[10]);
  return fe_fold(_mm512_add_epi64(l0a, l0b), _mm512_add_epi64(h0a, h0b),
                 _mm512_add_epi64(l1a, l1b), _mm512_add_epi64(h1a, h1b), _mm512_add_epi64(l2, l2b),
                 _mm512_add_epi64(h2, h2b));
}

/* fe_sqr: a^2 mod p, as fe_mul (a, a) with the 55 products a_i a_j, i > j, made once and doubled
 * (row j: b's limb a_j times the limbs above j, AL masked to the columns i + j with i > j) and the
 * squares a_i^2 added at the columns 2i (a's limbs spread to the even lanes); 38 multiply-adds
 * against fe_mul's 48. Column sums stay below 2^58 as there. */
IFMA_INLINE fe fe_sqr(const fe a) {
  const __m512i z = _mm512_setzero_si512(), a0 = a.lo, a1 = a.hi;
  __m512i aj[10];
  for (int j = 0; j < 8; j++) aj[j] = _mm512_permutexvar_epi64(_mm512_set1_epi64(j), a0);
  for (int j = 8; j < 10; j++) aj[j] = _mm512_permutexvar_epi64(_mm512_set1_epi64(j - 8), a1);
  __m512i l0 = z, h0 = z, l1a = z, h1a = z, l1b = z, h1b = z, l2 = z, h2 = z, x;
  /* Row j, columns 0..7 (j <= 3): lanes 2j + 1 .. 7 of AL(a0, 0, 8 - j). */
#define SQ_V0(J)                                                                               \
  x = _mm512_maskz_alignr_epi64((__mmask8)(0xff << (2 * (J) + 1)), a0, z, 8 - (J));            \
  MAC(l0, h0, x, aj[J]);
  /* Row j, columns 8..15: lanes 2j - 7 .. 7 (all for j <= 3) of AL(a1, a0, 8 - j). */
#define SQ_V1(J, L, H, M)                                                                      \
  x = _mm512_maskz_alignr_epi64((__mmask8)(M), a1, a0, 8 - (J));                               \
  MAC(L, H, x, aj[J]);
  x = _mm512_maskz_mov_epi64(0xfe, a0); /* row 0, columns 1..7 */
  MAC(l0, h0, x, aj[0]);
  MAC(l1a, h1a, a1, aj[0]);
  SQ_V0(1)
  SQ_V1(1, l1b, h1b, 0xff)
  SQ_V0(2)
  SQ_V1(2, l1a, h1a, 0xff)
  SQ_V0(3)
  SQ_V1(3, l1b, h1b, 0xff)
  SQ_V1(4, l1a, h1a, 0xfe)
  SQ_V1(5, l1b, h1b, 0xf8)
  SQ_V1(6, l1a, h1a, 0xe0)
  SQ_V1(7, l1b, h1b, 0x80)
#undef SQ_V0
#undef SQ_V1
  /* Columns 16..23: rows 6 and 7 take AL(0, a1, 8 - j) (a_10, and a_9 a_10 for row 7), row 8
   * lanes 1..2 of a1 (a_9 a_8, a_10 a_8), row 9 lane 3 of AL(a1, a0, 7) (a_10 a_9). */
  x = AL(z, a1, 2);
  MAC(l2, h2, x, aj[6]);
  x = AL(z, a1, 1);
  MAC(l2, h2, x, aj[7]);
  x = _mm512_maskz_mov_epi64(0x06, a1);
  MAC(l2, h2, x, aj[8]);
  x = _mm512_maskz_alignr_epi64(0x08, a1, a0, 7);
  MAC(l2, h2, x, aj[9]);
  /* Doubled, then the squares: limbs 0..3, 4..7 and 8..10 spread to the even lanes. */
  __m512i l1 = _mm512_slli_epi64(_mm512_add_epi64(l1a, l1b), 1);
  __m512i h1 = _mm512_slli_epi64(_mm512_add_epi64(h1a, h1b), 1);
  l0 = _mm512_slli_epi64(l0, 1);
  h0 = _mm512_slli_epi64(h0, 1);
  l2 = _mm512_slli_epi64(l2, 1);
  h2 = _mm512_slli_epi64(h2, 1);
  const __m512i i0 = _mm512_set_epi64(0, 3, 0, 2, 0, 1, 0, 0);
  const __m512i i1 = _mm512_set_epi64(0, 7, 0, 6, 0, 5, 0, 4);
  const __m512i e0 = _mm512_maskz_permutexvar_epi64(0x55, i0, a0);
  const __m512i e1 = _mm512_maskz_permutexvar_epi64(0x55, i1, a0);
  const __m512i e2 = _mm512_maskz_permutexvar_epi64(0x15, i0, a1);
  MAC(l0, h0, e0, e0);
  MAC(l1, h1, e1, e1);
  MAC(l2, h2, e2, e2);
  return fe_fold(l0, h0, l1, h1, l2, h2);
}

/* Q' = 786025022 p, limbs 0..9 raised by 2^50 and the next lowered by 1 each time: every limb in
 * [2^50 + 2^42, 2^51), above every limb of a value within fe_carry's bounds. */
static const uint64_t k_q_loose[16] = {
    0x7ffffd12635c2ull, 0x7fffffffffffeull, 0x7fffffffffffeull, 0x7fffffffffffeull,
    0x7fffffffffffeull, 0x7fffffffffffeull, 0x7fffffffffffeull, 0x7fffffffffffeull,
    0x7fffffffffffeull, 0x7fffffffffffeull, 0x5db3947bffffeull, 0, 0, 0, 0, 0};

/* The loose sum and difference, without fe_carry: limbs below 2^52 (2 (2^50 + 2^42), and
 * 2^50 + 2^42 + 2^51 with Q'), so they may be the operands of fe_mul and fe_sqr, or fe_sub's b,
 * and nothing else. */
IFMA_INLINE fe fe_add_loose(const fe a, const fe b) {
  const fe r = {_mm512_add_epi64(a.lo, b.lo), _mm512_add_epi64(a.hi, b.hi)};
  return r;
}

IFMA_INLINE fe fe_sub_loose(const fe a, const fe b) {
  const __m512i qlo = _mm512_loadu_si512((const void *)k_q_loose);
  const __m512i qhi = _mm512_loadu_si512((const void *)(k_q_loose + 8));
  const fe r = {_mm512_sub_epi64(_mm512_add_epi64(a.lo, qlo), b.lo),
                _mm512_sub_epi64(_mm512_add_epi64(a.hi, qhi), b.hi)};
  return r;
}

IFMA_INLINE fe fe_sub(const fe a, const fe b) {
  const __m512i qlo = _mm512_loadu_si512((const void *)k_q);
  const __m512i qhi = _mm512_loadu_si512((const void *)(k_q + 8));
  return fe_carry(_mm512_sub_epi64(_mm512_add_epi64(a.lo, qlo), b.lo),
                  _mm512_sub_epi64(_mm512_add_epi64(a.hi, qhi), b.hi));
}

/* fe_shl: a 2^s mod p for s = 1, 2, 3. */
IFMA_INLINE fe fe_shl(const fe a, const unsigned s) {
  return fe_carry(_mm512_slli_epi64(a.lo, s), _mm512_slli_epi64(a.hi, s));
}

/* fe_select: m (all-ones or zero in every lane) ? a : b. */
IFMA_INLINE fe fe_select(const __m512i m, const fe a, const fe b) {
  const fe r = {_mm512_ternarylogic_epi64(m, a.lo, b.lo, 0xca),
                _mm512_ternarylogic_epi64(m, a.hi, b.hi, 0xca)};
  return r;
}

/* fe_mul3_loose: 3a without a carry, below 3 (2^50 + 2^42) < 2^52 for a within fe_carry's bounds:
 * a loose value (dbl's alpha). */
IFMA_INLINE fe fe_mul3_loose(const fe a) {
  const fe r = {_mm512_add_epi64(a.lo, _mm512_slli_epi64(a.lo, 1)),
                _mm512_add_epi64(a.hi, _mm512_slli_epi64(a.hi, 1))};
  return r;
}

/* ---- Conversions (scalar; a few per ladder) -------------------------------------------------- */

/* rotr521 sets r to the 521-bit a rotated right by s bits (0 < s < 521, public), that is a 2^-s
 * mod p; a rotation of a value below p is below p (p is the only all-ones string). From the
 * 1042-bit string a a (a twice, the copy 521 bits up), bits s .. s + 520. */
static void rotr521(uint64_t r[9], const uint64_t a[9], const unsigned s) {
  uint64_t d[18] = {0};
  for (unsigned i = 0; i < 9; i++) d[i] = a[i];
  /* a 2^521: bit 521 is word 8's bit 9. */
  for (unsigned i = 0; i < 9; i++) {
    d[8 + i] |= a[i] << 9;
    d[9 + i] |= a[i] >> 55;
  }
  const unsigned w = s / 64, b = s % 64;
  for (unsigned i = 0; i < 9; i++) {
    const uint64_t next = w + i + 1 < 18 ? d[w + i + 1] : 0;
    r[i] = b == 0 ? d[w + i] : (d[w + i] >> b) | (next << (64 - b));
  }
  r[8] &= 0x1ff;
  fm_zeroize(d, sizeof d);
}

/* from_mont: the fully reduced Montgomery-form a (a R, R = 2^55 mod p) as plain limbs. */
IFMA_FN static void from_mont(fe *r, const uint64_t a[9]) {
  uint64_t v[9], l[16] = {0};
  rotr521(v, a, 55);
  for (unsigned k = 0; k < 11; k++) {
    const unsigned bit = 50 * k, w = bit / 64, sh = bit % 64;
    uint64_t x = v[w] >> sh;
    if (sh > 14 && w + 1 < 9) x |= v[w + 1] << (64 - sh);
    l[k] = x & M50;
  }
  r->lo = _mm512_loadu_si512((const void *)l);
  r->hi = _mm512_loadu_si512((const void *)(l + 8));
  fm_zeroize(v, sizeof v);
  fm_zeroize(l, sizeof l);
}

/* canonical: the value of r (limbs within fe_carry's bounds, or loose) fully reduced, nine words. */
IFMA_FN static void canonical(uint64_t v[9], const fe *r) {
  uint64_t l[16], t[9];
  _mm512_storeu_si512((void *)l, r->lo);
  _mm512_storeu_si512((void *)(l + 8), r->hi);
  /* v = sum of l_k 2^(50 k): below 2^552, nine words. */
  ec_radix_to_words(v, 9, l, 11, 50);
  /* Twice v = (v mod 2^521) + (v >> 521): below 2^521 + 2^31, then at most p. */
  for (unsigned pass = 0; pass < 2; pass++) {
    uint64_t c = v[8] >> 9;
    v[8] &= 0x1ff;
    for (unsigned i = 0; i < 9; i++) {
      const unsigned __int128 u = (unsigned __int128)v[i] + c;
      v[i] = (uint64_t)u;
      c = (uint64_t)(u >> 64);
    }
  }
  /* v = p (all 521 bits set) is 0: v + 1 reaches bit 521 exactly then. */
  uint64_t c = 1;
  for (unsigned i = 0; i < 9; i++) {
    const unsigned __int128 u = (unsigned __int128)v[i] + c;
    t[i] = (uint64_t)u;
    c = (uint64_t)(u >> 64);
  }
  const uint64_t is_p = 0u - ((t[8] >> 9) & 1);
  for (unsigned i = 0; i < 9; i++) v[i] &= ~is_p;
  fm_zeroize(l, sizeof l);
  fm_zeroize(t, sizeof t);
}

/* to_mont: the value of r, fully reduced, in Montgomery form (times R = 2^55 mod p: the rotation
 * right by 521 - 55). */
IFMA_FN static void to_mont(uint64_t out[9], const fe *r) {
  uint64_t v[9];
  canonical(v, r);
  rotr521(out, v, 521 - 55);
  fm_zeroize(v, sizeof v);
}

/* ---- The ladder ------------------------------------------------------------------------------ */

IFMA_INLINE fe fe_zero(void) {
  const fe r = {_mm512_setzero_si512(), _mm512_setzero_si512()};
  return r;
}

IFMA_INLINE fe fe_one(void) {
  const fe r = {_mm512_maskz_set1_epi64(0x01, 1), _mm512_setzero_si512()};
  return r;
}

/* The verification loop (ec_ifma_ladder.inc) measured on this host against the ADX digit loop
 * (same-process A/B, median of 41 pairs): P-521 verification 1.56 times as fast. */
#define IFMA_LADDER_NAME ec_p521_ladder_ifma
#define IFMA_DOUBLE_MUL_NAME ec_p521_double_mul_ifma
#define IFMA_LADDER_WORDS 9
#include "module/ec/ec_ifma_ladder.inc"
#undef IFMA_LADDER_NAME
#undef IFMA_DOUBLE_MUL_NAME
#undef IFMA_LADDER_WORDS

