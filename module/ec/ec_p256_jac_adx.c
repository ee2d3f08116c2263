/* P-256's Jacobian doubling and mixed addition as assembly functions, for CPUs with BMI2 and ADX:
 * ec_p256_jdbl_n_adx runs jac_dbl_k's formula (ec_group_inline.h; dbl-2001-b with a = -3,
 * 4M + 4S) |count| times in one call, ec_p256_jmadd_adx jac_madd_k's (ec_scalar_mul.c;
 * madd-2004-hmv, 8M + 3S), with their field operations in registers. The C build calls
 * ec_p256_mul_adx or ec_p256_sqr_adx once per product, and each call saves and restores six
 * callee-saved registers, reloads its operands and stores its result; the additions around the
 * products go through memory. Here each function saves the registers once, the products are
 * internal subroutines that leave their result in r8..r11, and the additions, subtractions and
 * the halving take that result from the registers. Measured on this host (TSC ticks, best of
 * runs): a doubling 194 -> 167, a mixed addition 250 -> 217, k P 74.0k -> 65.6k.
 *
 * Register use throughout: rdi holds p's top word p3 = 0xffffffff00000001 (the reduction's MULX
 * operand and the corrections' mask); the subroutines take a in rsi and b in rbp (pointers),
 * return the product in r8..r11 and clobber rax, rbx, rcx, rdx and r12..r15. The temporaries
 * live in the frame (the layouts are at each function) and are zeroed before the return.
 *
 * Constant time: no value drives a branch or an address (the one loop counts the public
 * |count|). The products reduce by p's form (below) and keep the final subtraction by CMOV; the
 * modular additions subtract p and keep the sum by CMOV where that borrows; the subtractions add
 * p ANDed with the borrow's mask; the halving adds p ANDed with the low bit's mask. Every value
 * stays fully reduced (below p), as in the C build, so the results are bit-identical to it
 * (test_ec_asm's jac_adx checks them against reference formulas; test_ec_ct runs them under
 * valgrind with the scalars undefined). ec_p256_mul_adx and ec_p256_sqr_adx, at the end, wrap
 * the product subroutines for the C callers (ec_mod_mul and the C formulas). */
#include <stdint.h>

#include "module/ec/ec_asm.h"
#include "module/ec/internal.h"

#define MEM EC_ASM_MEM
#define PROLOGUE EC_ASM_PROLOGUE
#define EPILOGUE EC_ASM_EPILOGUE

/* LOAD and STORE move the four words at off(base) to and from r8..r11. */
#define LOAD(off, base)                                                                        \
  "movq " MEM(off, base, 0) ", %r8\n\t"                                                        \
  "movq " MEM(off, base, 8) ", %r9\n\t"                                                        \
  "movq " MEM(off, base, 16) ", %r10\n\t"                                                      \
  "movq " MEM(off, base, 24) ", %r11\n\t"
#define STORE(off, base)                                                                       \
  "movq %r8, " MEM(off, base, 0) "\n\t"                                                        \
  "movq %r9, " MEM(off, base, 8) "\n\t"                                                        \
  "movq %r10, " MEM(off, base, 16) "\n\t"                                                      \
  "movq %r11, " MEM(off, base, 24) "\n\t"

/* COND_SUB_P: r8..r11 with rcx a fifth word (0 or 1) hold a value below 2p; it is reduced by p
 * where that does not borrow (the copies in rax, rbx, r12 and r13 are kept where it does).
 * Clobbers rax, rbx, rcx, r12, r13, r14. */
#define COND_SUB_P                                                                             \
  "movq %r8, %rax\n\t"                                                                         \
  "movq %r9, %rbx\n\t"                                                                         \
  "movq %r10, %r12\n\t"                                                                        \
  "movq %r11, %r13\n\t"                                                                        \
  "movl $0xffffffff, %r14d\n\t" /* p's word 1 */                                              \
  "subq $-1, %r8\n\t"                                                                          \
  "sbbq %r14, %r9\n\t"                                                                         \
  "sbbq $0, %r10\n\t"                                                                          \
  "sbbq %rdi, %r11\n\t"                                                                        \
  "sbbq $0, %rcx\n\t"                                                                          \
  "cmovcq %rax, %r8\n\t"                                                                       \
  "cmovcq %rbx, %r9\n\t"                                                                       \
  "cmovcq %r12, %r10\n\t"                                                                      \
  "cmovcq %r13, %r11\n\t"

/* ADDM: r8..r11 = r8..r11 + the four words at off(base), mod p. */
#define ADDM(off, base)                                                                        \
  "xorl %ecx, %ecx\n\t"                                                                        \
  "addq " MEM(off, base, 0) ", %r8\n\t"                                                        \
  "adcq " MEM(off, base, 8) ", %r9\n\t"                                                        \
  "adcq " MEM(off, base, 16) ", %r10\n\t"                                                      \
  "adcq " MEM(off, base, 24) ", %r11\n\t"                                                      \
  "adcq $0, %rcx\n\t" COND_SUB_P

/* TWICE: r8..r11 = 2 r8..r11 mod p. */
#define TWICE                                                                                  \
  "xorl %ecx, %ecx\n\t"                                                                        \
  "addq %r8, %r8\n\t"                                                                          \
  "adcq %r9, %r9\n\t"                                                                          \
  "adcq %r10, %r10\n\t"                                                                        \
  "adcq %r11, %r11\n\t"                                                                        \
  "adcq $0, %rcx\n\t" COND_SUB_P

/* ADD_P_MASKED(W0, W1, W2, W3): W0..W3 += p AND rax (rax all-ones or zero), mod 2^256.
 * Clobbers rbx and rcx. */
#define ADD_P_MASKED(W0, W1, W2, W3)                                                           \
  "movl %eax, %ebx\n\t" /* p's word 1 (0xffffffff), masked */                                 \
  "movq %rax, %rcx\n\t"                                                                        \
  "andq %rdi, %rcx\n\t" /* p's word 3, masked */                                              \
  "addq %rax, %" #W0 "\n\t"                                                                    \
  "adcq %rbx, %" #W1 "\n\t"                                                                    \
  "adcq $0, %" #W2 "\n\t"                                                                      \
  "adcq %rcx, %" #W3 "\n\t"

/* SUBM: r8..r11 = r8..r11 - the four words at off(base), mod p: p is added back where the
 * difference borrows. Clobbers rax, rbx, rcx. */
#define SUBM(off, base)                                                                        \
  "subq " MEM(off, base, 0) ", %r8\n\t"                                                        \
  "sbbq " MEM(off, base, 8) ", %r9\n\t"                                                        \
  "sbbq " MEM(off, base, 16) ", %r10\n\t"                                                      \
  "sbbq " MEM(off, base, 24) ", %r11\n\t"                                                      \
  "sbbq %rax, %rax\n\t" ADD_P_MASKED(r8, r9, r10, r11)

/* RSUBM: r8..r11 = the four words at off(base) - r8..r11, mod p. Clobbers rax, rbx, rcx and
 * r12..r15. */
#define RSUBM(off, base)                                                                       \
  "movq " MEM(off, base, 0) ", %r12\n\t"                                                       \
  "movq " MEM(off, base, 8) ", %r13\n\t"                                                       \
  "movq " MEM(off, base, 16) ", %r14\n\t"                                                      \
  "movq " MEM(off, base, 24) ", %r15\n\t"                                                      \
  "subq %r8, %r12\n\t"                                                                         \
  "sbbq %r9, %r13\n\t"                                                                         \
  "sbbq %r10, %r14\n\t"                                                                        \
  "sbbq %r11, %r15\n\t"                                                                        \
  "sbbq %rax, %rax\n\t" ADD_P_MASKED(r12, r13, r14, r15)                                       \
  "movq %r12, %r8\n\t"                                                                         \
  "movq %r13, %r9\n\t"                                                                         \
  "movq %r14, %r10\n\t"                                                                        \
  "movq %r15, %r11\n\t"

/* HALF: r8..r11 = r8..r11 / 2 mod p: p is added where the value is odd (a 257-bit sum, its top
 * bit in rdx), then the sum is shifted right one bit. Clobbers rax, rbx, rcx, rdx. */
#define HALF                                                                                   \
  "movq %r8, %rax\n\t"                                                                         \
  "andl $1, %eax\n\t"                                                                          \
  "negq %rax\n\t"                                                                              \
  "xorl %edx, %edx\n\t" ADD_P_MASKED(r8, r9, r10, r11)                                         \
  "adcq $0, %rdx\n\t"                                                                          \
  "shrdq $1, %r9, %r8\n\t"                                                                     \
  "shrdq $1, %r10, %r9\n\t"                                                                    \
  "shrdq $1, %r11, %r10\n\t"                                                                   \
  "shrdq $1, %rdx, %r11\n\t"

/* The products are written for the prime's form p = 2^256 - 2^224 + 2^192 + 2^96 - 1:
 * -p^-1 = 1 mod 2^64, so each reduction round's quotient q is the low word itself, and
 * q p = q p3 2^192 + q 2^96 - q: adding it clears the low word, adds q shifted by 32 bits into
 * the next two words and q p3 (one MULX) into the two above. The product computes the full 512 bits
 * first, one row a b_i per word of b, each row on two carry chains at once (ADCX on the carry flag
 * for the low halves, ADOX on the overflow flag for the high halves), so that the rows' chains
 * overlap; the square takes the six cross products a_i a_j (i < j), doubled on the carry chain
 * while the four squares go in on the overflow chain (ten MULX against sixteen). Then four
 * reduction rounds over the low four words leave (low + m p) / 2^256 <= p in four words, the high
 * four words are added (the sum is below 2p, as a b < p^2), and one subtraction of p is kept
 * where it does not borrow.
 *
 * RED_ROUND: one reduction round on the rotating words R0..R3 (the quotient is R0 itself; R0 then
 * takes the round's top word). */
#define RED_ROUND(R0, R1, R2, R3)                                                              \
  "movq %" #R0 ", %rdx\n\t"                                                                    \
  "mulxq %rdi, %rcx, %" #R0 "\n\t"                                                             \
  "movq %rdx, %rax\n\t"                                                                        \
  "shlq $32, %rax\n\t"                                                                         \
  "shrq $32, %rdx\n\t"                                                                         \
  "addq %rax, %" #R1 "\n\t"                                                                    \
  "adcq %rdx, %" #R2 "\n\t"                                                                    \
  "adcq %rcx, %" #R3 "\n\t"                                                                    \
  "adcq $0, %" #R0 "\n\t"

/* REDUCE: the 512-bit r8..r15 to r8..r11 below p: four rounds over the low words, the high
 * words added (the sum is below 2p), one subtraction of p kept by CMOV. */
#define REDUCE                                                                                 \
  RED_ROUND(r8, r9, r10, r11)                                                                  \
  RED_ROUND(r9, r10, r11, r8)                                                                  \
  RED_ROUND(r10, r11, r8, r9)                                                                  \
  RED_ROUND(r11, r8, r9, r10)                                                                  \
  "xorl %ecx, %ecx\n\t"                                                                        \
  "addq %r12, %r8\n\t"                                                                         \
  "adcq %r13, %r9\n\t"                                                                         \
  "adcq %r14, %r10\n\t"                                                                        \
  "adcq %r15, %r11\n\t"                                                                        \
  "adcq %rcx, %rcx\n\t" COND_SUB_P

/* MUL_ROW: a (rsi) times word OFF of b (rbp) added into W0..W4 (W4 fresh), low halves on the
 * carry chain and high halves on the overflow chain. */
#define MUL_ROW(OFF, W0, W1, W2, W3, W4)                                                       \
  "movq " #OFF "(%rbp), %rdx\n\t"                                                              \
  "xorl %ecx, %ecx\n\t"                                                                        \
  "mulxq 0(%rsi), %rax, %rbx\n\t"                                                              \
  "adcxq %rax, %" #W0 "\n\t"                                                                   \
  "adoxq %rbx, %" #W1 "\n\t"                                                                   \
  "mulxq 8(%rsi), %rax, %rbx\n\t"                                                              \
  "adcxq %rax, %" #W1 "\n\t"                                                                   \
  "adoxq %rbx, %" #W2 "\n\t"                                                                   \
  "mulxq 16(%rsi), %rax, %rbx\n\t"                                                             \
  "adcxq %rax, %" #W2 "\n\t"                                                                   \
  "adoxq %rbx, %" #W3 "\n\t"                                                                   \
  "mulxq 24(%rsi), %rax, %" #W4 "\n\t"                                                         \
  "adcxq %rax, %" #W3 "\n\t"                                                                   \
  "adoxq %rcx, %" #W4 "\n\t"                                                                   \
  "adcxq %rcx, %" #W4 "\n\t"

/* CALL_MUL and CALL_SQR: the subroutines on temporaries of the frame (byte offsets). */
#define CALL_MUL(aoff, boff)                                                                   \
  "leaq " #aoff "(%rsp), %rsi\n\t"                                                             \
  "leaq " #boff "(%rsp), %rbp\n\t"                                                             \
  "call .Lp256_jac_mul\n\t"
#define CALL_SQR(aoff)                                                                         \
  "leaq " #aoff "(%rsp), %rsi\n\t"                                                             \
  "call .Lp256_jac_sqr\n\t"

/* WIPE2(off): the 32 bytes at off(rsp) zeroed from xmm0 (zero). */
#define WIPE2(off)                                                                             \
  "movdqu %xmm0, " #off "(%rsp)\n\t"                                                           \
  "movdqu %xmm0, " #off "+16(%rsp)\n\t"

__asm__(
    ".pushsection .text\n\t"
    /* .Lp256_jac_mul: r8..r11 = a b R^-1 mod p, a at rsi, b at rbp. */
    ".p2align 4\n"
    ".Lp256_jac_mul:\n\t"
    ".cfi_startproc\n\t"
    "xorl %ecx, %ecx\n\t"
    "movq 0(%rbp), %rdx\n\t"
    "mulxq 0(%rsi), %r8, %r9\n\t"
    "mulxq 8(%rsi), %rax, %r10\n\t"
    "adcxq %rax, %r9\n\t"
    "mulxq 16(%rsi), %rax, %r11\n\t"
    "adcxq %rax, %r10\n\t"
    "mulxq 24(%rsi), %rax, %r12\n\t"
    "adcxq %rax, %r11\n\t"
    "adcxq %rcx, %r12\n\t"
    MUL_ROW(8, r9, r10, r11, r12, r13)
    MUL_ROW(16, r10, r11, r12, r13, r14)
    MUL_ROW(24, r11, r12, r13, r14, r15)
    REDUCE
    "ret\n\t"
    ".cfi_endproc\n\t"
    /* .Lp256_jac_sqr: r8..r11 = a^2 R^-1 mod p, a at rsi: the cross products doubled on the carry
     * chain while the squares go in on the overflow chain. */
    ".p2align 4\n"
    ".Lp256_jac_sqr:\n\t"
    ".cfi_startproc\n\t"
    "xorl %ecx, %ecx\n\t"
    "movq 0(%rsi), %rdx\n\t"
    "mulxq 8(%rsi), %r9, %r10\n\t"
    "mulxq 16(%rsi), %rax, %r11\n\t"
    "adcxq %rax, %r10\n\t"
    "mulxq 24(%rsi), %rax, %r12\n\t"
    "adcxq %rax, %r11\n\t"
    "adcxq %rcx, %r12\n\t"
    "movq 8(%rsi), %rdx\n\t"
    "mulxq 16(%rsi), %rax, %rbx\n\t"
    "adcxq %rax, %r11\n\t"
    "adoxq %rbx, %r12\n\t"
    "mulxq 24(%rsi), %rax, %r13\n\t"
    "adcxq %rax, %r12\n\t"
    "adoxq %rcx, %r13\n\t"
    "adcxq %rcx, %r13\n\t"
    "movq 16(%rsi), %rdx\n\t"
    "mulxq 24(%rsi), %rax, %r14\n\t"
    "adcxq %rax, %r13\n\t"
    "adcxq %rcx, %r14\n\t"
    "movq %rcx, %r15\n\t"
    "movq 0(%rsi), %rdx\n\t"
    "mulxq %rdx, %r8, %rbx\n\t"
    "adcxq %r9, %r9\n\t"
    "adoxq %rbx, %r9\n\t"
    "movq 8(%rsi), %rdx\n\t"
    "mulxq %rdx, %rax, %rbx\n\t"
    "adcxq %r10, %r10\n\t"
    "adoxq %rax, %r10\n\t"
    "adcxq %r11, %r11\n\t"
    "adoxq %rbx, %r11\n\t"
    "movq 16(%rsi), %rdx\n\t"
    "mulxq %rdx, %rax, %rbx\n\t"
    "adcxq %r12, %r12\n\t"
    "adoxq %rax, %r12\n\t"
    "adcxq %r13, %r13\n\t"
    "adoxq %rbx, %r13\n\t"
    "movq 24(%rsi), %rdx\n\t"
    "mulxq %rdx, %rax, %rbx\n\t"
    "adcxq %r14, %r14\n\t"
    "adoxq %rax, %r14\n\t"
    "adcxq %r15, %r15\n\t"
    "adoxq %rbx, %r15\n\t"
    REDUCE
    "ret\n\t"
    ".cfi_endproc\n\t"
    /* ec_p256_jdbl_n_adx(x, y, z, count): |count| doublings in place, one pass of the loop
     * each (count is public); the step comments are jac_dbl_k's. count sits at 152 in the frame. */
    EC_ASM_GLOBAL(ec_p256_jdbl_n_adx)
    PROLOGUE(160)
    "movq %rdi, 128(%rsp)\n\t"
    "movq %rsi, 136(%rsp)\n\t"
    "movq %rdx, 144(%rsp)\n\t"
    "movq %rcx, 152(%rsp)\n\t"
    "movabsq $0xffffffff00000001, %rdi\n\t"
    "testq %rcx, %rcx\n\t"
    "jz .Lp256_jdbl_done\n\t"
    ".p2align 4\n"
    ".Lp256_jdbl_loop:\n\t"
    /* S = 2 Y */
    "movq 136(%rsp), %rsi\n\t"
    LOAD(0, rsi) TWICE STORE(0, rsp)
    /* D = delta = Z^2 */
    "movq 144(%rsp), %rsi\n\t"
    "call .Lp256_jac_sqr\n\t"
    STORE(32, rsp)
    /* Z3 = S Z = 2 Y Z */
    "movq %rsp, %rsi\n\t"
    "movq 144(%rsp), %rbp\n\t"
    "call .Lp256_jac_mul\n\t"
    "movq 144(%rsp), %rax\n\t"
    STORE(0, rax)
    /* M = X + delta, D = X - delta */
    "movq 128(%rsp), %rsi\n\t"
    LOAD(0, rsi) ADDM(32, rsp) STORE(64, rsp)
    LOAD(0, rsi) SUBM(32, rsp) STORE(32, rsp)
    /* S = S^2 = 4 Y^2 */
    CALL_SQR(0) STORE(0, rsp)
    /* M = alpha = 3 (X - delta)(X + delta) */
    CALL_MUL(64, 32) STORE(64, rsp) TWICE ADDM(64, rsp) STORE(64, rsp)
    /* B = 4 beta = X S */
    "movq 128(%rsp), %rsi\n\t"
    "movq %rsp, %rbp\n\t"
    "call .Lp256_jac_mul\n\t"
    STORE(96, rsp)
    /* S = 8 gamma^2 = S^2 / 2 */
    CALL_SQR(0) HALF STORE(0, rsp)
    /* X3 = alpha^2 - 2 (4 beta) */
    CALL_SQR(64) SUBM(96, rsp) SUBM(96, rsp)
    "movq 128(%rsp), %rax\n\t"
    STORE(0, rax)
    /* B = 4 beta - X3 */
    RSUBM(96, rsp) STORE(96, rsp)
    /* Y3 = alpha (4 beta - X3) - 8 gamma^2 */
    CALL_MUL(64, 96) SUBM(0, rsp)
    "movq 136(%rsp), %rax\n\t"
    STORE(0, rax)
    "decq 152(%rsp)\n\t"
    "jnz .Lp256_jdbl_loop\n\t"
    /* the temporaries S, D, M and B zeroed */
    "pxor %xmm0, %xmm0\n\t"
    WIPE2(0) WIPE2(32) WIPE2(64) WIPE2(96)
    ".Lp256_jdbl_done:\n\t"
    EPILOGUE(160)
    EC_ASM_END(ec_p256_jdbl_n_adx)
    /* ec_p256_jmadd_adx(r, p, x2, y2): r = p + (x2, y2) with jac_madd_k's formula; the step
     * comments are its. The frame: ZZ, T, H, RR, HH, V and X3 at 0, 32, ..., 192; the pointers r,
     * p, x2 and y2 at 224, 232, 240 and 248. p's coordinates are at 0, 72 and 144 (the layout of
     * ec_point, checked in ec_scalar_mul.c). r is written last, after every read of p, so r may
     * be p. */
    EC_ASM_GLOBAL(ec_p256_jmadd_adx)
    PROLOGUE(256)
    "movq %rdi, 224(%rsp)\n\t"
    "movq %rsi, 232(%rsp)\n\t"
    "movq %rdx, 240(%rsp)\n\t"
    "movq %rcx, 248(%rsp)\n\t"
    "movabsq $0xffffffff00000001, %rdi\n\t"
    /* ZZ = Z1^2 */
    "leaq 144(%rsi), %rsi\n\t"
    "call .Lp256_jac_sqr\n\t"
    STORE(0, rsp)
    /* T = Z1 ZZ = Z1^3 */
    "movq %rsp, %rbp\n\t"
    "call .Lp256_jac_mul\n\t"
    STORE(32, rsp)
    /* H = U2 - X1 = X2 ZZ - X1 */
    "movq 240(%rsp), %rsi\n\t"
    "call .Lp256_jac_mul\n\t"
    "movq 232(%rsp), %rdx\n\t"
    SUBM(0, rdx) STORE(64, rsp)
    /* RR = S2 - Y1 = Y2 Z1^3 - Y1 */
    "movq 248(%rsp), %rsi\n\t"
    "leaq 32(%rsp), %rbp\n\t"
    "call .Lp256_jac_mul\n\t"
    "movq 232(%rsp), %rdx\n\t"
    SUBM(72, rdx) STORE(96, rsp)
    /* HH = H^2, T = H^3 = H HH, V = X1 HH */
    CALL_SQR(64) STORE(128, rsp)
    CALL_MUL(64, 128) STORE(32, rsp)
    "movq 232(%rsp), %rsi\n\t"
    "leaq 128(%rsp), %rbp\n\t"
    "call .Lp256_jac_mul\n\t"
    STORE(160, rsp)
    /* X3 = RR^2 - H^3 - 2 V */
    CALL_SQR(96) SUBM(32, rsp) SUBM(160, rsp) SUBM(160, rsp) STORE(192, rsp)
    /* V = RR (V - X3) */
    RSUBM(160, rsp) STORE(160, rsp)
    CALL_MUL(96, 160) STORE(160, rsp)
    /* T = Y1 H^3 */
    "movq 232(%rsp), %rsi\n\t"
    "leaq 72(%rsi), %rsi\n\t"
    "leaq 32(%rsp), %rbp\n\t"
    "call .Lp256_jac_mul\n\t"
    STORE(32, rsp)
    /* Z3 = Z1 H */
    "movq 232(%rsp), %rsi\n\t"
    "leaq 144(%rsi), %rsi\n\t"
    "leaq 64(%rsp), %rbp\n\t"
    "call .Lp256_jac_mul\n\t"
    "movq 224(%rsp), %rdx\n\t"
    STORE(144, rdx)
    /* Y3 = V - T, X3 */
    LOAD(160, rsp) SUBM(32, rsp) STORE(72, rdx)
    LOAD(192, rsp) STORE(0, rdx)
    /* the temporaries zeroed */
    "pxor %xmm0, %xmm0\n\t"
    WIPE2(0) WIPE2(32) WIPE2(64) WIPE2(96) WIPE2(128) WIPE2(160) WIPE2(192)
    EPILOGUE(256)
    EC_ASM_END(ec_p256_jmadd_adx)
    /* ec_p256_mul_adx(r, a, b) and ec_p256_sqr_adx(r, a): the subroutines for the C callers
     * (ec_mod_mul, the group law's C formulas); r is written after a and b are read, so it may be
     * either. The frame holds r. */
    EC_ASM_GLOBAL(ec_p256_mul_adx)
    PROLOGUE(8)
    "movq %rdi, 0(%rsp)\n\t"
    "movq %rdx, %rbp\n\t"
    "movabsq $0xffffffff00000001, %rdi\n\t"
    "call .Lp256_jac_mul\n\t"
    "movq 0(%rsp), %rax\n\t"
    STORE(0, rax)
    EPILOGUE(8)
    EC_ASM_END(ec_p256_mul_adx)
    EC_ASM_GLOBAL(ec_p256_sqr_adx)
    PROLOGUE(8)
    "movq %rdi, 0(%rsp)\n\t"
    "movabsq $0xffffffff00000001, %rdi\n\t"
    "call .Lp256_jac_sqr\n\t"
    "movq 0(%rsp), %rax\n\t"
    STORE(0, rax)
    EPILOGUE(8)
    EC_ASM_END(ec_p256_sqr_adx)
    ".popsection");
