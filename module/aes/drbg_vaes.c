/* The CTR_DRBG's short generate (SP 800-90Ar1 10.2.1.5.1 steps 4-6 for up to 64 bytes) fused
 * into one pass on 256-bit VAES registers: drbg_ni.c's kernel with the blocks two per register.
 *
 * Key, V, the round keys, the blocks, provided data and output are secret; the request length is
 * public. */
#include <immintrin.h>
#include <string.h>

#include "module/aes/internal.h"
#include "module/aes/vaes_ctr.h"
#include "module/internal.h"

/* aes_vaes_drbg_generate_small: up to four output blocks and the update's three, two blocks per
 * 256-bit register, the key schedule expanded on the fly by drbg_expand.h (where the reason and
 * the method are) with every value broadcast over both lanes, so that each round key is ready for
 * the blocks as it comes. Key, V, the round keys and the blocks are secret and never select a
 * branch, an address or a shuffle pattern. */

#define DX_VEC __m256i
#define DX_FN VAES256_FN
#define DX_(name) vaes_##name
#define DX_LOAD16(p) _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(p)))
#define DX_PATTERN(p) _mm256_load_si256((const __m256i *)(p))
#define DX_XOR _mm256_xor_si256
#define DX_AND _mm256_and_si256
#define DX_SHUF _mm256_shuffle_epi8
#define DX_BSLLI _mm256_bslli_epi128
#define DX_AESENCLAST _mm256_aesenclast_epi128
#define DX_SET1 _mm256_set1_epi32
#define DX_ZERO _mm256_setzero_si256
#include "module/aes/drbg_expand.h"

/* k_swap128, in both lanes as one 32-byte row (a memory operand; see drbg_expand.h). */
_Alignas(32) static const uint8_t k_swap128_row[32] = DX_LANES(15, 14, 13, 12, 11, 10, 9, 8, 7, 6,
                                                               5, 4, 3, 2, 1, 0);

/* drbg_vaes_n is aes_vaes_drbg_generate_small for a constant |n| (0..4) output blocks: blocks
 * 0..n-1 are the output, n..n+2 the update's temp, two per register. */
VAES256_FN __attribute__((always_inline)) static inline void drbg_vaes_n(
    uint8_t v[16], uint8_t key[32], uint8_t *out, size_t out_len, const uint8_t *provided,
    const int n) {
  const int ny = (n + 4) / 2; /* registers for the n + 3 blocks */
  vaes_sched x;
  __m256i y[4];
  vaes_sched_init(&x, key);

  /* 10.2.1.5.1 step 4 and step 6's update (10.2.1.2 steps 2.1-2.2): E(Key, V + 1 .. V + n + 3),
   * whitened with round key 0 and given round 1. */
  const __m256i swap = DX_PATTERN(k_swap128_row);
  const __m256i v_le = _mm256_shuffle_epi8(DX_LOAD16(v), swap);
  AES_UNROLL
  for (int j = 0; j < ny; j++) {
    const __m256i ctr = ctr256_add(v_le, ctr256_pair(2 * j + 1, 2 * j + 2, 128), 128);
    y[j] = _mm256_xor_si256(_mm256_shuffle_epi8(ctr, swap), x.rk[0]);
    y[j] = _mm256_aesenc_epi128(y[j], x.rk[1]);
  }
  /* Round keys 2..14, each one step ahead of the round that uses it. */
  AES_UNROLL
  for (int i = 2; i <= 14; i++) {
    vaes_sched_step(&x, i);
    if (i >= 3) {
      AES_UNROLL
      for (int j = 0; j < ny; j++) y[j] = _mm256_aesenc_epi128(y[j], x.rk[i - 1]);
    }
  }
  AES_UNROLL
  for (int j = 0; j < ny; j++) y[j] = _mm256_aesenclast_epi128(y[j], x.rk[14]);

  /* Steps 5-6, on the blocks one per 128-bit register. */
  __m128i blk[8];
  AES_UNROLL
  for (int b = 0; b < n + 3; b++) {
    blk[b] = (b & 1) ? _mm256_extracti128_si256(y[b / 2], 1) : _mm256_castsi256_si128(y[b / 2]);
  }
  vaes_finish(blk, n, out, out_len, provided, key, v);
}

/* One function per block count (public): each keeps its rounds interleaved with the expansion.
 * In one function the compiler would hoist the count-independent expansion above the switch and
 * spill the round keys. */
#define DRBG_VAES_COUNT(n)                                                                     \
  VAES256_FN __attribute__((noinline)) static void drbg_vaes_##n(                             \
      uint8_t v[16], uint8_t key[32], uint8_t *out, size_t out_len, const uint8_t *provided) { \
    drbg_vaes_n(v, key, out, out_len, provided, n);                                           \
  }
DRBG_VAES_COUNT(0)
DRBG_VAES_COUNT(1)
DRBG_VAES_COUNT(2)
DRBG_VAES_COUNT(3)
DRBG_VAES_COUNT(4)

void aes_vaes_drbg_generate_small(uint8_t v[16], uint8_t key[32], uint8_t *out, size_t out_len,
                                  const uint8_t *provided) {
  switch ((out_len + 15) / 16) {
    case 0: drbg_vaes_0(v, key, out, out_len, provided); break;
    case 1: drbg_vaes_1(v, key, out, out_len, provided); break;
    case 2: drbg_vaes_2(v, key, out, out_len, provided); break;
    case 3: drbg_vaes_3(v, key, out, out_len, provided); break;
    default: drbg_vaes_4(v, key, out, out_len, provided); break;
  }
  /* Round keys or blocks the compiler spilled lie in drbg_vaes's dead frame. */
  aes_drbg_stack_wipe();
  /* ... and in the registers: all 256 bits of ymm0-15, which the kernel used (this function
   * runs only where the CPU has VAES, hence AVX). */
  fm_clear_avx_registers();
}
