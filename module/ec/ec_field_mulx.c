/* The P-256 field multiplications built for CPUs with BMI2: mont_mul_k of
 * ec_field_inline.h, the same CIOS kernel as the portable build, compiled with every 64x64->128
 * product taken by MULX, which writes any pair of registers and leaves the flags of the add/adc
 * chains alone (about 7% off an ECDH or a verification on P-256, measured). ec_point.c calls it
 * when fm_cpu_use(FM_CPU_BMI2) and the portable build of the same kernel otherwise (other CPUs,
 * FIPSMOD_CPU=portable). Constant time as the portable kernel: no value drives a branch or an
 * address. ADX is not used: compilers do not emit ADCX/ADOX from _addcarryx_u64 (see
 * module/bn/mont_mulx.c). */
#include <immintrin.h>

#include "module/ec/ec_curves.h"
#include "module/ec/ec_field_inline.h"
#include "module/ec/internal.h"

static const ec_mod k_p256_p = {.m = P256_P, .rr = P256_P_RR, .one = P256_P_ONE, .n0 = P256_P_N0};

/* P256_ADX_REDUCE: the end of both kernels (asm text over their operands): the Montgomery
 * reduction of words 0..3 of the 512-bit result in r0..r7, the sum with words 4..7, and the
 * subtraction of p kept where it does not borrow. */
#define P256_ADX_REDUCE \
      "movq %[r0], %%rdx\n\t"   /* Montgomery reduction of words 0..3, q = the low word */ \
      "mulxq %[p3], %[z], %[r0]\n\t" \
      "movq %%rdx, %[lo]\n\t" \
      "shlq $32, %[lo]\n\t" \
      "shrq $32, %%rdx\n\t" \
      "addq %[lo], %[r1]\n\t" \
      "adcq %%rdx, %[r2]\n\t" \
      "adcq %[z], %[r3]\n\t" \
      "adcq $0, %[r0]\n\t" \
      "movq %[r1], %%rdx\n\t" \
      "mulxq %[p3], %[z], %[r1]\n\t" \
      "movq %%rdx, %[lo]\n\t" \
      "shlq $32, %[lo]\n\t" \
      "shrq $32, %%rdx\n\t" \
      "addq %[lo], %[r2]\n\t" \
      "adcq %%rdx, %[r3]\n\t" \
      "adcq %[z], %[r0]\n\t" \
      "adcq $0, %[r1]\n\t" \
      "movq %[r2], %%rdx\n\t" \
      "mulxq %[p3], %[z], %[r2]\n\t" \
      "movq %%rdx, %[lo]\n\t" \
      "shlq $32, %[lo]\n\t" \
      "shrq $32, %%rdx\n\t" \
      "addq %[lo], %[r3]\n\t" \
      "adcq %%rdx, %[r0]\n\t" \
      "adcq %[z], %[r1]\n\t" \
      "adcq $0, %[r2]\n\t" \
      "movq %[r3], %%rdx\n\t" \
      "mulxq %[p3], %[z], %[r3]\n\t" \
      "movq %%rdx, %[lo]\n\t" \
      "shlq $32, %[lo]\n\t" \
      "shrq $32, %%rdx\n\t" \
      "addq %[lo], %[r0]\n\t" \
      "adcq %%rdx, %[r1]\n\t" \
      "adcq %[z], %[r2]\n\t" \
      "adcq $0, %[r3]\n\t" \
      "xorl %k[z], %k[z]\n\t"   /* plus words 4..7 */ \
      "addq %[r4], %[r0]\n\t" \
      "adcq %[r5], %[r1]\n\t" \
      "adcq %[r6], %[r2]\n\t" \
      "adcq %[r7], %[r3]\n\t" \
      "adcq %[z], %[z]\n\t" \
      "movq %[r0], %[lo]\n\t"   /* the sum minus p; where that borrows (the sum < p), the sum */ \
      "movq %[r1], %[hi]\n\t" \
      "movq %[r2], %[r4]\n\t" \
      "movq %[r3], %[r5]\n\t" \
      "subq $-1, %[r0]\n\t" \
      "sbbq %[p1], %[r1]\n\t" \
      "sbbq $0, %[r2]\n\t" \
      "sbbq %[p3], %[r3]\n\t" \
      "sbbq $0, %[z]\n\t" \
      "cmovcq %[lo], %[r0]\n\t"   /* register moves on the flag: no branch, no address */ \
      "cmovcq %[hi], %[r1]\n\t" \
      "cmovcq %[r4], %[r2]\n\t" \
      "cmovcq %[r5], %[r3]\n\t"

/* P-256 has its own kernels, for CPUs with BMI2 and ADX, in inline assembly, written for the
 * prime's form p = 2^256 - 2^224 + 2^192 + 2^96 - 1: -p^-1 = 1 mod 2^64, so each reduction round's
 * quotient q is the low word itself, and q p = q p3 2^192 + q 2^96 - q (p3 = p's top word): adding
 * it clears the low word, adds q shifted by 32 bits into the next two words and q p3 (one MULX)
 * into the two above. No value drives a branch or an address.
 *
 * ec_p256_mul_adx computes the full 512-bit product first, one row a * b_i per word of b, each
 * row on two carry chains at once (ADCX on the carry flag for the low halves, ADOX on the
 * overflow flag for the high halves), so that the rows' chains overlap; then four reduction
 * rounds over the low four words, which leave (low + m p) / 2^256 <= p in four words, and the
 * high four words added: the sum is below 2p (a b < p^2), and one subtraction of p, kept when it
 * does not borrow, reduces it. */
__attribute__((target("bmi2,adx"))) void ec_p256_mul_adx(uint64_t *r, const uint64_t *a,
                                                         const uint64_t *b) {
  static const uint64_t kP[4] = {0xffffffffffffffffu, 0x00000000ffffffffu, 0,
                                 0xffffffff00000001u};
  uint64_t r0, r1, r2, r3, r4, r5, r6, r7, lo, hi, z;
  __asm__(""
      "xorl %k[z], %k[z]\n\t"   /* the 512-bit product a b into words 0..7; CF = OF = 0 */
      "movq 0(%[b]), %%rdx\n\t"   /* row 0: a b_0 into words 0..4 */
      "mulxq 0(%[a]), %[r0], %[r1]\n\t"
      "mulxq 8(%[a]), %[lo], %[r2]\n\t"
      "adcxq %[lo], %[r1]\n\t"
      "mulxq 16(%[a]), %[lo], %[r3]\n\t"
      "adcxq %[lo], %[r2]\n\t"
      "mulxq 24(%[a]), %[lo], %[r4]\n\t"
      "adcxq %[lo], %[r3]\n\t"
      "adcxq %[z], %[r4]\n\t"
      "movq 8(%[b]), %%rdx\n\t"   /* row 1: a b_1 added into words 1..5 (low halves on CF, high on OF) */
      "xorl %k[z], %k[z]\n\t"
      "mulxq 0(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[r1]\n\t"
      "adoxq %[hi], %[r2]\n\t"
      "mulxq 8(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[r2]\n\t"
      "adoxq %[hi], %[r3]\n\t"
      "mulxq 16(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[r3]\n\t"
      "adoxq %[hi], %[r4]\n\t"
      "mulxq 24(%[a]), %[lo], %[r5]\n\t"
      "adcxq %[lo], %[r4]\n\t"
      "adoxq %[z], %[r5]\n\t"
      "adcxq %[z], %[r5]\n\t"
      "movq 16(%[b]), %%rdx\n\t"   /* row 2: a b_2 added into words 2..6 (low halves on CF, high on OF) */
      "xorl %k[z], %k[z]\n\t"
      "mulxq 0(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[r2]\n\t"
      "adoxq %[hi], %[r3]\n\t"
      "mulxq 8(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[r3]\n\t"
      "adoxq %[hi], %[r4]\n\t"
      "mulxq 16(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[r4]\n\t"
      "adoxq %[hi], %[r5]\n\t"
      "mulxq 24(%[a]), %[lo], %[r6]\n\t"
      "adcxq %[lo], %[r5]\n\t"
      "adoxq %[z], %[r6]\n\t"
      "adcxq %[z], %[r6]\n\t"
      "movq 24(%[b]), %%rdx\n\t"   /* row 3: a b_3 added into words 3..7 (low halves on CF, high on OF) */
      "xorl %k[z], %k[z]\n\t"
      "mulxq 0(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[r3]\n\t"
      "adoxq %[hi], %[r4]\n\t"
      "mulxq 8(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[r4]\n\t"
      "adoxq %[hi], %[r5]\n\t"
      "mulxq 16(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[r5]\n\t"
      "adoxq %[hi], %[r6]\n\t"
      "mulxq 24(%[a]), %[lo], %[r7]\n\t"
      "adcxq %[lo], %[r6]\n\t"
      "adoxq %[z], %[r7]\n\t"
      "adcxq %[z], %[r7]\n\t"
      P256_ADX_REDUCE
      : [r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3), [r4] "=&r"(r4),
        [r5] "=&r"(r5), [r6] "=&r"(r6), [r7] "=&r"(r7), [lo] "=&r"(lo), [hi] "=&r"(hi),
        [z] "=&r"(z)
      /* The asm reads a and b through their pointers: the "memory" clobber says so without an
       * operand per array, which leaves an unoptimized build the registers it needs. */
      : [a] "r"(a), [b] "r"(b), [p1] "m"(kP[1]), [p3] "m"(kP[3])
      : "rdx", "cc", "memory");
  r[0] = r0;
  r[1] = r1;
  r[2] = r2;
  r[3] = r3;
  (void)z;
  (void)r4;
  (void)r5;
  (void)r6;
  (void)r7;
  (void)lo;
  (void)hi;
}

/* ec_p256_sqr_adx sets r = a^2 R^-1 mod p: the full 512-bit square (the six cross products
 * a_i a_j, i < j, doubled on the carry chain while the four squares a_i^2 go in on the overflow
 * chain: ten MULX against sixteen), four reduction rounds over the low four words, which leave
 * (low + m p) / 2^256 <= p in four words, and the high four words added. The sum is below 2p: one
 * subtraction of p, kept when it does not borrow. */
__attribute__((target("bmi2,adx"))) void ec_p256_sqr_adx(uint64_t *r, const uint64_t *a) {
  static const uint64_t kP[4] = {0xffffffffffffffffu, 0x00000000ffffffffu, 0,
                                 0xffffffff00000001u};
  uint64_t r0, r1, r2, r3, r4, r5, r6, r7, lo, hi, z;
  __asm__(""
      "xorl %k[z], %k[z]\n\t"   /* CF = OF = 0 */
      "movq 0(%[a]), %%rdx\n\t"   /* the cross products a_i a_j, i < j, into words 1..6 */
      "mulxq 8(%[a]), %[r1], %[r2]\n\t"
      "mulxq 16(%[a]), %[lo], %[r3]\n\t"
      "adcxq %[lo], %[r2]\n\t"
      "mulxq 24(%[a]), %[lo], %[r4]\n\t"
      "adcxq %[lo], %[r3]\n\t"
      "adcxq %[z], %[r4]\n\t"
      "movq 8(%[a]), %%rdx\n\t"
      "mulxq 16(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[r3]\n\t"
      "adoxq %[hi], %[r4]\n\t"
      "mulxq 24(%[a]), %[lo], %[r5]\n\t"
      "adcxq %[lo], %[r4]\n\t"
      "adoxq %[z], %[r5]\n\t"
      "adcxq %[z], %[r5]\n\t"
      "movq 16(%[a]), %%rdx\n\t"
      "mulxq 24(%[a]), %[lo], %[r6]\n\t"
      "adcxq %[lo], %[r5]\n\t"
      "adcxq %[z], %[r6]\n\t"
      "movq %[z], %[r7]\n\t"   /* twice the cross products (CF) plus the squares (OF) */
      "movq 0(%[a]), %%rdx\n\t"
      "mulxq %%rdx, %[r0], %[hi]\n\t"
      "adcxq %[r1], %[r1]\n\t"
      "adoxq %[hi], %[r1]\n\t"
      "movq 8(%[a]), %%rdx\n\t"
      "mulxq %%rdx, %[lo], %[hi]\n\t"
      "adcxq %[r2], %[r2]\n\t"
      "adoxq %[lo], %[r2]\n\t"
      "adcxq %[r3], %[r3]\n\t"
      "adoxq %[hi], %[r3]\n\t"
      "movq 16(%[a]), %%rdx\n\t"
      "mulxq %%rdx, %[lo], %[hi]\n\t"
      "adcxq %[r4], %[r4]\n\t"
      "adoxq %[lo], %[r4]\n\t"
      "adcxq %[r5], %[r5]\n\t"
      "adoxq %[hi], %[r5]\n\t"
      "movq 24(%[a]), %%rdx\n\t"
      "mulxq %%rdx, %[lo], %[hi]\n\t"
      "adcxq %[r6], %[r6]\n\t"
      "adoxq %[lo], %[r6]\n\t"
      "adcxq %[r7], %[r7]\n\t"
      "adoxq %[hi], %[r7]\n\t"
      P256_ADX_REDUCE
      : [r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3), [r4] "=&r"(r4),
        [r5] "=&r"(r5), [r6] "=&r"(r6), [r7] "=&r"(r7), [lo] "=&r"(lo), [hi] "=&r"(hi),
        [z] "=&r"(z)
      : [a] "r"(a), [p1] "m"(kP[1]), [p3] "m"(kP[3]), "m"(*(const uint64_t(*)[4])a)
      : "rdx", "cc");
  r[0] = r0;
  r[1] = r1;
  r[2] = r2;
  r[3] = r3;
  (void)z;
  (void)r4;
  (void)r5;
  (void)r6;
  (void)r7;
  (void)lo;
  (void)hi;
}

/* The same P-256 product with MULX alone (CPUs with BMI2 and no ADX): mont_mul_k. */
__attribute__((target("bmi2"))) void ec_p256_mul_mulx(uint64_t *r, const uint64_t *a,
                                                      const uint64_t *b) {
  mont_mul_k(&k_p256_p, r, a, b, 4);
}
