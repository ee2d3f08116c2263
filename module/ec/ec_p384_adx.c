/* The P-384 field product for CPUs with BMI2 and ADX, in inline assembly: the word-by-word
 * Montgomery multiplication (CIOS) of mont_mul_k, written for the prime's form
 * p = 2^384 - c, c = 2^128 + 2^96 - 2^32 + 1. ec_point.c and ec_verify.c call it when
 * fm_cpu_use(FM_CPU_BMI2) and fm_cpu_use(FM_CPU_ADX), and the portable build of mont_mul_k
 * otherwise (other CPUs, FIPSMOD_CPU=portable). Constant time: no value drives a branch or an
 * address; the final subtraction of p is selected by mask.
 *
 * Each round adds a * b[i] with two carry chains at once (ADCX on the carry flag for the low
 * halves of the MULX products, ADOX on the overflow flag for the high halves), then reduces one
 * word. -p^-1 = 2^32 + 1 mod 2^64, so the round's quotient is w = t0 + (t0 << 32), and
 * t + w p = t + w 2^384 - w c, where w c = t0 + 2^64 X exactly (its low word is t0 by the choice
 * of w) and X = floor(w c / 2^64) takes two MULX by the words of c - 2^128 plus w 2^64: the round
 * leaves (t + w p) / 2^64 = t / 2^64 (t0 dropped) - X + w 2^320. The eight accumulator words
 * rotate, the word a round clears becoming the next round's top word, so nothing is shifted or
 * spilled; the running value stays below 2p (the CIOS bound), at most two words past the limbs
 * before a reduction. */
#include <immintrin.h>
#include <stdint.h>

#include "module/ec/internal.h"
#include "module/internal.h"

/* One round: X0..X7 are the accumulator words t_i .. t_{i+7} (X7 is zero on entry), OFF the
 * byte offset of b[i]. */
#define P384_ROUND(OFF, X0, X1, X2, X3, X4, X5, X6, X7)                                       \
  "xorl %k[lo], %k[lo]\n\t" /* CF = OF = 0 */                                                 \
  "movq " #OFF "(%[b]), %%rdx\n\t"                                                             \
  "mulxq 0(%[a]), %[lo], %[hi]\n\t"                                                            \
  "adcxq %[lo], %[" #X0 "]\n\t"                                                                \
  "adoxq %[hi], %[" #X1 "]\n\t"                                                                \
  "mulxq 8(%[a]), %[lo], %[hi]\n\t"                                                            \
  "adcxq %[lo], %[" #X1 "]\n\t"                                                                \
  "adoxq %[hi], %[" #X2 "]\n\t"                                                                \
  "mulxq 16(%[a]), %[lo], %[hi]\n\t"                                                           \
  "adcxq %[lo], %[" #X2 "]\n\t"                                                                \
  "adoxq %[hi], %[" #X3 "]\n\t"                                                                \
  "mulxq 24(%[a]), %[lo], %[hi]\n\t"                                                           \
  "adcxq %[lo], %[" #X3 "]\n\t"                                                                \
  "adoxq %[hi], %[" #X4 "]\n\t"                                                                \
  "mulxq 32(%[a]), %[lo], %[hi]\n\t"                                                           \
  "adcxq %[lo], %[" #X4 "]\n\t"                                                                \
  "adoxq %[hi], %[" #X5 "]\n\t"                                                                \
  "mulxq 40(%[a]), %[lo], %[hi]\n\t"                                                           \
  "adcxq %[lo], %[" #X5 "]\n\t"                                                                \
  "adoxq %[hi], %[" #X6 "]\n\t"                                                                \
  "adcxq %[zero], %[" #X6 "]\n\t"                                                              \
  "adoxq %[zero], %[" #X7 "]\n\t"                                                              \
  "adcxq %[zero], %[" #X7 "]\n\t"                                                              \
  "movq %[" #X0 "], %%rdx\n\t" /* w = t0 (2^32 + 1) */                                         \
  "shlq $32, %%rdx\n\t"                                                                        \
  "addq %[" #X0 "], %%rdx\n\t"                                                                 \
  "mulxq %[k0], %[" #X0 "], %[hi]\n\t" /* the low word is t0 again */                           \
  "mulxq %[k1], %[lo], %[" #X0 "]\n\t"                                                         \
  "addq %[lo], %[hi]\n\t" /* X = hi, X0, lo */                                                 \
  "adcq %%rdx, %[" #X0 "]\n\t"                                                                 \
  "movl $0, %k[lo]\n\t"                                                                        \
  "adcl $0, %k[lo]\n\t"                                                                        \
  "subq %[hi], %[" #X1 "]\n\t"                                                                 \
  "sbbq %[" #X0 "], %[" #X2 "]\n\t"                                                            \
  "sbbq %[lo], %[" #X3 "]\n\t"                                                                 \
  "sbbq $0, %[" #X4 "]\n\t"                                                                    \
  "sbbq $0, %[" #X5 "]\n\t"                                                                    \
  "sbbq $0, %[" #X6 "]\n\t"                                                                    \
  "sbbq $0, %[" #X7 "]\n\t"                                                                    \
  "addq %%rdx, %[" #X6 "]\n\t" /* + w 2^320 */                                                 \
  "adcq $0, %[" #X7 "]\n\t"                                                                    \
  "movl $0, %k[" #X0 "]\n\t"

__attribute__((target("bmi2,adx"))) void ec_p384_mul_adx(uint64_t *r, const uint64_t *a,
                                                         const uint64_t *b) {
  /* p's words, and c - 2^128 = 2^96 - 2^32 + 1 in two words, and a zero for the carry chains. */
  static const uint64_t kP[6] = {0x00000000ffffffffu, 0xffffffff00000000u, 0xfffffffffffffffeu,
                                 0xffffffffffffffffu, 0xffffffffffffffffu, 0xffffffffffffffffu};
  static const uint64_t kK[3] = {0xffffffff00000001u, 0x00000000ffffffffu, 0};
  uint64_t r0 = 0, r1 = 0, r2 = 0, r3 = 0, r4 = 0, r5 = 0, r6 = 0, r7 = 0, lo, hi;
  __asm__(P384_ROUND(0, r0, r1, r2, r3, r4, r5, r6, r7)
          P384_ROUND(8, r1, r2, r3, r4, r5, r6, r7, r0)
          P384_ROUND(16, r2, r3, r4, r5, r6, r7, r0, r1)
          P384_ROUND(24, r3, r4, r5, r6, r7, r0, r1, r2)
          P384_ROUND(32, r4, r5, r6, r7, r0, r1, r2, r3)
          P384_ROUND(40, r5, r6, r7, r0, r1, r2, r3, r4)
          : [r0] "+&r"(r0), [r1] "+&r"(r1), [r2] "+&r"(r2), [r3] "+&r"(r3), [r4] "+&r"(r4),
            [r5] "+&r"(r5), [r6] "+&r"(r6), [r7] "+&r"(r7), [lo] "=&r"(lo), [hi] "=&r"(hi)
          : [a] "r"(a), [b] "r"(b), [k0] "m"(kK[0]), [k1] "m"(kK[1]), [zero] "m"(kK[2]),
            "m"(*(const uint64_t(*)[6])a), "m"(*(const uint64_t(*)[6])b)
          : "rdx", "cc");
  /* The result is r6, r7, r0, r1, r2, r3 with the carry word r4, below 2p: subtract p, and keep
   * the value when that borrows out of the carry word. */
  const uint64_t t[6] = {r6, r7, r0, r1, r2, r3};
  unsigned long long s[6], top;
  unsigned char c = 0;
  for (unsigned j = 0; j < 6; j++) c = _subborrow_u64(c, t[j], kP[j], &s[j]);
  c = _subborrow_u64(c, r4, 0, &top);
  const uint64_t keep = ct_value_barrier_u64(0u - (uint64_t)c); /* all-ones when the value < p */
  for (unsigned j = 0; j < 6; j++) r[j] = ct_select_u64(keep, t[j], s[j]);
  (void)top;
  (void)lo;
  (void)hi;
  (void)r5;
}
