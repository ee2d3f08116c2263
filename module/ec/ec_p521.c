/* P-521's field, p = 2^521 - 1, in the Montgomery form of the rest of module/ec/ (R = 2^576).
 *
 * Since 2^521 = 1 mod p, a * b * R^-1 = a * b * 2^-55 mod p, and multiplying by 2^-55 modulo
 * 2^521 - 1 moves bits rather than multiplies (reduce below): the 1042-bit product becomes a sum
 * of two 521-bit values, below 2p, and one conditional subtraction of p, made branch-free with a
 * carry in, leaves it fully reduced like mont_mul_k's outputs, bit for bit. No multiplication by
 * p and no quotient digit: the products are the operands' only. Constant time: the same
 * instructions and addresses for every value. */
#include "module/ec/ec_p521.h"

#include <string.h>

#include "module/ec/ec_field_inline.h"
#include "module/internal.h"

#define P521_TOP_MASK 0x1ffu /* the 9 bits of p in its top word */

/* reduce sets r = t * 2^-576 mod p, fully reduced, for t < 2^1042 - 1 (t[17] is 0; every product
 * of two values below 2^521 is at most (2^521 - 1)^2). With t split as T + 2^576 H (T the low 9
 * words, H < 2^466 the high ones) and T as A + 2^55 B (A < 2^55, B < 2^521):
 * t 2^-576 = H + T 2^-55 = H + B + A 2^466 mod p, since 2^-576 = 2^-55 and 2^-55 = 2^466 mod p.
 * H and A 2^466 occupy different bits (H ends below bit 466), so their union is below 2^521, and
 * s = union + B is at most 2^522 - 2 = 2p, with 2p only for t = 2^1042 - 1: s < 2p. The addition
 * carries in 1, giving u = s + 1 in [1, 2p], whose bit 521, q, is set exactly where s >= p. Then
 * s mod p is (u mod 2^521) - (1 - q): u - 2^521 = s - p where q = 1, u - 1 = s where q = 0. One
 * borrow chain, with no test for the value p. Out of line: one copy serves the portable product
 * and square; the ADX ones do the same in their assembly (P521_REDUCE). */
static __attribute__((noinline)) void reduce(uint64_t *r, const uint64_t t[18]) {
  uint64_t x[9], b[9], u[9];
  _Pragma("GCC unroll 8")
  for (unsigned i = 0; i < 8; i++) {
    x[i] = t[9 + i];
    b[i] = (t[i] >> 55) | (t[i + 1] << 9);
  }
  b[8] = t[8] >> 55;
  x[7] |= t[0] << 18; /* A's bits 0..45 at 466..511 */
  x[8] = (t[0] >> 46) & P521_TOP_MASK; /* and its bits 46..54 at 512..520 */
  uint64_t c = 1; /* u = x + b + 1, at most 2p: no carry out of 9 words */
  _Pragma("GCC unroll 9")
  for (unsigned i = 0; i < 9; i++) {
    const u128 v = (u128)x[i] + b[i] + c;
    u[i] = (uint64_t)v;
    c = (uint64_t)(v >> 64);
  }
  uint64_t borrow = (u[8] >> 9) ^ 1; /* 1 - q */
  u[8] &= P521_TOP_MASK;
  _Pragma("GCC unroll 9")
  for (unsigned i = 0; i < 9; i++) {
    const u128 v = (u128)u[i] - borrow;
    r[i] = (uint64_t)v;
    borrow = (uint64_t)(v >> 64) & 1;
  }
}

/* mac adds a * b to the three-word accumulator (c0, c1, c2). On x86-64 the carry intrinsics
 * compile to one add and two adc (the 128-bit form takes about three times the instructions
 * there); elsewhere the 128-bit form computes the same. */
static inline __attribute__((always_inline)) void mac(uint64_t *c0, uint64_t *c1, uint64_t *c2,
                                                       uint64_t a, uint64_t b) {
  const u128 p = (u128)a * b;
#if defined(__x86_64__)
  unsigned long long s0, s1, s2;
  unsigned char cf = _addcarry_u64(0, *c0, (uint64_t)p, &s0);
  cf = _addcarry_u64(cf, *c1, (uint64_t)(p >> 64), &s1);
  (void)_addcarry_u64(cf, *c2, 0, &s2);
  *c0 = (uint64_t)s0;
  *c1 = (uint64_t)s1;
  *c2 = (uint64_t)s2;
#else
  u128 s = (u128)*c0 + (uint64_t)p;
  *c0 = (uint64_t)s;
  s = (u128)*c1 + (uint64_t)(p >> 64) + (uint64_t)(s >> 64);
  *c1 = (uint64_t)s;
  *c2 += (uint64_t)(s >> 64);
#endif
}

#if FM_HAVE_X86_64_PATHS
/* The product and square for CPUs with BMI2 and ADX, row by row in inline assembly: row i adds
 * a_i (or b_i) times words of a into t_i .. t_{i+9} with two carry chains at once (ADCX on the
 * carry flag for the low halves of the MULX products, ADOX on the overflow flag for the high
 * halves). Nine registers X0..X8 hold t_i .. t_{i+8}; at the row's end t_i is final and is stored
 * to T, and its register takes t_{i+9} (zero before the row), so the next row's words are X1..X8,
 * X0. P521_START clears both flags and loads SRC (an operand) as the row's multiplier;
 * P521_MAC adds it times word OFF / 8 of a at the words XL (low half) and XH (high half);
 * P521_END stores X0 to T and adds it times a_8 at X8 and the new top word. */
#define P521_START(SRC)                                                                            \
  "xorl %k[lo], %k[lo]\n\t"                                                                        \
  "movq " SRC ", %%rdx\n\t"
#define P521_MAC(OFF, XL, XH)                                                                      \
  "mulxq " #OFF "(%[a]), %[lo], %[hi]\n\t"                                                         \
  "adcxq %[lo], %[" #XL "]\n\t"                                                                    \
  "adoxq %[hi], %[" #XH "]\n\t"
#define P521_END(T, X0, X8)                                                                        \
  "movq %[" #X0 "], " T "\n\t"                                                                     \
  "mulxq 64(%[a]), %[lo], %[" #X0 "]\n\t"                                                          \
  "adcxq %[lo], %[" #X8 "]\n\t"                                                                    \
  "movl $0, %k[lo]\n\t"                                                                            \
  "adoxq %[lo], %[" #X0 "]\n\t"                                                                    \
  "adcxq %[lo], %[" #X0 "]\n\t"
/* The square's second pass: P521_SQ sets (hi, lo) to the square of SRC (a word of a); P521_DBL_MEM
 * and P521_DBL_REG double a word of the sum (in memory at W, or in the register X) on the carry
 * chain and add S on the overflow chain. */
#define P521_SQ(SRC)                                                                               \
  "movq " SRC ", %%rdx\n\t"                                                                        \
  "mulxq %%rdx, %[lo], %[hi]\n\t"
#define P521_DBL_MEM(W, S)                                                                         \
  "movq " W ", %%rdx\n\t"                                                                          \
  "adcxq %%rdx, %%rdx\n\t"                                                                         \
  "adoxq %[" #S "], %%rdx\n\t"                                                                     \
  "movq %%rdx, " W "\n\t"
#define P521_DBL_REG(X, S)                                                                         \
  "adcxq %[" #X "], %[" #X "]\n\t"                                                                 \
  "adoxq %[" #S "], %[" #X "]\n\t"
/* A row of the product: a times b_i, read from the operand B. */
#define P521_ROW(B, T, X0, X1, X2, X3, X4, X5, X6, X7, X8)                                         \
  P521_START(B) P521_MAC(0, X0, X1) P521_MAC(8, X1, X2) P521_MAC(16, X2, X3)                       \
  P521_MAC(24, X3, X4) P521_MAC(32, X4, X5) P521_MAC(40, X5, X6) P521_MAC(48, X6, X7)              \
  P521_MAC(56, X7, X8) P521_END(T, X0, X8)
/* The first row writes registers that hold nothing yet: each MULX puts its low half where the
 * previous one's high half is (P521_FIRST_MAC adds it there, on one ADD/ADC chain, which MULX
 * leaves alone) and its high half in the next register; P521_FIRST_TOP adds the product by a_8 and
 * leaves the row's top word in X0, once X0 has been stored. */
#define P521_FIRST_MAC(OFF, XL, XH)                                                                \
  "mulxq " #OFF "(%[a]), %[lo], %[" #XH "]\n\t"                                                  \
  "adcq %[lo], %[" #XL "]\n\t"
#define P521_FIRST_TOP(X0, X8)                                                                     \
  "mulxq 64(%[a]), %[lo], %[" #X0 "]\n\t"                                                        \
  "adcq %[lo], %[" #X8 "]\n\t"                                                                   \
  "adcq $0, %[" #X0 "]\n\t"
#define P521_OUT_R                                                                                 \
  [r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3), [r4] "=&r"(r4),                  \
      [r5] "=&r"(r5), [r6] "=&r"(r6), [r7] "=&r"(r7), [r8] "=&r"(r8), [lo] "=&r"(lo),              \
      [hi] "=&r"(hi)
/* The outputs of P521_OUT_R are scratch registers: the results are in memory. */
#define P521_OUTS_UNUSED()                                                                         \
  do {                                                                                             \
    (void)r0, (void)r1, (void)r2, (void)r3, (void)r4, (void)r5, (void)r6, (void)r7;                \
    (void)r8, (void)lo, (void)hi;                                                                  \
  } while (0)

/* P521_REDUCE is reduce (above) at the end of the product's and the square's assembly: the low
 * words T = t_0 .. t_8 are in memory at M, the high words H = t_9 .. t_16 in r0 .. r7 (t_17 is 0,
 * so r8 is free); the reduced result goes to M[0..8]. With T = A + 2^55 B as in reduce, A's bits
 * 0..45 go to bits 18..63 of r7 (t_16 < 2^18 leaves them free) and its bits 46..54 to r8. B's
 * words, (t_i >> 55) | (t_{i+1} << 9), are made by P521_BWORD with SHRX, SHLX and LEA, which
 * leave the flags alone, and added to H in the one carry chain they interleave with, which STC
 * starts with a carry in, giving u = s + 1 (the operand a, read no more, holds the shift count 9;
 * RDX holds 55). Then 1 - q (q = u's bit 521) is subtracted from u's low 521 bits in one borrow
 * chain: every value is fully reduced, as reduce's, and the same instructions run for every
 * value. Measured on this host (TSC ticks, a dependent chain): the square's latency 70 -> 64 and
 * the product's 69 -> 66 against the SHRD-through-memory B and the second (borrow) chain of an
 * earlier form; the carry in, in place of a fold of bit 521 followed by a test for the value p,
 * then took 24 instructions off each. */
#define P521_BWORD(OP, I, X, M)                                                                    \
  "shrxq %%rdx, " #I "(%[" #M "]), %[lo]\n\t"                                                    \
  "shlxq %[a], " #I "+8(%[" #M "]), %[hi]\n\t"                                                   \
  "leaq (%[lo], %[hi]), %[lo]\n\t"                                                               \
  #OP " %[lo], %[" #X "]\n\t"
#define P521_REDUCE(M)                                                                             \
  "movq 0(%[" #M "]), %%rdx\n\t"                                                                 \
  "movq %%rdx, %[lo]\n\t"                                                                        \
  "shlq $18, %[lo]\n\t"                                                                          \
  "orq %[lo], %[r7]\n\t"                                                                         \
  "shrq $46, %%rdx\n\t"                                                                          \
  "andl $0x1ff, %%edx\n\t"                                                                       \
  "movq %%rdx, %[r8]\n\t"                                                                        \
  "movl $55, %%edx\n\t"                                                                          \
  "movl $9, %k[a]\n\t"                                                                           \
  "stc\n\t" /* u = s + 1 */                                                                      \
  P521_BWORD(adcq, 0, r0, M) P521_BWORD(adcq, 8, r1, M) P521_BWORD(adcq, 16, r2, M)                \
  P521_BWORD(adcq, 24, r3, M) P521_BWORD(adcq, 32, r4, M) P521_BWORD(adcq, 40, r5, M)              \
  P521_BWORD(adcq, 48, r6, M) P521_BWORD(adcq, 56, r7, M)                                          \
  "shrxq %%rdx, 64(%[" #M "]), %[lo]\n\t"                                                        \
  "adcq %[lo], %[r8]\n\t"                                                                        \
  "movq %[r8], %%rdx\n\t"                                                                        \
  "shrq $9, %%rdx\n\t"                                                                           \
  "xorl $1, %%edx\n\t" /* 1 - q */                                                               \
  "andq $0x1ff, %[r8]\n\t"                                                                       \
  "subq %%rdx, %[r0]\n\t"                                                                        \
  "sbbq $0, %[r1]\n\t"                                                                           \
  "sbbq $0, %[r2]\n\t"                                                                           \
  "sbbq $0, %[r3]\n\t"                                                                           \
  "sbbq $0, %[r4]\n\t"                                                                           \
  "sbbq $0, %[r5]\n\t"                                                                           \
  "sbbq $0, %[r6]\n\t"                                                                           \
  "sbbq $0, %[r7]\n\t"                                                                           \
  "sbbq $0, %[r8]\n\t"                                                                           \
  "movq %[r0], 0(%[" #M "])\n\t"                                                                 \
  "movq %[r1], 8(%[" #M "])\n\t"                                                                 \
  "movq %[r2], 16(%[" #M "])\n\t"                                                                \
  "movq %[r3], 24(%[" #M "])\n\t"                                                                \
  "movq %[r4], 32(%[" #M "])\n\t"                                                                \
  "movq %[r5], 40(%[" #M "])\n\t"                                                                \
  "movq %[r6], 48(%[" #M "])\n\t"                                                                \
  "movq %[r7], 56(%[" #M "])\n\t"                                                                \
  "movq %[r8], 64(%[" #M "])\n\t"

/* p521_mul_adx sets w to a * w * 2^-576 mod p (w must not be a): the 18-word product row by row
 * in the assembly above (81 MULX, the accumulator in nine registers), then P521_REDUCE. Every
 * t_{i+9} fits its word: the product so far is below 2^(64 (i + 10)). Row i stores t_i over w_i,
 * which it has read: the assembly then needs 14 registers (a, w, RDX, the nine words, two for the
 * products), which builds with frame pointers and sanitizers too. */
static inline __attribute__((target("bmi2,adx"), always_inline)) void p521_mul_adx(
    uint64_t w[9], const uint64_t *a) {
  uint64_t r0, r1, r2, r3, r4, r5, r6, r7, r8, lo, hi;
  __asm__ volatile("movq 0(%[w]), %%rdx\n\t"
          "mulxq 0(%[a]), %[r0], %[r1]\n\t"
          "mulxq 8(%[a]), %[lo], %[r2]\n\t"
          "addq %[lo], %[r1]\n\t"
          P521_FIRST_MAC(16, r2, r3) P521_FIRST_MAC(24, r3, r4) P521_FIRST_MAC(32, r4, r5)
          P521_FIRST_MAC(40, r5, r6) P521_FIRST_MAC(48, r6, r7) P521_FIRST_MAC(56, r7, r8)
          "movq %[r0], 0(%[w])\n\t"
          P521_FIRST_TOP(r0, r8)
          P521_ROW("8(%[w])", "8(%[w])", r1, r2, r3, r4, r5, r6, r7, r8, r0)
          P521_ROW("16(%[w])", "16(%[w])", r2, r3, r4, r5, r6, r7, r8, r0, r1)
          P521_ROW("24(%[w])", "24(%[w])", r3, r4, r5, r6, r7, r8, r0, r1, r2)
          P521_ROW("32(%[w])", "32(%[w])", r4, r5, r6, r7, r8, r0, r1, r2, r3)
          P521_ROW("40(%[w])", "40(%[w])", r5, r6, r7, r8, r0, r1, r2, r3, r4)
          P521_ROW("48(%[w])", "48(%[w])", r6, r7, r8, r0, r1, r2, r3, r4, r5)
          P521_ROW("56(%[w])", "56(%[w])", r7, r8, r0, r1, r2, r3, r4, r5, r6)
          P521_ROW("64(%[w])", "64(%[w])", r8, r0, r1, r2, r3, r4, r5, r6, r7)
          P521_REDUCE(w)
          : P521_OUT_R, [a] "+r"(a)
          : [w] "r"(w)
          : "rdx", "cc", "memory"); /* reads a[0..8] and w[0..8], writes w[0..8] */
  P521_OUTS_UNUSED();
}

/* p521_mul_adx works in place on one operand: r itself where r is one operand and not the other
 * (the product commutes), or where it is neither, after a copy of b; where r is both, on a copy.
 * The addresses are public. */
__attribute__((target("bmi2,adx"), noinline)) void ec_p521_mul_adx(uint64_t *r, const uint64_t *a,
                                                                    const uint64_t *b) {
  uint64_t t[9];
  uint64_t *w = r;
  const uint64_t *m = a;
  if (r == a && r != b) {
    m = b; /* r holds a: it takes a * b */
  } else if (r == a) {
    memcpy(t, b, sizeof t); /* r is a and b */
    w = t;
  } else if (r != b) {
    memcpy(r, b, sizeof t); /* r is neither */
  }
  p521_mul_adx(w, m);
  if (w != r) memcpy(r, t, sizeof t);
}
#endif

/* Both products scan columns (Comba): word k of the product is the sum of a[i] b[k - i] and the
 * carry of column k - 1. A column holds at most 9 products, under 2^132 with the carry, so three
 * words accumulate it. With BMI2 and ADX (and not FIPSMOD_CPU=portable) the product is
 * p521_mul_adx's. */
void ec_p521_mul(uint64_t *r, const uint64_t *a, const uint64_t *b) {
  uint64_t t[18];
#if FM_HAVE_X86_64_PATHS
  /* The CPU's features are public. */
  if (fm_cpu_use(FM_CPU_BMI2 | FM_CPU_ADX)) {
    ec_p521_mul_adx(r, a, b);
    return;
  }
#endif
  {
    uint64_t c0 = 0, c1 = 0, c2 = 0;
    _Pragma("GCC unroll 17")
    for (unsigned k = 0; k < 17; k++) {
      _Pragma("GCC unroll 9")
      for (unsigned i = 0; i < 9; i++)
        if (k >= i && k - i < 9) mac(&c0, &c1, &c2, a[i], b[k - i]);
      t[k] = c0;
      c0 = c1;
      c1 = c2;
      c2 = 0;
    }
    t[17] = c0;
  }
  reduce(r, t);
}

/* sqr_double sets t to a^2 from t, the sum of the products a[i] a[j], i < j (words 0 to 16 of
 * 18, word 17 zero): it doubles the whole and adds the squares a[i]^2 in one carry chain. The
 * cross sum is below 2^1041, so the shift loses nothing. */
static inline __attribute__((always_inline)) void sqr_double(uint64_t t[18], const uint64_t *a) {
  _Pragma("GCC unroll 18")
  for (unsigned i = 17; i > 0; i--) t[i] = (t[i] << 1) | (t[i - 1] >> 63);
  t[0] <<= 1;
  uint64_t sq[18];
  _Pragma("GCC unroll 9")
  for (unsigned i = 0; i < 9; i++) {
    const u128 p = (u128)a[i] * a[i];
    sq[2 * i] = (uint64_t)p;
    sq[2 * i + 1] = (uint64_t)(p >> 64);
  }
  (void)add_carry(t, t, sq, 18);
}

#if FM_HAVE_X86_64_PATHS
/* p521_sqr_adx sets t to a^2 2^-576 mod p (t must not be a): the 36 cross products a_i a_j, i < j,
 * row by row (row i: a_i a_{i+1} .. a_i a_8 into words 2i + 1 .. i + 9), then the sum doubled with
 * the squares a_i^2 added in one pass of both carry chains, giving the 18-word a^2, then
 * P521_REDUCE. 14 registers, as p521_mul_adx. */
static inline __attribute__((target("bmi2,adx"), always_inline)) void p521_sqr_adx(
    uint64_t t[9], const uint64_t *a) {
  uint64_t r0, r1, r2, r3, r4, r5, r6, r7, r8, lo, hi;
  __asm__ volatile("movq 0(%[a]), %%rdx\n\t"
          "mulxq 8(%[a]), %[r1], %[r2]\n\t"
          "mulxq 16(%[a]), %[lo], %[r3]\n\t"
          "addq %[lo], %[r2]\n\t"
          P521_FIRST_MAC(24, r3, r4) P521_FIRST_MAC(32, r4, r5) P521_FIRST_MAC(40, r5, r6)
          P521_FIRST_MAC(48, r6, r7) P521_FIRST_MAC(56, r7, r8)
          "movq $0, 0(%[t])\n\t" /* word 0 of the cross products */
          P521_FIRST_TOP(r0, r8)
          P521_START("8(%[a])") P521_MAC(16, r3, r4) P521_MAC(24, r4, r5) P521_MAC(32, r5, r6)
          P521_MAC(40, r6, r7) P521_MAC(48, r7, r8) P521_MAC(56, r8, r0) P521_END("8(%[t])", r1, r0)
          P521_START("16(%[a])") P521_MAC(24, r5, r6) P521_MAC(32, r6, r7) P521_MAC(40, r7, r8)
          P521_MAC(48, r8, r0) P521_MAC(56, r0, r1) P521_END("16(%[t])", r2, r1)
          P521_START("24(%[a])") P521_MAC(32, r7, r8) P521_MAC(40, r8, r0) P521_MAC(48, r0, r1)
          P521_MAC(56, r1, r2) P521_END("24(%[t])", r3, r2)
          P521_START("32(%[a])") P521_MAC(40, r0, r1) P521_MAC(48, r1, r2) P521_MAC(56, r2, r3)
          P521_END("32(%[t])", r4, r3)
          P521_START("40(%[a])") P521_MAC(48, r2, r3) P521_MAC(56, r3, r4)
          P521_END("40(%[t])", r5, r4)
          P521_START("48(%[a])") P521_MAC(56, r4, r5) P521_END("48(%[t])", r6, r5)
          P521_START("56(%[a])") P521_END("56(%[t])", r7, r6)
          /* 2 t + the squares a_i^2: t doubled on the carry chain, a_i^2 added at words 2i and
           * 2i + 1 on the overflow chain; word 17 (zero) takes both chains' carries. */
          "xorl %k[lo], %k[lo]\n\t"
          P521_SQ("0(%[a])") P521_DBL_MEM("0(%[t])", lo) P521_DBL_MEM("8(%[t])", hi)
          P521_SQ("8(%[a])") P521_DBL_MEM("16(%[t])", lo) P521_DBL_MEM("24(%[t])", hi)
          P521_SQ("16(%[a])") P521_DBL_MEM("32(%[t])", lo) P521_DBL_MEM("40(%[t])", hi)
          P521_SQ("24(%[a])") P521_DBL_MEM("48(%[t])", lo) P521_DBL_MEM("56(%[t])", hi)
          P521_SQ("32(%[a])") P521_DBL_REG(r8, lo) P521_DBL_REG(r0, hi)
          P521_SQ("40(%[a])") P521_DBL_REG(r1, lo) P521_DBL_REG(r2, hi)
          P521_SQ("48(%[a])") P521_DBL_REG(r3, lo) P521_DBL_REG(r4, hi)
          P521_SQ("56(%[a])") P521_DBL_REG(r5, lo) P521_DBL_REG(r6, hi)
          P521_SQ("64(%[a])") P521_DBL_REG(r7, lo)
          "movl $0, %%edx\n\t"
          "adcxq %%rdx, %[hi]\n\t"
          "adoxq %%rdx, %[hi]\n\t"
          /* t_8 is in r8, t_9 .. t_16 in r0 .. r7, t_17 (0) in hi. */
          "movq %[r8], 64(%[t])\n\t"
          P521_REDUCE(t)
          : P521_OUT_R, [a] "+r"(a)
          : [t] "r"(t)
          : "rdx", "cc", "memory"); /* reads a[0..8], writes t[0..8] */
  P521_OUTS_UNUSED();
}

/* The square's rows store the low words while a is still read: where r is a, it works on a copy
 * (the addresses are public). */
__attribute__((target("bmi2,adx"), noinline)) void ec_p521_sqr_adx(uint64_t *r,
                                                                    const uint64_t *a) {
  uint64_t t[9];
  uint64_t *w = r != a ? r : t;
  p521_sqr_adx(w, a);
  if (w != r) memcpy(r, t, sizeof t);
}
#endif

/* The square sums the products a[i] a[j], i < j (36 in all) by columns, then sqr_double doubles
 * them and adds the squares a[i]^2 (9). With BMI2 and ADX (and not FIPSMOD_CPU=portable) the
 * square is p521_sqr_adx's. */
void ec_p521_sqr(uint64_t *r, const uint64_t *a) {
  uint64_t t[18];
#if FM_HAVE_X86_64_PATHS
  /* The CPU's features are public. */
  if (fm_cpu_use(FM_CPU_BMI2 | FM_CPU_ADX)) {
    ec_p521_sqr_adx(r, a);
    return;
  }
#endif
  {
    uint64_t c0 = 0, c1 = 0, c2 = 0;
    t[0] = 0;
    _Pragma("GCC unroll 17")
    for (unsigned k = 1; k < 16; k++) {
      _Pragma("GCC unroll 9")
      for (unsigned i = 0; i < 9; i++)
        if (k >= i && k - i < 9 && i < k - i) mac(&c0, &c1, &c2, a[i], a[k - i]);
      t[k] = c0;
      c0 = c1;
      c1 = c2;
      c2 = 0;
    }
    t[16] = c0;
    t[17] = c1;
    sqr_double(t, a);
  }
  reduce(r, t);
}

void ec_p521_row_select(uint64_t *x, uint64_t *y, const uint64_t *row, uint64_t d) {
  uint64_t vx[9] = {0}, vy[9] = {0};
  for (unsigned e = 0; e < 16; e++) {
    const uint64_t m = ct_eq_u64(e + 1, d); /* all-ones for the one wanted entry */
    _Pragma("GCC unroll 9")
    for (unsigned j = 0; j < 9; j++) {
      vx[j] |= m & row[(2 * e) * 9 + j];
      vy[j] |= m & row[(2 * e + 1) * 9 + j];
    }
  }
  _Pragma("GCC unroll 9")
  for (unsigned j = 0; j < 9; j++) {
    x[j] = vx[j];
    y[j] = vy[j];
  }
  fm_zeroize(vx, sizeof vx);
  fm_zeroize(vy, sizeof vy);
}
