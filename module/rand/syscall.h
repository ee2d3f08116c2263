/* Direct system calls of module/rand (x86-64 and aarch64). For the files of module/rand only:
 * they define _GNU_SOURCE before any include, as <sys/mman.h>'s MAP_ANONYMOUS needs. */
#ifndef FIPSMOD_MODULE_RAND_SYSCALL_H
#define FIPSMOD_MODULE_RAND_SYSCALL_H

#include <stddef.h>
#include <stdint.h>
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

/* RAND_MAX_PAGE is the largest page size rand_kernel_page_size looks for (x86-64 base pages are
 * 4 KiB, aarch64's 4, 16 or 64 KiB; the probe assumes none of them). */
#define RAND_MAX_PAGE ((size_t)1 << 16)

/* rand_kernel_page_size returns the page size as the kernel applies it, not as libc reports it
 * (sysconf, getpagesize and getauxval are symbols an LD_PRELOAD library can replace: a page size
 * of 1 made the state layout fault, 64 made every madvise fail). madvise(2) refuses an address
 * that is not page aligned (EINVAL); a fresh mapping starts on a page boundary; so the page size
 * is the smallest power of two P from 4096 for which madvise(map + P) is accepted. 4096 if the
 * probe cannot run (then the mappings' own madvise checks catch a wrong answer). Linux on x86-64
 * has one base page size, 4 KiB, so the probe (three system calls at every load) runs only where
 * the page size is the kernel's build option (aarch64). */
static inline size_t rand_kernel_page_size(void) {
#if defined(__x86_64__)
  return 4096;
#else
  uint8_t *map = (uint8_t *)rand_map(2 * RAND_MAX_PAGE);
  if (map == NULL) return 4096;
  size_t page = 4096;
  for (size_t p = 4096; p <= RAND_MAX_PAGE; p <<= 1) {
    if (rand_advise(map + p, p, MADV_NORMAL) == 0) {
      page = p;
      break;
    }
  }
  rand_unmap(map, 2 * RAND_MAX_PAGE);
  return page;
#endif
}

#endif
