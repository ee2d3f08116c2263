/* The self-test runner: the power-on run, tests before first use, on-demand runs,
 * conditional-test recording and the report.
 *
 * At load only the power-on set runs (selftest/kat.c's table says which: the integrity test with
 * its HMAC-SHA-256 KAT, and what the DRBG needs). Every other CAST runs before the first use of
 * its algorithm: the algorithm's services call fm_selftest_ensure (module/internal.h), whose fast
 * path is one acquire load of fm_g_selftest_passed[id]; the first call takes g_run_lock, runs the
 * test's whole group and sets the flags of the group's tests. Other callers of that algorithm
 * wait on g_run_lock meanwhile and output nothing before the tests have passed; services of
 * algorithms already tested go on. A failure moves the module to ERROR.
 *
 * The report is one fixed array of entries indexed by fm_selftest_id, filled from the table
 * (selftest/kat.c). g_report_lock protects the array and the figures next to it; it is a leaf
 * lock (nothing is called while it is held), taken when a test's outcome is recorded and when the
 * report is read, never on a service's fast path. g_run_lock serializes whole runs (on-demand
 * runs and deferred tests); the load-time run happens in the constructor, before any other thread
 * can call in.
 *
 * A test that fails because the module was switched off under it (fm_module_cleanup from another
 * thread or a callback, or ERROR entered by a failure elsewhere) is not a failure of that test:
 * its outcome is not recorded, the module stays as it was switched off, and the run returns
 * FM_ERR_NOT_OPERATIONAL. Both states are final, so no service can run on an untested module. */
#define _GNU_SOURCE
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "integrity/internal.h"
#include "module/internal.h"
#include "module/rand/internal.h"
#include "module/sha/internal.h"
#include "module/syscall.h"
#include "selftest/internal.h"

static pthread_mutex_t g_report_lock = PTHREAD_MUTEX_INITIALIZER;
static fm_selftest_entry g_report[FM_ST_COUNT]; /* by id; under g_report_lock */
static fm_selftest_times g_times[FM_ST_COUNT];   /* by id; under g_report_lock */
static bool g_report_ready;                      /* under g_report_lock */
static uint64_t g_power_on_ns;                   /* under g_report_lock */
static uint64_t g_last_run_ns;                   /* under g_report_lock */
static fm_selftest_callback g_callback;          /* under g_report_lock */
static void *g_callback_arg;                     /* under g_report_lock */

static pthread_mutex_t g_run_lock = PTHREAD_MUTEX_INITIALIZER;

/* See module/internal.h: 1 once test |id| has passed (or the power-on tests were skipped, test
 * builds). Written under g_run_lock (the constructor's run holds it too), with release stores. */
_Atomic uint8_t fm_g_selftest_passed[FM_ST_COUNT];

/* CLOCK_MONOTONIC when the power-on entry began: the report's times count from it. Written once
 * by the constructor, before any other thread can call in. */
static uint64_t g_load_ns;

/* This thread is running self-tests (a service a test calls must not start a nested run), or
 * is inside a self-test callback (which must not start a run), or is inside
 * fm_selftest_ensure_slow (a signal handler that interrupts it must not wait for the lock it may
 * hold). */
static __thread bool tl_running __attribute__((tls_model("initial-exec")));
static __thread bool tl_in_callback __attribute__((tls_model("initial-exec")));
static __thread bool tl_ensuring __attribute__((tls_model("initial-exec")));

/* ---- Failure injection (test-hooks builds only) ------------------------------------------ */

#if defined(FIPSMOD_TEST_HOOKS)
/* 1 + the test FIPSMOD_BREAK_TEST (or fm_selftest_break_for_testing) names, 0 for none (in .bss,
 * like all mutable state). Written with no run in progress; read by runs and by conditional
 * records on any thread. */
static _Atomic int g_break_slot;
static int break_id(void) { return atomic_load(&g_break_slot) - 1; }
/* The running test is the one to break; only the thread holding g_run_lock (or the constructor)
 * reads or writes it. */
static bool g_breaking;

/* id_by_name: the id of the test named |name|, or -1. Names come from the environment or a test
 * program here, so this is the one place that compares them. */
static int id_by_name(const char *name) {
  for (int id = 0; name != NULL && id < FM_ST_COUNT; id++)
    if (strcmp(fm_selftest_defs[id].name, name) == 0) return id;
  return -1;
}

void fm_selftest_break_for_testing(const char *name) {
  pthread_mutex_lock(&g_run_lock);
  atomic_store(&g_break_slot, id_by_name(name) + 1);
  pthread_mutex_unlock(&g_run_lock);
}

/* arm_conditional_break makes the broken conditional test's next run fail for real where an
 * injector exists (a stuck entropy source fails the health tests of the next draw); the others'
 * next recorded outcome is turned into a failure (fm_selftest_record_conditional). */
static void arm_conditional_break(void) {
  if (break_id() == FM_ST_ENTROPY_HEALTH) fm_entropy_set_stuck_source_for_testing(1, 0x3c);
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

/* The algorithm units' names for the three above (module/internal.h). */
int fm_selftest_expect(const void *got, const void *expected, size_t len) {
  return selftest_expect(got, expected, len);
}
void fm_selftest_expected_copy(void *dst, const void *src, size_t len) {
  selftest_expected_copy(dst, src, len);
}
bool fm_selftest_breaking(void) { return selftest_breaking(); }

/* ---- The integrity test ----------------------------------------------------------------- */

/* run_integrity recomputes the MAC of the module's loaded file image (its read-only segments must
 * hold the known-answer vectors, and with them the table) and compares it with the injected
 * value. */
static int run_integrity(void) {
  uint8_t got[FM_INTEGRITY_MAC_LEN], want[FM_INTEGRITY_MAC_LEN];
  int st = fm_integrity_compute(selftest_constants_probe(), got);
  if (st == FM_OK) {
    fm_integrity_expected(want);
    st = selftest_expect(got, want, sizeof want);
  }
  fm_zeroize(got, sizeof got);
  fm_zeroize(want, sizeof want);
  return st;
}

/* ---- The first check ------------------------------------------------------------------------
 * At load, before the module calls libc through its GOT or touches a thread-local variable (both
 * rest on the writable segment's relocations, which an edit of .dynamic can stop), the power-on
 * entry runs the HMAC-SHA-256 known answer on the internal HMAC code and the integrity check.
 * Only module code and raw system calls run here. The outcome waits in g_first until the report
 * is first read (a failure) or until the power-on run records the integrity entry (a pass: the
 * MAC is not computed twice at load). */
static struct {
  uint64_t start_ns;   /* CLOCK_MONOTONIC when the first check began (the power-on run's start) */
  uint64_t ns;         /* how long the first check took (part of the power-on run's time) */
  int failed;          /* 1 + the id of the test that failed, 0 for none */
  int integrity_ready; /* the integrity check ran here and passed; the power-on run records it */
  uint64_t integrity_ns;
} g_first;

int fm_selftest_first_check(const char **failed) {
  *failed = NULL;
  const long start = fm_sys_monotonic_ns();
  g_first.start_ns = (uint64_t)start;
#if defined(FIPSMOD_TEST_HOOKS)
  /* Test builds only: FIPSMOD_SKIP_SELFTEST=1 skips this check with the rest (what the load-time
   * benchmark compares). Reading it goes through libc, which the shipped library never calls
   * before the check. */
  const char *skip = secure_getenv("FIPSMOD_SKIP_SELFTEST");
  if (skip && strcmp(skip, "1") == 0) return FM_OK;
#endif
  if (sha_hmac_sha256_core_cast() != FM_OK) {
    g_first.failed = 1 + FM_ST_HMAC_SHA256_KAT;
  } else if (fm_integrity_applicable()) {
    const long t0 = fm_sys_monotonic_ns();
    const int st = run_integrity();
    g_first.integrity_ns = (uint64_t)(fm_sys_monotonic_ns() - t0);
    if (st == FM_OK) {
      g_first.integrity_ready = 1;
    } else {
      g_first.failed = 1 + FM_ST_INTEGRITY;
    }
  }
  g_first.ns = (uint64_t)(fm_sys_monotonic_ns() - start);
  if (g_first.failed == 0) return FM_OK;
  *failed = fm_selftest_defs[g_first.failed - 1].name;
  return FM_ERR_SELFTEST;
}

/* ---- The report ------------------------------------------------------------------------- */

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* record_locked notes one outcome of test |id|: a run started by |trigger| at |t0|
 * (CLOCK_MONOTONIC) that took |ns|. */
static void record_locked(fm_selftest_id id, int status, uint64_t ns, fm_selftest_trigger trigger,
                          uint64_t t0) {
  fm_selftest_entry *e = &g_report[id];
  fm_selftest_times *t = &g_times[id];
  const uint64_t at = t0 > g_load_ns ? t0 - g_load_ns : 0;
  if (t->first_trigger == FM_SELFTEST_RAN_NOT_YET) {
    t->first_trigger = trigger;
    t->first_at_ns = at;
  }
  t->last_trigger = trigger;
  t->last_at_ns = at;
  e->runs++;
  e->duration_ns = ns;
  e->status = status;
  e->result = status == FM_OK ? FM_SELFTEST_PASSED : FM_SELFTEST_FAILED;
  if (status != FM_OK) e->failures++;
}

/* report_init_locked fills the entries from the table the first time the report is touched. */
static void report_init_locked(void) {
  if (g_report_ready) return;
  for (int id = 0; id < FM_ST_COUNT; id++) {
    const selftest_def *d = &fm_selftest_defs[id];
    g_report[id] = (fm_selftest_entry){.name = d->name,
                                       .algorithm = d->algorithm,
                                       .kind = (fm_selftest_kind)d->kind,
                                       .when = (fm_selftest_when)d->when,
                                       .result = FM_SELFTEST_NOT_RUN};
    g_times[id] = (fm_selftest_times){.name = d->name};
  }
  if (!fm_integrity_applicable()) g_report[FM_ST_INTEGRITY].result = FM_SELFTEST_NOT_APPLICABLE;
  g_report_ready = true;
  if (g_first.failed != 0) {
    const fm_selftest_id id = (fm_selftest_id)(g_first.failed - 1);
    record_locked(id, FM_ERR_SELFTEST, id == FM_ST_INTEGRITY ? g_first.integrity_ns : 0,
                  FM_SELFTEST_RAN_AT_POWER_ON, g_first.start_ns);
  }
}

/* listed_locked: whether the report shows entry |id| (a test recorded only on failure shows
 * from its first record on). */
static bool listed_locked(int id) {
  return !fm_selftest_defs[id].listed_once_recorded || g_report[id].runs > 0;
}


/* overlay_health adds the continuous entropy health tests' passes, which the entropy source
 * counts without taking the report's lock (it may run in a signal handler), to entry |id|. */
static void overlay_health(int id, fm_selftest_entry *e) {
  if (id != FM_ST_ENTROPY_HEALTH) return;
  uint64_t passes = fm_entropy_health_passes();
  e->runs += passes;
  if (e->result == FM_SELFTEST_NOT_RUN && passes > 0) e->result = FM_SELFTEST_PASSED;
}

/* notify calls the registered callback, if any, with no lock held. The callback is the
 * application's code, not a self-test: it runs as an ordinary caller, so while the module is in
 * SELF_TEST every service it calls is refused (no data output during self-tests). */
static void notify(fm_selftest_event ev, const fm_selftest_entry *e) {
  pthread_mutex_lock(&g_report_lock);
  fm_selftest_callback cb = g_callback;
  void *arg = g_callback_arg;
  pthread_mutex_unlock(&g_report_lock);
  if (!cb) return;
  const bool selftest_thread = fm_selftest_thread_active();
  if (selftest_thread) fm_selftest_thread_leave();
  tl_in_callback = true;
  cb(ev, e, arg);
  tl_in_callback = false;
  if (selftest_thread) fm_selftest_thread_enter();
}

/* switched_off: the module has left SELF_TEST and OPERATIONAL for good (fm_module_cleanup, or
 * ERROR entered by another failure). */
static bool switched_off(void) {
  fm_state s = fm_module_state();
  return s == FM_STATE_UNINITIALIZED || s == FM_STATE_ERROR;
}

/* run_test runs test |id| (started by |trigger|), records the outcome and tells the callback
 * (when |events|). Returns FM_OK when it passed; FM_ERR_SELFTEST when it failed (recorded; the
 * module is then in ERROR, with the test's name as the reason); FM_ERR_NOT_OPERATIONAL when it
 * failed because the module was switched off under it (nothing recorded, no END event). */
static int run_test(fm_selftest_id id, bool events, fm_selftest_trigger trigger) {
  fm_selftest_entry snap;
  pthread_mutex_lock(&g_report_lock);
  report_init_locked();
  snap = g_report[id];
  pthread_mutex_unlock(&g_report_lock);
  if (events) notify(FM_SELFTEST_EVENT_BEGIN, &snap);

#if defined(FIPSMOD_TEST_HOOKS)
  g_breaking = (int)id == break_id();
#endif
  uint64_t t0 = now_ns();
  int st;
  if (id == FM_ST_INTEGRITY && g_first.integrity_ready) {
    /* At load: the first check computed and compared the MAC already (a breaking test still
     * breaks it). */
    g_first.integrity_ready = 0;
    st = selftest_breaking() ? FM_ERR_SELFTEST : FM_OK;
    t0 = now_ns() - g_first.integrity_ns;
  } else {
    st = id == FM_ST_INTEGRITY ? run_integrity() : selftest_run_kat(id);
  }
  uint64_t t1 = now_ns();
#if defined(FIPSMOD_TEST_HOOKS)
  g_breaking = false;
#endif
  if (st != FM_OK && switched_off()) return FM_ERR_NOT_OPERATIONAL;

  pthread_mutex_lock(&g_report_lock);
  record_locked(id, st, t1 - t0, trigger, t0);
  snap = g_report[id];
  pthread_mutex_unlock(&g_report_lock);
  if (st != FM_OK) {
    /* ERROR at once, with the failing test's name as the reason the report gives. */
    fm_module_enter_error(fm_selftest_defs[id].name);
  }
  if (events) notify(st == FM_OK ? FM_SELFTEST_EVENT_PASS : FM_SELFTEST_EVENT_FAIL, &snap);
  return st == FM_OK ? FM_OK : FM_ERR_SELFTEST;
}

/* run_power_on_tests runs the power-on tests; it stops at the first that does not pass (the
 * module is about to enter ERROR; nothing after it could run anyway). The HMAC-SHA-256 KAT and
 * the integrity test are named here in code, not taken from the table: no byte of data decides
 * whether they run. The integrity test then vouches for the table (it lies in the hashed
 * .rodata), which picks the rest. Only a static build, whose fm_integrity_applicable() is false
 * by a compile-time constant, has no integrity test. */
static int run_power_on_tests(bool events, fm_selftest_trigger trigger) {
  int st = run_test(FM_ST_HMAC_SHA256_KAT, events, trigger);
  if (st == FM_OK && fm_integrity_applicable()) st = run_test(FM_ST_INTEGRITY, events, trigger);
  for (int id = 0; st == FM_OK && id < FM_ST_COUNT; id++) {
    if (id == FM_ST_HMAC_SHA256_KAT || id == FM_ST_INTEGRITY) continue;
    if (fm_selftest_defs[id].when == FM_SELFTEST_AT_POWER_ON)
      st = run_test((fm_selftest_id)id, events, trigger);
  }
  return st;
}

/* run_deferred_tests runs every before-first-use test (on-demand runs). */
static int run_deferred_tests(bool events) {
  int st = FM_OK;
  for (int id = 0; st == FM_OK && id < FM_ST_COUNT; id++)
    if (fm_selftest_defs[id].when == FM_SELFTEST_BEFORE_FIRST_USE)
      st = run_test((fm_selftest_id)id, events, FM_SELFTEST_RAN_ON_DEMAND);
  return st;
}

/* mark_passed sets the flag of every test that runs |when| (fm_selftest_ensure's fast path);
 * the caller holds g_run_lock and the tests have passed. */
static void mark_passed(fm_selftest_when when) {
  for (int id = 0; id < FM_ST_COUNT; id++)
    if (fm_selftest_defs[id].when == when)
      atomic_store_explicit(&fm_g_selftest_passed[id], 1, memory_order_release);
}

/* ---- The load-time report (FIPSMOD_SELFTEST_REPORT=1) -------------------------------------
 * It goes out before main, where the process cannot yet protect itself, so it is written only to
 * a stream that someone reads: fd 2 must be open and a terminal or other character device, a
 * pipe or a socket, never a regular file (a process started with fd 2 closed may have a data file
 * there). It is written with write(2) rather than stdio, SIGPIPE blocked meanwhile: a pipe whose
 * reader has gone (EPIPE) ends the report without killing the process, and the SIGPIPE the
 * write raised is taken back. */

static bool stderr_is_a_stream(void) {
  struct stat sb;
  if (fstat(STDERR_FILENO, &sb) != 0) return false;
  return S_ISCHR(sb.st_mode) || S_ISFIFO(sb.st_mode) || S_ISSOCK(sb.st_mode);
}

/* write_stderr writes |len| bytes at |p| to fd 2. Returns 0, or the errno of the write that
 * failed (EPIPE, EAGAIN on a non-blocking stream, ...: the report gives up). */
static int write_stderr(const char *p, size_t len) {
  while (len > 0) {
    ssize_t n = write(STDERR_FILENO, p, len);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno;
    if (n == 0) return EIO;
    p += n;
    len -= (size_t)n;
  }
  return 0;
}

/* print_line formats one line of the report and writes it; the errno of a failed write, or 0. */
static int print_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int print_line(const char *fmt, ...) {
  char line[256];
  va_list ap;
  va_start(ap, fmt);
  int len = vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  if (len < 0) return EINVAL;
  return write_stderr(line, (size_t)len < sizeof line ? (size_t)len : sizeof line - 1);
}

static void print_report(void) {
  if (!stderr_is_a_stream()) return;
  const int saved_errno = errno;
  sigset_t pipe_only, old, pending;
  sigemptyset(&pipe_only);
  sigaddset(&pipe_only, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_only, &old);
  /* A SIGPIPE already pending is not ours to take back. */
  const bool was_pending = sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE);

  fm_selftest_summary s;
  fm_selftest_entry e[FM_SELFTEST_MAX_ENTRIES];
  size_t n = 0;
  /* Both fail only on NULL arguments; should one fail anyway, print nothing rather than stale
   * stack contents. */
  int err = fm_selftest_get_summary(&s) == FM_OK &&
                    fm_selftest_report(e, FM_SELFTEST_MAX_ENTRIES, &n) == FM_OK
                ? 0
                : EINVAL;
  if (err == 0)
    err = print_line("%s power-on self-tests: %zu passed, %zu failed, %.1f us; integrity: %s\n",
                     fm_module_version(), s.passed, s.failed, (double)s.power_on_ns / 1000.0,
                     s.integrity_text);
  for (size_t i = 0; err == 0 && i < n; i++)
    err = print_line("  %-34s %-9s %-16s %-14s %9.1f us  %s\n", e[i].name,
                     fm_selftest_kind_name(e[i].kind), fm_selftest_when_name(e[i].when),
                     fm_selftest_result_name(e[i].result), (double)e[i].duration_ns / 1000.0,
                     e[i].algorithm);

  if (err == EPIPE && !was_pending) {
    const struct timespec no_wait = {0, 0};
    (void)sigtimedwait(&pipe_only, NULL, &no_wait);
  }
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  errno = saved_errno;
}

/* ---- Entry points --------------------------------------------------------------------------- */

int fm_selftest_power_on(void) {
  /* The power-on run began with the first check (the same clock): its time is everything the
   * load did, the RNG's set-up in between included, and the report's times count from there. */
  uint64_t t0 = g_first.start_ns != 0 ? g_first.start_ns : now_ns();
  g_load_ns = t0;
  /* What an approved service indicates: the static archive is not the validated form. */
  fm_indicator_set_form(fm_integrity_applicable());
  pthread_mutex_lock(&g_report_lock);
  report_init_locked();
  pthread_mutex_unlock(&g_report_lock);

#if defined(FIPSMOD_TEST_HOOKS)
  atomic_store(&g_break_slot, id_by_name(secure_getenv("FIPSMOD_BREAK_TEST")) + 1);
  /* Test builds only: skip every self-test, so that a benchmark can measure what they cost. */
  const char *skip = secure_getenv("FIPSMOD_SKIP_SELFTEST");
  const bool skipped = skip && strcmp(skip, "1") == 0;
#else
  const bool skipped = false;
#endif

  int st = FM_OK;
  pthread_mutex_lock(&g_run_lock);
  if (!skipped) {
    tl_running = true;
    fm_selftest_thread_enter();
    st = run_power_on_tests(false, FM_SELFTEST_RAN_AT_POWER_ON);
    fm_selftest_thread_leave();
    tl_running = false;
    if (st == FM_OK) mark_passed(FM_SELFTEST_AT_POWER_ON);
  } else {
    /* Test builds only: nothing runs, at load or before first use. */
    mark_passed(FM_SELFTEST_AT_POWER_ON);
    mark_passed(FM_SELFTEST_BEFORE_FIRST_USE);
  }
  pthread_mutex_unlock(&g_run_lock);

  pthread_mutex_lock(&g_report_lock);
  g_power_on_ns = now_ns() - t0;
  pthread_mutex_unlock(&g_report_lock);

#if defined(FIPSMOD_TEST_HOOKS)
  /* Breaking a conditional test: arm it now that the power-on tests are done. */
  if (st == FM_OK) arm_conditional_break();
#endif

  const char *env = secure_getenv("FIPSMOD_SELFTEST_REPORT");
  if (env && strcmp(env, "1") == 0) print_report();
  return st;
}

static int selftest_run(void);

/* fm_selftest_run leaves the service indicator as it was: the tests go through the services, and
 * their outcomes are the report's, not the caller's last service (policy/services.tsv). */
int fm_selftest_run(void) {
  const uint8_t ind = fm_tl_indicator;
  return fm_indicator_keep(ind, selftest_run());
}

static int selftest_run(void) {
  /* State first, as every service: a nested call (from a callback, or from a test) is refused
   * for its context only when the module would otherwise let it run. The state that decides a
   * run is checked again under g_run_lock (fm_module_begin_selftest), since a concurrent run may
   * hold the module in SELF_TEST until then. */
  if (tl_in_callback || tl_running) {
    /* A nested run: refused as such while a run (or the module) is live. */
    const fm_state s = fm_module_state();
    fm_indicator_not_approved();
    return s == FM_STATE_OPERATIONAL || s == FM_STATE_SELF_TEST ? FM_ERR_STATE
                                                                 : FM_ERR_NOT_OPERATIONAL;
  }
  pthread_mutex_lock(&g_run_lock);
  if (fm_module_begin_selftest() != FM_OK) {
    pthread_mutex_unlock(&g_run_lock);
    return FM_ERR_NOT_OPERATIONAL;
  }
  uint64_t t0 = now_ns();
  tl_running = true;
  fm_selftest_thread_enter();
  int st = run_power_on_tests(true, FM_SELFTEST_RAN_ON_DEMAND);
  if (st == FM_OK) st = run_deferred_tests(true);
  fm_selftest_thread_leave();
  tl_running = false;
  st = fm_module_end_selftest(st);
  if (st == FM_OK) mark_passed(FM_SELFTEST_BEFORE_FIRST_USE);
  pthread_mutex_lock(&g_report_lock);
  g_last_run_ns = now_ns() - t0;
  pthread_mutex_unlock(&g_report_lock);
  pthread_mutex_unlock(&g_run_lock);
  return st;
}

/* run_group runs every test of |lead|'s group that has not passed yet, in the table's order, and
 * then sets the flags of the whole group; the caller holds g_run_lock. Returns FM_OK or the
 * failing run_test's status. */
static int run_group(fm_selftest_id lead) {
  int st = FM_OK;
  tl_running = true;
  const uint8_t ind = fm_tl_indicator; /* the tests' services are not the caller's */
  for (int id = 0; st == FM_OK && id < FM_ST_COUNT; id++) {
    if (fm_selftest_defs[id].when != FM_SELFTEST_BEFORE_FIRST_USE) continue;
    if (selftest_group_lead((fm_selftest_id)id) != lead) continue;
    if (atomic_load_explicit(&fm_g_selftest_passed[id], memory_order_relaxed)) continue;
    st = run_test((fm_selftest_id)id, true, FM_SELFTEST_RAN_AT_FIRST_USE);
  }
  fm_tl_indicator = ind;
  tl_running = false;
  for (int id = 0; st == FM_OK && id < FM_ST_COUNT; id++)
    if (fm_selftest_defs[id].when == FM_SELFTEST_BEFORE_FIRST_USE &&
        selftest_group_lead((fm_selftest_id)id) == lead)
      atomic_store_explicit(&fm_g_selftest_passed[id], 1, memory_order_release);
  return st;
}

int fm_selftest_ensure_slow(fm_selftest_id id) {
  /* A service that a running self-test calls on this thread: the test is what checks it. */
  if (tl_running) return FM_OK;
  const bool operational = fm_module_operational();
  if ((unsigned)id >= FM_ST_COUNT || fm_selftest_defs[id].when != FM_SELFTEST_BEFORE_FIRST_USE) {
    /* A power-on test whose flag is not set: the power-on run failed (the module is in ERROR)
     * or is still running on another thread's load; a conditional test has no flag. */
    return operational ? FM_OK : FM_ERR_NOT_OPERATIONAL;
  }
  if (!operational) return FM_ERR_NOT_OPERATIONAL;
  /* A signal handler that interrupts this thread while it waits for, or holds, g_run_lock here
   * would wait for itself: it is refused instead (FM_ERR_NOT_OPERATIONAL: the algorithm has not
   * passed its tests yet), and the module's state does not change. */
  if (tl_ensuring) return FM_ERR_NOT_OPERATIONAL;
  tl_ensuring = true;
  pthread_mutex_lock(&g_run_lock);
  int st = FM_OK;
  if (!atomic_load_explicit(&fm_g_selftest_passed[id], memory_order_relaxed)) {
    /* Checked again under the lock: a run that failed meanwhile left the module in ERROR. */
    st = fm_module_operational() ? run_group(selftest_group_lead(id)) : FM_ERR_NOT_OPERATIONAL;
    if (st != FM_OK) st = FM_ERR_NOT_OPERATIONAL; /* ERROR (run_test entered it), or switched off */
  }
  pthread_mutex_unlock(&g_run_lock);
  tl_ensuring = false;
  return st;
}

void fm_selftest_record_conditional(fm_selftest_id id, int status) {
  if ((unsigned)id >= FM_ST_COUNT || fm_selftest_defs[id].when != FM_SELFTEST_CONDITIONAL) {
    /* Not a conditional test: a caller's mistake, which must still not hide a failure. */
    if (status != FM_OK) fm_module_enter_error("conditional self-test failed");
    return;
  }
#if defined(FIPSMOD_TEST_HOOKS)
  /* Breaking a conditional test turns its next outcome into a failure. */
  if (status == FM_OK && (int)id == break_id()) status = FM_ERR_SELFTEST;
#endif
  const uint64_t t0 = now_ns();
  pthread_mutex_lock(&g_report_lock);
  report_init_locked();
  record_locked(id, status, 0, FM_SELFTEST_RAN_IN_SERVICE, t0);
  pthread_mutex_unlock(&g_report_lock);
  if (status != FM_OK) fm_module_enter_error(fm_selftest_defs[id].name);
}

static int selftest_report(fm_selftest_entry *entries, size_t capacity, size_t *count);

/* fm_selftest_report is informational: the indicator is left as it was. */
int fm_selftest_report(fm_selftest_entry *entries, size_t capacity, size_t *count) {
  const uint8_t ind = fm_tl_indicator;
  return fm_indicator_keep(ind, selftest_report(entries, capacity, count));
}

static int selftest_report(fm_selftest_entry *entries, size_t capacity, size_t *count) {
  /* No state check: the report is readable in every state. A refused call wipes at most the
   * entries it could have written (never more than the report holds). */
  const size_t can_write = capacity < FM_ST_COUNT ? capacity : FM_ST_COUNT;
  if (!count || (!entries && capacity > 0))
    return fm_refuse(FM_ERR_BAD_ARGUMENT, entries, entries ? can_write * sizeof *entries : 0);
  fm_selftest_entry listed[FM_ST_COUNT];
  size_t n = 0;
  pthread_mutex_lock(&g_report_lock);
  report_init_locked();
  for (int id = 0; id < FM_ST_COUNT; id++) {
    if (!listed_locked(id)) continue;
    listed[n] = g_report[id];
    overlay_health(id, &listed[n]);
    n++;
  }
  pthread_mutex_unlock(&g_report_lock);
  *count = n;
  if (!entries) return FM_OK; /* capacity is 0 */
  if (capacity < n)
    return fm_refuse(FM_ERR_BUFFER_TOO_SMALL, entries, can_write * sizeof *entries);
  memcpy(entries, listed, n * sizeof *entries);
  return FM_OK;
}

static int selftest_report_times(fm_selftest_times *times, size_t capacity, size_t *count);

/* fm_selftest_report_times is informational: the indicator is left as it was. */
int fm_selftest_report_times(fm_selftest_times *times, size_t capacity, size_t *count) {
  const uint8_t ind = fm_tl_indicator;
  return fm_indicator_keep(ind, selftest_report_times(times, capacity, count));
}

static int selftest_report_times(fm_selftest_times *times, size_t capacity, size_t *count) {
  /* As selftest_report: every state; a refusal wipes at most what the report holds. */
  const size_t can_write = capacity < FM_ST_COUNT ? capacity : FM_ST_COUNT;
  if (!count || (!times && capacity > 0))
    return fm_refuse(FM_ERR_BAD_ARGUMENT, times, times ? can_write * sizeof *times : 0);
  fm_selftest_times listed[FM_ST_COUNT];
  size_t n = 0;
  pthread_mutex_lock(&g_report_lock);
  report_init_locked();
  for (int id = 0; id < FM_ST_COUNT; id++) {
    if (!listed_locked(id)) continue;
    listed[n] = g_times[id];
    /* The health tests' passes are counted without a time (overlay_health): in service. */
    if (id == FM_ST_ENTROPY_HEALTH && listed[n].first_trigger == FM_SELFTEST_RAN_NOT_YET &&
        fm_entropy_health_passes() > 0)
      listed[n].first_trigger = listed[n].last_trigger = FM_SELFTEST_RAN_IN_SERVICE;
    n++;
  }
  pthread_mutex_unlock(&g_report_lock);
  *count = n;
  if (!times) return FM_OK; /* capacity is 0 */
  if (capacity < n) return fm_refuse(FM_ERR_BUFFER_TOO_SMALL, times, can_write * sizeof *times);
  memcpy(times, listed, n * sizeof *times);
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
  out->integrity = g_report[FM_ST_INTEGRITY].result;
  for (int id = 0; id < FM_ST_COUNT; id++) {
    if (!listed_locked(id)) continue;
    fm_selftest_entry e = g_report[id];
    overlay_health(id, &e);
    out->tests++;
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

/* The names for printing are rows of fixed-width character arrays rather than a switch over
 * string constants, which a compiler may turn into a table of pointers in .data.rel.ro (clang
 * does). Row 0 is "unknown". */
static const char k_kind_names[][10] = {"unknown", "integrity", "KAT", "health", "pairwise"};
static const char k_result_names[][15] = {"not run", "passed", "failed", "not applicable",
                                          "unknown"};
static const char k_when_names[][17] = {"unknown", "power-on", "before first use", "conditional"};
static const char k_trigger_names[][12] = {"not yet run", "power-on", "first use", "on demand",
                                           "in service", "unknown"};
static_assert(FM_SELFTEST_KIND_INTEGRITY == 1 && FM_SELFTEST_KIND_PAIRWISE == 4, "kind rows");
static_assert(FM_SELFTEST_NOT_RUN == 0 && FM_SELFTEST_NOT_APPLICABLE == 3, "result rows");
static_assert(FM_SELFTEST_AT_POWER_ON == 1 && FM_SELFTEST_CONDITIONAL == 3, "when rows");
static_assert(FM_SELFTEST_RAN_NOT_YET == 0 && FM_SELFTEST_RAN_IN_SERVICE == 4, "trigger rows");

const char *fm_selftest_kind_name(fm_selftest_kind kind) {
  unsigned k = (unsigned)kind;
  return k_kind_names[k < sizeof k_kind_names / sizeof k_kind_names[0] ? k : 0];
}

const char *fm_selftest_result_name(fm_selftest_result result) {
  unsigned r = (unsigned)result;
  const unsigned unknown = sizeof k_result_names / sizeof k_result_names[0] - 1;
  return k_result_names[r < unknown ? r : unknown];
}

const char *fm_selftest_when_name(fm_selftest_when when) {
  unsigned w = (unsigned)when;
  return k_when_names[w < sizeof k_when_names / sizeof k_when_names[0] ? w : 0];
}

const char *fm_selftest_trigger_name(fm_selftest_trigger trigger) {
  unsigned t = (unsigned)trigger;
  const unsigned unknown = sizeof k_trigger_names / sizeof k_trigger_names[0] - 1;
  return k_trigger_names[t < unknown ? t : unknown];
}
