/* Direct system calls of module/rand (x86-64). For the files of module/rand only: they define
 * _GNU_SOURCE before any include, as <sys/mman.h>'s MAP_ANONYMOUS needs. */
#ifndef FIPSMOD_MODULE_RAND_SYSCALL_H
#define FIPSMOD_MODULE_RAND_SYSCALL_H

#include <stddef.h>
#include <sys/mman.h>
#include <sys/syscall.h>

/* The RNG asks the kernel for entropy, for its fork-detection probe and for membarrier with the
 * syscall instruction itself, not through libc's getrandom() or syscall(): those are dynamic
 * symbols that an LD_PRELOAD library can replace (and feed the DRBGs a stream of its choice, or
 * fake a membarrier). The mappings that hold the states are made (mmap, madvise, munmap) the
 * same way, so no interposed function learns where the secrets live or gets to choose memory
 * shared with another process for them. rand_syscall returns the kernel's result: >= 0, or
 * -errno. x86-64 only, the module's one target. */
#if !defined(__x86_64__)
#error "module/rand issues its system calls with the x86-64 syscall instruction"
#endif
static inline long rand_syscall(long nr, long a1, long a2, long a3) {
  long ret;
  __asm__ __volatile__("syscall"
                       : "=a"(ret)
                       : "0"(nr), "D"(a1), "S"(a2), "d"(a3)
                       : "rcx", "r11", "memory");
  return ret;
}

/* rand_syscall6 is rand_syscall with six arguments (mmap, clone). */
static inline long rand_syscall6(long nr, long a1, long a2, long a3, long a4, long a5, long a6) {
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

/* rand_map returns |len| bytes of fresh private anonymous read-write memory, or NULL. */
static inline void *rand_map(size_t len) {
  long r = rand_syscall6(SYS_mmap, 0, (long)len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                         -1, 0);
  return r < 0 && r > -4096 ? NULL : (void *)r;
}

/* rand_unmap unmaps what rand_map returned. */
static inline void rand_unmap(void *p, size_t len) { (void)rand_syscall(SYS_munmap, (long)p, (long)len, 0); }

/* rand_advise is madvise(2): 0 when the kernel accepted the advice. */
static inline int rand_advise(void *p, size_t len, int advice) {
  return rand_syscall(SYS_madvise, (long)p, (long)len, advice) == 0 ? 0 : -1;
}

#endif
