/* The stack wipes that module/aes runs after its kernels (internal.h says which wipe follows
 * which kernel, and how large each is).
 *
 * A wipe zeroizes the bytes just below its caller's frame: where the frames of the kernels the
 * caller has just called were. The compiler spills round keys, cipher states, key stream and
 * GHASH sums to those frames, in slots that C cannot name (so no fm_zeroize of a local reaches
 * them). Each wipe is a function of its own, not inlined, whose frame is the array it zeroizes,
 * so the array lies exactly there: 16-byte aligned as the ABI aligns every frame, so that no
 * realignment gap is left unwiped between the return address and the array. Not instrumented by
 * ASan, whose redzones around the array would leave parts of the region unwiped. Volatile
 * stores: the compiler may neither drop them nor turn them into a memset call or rep stos (slow
 * to start for a few hundred bytes). */
#include <immintrin.h>

#include "module/aes/internal.h"

/* SSE2, which every x86-64 CPU has: also the portable path's wipe. */
__attribute__((noinline, no_sanitize_address)) void aes_drbg_stack_wipe(void) {
  __m128i area[AES_DRBG_STACK_WIPE / 16];
  volatile __m128i *p = area;
  /* Fully unrolled: the DRBG's short draws are hot, and 40 stores need no loop. */
  AES_UNROLL
  for (size_t i = 0; i < AES_DRBG_STACK_WIPE / 16; i++) p[i] = _mm_setzero_si128();
  __asm__ __volatile__("" : : "r"(area) : "memory");
}

__attribute__((noinline, no_sanitize_address)) void aes_bulk_stack_wipe_sse(void) {
  __m128i area[AES_BULK_STACK_WIPE / 16];
  volatile __m128i *p = area;
  for (size_t i = 0; i < AES_BULK_STACK_WIPE / 16; i += 8) {
    AES_UNROLL
    for (size_t j = 0; j < 8; j++) p[i + j] = _mm_setzero_si128();
  }
  __asm__ __volatile__("" : : "r"(area) : "memory");
}

/* A 32-byte vector that may lie at any address: the array is only 16-byte aligned. */
typedef long long aes_wipe_v32 __attribute__((vector_size(32), aligned(1)));

/* Half the stores of the SSE wipe: every CPU with VAES has AVX2, and both store 32 bytes a cycle
 * or more. The compiler ends the function with vzeroupper. */
__attribute__((noinline, no_sanitize_address, target("avx2"))) void aes_bulk_stack_wipe_avx2(
    void) {
  __m128i area[AES_BULK_STACK_WIPE / 16];
  volatile aes_wipe_v32 *p = (volatile aes_wipe_v32 *)(void *)area;
  const aes_wipe_v32 zero = {0, 0, 0, 0};
  for (size_t i = 0; i < AES_BULK_STACK_WIPE / 32; i += 4) {
    AES_UNROLL
    for (size_t j = 0; j < 4; j++) p[i + j] = zero;
  }
  __asm__ __volatile__("" : : "r"(area) : "memory");
}
