/* Text macros shared by the assembly of ec_p256_jac_adx.c and ec_p384_jac_adx.c (file-scope
 * __asm__ in AT&T syntax, registers named with one %): operands, the prologue and epilogue of
 * their functions with their unwind directives. x86-64 only. */
#ifndef FIPSMOD_MODULE_EC_ASM_H
#define FIPSMOD_MODULE_EC_ASM_H

/* EC_ASM_MEM(off, base, w): the operand at byte off + w from the base register. */
#define EC_ASM_MEM(off, base, w) #off "+" #w "(%" #base ")"

/* EC_ASM_PROLOGUE(frame), after EC_ASM_GLOBAL (which opens the function's unwind information),
 * saves the callee-saved registers rbp, rbx and r12..r15 and reserves |frame| bytes;
 * EC_ASM_EPILOGUE(frame) undoes it, returns and closes the unwind information. */
#define EC_ASM_PUSH(reg, at)                                                                   \
  "pushq %" #reg "\n\t"                                                                        \
  ".cfi_adjust_cfa_offset 8\n\t"                                                               \
  ".cfi_offset %" #reg ", " #at "\n\t"
#define EC_ASM_POP(reg)                                                                        \
  "popq %" #reg "\n\t"                                                                         \
  ".cfi_adjust_cfa_offset -8\n\t"
#define EC_ASM_PROLOGUE(frame)                                                                 \
  EC_ASM_PUSH(rbp, -16) EC_ASM_PUSH(rbx, -24) EC_ASM_PUSH(r12, -32)                            \
  EC_ASM_PUSH(r13, -40) EC_ASM_PUSH(r14, -48) EC_ASM_PUSH(r15, -56)                            \
  "subq $" #frame ", %rsp\n\t"                                                                 \
  ".cfi_adjust_cfa_offset " #frame "\n\t"
#define EC_ASM_EPILOGUE(frame)                                                                 \
  "addq $" #frame ", %rsp\n\t"                                                                 \
  ".cfi_adjust_cfa_offset -" #frame "\n\t" EC_ASM_POP(r15) EC_ASM_POP(r14) EC_ASM_POP(r13)     \
  EC_ASM_POP(r12) EC_ASM_POP(rbx) EC_ASM_POP(rbp)                                              \
  "ret\n\t"                                                                                    \
  ".cfi_endproc\n\t"

/* EC_ASM_GLOBAL(name): the header of a global function of the module (hidden: never exported),
 * which opens its unwind information. Its first instruction is ENDBR64, a no-op on CPUs without
 * CET, so that the function stays a valid target of indirect calls (the C code takes its address)
 * when the module is built with -fcf-protection, which marks every object, these included, as
 * IBT-compatible. */
#define EC_ASM_GLOBAL(name)                                                                    \
  ".globl " #name "\n\t"                                                                       \
  ".hidden " #name "\n\t"                                                                      \
  ".type " #name ", @function\n\t"                                                             \
  ".p2align 4\n" #name ":\n\t"                                                                 \
  ".cfi_startproc\n\t"                                                                         \
  "endbr64\n\t"
#define EC_ASM_END(name) ".size " #name ", .-" #name "\n\t"

#endif
