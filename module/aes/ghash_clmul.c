/* GHASH with carry-less multiply instructions: PCLMULQDQ on 128-bit registers, VPCLMULQDQ on
 * 256- and 512-bit registers. The arithmetic is ghash.c's (reflected form, Montgomery product
 * with H' = H * y); here the products of 8 or 16 blocks with the matching powers of H' are
 * summed unreduced and reduced once, so the reduction's two dependent multiplies are paid once
 * per pass, and the block products of a pass are independent of each other.
 *
 * Each product is the schoolbook one (four 64x64 multiplies: low, high and the two cross
 * terms); the wide paths keep the three sums (low, middle, high) per lane and fold the lanes
 * together before the reduction.
 *
 * The powers are read with unaligned loads: a key on the heap (malloc gives 16-byte alignment)
 * need not honour fm_gcm_key's 64-byte alignment.
 *
 * The 8-block PCLMULQDQ loop has 16 xmm registers for eight powers, the state, three sums and
 * the blocks: gcc 12 hoists the power loads out of the loop and keeps them in stack slots (a
 * 288-byte frame, 25 slots, none zeroized), and the 256-bit loop keeps a state or sum outside
 * its zeroized power array. gcm.c wipes the stack after a step that hashed
 * AES_STACK_WIPE_MIN_BLOCKS blocks or more (internal.h); the tail pass (clmul_pass) spills
 * nothing, and neither does the 512-bit loop beyond its power array, which it zeroizes after
 * storing the state (no secret in a register across that call), so gcm.c's short one-shot
 * needs no wipe on the 512-bit paths (short_wipe_blocks). */
#include <immintrin.h>

#include "module/aes/clmul_reduce.h"
#include "module/aes/internal.h"
#include "module/internal.h"

#define CLMUL_FN __attribute__((target("pclmul,sse4.1")))
#define VPCLMUL256_FN __attribute__((target("pclmul,sse4.1,avx2,vpclmulqdq")))
#define VPCLMUL512_FN \
  __attribute__((target("pclmul,sse4.1,avx2,avx512f,avx512vl,avx512bw,vpclmulqdq")))

/* ---- Which path -------------------------------------------------------------------------- */

int ghash_path(void) {
  if (!fm_cpu_use(FM_CPU_PCLMULQDQ)) return GHASH_PATH_PORTABLE;
  /* The wide paths need the OS-enabled register state that FM_CPU_VAES (AVX2 + YMM state) and
   * FM_CPU_AVX512 (ZMM state) already include; FIPSMOD_CPU=portable clears all of them. */
  if (fm_cpu_use(FM_CPU_VAES | FM_CPU_VPCLMULQDQ)) {
    return fm_cpu_use(FM_CPU_AVX512) ? GHASH_PATH_VPCLMUL512 : GHASH_PATH_VPCLMUL256;
  }
  return GHASH_PATH_CLMUL;
}

/* ---- 128-bit registers ------------------------------------------------------------------- */

/* A block's reflected form: its 16 bytes reversed, so the register holds the big-endian integer
 * with its low word in the low lane. */
CLMUL_FN static inline __m128i load_block(const uint8_t *p) {
  const __m128i rev = _mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  return _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)p), rev);
}

/* mul_acc adds the unreduced product a * b to the sums lo, mid, hi. */
CLMUL_FN static inline void mul_acc(__m128i a, __m128i b, __m128i *lo, __m128i *mid,
                                    __m128i *hi) {
  *lo = _mm_xor_si128(*lo, _mm_clmulepi64_si128(a, b, 0x00));
  *hi = _mm_xor_si128(*hi, _mm_clmulepi64_si128(a, b, 0x11));
  *mid = _mm_xor_si128(*mid, _mm_xor_si128(_mm_clmulepi64_si128(a, b, 0x01),
                                           _mm_clmulepi64_si128(a, b, 0x10)));
}

CLMUL_FN static inline __m128i load_pow(const ghash_key *gk, int j) {
  return _mm_loadu_si128((const __m128i *)gk->hdesc[j]);
}

CLMUL_FN void ghash_clmul_powers(ghash_key *gk) {
  const __m128i h = load_pow(gk, 15);
  __m128i p = h;
  for (int j = 14; j >= 0; j--) {
    __m128i lo = _mm_setzero_si128(), mid = lo, hi = lo;
    mul_acc(p, h, &lo, &mid, &hi);
    p = ghash_clmul_reduce(lo, mid, hi);
    _mm_storeu_si128((__m128i *)gk->hdesc[j], p);
  }
}

/* clmul_tail absorbs n (1..16) blocks with one reduction: block j times H'^(n - j). */
CLMUL_FN static inline __m128i clmul_pass(const ghash_key *gk, __m128i y, const uint8_t *in,
                                          size_t n) {
  __m128i lo = _mm_setzero_si128(), mid = lo, hi = lo;
  const int first = 16 - (int)n;
  mul_acc(_mm_xor_si128(load_block(in), y), load_pow(gk, first), &lo, &mid, &hi);
  for (size_t j = 1; j < n; j++) {
    mul_acc(load_block(in + 16 * j), load_pow(gk, first + (int)j), &lo, &mid, &hi);
  }
  return ghash_clmul_reduce(lo, mid, hi);
}

CLMUL_FN void ghash_clmul_blocks(const ghash_key *gk, uint64_t y[2], const uint8_t *in,
                                 size_t nblocks) {
  __m128i acc = _mm_loadu_si128((const __m128i *)y);
  for (; nblocks >= 8; nblocks -= 8, in += 128) {
    __m128i lo = _mm_setzero_si128(), mid = lo, hi = lo;
    mul_acc(_mm_xor_si128(load_block(in), acc), load_pow(gk, 8), &lo, &mid, &hi);
    AES_UNROLL
    for (int j = 1; j < 8; j++) mul_acc(load_block(in + 16 * j), load_pow(gk, 8 + j), &lo, &mid, &hi);
    acc = ghash_clmul_reduce(lo, mid, hi);
  }
  if (nblocks > 0) acc = clmul_pass(gk, acc, in, nblocks);
  _mm_storeu_si128((__m128i *)y, acc);
}

/* ---- 256-bit registers: two blocks per register, eight per pass --------------------------- */

VPCLMUL256_FN static inline __m256i load2(const uint8_t *p) {
  const __m256i rev = _mm256_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15,
                                       14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  return _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)p), rev);
}

VPCLMUL256_FN static inline void mul_acc2(__m256i a, __m256i b, __m256i *lo, __m256i *mid,
                                          __m256i *hi) {
  *lo = _mm256_xor_si256(*lo, _mm256_clmulepi64_epi128(a, b, 0x00));
  *hi = _mm256_xor_si256(*hi, _mm256_clmulepi64_epi128(a, b, 0x11));
  *mid = _mm256_xor_si256(*mid, _mm256_xor_si256(_mm256_clmulepi64_epi128(a, b, 0x01),
                                                 _mm256_clmulepi64_epi128(a, b, 0x10)));
}

VPCLMUL256_FN static inline __m128i fold2(__m256i v) {
  return _mm_xor_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
}

VPCLMUL256_FN void ghash_vpclmul256_blocks(const ghash_key *gk, uint64_t y[2], const uint8_t *in,
                                           size_t nblocks) {
  __m128i acc = _mm_loadu_si128((const __m128i *)y);
  if (nblocks >= 8) {
    /* Powers H'^8..H'^1 two per register, in block order. */
    __m256i p[4];
    for (int j = 0; j < 4; j++) p[j] = _mm256_loadu_si256((const __m256i *)gk->hdesc[8 + 2 * j]);
    for (; nblocks >= 8; nblocks -= 8, in += 128) {
      __m256i lo = _mm256_setzero_si256(), mid = lo, hi = lo;
      __m256i x0 = _mm256_xor_si256(load2(in), _mm256_zextsi128_si256(acc));
      mul_acc2(x0, p[0], &lo, &mid, &hi);
      AES_UNROLL
      for (int j = 1; j < 4; j++) mul_acc2(load2(in + 32 * j), p[j], &lo, &mid, &hi);
      acc = ghash_clmul_reduce(fold2(lo), fold2(mid), fold2(hi));
    }
    fm_zeroize(p, sizeof p); /* powers of H a register spill may have left on the stack */
  }
  if (nblocks > 0) acc = clmul_pass(gk, acc, in, nblocks);
  _mm_storeu_si128((__m128i *)y, acc);
}

/* ---- 512-bit registers: four blocks per register, sixteen per pass ------------------------ */

VPCLMUL512_FN static inline __m512i load4(const uint8_t *p) {
  const __m512i rev = _mm512_broadcast_i32x4(
      _mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0));
  return _mm512_shuffle_epi8(_mm512_loadu_si512((const void *)p), rev);
}

VPCLMUL512_FN static inline void mul_acc4(__m512i a, __m512i b, __m512i *lo, __m512i *mid,
                                          __m512i *hi) {
  *lo = _mm512_xor_si512(*lo, _mm512_clmulepi64_epi128(a, b, 0x00));
  *hi = _mm512_xor_si512(*hi, _mm512_clmulepi64_epi128(a, b, 0x11));
  /* vpternlogq 0x96: a ^ b ^ c in one instruction. */
  *mid = _mm512_ternarylogic_epi64(*mid, _mm512_clmulepi64_epi128(a, b, 0x01),
                                   _mm512_clmulepi64_epi128(a, b, 0x10), 0x96);
}

VPCLMUL512_FN static inline __m128i fold4(__m512i v) {
  const __m256i h = _mm256_xor_si256(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64(v, 1));
  return _mm_xor_si128(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
}

/* vpclmul512_pass absorbs n (VPCLMUL512_PASS_MIN..15, public) blocks with one reduction, four
 * blocks a register (block j times H'^(n - j), hdesc[16 - n + j]): the loads of the blocks and of
 * the powers are masked to the n blocks (nothing past them is read). On a core whose carry-less
 * multiply takes as long at every width (Zen 5: one every 2 cycles, xmm or zmm), clmul_pass's
 * four 128-bit multiplies a block cost four times these: 14 blocks take 112 cycles of multiplies
 * there against 32 here (a 192-byte one-shot seal, 13-byte AAD: 12-20% less time, both builds in
 * one process, interleaved). Below 8 blocks clmul_pass stays: the folds of the 512-bit sums add
 * latency that its fewer multiplies do not repay (2 blocks measured slower). */
#define VPCLMUL512_PASS_MIN 8
VPCLMUL512_FN static inline __m128i vpclmul512_pass(const ghash_key *gk, __m128i acc,
                                                     const uint8_t *in, size_t n) {
  const __m512i rev = _mm512_broadcast_i32x4(
      _mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0));
  const uint8_t *hp = (const uint8_t *)gk->hdesc + 16 * (16 - n);
  __m512i lo = _mm512_setzero_si512(), mid = lo, hi = lo;
  AES_UNROLL
  for (size_t j = 0; j < 4; j++) {
    if (4 * j >= n) break;
    const __mmask8 m = aes_qmask4((long)(n - 4 * j));
    __m512i x = _mm512_shuffle_epi8(_mm512_maskz_loadu_epi64(m, in + 64 * j), rev);
    if (j == 0) x = _mm512_xor_si512(x, _mm512_zextsi128_si512(acc));
    mul_acc4(x, _mm512_maskz_loadu_epi64(m, hp + 64 * j), &lo, &mid, &hi);
  }
  return ghash_clmul_reduce(fold4(lo), fold4(mid), fold4(hi));
}

VPCLMUL512_FN void ghash_vpclmul512_blocks(const ghash_key *gk, uint64_t y[2], const uint8_t *in,
                                           size_t nblocks) {
  __m128i acc = _mm_loadu_si128((const __m128i *)y);
  /* Powers H'^16..H'^1 four per register, in block order; wiped after the state is stored, so
   * that no secret is live across the wipe's call (a vector register it would save on the
   * stack, below the caller's frame). */
  __m512i p[4];
  const bool whole = nblocks >= 16;
  if (whole) {
    for (int j = 0; j < 4; j++) p[j] = _mm512_loadu_si512((const void *)gk->hdesc[4 * j]);
    for (; nblocks >= 16; nblocks -= 16, in += 256) {
      __m512i lo = _mm512_setzero_si512(), mid = lo, hi = lo;
      __m512i x0 = _mm512_xor_si512(load4(in), _mm512_zextsi128_si512(acc));
      mul_acc4(x0, p[0], &lo, &mid, &hi);
      AES_UNROLL
      for (int j = 1; j < 4; j++) mul_acc4(load4(in + 64 * j), p[j], &lo, &mid, &hi);
      acc = ghash_clmul_reduce(fold4(lo), fold4(mid), fold4(hi));
    }
  }
  if (nblocks >= VPCLMUL512_PASS_MIN) {
    acc = vpclmul512_pass(gk, acc, in, nblocks);
  } else if (nblocks > 0) {
    acc = clmul_pass(gk, acc, in, nblocks);
  }
  _mm_storeu_si128((__m128i *)y, acc);
  if (whole) fm_zeroize(p, sizeof p); /* powers of H the array kept on the stack */
}
