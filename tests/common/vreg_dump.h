/* Dumping and zeroing the vector registers around one call, for the register residue tests
 * (tests/aes/test_aes_residue.c, tests/module/test_vreg_residue.c). x86-64 only.
 *
 * The register file is told by its kind: 0 xmm0-15, 1 ymm0-15 (AVX), 2 zmm0-31 (AVX-512F), as
 * vreg_kind reports it for this CPU, whatever FIPSMOD_CPU says. vreg_zero and vreg_dump are
 * always inlined, so that they run right before and right after the call between them: the first
 * writes only the registers, the second only reads them. */
#ifndef FIPSMOD_TESTS_COMMON_VREG_DUMP_H
#define FIPSMOD_TESTS_COMMON_VREG_DUMP_H

#include <stddef.h>
#include <stdint.h>

#if defined(__x86_64__)

/* The most bytes vreg_dump writes: 32 registers of 64 bytes. */
#define VREG_DUMP_MAX (32 * 64)

static inline int vreg_kind(void) {
  return __builtin_cpu_supports("avx512f") ? 2 : __builtin_cpu_supports("avx") ? 1 : 0;
}

/* The size of one register of |kind|, and the kind's name. */
static inline size_t vreg_size(int kind) { return kind == 2 ? 64 : kind == 1 ? 32 : 16; }
static inline const char *vreg_name(int kind) {
  return kind == 2 ? "zmm0-31" : kind == 1 ? "ymm0-15" : "xmm0-15";
}

#define VREG_STORE_X(n) "movdqu %%xmm" #n ", " #n "*16(%0)\n\t"
#define VREG_STORE_Y(n) "vmovdqu %%ymm" #n ", " #n "*32(%0)\n\t"
#define VREG_STORE_Z(n) "vmovdqu64 %%zmm" #n ", " #n "*64(%0)\n\t"
#define VREG_EACH16(M)                                                                         \
  M(0) M(1) M(2) M(3) M(4) M(5) M(6) M(7) M(8) M(9) M(10) M(11) M(12) M(13) M(14) M(15)
#define VREG_EACH16_HI(M)                                                                      \
  M(16) M(17) M(18) M(19) M(20) M(21) M(22) M(23) M(24) M(25) M(26) M(27) M(28) M(29) M(30) M(31)

/* vreg_dump stores the registers of |kind| at |dst| (VREG_DUMP_MAX bytes) and returns how many
 * bytes it wrote. */
static inline __attribute__((always_inline)) size_t vreg_dump(int kind, uint8_t *dst) {
  if (kind == 2) {
    __asm__ __volatile__(VREG_EACH16(VREG_STORE_Z) VREG_EACH16_HI(VREG_STORE_Z)
                         :
                         : "r"(dst)
                         : "memory");
    return 32 * 64;
  }
  if (kind == 1) {
    __asm__ __volatile__(VREG_EACH16(VREG_STORE_Y) : : "r"(dst) : "memory");
    return 16 * 32;
  }
  __asm__ __volatile__(VREG_EACH16(VREG_STORE_X) : : "r"(dst) : "memory");
  return 16 * 16;
}

#define VREG_ZERO_X(n) "pxor %%xmm" #n ", %%xmm" #n "\n\t"
#define VREG_ZERO_Z(n) "vpxord %%xmm" #n ", %%xmm" #n ", %%xmm" #n "\n\t"
/* xmm16-31 need no clobber: the tests, built for baseline x86-64, never use them. */
#define VREG_CLOBBER_XMM0_15                                                                 \
  "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", \
      "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "memory"

/* vreg_zero zeroes every register of |kind|, so that what the test itself left in them (its
 * copies of the secrets, say) is not taken for the call's. */
static inline __attribute__((always_inline)) void vreg_zero(int kind) {
  if (kind == 2) {
    __asm__ __volatile__("vzeroall\n\t" VREG_EACH16_HI(VREG_ZERO_Z) : : : VREG_CLOBBER_XMM0_15);
  } else if (kind == 1) {
    __asm__ __volatile__("vzeroall" : : : VREG_CLOBBER_XMM0_15);
  } else {
    __asm__ __volatile__(VREG_EACH16(VREG_ZERO_X) : : : VREG_CLOBBER_XMM0_15);
  }
}

#endif
#endif
