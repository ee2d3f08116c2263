/* The stack wipes that module/aes runs after its kernels (internal.h says which wipe follows
 * which kernel, and how large each is).
 *
 * A wipe zeroizes the bytes just below its caller's frame: where the frames of the kernels the
 * caller has just called were. The compiler spills round keys, cipher states, key stream and
 * GHASH sums to those frames, in slots that C cannot name (so no fm_zeroize of a local reaches
 * them). Each wipe is a function of its own, not inlined, whose frame is the array it zeroizes,
 * so the array lies exactly there: 16-byte aligned as the ABI aligns every frame, so that no
 * realignment gap is left unwiped between the return address and the array. Not instrumented by
 * ASan, whose redzones around the array would leave parts of the region unwiped. Volatile or asm
 * stores: the compiler may neither drop them nor turn them into a memset call or rep stos (slow
 * to start for a few hundred bytes). */
#include "module/aes/internal.h"

#if FM_HAVE_X86_64_PATHS
#include <immintrin.h>

/* SSE2, which every x86-64 CPU has: also the portable path's wipe. */
__attribute__((noinline, no_sanitize_address)) void aes_drbg_stack_wipe(void) {
  __m128i area[AES_DRBG_STACK_WIPE / 16];
  volatile __m128i *p = area;
  /* Fully unrolled: the DRBG's short draws are hot, and 40 stores need no loop. */
  AES_UNROLL
  for (size_t i = 0; i < AES_DRBG_STACK_WIPE / 16; i++) p[i] = _mm_setzero_si128();
  __asm__ __volatile__("" : : "r"(area) : "memory");
}

/* The bulk wipes store from inline asm, so that the array is their only local: at -O0 a C loop
 * keeps its pointer, counter and zero vector in the frame too, above the array, and the padding
 * between them (8 bytes with gcc 12) was left unwiped right where the kernels' frames began. */
static_assert(AES_BULK_STACK_WIPE % 128 == 0, "each pass stores 128 bytes");

__attribute__((noinline, no_sanitize_address)) void aes_bulk_stack_wipe_sse(void) {
  __m128i area[AES_BULK_STACK_WIPE / 16];
  __asm__ __volatile__(
      "mov %[a], %%rax\n\t"
      "lea %c[n](%[a]), %%rcx\n\t"
      "pxor %%xmm0, %%xmm0\n"
      "1:\n\t"
      "movdqa %%xmm0, (%%rax)\n\tmovdqa %%xmm0, 16(%%rax)\n\t"
      "movdqa %%xmm0, 32(%%rax)\n\tmovdqa %%xmm0, 48(%%rax)\n\t"
      "movdqa %%xmm0, 64(%%rax)\n\tmovdqa %%xmm0, 80(%%rax)\n\t"
      "movdqa %%xmm0, 96(%%rax)\n\tmovdqa %%xmm0, 112(%%rax)\n\t"
      "add $128, %%rax\n\t"
      "cmp %%rcx, %%rax\n\t"
      "jne 1b"
      :
      : [a] "r"(area), [n] "i"(AES_BULK_STACK_WIPE)
      : "rax", "rcx", "xmm0", "cc", "memory");
}

/* Half the stores of the SSE wipe: every CPU with VAES has AVX2, and both store 32 bytes a cycle
 * or more. Unaligned stores (the array is 16-byte aligned, as every frame); vzeroupper at the
 * end, since the compiler does not see the asm's use of ymm0. */
__attribute__((noinline, no_sanitize_address, target("avx2"))) void aes_bulk_stack_wipe_avx2(
    void) {
  __m128i area[AES_BULK_STACK_WIPE / 16];
  __asm__ __volatile__(
      "mov %[a], %%rax\n\t"
      "lea %c[n](%[a]), %%rcx\n\t"
      "vpxor %%xmm0, %%xmm0, %%xmm0\n"
      "1:\n\t"
      "vmovdqu %%ymm0, (%%rax)\n\tvmovdqu %%ymm0, 32(%%rax)\n\t"
      "vmovdqu %%ymm0, 64(%%rax)\n\tvmovdqu %%ymm0, 96(%%rax)\n\t"
      "add $128, %%rax\n\t"
      "cmp %%rcx, %%rax\n\t"
      "jne 1b\n\t"
      "vzeroupper"
      :
      : [a] "r"(area), [n] "i"(AES_BULK_STACK_WIPE)
      : "rax", "rcx", "xmm0", "cc", "memory");
}

/* The same with 64-byte stores where AVX-512 is in use: an unaligned store at each end of the
 * array and aligned ones between them (a store that crosses a cache line costs two). */
static_assert(AES_BULK_STACK_WIPE >= 128, "the two end stores lie inside the array");

__attribute__((noinline, no_sanitize_address, target("avx512f"))) void
aes_bulk_stack_wipe_avx512(void) {
  __m128i area[AES_BULK_STACK_WIPE / 16];
  __asm__ __volatile__(
      "vpxor %%xmm0, %%xmm0, %%xmm0\n\t"
      "lea %c[n](%[a]), %%rcx\n\t"
      "vmovdqu64 %%zmm0, (%[a])\n\t"
      "vmovdqu64 %%zmm0, -64(%%rcx)\n\t"
      "lea 64(%[a]), %%rax\n\t"
      "and $-64, %%rax\n\t"
      "and $-64, %%rcx\n"
      "1:\n\t"
      "vmovdqa64 %%zmm0, (%%rax)\n\t"
      "add $64, %%rax\n\t"
      "cmp %%rcx, %%rax\n\t"
      "jb 1b\n\t"
      "vzeroupper"
      :
      : [a] "r"(area), [n] "i"(AES_BULK_STACK_WIPE)
      : "rax", "rcx", "xmm0", "cc", "memory");
}

/* From |low| up (internal.h): the start rounded down to 64 bytes and kept inside the area, with
 * the top 64 bytes stored at least; an unaligned store at each end, aligned ones between. */
__attribute__((noinline, no_sanitize_address, target("avx512f"))) void aes_bulk_stack_wipe_from(
    uintptr_t low) {
  __m128i area[AES_BULK_STACK_WIPE / 16];
  __asm__ __volatile__(
      "vpxor %%xmm0, %%xmm0, %%xmm0\n\t"
      "lea %c[n](%[a]), %%rcx\n\t"
      "lea -64(%%rcx), %%rdx\n\t"
      "mov %[low], %%rax\n\t"
      "and $-64, %%rax\n\t"
      "cmp %[a], %%rax\n\t"
      "cmovb %[a], %%rax\n\t"
      "cmp %%rdx, %%rax\n\t"
      "cmova %%rdx, %%rax\n\t"
      "vmovdqu64 %%zmm0, (%%rax)\n\t"
      "vmovdqu64 %%zmm0, (%%rdx)\n\t"
      "add $64, %%rax\n\t"
      "and $-64, %%rax\n\t"
      "and $-64, %%rcx\n\t"
      "cmp %%rcx, %%rax\n\t"
      "jae 2f\n"
      "1:\n\t"
      "vmovdqa64 %%zmm0, (%%rax)\n\t"
      "add $64, %%rax\n\t"
      "cmp %%rcx, %%rax\n\t"
      "jb 1b\n"
      "2:\n\t"
      "vzeroupper"
      :
      : [a] "r"(area), [n] "i"(AES_BULK_STACK_WIPE), [low] "r"(low)
      : "rax", "rcx", "rdx", "xmm0", "cc", "memory");
}
#elif defined(__aarch64__)
/* aarch64: zero-register pair stores (fm_stack_wipe_area, module/internal.h), no vector register;
 * the array is the only local, 16-byte aligned like the frame. */
__attribute__((noinline, no_sanitize_address)) void aes_drbg_stack_wipe(void) {
  _Alignas(16) uint8_t area[AES_DRBG_STACK_WIPE];
  fm_stack_wipe_area(area, sizeof area);
}

__attribute__((noinline, no_sanitize_address)) void aes_bulk_stack_wipe_generic(void) {
  _Alignas(16) uint8_t area[AES_BULK_STACK_WIPE];
  fm_stack_wipe_area(area, sizeof area);
}
#else
#error "module/aes/stack_wipe.c wipes the stack on x86-64 and aarch64 only"
#endif
