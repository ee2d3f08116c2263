/* Counter blocks on 256-bit registers, shared by the VAES bulk CTR code (aes_vaes.c) and the
 * CTR_DRBG's fused short generate on VAES (drbg_vaes.c). Each 128-bit lane holds a counter in its
 * working form: for width 128 the block reversed into a little-endian integer (low qword, high
 * qword), for width 32 the block with its last dword byte-swapped. Neither helper branches on a
 * counter's value, which may be the DRBG's secret V. */
#ifndef FIPSMOD_MODULE_AES_VAES_CTR_H
#define FIPSMOD_MODULE_AES_VAES_CTR_H

#include <immintrin.h>

#define VAES256_FN __attribute__((target("aes,sse4.1,avx2,vaes")))

/* ctr256_add returns v + inc per 128-bit lane (inc in working form): mod 2^32 in dword 3 for
 * width 32, mod 2^128 for width 128, where the carry out of the low qword (low < inc, unsigned)
 * is added into the high qword. */
VAES256_FN static inline __m256i ctr256_add(__m256i v, __m256i inc, int width) {
  if (width == 32) return _mm256_add_epi32(v, inc);
  __m256i s = _mm256_add_epi64(v, inc);
  /* Unsigned s < inc through the signed compare on sign-flipped values; the low-qword result
   * moves into the high qword of its lane (the byte shift stays inside each 128-bit lane). */
  const __m256i bias = _mm256_set1_epi64x((long long)0x8000000000000000ull);
  __m256i lt = _mm256_cmpgt_epi64(_mm256_xor_si256(inc, bias), _mm256_xor_si256(s, bias));
  return _mm256_sub_epi64(s, _mm256_slli_si256(lt, 8));
}

/* ctr256_pair returns the increments |a| (low lane) and |b| (high lane) in the working form of
 * |width|. */
VAES256_FN static inline __m256i ctr256_pair(long long a, long long b, int width) {
  return width == 32 ? _mm256_set_epi32((int)b, 0, 0, 0, (int)a, 0, 0, 0)
                     : _mm256_set_epi64x(0, b, 0, a);
}

#endif
