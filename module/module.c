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

/* The first reason the module entered ERROR; written once (compare-exchange from NULL). */
static _Atomic(const char *) g_error_reason = NULL;

/* Set on the thread that runs the self-tests, so that the known-answer tests go through the same
 * public entry points users call while every other thread is refused. Only this thread reads or
 * writes its own copy. */
static __thread bool tl_selftest_thread __attribute__((tls_model("initial-exec")));

void fm_selftest_thread_enter(void) { tl_selftest_thread = true; }
void fm_selftest_thread_leave(void) { tl_selftest_thread = false; }

bool fm_module_operational_slow(int state) {
  return state == FM_STATE_SELF_TEST && tl_selftest_thread;
}

void fm_module_enter_error(const char *why) {
  const char *expected = NULL;
  atomic_compare_exchange_strong(&g_error_reason, &expected, why);
  atomic_store(&fm_g_module_state, FM_STATE_ERROR);
  /* No service will run again; drop the per-thread secrets now rather than at exit. */
  fm_rand_module_cleanup();
}

const char *fm_module_error_reason(void) { return atomic_load(&g_error_reason); }

/* fm_power_on is the power-on entry: it runs when the library is loaded (or, for a static link,
 * before main). CPU detection first, then the self-tests, which decide the state. */
__attribute__((constructor)) static void fm_power_on(void) {
  fm_cpu_init();
  atomic_store(&fm_g_module_state, FM_STATE_SELF_TEST);
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
  if (atomic_compare_exchange_strong(&fm_g_module_state, &expected, FM_STATE_SELF_TEST)) return FM_OK;
  return expected == FM_STATE_SELF_TEST ? FM_OK : FM_ERR_NOT_OPERATIONAL;
}

int fm_module_end_selftest(int status) {
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
