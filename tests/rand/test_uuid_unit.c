/* UUIDs (uuid.h, RFC 9562): version and variant bits, the string form and its parser, version 7
 * ordering. With --v4-no-duplicates: 10^7 version 4 UUIDs without a duplicate; with
 * --v7-two-threads: 10^6 version 7 UUIDs from two threads that sort in creation order. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fipsmod/uuid.h"
#include "module/rand/internal.h"
#include "tests/common/test_util.h"
#include "tests/rand/rand_test_util.h"

static void test_bits(void) {
  uint8_t u[16];
  char s[37];
  int v = -1;
  for (int i = 0; i < 1000; i++) {
    CHECK_EQ_INT(fm_uuid_v4(u), FM_OK);
    CHECK_EQ_INT(u[6] >> 4, 4);
    CHECK_EQ_INT(u[8] >> 6, 2);
    CHECK_EQ_INT(fm_uuid_version(u, &v), FM_OK);
    CHECK_EQ_INT(v, 4);
    CHECK_EQ_INT(fm_uuid_v7(u), FM_OK);
    CHECK_EQ_INT(u[6] >> 4, 7);
    CHECK_EQ_INT(u[8] >> 6, 2);
    CHECK_EQ_INT(fm_uuid_version(u, &v), FM_OK);
    CHECK_EQ_INT(v, 7);
    CHECK_EQ_INT(fm_uuid_v4_string(s), FM_OK);
    CHECK_EQ_INT(strlen(s), 36);
    CHECK(s[14] == '4' && strchr("89ab", s[19]) != NULL);
    CHECK_EQ_INT(fm_uuid_v7_string(s), FM_OK);
    CHECK(s[14] == '7' && strchr("89ab", s[19]) != NULL);
  }
  /* The random bits vary: over 1000 version 4 UUIDs every one of the 122 random bits takes both
   * values (a bit stuck at one value has probability 2^-999). */
  uint8_t or_all[16] = {0}, and_all[16];
  memset(and_all, 0xff, sizeof(and_all));
  for (int i = 0; i < 1000; i++) {
    CHECK_EQ_INT(fm_uuid_v4(u), FM_OK);
    for (int j = 0; j < 16; j++) {
      or_all[j] |= u[j];
      and_all[j] &= u[j];
    }
  }
  for (int j = 0; j < 16; j++) {
    uint8_t fixed = j == 6 ? 0xf0 : j == 8 ? 0xc0 : 0;
    CHECK_EQ_INT(or_all[j] | fixed, 0xff);
    CHECK_EQ_INT(and_all[j] & (uint8_t)~fixed, 0);
  }
}

static void test_v7_time(void) {
  uint8_t u[16];
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  uint64_t now = (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
  CHECK_EQ_INT(fm_uuid_v7(u), FM_OK);
  uint64_t ms = 0;
  for (int i = 0; i < 6; i++) ms = ms << 8 | u[i];
  CHECK(ms + 5000 > now && ms < now + 5000);
  /* Strictly increasing in one thread, also within a millisecond (10^5 in a row). */
  uint8_t prev[16];
  memcpy(prev, u, 16);
  int bad = 0;
  for (int i = 0; i < 100000; i++) {
    CHECK_EQ_INT(fm_uuid_v7(u), FM_OK);
    bad += memcmp(prev, u, 16) >= 0;
    memcpy(prev, u, 16);
  }
  CHECK_EQ_INT(bad, 0);
}

static uint64_t realtime_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static uint64_t v7_ms(const uint8_t u[16]);

/* The timestamp of each version 7 UUID lies between the clock's milliseconds just before and
 * just after the call, over 60 ms of back-to-back calls: each millisecond's end is crossed tens
 * of times, so an interval of uuid.c's clock that ran past its millisecond's end (a rate bound
 * too high) shows as the millisecond before. Where the TSC is invariant (and FIPSMOD_CPU is not
 * portable) the interval is in use by then; elsewhere it never is. */
static void test_v7_clock(void) {
  uint8_t u[16];
  const uint64_t start = realtime_ms();
  long calls = 0, bad = 0;
  while (realtime_ms() < start + 60) {
    const uint64_t before = realtime_ms();
    CHECK_EQ_INT(fm_uuid_v7(u), FM_OK);
    const uint64_t after = realtime_ms();
    const uint64_t ms = v7_ms(u);
    if (ms < before || ms > after) {
      if (bad++ < 5) fprintf(stderr, "v7 ms %llu outside [%llu, %llu]\n", (unsigned long long)ms,
                             (unsigned long long)before, (unsigned long long)after);
    }
    calls++;
  }
  CHECK(calls > 1000);
  CHECK_EQ_INT(bad, 0);
  const bool tsc = fm_cpu_invariant_tsc();
  fprintf(stderr, "%ld calls; invariant TSC in use: %s; span %llu ticks\n", calls,
          tsc ? "yes" : "no", (unsigned long long)fm_uuid_clock_span_for_testing());
  if (tsc) {
    CHECK(fm_uuid_clock_span_for_testing() > 0);
  } else {
    CHECK_EQ_INT(fm_uuid_clock_span_for_testing(), 0);
  }
}

static uint64_t v7_ms(const uint8_t u[16]) {
  uint64_t ms = 0;
  for (int i = 0; i < 6; i++) ms = ms << 8 | u[i];
  return ms;
}

static uint32_t v7_counter(const uint8_t u[16]) {
  return (uint32_t)(u[6] & 0x0f) << 12 | (uint32_t)u[7] << 4 | (uint32_t)(u[8] >> 2 & 0x0f);
}

/* The counter sits where RFC 9562 method 1 puts it, and an overflow borrows the next
 * millisecond; a clock behind the last timestamp keeps counting from it. */
static void test_v7_counter(void) {
  uint8_t a[16], b[16];
  CHECK_EQ_INT(fm_uuid_v7(a), FM_OK);
  CHECK_EQ_INT(fm_uuid_v7(b), FM_OK);
  if (v7_ms(a) == v7_ms(b)) CHECK_EQ_INT(v7_counter(b), v7_counter(a) + 1);
  uint64_t future = v7_ms(b) + 100000; /* the clock stepped back by 100 s */
  fm_uuid_v7_set_last_for_testing(future, 0xfffe);
  CHECK_EQ_INT(fm_uuid_v7(a), FM_OK);
  CHECK_EQ_INT(v7_ms(a), future);
  CHECK_EQ_INT(v7_counter(a), 0xffff);
  CHECK_EQ_INT(fm_uuid_v7(b), FM_OK);
  CHECK_EQ_INT(v7_ms(b), future + 1);
  CHECK_EQ_INT(v7_counter(b), 0);
  CHECK(memcmp(a, b, 16) < 0);
}

static void test_format_parse(void) {
  /* RFC 9562 Appendix A.2 example (version 4) and A.6 (version 7), and the version 1 example
   * of A.1. */
  static const struct {
    const char *s;
    int version;
  } examples[] = {
      {"919108f7-52d1-4320-9bac-f847db4148a8", 4},
      {"017f22e2-79b0-7cc3-98c4-dc0c0c07398f", 7},
      {"C232AB00-9414-11EC-B3C8-9F6BDECED846", 1},
  };
  for (size_t i = 0; i < sizeof(examples) / sizeof(examples[0]); i++) {
    uint8_t u[16];
    char s[37], lower[37];
    int v = -1;
    CHECK_EQ_INT(fm_uuid_parse(examples[i].s, 36, u), FM_OK);
    CHECK_EQ_INT(fm_uuid_version(u, &v), FM_OK);
    CHECK_EQ_INT(v, examples[i].version);
    CHECK_EQ_INT(fm_uuid_format(u, s), FM_OK);
    for (int j = 0; j < 37; j++) {
      char c = examples[i].s[j];
      lower[j] = (c >= 'A' && c <= 'F') ? (char)(c - 'A' + 'a') : c;
    }
    CHECK(strcmp(s, lower) == 0);
  }
  uint8_t u[16];
  CHECK_EQ_INT(fm_uuid_parse("919108f7-52d1-4320-9bac-f847db4148a8", 36, NULL), FM_OK);
  CHECK_EQ_INT(fm_uuid_parse("919108f7-52d1-4320-9bac-f847db4148a", 35, u), FM_ERR_PARSE);
  CHECK_EQ_INT(fm_uuid_parse("919108f7-52d1-4320-9bac-f847db4148a80", 37, u), FM_ERR_PARSE);
  CHECK_EQ_INT(fm_uuid_parse("919108g7-52d1-4320-9bac-f847db4148a8", 36, u), FM_ERR_PARSE);
  CHECK_EQ_INT(fm_uuid_parse("919108f7052d1-4320-9bac-f847db4148a8", 36, u), FM_ERR_PARSE);
  CHECK_EQ_INT(fm_uuid_parse("919108f7-52d14320--9bac-f847db4148a8", 36, u), FM_ERR_PARSE);
  CHECK_EQ_INT(fm_uuid_parse("{19108f7-52d1-4320-9bac-f847db4148a}", 36, u), FM_ERR_PARSE);
  CHECK_EQ_INT(fm_uuid_parse(" 19108f7-52d1-4320-9bac-f847db4148a8", 36, u), FM_ERR_PARSE);
  CHECK_EQ_INT(fm_uuid_parse("919108f7-52d1-4320-9bac-f847db4148a\0", 36, u), FM_ERR_PARSE);
  CHECK(test_is_all_zero(u, 16));
  CHECK_EQ_INT(fm_uuid_parse(NULL, 36, u), FM_ERR_BAD_ARGUMENT);
  int v;
  uint8_t ncs[16] = {0};
  CHECK_EQ_INT(fm_uuid_version(ncs, &v), FM_ERR_PARSE); /* variant 0xx (NCS) */
  CHECK_EQ_INT(fm_uuid_version(NULL, &v), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_uuid_v4(NULL), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_uuid_v7_string(NULL), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_uuid_format(NULL, (char[37]){0}), FM_ERR_BAD_ARGUMENT);
  /* Round trip of fresh UUIDs through both cases. */
  for (int i = 0; i < 1000; i++) {
    char s[37];
    uint8_t a[16], b[16];
    CHECK_EQ_INT(fm_uuid_v4(a), FM_OK);
    CHECK_EQ_INT(fm_uuid_format(a, s), FM_OK);
    CHECK_EQ_INT(fm_uuid_parse(s, 36, b), FM_OK);
    CHECK_MEM(a, b, 16);
    for (int j = 0; j < 36; j++) {
      if (s[j] >= 'a' && s[j] <= 'f') s[j] = (char)(s[j] - 'a' + 'A');
    }
    CHECK_EQ_INT(fm_uuid_parse(s, 36, b), FM_OK);
    CHECK_MEM(a, b, 16);
  }
}

/* ---- Stress ----------------------------------------------------------------------------------- */

/* 10^7 version 4 UUIDs: the 96 random bits of octets 0-5 and 9-14 of each are kept (12 bytes,
 * 120 MB) and sorted; no two may be equal (for a correct RNG the chance of a repeat among 10^7
 * 96-bit values is < 2^-49). */
static void test_v4_no_duplicates(void) {
  const size_t n = 10000000;
  uint8_t *recs = malloc(n * 12);
  CHECK(recs != NULL);
  if (recs == NULL) return;
  for (size_t i = 0; i < n; i++) {
    uint8_t u[16];
    if (fm_uuid_v4(u) != FM_OK) {
      CHECK(0);
      break;
    }
    memcpy(recs + 12 * i, u, 6);
    memcpy(recs + 12 * i + 6, u + 9, 6);
  }
  CHECK_EQ_INT(rt_sort_count_dups(recs, n, 12), 0);
  free(recs);
}

#define V7_PER_THREAD 500000
typedef struct {
  uint8_t (*u)[16];
  int bad;
} v7_job;

static void *v7_thread(void *arg) {
  v7_job *j = arg;
  for (int i = 0; i < V7_PER_THREAD; i++) {
    if (fm_uuid_v7(j->u[i]) != FM_OK) j->bad++;
    if (i > 0 && memcmp(j->u[i - 1], j->u[i], 16) >= 0) j->bad++;
  }
  return NULL;
}

/* 10^6 version 7 UUIDs from two threads: each thread's sequence is strictly increasing, and the
 * merged set has no two UUIDs with the same (timestamp, counter) prefix, so merging by that
 * prefix gives one strict creation order. */
static void test_v7_two_threads(void) {
  v7_job jobs[2];
  pthread_t t[2];
  for (int i = 0; i < 2; i++) {
    jobs[i].u = malloc(sizeof(uint8_t[16]) * V7_PER_THREAD);
    jobs[i].bad = 0;
    pthread_create(&t[i], NULL, v7_thread, &jobs[i]);
  }
  for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
  CHECK_EQ_INT(jobs[0].bad + jobs[1].bad, 0);
  /* Prefix = octets 0-8 with the version and variant bits (constant) left in. */
  uint8_t *prefix = malloc((size_t)2 * V7_PER_THREAD * 9);
  for (int i = 0; i < 2; i++) {
    for (int k = 0; k < V7_PER_THREAD; k++) {
      uint8_t *p = prefix + 9 * ((size_t)i * V7_PER_THREAD + (size_t)k);
      memcpy(p, jobs[i].u[k], 9);
      p[8] &= 0xfc; /* drop the 2 random bits of octet 8 */
    }
  }
  CHECK_EQ_INT(rt_sort_count_dups(prefix, (size_t)2 * V7_PER_THREAD, 9), 0);
  free(prefix);
  free(jobs[0].u);
  free(jobs[1].u);
}

/* v4_no_duplicates (10 million draws) and v7_two_threads are the stress registrations
 * (test_uuid_v4_10m, test_uuid_v7_threads); test_uuid_unit runs the others. */
static const test_case cases[] = {
  TEST_CASE(bits),
  TEST_CASE(v7_time),
  TEST_CASE(v7_clock),
  TEST_CASE(v7_counter),
  TEST_CASE(format_parse),
  TEST_CASE(v4_no_duplicates),
  TEST_CASE(v7_two_threads),
};

int main(int argc, char **argv) { return TEST_RUN(argc, argv, "test_uuid_unit", cases); }
