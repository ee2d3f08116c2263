/* Threads at a first use: several threads that call a service whose CAST has not run yet, all at
 * once, all get the right answer, and the test runs once. On-demand runs while other threads use
 * services and read the report: every service call returns FM_OK or, while a run holds the
 * module in SELF_TEST, FM_ERR_NOT_OPERATIONAL (never a wrong answer); concurrent runs from two
 * threads both pass; conditional tests are recorded from many threads at once without losing a
 * count; the module ends OPERATIONAL. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "fipsmod/fipsmod.h"
#include "fipsmod/selftest.h"
#include "module/internal.h"
#include "tests/common/test_util.h"

#define WORKERS 3
#define RUNS 20
#define RECORDS 2000

static atomic_int g_stop;
static atomic_int g_bad;
static atomic_long g_refused, g_ok;

/* SHA-256("abc") (FIPS 180-4 example). */
static const uint8_t k_abc[32] = {0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40,
                                  0xde, 0x5d, 0xae, 0x22, 0x23, 0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17,
                                  0x7a, 0x9c, 0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad};

static void *worker(void *arg) {
  (void)arg;
  while (!atomic_load(&g_stop)) {
    uint8_t d[32];
    int st = fm_sha256("abc", 3, d);
    if (st == FM_OK && memcmp(d, k_abc, 32) == 0)
      atomic_fetch_add(&g_ok, 1);
    else if (st == FM_ERR_NOT_OPERATIONAL && test_is_all_zero(d, 32))
      atomic_fetch_add(&g_refused, 1);
    else
      atomic_fetch_add(&g_bad, 1);
    fm_selftest_entry e[FM_SELFTEST_MAX_ENTRIES];
    size_t n = 0;
    if (fm_selftest_report(e, FM_SELFTEST_MAX_ENTRIES, &n) != FM_OK || n == 0)
      atomic_fetch_add(&g_bad, 1);
  }
  return NULL;
}

/* First use from FIRST_USERS threads at once: each hashes "abc" with SHA-384, whose CAST has not
 * run; the first runs it while the others wait. */
#define FIRST_USERS 4
static pthread_barrier_t g_barrier;
static uint8_t g_first[FIRST_USERS][48];
static int g_first_status[FIRST_USERS];

static void *first_user(void *arg) {
  const size_t i = (size_t)(uintptr_t)arg;
  pthread_barrier_wait(&g_barrier);
  g_first_status[i] = fm_sha384("abc", 3, g_first[i]);
  return NULL;
}

static uint64_t runs_of(const char *name) {
  fm_selftest_entry e[FM_SELFTEST_MAX_ENTRIES];
  size_t n = 0;
  if (fm_selftest_report(e, FM_SELFTEST_MAX_ENTRIES, &n) != FM_OK) return UINT64_MAX;
  for (size_t i = 0; i < n; i++)
    if (strcmp(e[i].name, name) == 0) return e[i].runs;
  return UINT64_MAX;
}

static void first_use_from_many_threads(void) {
  CHECK_EQ_INT(runs_of("sha384-kat"), 0);
  pthread_t t[FIRST_USERS];
  CHECK(pthread_barrier_init(&g_barrier, NULL, FIRST_USERS) == 0);
  for (size_t i = 0; i < FIRST_USERS; i++)
    CHECK(pthread_create(&t[i], NULL, first_user, (void *)(uintptr_t)i) == 0);
  for (size_t i = 0; i < FIRST_USERS; i++) pthread_join(t[i], NULL);
  pthread_barrier_destroy(&g_barrier);
  uint8_t want[48];
  CHECK_EQ_INT(fm_sha384("abc", 3, want), FM_OK);
  for (size_t i = 0; i < FIRST_USERS; i++) {
    CHECK_EQ_INT(g_first_status[i], FM_OK);
    CHECK(memcmp(g_first[i], want, sizeof want) == 0);
  }
  CHECK_EQ_INT(runs_of("sha384-kat"), 1);
}

static void *runner(void *arg) {
  (void)arg;
  for (int i = 0; i < RUNS; i++)
    if (fm_selftest_run() != FM_OK) atomic_fetch_add(&g_bad, 1);
  return NULL;
}

static void *recorder(void *arg) {
  (void)arg;
  for (int i = 0; i < RECORDS; i++)
    fm_selftest_record_conditional(FM_ST_RSA_PCT, FM_OK);
  return NULL;
}

int main(void) {
  first_use_from_many_threads();
  /* SHA-256's first use before the threads below, so that its test's run count is known. */
  uint8_t d[32];
  CHECK_EQ_INT(fm_sha256("abc", 3, d), FM_OK);
  pthread_t w[WORKERS], r[2], rec[2];
  for (int i = 0; i < WORKERS; i++) CHECK(pthread_create(&w[i], NULL, worker, NULL) == 0);
  for (int i = 0; i < 2; i++) CHECK(pthread_create(&rec[i], NULL, recorder, NULL) == 0);
  for (int i = 0; i < 2; i++) CHECK(pthread_create(&r[i], NULL, runner, NULL) == 0);
  for (int i = 0; i < 2; i++) pthread_join(r[i], NULL);
  for (int i = 0; i < 2; i++) pthread_join(rec[i], NULL);
  /* Two runners back to back can hold the module in SELF_TEST for the workers' whole time slice
   * on a loaded machine: the workers go on, with the module OPERATIONAL again, until one of them
   * has had an answer (at most 10 s), so that the OK path is always exercised. */
  for (int i = 0; i < 10000 && atomic_load(&g_ok) == 0; i++) {
    const struct timespec ms = {0, 1000000};
    nanosleep(&ms, NULL);
  }
  atomic_store(&g_stop, 1);
  for (int i = 0; i < WORKERS; i++) pthread_join(w[i], NULL);

  CHECK_EQ_INT(atomic_load(&g_bad), 0);
  CHECK(atomic_load(&g_ok) > 0);
  CHECK_EQ_INT(fm_module_state(), FM_STATE_OPERATIONAL);
  fm_selftest_entry e[FM_SELFTEST_MAX_ENTRIES];
  size_t n = 0;
  CHECK_EQ_INT(fm_selftest_report(e, FM_SELFTEST_MAX_ENTRIES, &n), FM_OK);
  int found = 0;
  for (size_t i = 0; i < n; i++) {
    if (strcmp(e[i].name, "RSA-PCT") == 0) {
      found = 1;
      CHECK_EQ_INT(e[i].runs, 2 * RECORDS);
    }
    if (strcmp(e[i].name, "sha256-kat") == 0) CHECK_EQ_INT(e[i].runs, 1 + 2 * RUNS);
  }
  CHECK(found);
  fprintf(stderr, "services: %ld answered, %ld refused during runs\n", atomic_load(&g_ok),
          atomic_load(&g_refused));
  return test_main_result("test_selftest_threads");
}
