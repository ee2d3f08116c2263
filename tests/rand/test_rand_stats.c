/* Output statistics of the process RNG. These catch gross failures (a stuck or biased byte, a
 * counter leaking into the output, a position that never changes); thresholds are set so that a
 * correct generator fails with negligible probability:
 *  - 64 MiB from fm_rand_bytes (1 MiB draws): chi-square of the 256 byte counts (255 degrees of
 *    freedom) must lie in [150, 400]. Wilson-Hilferty: P(X > 400) ~ 2e-8, P(X < 150) ~ 2e-8.
 *    Each count must lie within 6 standard deviations of 2^18 (sd = 511; P ~ 256 * 2e-9).
 *  - 8 MiB from fm_rand_u64 (the batch path): the same chi-square bounds.
 *  - 12,000 draws of 32 bytes: every byte value appears at every position. A given value misses
 *    a given position with probability (255/256)^12000 = 4e-21; over 8192 (value, position)
 *    pairs, < 4e-17. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fipsmod/rand.h"
#include "tests/common/test_util.h"

static double chi_square(const uint64_t counts[256], uint64_t total) {
  double expected = (double)total / 256.0, chi = 0;
  for (int i = 0; i < 256; i++) {
    double d = (double)counts[i] - expected;
    chi += d * d / expected;
  }
  return chi;
}

static void test_bytes_64mib(void) {
  const size_t chunk = 1 << 20, chunks = 64;
  uint8_t *buf = malloc(chunk);
  uint64_t counts[256] = {0};
  for (size_t c = 0; c < chunks; c++) {
    CHECK_EQ_INT(fm_rand_bytes(buf, chunk), FM_OK);
    for (size_t i = 0; i < chunk; i++) counts[buf[i]]++;
  }
  free(buf);
  uint64_t total = (uint64_t)chunk * chunks;
  double chi = chi_square(counts, total);
  fprintf(stderr, "64 MiB fm_rand_bytes: chi-square %.1f (255 dof)\n", chi);
  CHECK(chi > 150.0 && chi < 400.0);
  double mean = (double)total / 256.0, sd = sqrt(mean * (255.0 / 256.0));
  for (int i = 0; i < 256; i++) CHECK(fabs((double)counts[i] - mean) < 6 * sd);
}

static void test_u64_8mib(void) {
  uint64_t counts[256] = {0};
  const size_t words = (8u << 20) / 8;
  for (size_t i = 0; i < words; i++) {
    uint64_t x;
    CHECK_EQ_INT(fm_rand_u64(&x), FM_OK);
    for (int j = 0; j < 8; j++) counts[(x >> (8 * j)) & 0xff]++;
  }
  double chi = chi_square(counts, (uint64_t)words * 8);
  fprintf(stderr, "8 MiB fm_rand_u64: chi-square %.1f (255 dof)\n", chi);
  CHECK(chi > 150.0 && chi < 400.0);
}

static void test_every_value_every_position(void) {
  static uint8_t seen[32][256];
  memset(seen, 0, sizeof(seen));
  for (int d = 0; d < 12000; d++) {
    uint8_t b[32];
    CHECK_EQ_INT(fm_rand_bytes(b, sizeof(b)), FM_OK);
    for (int p = 0; p < 32; p++) seen[p][b[p]] = 1;
  }
  int missing = 0;
  for (int p = 0; p < 32; p++) {
    for (int v = 0; v < 256; v++) missing += !seen[p][v];
  }
  CHECK_EQ_INT(missing, 0);
}

static const test_case cases[] = {
  TEST_CASE(bytes_64mib),
  TEST_CASE(u64_8mib),
  TEST_CASE(every_value_every_position),
};

int main(int argc, char **argv) {
  return TEST_RUN(argc, argv, "test_rand_stats", cases);
}
