/* mlkem_stack_wipe: the stack wipe the ML-KEM services run after computing (internal.h).
 *
 * The functions of the unit wipe every named intermediate, but the compiler also spills
 * coefficients, hash states and masks to frame slots that C cannot name. The wipe is a function
 * of its own, not inlined, whose frame is the array it zeroizes, so the array lies just below the
 * caller's frame: where the frames of the computation it has just returned from were. Volatile
 * stores, so that the compiler can neither drop them nor turn them into a memset call. Not
 * instrumented by ASan, whose redzones would leave parts of the region unwiped. */
#include "module/mlkem/internal.h"

#if defined(__SSE2__)
#include <emmintrin.h>

/* 16-byte stores: half as many as 8-byte ones for the 40 KiB. */
__attribute__((noinline, no_sanitize_address)) void mlkem_stack_wipe(void) {
  __m128i area[MLKEM_STACK_WIPE / 16];
  volatile __m128i *p = area;
  for (size_t i = 0; i < MLKEM_STACK_WIPE / 16; i++) p[i] = _mm_setzero_si128();
  __asm__ __volatile__("" : : "r"(area) : "memory");
}
#else
__attribute__((noinline, no_sanitize_address)) void mlkem_stack_wipe(void) {
  uint64_t area[MLKEM_STACK_WIPE / 8];
  volatile uint64_t *p = area;
  for (size_t i = 0; i < MLKEM_STACK_WIPE / 8; i++) p[i] = 0;
  __asm__ __volatile__("" : : "r"(area) : "memory");
}
#endif
