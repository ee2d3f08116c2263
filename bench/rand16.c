/* fipsmod-bench-rand16: draws 16 random bytes N times after a warm-up, for counting instructions
 * per call under valgrind (bench/callgrind-rand16.sh). "fipsmod" calls fm_rand_bytes through
 * libfipsmod.so, "openssl" calls RAND_bytes. The warm-up (1000 calls) creates the thread's DRBG
 * and fills what is filled on first use, so that the difference of two runs with different N is
 * the steady-state cost of N calls, reseeds included at their real rate. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/rand.h>

#include "fipsmod/module.h"
#include "fipsmod/rand.h"

static volatile unsigned char g_sink;

int main(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "paths") == 0) {
    /* The code paths the module chose, which under valgrind follow valgrind's CPU model. */
    printf("%s\n", fm_module_cpu_paths());
    return 0;
  }
  if (argc != 3 || (strcmp(argv[1], "fipsmod") != 0 && strcmp(argv[1], "openssl") != 0)) {
    fprintf(stderr, "usage: %s fipsmod|openssl N | %s paths\n", argv[0], argv[0]);
    return 2;
  }
  int use_fm = strcmp(argv[1], "fipsmod") == 0;
  long n = strtol(argv[2], NULL, 10);
  unsigned char buf[16];
  for (long i = 0; i < 1000 + n; i++) {
    int ok = use_fm ? fm_rand_bytes(buf, sizeof(buf)) == FM_OK : RAND_bytes(buf, sizeof(buf)) == 1;
    if (!ok) {
      fprintf(stderr, "%s: draw failed\n", argv[1]);
      return 1;
    }
    g_sink ^= buf[0];
  }
  return 0;
}
