/* `fipsmod rand N [--hex]` and `fipsmod uuid [-n N] [--v7]`: draws through rand.h and uuid.h. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "fipsmod/rand.h"
#include "fipsmod/uuid.h"

/* The most either command produces in one run: enough for any script, small enough that a
 * typo cannot fill a disk. */
#define MAX_RAND_BYTES (UINT64_C(1) << 32)
#define MAX_UUIDS 100000000ull

/* parse_count accepts a plain decimal number 0..max (no sign, no suffix). */
static int parse_count(const char *s, unsigned long long max, unsigned long long *out) {
  if (s == NULL || *s < '0' || *s > '9') return -1;
  errno = 0;
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno != 0 || *end != '\0' || v > max) return -1;
  *out = v;
  return 0;
}

int cmd_rand(int argc, char **argv) {
  const char *count = NULL;
  int hex = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--hex") == 0) {
      hex = 1;
    } else if (count == NULL && argv[i][0] != '-') {
      count = argv[i];
    } else {
      fprintf(stderr, "usage: fipsmod rand N [--hex]\n");
      return 2;
    }
  }
  unsigned long long n;
  if (parse_count(count, MAX_RAND_BYTES, &n) < 0) {
    fprintf(stderr, "fipsmod rand: N must be a number of bytes from 0 to %llu\n",
            (unsigned long long)MAX_RAND_BYTES);
    return 2;
  }
  uint8_t buf[4096];
  char text[2 * sizeof(buf) + 1];
  static const char digits[] = "0123456789abcdef";
  int status = 0;
  while (n > 0) {
    size_t chunk = n > sizeof(buf) ? sizeof(buf) : (size_t)n;
    int rc = fm_rand_bytes(buf, chunk);
    if (rc != FM_OK) {
      fprintf(stderr, "fipsmod rand: %s\n", fm_strerror(rc));
      status = 1;
      break;
    }
    size_t wrote;
    if (hex) {
      for (size_t i = 0; i < chunk; i++) {
        text[2 * i] = digits[buf[i] >> 4];
        text[2 * i + 1] = digits[buf[i] & 15];
      }
      wrote = fwrite(text, 2, chunk, stdout);
    } else {
      wrote = fwrite(buf, 1, chunk, stdout);
    }
    if (wrote != chunk) {
      fprintf(stderr, "fipsmod rand: write error\n");
      status = 1;
      break;
    }
    n -= chunk;
  }
  /* The bytes are secret until the caller publishes them: do not leave copies behind. */
  memset(buf, 0, sizeof(buf));
  memset(text, 0, sizeof(text));
  __asm__ __volatile__("" : : "r"(buf), "r"(text) : "memory");
  if (status == 0 && hex) putchar('\n');
  if (fflush(stdout) != 0) status = 1;
  return status;
}

int cmd_uuid(int argc, char **argv) {
  unsigned long long n = 1;
  int v7 = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--v7") == 0) {
      v7 = 1;
    } else if (strcmp(argv[i], "--v4") == 0) {
      v7 = 0;
    } else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc) {
      if (parse_count(argv[++i], MAX_UUIDS, &n) < 0) {
        fprintf(stderr, "fipsmod uuid: -n must be a number from 0 to %llu\n", MAX_UUIDS);
        return 2;
      }
    } else {
      fprintf(stderr, "usage: fipsmod uuid [-n N] [--v7]\n");
      return 2;
    }
  }
  char s[FM_UUID_STRING_LEN + 1];
  for (unsigned long long i = 0; i < n; i++) {
    int rc = v7 ? fm_uuid_v7_string(s) : fm_uuid_v4_string(s);
    if (rc != FM_OK) {
      fprintf(stderr, "fipsmod uuid: %s\n", fm_strerror(rc));
      return 1;
    }
    if (puts(s) == EOF) {
      fprintf(stderr, "fipsmod uuid: write error\n");
      return 1;
    }
  }
  return fflush(stdout) == 0 ? 0 : 1;
}
