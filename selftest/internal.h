/* What the files of selftest/ share.
 *
 * The power-on runner (power_on.c) runs the HMAC-SHA-256 known-answer test and the integrity
 * test, named in its code, then every other test the table below marks for power-on; the tests
 * marked for first use run, a group at a time, when fm_selftest_ensure first asks for them. It
 * records each outcome in the report and turns any failure into the ERROR state. The
 * known-answer tests (each unit's CAST, module/<unit>/<unit>_cast.c, reached through kat.c's
 * switch) call the module's public entry points on the self-test thread
 * (fm_selftest_thread_enter), so they test exactly the code users call. Nothing here is secret:
 * every key and input of a known-answer test is a published constant.
 *
 * No byte the loader maps and does not rewrite may switch a self-test off or weaken it, so
 * nothing here holds a pointer: a table of pointers would lie in writable .data.rel.ro, whose
 * other bytes the integrity MAC does not cover and the loader does not rewrite. The table holds
 * its strings inline and lies in .rodata, which the MAC covers; the tests are code, reached by a
 * switch over the id, with their vectors' addresses and lengths in the (hashed) instructions. The
 * HMAC-SHA-256 and integrity tests do not depend on the table at all. */
#ifndef FIPSMOD_SELFTEST_INTERNAL_H
#define FIPSMOD_SELFTEST_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fipsmod/selftest.h"
#include "module/internal.h"

/* The longest test or algorithm name, with its terminating zero (checked for every row). */
#define SELFTEST_NAME_LEN 40

/* One row of the self-test table: what the report shows for the test and when it runs. */
typedef struct selftest_def {
  char name[SELFTEST_NAME_LEN];      /* unique; the name FIPSMOD_BREAK_TEST takes */
  char algorithm[SELFTEST_NAME_LEN]; /* e.g. "AES-256-CBC" */
  uint8_t kind;                      /* fm_selftest_kind */
  uint8_t when;                      /* fm_selftest_when */
  /* 1 for a conditional test recorded only when it fails (the entropy source's own failure):
   * the report lists it from its first record on rather than from the start. */
  uint8_t listed_once_recorded;
} selftest_def;

/* fm_selftest_defs is the table, indexed by fm_selftest_id (kat.c). */
extern const selftest_def fm_selftest_defs[FM_ST_COUNT];

/* selftest_group_lead returns the test whose group |id| belongs to (kat.c's SELFTEST_GROUPS):
 * the tests of a group run together, before the first use of any of their services; a test not
 * listed there is a group of its own (it returns |id|). */
fm_selftest_id selftest_group_lead(fm_selftest_id id);

/* selftest_run_kat runs the power-on or deferred test |id| other than the integrity test (kat.c),
 * by calling the CAST of the unit that owns it (module/<unit>/<unit>_cast.c). Returns FM_OK when
 * it passed and a negative status (FM_ERR_SELFTEST for a wrong answer, or the failing call's
 * status) when it failed; FM_ERR_INTERNAL for an id that names no such test. */
int selftest_run_kat(fm_selftest_id id);

/* selftest_constants_probe returns the address of one of the known-answer vectors (kat.c, from
 * module/aes), which the integrity check must find inside the hashed segments. */
const void *selftest_constants_probe(void);

/* selftest_expect returns FM_OK when the |len| bytes at |got| equal those at |expected|
 * (compared in constant time), FM_ERR_SELFTEST otherwise. In test-hooks builds, when the running
 * test is the one FIPSMOD_BREAK_TEST names, it compares against a copy of |expected| with one
 * byte flipped. len <= SELFTEST_MAX_EXPECTED. */
#define SELFTEST_MAX_EXPECTED FM_SELFTEST_MAX_EXPECTED
int selftest_expect(const void *got, const void *expected, size_t len);

/* selftest_expected_copy copies |len| bytes of an expected value (or of a known input whose
 * corruption must make the test fail, such as the signature a verification test checks) from
 * |src| to |dst|, flipping one byte when the running test is being broken (test-hooks builds). */
void selftest_expected_copy(void *dst, const void *src, size_t len);

/* selftest_breaking is true while the running test is the one FIPSMOD_BREAK_TEST names
 * (test-hooks builds; always false otherwise). For tests whose failure cannot be expressed as a
 * wrong expected value (the entropy start-up test feeds a stuck source instead). */
bool selftest_breaking(void);

#if defined(FIPSMOD_TEST_HOOKS)
/* fm_selftest_break_for_testing makes the test named |name| fail from the next run on (as
 * FIPSMOD_BREAK_TEST does at load); NULL, or a name no test has, breaks nothing. Call it with no
 * run in progress. */
void fm_selftest_break_for_testing(const char *name);
#endif

#endif
