/* The P-384 field product for CPUs with BMI2 and ADX, in inline assembly: the word-by-word
 * Montgomery multiplication (CIOS) of mont_mul_k, written for the prime's form
 * p = 2^384 - c, c = 2^128 + 2^96 - 2^32 + 1. ec_point.c and ec_verify.c call it when
 * fm_cpu_use(FM_CPU_BMI2) and fm_cpu_use(FM_CPU_ADX), and the portable build of mont_mul_k
 * otherwise (other CPUs, FIPSMOD_CPU=portable). Constant time: no value drives a branch or an
 * address; the final subtraction of p is kept or dropped by conditional moves.
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

/* p's two low words (the others are -2, -1, -1, -1 as immediates), c - 2^128 = 2^96 - 2^32 + 1 in
 * two words, and a zero for the carry chains. */
static const uint64_t kP0 = 0x00000000ffffffffu, kP1 = 0xffffffff00000000u;
static const uint64_t kK[3] = {0xffffffff00000001u, 0x00000000ffffffffu, 0};

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

/* Subtracts p from the six words X0..X5 and their carry word TOP: the carry flag is then set
 * exactly when the value was below p. */
#define P384_SUB_P(X0, X1, X2, X3, X4, X5, TOP)                                                \
  "subq %[p0], %[" #X0 "]\n\t"                                                                 \
  "sbbq %[p1], %[" #X1 "]\n\t"                                                                 \
  "sbbq $-2, %[" #X2 "]\n\t"                                                                   \
  "sbbq $-1, %[" #X3 "]\n\t"                                                                   \
  "sbbq $-1, %[" #X4 "]\n\t"                                                                   \
  "sbbq $-1, " #X5 "\n\t"                                                                      \
  "sbbq $0, %[" #TOP "]\n\t"

__attribute__((target("bmi2,adx"))) void ec_p384_mul_adx(uint64_t *r, const uint64_t *a,
                                                         const uint64_t *b) {
  uint64_t r0 = 0, r1 = 0, r2 = 0, r3 = 0, r4 = 0, r5 = 0, r6 = 0, r7 = 0, lo, hi;
  const uint64_t *pa = a, *pb = b; /* free for the final subtraction once read */
  __asm__(P384_ROUND(0, r0, r1, r2, r3, r4, r5, r6, r7)
          P384_ROUND(8, r1, r2, r3, r4, r5, r6, r7, r0)
          P384_ROUND(16, r2, r3, r4, r5, r6, r7, r0, r1)
          P384_ROUND(24, r3, r4, r5, r6, r7, r0, r1, r2)
          P384_ROUND(32, r4, r5, r6, r7, r0, r1, r2, r3)
          P384_ROUND(40, r5, r6, r7, r0, r1, r2, r3, r4)
          /* The result is r6, r7, r0, r1, r2, r3 with the carry word r4, below 2p: subtract p
           * into the free registers, and keep the value where that borrows out of r4. */
          "movq %[r6], %[r5]\n\t"
          "movq %[r7], %[lo]\n\t"
          "movq %[r0], %[hi]\n\t"
          "movq %[r1], %[a]\n\t"
          "movq %[r2], %[b]\n\t"
          "movq %[r3], %%rdx\n\t"
          P384_SUB_P(r5, lo, hi, a, b, %%rdx, r4)
          "cmovncq %[r5], %[r6]\n\t"
          "cmovncq %[lo], %[r7]\n\t"
          "cmovncq %[hi], %[r0]\n\t"
          "cmovncq %[a], %[r1]\n\t"
          "cmovncq %[b], %[r2]\n\t"
          "cmovncq %%rdx, %[r3]\n\t"
          : [r0] "+&r"(r0), [r1] "+&r"(r1), [r2] "+&r"(r2), [r3] "+&r"(r3), [r4] "+&r"(r4),
            [r5] "+&r"(r5), [r6] "+&r"(r6), [r7] "+&r"(r7), [lo] "=&r"(lo), [hi] "=&r"(hi),
            [a] "+&r"(pa), [b] "+&r"(pb)
          : [k0] "m"(kK[0]), [k1] "m"(kK[1]), [zero] "m"(kK[2]), [p0] "m"(kP0), [p1] "m"(kP1)
          : "rdx", "cc", "memory"); /* reads a[0..5] and b[0..5] */
  r[0] = r6;
  r[1] = r7;
  r[2] = r0;
  r[3] = r1;
  r[4] = r2;
  r[5] = r3;
  (void)lo;
  (void)hi;
  (void)r4;
  (void)r5;
  (void)pa;
  (void)pb;
}

/* One reduction round of the square: X0..X5 are the low words t_i .. t_{i+5} of the number being
 * reduced, X6 its top word; X0, cleared, becomes the new top word. */
#define P384_REDUCE(X0, X1, X2, X3, X4, X5, X6)                                                \
  "movq %[" #X0 "], %%rdx\n\t" /* w = t0 (2^32 + 1) */                                         \
  "shlq $32, %%rdx\n\t"                                                                        \
  "addq %[" #X0 "], %%rdx\n\t"                                                                 \
  "mulxq %[k0], %[" #X0 "], %[hi]\n\t"                                                         \
  "mulxq %[k1], %[lo], %[" #X0 "]\n\t"                                                         \
  "addq %[lo], %[hi]\n\t"                                                                      \
  "adcq %%rdx, %[" #X0 "]\n\t"                                                                 \
  "movl $0, %k[lo]\n\t"                                                                        \
  "adcl $0, %k[lo]\n\t"                                                                        \
  "subq %[hi], %[" #X1 "]\n\t"                                                                 \
  "sbbq %[" #X0 "], %[" #X2 "]\n\t"                                                            \
  "sbbq %[lo], %[" #X3 "]\n\t"                                                                 \
  "sbbq $0, %[" #X4 "]\n\t"                                                                    \
  "sbbq $0, %[" #X5 "]\n\t"                                                                    \
  "sbbq $0, %[" #X6 "]\n\t"                                                                    \
  "movl $0, %k[" #X0 "]\n\t"                                                                   \
  "sbbq $0, %[" #X0 "]\n\t"                                                                    \
  "addq %%rdx, %[" #X6 "]\n\t" /* + w 2^320 */                                                 \
  "adcq $0, %[" #X0 "]\n\t"

/* Doubles the cross-product word at OFF(t) on the carry chain, adds SQ on the overflow chain and
 * leaves it in X. */
#define P384_DBL(OFF, X, SQ)                                                                   \
  "movq " #OFF "(%[t]), %[" #X "]\n\t"                                                         \
  "adcxq %[" #X "], %[" #X "]\n\t"                                                             \
  "adoxq %[" #SQ "], %[" #X "]\n\t"
#define P384_DBL_STORE(OFF, SQ)                                                                \
  P384_DBL(OFF, q6, SQ) "movq %[q6], " #OFF "(%[t])\n\t"

/* ec_p384_sqr_adx sets r = a^2 R^-1 mod p: the fifteen cross products a_i a_j (i < j) row by row
 * into words 1..10 of a twelve-word buffer, doubled on the carry chain while the six squares
 * a_i^2 go in on the overflow chain (21 MULX against 36), the low six words kept in registers and
 * reduced by six rounds to at most p, and the high six words added: the sum is below 2p, and one
 * subtraction of p is kept when it does not borrow. The assembly wipes the buffer. */
__attribute__((target("bmi2,adx"))) void ec_p384_sqr_adx(uint64_t *r, const uint64_t *a) {
  uint64_t t[12];
  uint64_t q0, q1, q2, q3, q4, q5, q6, lo, hi;
  __asm__(""
      "xorl %k[lo], %k[lo]\n\t" /* row 0: a0 a1..a5 into words 1..6 */
      "movq 0(%[a]), %%rdx\n\t"
      "mulxq 8(%[a]), %[q1], %[q2]\n\t"
      "mulxq 16(%[a]), %[lo], %[q3]\n\t"
      "adcxq %[lo], %[q2]\n\t"
      "mulxq 24(%[a]), %[lo], %[q4]\n\t"
      "adcxq %[lo], %[q3]\n\t"
      "mulxq 32(%[a]), %[lo], %[q5]\n\t"
      "adcxq %[lo], %[q4]\n\t"
      "mulxq 40(%[a]), %[lo], %[q6]\n\t"
      "adcxq %[lo], %[q5]\n\t"
      "adcxq %[zero], %[q6]\n\t"
      "movq %[q1], 8(%[t])\n\t"
      "movq %[q2], 16(%[t])\n\t"
      "xorl %k[lo], %k[lo]\n\t" /* row 1: a1 a2..a5 into words 3..7 */
      "movq 8(%[a]), %%rdx\n\t"
      "mulxq 16(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[q3]\n\t"
      "adoxq %[hi], %[q4]\n\t"
      "mulxq 24(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[q4]\n\t"
      "adoxq %[hi], %[q5]\n\t"
      "mulxq 32(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[q5]\n\t"
      "adoxq %[hi], %[q6]\n\t"
      "mulxq 40(%[a]), %[lo], %[q1]\n\t"
      "adcxq %[lo], %[q6]\n\t"
      "adoxq %[zero], %[q1]\n\t"
      "adcxq %[zero], %[q1]\n\t"
      "movq %[q3], 24(%[t])\n\t"
      "movq %[q4], 32(%[t])\n\t"
      "xorl %k[lo], %k[lo]\n\t" /* row 2: a2 a3..a5 into words 5..8 */
      "movq 16(%[a]), %%rdx\n\t"
      "mulxq 24(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[q5]\n\t"
      "adoxq %[hi], %[q6]\n\t"
      "mulxq 32(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[q6]\n\t"
      "adoxq %[hi], %[q1]\n\t"
      "mulxq 40(%[a]), %[lo], %[q2]\n\t"
      "adcxq %[lo], %[q1]\n\t"
      "adoxq %[zero], %[q2]\n\t"
      "adcxq %[zero], %[q2]\n\t"
      "movq %[q5], 40(%[t])\n\t"
      "movq %[q6], 48(%[t])\n\t"
      "xorl %k[lo], %k[lo]\n\t" /* row 3: a3 a4, a3 a5 into words 7..9 */
      "movq 24(%[a]), %%rdx\n\t"
      "mulxq 32(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[q1]\n\t"
      "adoxq %[hi], %[q2]\n\t"
      "mulxq 40(%[a]), %[lo], %[q3]\n\t"
      "adcxq %[lo], %[q2]\n\t"
      "adoxq %[zero], %[q3]\n\t"
      "adcxq %[zero], %[q3]\n\t"
      "movq 32(%[a]), %%rdx\n\t" /* row 4: a4 a5 into words 9, 10 */
      "mulxq 40(%[a]), %[lo], %[q4]\n\t"
      "addq %[lo], %[q3]\n\t"
      "adcq $0, %[q4]\n\t"
      "movq %[q1], 56(%[t])\n\t"
      "movq %[q2], 64(%[t])\n\t"
      "movq %[q3], 72(%[t])\n\t"
      "movq %[q4], 80(%[t])\n\t"
      "xorl %k[lo], %k[lo]\n\t" /* twice the cross products (CF) plus the squares (OF) */
      "movq 0(%[a]), %%rdx\n\t"
      "mulxq %%rdx, %[q0], %[hi]\n\t"
      P384_DBL(8, q1, hi)
      "movq 8(%[a]), %%rdx\n\t"
      "mulxq %%rdx, %[lo], %[hi]\n\t"
      P384_DBL(16, q2, lo)
      P384_DBL(24, q3, hi)
      "movq 16(%[a]), %%rdx\n\t"
      "mulxq %%rdx, %[lo], %[hi]\n\t"
      P384_DBL(32, q4, lo)
      P384_DBL(40, q5, hi)
      "movq 24(%[a]), %%rdx\n\t"
      "mulxq %%rdx, %[lo], %[hi]\n\t"
      P384_DBL_STORE(48, lo)
      P384_DBL_STORE(56, hi)
      "movq 32(%[a]), %%rdx\n\t"
      "mulxq %%rdx, %[lo], %[hi]\n\t"
      P384_DBL_STORE(64, lo)
      P384_DBL_STORE(72, hi)
      "movq 40(%[a]), %%rdx\n\t"
      "mulxq %%rdx, %[lo], %[hi]\n\t"
      P384_DBL_STORE(80, lo)
      "movl $0, %k[q6]\n\t" /* word 11 has no cross product */
      "adcxq %[q6], %[q6]\n\t"
      "adoxq %[hi], %[q6]\n\t"
      "movq %[q6], 88(%[t])\n\t"
      "movl $0, %k[q6]\n\t" /* reduce words 0..5, top word q6 */
      P384_REDUCE(q0, q1, q2, q3, q4, q5, q6)
      P384_REDUCE(q1, q2, q3, q4, q5, q6, q0)
      P384_REDUCE(q2, q3, q4, q5, q6, q0, q1)
      P384_REDUCE(q3, q4, q5, q6, q0, q1, q2)
      P384_REDUCE(q4, q5, q6, q0, q1, q2, q3)
      P384_REDUCE(q5, q6, q0, q1, q2, q3, q4)
      "addq 48(%[t]), %[q6]\n\t" /* plus words 6..11 */
      "adcq 56(%[t]), %[q0]\n\t"
      "adcq 64(%[t]), %[q1]\n\t"
      "adcq 72(%[t]), %[q2]\n\t"
      "adcq 80(%[t]), %[q3]\n\t"
      "adcq 88(%[t]), %[q4]\n\t"
      "adcq $0, %[q5]\n\t"
      "movq %[q6], 8(%[t])\n\t" /* the sum, below 2p, less p where that does not borrow */
      "movq %[q0], 16(%[t])\n\t"
      "movq %[q1], 24(%[t])\n\t"
      "movq %[q2], 32(%[t])\n\t"
      "movq %[q3], 40(%[t])\n\t"
      "movq %[q4], 48(%[t])\n\t"
      P384_SUB_P(q6, q0, q1, q2, q3, %[q4], q5)
      "cmovcq 8(%[t]), %[q6]\n\t"
      "cmovcq 16(%[t]), %[q0]\n\t"
      "cmovcq 24(%[t]), %[q1]\n\t"
      "cmovcq 32(%[t]), %[q2]\n\t"
      "cmovcq 40(%[t]), %[q3]\n\t"
      "cmovcq 48(%[t]), %[q4]\n\t"
      "movq $0, 8(%[t])\n\t" /* wipe the buffer */
      "movq $0, 16(%[t])\n\t"
      "movq $0, 24(%[t])\n\t"
      "movq $0, 32(%[t])\n\t"
      "movq $0, 40(%[t])\n\t"
      "movq $0, 48(%[t])\n\t"
      "movq $0, 56(%[t])\n\t"
      "movq $0, 64(%[t])\n\t"
      "movq $0, 72(%[t])\n\t"
      "movq $0, 80(%[t])\n\t"
      "movq $0, 88(%[t])\n\t"
      : [q0] "=&r"(q0), [q1] "=&r"(q1), [q2] "=&r"(q2), [q3] "=&r"(q3), [q4] "=&r"(q4),
        [q5] "=&r"(q5), [q6] "=&r"(q6), [lo] "=&r"(lo), [hi] "=&r"(hi), "=m"(t)
      : [a] "r"(a), [t] "r"(t), [k0] "m"(kK[0]), [k1] "m"(kK[1]), [zero] "m"(kK[2]),
        [p0] "m"(kP0), [p1] "m"(kP1), "m"(*(const uint64_t(*)[6])a)
      : "rdx", "cc");
  r[0] = q6;
  r[1] = q0;
  r[2] = q1;
  r[3] = q2;
  r[4] = q3;
  r[5] = q4;
  (void)q5;
  (void)lo;
  (void)hi;
}
