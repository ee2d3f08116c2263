/* The module's life cycle: the power-on entry, the state machine, the service gate and cleanup.
 *
 * UNINITIALIZED -> SELF_TEST -> OPERATIONAL | ERROR, and fm_module_cleanup() -> UNINITIALIZED.
 * The state is one atomic word. Services read it with a relaxed load: a transition only ever
 * takes the module out of OPERATIONAL (ERROR and UNINITIALIZED are final for the process), and
 * the parts that hold CSPs (the RNG) synchronize their own teardown, so no service needs more
 * than the load to decide. */
#define _GNU_SOURCE
#include <assert.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "module/internal.h"

_Atomic int fm_g_module_state = FM_STATE_UNINITIALIZED;

/* Odd while an on-demand self-test run is in progress (internal.h, "Services that overlap a
 * self-test run"): incremented by fm_module_begin_selftest and fm_module_end_selftest, which the
 * runner calls under its run lock (one writer at a time); read by services. */
FM_INTERNAL _Atomic uint64_t fm_g_selftest_epoch;

/* The first reason the module entered ERROR; written once (compare-exchange from NULL). */
static _Atomic(const char *) g_error_reason = NULL;

/* Set on the thread that runs the self-tests, so that the known-answer tests go through the same
 * public entry points users call while every other thread is refused. Only this thread reads or
 * writes its own copy. */
static __thread bool tl_selftest_thread __attribute__((tls_model("initial-exec")));

void fm_selftest_thread_enter(void) { tl_selftest_thread = true; }
void fm_selftest_thread_leave(void) { tl_selftest_thread = false; }
bool fm_selftest_thread_active(void) { return tl_selftest_thread; }

bool fm_module_operational_slow(int state) {
  return state == FM_STATE_SELF_TEST && tl_selftest_thread;
}

bool fm_service_may_continue_slow(uint64_t epoch) {
  if (!fm_module_operational()) return false;
  /* The self-test thread's own calls (the known-answer tests) run inside the run. */
  if (tl_selftest_thread) return true;
  return (epoch & 1) == 0 && atomic_load(&fm_g_selftest_epoch) == epoch;
}

void fm_module_enter_error(const char *why) {
  const char *expected = NULL;
  atomic_compare_exchange_strong(&g_error_reason, &expected, why);
  atomic_store(&fm_g_module_state, FM_STATE_ERROR);
  /* No service will run again; drop the per-thread secrets now rather than at exit. */
  fm_rand_module_cleanup();
}

const char *fm_module_error_reason(void) { return atomic_load(&g_error_reason); }

/* Set by the first call of the power-on entry (the loader calls it twice in libfipsmod.so, see
 * below); only the loading thread runs it, before any other thread can call in. */
static bool g_power_on_entered;

/* enter_error_at_load is fm_module_enter_error for a failed first check: nothing exists yet that
 * cleanup would wipe, and nothing may be called that goes through the GOT. */
static void enter_error_at_load(const char *why) {
  const char *expected = NULL;
  atomic_compare_exchange_strong(&g_error_reason, &expected, why);
  atomic_store(&fm_g_module_state, FM_STATE_ERROR);
}

/* fm_module_load_entry is the power-on entry: it runs when the library is loaded (or, for a
 * static link, before main). libfipsmod.so names it twice to the loader: as DT_INIT (the link
 * option -init, see CMakeLists.txt), which glibc calls before any DT_INIT_ARRAY entry and which
 * needs no relocation, and as an ELF constructor (DT_INIT_ARRAY). An edit of .dynamic that drops
 * one of them still runs the other, and the first check then sees the edit; the second call
 * returns at once.
 *
 * CPU detection (CPUID only) and the first check come first: until the MAC has vouched for the
 * writable segment (the GOT, the TLS offsets, .dynamic), nothing here calls libc or touches a
 * thread-local variable. Then FIPSMOD_CPU, the RNG's set-up and the self-tests, which decide the
 * state. */
void fm_module_load_entry(void);
__attribute__((constructor, used)) void fm_module_load_entry(void) {
  if (g_power_on_entered) return;
  g_power_on_entered = true;
  fm_cpu_detect();
  atomic_store(&fm_g_module_state, FM_STATE_SELF_TEST);
  const char *failed = NULL;
  if (fm_selftest_first_check(&failed) != FM_OK) {
    enter_error_at_load(failed);
    return;
  }
  fm_cpu_init();
  /* Before any service can draw (the self-tests' among them): the RNG's set-up (its
   * MADV_WIPEONFORK probe forks the address space, so it waits for the first DRBG state). */
  fm_rand_power_on();
  int st = fm_selftest_power_on();
  if (st != FM_OK) {
    fm_module_enter_error("power-on self-test failed");
    return;
  }
  int expected = FM_STATE_SELF_TEST;
  atomic_compare_exchange_strong(&fm_g_module_state, &expected, FM_STATE_OPERATIONAL);
  /* The known-answer tests ran through the services on this thread: its caller has called none
   * yet (indicator.h). */
  fm_tl_indicator = 0; /* FM_INDICATOR_NONE */
}

/* fm_power_off is the exit handler: at process exit (or dlclose) every DRBG state is zeroized
 * and the module switched off, exactly as fm_module_cleanup does. Threads still running get
 * FM_ERR_NOT_OPERATIONAL from then on. */
__attribute__((destructor)) static void fm_power_off(void) { fm_module_cleanup(); }

fm_state fm_module_state(void) { return (fm_state)atomic_load(&fm_g_module_state); }

/* Rows of characters, not a switch over string constants that a compiler may turn into a table
 * of pointers in .data.rel.ro; the last row is "unknown". */
static const char k_state_names[][14] = {"UNINITIALIZED", "SELF_TEST", "OPERATIONAL", "ERROR",
                                         "unknown"};
static_assert(FM_STATE_UNINITIALIZED == 0 && FM_STATE_ERROR == 3, "state rows");

const char *fm_module_state_name(fm_state state) {
  const unsigned unknown = sizeof k_state_names / sizeof k_state_names[0] - 1;
  unsigned s = (unsigned)state;
  return k_state_names[s < unknown ? s : unknown];
}

const char *fm_module_version(void) { return "fipsmod " FIPSMOD_VERSION_STRING; }

int fm_module_cleanup(void) {
  /* ERROR stays ERROR (it is final); any other state becomes UNINITIALIZED. The state changes
   * before the RNG is wiped so that no new draw can start on a state being zeroized. */
  int cur = atomic_load(&fm_g_module_state);
  while (cur != FM_STATE_ERROR &&
         !atomic_compare_exchange_weak(&fm_g_module_state, &cur, FM_STATE_UNINITIALIZED)) {
  }
  fm_rand_module_cleanup();
  return FM_OK; /* the indicator is left as it was (policy/services.tsv) */
}

int fm_module_begin_selftest(void) {
  int expected = FM_STATE_OPERATIONAL;
  if (atomic_compare_exchange_strong(&fm_g_module_state, &expected, FM_STATE_SELF_TEST)) {
    /* Odd: services in flight on other threads stop at their next check (internal.h). */
    atomic_fetch_add(&fm_g_selftest_epoch, 1);
    return FM_OK;
  }
  return expected == FM_STATE_SELF_TEST ? FM_OK : FM_ERR_NOT_OPERATIONAL;
}

int fm_module_end_selftest(int status) {
  /* Even again before the state can return to OPERATIONAL: a service that started during the
   * run saw an odd epoch or SELF_TEST, and one that spans the run sees the count moved. */
  if (atomic_load(&fm_g_selftest_epoch) & 1) atomic_fetch_add(&fm_g_selftest_epoch, 1);
  if (status == FM_ERR_NOT_OPERATIONAL) return status; /* switched off under the run: leave it */
  if (status != FM_OK) {
    fm_module_enter_error("self-test failed"); /* the runner has given the test's name first */
    return FM_ERR_SELFTEST;
  }
  /* Only a cleanup (UNINITIALIZED) or a failure elsewhere (ERROR) can have moved the module out
   * of SELF_TEST since the run began; both are final, so the run must not bring it back. */
  int expected = FM_STATE_SELF_TEST;
  if (atomic_compare_exchange_strong(&fm_g_module_state, &expected, FM_STATE_OPERATIONAL))
    return FM_OK;
  return FM_ERR_NOT_OPERATIONAL;
}

#if defined(FIPSMOD_TEST_HOOKS)
void fm_module_force_error_for_testing(void) { fm_module_enter_error("forced for testing"); }
#endif
