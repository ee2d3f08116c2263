/* FM_STACK_WIPE_FN(name, bytes) defines void name(void), a unit's stack wipe: it zeroizes |bytes|
 * bytes of stack just below its caller's frame, where the frames of the computation its caller
 * has just returned from were, so that no value the compiler spilled to a frame slot that C
 * cannot name (an intermediate of a computation on a secret) outlives the service; then the
 * vector registers (fm_wipe_vector_registers, module/internal.h). A function
 * of its own, not inlined, whose frame is the array it zeroizes; volatile stores, which the
 * compiler can neither drop nor turn into a memset call; not instrumented by ASan, whose
 * redzones would leave parts of the region unwiped. |bytes| is a multiple of 16. Each unit's
 * internal.h says how deep its services reach, as its residue test measured. */
#ifndef FIPSMOD_MODULE_STACK_WIPE_H
#define FIPSMOD_MODULE_STACK_WIPE_H

#include <stddef.h>
#include <stdint.h>

void fm_wipe_vector_registers(void); /* module/internal.h */

#if defined(__SSE2__)
#include <emmintrin.h>

#define FM_STACK_WIPE_FN(name, bytes)                                                          \
  __attribute__((noinline, no_sanitize_address)) void name(void) {                             \
    __m128i area[(bytes) / 16];                                                                \
    volatile __m128i *p = area;                                                                \
    for (size_t i = 0; i < (bytes) / 16; i++) p[i] = _mm_setzero_si128();                      \
    __asm__ __volatile__("" : : "r"(area) : "memory");                                         \
    fm_wipe_vector_registers();                                                                \
  }
#else
#define FM_STACK_WIPE_FN(name, bytes)                                                          \
  __attribute__((noinline, no_sanitize_address)) void name(void) {                             \
    uint64_t area[(bytes) / 8];                                                                \
    volatile uint64_t *p = area;                                                               \
    for (size_t i = 0; i < (bytes) / 8; i++) p[i] = 0;                                         \
    __asm__ __volatile__("" : : "r"(area) : "memory");                                         \
    fm_wipe_vector_registers();                                                                \
  }
#endif

/* FM_STACK_WIPE_INSTRUMENTED: sanitizers keep every intermediate in memory, in larger frames;
 * the units that include this header wipe more there (a margin, not a measurement: their residue
 * tests run in the uninstrumented builds). The build never compiles the module at -O0 (Debug
 * builds compile it at -O2: CMakeLists.txt, fipsmod_boundary_target); a module forced to -O0 gets
 * the optimized builds' sizes, so that ML-DSA still fits a 64 KiB thread stack, and its residue
 * tests fail. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define FM_STACK_WIPE_INSTRUMENTED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define FM_STACK_WIPE_INSTRUMENTED 1
#endif
#endif

#endif
