#define _GNU_SOURCE
#include "tests/common/test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int test_failures = 0;

void test_check_mem(const char *file, int line, const char *an, const void *a, const char *bn,
                    const void *b, size_t len) {
  if (len == 0 || memcmp(a, b, len) == 0) return;
  test_failures++;
  fprintf(stderr, "%s:%d: CHECK_MEM failed: %s != %s (%zu bytes)\n  ", file, line, an, bn, len);
  const uint8_t *x = a, *y = b;
  for (size_t i = 0; i < len && i < 64; i++) fprintf(stderr, "%02x", x[i]);
  fprintf(stderr, "\n  ");
  for (size_t i = 0; i < len && i < 64; i++) fprintf(stderr, "%02x", y[i]);
  fprintf(stderr, "\n");
}

int test_is_all_zero(const void *p, size_t len) {
  const uint8_t *b = p;
  uint8_t acc = 0;
  for (size_t i = 0; i < len; i++) acc |= b[i];
  return acc == 0;
}

static int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

long test_hex_decode(const char *hex, uint8_t *out, size_t cap) {
  size_t n = strlen(hex);
  if (n % 2 != 0 || n / 2 > cap) return -1;
  for (size_t i = 0; i < n / 2; i++) {
    int hi = hex_digit(hex[2 * i]), lo = hex_digit(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return -1;
    out[i] = (uint8_t)(hi << 4 | lo);
  }
  return (long)(n / 2);
}

void test_hex_encode(const uint8_t *in, size_t len, char *out) {
  static const char digits[] = "0123456789abcdef";
  for (size_t i = 0; i < len; i++) {
    out[2 * i] = digits[in[i] >> 4];
    out[2 * i + 1] = digits[in[i] & 15];
  }
  out[2 * len] = '\0';
}

static uint64_t rotl64(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

/* splitmix64 spreads one seed word over the four state words. */
static uint64_t splitmix64(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

void test_rng_seed_fixed(test_rng *r, uint64_t seed) {
  uint64_t x = seed;
  for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&x);
}

uint64_t test_rng_seed(test_rng *r, const char *test_name) {
  uint64_t seed;
  const char *env = getenv("FIPSMOD_TEST_SEED");
  if (env != NULL && *env != '\0') {
    seed = strtoull(env, NULL, 0);
  } else {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    seed = (uint64_t)ts.tv_sec * 1000000007ull ^ (uint64_t)ts.tv_nsec;
  }
  fprintf(stderr, "%s: seed 0x%016llx (replay with FIPSMOD_TEST_SEED=0x%016llx)\n", test_name,
          (unsigned long long)seed, (unsigned long long)seed);
  test_rng_seed_fixed(r, seed);
  return seed;
}

long test_case_count(long full) {
  const char *env = getenv("FIPSMOD_DIFF_DIVISOR");
  if (env == NULL || *env == '\0') return full;
  char *end = NULL;
  const long div = strtol(env, &end, 10);
  if (*end != '\0' || div < 2) return full;
  const long n = full / div;
  return n > 0 ? n : 1;
}

uint64_t test_rng_u64(test_rng *r) {
  uint64_t *s = r->s;
  const uint64_t result = rotl64(s[1] * 5, 7) * 9;
  const uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl64(s[3], 45);
  return result;
}

uint64_t test_rng_below(test_rng *r, uint64_t bound) { return test_rng_u64(r) % bound; }

void test_rng_bytes(test_rng *r, void *out, size_t len) {
  uint8_t *p = out;
  while (len > 0) {
    uint64_t v = test_rng_u64(r);
    size_t n = len < 8 ? len : 8;
    memcpy(p, &v, n);
    p += n;
    len -= n;
  }
}

int test_main_result(const char *name) {
  if (test_failures == 0) {
    printf("%s: all checks passed\n", name);
    return 0;
  }
  printf("%s: %d checks failed\n", name, test_failures);
  return 1;
}

uint8_t *test_read_vector_file(const char *rel, size_t *len) {
  enum { MAX = 1 << 20 };
  char path[1024];
  *len = 0;
  snprintf(path, sizeof path, "%s/%s", FIPSMOD_VECTORS_DIR, rel);
  FILE *fp = fopen(path, "rb");
  uint8_t *buf = fp != NULL ? malloc(MAX + 1) : NULL;
  size_t n = buf != NULL ? fread(buf, 1, MAX + 1, fp) : 0;
  if (fp != NULL) fclose(fp);
  if (buf == NULL || n > MAX) {
    fprintf(stderr, "cannot read %s (missing, over 1 MiB or out of memory)\n", path);
    test_failures++;
    free(buf);
    return NULL;
  }
  buf[n] = 0;
  *len = n;
  return buf;
}
