/* P-384's field product and square, Jacobian doubling and mixed addition for CPUs with BMI2 and
 * ADX, in assembly, built as ec_p256_jac_adx.c's are: ec_p384_jdbl_n_adx runs jac_dbl_k's formula
 * (ec_group_inline.h) |count| times, ec_p384_jmadd_adx jac_madd_k's (ec_scalar_mul.c), with the
 * products as internal subroutines that leave their result in r8..r13, and the additions,
 * subtractions and the halving on those registers. The callee-saved registers are saved once per
 * call, not once per product. ec_p384_mul_adx and ec_p384_sqr_adx wrap the subroutines for the C
 * callers (ec_mod_mul, verification's formulas). ec_point.c, ec_scalar_mul.c and ec_verify.c
 * call them when fm_cpu_use(FM_CPU_BMI2) and fm_cpu_use(FM_CPU_ADX), and the portable build of
 * mont_mul_k and of the formulas otherwise (other CPUs, FIPSMOD_CPU=portable).
 *
 * The product is the word-by-word Montgomery multiplication (CIOS) of mont_mul_k, written for the
 * prime's form p = 2^384 - c, c = 2^128 + 2^96 - 2^32 + 1. Each round adds a * b[i] with two
 * carry chains at once (ADCX on the carry flag for the low halves of the MULX products, ADOX on
 * the overflow flag for the high halves), then reduces one word. -p^-1 = 2^32 + 1 mod 2^64, so
 * the round's quotient is w = t0 + (t0 << 32), and t + w p = t + w 2^384 - w c, where
 * w c = t0 + 2^64 X exactly (its low word is t0 by the choice of w) and X = floor(w c / 2^64)
 * comes from shifts and additions of w (RED_HEAD), with no MULX: the round leaves
 * (t + w p) / 2^64 = t / 2^64 (t0 dropped) - X + w 2^320. The eight accumulator words rotate, the
 * word a round clears becoming the next round's top word, so nothing is shifted or spilled; the
 * running value stays below 2p (the CIOS bound), at most two words past the limbs before a
 * reduction. The square sums the fifteen cross products a_i a_j (i < j) row by row into a
 * twelve-word buffer, doubles them on the carry chain while the six squares a_i^2 go in on the
 * overflow chain (21 MULX against 36), reduces the low six words by six such rounds to at most p
 * and adds the high six: the sum is below 2p, and one subtraction of p is kept when it does not
 * borrow.
 *
 * Register use: the subroutines take a in rsi and b in rbp (pointers; the square a scratch
 * buffer of twelve words in rdi), return the product in r8..r13 and clobber every other register
 * but rsp and rdi. p's two low words are read from .rodata (RIP-relative: no relocation in the
 * loaded image). The temporaries live in the frame (the layouts are at each function) and are
 * zeroed, with the square's buffer, before the return.
 *
 * Constant time: no value drives a branch or an address (the one loop counts the public
 * |count|). The products keep their final subtraction of p by CMOV; the modular additions
 * subtract p and keep the sum by CMOV where that borrows; the subtractions add p ANDed with the
 * borrow's mask; the halving adds p ANDed with the low bit's mask. Every value stays fully reduced
 * (below p), as in the C build, so the results are bit-identical to it (test_ec_asm's jac_adx
 * checks them against reference formulas, field_mulx the products against the portable one;
 * test_ec_ct runs them under valgrind with the scalars undefined). Measured on this host (A/B in
 * one process against the C formulas over the same products): ECDH 6.5-8% faster. The shifts in
 * RED_HEAD, against two MULX there before: a square 52 -> 49 TSC ticks, five doublings 2.40k ->
 * 2.21k, ECDH 7.4% and verification 8.9% faster (same-process A/B, median of 41 pairs). */
#include <stdint.h>

#include "module/ec/ec_asm.h"
#include "module/ec/internal.h"

#define MEM EC_ASM_MEM
#define PROLOGUE EC_ASM_PROLOGUE
#define EPILOGUE EC_ASM_EPILOGUE

/* LOAD and STORE move the six words at off(base) to and from r8..r13. */
#define LOAD(off, base)                                                                        \
  "movq " MEM(off, base, 0) ", %r8\n\t"                                                        \
  "movq " MEM(off, base, 8) ", %r9\n\t"                                                        \
  "movq " MEM(off, base, 16) ", %r10\n\t"                                                      \
  "movq " MEM(off, base, 24) ", %r11\n\t"                                                      \
  "movq " MEM(off, base, 32) ", %r12\n\t"                                                      \
  "movq " MEM(off, base, 40) ", %r13\n\t"
#define STORE(off, base)                                                                       \
  "movq %r8, " MEM(off, base, 0) "\n\t"                                                        \
  "movq %r9, " MEM(off, base, 8) "\n\t"                                                        \
  "movq %r10, " MEM(off, base, 16) "\n\t"                                                      \
  "movq %r11, " MEM(off, base, 24) "\n\t"                                                      \
  "movq %r12, " MEM(off, base, 32) "\n\t"                                                      \
  "movq %r13, " MEM(off, base, 40) "\n\t"

/* SUB_P(W0, .., W5, TOP): W0..W5 and their carry word TOP minus p; the carry flag is then set
 * exactly when the value was below p. */
#define SUB_P(W0, W1, W2, W3, W4, W5, TOP)                                                     \
  "subq .Lp384_p0(%rip), %" #W0 "\n\t"                                                         \
  "sbbq .Lp384_p1(%rip), %" #W1 "\n\t"                                                         \
  "sbbq $-2, %" #W2 "\n\t"                                                                     \
  "sbbq $-1, %" #W3 "\n\t"                                                                     \
  "sbbq $-1, %" #W4 "\n\t"                                                                     \
  "sbbq $-1, %" #W5 "\n\t"                                                                     \
  "sbbq $0, %" #TOP "\n\t"

/* COND_SUB_P: r8..r13 with rcx a seventh word (0 or 1) hold a value below 2p; it is reduced by p
 * where that does not borrow. Clobbers rax, rbx, rcx, rdx, rbp, r14, r15. */
#define COND_SUB_P                                                                             \
  "movq %r8, %rax\n\t"                                                                         \
  "movq %r9, %rbx\n\t"                                                                         \
  "movq %r10, %rdx\n\t"                                                                        \
  "movq %r11, %rbp\n\t"                                                                        \
  "movq %r12, %r14\n\t"                                                                        \
  "movq %r13, %r15\n\t" SUB_P(r8, r9, r10, r11, r12, r13, rcx)                                 \
  "cmovcq %rax, %r8\n\t"                                                                       \
  "cmovcq %rbx, %r9\n\t"                                                                       \
  "cmovcq %rdx, %r10\n\t"                                                                      \
  "cmovcq %rbp, %r11\n\t"                                                                      \
  "cmovcq %r14, %r12\n\t"                                                                      \
  "cmovcq %r15, %r13\n\t"

/* ADDM: r8..r13 = r8..r13 + the six words at off(base), mod p. */
#define ADDM(off, base)                                                                        \
  "xorl %ecx, %ecx\n\t"                                                                        \
  "addq " MEM(off, base, 0) ", %r8\n\t"                                                        \
  "adcq " MEM(off, base, 8) ", %r9\n\t"                                                        \
  "adcq " MEM(off, base, 16) ", %r10\n\t"                                                      \
  "adcq " MEM(off, base, 24) ", %r11\n\t"                                                      \
  "adcq " MEM(off, base, 32) ", %r12\n\t"                                                      \
  "adcq " MEM(off, base, 40) ", %r13\n\t"                                                      \
  "adcq $0, %rcx\n\t" COND_SUB_P

/* TWICE: r8..r13 = 2 r8..r13 mod p. */
#define TWICE                                                                                  \
  "xorl %ecx, %ecx\n\t"                                                                        \
  "addq %r8, %r8\n\t"                                                                          \
  "adcq %r9, %r9\n\t"                                                                          \
  "adcq %r10, %r10\n\t"                                                                        \
  "adcq %r11, %r11\n\t"                                                                        \
  "adcq %r12, %r12\n\t"                                                                        \
  "adcq %r13, %r13\n\t"                                                                        \
  "adcq $0, %rcx\n\t" COND_SUB_P

/* P_MASKED: p AND rax (rax all-ones or zero) into rbx, rcx, rdx (words 0..2; words 3..5 are rax
 * itself): p = 2^384 - 2^128 - 2^96 + 2^32 - 1. */
#define P_MASKED                                                                               \
  "movl %eax, %ebx\n\t"         /* 0x00000000ffffffff */                                      \
  "movq %rax, %rcx\n\t"                                                                        \
  "shlq $32, %rcx\n\t"          /* 0xffffffff00000000 */                                      \
  "leaq (%rax,%rax), %rdx\n\t" /* 0xfffffffffffffffe */
#define ADD_P_MASKED                                                                           \
  "addq %rbx, %r8\n\t"                                                                         \
  "adcq %rcx, %r9\n\t"                                                                         \
  "adcq %rdx, %r10\n\t"                                                                        \
  "adcq %rax, %r11\n\t"                                                                        \
  "adcq %rax, %r12\n\t"                                                                        \
  "adcq %rax, %r13\n\t"

/* SUBM: r8..r13 = r8..r13 - the six words at off(base), mod p: p is added back where the
 * difference borrows. Clobbers rax, rbx, rcx, rdx. */
#define SUBM(off, base)                                                                        \
  "subq " MEM(off, base, 0) ", %r8\n\t"                                                        \
  "sbbq " MEM(off, base, 8) ", %r9\n\t"                                                        \
  "sbbq " MEM(off, base, 16) ", %r10\n\t"                                                      \
  "sbbq " MEM(off, base, 24) ", %r11\n\t"                                                      \
  "sbbq " MEM(off, base, 32) ", %r12\n\t"                                                      \
  "sbbq " MEM(off, base, 40) ", %r13\n\t"                                                      \
  "sbbq %rax, %rax\n\t" P_MASKED ADD_P_MASKED

/* HALF: r8..r13 = r8..r13 / 2 mod p: p is added where the value is odd (a 385-bit sum, its top
 * bit in rbp), then the sum is shifted right one bit. Clobbers rax, rbx, rcx, rdx, rbp. */
#define HALF                                                                                   \
  "movq %r8, %rax\n\t"                                                                         \
  "andl $1, %eax\n\t"                                                                          \
  "negq %rax\n\t" P_MASKED                                                                     \
  "xorl %ebp, %ebp\n\t" ADD_P_MASKED                                                           \
  "adcq $0, %rbp\n\t"                                                                          \
  "shrdq $1, %r9, %r8\n\t"                                                                     \
  "shrdq $1, %r10, %r9\n\t"                                                                    \
  "shrdq $1, %r11, %r10\n\t"                                                                   \
  "shrdq $1, %r12, %r11\n\t"                                                                   \
  "shrdq $1, %r13, %r12\n\t"                                                                   \
  "shrdq $1, %rbp, %r13\n\t"

/* RED_HEAD: the start of a reduction round on the words X0..X3 (t0 in X0): w = t0 (2^32 + 1) in
 * rdx, X = floor(w c / 2^64) subtracted from X1..X3, the borrow pending. X comes from shifts, not
 * products: with s = t0 2^32 mod 2^64, w = t0 + s and the sum's carry b0 says w < s; w 2^32 is
 * the two words (s, h) with h = floor(w / 2^32), and w c = w 2^128 + w 2^96 - w 2^32 + w has the
 * words t0, s - h - b0, h - b1 + w, the carry of that sum (b1 the borrow of the word before). */
#define RED_HEAD(X0, X1, X2, X3)                                                               \
  "movq %" #X0 ", %rax\n\t"                                                                    \
  "shlq $32, %rax\n\t" /* s */                                                                 \
  "leaq (%rax,%" #X0 "), %rdx\n\t" /* w */                                                     \
  "cmpq %rax, %rdx\n\t"            /* b0 = w < s */                                            \
  "sbbq $0, %rax\n\t"              /* s - b0: no borrow, as s = 0 gives b0 = 0 */              \
  "rorxq $32, %rdx, %rbx\n\t"                                                                  \
  "movl %ebx, %ebx\n\t" /* h */                                                                \
  "subq %rbx, %rax\n\t" /* word 1 of w c, borrow b1 */                                         \
  "sbbq $0, %rbx\n\t"                                                                          \
  "addq %rdx, %rbx\n\t" /* word 2 */                                                           \
  "movl $0, %" #X0 "d\n\t"                                                                     \
  "adcl $0, %" #X0 "d\n\t" /* word 3 */                                                        \
  "subq %rax, %" #X1 "\n\t"                                                                    \
  "sbbq %rbx, %" #X2 "\n\t"                                                                    \
  "sbbq %" #X0 ", %" #X3 "\n\t"

/* ROUND: one round of the product: a (rsi) times word OFF of b (rbp)
 * added into the accumulator X0..X7 (X7 zero on entry), then one word reduced (X0 cleared, the
 * new top). rcx holds zero. */
#define ROUND(OFF, X0, X1, X2, X3, X4, X5, X6, X7)                                             \
  "xorl %eax, %eax\n\t"                                                                        \
  "movq " #OFF "(%rbp), %rdx\n\t"                                                              \
  "mulxq 0(%rsi), %rax, %rbx\n\t"                                                              \
  "adcxq %rax, %" #X0 "\n\t"                                                                   \
  "adoxq %rbx, %" #X1 "\n\t"                                                                   \
  "mulxq 8(%rsi), %rax, %rbx\n\t"                                                              \
  "adcxq %rax, %" #X1 "\n\t"                                                                   \
  "adoxq %rbx, %" #X2 "\n\t"                                                                   \
  "mulxq 16(%rsi), %rax, %rbx\n\t"                                                             \
  "adcxq %rax, %" #X2 "\n\t"                                                                   \
  "adoxq %rbx, %" #X3 "\n\t"                                                                   \
  "mulxq 24(%rsi), %rax, %rbx\n\t"                                                             \
  "adcxq %rax, %" #X3 "\n\t"                                                                   \
  "adoxq %rbx, %" #X4 "\n\t"                                                                   \
  "mulxq 32(%rsi), %rax, %rbx\n\t"                                                             \
  "adcxq %rax, %" #X4 "\n\t"                                                                   \
  "adoxq %rbx, %" #X5 "\n\t"                                                                   \
  "mulxq 40(%rsi), %rax, %rbx\n\t"                                                             \
  "adcxq %rax, %" #X5 "\n\t"                                                                   \
  "adoxq %rbx, %" #X6 "\n\t"                                                                   \
  "adcxq %rcx, %" #X6 "\n\t"                                                                   \
  "adoxq %rcx, %" #X7 "\n\t"                                                                   \
  "adcxq %rcx, %" #X7 "\n\t"                                                                   \
  RED_HEAD(X0, X1, X2, X3)                                                                     \
  "sbbq $0, %" #X4 "\n\t"                                                                      \
  "sbbq $0, %" #X5 "\n\t"                                                                      \
  "sbbq $0, %" #X6 "\n\t"                                                                      \
  "sbbq $0, %" #X7 "\n\t"                                                                      \
  "addq %rdx, %" #X6 "\n\t" /* + w 2^320 */                                                    \
  "adcq $0, %" #X7 "\n\t"                                                                      \
  "movl $0, %" #X0 "d\n\t"

/* REDUCE_SQ: one reduction round of the square: X0..X5 the low words
 * of the number being reduced, X6 its top word; X0, cleared, becomes the new top word. */
#define REDUCE_SQ(X0, X1, X2, X3, X4, X5, X6)                                                  \
  RED_HEAD(X0, X1, X2, X3)                                                                     \
  "sbbq $0, %" #X4 "\n\t"                                                                      \
  "sbbq $0, %" #X5 "\n\t"                                                                      \
  "sbbq $0, %" #X6 "\n\t"                                                                      \
  "movl $0, %" #X0 "d\n\t"                                                                     \
  "sbbq $0, %" #X0 "\n\t"                                                                      \
  "addq %rdx, %" #X6 "\n\t" /* + w 2^320 */                                                    \
  "adcq $0, %" #X0 "\n\t"

/* DBL_SQ: the cross-product word at OFF(rdi) doubled on the carry chain, SQ added on the overflow
 * chain, left in X. */
#define DBL_SQ(OFF, X, SQ)                                                                     \
  "movq " #OFF "(%rdi), %" #X "\n\t"                                                           \
  "adcxq %" #X ", %" #X "\n\t"                                                                 \
  "adoxq %" #SQ ", %" #X "\n\t"
#define DBL_SQ_STORE(OFF, SQ) DBL_SQ(OFF, r8, SQ) "movq %r8, " #OFF "(%rdi)\n\t"

/* WIPE(off): the 48 bytes at off(rsp) zeroed from xmm0 (zero). */
#define WIPE(off)                                                                              \
  "movdqu %xmm0, " #off "(%rsp)\n\t"                                                           \
  "movdqu %xmm0, " #off "+16(%rsp)\n\t"                                                        \
  "movdqu %xmm0, " #off "+32(%rsp)\n\t"

/* CALL_MUL and CALL_SQR: the subroutines on temporaries of the frame (byte offsets). */
#define CALL_MUL(aoff, boff)                                                                   \
  "leaq " #aoff "(%rsp), %rsi\n\t"                                                             \
  "leaq " #boff "(%rsp), %rbp\n\t"                                                             \
  "call .Lp384_jac_mul\n\t"
#define CALL_SQR(aoff)                                                                         \
  "leaq " #aoff "(%rsp), %rsi\n\t"                                                             \
  "call .Lp384_jac_sqr\n\t"

__asm__(
    ".pushsection .rodata\n\t"
    ".p2align 3\n"
    ".Lp384_p0:\n\t.quad 0x00000000ffffffff\n"
    ".Lp384_p1:\n\t.quad 0xffffffff00000000\n\t"
    ".popsection\n\t"
    ".pushsection .text\n\t"
    /* .Lp384_jac_mul: r8..r13 = a b R^-1 mod p, a at rsi, b at rbp: six rounds over the
     * accumulator, whose registers rotate so that the result lands in r8..r13 with its carry
     * word in r14; the final subtraction of p is kept where it does not borrow. */
    ".p2align 4\n"
    ".Lp384_jac_mul:\n\t"
    ".cfi_startproc\n\t"
    "xorl %ecx, %ecx\n\t"
    "xorl %r10d, %r10d\n\t"
    "xorl %r11d, %r11d\n\t"
    "xorl %r12d, %r12d\n\t"
    "xorl %r13d, %r13d\n\t"
    "xorl %r14d, %r14d\n\t"
    "xorl %r15d, %r15d\n\t"
    "xorl %r8d, %r8d\n\t"
    "xorl %r9d, %r9d\n\t"
    ROUND(0, r10, r11, r12, r13, r14, r15, r8, r9)
    ROUND(8, r11, r12, r13, r14, r15, r8, r9, r10)
    ROUND(16, r12, r13, r14, r15, r8, r9, r10, r11)
    ROUND(24, r13, r14, r15, r8, r9, r10, r11, r12)
    ROUND(32, r14, r15, r8, r9, r10, r11, r12, r13)
    ROUND(40, r15, r8, r9, r10, r11, r12, r13, r14)
    /* the result r8..r13, carry word r14, below 2p */
    "movq %r8, %r15\n\t"
    "movq %r9, %rax\n\t"
    "movq %r10, %rbx\n\t"
    "movq %r11, %rsi\n\t"
    "movq %r12, %rbp\n\t"
    "movq %r13, %rdx\n\t"
    SUB_P(r15, rax, rbx, rsi, rbp, rdx, r14)
    "cmovncq %r15, %r8\n\t"
    "cmovncq %rax, %r9\n\t"
    "cmovncq %rbx, %r10\n\t"
    "cmovncq %rsi, %r11\n\t"
    "cmovncq %rbp, %r12\n\t"
    "cmovncq %rdx, %r13\n\t"
    "ret\n\t"
    ".cfi_endproc\n\t"
    /* .Lp384_jac_sqr: r8..r13 = a^2 R^-1 mod p, a at rsi, the twelve-word buffer at rdi: the
     * cross products row by row, doubled on the carry chain while the squares go in on the
     * overflow chain, six reduction rounds and the high words added. With
     * q0..q6 = r9, r10, r11, r12, r13, r14, r8 the result lands in r8..r13. The buffer is left
     * for the caller to zero. */
    ".p2align 4\n"
    ".Lp384_jac_sqr:\n\t"
    ".cfi_startproc\n\t"
    "xorl %ecx, %ecx\n\t"
    "xorl %eax, %eax\n\t" /* row 0: a0 a1..a5 into words 1..6 */
    "movq 0(%rsi), %rdx\n\t"
    "mulxq 8(%rsi), %r10, %r11\n\t"
    "mulxq 16(%rsi), %rax, %r12\n\t"
    "adcxq %rax, %r11\n\t"
    "mulxq 24(%rsi), %rax, %r13\n\t"
    "adcxq %rax, %r12\n\t"
    "mulxq 32(%rsi), %rax, %r14\n\t"
    "adcxq %rax, %r13\n\t"
    "mulxq 40(%rsi), %rax, %r8\n\t"
    "adcxq %rax, %r14\n\t"
    "adcxq %rcx, %r8\n\t"
    "movq %r10, 8(%rdi)\n\t"
    "movq %r11, 16(%rdi)\n\t"
    "xorl %eax, %eax\n\t" /* row 1: a1 a2..a5 into words 3..7 */
    "movq 8(%rsi), %rdx\n\t"
    "mulxq 16(%rsi), %rax, %rbx\n\t"
    "adcxq %rax, %r12\n\t"
    "adoxq %rbx, %r13\n\t"
    "mulxq 24(%rsi), %rax, %rbx\n\t"
    "adcxq %rax, %r13\n\t"
    "adoxq %rbx, %r14\n\t"
    "mulxq 32(%rsi), %rax, %rbx\n\t"
    "adcxq %rax, %r14\n\t"
    "adoxq %rbx, %r8\n\t"
    "mulxq 40(%rsi), %rax, %r10\n\t"
    "adcxq %rax, %r8\n\t"
    "adoxq %rcx, %r10\n\t"
    "adcxq %rcx, %r10\n\t"
    "movq %r12, 24(%rdi)\n\t"
    "movq %r13, 32(%rdi)\n\t"
    "xorl %eax, %eax\n\t" /* row 2: a2 a3..a5 into words 5..8 */
    "movq 16(%rsi), %rdx\n\t"
    "mulxq 24(%rsi), %rax, %rbx\n\t"
    "adcxq %rax, %r14\n\t"
    "adoxq %rbx, %r8\n\t"
    "mulxq 32(%rsi), %rax, %rbx\n\t"
    "adcxq %rax, %r8\n\t"
    "adoxq %rbx, %r10\n\t"
    "mulxq 40(%rsi), %rax, %r11\n\t"
    "adcxq %rax, %r10\n\t"
    "adoxq %rcx, %r11\n\t"
    "adcxq %rcx, %r11\n\t"
    "movq %r14, 40(%rdi)\n\t"
    "movq %r8, 48(%rdi)\n\t"
    "xorl %eax, %eax\n\t" /* row 3: a3 a4, a3 a5 into words 7..9 */
    "movq 24(%rsi), %rdx\n\t"
    "mulxq 32(%rsi), %rax, %rbx\n\t"
    "adcxq %rax, %r10\n\t"
    "adoxq %rbx, %r11\n\t"
    "mulxq 40(%rsi), %rax, %r12\n\t"
    "adcxq %rax, %r11\n\t"
    "adoxq %rcx, %r12\n\t"
    "adcxq %rcx, %r12\n\t"
    "movq 32(%rsi), %rdx\n\t" /* row 4: a4 a5 into words 9, 10 */
    "mulxq 40(%rsi), %rax, %r13\n\t"
    "addq %rax, %r12\n\t"
    "adcq $0, %r13\n\t"
    "movq %r10, 56(%rdi)\n\t"
    "movq %r11, 64(%rdi)\n\t"
    "movq %r12, 72(%rdi)\n\t"
    "movq %r13, 80(%rdi)\n\t"
    "xorl %eax, %eax\n\t" /* twice the cross products (CF) plus the squares (OF) */
    "movq 0(%rsi), %rdx\n\t"
    "mulxq %rdx, %r9, %rbx\n\t"
    DBL_SQ(8, r10, rbx)
    "movq 8(%rsi), %rdx\n\t"
    "mulxq %rdx, %rax, %rbx\n\t"
    DBL_SQ(16, r11, rax)
    DBL_SQ(24, r12, rbx)
    "movq 16(%rsi), %rdx\n\t"
    "mulxq %rdx, %rax, %rbx\n\t"
    DBL_SQ(32, r13, rax)
    DBL_SQ(40, r14, rbx)
    "movq 24(%rsi), %rdx\n\t"
    "mulxq %rdx, %rax, %rbx\n\t"
    DBL_SQ_STORE(48, rax)
    DBL_SQ_STORE(56, rbx)
    "movq 32(%rsi), %rdx\n\t"
    "mulxq %rdx, %rax, %rbx\n\t"
    DBL_SQ_STORE(64, rax)
    DBL_SQ_STORE(72, rbx)
    "movq 40(%rsi), %rdx\n\t"
    "mulxq %rdx, %rax, %rbx\n\t"
    DBL_SQ_STORE(80, rax)
    "movl $0, %r8d\n\t" /* word 11 has no cross product */
    "adcxq %r8, %r8\n\t"
    "adoxq %rbx, %r8\n\t"
    "movq %r8, 88(%rdi)\n\t"
    "movl $0, %r8d\n\t" /* reduce words 0..5 (r9..r14), top word r8 */
    REDUCE_SQ(r9, r10, r11, r12, r13, r14, r8)
    REDUCE_SQ(r10, r11, r12, r13, r14, r8, r9)
    REDUCE_SQ(r11, r12, r13, r14, r8, r9, r10)
    REDUCE_SQ(r12, r13, r14, r8, r9, r10, r11)
    REDUCE_SQ(r13, r14, r8, r9, r10, r11, r12)
    REDUCE_SQ(r14, r8, r9, r10, r11, r12, r13)
    "addq 48(%rdi), %r8\n\t" /* plus words 6..11 */
    "adcq 56(%rdi), %r9\n\t"
    "adcq 64(%rdi), %r10\n\t"
    "adcq 72(%rdi), %r11\n\t"
    "adcq 80(%rdi), %r12\n\t"
    "adcq 88(%rdi), %r13\n\t"
    "adcq $0, %r14\n\t"
    "movq %r8, 8(%rdi)\n\t" /* the sum, below 2p, less p where that does not borrow */
    "movq %r9, 16(%rdi)\n\t"
    "movq %r10, 24(%rdi)\n\t"
    "movq %r11, 32(%rdi)\n\t"
    "movq %r12, 40(%rdi)\n\t"
    "movq %r13, 48(%rdi)\n\t"
    SUB_P(r8, r9, r10, r11, r12, r13, r14)
    "cmovcq 8(%rdi), %r8\n\t"
    "cmovcq 16(%rdi), %r9\n\t"
    "cmovcq 24(%rdi), %r10\n\t"
    "cmovcq 32(%rdi), %r11\n\t"
    "cmovcq 40(%rdi), %r12\n\t"
    "cmovcq 48(%rdi), %r13\n\t"
    "ret\n\t"
    ".cfi_endproc\n\t"
    /* ec_p384_jdbl_n_adx(x, y, z, count): |count| doublings in place (count is public); the
     * step comments are jac_dbl_k's. The frame: S, D, M, B at 0, 48, 96, 144; the square's
     * buffer at 192 (96 bytes); the pointers x, y, z and count at 288, 296, 304, 312. */
    EC_ASM_GLOBAL(ec_p384_jdbl_n_adx)
    PROLOGUE(320)
    "movq %rdi, 288(%rsp)\n\t"
    "movq %rsi, 296(%rsp)\n\t"
    "movq %rdx, 304(%rsp)\n\t"
    "movq %rcx, 312(%rsp)\n\t"
    "leaq 192(%rsp), %rdi\n\t"
    "testq %rcx, %rcx\n\t"
    "jz .Lp384_jdbl_done\n\t"
    ".p2align 4\n"
    ".Lp384_jdbl_loop:\n\t"
    /* S = 2 Y */
    "movq 296(%rsp), %rsi\n\t"
    LOAD(0, rsi) TWICE STORE(0, rsp)
    /* D = delta = Z^2 */
    "movq 304(%rsp), %rsi\n\t"
    "call .Lp384_jac_sqr\n\t"
    STORE(48, rsp)
    /* Z3 = S Z = 2 Y Z */
    "movq %rsp, %rsi\n\t"
    "movq 304(%rsp), %rbp\n\t"
    "call .Lp384_jac_mul\n\t"
    "movq 304(%rsp), %rax\n\t"
    STORE(0, rax)
    /* M = X + delta, D = X - delta */
    "movq 288(%rsp), %rsi\n\t"
    LOAD(0, rsi) ADDM(48, rsp) STORE(96, rsp)
    "movq 288(%rsp), %rsi\n\t"
    LOAD(0, rsi) SUBM(48, rsp) STORE(48, rsp)
    /* S = S^2 = 4 Y^2 */
    CALL_SQR(0) STORE(0, rsp)
    /* M = alpha = 3 (X - delta)(X + delta) */
    CALL_MUL(96, 48) STORE(96, rsp) TWICE ADDM(96, rsp) STORE(96, rsp)
    /* B = 4 beta = X S */
    "movq 288(%rsp), %rsi\n\t"
    "movq %rsp, %rbp\n\t"
    "call .Lp384_jac_mul\n\t"
    STORE(144, rsp)
    /* S = 8 gamma^2 = S^2 / 2 */
    CALL_SQR(0) HALF STORE(0, rsp)
    /* X3 = alpha^2 - 2 (4 beta) */
    CALL_SQR(96) SUBM(144, rsp) SUBM(144, rsp)
    "movq 288(%rsp), %rax\n\t"
    STORE(0, rax)
    /* B = 4 beta - X3 */
    LOAD(144, rsp)
    "movq 288(%rsp), %rax\n\t"
    SUBM(0, rax) STORE(144, rsp)
    /* Y3 = alpha (4 beta - X3) - 8 gamma^2 */
    CALL_MUL(96, 144) SUBM(0, rsp)
    "movq 296(%rsp), %rax\n\t"
    STORE(0, rax)
    "decq 312(%rsp)\n\t"
    "jnz .Lp384_jdbl_loop\n\t"
    /* the temporaries S, D, M, B and the square's buffer zeroed */
    "pxor %xmm0, %xmm0\n\t"
    WIPE(0) WIPE(48) WIPE(96) WIPE(144) WIPE(192) WIPE(240)
    ".Lp384_jdbl_done:\n\t"
    EPILOGUE(320)
    EC_ASM_END(ec_p384_jdbl_n_adx)
    /* ec_p384_jmadd_adx(r, p, x2, y2): r = p + (x2, y2) with jac_madd_k's formula; the step
     * comments are its. The frame: ZZ, T, H, RR, HH, V and X3 at 0, 48, ..., 288; the square's
     * buffer at 336 (96 bytes); the pointers r, p, x2 and y2 at 432, 440, 448 and 456. p's
     * coordinates are at 0, 72 and 144 (the layout of ec_point, checked in ec_scalar_mul.c). r is
     * written last, after every read of p, so r may be p. */
    EC_ASM_GLOBAL(ec_p384_jmadd_adx)
    PROLOGUE(464)
    "movq %rdi, 432(%rsp)\n\t"
    "movq %rsi, 440(%rsp)\n\t"
    "movq %rdx, 448(%rsp)\n\t"
    "movq %rcx, 456(%rsp)\n\t"
    "leaq 336(%rsp), %rdi\n\t"
    /* ZZ = Z1^2 */
    "leaq 144(%rsi), %rsi\n\t"
    "call .Lp384_jac_sqr\n\t"
    STORE(0, rsp)
    /* T = Z1 ZZ = Z1^3 */
    "movq 440(%rsp), %rsi\n\t"
    "leaq 144(%rsi), %rsi\n\t"
    "movq %rsp, %rbp\n\t"
    "call .Lp384_jac_mul\n\t"
    STORE(48, rsp)
    /* H = U2 - X1 = X2 ZZ - X1 */
    "movq 448(%rsp), %rsi\n\t"
    "movq %rsp, %rbp\n\t"
    "call .Lp384_jac_mul\n\t"
    "movq 440(%rsp), %rsi\n\t"
    SUBM(0, rsi) STORE(96, rsp)
    /* RR = S2 - Y1 = Y2 Z1^3 - Y1 */
    "movq 456(%rsp), %rsi\n\t"
    "leaq 48(%rsp), %rbp\n\t"
    "call .Lp384_jac_mul\n\t"
    "movq 440(%rsp), %rsi\n\t"
    SUBM(72, rsi) STORE(144, rsp)
    /* HH = H^2, T = H^3 = H HH, V = X1 HH */
    CALL_SQR(96) STORE(192, rsp)
    CALL_MUL(96, 192) STORE(48, rsp)
    "movq 440(%rsp), %rsi\n\t"
    "leaq 192(%rsp), %rbp\n\t"
    "call .Lp384_jac_mul\n\t"
    STORE(240, rsp)
    /* X3 = RR^2 - H^3 - 2 V */
    CALL_SQR(144) SUBM(48, rsp) SUBM(240, rsp) SUBM(240, rsp) STORE(288, rsp)
    /* V = RR (V - X3) */
    LOAD(240, rsp) SUBM(288, rsp) STORE(240, rsp)
    CALL_MUL(144, 240) STORE(240, rsp)
    /* T = Y1 H^3 */
    "movq 440(%rsp), %rsi\n\t"
    "leaq 72(%rsi), %rsi\n\t"
    "leaq 48(%rsp), %rbp\n\t"
    "call .Lp384_jac_mul\n\t"
    STORE(48, rsp)
    /* Z3 = Z1 H */
    "movq 440(%rsp), %rsi\n\t"
    "leaq 144(%rsi), %rsi\n\t"
    "leaq 96(%rsp), %rbp\n\t"
    "call .Lp384_jac_mul\n\t"
    "movq 432(%rsp), %rsi\n\t"
    STORE(144, rsi)
    /* Y3 = V - T, X3 */
    LOAD(240, rsp) SUBM(48, rsp) STORE(72, rsi)
    LOAD(288, rsp) STORE(0, rsi)
    /* the temporaries and the square's buffer zeroed */
    "pxor %xmm0, %xmm0\n\t"
    WIPE(0) WIPE(48) WIPE(96) WIPE(144) WIPE(192) WIPE(240) WIPE(288) WIPE(336) WIPE(384)
    EPILOGUE(464)
    EC_ASM_END(ec_p384_jmadd_adx)
    /* ec_p384_mul_adx(r, a, b) and ec_p384_sqr_adx(r, a): the subroutines for the C callers
     * (ec_mod_mul, the group law's C formulas); r is written after a and b are read, so it may be
     * either. The frame holds r (the square's at 96, after its buffer, which is zeroed). */
    EC_ASM_GLOBAL(ec_p384_mul_adx)
    PROLOGUE(8)
    "movq %rdi, 0(%rsp)\n\t"
    "movq %rdx, %rbp\n\t"
    "call .Lp384_jac_mul\n\t"
    "movq 0(%rsp), %rax\n\t"
    STORE(0, rax)
    EPILOGUE(8)
    EC_ASM_END(ec_p384_mul_adx)
    EC_ASM_GLOBAL(ec_p384_sqr_adx)
    PROLOGUE(104)
    "movq %rdi, 96(%rsp)\n\t"
    "movq %rsp, %rdi\n\t"
    "call .Lp384_jac_sqr\n\t"
    "movq 96(%rsp), %rax\n\t"
    STORE(0, rax)
    "pxor %xmm0, %xmm0\n\t"
    WIPE(0) WIPE(48)
    EPILOGUE(104)
    EC_ASM_END(ec_p384_sqr_adx)
    ".popsection");
