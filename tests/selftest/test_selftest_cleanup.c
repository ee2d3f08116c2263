/* fm_module_cleanup() during a self-test run. A test that fails because the
 * module was cleaned up under it is not a failure of that test: nothing is recorded as failed,
 * the module does not enter ERROR, the run returns FM_ERR_NOT_OPERATIONAL (or FM_OK when the
 * cleanup came after the run had finished) and the module ends UNINITIALIZED.
 *
 * Two forms, each run in forked children so that every child starts OPERATIONAL:
 *  - placed: for each test of an on-demand run, another thread cleans up exactly when that test
 *    begins (the callback hands the cleanup to the thread and waits for it);
 *  - timed: the cleanup thread waits a random time (seeded; the seed is printed) and cleans up
 *    while the run goes on, 40 times. */
#define _GNU_SOURCE
#include <pthread.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fipsmod/fipsmod.h"
#include "fipsmod/selftest.h"
#include "tests/common/test_util.h"

#define TIMED_RUNS 40

/* The cleanup thread: cleans up once |go| is set (placed) or after |delay_ns| (timed). */
struct cleaner {
  pthread_mutex_t lock;
  pthread_cond_t cond;
  int go, done;
  long delay_ns; /* < 0: wait for go */
};

static void *cleaner_main(void *arg) {
  struct cleaner *c = arg;
  if (c->delay_ns >= 0) {
    struct timespec ts = {0, c->delay_ns};
    nanosleep(&ts, NULL);
  } else {
    pthread_mutex_lock(&c->lock);
    while (!c->go) pthread_cond_wait(&c->cond, &c->lock);
    pthread_mutex_unlock(&c->lock);
  }
  fm_module_cleanup();
  pthread_mutex_lock(&c->lock);
  c->done = 1;
  pthread_cond_broadcast(&c->cond);
  pthread_mutex_unlock(&c->lock);
  return NULL;
}

/* What the callback saw, and the test at whose start it has the module cleaned up. */
struct watch {
  struct cleaner *c;
  const char *at; /* NULL: never */
  int fails;
};

static void on_event(fm_selftest_event ev, const fm_selftest_entry *e, void *arg) {
  struct watch *w = arg;
  if (ev == FM_SELFTEST_EVENT_FAIL) w->fails++;
  if (ev != FM_SELFTEST_EVENT_BEGIN || w->at == NULL || strcmp(e->name, w->at) != 0) return;
  pthread_mutex_lock(&w->c->lock);
  w->c->go = 1;
  pthread_cond_broadcast(&w->c->cond);
  while (!w->c->done) pthread_cond_wait(&w->c->cond, &w->c->lock);
  pthread_mutex_unlock(&w->c->lock);
}

/* check_after_cleanup: the child's verdict (0 = as specified). */
static int check_after_cleanup(int run_status, const struct watch *w, int cleaned_before_end) {
  int bad = 0;
  fm_selftest_summary s;
  if (fm_selftest_get_summary(&s) != FM_OK) return 1;
  if (fm_module_state() != FM_STATE_UNINITIALIZED) {
    fprintf(stderr, "  state %s after the run\n", fm_module_state_name(fm_module_state()));
    bad = 1;
  }
  if (s.failed != 0 || w->fails != 0 || s.error_reason != NULL) {
    fprintf(stderr, "  %zu failed (%d FAIL events), reason %s\n", s.failed, w->fails,
            s.error_reason ? s.error_reason : "(none)");
    bad = 1;
  }
  int want_ok = run_status == FM_ERR_NOT_OPERATIONAL || (!cleaned_before_end && run_status == FM_OK);
  if (!want_ok) {
    fprintf(stderr, "  fm_selftest_run returned %s\n", fm_strerror(run_status));
    bad = 1;
  }
  /* Later services and runs are refused, and the module stays UNINITIALIZED. */
  uint8_t d[32];
  bad |= fm_sha256("abc", 3, d) != FM_ERR_NOT_OPERATIONAL;
  bad |= fm_selftest_run() != FM_ERR_NOT_OPERATIONAL;
  bad |= fm_module_state() != FM_STATE_UNINITIALIZED;
  return bad;
}

/* child_placed: the module is cleaned up when test |at| begins. */
static int child_placed(const char *at) {
  struct cleaner c = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, -1};
  struct watch w = {&c, at, 0};
  pthread_t t;
  if (pthread_create(&t, NULL, cleaner_main, &c) != 0) return 2;
  if (fm_set_selftest_callback(on_event, &w) != FM_OK) return 2;
  int st = fm_selftest_run();
  pthread_join(t, NULL);
  return check_after_cleanup(st, &w, 1);
}

/* child_timed: the module is cleaned up |delay_ns| after the run starts. */
static int child_timed(long delay_ns) {
  struct cleaner c = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, delay_ns};
  struct watch w = {&c, NULL, 0};
  pthread_t t;
  if (fm_set_selftest_callback(on_event, &w) != FM_OK) return 2;
  if (pthread_create(&t, NULL, cleaner_main, &c) != 0) return 2;
  int st = fm_selftest_run();
  pthread_join(t, NULL);
  return check_after_cleanup(st, &w, 0);
}

static int wait_child(pid_t pid) {
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void test_cleanup_at_each_test(void) {
  fm_selftest_entry e[FM_SELFTEST_MAX_ENTRIES];
  size_t n = 0;
  CHECK_EQ_INT(fm_selftest_report(e, FM_SELFTEST_MAX_ENTRIES, &n), FM_OK);
  int placed = 0;
  for (size_t i = 0; i < n; i++) {
    /* The tests an on-demand run reruns (integrity is not applicable in this static build). */
    if (e[i].when == FM_SELFTEST_CONDITIONAL || e[i].kind == FM_SELFTEST_KIND_INTEGRITY) continue;
    const char *name = e[i].name;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) _exit(child_placed(name));
    int rc = wait_child(pid);
    if (rc != 0) fprintf(stderr, "cleanup at the start of %s: child exit %d\n", name, rc);
    CHECK_EQ_INT(rc, 0);
    placed++;
  }
  CHECK(placed >= 20);
}

/* A run takes about as long as its slowest test (the RSA signature); the delays spread over
 * twice the time of one run measured here, so most cleanups land inside a run. */
static void test_cleanup_at_random_times(void) {
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) _exit(fm_selftest_run() == FM_OK ? 0 : 1);
  CHECK_EQ_INT(wait_child(pid), 0);
  clock_gettime(CLOCK_MONOTONIC, &b);
  long span = (b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec);
  if (span < 100000) span = 100000;
  if (span > 200000000) span = 200000000;

  test_rng r;
  test_rng_seed(&r, "test_selftest_cleanup");
  int bad = 0;
  for (int i = 0; i < TIMED_RUNS; i++) {
    long delay = (long)test_rng_below(&r, (uint64_t)(2 * span));
    fflush(NULL);
    pid = fork();
    if (pid == 0) _exit(child_timed(delay));
    int rc = wait_child(pid);
    if (rc != 0) {
      fprintf(stderr, "cleanup %ld ns into a run: child exit %d\n", delay, rc);
      bad++;
    }
  }
  fprintf(stderr, "cleanup at random times: %d of %d runs not as specified\n", bad, TIMED_RUNS);
  CHECK_EQ_INT(bad, 0);
}

int main(void) {
  CHECK_EQ_INT(fm_module_state(), FM_STATE_OPERATIONAL);
  test_cleanup_at_each_test();
  test_cleanup_at_random_times();
  CHECK_EQ_INT(fm_module_state(), FM_STATE_OPERATIONAL); /* the parent is untouched */
  return test_main_result("test_selftest_cleanup");
}
