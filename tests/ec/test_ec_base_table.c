/* The fixed-base tables of P-256, P-384 and P-521 (module/ec/ec_base_table.c), which the module
 * computes at their curve's first use: every byte is checked against the SHA-256 of the table
 * computed independently in Python (ec_base_table_digests.h, gen_ec_base_table_digests.py), the
 * first use is raced from several threads (each must see the finished table; tsan checks the
 * once-flag), and the first-use cost is printed (no assertion on time). Each case runs in a
 * process of its own, so each sees a first use. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "fipsmod/sha.h"
#include "module/ec/ec_base_table.h"
#include "module/ec/internal.h"
#include "tests/common/test_util.h"
#include "tests/ec/ec_base_table_digests.h"

static size_t table_bytes(const ec_curve *c) {
  return (size_t)ec_base_rows(c) * ec_base_entries(c) * 2 * c->limbs * sizeof(uint64_t);
}

static const unsigned char *want_digest(fm_ec_curve id) {
  switch (id) {
    case FM_EC_P256: return k_p256_base_table_sha256;
    case FM_EC_P384: return k_p384_base_table_sha256;
    default: return k_p521_base_table_sha256;
  }
}

static int table_ok(fm_ec_curve id, const uint64_t *t) {
  const ec_curve *c = ec_curve_get(id);
  uint8_t d[FM_SHA256_DIGEST_LEN];
  if (t == NULL || fm_sha256(t, table_bytes(c), d) != FM_OK) return 0;
  return memcmp(d, want_digest(id), sizeof d) == 0;
}

static double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static void check_curve(fm_ec_curve id, const char *name, unsigned rows, unsigned window) {
  const ec_curve *c = ec_curve_get(id);
  CHECK_EQ_INT(ec_base_rows(c), rows);
  CHECK_EQ_INT(ec_base_window(c), window);
  CHECK_EQ_INT(ec_base_entries(c), 1u << (window - 1));
  const double t0 = now_us();
  const uint64_t *t = ec_base_table(c);
  const double t1 = now_us();
  CHECK(table_ok(id, t));
  CHECK(ec_base_table(c) == t); /* built once, the same table afterwards */
  printf("%s fixed-base table: %zu bytes, first use %.1f us\n", name, table_bytes(c), t1 - t0);
}

static void test_p256_table(void) {
  check_curve(FM_EC_P256, "P-256", P256_BASE_TABLE_ROWS, P256_BASE_TABLE_WINDOW);
}
static void test_p384_table(void) {
  check_curve(FM_EC_P384, "P-384", P384_BASE_TABLE_ROWS, P384_BASE_TABLE_WINDOW);
}
static void test_p521_table(void) {
  check_curve(FM_EC_P521, "P-521", P521_BASE_TABLE_ROWS, P521_BASE_TABLE_WINDOW);
}

static void test_no_table(void) {
  CHECK(ec_base_table(ec_curve_get(FM_EC_P224)) == NULL);
  CHECK_EQ_INT(ec_base_rows(ec_curve_get(FM_EC_P224)), 0);
  CHECK_EQ_INT(ec_base_window(ec_curve_get(FM_EC_P224)), 0);
  CHECK_EQ_INT(ec_base_entries(ec_curve_get(FM_EC_P224)), 0);
}

/* The odd multiples of G kept with the table (ec_base_odd): entry k is (2k + 1) G, affine, against
 * the fixed-base multiplication of 2k + 1; none on the curves without a table. */
static void test_odd_multiples(void) {
  const fm_ec_curve ids[] = {FM_EC_P256, FM_EC_P384, FM_EC_P521};
  for (size_t i = 0; i < 3; i++) {
    const ec_curve *c = ec_curve_get(ids[i]);
    const uint64_t *odd = ec_base_odd(c);
    CHECK(odd != NULL);
    if (odd == NULL) continue;
    for (unsigned k = 0; k < EC_BASE_ODD; k++) {
      uint64_t m[EC_MAX_LIMBS] = {2 * k + 1}, x[EC_MAX_LIMBS], y[EC_MAX_LIMBS];
      ec_point p;
      ec_scalar_mul_base(c, &p, m);
      CHECK(ec_point_to_affine(c, x, y, &p) != 0);
      CHECK(ec_limbs_eq(c->limbs, x, odd + (size_t)k * 2 * c->limbs) != 0);
      CHECK(ec_limbs_eq(c->limbs, y, odd + (size_t)k * 2 * c->limbs + c->limbs) != 0);
    }
  }
  CHECK(ec_base_odd(ec_curve_get(FM_EC_P224)) == NULL);
}

#define RACERS 4
struct racer {
  pthread_barrier_t *start;
  fm_ec_curve id;
  int ok;
};

static void *race(void *arg) {
  struct racer *r = arg;
  pthread_barrier_wait(r->start);
  r->ok = table_ok(r->id, ec_base_table(ec_curve_get(r->id)));
  return NULL;
}

/* Threads reach each curve's first use together: every one must get the whole table. */
static void test_first_use_race(void) {
  pthread_barrier_t start;
  CHECK_EQ_INT(pthread_barrier_init(&start, NULL, RACERS), 0);
  struct racer r[RACERS];
  pthread_t th[RACERS];
  for (int i = 0; i < RACERS; i++) {
    const fm_ec_curve ids[] = {FM_EC_P256, FM_EC_P384, FM_EC_P521};
    r[i] = (struct racer){.start = &start, .id = ids[i % 3], .ok = 0};
    CHECK_EQ_INT(pthread_create(&th[i], NULL, race, &r[i]), 0);
  }
  for (int i = 0; i < RACERS; i++) {
    CHECK_EQ_INT(pthread_join(th[i], NULL), 0);
    CHECK(r[i].ok);
  }
  pthread_barrier_destroy(&start);
}

/* A signal handler that asks for the table while its own thread builds it must not wait on the
 * once-flag that thread holds (it would never return): it gets NULL, and its caller the generic
 * path. A timer interrupts the first use over and over; every answer after the build must be the
 * finished table. Whether a tick lands inside the build depends on timing, so nothing asserts
 * that one did: a deadlock is what this case can fail with (ctest's timeout). */
static volatile sig_atomic_t g_ticks, g_null_answers, g_wrong_answers;
static const uint64_t *volatile g_table_seen;

static void on_tick(int sig) {
  (void)sig;
  g_ticks++;
  const uint64_t *t = ec_base_table(ec_curve_get(FM_EC_P384));
  if (t == NULL) g_null_answers++;
  else if (g_table_seen != NULL && t != g_table_seen) g_wrong_answers++;
}

static void test_signal_during_build(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_tick;
  sa.sa_flags = SA_RESTART;
  CHECK_EQ_INT(sigaction(SIGALRM, &sa, NULL), 0);
  const struct itimerval every = {{0, 50}, {0, 50}}, off = {{0, 0}, {0, 0}};
  CHECK_EQ_INT(setitimer(ITIMER_REAL, &every, NULL), 0);
  const uint64_t *t = ec_base_table(ec_curve_get(FM_EC_P384));
  g_table_seen = t;
  for (volatile int i = 0; i < 2000000; i++) {
  }
  CHECK_EQ_INT(setitimer(ITIMER_REAL, &off, NULL), 0);
  signal(SIGALRM, SIG_DFL);
  CHECK(table_ok(FM_EC_P384, t));
  CHECK_EQ_INT(g_wrong_answers, 0);
  printf("signal during build: %d ticks, %d answered NULL (inside the build)\n", (int)g_ticks,
         (int)g_null_answers);
}

static const test_case cases[] = {
    {"p256_table", test_p256_table},
    {"p384_table", test_p384_table},
    {"p521_table", test_p521_table},
    {"no_table", test_no_table},
    {"odd_multiples", test_odd_multiples},
    {"first_use_race", test_first_use_race},
    {"signal_during_build", test_signal_during_build},
};

int main(int argc, char **argv) { return TEST_RUN(argc, argv, "test_ec_base_table", cases); }
