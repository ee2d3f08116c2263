/* P-384's variable-base ladder and verification loop with AVX-512 IFMA: scalar_mul_tab's windows
 * (ec_scalar_mul.c) and double_mul_jac_k's digit loop (ec_verify.c) with the field in radix 2^48,
 * eight limbs in one 512-bit register, not fully reduced: a value is only known modulo p = 2^384
 * - 2^128 - 2^96 + 2^32 - 1. The doubling, the mixed addition, the windows and the digit loop are
 * ec_ifma_ladder.inc's, shared with P-521's file.
 *
 * Folding. 2^384 = F mod p with F = 2^128 + 2^96 - 2^32 + 1, so limb k >= 8 (weight 2^384
 * 2^(48 (k - 8))) adds its value v at limb k - 8, v 2^32 there (split at the limb boundary: v's
 * low 16 bits shifted up 32 at limb k - 8, v >> 16 at limb k - 7) negated, v at limb k - 6 and
 * v 2^32 there (its halves at k - 6 and k - 5). Limbs that land at 8 or above fold again.
 *
 * Bounds. Every field value here is the output of fe_carry (below): every limb below 2^50 (limbs
 * below 2^48 + 2^15 plus the limbs of Z, below 2^49, and at limbs 0 and 2 the fold of the top
 * carry, below 2^48). VPMADD52LUQ/HUQ read the low 52 bits of each lane, so that leaves room for
 * the loose values: fe_add_loose (below 2^51), fe_sub_loose (a + Q_l - b, below 2^52) and
 * fe_mul3_loose (below 3 (2^49 + 2^48), 2^51.2), which only ever go to fe_mul and fe_sqr, or as b
 * to fe_sub.
 * - fe_mul: for operands below 2^52 a limb product is below 2^104; its low half (bits 0..51) goes
 *   to column i + j, its high half (bits 52..103) to column i + j + 1, times 16 (52 = 48 + 4). A
 *   column gathers at most eight of each: below 2^55 + 2^59. Columns 8..15 fold (above) with
 *   signed 64-bit lanes: the negative parts at one limb stay below 2^50 (a 48-bit and a 44-bit
 *   term from each fold level), so the bias B (a multiple of p, limbs in [2^50, 2^51)) keeps
 *   every limb non-negative, and the sums stay below 2^62. fe_carry follows.
 * - fe_sub: a + Q - b, with Q a multiple of p whose limbs are in [2^52, 2^53) (above every limb
 *   of a loose b): non-negative and below 2^54, then fe_carry.
 * - fe_carry: each limb keeps its low 48 bits and passes the rest up; the top carry c (weight
 *   2^384, below 2^15 for limbs below 2^63) adds c F: c and -c 2^32 at limb 0, c and c 2^32 at
 *   limb 2. Z, p with 2^48 moved from limb 1 to limb 0 (limbs below 2^49, limb 0 at least 2^48),
 *   is added too, so that limb 0 cannot go negative.
 *
 * Representation. The rest of module/ec/ keeps fully reduced 6-word values in Montgomery form (a
 * R mod p, R = 2^384); here values are plain (a mod p): from_mont multiplies the limbs of a R by
 * R^-1 mod p (one fe_mul), to_mont multiplies by R mod p = F and reduces fully. The ladder runs
 * from_mont once per entry of the table and to_mont once per coordinate of the result; the
 * verification loop runs from_mont on Q's eight odd multiples and on each of G's it adds.
 *
 * Measured on this host (AMD Zen 5, TSC ticks, best of runs, the same minute): a doubling 323
 * against 435 for the ADX assembly; a product 56-60 of latency and 28 of throughput. Against the
 * ADX code (same-process A/B, median of 41 pairs): ECDH 1.33 times as fast, verification 1.58.
 * Each 512-bit lane move (VALIGNQ, VPERMQ) has a latency of about 5 cycles, and they, not the 30
 * multiply-adds, bound the product.
 *
 * Constant time: a fixed instruction stream; no branch or index on values. (Valgrind cannot run
 * AVX-512 code: test_ec_ct covers the other paths under memcheck, and this one is constant time
 * by construction, as ec_p521_ifma.c is.) */
#include <immintrin.h>
#include <string.h>

#include "module/ec/internal.h"
#include "module/internal.h"

#define IFMA_FN __attribute__((target("avx512f,avx512ifma,avx512vl,avx512bw")))
#define IFMA_INLINE IFMA_FN static inline __attribute__((always_inline))

#define M48 ((1ull << 48) - 1)
#define M16 ((1ull << 16) - 1)

typedef struct fe {
  __m512i v; /* limbs 0..7, limb k of weight 2^(48 k) */
} fe;

/* Multiples of p in radix 2^48 with the limbs moved up (2^48 taken from a limb and added below).
 * A wrong one offsets every product or subtraction, and with it every P-384 ECDH known answer. */
/* Z = p, limb 0 in [2^48, 2^49), the others below 2^48 (fe_carry). */
static const uint64_t k_z[8] = {0x10000ffffffffull, 0xffffffffffffull, 0xfffefffffffeull,
                                0xffffffffffffull,  0xffffffffffffull, 0xffffffffffffull,
                                0xffffffffffffull,  0xffffffffffffull};
/* B = 5 p, every limb in [2^50, 2^51) (fe_mul's fold). */
static const uint64_t k_bias[8] = {0x40004fffffffbull, 0x4fffffffffffcull, 0x4fffafffffff6ull,
                                   0x4fffffffffffbull, 0x4fffffffffffbull, 0x4fffffffffffbull,
                                   0x4fffffffffffbull, 0x4fffffffffffbull};
/* Q = 17 p, every limb in [2^52, 2^53) (fe_sub). */
static const uint64_t k_q[8] = {0x100010ffffffefull, 0x10fffffffffff0ull, 0x10ffeeffffffdeull,
                                0x10ffffffffffefull, 0x10ffffffffffefull, 0x10ffffffffffefull,
                                0x10ffffffffffefull, 0x10ffffffffffefull};
/* Q_l = 7 p, every limb in [2^50 + 2^49, 2^51) (fe_sub_loose: above every carried limb). */
static const uint64_t k_q_loose[8] = {0x60006fffffff9ull, 0x6fffffffffffaull, 0x6fff8fffffff2ull,
                                      0x6fffffffffff9ull, 0x6fffffffffff9ull, 0x6fffffffffff9ull,
                                      0x6fffffffffff9ull, 0x6fffffffffff9ull};
/* R^-1 mod p and R mod p (R = 2^384), limbs below 2^48 (from_mont, to_mont). */
static const uint64_t k_rinv[8] = {0xffe100000006ull, 0xffffffd8ffffull, 0xfffdffffffebull,
                                   0xfffffffbffffull, 0xfffcfffffffaull, 0x2ffffull,
                                   0x140000000cull,   0x140000ull};
static const uint64_t k_r[8] = {0xffff00000001ull, 0xffffffffffffull, 0x100000000ull, 0, 0, 0, 0, 0};

#define AL(a, b, s) _mm512_alignr_epi64((a), (b), (s))
#define LOADK(k) _mm512_loadu_si512((const void *)(k))

/* fe_carry: limbs below 2^63 to fe_carry's bounds (above). */
IFMA_INLINE fe fe_carry(const __m512i x) {
  const __m512i q = _mm512_srli_epi64(x, 48);
  const __m512i r = _mm512_and_si512(x, _mm512_set1_epi64((long long)M48));
  /* Lane i takes q_{i-1}; lane 0 takes the top carry q_7 (F's 1). */
  const __m512i rot = AL(q, q, 7);
  /* q_7 at lanes 0 and 2, then F's -2^32 and 2^128 = 2^32 2^96: -q_7 2^32 at limb 0, q_7 2^32 at
   * limb 2, and F's 2^96: q_7 at limb 2. */
  const __m512i t = _mm512_maskz_permutexvar_epi64(0x05, _mm512_set1_epi64(7), q);
  const __m512i s = _mm512_mask_sub_epi64(t, 0x01, _mm512_setzero_si512(), t);
  const __m512i u = _mm512_add_epi64(_mm512_maskz_mov_epi64(0x04, t), _mm512_slli_epi64(s, 32));
  const fe f = {_mm512_add_epi64(_mm512_add_epi64(r, rot), _mm512_add_epi64(u, LOADK(k_z)))};
  return f;
}

/* fe_fold: the columns c (0..7) and v (8..15, non-negative, below 2^60) to eight limbs through
 * the fold above (twice: limbs 8..10 of the first, w, fold again), then fe_carry. Up and down
 * moves of whole lanes: AL(x, 0, 8 - s) moves x up s lanes, AL(0, x, 8 - s) brings the s lanes
 * that left the top to the bottom. */
IFMA_INLINE fe fe_fold(const __m512i c, const __m512i v) {
  const __m512i z = _mm512_setzero_si512();
  const __m512i m16 = _mm512_set1_epi64((long long)M16);
  /* v 2^32 split: vlo at the same limb, vhi one limb up. */
  const __m512i vlo = _mm512_slli_epi64(_mm512_and_si512(v, m16), 32);
  const __m512i vhi = _mm512_srli_epi64(v, 16);
  const __m512i vp = _mm512_add_epi64(v, vlo);
  /* Limbs 8..10 of the first fold (signed: limb 8 takes -vhi_7). */
  const __m512i w =
      _mm512_add_epi64(_mm512_sub_epi64(AL(z, vp, 6), AL(z, vhi, 7)), AL(z, vhi, 5));
  const __m512i wlo = _mm512_slli_epi64(_mm512_and_si512(w, m16), 32);
  const __m512i whi = _mm512_srai_epi64(w, 16); /* w = whi 2^16 + (w & M16) for signed w */
  const __m512i wp = _mm512_add_epi64(w, wlo);
  /* c + B + v (1 - 2^32) + (v + v 2^32) 2^96, then w's fold into the limbs 0..5. */
  const __m512i t1 =
      _mm512_add_epi64(_mm512_add_epi64(c, LOADK(k_bias)), _mm512_sub_epi64(v, vlo));
  const __m512i t2 =
      _mm512_add_epi64(_mm512_sub_epi64(AL(vp, z, 6), AL(vhi, z, 7)), AL(vhi, z, 5));
  const __m512i t3 = _mm512_add_epi64(_mm512_sub_epi64(w, wlo), AL(whi, z, 5));
  const __m512i t4 = _mm512_sub_epi64(AL(wp, z, 6), AL(whi, z, 7));
  return fe_carry(_mm512_add_epi64(_mm512_add_epi64(t1, t2), _mm512_add_epi64(t3, t4)));
}

#define MADDLO(acc, x, y) acc = _mm512_madd52lo_epu64(acc, x, y)
#define MADDHI(acc, x, y) acc = _mm512_madd52hi_epu64(acc, x, y)

/* fe_mul: a b mod p (above), for limbs below 2^52. For b's limb j the low halves take a moved up
 * j lanes (columns j..7, then the lanes past 7 at columns 8..), the high halves a moved up j + 1
 * lanes (one column higher); two sets of accumulators (even and odd j), so that no chain of
 * dependent multiply-adds is longer than four. */
IFMA_INLINE fe fe_mul(const fe A, const fe B) {
  const __m512i z = _mm512_setzero_si512(), a = A.v, b = B.v;
  __m512i l0a = z, h0a = z, l1a = z, h1a = z, l0b = z, h0b = z, l1b = z, h1b = z, bj;
  bj = _mm512_permutexvar_epi64(_mm512_set1_epi64(0), b);
  MADDLO(l0a, a, bj);
  MADDHI(h0a, AL(a, z, 7), bj);
  MADDHI(h1a, AL(z, a, 7), bj);
#define FE_STEP(J, L0, H0, L1, H1)                                                             \
  bj = _mm512_permutexvar_epi64(_mm512_set1_epi64(J), b);                                      \
  MADDLO(L0, AL(a, z, 8 - (J)), bj);                                                           \
  MADDLO(L1, AL(z, a, 8 - (J)), bj);                                                           \
  MADDHI(H0, AL(a, z, 7 - (J)), bj);                                                           \
  MADDHI(H1, AL(z, a, 7 - (J)), bj);
  FE_STEP(1, l0b, h0b, l1b, h1b)
  FE_STEP(2, l0a, h0a, l1a, h1a)
  FE_STEP(3, l0b, h0b, l1b, h1b)
  FE_STEP(4, l0a, h0a, l1a, h1a)
  FE_STEP(5, l0b, h0b, l1b, h1b)
  FE_STEP(6, l0a, h0a, l1a, h1a)
#undef FE_STEP
  /* j = 7: the high halves all land at columns 8..15 (column 15 is the last: 7 + 7 + 1). */
  bj = _mm512_permutexvar_epi64(_mm512_set1_epi64(7), b);
  MADDLO(l0b, AL(a, z, 1), bj);
  MADDLO(l1b, AL(z, a, 1), bj);
  MADDHI(h1b, a, bj);
  const __m512i c0 = _mm512_add_epi64(_mm512_add_epi64(l0a, l0b),
                                      _mm512_slli_epi64(_mm512_add_epi64(h0a, h0b), 4));
  const __m512i c1 = _mm512_add_epi64(_mm512_add_epi64(l1a, l1b),
                                      _mm512_slli_epi64(_mm512_add_epi64(h1a, h1b), 4));
  return fe_fold(c0, c1);
}

IFMA_INLINE fe fe_sqr(const fe a) { return fe_mul(a, a); }

IFMA_INLINE fe fe_add_loose(const fe a, const fe b) {
  const fe r = {_mm512_add_epi64(a.v, b.v)};
  return r;
}

IFMA_INLINE fe fe_sub_loose(const fe a, const fe b) {
  const fe r = {_mm512_sub_epi64(_mm512_add_epi64(a.v, LOADK(k_q_loose)), b.v)};
  return r;
}

IFMA_INLINE fe fe_mul3_loose(const fe a) {
  const fe r = {_mm512_add_epi64(a.v, _mm512_slli_epi64(a.v, 1))};
  return r;
}

IFMA_INLINE fe fe_sub(const fe a, const fe b) {
  return fe_carry(_mm512_sub_epi64(_mm512_add_epi64(a.v, LOADK(k_q)), b.v));
}

/* fe_shl: a 2^s mod p for s = 1, 2, 3. */
IFMA_INLINE fe fe_shl(const fe a, const unsigned s) {
  return fe_carry(_mm512_slli_epi64(a.v, s));
}

/* fe_select: m (all-ones or zero in every lane) ? a : b. */
IFMA_INLINE fe fe_select(const __m512i m, const fe a, const fe b) {
  const fe r = {_mm512_ternarylogic_epi64(m, a.v, b.v, 0xca)};
  return r;
}

IFMA_INLINE fe fe_zero(void) {
  const fe r = {_mm512_setzero_si512()};
  return r;
}

IFMA_INLINE fe fe_one(void) {
  const fe r = {_mm512_maskz_set1_epi64(0x01, 1)};
  return r;
}

/* ---- Conversions (a few per ladder) ---------------------------------------------------------- */

/* from_mont: the fully reduced Montgomery-form a (a R mod p, six words) as plain limbs: its eight
 * 48-bit limbs times R^-1. */
IFMA_FN static void from_mont(fe *r, const uint64_t a[6]) {
  uint64_t l[8];
  for (unsigned k = 0; k < 8; k++) {
    const unsigned bit = 48 * k, w = bit / 64, sh = bit % 64;
    uint64_t x = a[w] >> sh;
    if (sh > 16) x |= a[w + 1] << (64 - sh);
    l[k] = x & M48;
  }
  const fe t = {_mm512_loadu_si512((const void *)l)}, rinv = {LOADK(k_rinv)};
  *r = fe_mul(t, rinv);
  fm_zeroize(l, sizeof l);
}

/* canonical: the value of r (limbs below 2^52) fully reduced, six words. */
IFMA_FN static void canonical(uint64_t v[6], const fe *r) {
  static const uint64_t k_f[3] = {0xffffffff00000001ull, 0xffffffffull, 1}; /* F = 2^384 mod p */
  static const uint64_t k_p[6] = {0xffffffffull, 0xffffffff00000000ull, 0xfffffffffffffffeull,
                                  ~0ull, ~0ull, ~0ull};
  uint64_t l[8], w[7], t[6];
  _mm512_storeu_si512((void *)l, r->v);
  /* w = sum of l_k 2^(48 k): below 2^389, seven words. */
  ec_radix_to_words(w, 7, l, 8, 48);
  /* Twice w = (w mod 2^384) + (w >> 384) F: below 2^384 + 2^133, then below 2^384 (the second
   * pass carries at most 1, onto a value below 2^133). */
  for (unsigned pass = 0; pass < 2; pass++) {
    const uint64_t top = w[6];
    w[6] = 0;
    uint64_t c = 0;
    for (unsigned i = 0; i < 6; i++) {
      const unsigned __int128 u =
          (unsigned __int128)w[i] + (unsigned __int128)top * (i < 3 ? k_f[i] : 0) + c;
      w[i] = (uint64_t)u;
      c = (uint64_t)(u >> 64);
    }
    w[6] = c;
  }
  /* w < 2^384 < 2p: subtract p where that does not borrow. */
  uint64_t borrow = 0;
  for (unsigned i = 0; i < 6; i++) {
    const unsigned __int128 u = (unsigned __int128)w[i] - k_p[i] - borrow;
    t[i] = (uint64_t)u;
    borrow = (uint64_t)(u >> 64) & 1;
  }
  const uint64_t keep = 0u - borrow; /* all-ones where w < p */
  for (unsigned i = 0; i < 6; i++) v[i] = (w[i] & keep) | (t[i] & ~keep);
  fm_zeroize(l, sizeof l);
  fm_zeroize(w, sizeof w);
  fm_zeroize(t, sizeof t);
}

/* to_mont: the value of r, fully reduced, in Montgomery form (times R mod p). */
IFMA_FN static void to_mont(uint64_t out[6], const fe *r) {
  const fe rm = {LOADK(k_r)};
  const fe t = fe_mul(*r, rm);
  canonical(out, &t);
}

/* ---- The doubling, the mixed addition, the ladder and the verification loop ----------------- */

#define IFMA_LADDER_NAME ec_p384_ladder_ifma
#define IFMA_DOUBLE_MUL_NAME ec_p384_double_mul_ifma
#define IFMA_LADDER_WORDS 6
#include "module/ec/ec_ifma_ladder.inc"
#undef IFMA_LADDER_NAME
#undef IFMA_DOUBLE_MUL_NAME
#undef IFMA_LADDER_WORDS
