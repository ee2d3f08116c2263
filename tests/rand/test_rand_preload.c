/* No LD_PRELOAD library can feed or read the RNG of libfipsmod.so.
 *
 * Two child processes run with LD_PRELOAD=preload_shim.so (its getrandom, getentropy,
 * syscall(SYS_getrandom) and read return one fixed pseudo-random stream; its memcpy, memmove,
 * memset and memcmp record their call sites). Each loads libfipsmod.so, draws bytes (a short
 * request, a long one, a reseed), a word and a UUID, and reports. The test asserts:
 *  - the shim is in place (its report function is found) and the module is OPERATIONAL;
 *  - the two processes drew different bytes (a module fed by the shim draws the same ones);
 *  - the shim served no entropy request, and no memory-function call came from a call site
 *    inside libfipsmod.so (so no secret the module copies or wipes went through it).
 * Usage: test_rand_preload <libfipsmod.so> <preload_shim.so> */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fipsmod/fipsmod.h"
#include "tests/common/test_util.h"

typedef unsigned long (*shim_report_fn)(const char *, unsigned long *, unsigned long *);

#define SYM(h, name) ((__typeof__(&name))dlsym(h, #name))

static int child(const char *lib) {
  shim_report_fn report = (shim_report_fn)dlsym(RTLD_DEFAULT, "shim_report");
  if (report == NULL) {
    printf("no-shim\n");
    return 2;
  }
  void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
  if (h == NULL) {
    printf("dlopen-failed %s\n", dlerror());
    return 3;
  }
  uint8_t a[16], big[1000];
  uint64_t w = 0;
  char uuid[FM_UUID_STRING_LEN + 1] = {0};
  int st = SYM(h, fm_module_state)();
  int e1 = SYM(h, fm_rand_bytes)(a, sizeof(a));
  int e2 = SYM(h, fm_rand_bytes)(big, sizeof(big));
  int e3 = SYM(h, fm_rand_reseed)();
  int e4 = SYM(h, fm_rand_u64)(&w);
  int e5 = SYM(h, fm_uuid_v4_string)(uuid);
  unsigned long mem_calls = 0, lib_sites = 0;
  unsigned long entropy_calls = report("libfipsmod", &mem_calls, &lib_sites);
  char hex[33];
  test_hex_encode(a, sizeof(a), hex);
  printf("%s %016llx %s %d %d %d %d %d %d %lu %lu\n", hex, (unsigned long long)w, uuid, st, e1, e2,
         e3, e4, e5, entropy_calls, lib_sites);
  fflush(stdout);
  return 0;
}

/* run_child runs this program as a child with the shim preloaded; its report goes to |line|. */
static int run_child(const char *self, const char *lib, const char *shim, char *line, size_t cap) {
  int fds[2];
  if (pipe(fds) != 0) return -1;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 1);
    close(fds[0]);
    setenv("LD_PRELOAD", shim, 1);
    execl(self, self, "--child", lib, (char *)NULL);
    _exit(127);
  }
  close(fds[1]);
  size_t got = 0;
  ssize_t n;
  while (got + 1 < cap && (n = read(fds[0], line + got, cap - 1 - got)) > 0) got += (size_t)n;
  line[got] = '\0';
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "--child") == 0) return child(argv[2]);
  if (argc != 3) {
    fprintf(stderr, "usage: %s <libfipsmod.so> <preload_shim.so>\n", argv[0]);
    return 2;
  }
  alarm(120);
  char out[2][512];
  for (int i = 0; i < 2; i++) {
    int rc = run_child("/proc/self/exe", argv[1], argv[2], out[i], sizeof(out[i]));
    fprintf(stderr, "child %d (rc %d): %s", i, rc, out[i]);
    CHECK_EQ_INT(rc, 0);
  }
  char hex[2][64], uuid[2][64];
  unsigned long long w[2];
  int st[2], e[2][5];
  unsigned long entropy[2], sites[2];
  for (int i = 0; i < 2; i++) {
    int n = sscanf(out[i], "%63s %llx %63s %d %d %d %d %d %d %lu %lu", hex[i], &w[i], uuid[i], &st[i],
                   &e[i][0], &e[i][1], &e[i][2], &e[i][3], &e[i][4], &entropy[i], &sites[i]);
    CHECK_EQ_INT(n, 11);
    if (n != 11) return test_main_result("test_rand_preload");
    CHECK_EQ_INT(st[i], FM_STATE_OPERATIONAL);
    for (int k = 0; k < 5; k++) CHECK_EQ_INT(e[i][k], FM_OK);
    /* The shim served no entropy, and libfipsmod.so called none of its memory functions. */
    CHECK_EQ_INT(entropy[i], 0);
    CHECK_EQ_INT(sites[i], 0);
  }
  /* Two processes draw different bytes. */
  CHECK(strcmp(hex[0], hex[1]) != 0);
  CHECK(w[0] != w[1]);
  CHECK(strcmp(uuid[0], uuid[1]) != 0);
  return test_main_result("test_rand_preload");
}
