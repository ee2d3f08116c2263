/* The P-256 and P-384 field multiplications built for CPUs with BMI2: mont_mul_k of
 * ec_field_inline.h, the same CIOS kernel as the portable build, compiled with every 64x64->128
 * product taken by MULX, which writes any pair of registers and leaves the flags of the add/adc
 * chains alone (about 7% off an ECDH or a verification on P-256, measured). ec_point.c calls these
 * when fm_cpu_use(FM_CPU_BMI2) and the portable build of the same kernel otherwise (other CPUs,
 * FIPSMOD_CPU=portable). Constant time as the portable kernel: no value drives a branch or an
 * address. ADX is not used: compilers do not emit ADCX/ADOX from _addcarryx_u64 (see
 * module/bn/mont_mulx.c). */
#include <immintrin.h>

#include "module/ec/ec_curves.h"
#include "module/ec/ec_field_inline.h"
#include "module/ec/internal.h"

static const ec_mod k_p256_p = {.m = P256_P, .rr = P256_P_RR, .one = P256_P_ONE, .n0 = P256_P_N0};
static const ec_mod k_p384_p = {.m = P384_P, .rr = P384_P_RR, .one = P384_P_ONE, .n0 = P384_P_N0};

/* P-256 has its own kernel, for CPUs with BMI2 and ADX: the word-by-word Montgomery reduction
 * (CIOS) of mont_mul_k, written for the prime's form in inline assembly. p = 2^256 - 2^224 +
 * 2^192 + 2^96 - 1 gives -p^-1 = 1 mod 2^64, so each round's quotient is the low word itself,
 * and p's third word is zero. Each round adds a * b[i] and then q * p with two carry chains at
 * once (ADCX on the carry flag for the low halves, ADOX on the overflow flag for the high
 * halves), and the six accumulator words rotate: the word a round clears becomes the next
 * round's top word, so nothing is shifted or spilled. The running value stays below 2p (the
 * CIOS bound). No value drives a branch or an address. (C with _addcarry_u64 compiled to about
 * 300 instructions with flag spills; this is about 130.) */
__attribute__((target("bmi2,adx"))) void ec_p256_mul_adx(uint64_t *r, const uint64_t *a,
                                                         const uint64_t *b) {
  static const uint64_t kP[4] = {0xffffffffffffffffu, 0x00000000ffffffffu, 0,
                                 0xffffffff00000001u};
  uint64_t r0 = 0, r1 = 0, r2 = 0, r3 = 0, r4 = 0, r5 = 0, lo, hi, z;
  __asm__("" /* four rounds: round i adds into r[i..i+5 mod 6] */
      
      "xorl %k[z], %k[z]\n\t"   /* round 0: CF = OF = 0 */
      "movq 0(%[b]), %%rdx\n\t"
      "mulxq 0(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[r0]\n\t"
      "adoxq %[hi], %[r1]\n\t"
      "mulxq 8(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[r1]\n\t"
      "adoxq %[hi], %[r2]\n\t"
      "mulxq 16(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[r2]\n\t"
      "adoxq %[hi], %[r3]\n\t"
      "mulxq 24(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[r3]\n\t"
      "adoxq %[hi], %[r4]\n\t"
      "adcxq %[z], %[r4]\n\t"
      "adoxq %[z], %[r5]\n\t"
      "adcxq %[z], %[r5]\n\t"
      "movq %[r0], %%rdx\n\t"    /* q = t0 */
      "mulxq %[p0], %[lo], %[hi]\n\t"
      "adcxq %[lo], %[r0]\n\t"
      "adoxq %[hi], %[r1]\n\t"
      "mulxq %[p1], %[lo], %[hi]\n\t"
      "adcxq %[lo], %[r1]\n\t"
      "adoxq %[hi], %[r2]\n\t"
      "adcxq %[z], %[r2]\n\t"   /* p's word 2 is zero */
      "adoxq %[z], %[r3]\n\t"
      "mulxq %[p3], %[lo], %[hi]\n\t"
      "adcxq %[lo], %[r3]\n\t"
      "adoxq %[hi], %[r4]\n\t"
      "adcxq %[z], %[r4]\n\t"
      "adoxq %[z], %[r5]\n\t"
      "adcxq %[z], %[r5]\n\t"
      "xorl %k[z], %k[z]\n\t"   /* round 1: CF = OF = 0 */
      "movq 8(%[b]), %%rdx\n\t"
      "mulxq 0(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[r1]\n\t"
      "adoxq %[hi], %[r2]\n\t"
      "mulxq 8(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[r2]\n\t"
      "adoxq %[hi], %[r3]\n\t"
      "mulxq 16(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[r3]\n\t"
      "adoxq %[hi], %[r4]\n\t"
      "mulxq 24(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[r4]\n\t"
      "adoxq %[hi], %[r5]\n\t"
      "adcxq %[z], %[r5]\n\t"
      "adoxq %[z], %[r0]\n\t"
      "adcxq %[z], %[r0]\n\t"
      "movq %[r1], %%rdx\n\t"    /* q = t0 */
      "mulxq %[p0], %[lo], %[hi]\n\t"
      "adcxq %[lo], %[r1]\n\t"
      "adoxq %[hi], %[r2]\n\t"
      "mulxq %[p1], %[lo], %[hi]\n\t"
      "adcxq %[lo], %[r2]\n\t"
      "adoxq %[hi], %[r3]\n\t"
      "adcxq %[z], %[r3]\n\t"   /* p's word 2 is zero */
      "adoxq %[z], %[r4]\n\t"
      "mulxq %[p3], %[lo], %[hi]\n\t"
      "adcxq %[lo], %[r4]\n\t"
      "adoxq %[hi], %[r5]\n\t"
      "adcxq %[z], %[r5]\n\t"
      "adoxq %[z], %[r0]\n\t"
      "adcxq %[z], %[r0]\n\t"
      "xorl %k[z], %k[z]\n\t"   /* round 2: CF = OF = 0 */
      "movq 16(%[b]), %%rdx\n\t"
      "mulxq 0(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[r2]\n\t"
      "adoxq %[hi], %[r3]\n\t"
      "mulxq 8(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[r3]\n\t"
      "adoxq %[hi], %[r4]\n\t"
      "mulxq 16(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[r4]\n\t"
      "adoxq %[hi], %[r5]\n\t"
      "mulxq 24(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[r5]\n\t"
      "adoxq %[hi], %[r0]\n\t"
      "adcxq %[z], %[r0]\n\t"
      "adoxq %[z], %[r1]\n\t"
      "adcxq %[z], %[r1]\n\t"
      "movq %[r2], %%rdx\n\t"    /* q = t0 */
      "mulxq %[p0], %[lo], %[hi]\n\t"
      "adcxq %[lo], %[r2]\n\t"
      "adoxq %[hi], %[r3]\n\t"
      "mulxq %[p1], %[lo], %[hi]\n\t"
      "adcxq %[lo], %[r3]\n\t"
      "adoxq %[hi], %[r4]\n\t"
      "adcxq %[z], %[r4]\n\t"   /* p's word 2 is zero */
      "adoxq %[z], %[r5]\n\t"
      "mulxq %[p3], %[lo], %[hi]\n\t"
      "adcxq %[lo], %[r5]\n\t"
      "adoxq %[hi], %[r0]\n\t"
      "adcxq %[z], %[r0]\n\t"
      "adoxq %[z], %[r1]\n\t"
      "adcxq %[z], %[r1]\n\t"
      "xorl %k[z], %k[z]\n\t"   /* round 3: CF = OF = 0 */
      "movq 24(%[b]), %%rdx\n\t"
      "mulxq 0(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[r3]\n\t"
      "adoxq %[hi], %[r4]\n\t"
      "mulxq 8(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[r4]\n\t"
      "adoxq %[hi], %[r5]\n\t"
      "mulxq 16(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[r5]\n\t"
      "adoxq %[hi], %[r0]\n\t"
      "mulxq 24(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[r0]\n\t"
      "adoxq %[hi], %[r1]\n\t"
      "adcxq %[z], %[r1]\n\t"
      "adoxq %[z], %[r2]\n\t"
      "adcxq %[z], %[r2]\n\t"
      "movq %[r3], %%rdx\n\t"    /* q = t0 */
      "mulxq %[p0], %[lo], %[hi]\n\t"
      "adcxq %[lo], %[r3]\n\t"
      "adoxq %[hi], %[r4]\n\t"
      "mulxq %[p1], %[lo], %[hi]\n\t"
      "adcxq %[lo], %[r4]\n\t"
      "adoxq %[hi], %[r5]\n\t"
      "adcxq %[z], %[r5]\n\t"   /* p's word 2 is zero */
      "adoxq %[z], %[r0]\n\t"
      "mulxq %[p3], %[lo], %[hi]\n\t"
      "adcxq %[lo], %[r0]\n\t"
      "adoxq %[hi], %[r1]\n\t"
      "adcxq %[z], %[r1]\n\t"
      "adoxq %[z], %[r2]\n\t"
      "adcxq %[z], %[r2]\n\t"
      : [r0] "+&r"(r0), [r1] "+&r"(r1), [r2] "+&r"(r2), [r3] "+&r"(r3), [r4] "+&r"(r4),
        [r5] "+&r"(r5), [lo] "=&r"(lo), [hi] "=&r"(hi), [z] "=&r"(z)
      : [a] "r"(a), [b] "r"(b), [p0] "m"(kP[0]), [p1] "m"(kP[1]), [p3] "m"(kP[3]),
        "m"(*(const uint64_t(*)[4])a), "m"(*(const uint64_t(*)[4])b)
      : "rdx", "cc");
  /* The result is r4, r5, r0, r1 with the carry word r2, below 2p: subtract p, and keep the
   * value when that borrows out of the carry word. */
  unsigned long long s0, s1, s2, s3, s4;
  unsigned char c = _subborrow_u64(0, r4, kP[0], &s0);
  c = _subborrow_u64(c, r5, kP[1], &s1);
  c = _subborrow_u64(c, r0, 0, &s2);
  c = _subborrow_u64(c, r1, kP[3], &s3);
  c = _subborrow_u64(c, r2, 0, &s4);
  const uint64_t keep = ct_value_barrier_u64(0u - (uint64_t)c); /* all-ones when the value < p */
  r[0] = ct_select_u64(keep, r4, s0);
  r[1] = ct_select_u64(keep, r5, s1);
  r[2] = ct_select_u64(keep, r0, s2);
  r[3] = ct_select_u64(keep, r1, s3);
  (void)s4;
  (void)lo;
  (void)hi;
  (void)z;
}

/* The same P-256 product with MULX alone (CPUs with BMI2 and no ADX): mont_mul_k. */
__attribute__((target("bmi2"))) void ec_p256_mul_mulx(uint64_t *r, const uint64_t *a,
                                                      const uint64_t *b) {
  mont_mul_k(&k_p256_p, r, a, b, 4);
}

__attribute__((target("bmi2"))) void ec_p384_mul_mulx(uint64_t *r, const uint64_t *a,
                                                      const uint64_t *b) {
  mont_mul_k(&k_p384_p, r, a, b, 6);
}
