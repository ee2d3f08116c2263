/* Threads and the end of the process: thread churn (each exiting thread's state is unlinked,
 * wiped and unmapped), cleanup while threads draw, a thread drawing while main returns, draws
 * from atexit handlers, and a thread exiting after cleanup. Every exit scenario runs in a child
 * process with a deadline: it must end promptly with the documented status. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fipsmod/module.h"
#include "fipsmod/rand.h"
#include "fipsmod/uuid.h"
#include "module/rand/internal.h"
#include "tests/common/test_util.h"
#include "tests/rand/rand_test_util.h"

/* Under ThreadSanitizer: the scenario "a thread still drawing while main returns" leaves that
 * thread running on purpose; do not report it as a leaked thread. */
const char *__tsan_default_options(void);
__attribute__((visibility("default"))) const char *__tsan_default_options(void) {
  return "report_thread_leaks=0";
}

static void *churn_thread(void *arg) {
  uint8_t b[64];
  uint32_t x;
  char s[37];
  int ok = fm_rand_bytes(b, sizeof(b)) == FM_OK && fm_rand_u32(&x) == FM_OK &&
           fm_uuid_v4_string(s) == FM_OK && fm_rand_registry_size_for_testing() >= 1;
  *(int *)arg = ok;
  return NULL;
}

/* 500 threads that each draw and exit (50 at a time): afterwards the registry holds only the
 * main thread's state. LSan/valgrind runs of this test see no leak. */
static void test_thread_churn(void) {
  uint8_t b[8];
  CHECK_EQ_INT(fm_rand_bytes(b, sizeof(b)), FM_OK);
  CHECK_EQ_INT(fm_rand_registry_size_for_testing(), 1);
  int ok[50];
  int bad = 0;
  for (int round = 0; round < 10; round++) {
    pthread_t t[50];
    for (int i = 0; i < 50; i++) pthread_create(&t[i], NULL, churn_thread, &ok[i]);
    for (int i = 0; i < 50; i++) {
      pthread_join(t[i], NULL);
      bad += !ok[i];
    }
  }
  CHECK_EQ_INT(bad, 0);
  CHECK_EQ_INT(fm_rand_registry_size_for_testing(), 1);
}

/* ---- Exit scenarios ----------------------------------------------------------------------- */

static atomic_int g_saw_off;

/* drawer loops until its draws are refused; a refused draw must leave its output wiped, and no
 * status other than FM_OK / FM_ERR_NOT_OPERATIONAL may appear. */
static void *drawer(void *arg) {
  (void)arg;
  uint8_t b[40];
  for (;;) {
    memset(b, 0xaa, sizeof(b));
    int st = fm_rand_bytes(b, sizeof(b));
    if (st == FM_ERR_NOT_OPERATIONAL) {
      if (!test_is_all_zero(b, sizeof(b))) _exit(90);
      atomic_store(&g_saw_off, 1);
      uint32_t x = 1;
      if (fm_rand_u32(&x) != FM_ERR_NOT_OPERATIONAL || x != 0) _exit(91);
      return NULL;
    }
    if (st != FM_OK) _exit(92);
  }
}

/* main returns (exit() runs the module's exit handler, which zeroizes every state) while a
 * thread is still drawing: the process ends with main's status. */
static int scenario_thread_draws_while_main_returns(void) {
  pthread_t t;
  pthread_create(&t, NULL, drawer, NULL);
  struct timespec d = {0, 20 * 1000 * 1000};
  nanosleep(&d, NULL);
  return 7;
}

/* Cleanup while four threads draw: all of them see FM_ERR_NOT_OPERATIONAL and stop, every state
 * reads as zeros. */
static int scenario_cleanup_while_drawing(void) {
  pthread_t t[4];
  for (int i = 0; i < 4; i++) pthread_create(&t[i], NULL, drawer, NULL);
  struct timespec d = {0, 20 * 1000 * 1000};
  nanosleep(&d, NULL);
  fm_module_cleanup();
  for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
  if (!atomic_load(&g_saw_off)) return 10;
  if (!fm_rand_all_states_zero_for_testing()) return 11;
  return 0;
}

static void atexit_after_module_exit(void) {
  /* Registered first, so it runs last among the atexit handlers; it calls cleanup itself and
   * then draws: refused, output wiped. */
  uint8_t b[16];
  fm_module_cleanup();
  memset(b, 0xaa, sizeof(b));
  int st = fm_rand_bytes(b, sizeof(b));
  rt_report(st == FM_ERR_NOT_OPERATIONAL && test_is_all_zero(b, sizeof(b)) ? "late-refused;"
                                                                             : "late-BAD;");
}

static void atexit_draw(void) {
  /* Runs before the module's exit handler (ELF destructors run after atexit handlers): the
   * module is still operational. */
  uint8_t b[16];
  memset(b, 0, sizeof(b));
  int st = fm_rand_bytes(b, sizeof(b));
  rt_report(st == FM_OK && !test_is_all_zero(b, sizeof(b)) ? "early-ok;" : "early-BAD;");
}

static int scenario_atexit(void) {
  atexit(atexit_after_module_exit);
  atexit(atexit_draw);
  uint8_t b[16];
  return fm_rand_bytes(b, sizeof(b)) == FM_OK ? 0 : 1;
}

static pthread_barrier_t g_barrier;

static void *late_exiter(void *arg) {
  (void)arg;
  uint8_t b[16];
  if (fm_rand_bytes(b, sizeof(b)) != FM_OK) return NULL;
  pthread_barrier_wait(&g_barrier);
  pthread_barrier_wait(&g_barrier); /* cleanup has run */
  memset(b, 0xaa, sizeof(b));
  if (fm_rand_bytes(b, sizeof(b)) != FM_ERR_NOT_OPERATIONAL || !test_is_all_zero(b, 16)) return NULL;
  return (void *)1; /* and exits: its state was wiped by cleanup, no destructor touches it */
}

static int scenario_thread_exits_after_cleanup(void) {
  pthread_t t;
  pthread_barrier_init(&g_barrier, NULL, 2);
  pthread_create(&t, NULL, late_exiter, NULL);
  pthread_barrier_wait(&g_barrier);
  fm_module_cleanup();
  pthread_barrier_wait(&g_barrier);
  void *r;
  pthread_join(t, &r);
  if (r == NULL) return 10;
  if (!fm_rand_all_states_zero_for_testing()) return 11;
  /* New threads after cleanup: refused, no state made. */
  size_t before = fm_rand_registry_size_for_testing();
  pthread_t t2;
  atomic_store(&g_saw_off, 0);
  pthread_create(&t2, NULL, drawer, NULL);
  pthread_join(t2, NULL);
  if (!atomic_load(&g_saw_off) || fm_rand_registry_size_for_testing() != before) return 12;
  return 0;
}

static void run_scenario(const char *name, int (*fn)(void), int want_status, const char *want) {
  char report[256];
  int st = rt_run_child(name, fn, 20, report, sizeof(report));
  if (st != want_status || (want != NULL && strcmp(report, want) != 0)) {
    test_failures++;
    fprintf(stderr, "scenario %s failed: status %d (want %d), report '%s'\n", name, st,
            want_status, report);
  }
}

int main(void) {
  test_thread_churn();
  run_scenario("thread_draws_while_main_returns", scenario_thread_draws_while_main_returns, 7,
               NULL);
  run_scenario("cleanup_while_drawing", scenario_cleanup_while_drawing, 0, NULL);
  run_scenario("atexit", scenario_atexit, 0, "early-ok;late-refused;");
  run_scenario("thread_exits_after_cleanup", scenario_thread_exits_after_cleanup, 0, NULL);
  return test_main_result("test_rand_threads");
}
