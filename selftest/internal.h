/* What selftest/ offers the rest of the module, and what its files share.
 *
 * The power-on runner (power_on.c) walks the table of self-tests that kat.c defines, records
 * each outcome in the report, and turns any failure into the ERROR state. The known-answer tests
 * call the module's public entry points on the self-test thread (fm_selftest_thread_enter), so
 * they test exactly the code users call. Nothing here is secret: every key and input of a
 * known-answer test is a published constant. */
#ifndef FIPSMOD_SELFTEST_INTERNAL_H
#define FIPSMOD_SELFTEST_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fipsmod/selftest.h"

/* One self-test: its report identity and the function that runs it. |run| returns FM_OK when
 * the test passed and a negative status (FM_ERR_SELFTEST for a wrong answer, or the failing
 * call's status) when it failed. */
typedef struct selftest_def {
  const char *name;
  const char *algorithm;
  fm_selftest_kind kind;
  fm_selftest_when when;
  int (*run)(const void *arg);
  const void *arg;
} selftest_def;

/* fm_selftest_defs lists every power-on and before-first-use test in the order they run: the
 * HMAC-SHA-256 known-answer test first, the integrity check second (it relies on HMAC-SHA-256),
 * then the rest. fm_selftest_ndefs is its length. */
extern const selftest_def fm_selftest_defs[];
extern const size_t fm_selftest_ndefs;

/* A conditional test that the report lists from the start. |inject| (test-hooks builds; may be
 * NULL) is called after the power-on tests when FIPSMOD_BREAK_TEST names the test, to make its
 * next run fail for real; without it, the test's next recorded outcome is turned into a failure. */
typedef struct selftest_conditional_def {
  const char *name;
  const char *algorithm;
  fm_selftest_kind kind;
  void (*inject)(void);
} selftest_conditional_def;

/* fm_selftest_conditionals lists the conditional tests known in advance (the entropy source's
 * continuous health tests, RSA key generation's pairwise consistency test). */
extern const selftest_conditional_def fm_selftest_conditionals[];
extern const size_t fm_selftest_nconditionals;

/* selftest_expect returns FM_OK when the |len| bytes at |got| equal those at |expected|
 * (compared in constant time), FM_ERR_SELFTEST otherwise. In test-hooks builds, when the running
 * test is the one FIPSMOD_BREAK_TEST names, it compares against a copy of |expected| with one
 * byte flipped. len <= SELFTEST_MAX_EXPECTED. */
#define SELFTEST_MAX_EXPECTED 2048
int selftest_expect(const void *got, const void *expected, size_t len);

/* selftest_expected_copy copies |len| bytes of an expected value (or of a known input whose
 * corruption must make the test fail, such as the signature a verification test checks) from
 * |src| to |dst|, flipping one byte when the running test is being broken (test-hooks builds). */
void selftest_expected_copy(void *dst, const void *src, size_t len);

/* selftest_breaking is true while the running test is the one FIPSMOD_BREAK_TEST names
 * (test-hooks builds; always false otherwise). For tests whose failure cannot be expressed as a
 * wrong expected value (the entropy start-up test feeds a stuck source instead). */
bool selftest_breaking(void);

/* selftest_run_integrity is the integrity test's run function (power_on.c): it recomputes the
 * MAC of the module's read-only segments and compares it with the injected value. */
int selftest_run_integrity(const void *arg);

/* fm_selftest_constants_probe returns the address of one of the known-answer vectors, which the
 * integrity check uses to make sure the vectors lie in the hashed segments. */
const void *fm_selftest_constants_probe(void);

/* fm_selftest_before_first_use runs, once per process, the tests marked
 * FM_SELFTEST_BEFORE_FIRST_USE (the RSA signing test, when module/rsa defines
 * RSA_CALLS_SELFTEST_BEFORE_FIRST_USE; see kat.c). The code of an algorithm whose tests are
 * deferred calls it at the top of its services. Returns
 * FM_OK when they have passed (at once after the first time, one atomic load), or
 * FM_ERR_NOT_OPERATIONAL when one failed (the module is then in ERROR). Thread-safe; a call from
 * the thread that is running self-tests returns FM_OK at once. */
int fm_selftest_before_first_use(void);

#if defined(FIPSMOD_TEST_HOOKS)
/* fm_selftest_break_for_testing makes the test named |name| fail from the next run on (as
 * FIPSMOD_BREAK_TEST does at load); NULL breaks nothing. Call it with no run in progress. */
void fm_selftest_break_for_testing(const char *name);
#endif

#endif
