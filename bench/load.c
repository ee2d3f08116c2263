/* fipsmod-bench-load: a tiny program that fipsmod-speed starts to time loading the module in a
 * fresh process. It dlopens LIBRARY (which runs the module's power-on entry: integrity check and
 * self-tests) and writes the dlopen time in nanoseconds to standard output, then exits. With
 * "none" it loads nothing (the cost of the process itself). It links nothing of fipsmod, so the
 * module is loaded only by the dlopen being timed. Exit status: 0, or 1 when dlopen failed. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s LIBRARY|none\n", argv[0]);
    return 2;
  }
  uint64_t t0 = now_ns();
  if (strcmp(argv[1], "none") != 0) {
    /* RTLD_NOW: every relocation is resolved inside the timed region, as -z now does anyway. */
    void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
      fprintf(stderr, "dlopen: %s\n", dlerror());
      return 1;
    }
  }
  uint64_t t1 = now_ns();
  printf("%llu\n", (unsigned long long)(t1 - t0));
  return 0;
}
