/* The RNG's state pages do not depend on libc's idea of the page size (issue 18, F8): run with
 * LD_PRELOAD=pagesize_shim.so and SHIM_PAGESIZE=1 or 64 (sysconf, getpagesize and getauxval
 * lie), the module still draws (no fault), a forked child draws other bytes than its parent, and
 * the pages that hold the DRBG states are marked MADV_DONTDUMP, and MADV_WIPEONFORK where the
 * kernel offers it: /proc/self/smaps shows "dd" and "wf" in their VmFlags. The module takes the
 * page size from the kernel (module/rand/syscall.h) and checks every madvise it relies on.
 * Usage: test_rand_pagesize (libfipsmod.so linked; the shim comes from the environment). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fipsmod/fipsmod.h"
#include "tests/common/test_util.h"

/* count_flag counts the mappings of this process whose VmFlags hold |flag|. */
static int count_flag(const char *flag) {
  FILE *f = fopen("/proc/self/smaps", "r");
  if (f == NULL) return -1;
  char line[512];
  int n = 0;
  while (fgets(line, sizeof line, f) != NULL) {
    if (strncmp(line, "VmFlags:", 8) != 0) continue;
    char pat[8];
    snprintf(pat, sizeof pat, " %s", flag);
    const char *p = line + 8;
    while ((p = strstr(p, pat)) != NULL) {
      if (p[3] == ' ' || p[3] == '\n') {
        n++;
        break;
      }
      p += 3;
    }
  }
  fclose(f);
  return n;
}

/* kernel_has_wipeonfork: the kernel accepts MADV_WIPEONFORK on a page of ours. */
static int kernel_has_wipeonfork(void) {
#if defined(MADV_WIPEONFORK)
  const long ps = 4096;
  void *p = (void *)syscall(SYS_mmap, 0, ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                            -1, 0);
  if (p == MAP_FAILED) return 0;
  const int ok = syscall(SYS_madvise, p, ps, MADV_WIPEONFORK) == 0;
  syscall(SYS_munmap, p, ps);
  return ok;
#else
  return 0;
#endif
}

/* smaps_shows_advice: a page of ours marked MADV_DONTDUMP shows "dd" in /proc/self/smaps. Under
 * qemu-user the file is the emulator's, and qemu does not pass that advice on, so the mapping
 * flags cannot be observed there. */
static int smaps_shows_advice(void) {
  const long ps = 4096;
  void *p = (void *)syscall(SYS_mmap, 0, ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                            -1, 0);
  if (p == MAP_FAILED) return 0;
  const int before = count_flag("dd");
  const int ok = syscall(SYS_madvise, p, ps, MADV_DONTDUMP) == 0 && count_flag("dd") > before;
  syscall(SYS_munmap, p, ps);
  return ok;
}

int main(void) {
  const char *want = getenv("SHIM_PAGESIZE");
  CHECK(want != NULL);
  if (want != NULL) CHECK_EQ_INT(sysconf(_SC_PAGESIZE), atol(want)); /* the shim is in place */
  CHECK_EQ_INT(fm_module_state(), FM_STATE_OPERATIONAL);
  uint8_t a[48], b[48];
  uint64_t w = 0;
  const int dd_before = count_flag("dd");
  CHECK_EQ_INT(fm_rand_bytes(a, sizeof a), FM_OK);
  CHECK_EQ_INT(fm_rand_u64(&w), FM_OK);
  if (smaps_shows_advice()) {
    /* This thread's state now exists: one more mapping kept out of core dumps. */
    CHECK(count_flag("dd") > dd_before);
    if (kernel_has_wipeonfork()) CHECK(count_flag("wf") >= 2); /* the generation page and the state */
  } else {
    printf("test_rand_pagesize: /proc/self/smaps shows no MADV_DONTDUMP of ours (qemu-user): "
           "the mapping flags are not checked\n");
  }
  int fd[2];
  CHECK(pipe(fd) == 0);
  pid_t pid = fork();
  if (pid == 0) {
    uint8_t c[48];
    int bad = fm_rand_bytes(c, sizeof c) != FM_OK;
    bad |= write(fd[1], c, sizeof c) != (ssize_t)sizeof c;
    _exit(bad);
  }
  CHECK_EQ_INT(fm_rand_bytes(b, sizeof b), FM_OK);
  uint8_t c[48];
  CHECK(read(fd[0], c, sizeof c) == (ssize_t)sizeof c);
  int status = 0;
  CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
  CHECK(memcmp(b, c, sizeof b) != 0);
  CHECK(memcmp(a, b, sizeof a) != 0);
  return test_main_result("test_rand_pagesize");
}
