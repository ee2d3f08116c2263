/* The CTR_DRBG's short generate (SP 800-90Ar1 10.2.1.5.1 steps 4-6 for up to 64 bytes) fused
 * into one pass on 128-bit AES-NI registers: the output blocks and the update's three blocks go
 * through each round together while Key's schedule is expanded on the fly (drbg_expand.h says
 * why and how). It ends with aes_drbg_stack_wipe (stack_wipe.c), as drbg_vaes.c does.
 *
 * Key, V, the round keys, the blocks, provided data and output are secret; the request length is
 * public. */
#include <immintrin.h>
#include <string.h>

#include "module/aes/internal.h"
#include "module/internal.h"

#define AESNI_FN __attribute__((target("aes,sse4.1")))

/* drbg_ctr_block returns the counter block V + i (mod 2^128) in big-endian byte order, from V as
 * two host-order halves. The 128-bit add compiles to add/adc: no branch on V (secret). */
AESNI_FN __attribute__((always_inline)) static inline __m128i drbg_ctr_block(aes_ctr_state v,
                                                                             uint64_t i) {
  const aes_ctr_state c = aes_ctr_add(v, i, 128);
  /* Low lane hi, high lane lo, then each 64-bit lane byte-reversed: bytes 0..7 = BE(hi),
   * bytes 8..15 = BE(lo). */
  const __m128i rev64 = _mm_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8);
  return _mm_shuffle_epi8(_mm_set_epi64x((long long)c.lo, (long long)c.hi), rev64);
}

/* The on-the-fly AES-256 expansion of drbg_expand.h on 128-bit registers. */
#define DX_VEC __m128i
#define DX_FN AESNI_FN
#define DX_(name) ni_##name
#define DX_LOAD16(p) _mm_loadu_si128((const __m128i *)(p))
#define DX_PATTERN(p) _mm_load_si128((const __m128i *)(p))
#define DX_XOR _mm_xor_si128
#define DX_AND _mm_and_si128
#define DX_SHUF _mm_shuffle_epi8
#define DX_BSLLI _mm_slli_si128
#define DX_AESENCLAST _mm_aesenclast_si128
#define DX_SET1 _mm_set1_epi32
#define DX_ZERO _mm_setzero_si128
#include "module/aes/drbg_expand.h"

/* drbg_small_n is aes_ni_drbg_generate_small for a constant |n| output blocks (0..4): the n + 3
 * counter blocks go through each round together as its round key comes out of the expansion. */
AESNI_FN __attribute__((always_inline)) static inline void drbg_small_n(
    uint8_t v[16], uint8_t key[32], uint8_t *out, size_t out_len, const uint8_t *provided,
    const int n) {
  ni_sched ks;
  ni_sched_init(&ks, key);
  const aes_ctr_state v0 = aes_ctr_load(v);
  __m128i x[7];
  /* 10.2.1.5.1 step 4: V = (V + 1) mod 2^128, output_block = E(Key, V), for each of the n output
   * blocks; step 6's CTR_DRBG_Update (10.2.1.2 steps 2.1-2.2) continues the same counter for its
   * three blocks: E(Key, V + n + 1 .. V + n + 3). Rounds 0 and 1 use Key itself. */
  AES_UNROLL
  for (int j = 0; j < n + 3; j++) {
    x[j] = _mm_xor_si128(drbg_ctr_block(v0, (uint64_t)j + 1), ks.rk[0]);
    x[j] = _mm_aesenc_si128(x[j], ks.rk[1]);
  }
  /* Round keys 2..14, each one step ahead of the round that uses it. */
  AES_UNROLL
  for (int i = 2; i <= 14; i++) {
    ni_sched_step(&ks, i);
    if (i >= 3) {
      AES_UNROLL
      for (int j = 0; j < n + 3; j++) x[j] = _mm_aesenc_si128(x[j], ks.rk[i - 1]);
    }
  }
  AES_UNROLL
  for (int j = 0; j < n + 3; j++) x[j] = _mm_aesenclast_si128(x[j], ks.rk[14]);

  /* Steps 5-6. */
  ni_finish(x, n, out, out_len, provided, key, v);
}

/* One function per block count (public): each keeps its rounds interleaved with the expansion.
 * In one function the compiler would hoist the count-independent expansion above the switch and
 * spill the round keys. */
#define DRBG_SMALL_COUNT(n)                                                                    \
  AESNI_FN __attribute__((noinline)) static void drbg_small_##n(                              \
      uint8_t v[16], uint8_t key[32], uint8_t *out, size_t out_len, const uint8_t *provided) { \
    drbg_small_n(v, key, out, out_len, provided, n);                                          \
  }
DRBG_SMALL_COUNT(0)
DRBG_SMALL_COUNT(1)
DRBG_SMALL_COUNT(2)
DRBG_SMALL_COUNT(3)
DRBG_SMALL_COUNT(4)

void aes_ni_drbg_generate_small(uint8_t v[16], uint8_t key[32], uint8_t *out, size_t out_len,
                                const uint8_t *provided) {
  switch ((out_len + 15) / 16) {
    case 0: drbg_small_0(v, key, out, out_len, provided); break;
    case 1: drbg_small_1(v, key, out, out_len, provided); break;
    case 2: drbg_small_2(v, key, out, out_len, provided); break;
    case 3: drbg_small_3(v, key, out, out_len, provided); break;
    default: drbg_small_4(v, key, out, out_len, provided); break;
  }
  aes_drbg_stack_wipe();
  /* Round keys, blocks, the new Key and V stay in the registers otherwise. */
  fm_clear_sse_registers();
}
