/* The Montgomery reduction the 128- and 256-bit carry-less GHASH kernels end with (ghash_clmul.c,
 * and the stitched GCM kernel gcm_vaes256.c; gcm_vaes.c's reduce4 is the same two folds, on four
 * lanes at once). Its target (pclmul, sse4.1) is a subset of each caller's, so it inlines into
 * all of them. */
#ifndef FIPSMOD_MODULE_AES_CLMUL_REDUCE_H
#define FIPSMOD_MODULE_AES_CLMUL_REDUCE_H

#include <immintrin.h>

/* ghash_clmul_reduce returns Mont(lo, mid, hi): the 256-bit sum (hi << 128) ^ (mid << 64) ^ lo
 * folded twice by its low word with the constant y^63 + y^62 + y^57 (0xc2 << 56), as ghash.c's
 * mont_reduce. */
__attribute__((target("pclmul,sse4.1"))) static inline __m128i ghash_clmul_reduce(__m128i lo,
                                                                                  __m128i mid,
                                                                                  __m128i hi) {
  const __m128i c = _mm_set_epi64x(0, (long long)0xc200000000000000ull);
  lo = _mm_xor_si128(lo, _mm_slli_si128(mid, 8));
  hi = _mm_xor_si128(hi, _mm_srli_si128(mid, 8));
  /* Fold 1: t0 * c lands at word 1..2; swapping the halves moves t0 up to word 2's place. */
  __m128i v = _mm_xor_si128(_mm_shuffle_epi32(lo, 0x4e), _mm_clmulepi64_si128(lo, c, 0x00));
  /* Fold 2: the same with the new word 1. */
  v = _mm_xor_si128(_mm_shuffle_epi32(v, 0x4e), _mm_clmulepi64_si128(v, c, 0x00));
  return _mm_xor_si128(hi, v);
}

#endif
