/* Direct system calls for the module (x86-64 and aarch64 Linux).
 *
 * The module asks the kernel for what must not be forged with the system call instruction itself
 * (syscall on x86-64, svc #0 on aarch64),
 * not through libc's wrappers: those are dynamic symbols that an LD_PRELOAD library can replace.
 * module/rand/syscall.h builds entropy, fork detection and its mappings on fm_syscall; the
 * helpers below serve the rest: the process id that keys RSA blinding pairs (an interposed
 * getpid() answering the parent's id would make a child reuse its parent's pairs), and the clock
 * and yield of cleanup's bounded waits (an interposed clock that never advances, or a yield that
 * blocks, would make fm_module_cleanup() hang). UUID v7 timestamps keep libc's clock_gettime
 * (the vDSO, 20 ns rather than a system call's 100+): the time is the caller's to trust.
 * fm_syscall returns the kernel's result: >= 0, or -errno. */
#ifndef FIPSMOD_MODULE_SYSCALL_H
#define FIPSMOD_MODULE_SYSCALL_H

#include <sys/syscall.h>
#include <time.h>

#if defined(__x86_64__)
/* x86-64: number in rax, arguments in rdi, rsi, rdx, r10, r8, r9; the kernel clobbers rcx, r11. */
static inline long fm_syscall(long nr, long a1, long a2, long a3) {
  long ret;
  __asm__ __volatile__("syscall"
                       : "=a"(ret)
                       : "0"(nr), "D"(a1), "S"(a2), "d"(a3)
                       : "rcx", "r11", "memory");
  return ret;
}

/* fm_syscall6 is fm_syscall with six arguments (mmap, clone, wait4). */
static inline long fm_syscall6(long nr, long a1, long a2, long a3, long a4, long a5, long a6) {
  long ret;
  register long r10 __asm__("r10") = a4;
  register long r8 __asm__("r8") = a5;
  register long r9 __asm__("r9") = a6;
  __asm__ __volatile__("syscall"
                       : "=a"(ret)
                       : "0"(nr), "D"(a1), "S"(a2), "d"(a3), "r"(r10), "r"(r8), "r"(r9)
                       : "rcx", "r11", "memory");
  return ret;
}
#elif defined(__aarch64__)
/* aarch64: number in x8, arguments in x0-x5, the result in x0; svc #0 preserves every other
 * register. */
static inline long fm_syscall(long nr, long a1, long a2, long a3) {
  register long x8 __asm__("x8") = nr;
  register long x0 __asm__("x0") = a1;
  register long x1 __asm__("x1") = a2;
  register long x2 __asm__("x2") = a3;
  __asm__ __volatile__("svc #0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2) : "memory");
  return x0;
}

/* fm_syscall6 is fm_syscall with six arguments (mmap, clone, wait4). */
static inline long fm_syscall6(long nr, long a1, long a2, long a3, long a4, long a5, long a6) {
  register long x8 __asm__("x8") = nr;
  register long x0 __asm__("x0") = a1;
  register long x1 __asm__("x1") = a2;
  register long x2 __asm__("x2") = a3;
  register long x3 __asm__("x3") = a4;
  register long x4 __asm__("x4") = a5;
  register long x5 __asm__("x5") = a6;
  __asm__ __volatile__("svc #0"
                       : "+r"(x0)
                       : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5)
                       : "memory");
  return x0;
}
#else
#error "module/syscall.h issues system calls on x86-64 and aarch64 Linux only"
#endif

/* fm_sys_getpid is getpid(2). */
static inline long fm_sys_getpid(void) { return fm_syscall(SYS_getpid, 0, 0, 0); }

/* fm_sys_monotonic_ns is CLOCK_MONOTONIC in nanoseconds (0 if the kernel refused, which it does
 * not for this clock). */
static inline long fm_sys_monotonic_ns(void) {
  struct timespec ts = {0, 0};
  (void)fm_syscall(SYS_clock_gettime, CLOCK_MONOTONIC, (long)&ts, 0);
  return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

/* fm_sys_yield is sched_yield(2). */
static inline void fm_sys_yield(void) { (void)fm_syscall(SYS_sched_yield, 0, 0, 0); }

#endif
