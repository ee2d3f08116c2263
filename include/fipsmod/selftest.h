/** @file
 * fipsmod self-tests: the integrity check, the known-answer tests, the health and pairwise
 * tests, and the report that says what was tested and how it went.
 *
 * The power-on self-tests run when the library is loaded (an ELF constructor), before any
 * service can be used: the HMAC-SHA-256 known-answer test first, then the integrity check of
 * libfipsmod.so (which relies on HMAC-SHA-256), then what the DRBG needs (the CTR_DRBG
 * known-answer tests, AES-256 encryption as the DRBG uses it, the entropy start-up test). Every
 * other algorithm's known-answer test (CAST) runs once, before the first use of that algorithm
 * (FIPS 140-3 IG 10.3.A): the first call of one of its services runs it (with the other tests of
 * its family, e.g. every AES mode), other callers of that algorithm wait meanwhile, and later
 * calls cost one load. So loading the module costs what the power-on set costs, whatever the
 * number of algorithms. The known-answer tests reach every kernel that serves data on the CPU in
 * use: short inputs the few-block code, long inputs ("bulk" tests: 45 AES blocks, a 1237-byte
 * CTR_DRBG generate) the 8- and 16-block loops (AES-NI, VAES). If any test fails, at load or at
 * first use, the module enters the ERROR state, which is final for the process: every service
 * wipes its outputs and returns FM_ERR_NOT_OPERATIONAL. Nothing in the module aborts the process.
 *
 * Conditional tests (the entropy source's continuous health tests, RSA key generation's pairwise
 * consistency test) run when their service runs and are recorded in the same report.
 *
 * Environment, read once at load with secure_getenv (a setuid or setgid program ignores it):
 *   FIPSMOD_SELFTEST_REPORT=1  print the report to stderr when the power-on tests are done, if
 *                              fd 2 is open and a terminal (or another character device, such
 *                              as /dev/null), a pipe or a socket. Nothing is written when fd 2 is
 *                              closed, a regular file or anything else: a process started with
 *                              fd 2 closed may hold a data file there. It is written with
 *                              write(2); a pipe whose reader has gone ends the report quietly
 *                              (EPIPE; the SIGPIPE is blocked and taken back, never delivered).
 *                              To keep the report in a file, pipe it: 2>&1 | tee file.
 *   FIPSMOD_BREAK_TEST=NAME    test-hooks builds only (libfipsmod_testhooks.so and the internal
 *                              test library, never libfipsmod.so or libfipsmod.a): make the named
 *                              test fail (its expected value is corrupted; the entropy tests get a
 *                              stuck source), to test the ERROR state.
 *   FIPSMOD_SKIP_SELFTEST=1    test-hooks builds only: run no self-test at load (to measure what
 *                              they cost).
 *
 * Every function here works in every state (the report is how an operator learns why the module
 * is in ERROR); only fm_selftest_run needs OPERATIONAL. Where a function checks the state it
 * does so first, then its arguments, like every service of the module. No argument is secret. */
#ifndef FIPSMOD_SELFTEST_H
#define FIPSMOD_SELFTEST_H

#include <stddef.h>
#include <stdint.h>
#include "fipsmod/module.h"
#include "fipsmod/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What kind of test an entry is. */
typedef enum {
  FM_SELFTEST_KIND_INTEGRITY = 1, /**< HMAC-SHA-256 of the module's code and constants */
  FM_SELFTEST_KIND_KAT = 2,       /**< known-answer test */
  FM_SELFTEST_KIND_HEALTH = 3,    /**< entropy source health test (start-up or continuous) */
  FM_SELFTEST_KIND_PAIRWISE = 4,  /**< pairwise consistency test of a generated key pair */
} fm_selftest_kind;

/** The latest outcome of a test. */
typedef enum {
  FM_SELFTEST_NOT_RUN = 0,        /**< not run yet (a test that runs later, or skipped after an
                                     earlier failure) */
  FM_SELFTEST_PASSED = 1,
  FM_SELFTEST_FAILED = 2,
  FM_SELFTEST_NOT_APPLICABLE = 3, /**< the integrity check in a static build (libfipsmod.a) */
} fm_selftest_result;

/** When a test runs. */
typedef enum {
  FM_SELFTEST_AT_POWER_ON = 1,        /**< at load, and again on every fm_selftest_run() */
  FM_SELFTEST_BEFORE_FIRST_USE = 2,   /**< once, before the first use of its algorithm, and again
                                         on every fm_selftest_run() */
  FM_SELFTEST_CONDITIONAL = 3,        /**< each time its service runs (health, pairwise) */
} fm_selftest_when;

/** What started a test's run. */
typedef enum {
  FM_SELFTEST_RAN_NOT_YET = 0,      /**< not run in this process */
  FM_SELFTEST_RAN_AT_POWER_ON = 1,  /**< the load-time run */
  FM_SELFTEST_RAN_AT_FIRST_USE = 2, /**< the first call of a service of its algorithm */
  FM_SELFTEST_RAN_ON_DEMAND = 3,    /**< fm_selftest_run() */
  FM_SELFTEST_RAN_IN_SERVICE = 4,   /**< a conditional test, inside its service */
} fm_selftest_trigger;

/** The most entries a report can hold (power-on tests and conditional tests together). */
#define FM_SELFTEST_MAX_ENTRIES 64

/** One line of the report. The strings are constants of the module, valid while it is loaded. */
typedef struct fm_selftest_entry {
  const char *name;            /**< unique test name, e.g. "aes256-cbc-decrypt-kat"; the name
                                  FIPSMOD_BREAK_TEST takes in test builds */
  const char *algorithm;       /**< e.g. "AES-256-CBC", "HMAC-SHA-256", "CTR_DRBG (AES-256)" */
  fm_selftest_kind kind;
  fm_selftest_when when;
  fm_selftest_result result;   /**< outcome of the latest run */
  int status;                  /**< FM_OK, or the status of the latest failure */
  uint64_t duration_ns;        /**< wall time of the latest run, in nanoseconds (0 for
                                  conditional tests, which run inside their service) */
  uint64_t runs;               /**< how many times the test has run in this process */
  uint64_t failures;           /**< how many of those runs failed */
} fm_selftest_entry;

/** fm_selftest_report copies the report into |entries| (|capacity| entries), in the table's order:
 * the power-on tests and those that run before first use, then the conditional tests (the
 * entropy source's own failure, "getrandom", is listed only once it has happened).
 * |*count| receives the number of entries. With entries NULL and capacity 0 it only sets |*count|.
 * FM_OK; FM_ERR_BAD_ARGUMENT: count NULL, or entries NULL with capacity > 0;
 * FM_ERR_BUFFER_TOO_SMALL: capacity < the number of entries (|*count| then says how many are
 * needed). On an error the entries it could have written are wiped (never more than the report
 * holds, whatever |capacity| claims). FM_SELFTEST_MAX_ENTRIES always suffices. Works in every state.
 * Thread-safe: each entry is consistent; during an on-demand run the tests not yet rerun still
 * show their previous outcome. */
FM_MUST_CHECK
FM_API int fm_selftest_report(fm_selftest_entry *entries, size_t capacity, size_t *count);

/** When a test ran: what started its first and its latest run, and when each began. Times are in
 * nanoseconds since the module's power-on entry began (the ELF constructor), 0 when not yet
 * run. */
typedef struct fm_selftest_times {
  const char *name;                  /**< the entry's name, as in fm_selftest_report */
  fm_selftest_trigger first_trigger; /**< NOT_YET: never run */
  uint64_t first_at_ns;
  fm_selftest_trigger last_trigger;
  uint64_t last_at_ns;
} fm_selftest_times;

/** fm_selftest_report_times copies when each test ran into |times| (|capacity| entries), in the
 * order and with the count of fm_selftest_report, so that times[i] belongs to entries[i] of a
 * report read at the same moment (names say which). Arguments, errors and wiping as
 * fm_selftest_report. Works in every state. Thread-safe. */
FM_MUST_CHECK
FM_API int fm_selftest_report_times(fm_selftest_times *times, size_t capacity, size_t *count);

/** A summary of the module's self-test standing. */
typedef struct fm_selftest_summary {
  fm_state state;               /**< the module state now */
  fm_selftest_result integrity; /**< PASSED, FAILED, NOT_RUN, or NOT_APPLICABLE (static build) */
  const char *integrity_text;   /**< "passed", "failed", "not run" or
                                   "not applicable (static build)" */
  uint64_t power_on_ns;         /**< wall time of the load-time run (the power-on set) */
  uint64_t last_run_ns;         /**< wall time of the latest fm_selftest_run(), 0 if none */
  size_t tests;                 /**< entries in the report */
  size_t passed;                /**< entries whose latest run passed */
  size_t failed;                /**< entries whose latest run failed */
  const char *error_reason;     /**< why the module entered ERROR, or NULL */
} fm_selftest_summary;

/** fm_selftest_get_summary fills |*out|. FM_OK; FM_ERR_BAD_ARGUMENT: out NULL. Works in every
 * state. Thread-safe. */
FM_MUST_CHECK
FM_API int fm_selftest_get_summary(fm_selftest_summary *out);

/** fm_selftest_run reruns every self-test on demand: the power-on tests and those that run before
 * first use. While it runs the module is in SELF_TEST and outputs no data (ISO/IEC 19790 7.10.1):
 * services called from other threads, and from a self-test callback, return
 * FM_ERR_NOT_OPERATIONAL with their outputs wiped. A service already in flight on another thread
 * when the run begins stops within one 64 KiB slice of its work, wipes all its outputs and
 * returns FM_ERR_NOT_OPERATIONAL, also when the run has ended by the time it notices: AES and GCM
 * (every call, checked per slice and before it returns), fm_rand_bytes and
 * fm_rand_bytes_with_input, and PBKDF2 (every 1024 iterations). The other services (hashes, HMAC,
 * the other KDFs, word draws, UUIDs, signatures) check the state once, at their start. The report
 * is updated and registered callbacks receive BEGIN then PASS or FAIL for each test.
 * FM_OK: all passed, the module is OPERATIONAL again. FM_ERR_SELFTEST: a test failed and the
 * module is now in ERROR. FM_ERR_NOT_OPERATIONAL: the module was not OPERATIONAL (ERROR,
 * UNINITIALIZED), or was switched off during the run: fm_module_cleanup() from another thread or
 * a callback, or ERROR entered by a failure elsewhere. A test that fails because of that is not
 * recorded as failed (its entry keeps its previous outcome, and its BEGIN gets no PASS or FAIL),
 * the run stops, and the module stays UNINITIALIZED (or ERROR). FM_ERR_STATE: called from a
 * self-test callback (a nested run) while the module is OPERATIONAL or SELF_TEST. Thread-safe:
 * concurrent calls run one after the other. */
FM_MUST_CHECK
FM_API int fm_selftest_run(void);

/** Self-test events delivered to a callback. */
typedef enum {
  FM_SELFTEST_EVENT_BEGIN = 1, /**< a test is about to run */
  FM_SELFTEST_EVENT_PASS = 2,  /**< it passed (entry->duration_ns is set) */
  FM_SELFTEST_EVENT_FAIL = 3,  /**< it failed; the module is about to enter ERROR */
} fm_selftest_event;

/** A self-test callback. |entry| is valid only during the call. */
typedef void (*fm_selftest_callback)(fm_selftest_event event, const fm_selftest_entry *entry,
                                     void *arg);

/** fm_set_selftest_callback registers |cb| (NULL removes it) with |arg|; one callback at a time.
 * Callbacks see on-demand runs (fm_selftest_run) and tests that run before first use; the
 * load-time run happens before any callback can be registered and is kept in the report.
 * Callbacks run on the testing thread with no module lock held, as ordinary callers: during an
 * on-demand run (SELF_TEST) every service they call is refused with FM_ERR_NOT_OPERATIONAL;
 * fm_module_cleanup works. Returns FM_OK. Thread-safe. */
FM_MUST_CHECK
FM_API int fm_set_selftest_callback(fm_selftest_callback cb, void *arg);

/** Names for printing: "integrity", "KAT", "health", "pairwise"; "passed", "failed", "not run",
 * "not applicable"; "power-on", "before first use", "conditional"; "not yet run", "power-on",
 * "first use", "on demand", "in service". "unknown" otherwise. */
FM_API const char *fm_selftest_kind_name(fm_selftest_kind kind);
FM_API const char *fm_selftest_result_name(fm_selftest_result result);
FM_API const char *fm_selftest_when_name(fm_selftest_when when);
FM_API const char *fm_selftest_trigger_name(fm_selftest_trigger trigger);

#ifdef __cplusplus
}
#endif
#endif
