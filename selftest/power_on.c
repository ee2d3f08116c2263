/* The self-test runner: the power-on run, on-demand runs, conditional-test recording and the
 * report.
 *
 * The report is one fixed array of entries: the power-on tests (fm_selftest_defs) first, then
 * conditional tests in the order they are first recorded. g_report_lock protects the array and
 * the figures next to it; it is a leaf lock (nothing is called while it is held), taken when a
 * test's outcome is recorded and when the report is read, never on a service's fast path.
 * g_run_lock serializes whole runs (on-demand runs and the before-first-use run); the load-time
 * run happens in the constructor, before any other thread can call in. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "integrity/internal.h"
#include "module/internal.h"
#include "module/rand/internal.h"
#include "selftest/internal.h"

static pthread_mutex_t g_report_lock = PTHREAD_MUTEX_INITIALIZER;
static fm_selftest_entry g_report[FM_SELFTEST_MAX_ENTRIES]; /* under g_report_lock */
static size_t g_nreport;                                      /* under g_report_lock */
static uint64_t g_power_on_ns;                                /* under g_report_lock */
static uint64_t g_last_run_ns;                                /* under g_report_lock */
static fm_selftest_callback g_callback;                       /* under g_report_lock */
static void *g_callback_arg;                                  /* under g_report_lock */

static pthread_mutex_t g_run_lock = PTHREAD_MUTEX_INITIALIZER;

/* 1 once the before-first-use tests have passed in this process. Read with an acquire load on
 * every call of fm_selftest_before_first_use; written under g_run_lock. */
static _Atomic int g_first_use_done;

/* This thread is running self-tests (a service a test calls must not start a nested run), or
 * is inside a self-test callback (which must not start a run). */
static _Thread_local bool tl_running;
static _Thread_local bool tl_in_callback;

/* ---- Failure injection (test-hooks builds only) ------------------------------------------ */

#if defined(FIPSMOD_TEST_HOOKS)
/* The test FIPSMOD_BREAK_TEST names, read once by the power-on run (single-threaded then). */
static const char *g_break_name;
/* The running test is the one to break; only the thread holding g_run_lock (or the constructor)
 * reads or writes it. */
static bool g_breaking;

void fm_selftest_break_for_testing(const char *name) {
  pthread_mutex_lock(&g_run_lock);
  g_break_name = name;
  pthread_mutex_unlock(&g_run_lock);
}
#endif

bool selftest_breaking(void) {
#if defined(FIPSMOD_TEST_HOOKS)
  return g_breaking;
#else
  return false;
#endif
}

void selftest_expected_copy(void *dst, const void *src, size_t len) {
  memcpy(dst, src, len);
  if (selftest_breaking() && len > 0) ((uint8_t *)dst)[len / 2] ^= 0x01;
}

int selftest_expect(const void *got, const void *expected, size_t len) {
  uint8_t want[SELFTEST_MAX_EXPECTED];
  if (len > sizeof want) return FM_ERR_SELFTEST;
  selftest_expected_copy(want, expected, len);
  int equal = fm_ct_memeq(got, want, len);
  fm_zeroize(want, len);
  return equal ? FM_OK : FM_ERR_SELFTEST;
}

/* ---- The integrity test ----------------------------------------------------------------- */

int selftest_run_integrity(const void *arg) {
  (void)arg;
  uint8_t got[FM_INTEGRITY_MAC_LEN], want[FM_INTEGRITY_MAC_LEN];
  int st = fm_integrity_compute(fm_selftest_constants_probe(), got);
  if (st == FM_OK) {
    fm_integrity_expected(want);
    st = selftest_expect(got, want, sizeof want);
  }
  fm_zeroize(got, sizeof got);
  fm_zeroize(want, sizeof want);
  return st;
}

/* ---- The report ------------------------------------------------------------------------- */

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* report_init_locked fills the power-on entries the first time the report is touched. */
static void report_init_locked(void) {
  if (g_nreport != 0) return;
  for (size_t i = 0; i < fm_selftest_ndefs; i++) {
    const selftest_def *d = &fm_selftest_defs[i];
    g_report[i] = (fm_selftest_entry){.name = d->name, .algorithm = d->algorithm, .kind = d->kind,
                                      .when = d->when, .result = FM_SELFTEST_NOT_RUN};
    if (d->kind == FM_SELFTEST_KIND_INTEGRITY && !fm_integrity_applicable())
      g_report[i].result = FM_SELFTEST_NOT_APPLICABLE;
  }
  g_nreport = fm_selftest_ndefs;
  for (size_t i = 0; i < fm_selftest_nconditionals; i++) {
    const selftest_conditional_def *c = &fm_selftest_conditionals[i];
    g_report[g_nreport++] =
        (fm_selftest_entry){.name = c->name, .algorithm = c->algorithm, .kind = c->kind,
                            .when = FM_SELFTEST_CONDITIONAL, .result = FM_SELFTEST_NOT_RUN};
  }
}

/* record_locked notes one outcome in |e|. */
static void record_locked(fm_selftest_entry *e, int status, uint64_t ns) {
  e->runs++;
  e->duration_ns = ns;
  e->status = status;
  e->result = status == FM_OK ? FM_SELFTEST_PASSED : FM_SELFTEST_FAILED;
  if (status != FM_OK) e->failures++;
}

/* notify calls the registered callback, if any, with no lock held. */
static void notify(fm_selftest_event ev, const fm_selftest_entry *e) {
  pthread_mutex_lock(&g_report_lock);
  fm_selftest_callback cb = g_callback;
  void *arg = g_callback_arg;
  pthread_mutex_unlock(&g_report_lock);
  if (!cb) return;
  tl_in_callback = true;
  cb(ev, e, arg);
  tl_in_callback = false;
}

/* run_one runs test |i|, records the outcome and tells the callback (when |events|). */
static int run_one(size_t i, bool events) {
  const selftest_def *d = &fm_selftest_defs[i];
  fm_selftest_entry snap;
  pthread_mutex_lock(&g_report_lock);
  report_init_locked();
  snap = g_report[i];
  pthread_mutex_unlock(&g_report_lock);
  if (d->kind == FM_SELFTEST_KIND_INTEGRITY && !fm_integrity_applicable()) return FM_OK;
  if (events) notify(FM_SELFTEST_EVENT_BEGIN, &snap);

#if defined(FIPSMOD_TEST_HOOKS)
  g_breaking = g_break_name != NULL && strcmp(g_break_name, d->name) == 0;
#endif
  uint64_t t0 = now_ns();
  int st = d->run(d->arg);
  uint64_t t1 = now_ns();
#if defined(FIPSMOD_TEST_HOOKS)
  g_breaking = false;
#endif
  pthread_mutex_lock(&g_report_lock);
  record_locked(&g_report[i], st, t1 - t0);
  snap = g_report[i];
  pthread_mutex_unlock(&g_report_lock);
  if (events) notify(st == FM_OK ? FM_SELFTEST_EVENT_PASS : FM_SELFTEST_EVENT_FAIL, &snap);
  return st;
}

/* run_tests runs, in table order, every test whose |when| is selected; it stops at the first
 * failure (the module is about to enter ERROR; nothing after it could run anyway). */
static int run_tests(bool power_on, bool first_use, bool events) {
  for (size_t i = 0; i < fm_selftest_ndefs; i++) {
    fm_selftest_when w = fm_selftest_defs[i].when;
    if (!((w == FM_SELFTEST_AT_POWER_ON && power_on) ||
          (w == FM_SELFTEST_BEFORE_FIRST_USE && first_use)))
      continue;
    if (run_one(i, events) != FM_OK) {
      /* ERROR at once, with the failing test's name as the reason the report gives. */
      fm_module_enter_error(fm_selftest_defs[i].name);
      return FM_ERR_SELFTEST;
    }
  }
  return FM_OK;
}

static bool has_first_use_tests(void) {
  for (size_t i = 0; i < fm_selftest_ndefs; i++)
    if (fm_selftest_defs[i].when == FM_SELFTEST_BEFORE_FIRST_USE) return true;
  return false;
}

static void print_report(FILE *f) {
  fm_selftest_summary s;
  fm_selftest_entry e[FM_SELFTEST_MAX_ENTRIES];
  size_t n = 0;
  fm_selftest_get_summary(&s);
  fm_selftest_report(e, FM_SELFTEST_MAX_ENTRIES, &n);
  fprintf(f, "%s power-on self-tests: %zu passed, %zu failed, %.1f us; integrity: %s\n",
          fm_module_version(), s.passed, s.failed, (double)s.power_on_ns / 1000.0,
          s.integrity_text);
  for (size_t i = 0; i < n; i++)
    fprintf(f, "  %-34s %-9s %-14s %9.1f us  %s\n", e[i].name, fm_selftest_kind_name(e[i].kind),
            fm_selftest_result_name(e[i].result), (double)e[i].duration_ns / 1000.0,
            e[i].algorithm);
}

/* ---- Entry points --------------------------------------------------------------------------- */

int fm_selftest_power_on(void) {
  uint64_t t0 = now_ns();
  pthread_mutex_lock(&g_report_lock);
  report_init_locked();
  pthread_mutex_unlock(&g_report_lock);

#if defined(FIPSMOD_TEST_HOOKS)
  g_break_name = getenv("FIPSMOD_BREAK_TEST");
  /* Test builds only: skip every self-test, so that a benchmark can measure what they cost. */
  const char *skip = getenv("FIPSMOD_SKIP_SELFTEST");
  const bool skipped = skip && strcmp(skip, "1") == 0;
#else
  const bool skipped = false;
#endif

  int st = FM_OK;
  if (!skipped) {
    pthread_mutex_lock(&g_run_lock);
    tl_running = true;
    fm_selftest_thread_enter();
    st = run_tests(true, false, false);
    fm_selftest_thread_leave();
    tl_running = false;
    pthread_mutex_unlock(&g_run_lock);
  }

  pthread_mutex_lock(&g_report_lock);
  g_power_on_ns = now_ns() - t0;
  pthread_mutex_unlock(&g_report_lock);

#if defined(FIPSMOD_TEST_HOOKS)
  /* Breaking a conditional test with an injector: arm it now that the power-on tests are done. */
  for (size_t i = 0; st == FM_OK && g_break_name && i < fm_selftest_nconditionals; i++) {
    const selftest_conditional_def *c = &fm_selftest_conditionals[i];
    if (c->inject && strcmp(g_break_name, c->name) == 0) c->inject();
  }
#endif

  const char *env = getenv("FIPSMOD_SELFTEST_REPORT");
  if (env && strcmp(env, "1") == 0) print_report(stderr);
  return st;
}

int fm_selftest_run(void) {
  if (tl_in_callback || tl_running) return FM_ERR_STATE;
  pthread_mutex_lock(&g_run_lock);
  if (fm_module_begin_selftest() != FM_OK) {
    pthread_mutex_unlock(&g_run_lock);
    return FM_ERR_NOT_OPERATIONAL;
  }
  uint64_t t0 = now_ns();
  tl_running = true;
  fm_selftest_thread_enter();
  int st = run_tests(true, true, true);
  fm_selftest_thread_leave();
  tl_running = false;
  fm_module_end_selftest(st);
  if (st == FM_OK) atomic_store_explicit(&g_first_use_done, 1, memory_order_release);
  pthread_mutex_lock(&g_report_lock);
  g_last_run_ns = now_ns() - t0;
  pthread_mutex_unlock(&g_report_lock);
  pthread_mutex_unlock(&g_run_lock);
  return st == FM_OK ? FM_OK : FM_ERR_SELFTEST;
}

int fm_selftest_before_first_use(void) {
  if (atomic_load_explicit(&g_first_use_done, memory_order_acquire)) return FM_OK;
  if (tl_running) return FM_OK;
  if (!has_first_use_tests()) {
    atomic_store_explicit(&g_first_use_done, 1, memory_order_release);
    return FM_OK;
  }
  pthread_mutex_lock(&g_run_lock);
  int st = FM_OK;
  if (!atomic_load_explicit(&g_first_use_done, memory_order_relaxed)) {
    if (!fm_module_operational()) {
      st = FM_ERR_NOT_OPERATIONAL;
    } else {
      /* The module stays OPERATIONAL while these run: other services go on; every caller of
       * the deferred algorithm waits here on g_run_lock until the tests have passed. */
      tl_running = true;
      st = run_tests(false, true, true);
      tl_running = false;
      if (st == FM_OK) {
        atomic_store_explicit(&g_first_use_done, 1, memory_order_release);
      } else {
        fm_module_enter_error("before-first-use self-test failed");
        st = FM_ERR_NOT_OPERATIONAL;
      }
    }
  }
  pthread_mutex_unlock(&g_run_lock);
  return st;
}

/* Adapters from the identities of module/internal.h to the table's names. */
static const char *conditional_name(fm_selftest_id id) {
  switch (id) {
    case FM_ST_ENTROPY_HEALTH: return "SP800-90B RCT/APT";
    case FM_ST_ENTROPY_SOURCE: return "getrandom";
    case FM_ST_RSA_PCT: return "RSA-PCT";
    default: return "unknown";
  }
}

int fm_selftest_ensure(fm_selftest_id id) {
  (void)id;
  return fm_selftest_before_first_use();
}

static void record_conditional_named(const char *name, const char *algorithm,
                                     fm_selftest_kind kind, int status);

void fm_selftest_record_conditional(fm_selftest_id id, int status) {
  const char *name = conditional_name(id);
  const char *alg = id == FM_ST_RSA_PCT ? "RSA" : "ENTROPY";
  fm_selftest_kind kind = id == FM_ST_RSA_PCT ? FM_SELFTEST_KIND_PAIRWISE : FM_SELFTEST_KIND_HEALTH;
  record_conditional_named(name, alg, kind, status);
}

static void record_conditional_named(const char *name, const char *algorithm,
                                     fm_selftest_kind kind, int status) {
#if defined(FIPSMOD_TEST_HOOKS)
  /* Breaking a conditional test turns its next outcome into a failure. */
  if (status == FM_OK && g_break_name && name && strcmp(g_break_name, name) == 0)
    status = FM_ERR_SELFTEST;
#endif
  pthread_mutex_lock(&g_report_lock);
  report_init_locked();
  fm_selftest_entry *e = NULL;
  for (size_t i = 0; i < g_nreport && !e; i++)
    if (strcmp(g_report[i].name, name) == 0) e = &g_report[i];
  if (!e && g_nreport < FM_SELFTEST_MAX_ENTRIES) {
    e = &g_report[g_nreport++];
    *e = (fm_selftest_entry){.name = name, .algorithm = algorithm, .kind = kind,
                             .when = FM_SELFTEST_CONDITIONAL};
  }
  /* A full report still counts the failure below; only its line is lost. */
  if (e) record_locked(e, status, 0);
  pthread_mutex_unlock(&g_report_lock);
  if (status != FM_OK) fm_module_enter_error(name);
}

/* overlay_health adds the continuous entropy health tests' passes, which the entropy source
 * counts without taking the report's lock (it may run in a signal handler), to their entry. */
static void overlay_health(fm_selftest_entry *e) {
  if (strcmp(e->name, "SP800-90B RCT/APT") != 0) return;
  uint64_t passes = fm_entropy_health_passes();
  e->runs += passes;
  if (e->result == FM_SELFTEST_NOT_RUN && passes > 0) e->result = FM_SELFTEST_PASSED;
}

int fm_selftest_report(fm_selftest_entry *entries, size_t capacity, size_t *count) {
  if (!count || (!entries && capacity > 0)) {
    if (entries && capacity > 0) fm_zeroize(entries, capacity * sizeof *entries);
    return FM_ERR_BAD_ARGUMENT;
  }
  pthread_mutex_lock(&g_report_lock);
  report_init_locked();
  size_t n = g_nreport;
  if (entries && capacity >= n) {
    memcpy(entries, g_report, n * sizeof *entries);
    for (size_t i = 0; i < n; i++) overlay_health(&entries[i]);
  }
  pthread_mutex_unlock(&g_report_lock);
  *count = n;
  if (!entries) return capacity == 0 ? FM_OK : FM_ERR_BAD_ARGUMENT;
  if (capacity < n) {
    fm_zeroize(entries, capacity * sizeof *entries);
    return FM_ERR_BUFFER_TOO_SMALL;
  }
  return FM_OK;
}

int fm_selftest_get_summary(fm_selftest_summary *out) {
  if (!out) return FM_ERR_BAD_ARGUMENT;
  *out = (fm_selftest_summary){.state = fm_module_state(),
                               .integrity = FM_SELFTEST_NOT_RUN,
                               .error_reason = fm_module_error_reason()};
  pthread_mutex_lock(&g_report_lock);
  report_init_locked();
  out->power_on_ns = g_power_on_ns;
  out->last_run_ns = g_last_run_ns;
  out->tests = g_nreport;
  for (size_t i = 0; i < g_nreport; i++) {
    fm_selftest_entry e = g_report[i];
    overlay_health(&e);
    if (e.kind == FM_SELFTEST_KIND_INTEGRITY) out->integrity = e.result;
    if (e.result == FM_SELFTEST_PASSED) out->passed++;
    if (e.result == FM_SELFTEST_FAILED) out->failed++;
  }
  pthread_mutex_unlock(&g_report_lock);
  switch (out->integrity) {
    case FM_SELFTEST_PASSED: out->integrity_text = "passed"; break;
    case FM_SELFTEST_FAILED: out->integrity_text = "failed"; break;
    case FM_SELFTEST_NOT_APPLICABLE: out->integrity_text = "not applicable (static build)"; break;
    default: out->integrity_text = "not run"; break;
  }
  return FM_OK;
}

int fm_set_selftest_callback(fm_selftest_callback cb, void *arg) {
  pthread_mutex_lock(&g_report_lock);
  g_callback = cb;
  g_callback_arg = cb ? arg : NULL;
  pthread_mutex_unlock(&g_report_lock);
  return FM_OK;
}

const char *fm_selftest_kind_name(fm_selftest_kind kind) {
  switch (kind) {
    case FM_SELFTEST_KIND_INTEGRITY: return "integrity";
    case FM_SELFTEST_KIND_KAT: return "KAT";
    case FM_SELFTEST_KIND_HEALTH: return "health";
    case FM_SELFTEST_KIND_PAIRWISE: return "pairwise";
  }
  return "unknown";
}

const char *fm_selftest_result_name(fm_selftest_result result) {
  switch (result) {
    case FM_SELFTEST_NOT_RUN: return "not run";
    case FM_SELFTEST_PASSED: return "passed";
    case FM_SELFTEST_FAILED: return "failed";
    case FM_SELFTEST_NOT_APPLICABLE: return "not applicable";
  }
  return "unknown";
}

const char *fm_selftest_when_name(fm_selftest_when when) {
  switch (when) {
    case FM_SELFTEST_AT_POWER_ON: return "power-on";
    case FM_SELFTEST_BEFORE_FIRST_USE: return "before first use";
    case FM_SELFTEST_CONDITIONAL: return "conditional";
  }
  return "unknown";
}
