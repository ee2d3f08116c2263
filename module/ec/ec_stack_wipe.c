/* ec_stack_wipe: the stack wipe the EC services run after computing on secrets (internal.h).
 *
 * The unit's functions wipe every named intermediate, but the compiler also spills field
 * elements, carries and masks to frame slots that C cannot name (test_ec_residue found them
 * behind ECDH, ECDSA signing, private-key import and key generation, on both paths). The wipe is a function of its
 * own, not inlined, whose frame is the array it zeroizes, so the array lies just below the
 * caller's frame: where the frames of the computation it has just returned from were. Volatile
 * stores, so that the compiler can neither drop them nor turn them into a memset call. Not
 * instrumented by ASan, whose redzones would leave parts of the region unwiped. */
#include "module/ec/internal.h"

/* EC_STACK_WIPE_FN(name, bytes) defines the wipe |name| of |bytes| bytes. */
#if defined(__SSE2__)
#include <emmintrin.h>

#define EC_STACK_WIPE_FN(name, bytes)                                                          \
  __attribute__((noinline, no_sanitize_address)) void name(void) {                             \
    __m128i area[(bytes) / 16];                                                                \
    volatile __m128i *p = area;                                                                \
    for (size_t i = 0; i < (bytes) / 16; i++) p[i] = _mm_setzero_si128();                      \
    __asm__ __volatile__("" : : "r"(area) : "memory");                                         \
  }
#else
#define EC_STACK_WIPE_FN(name, bytes)                                                          \
  __attribute__((noinline, no_sanitize_address)) void name(void) {                             \
    uint64_t area[(bytes) / 8];                                                                \
    volatile uint64_t *p = area;                                                               \
    for (size_t i = 0; i < (bytes) / 8; i++) p[i] = 0;                                         \
    __asm__ __volatile__("" : : "r"(area) : "memory");                                         \
  }
#endif

EC_STACK_WIPE_FN(ec_stack_wipe, EC_STACK_WIPE)
EC_STACK_WIPE_FN(ec_stack_wipe_keygen, EC_STACK_WIPE_KEYGEN)
