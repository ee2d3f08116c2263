/* Direct system calls of module/rand (x86-64). For the files of module/rand only: they define
 * _GNU_SOURCE before any include, as <sys/mman.h>'s MAP_ANONYMOUS needs. */
#ifndef FIPSMOD_MODULE_RAND_SYSCALL_H
#define FIPSMOD_MODULE_RAND_SYSCALL_H

#include <stddef.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "module/syscall.h"

/* The RNG asks the kernel for entropy, for its fork-detection probe and for membarrier with the
 * syscall instruction itself (module/syscall.h), not through libc's getrandom() or syscall():
 * those are dynamic symbols that an LD_PRELOAD library can replace (and feed the DRBGs a stream
 * of its choice, or fake a membarrier). The mappings that hold the states are made (mmap, madvise,
 * munmap) the same way, so no interposed function learns where the secrets live or gets to choose
 * memory shared with another process for them. */
/* rand_map returns |len| bytes of fresh private anonymous read-write memory, or NULL. */
static inline void *rand_map(size_t len) {
  long r = fm_syscall6(SYS_mmap, 0, (long)len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                         -1, 0);
  return r < 0 && r > -4096 ? NULL : (void *)r;
}

/* rand_unmap unmaps what rand_map returned. */
static inline void rand_unmap(void *p, size_t len) { (void)fm_syscall(SYS_munmap, (long)p, (long)len, 0); }

/* rand_advise is madvise(2): 0 when the kernel accepted the advice. */
static inline int rand_advise(void *p, size_t len, int advice) {
  return fm_syscall(SYS_madvise, (long)p, (long)len, advice) == 0 ? 0 : -1;
}

#endif
