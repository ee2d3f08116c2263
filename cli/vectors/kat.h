/* The known-answer-test runner: reads CAVP (.rsp/.txt/.fax), ACVP JSON and Wycheproof JSON
 * vector files, recognises what each holds from its content, runs every case through the
 * public fipsmod API and counts what passed, failed and was skipped.
 *
 * This library uses only include/fipsmod/: the `fipsmod` command links it against
 * libfipsmod.so, the tests against the internal library. Not thread-safe (one report at a time). */
#ifndef FIPSMOD_CLI_VECTORS_KAT_H
#define FIPSMOD_CLI_VECTORS_KAT_H

#include <stddef.h>

#define KAT_MAX_FAILURES 8
#define KAT_MAX_SKIP_REASONS 16

/* One reported mismatch: the case id as the file names it, and what differed. */
typedef struct kat_failure {
  char id[128];
  char msg[320];
} kat_failure;

/* Cases skipped for one reason (each distinct reason is counted separately). */
typedef struct kat_skip_reason {
  char reason[200];
  long count;
} kat_skip_reason;

typedef struct kat_options {
  int large; /* run ACVP large-data tests (LDT: gigabytes of hashing) instead of skipping them */
} kat_options;

typedef struct kat_report {
  char path[512];
  char kind[96];  /* what the file was recognised as, e.g. "CAVP SHA-256 ShortMsg" */
  long pass, fail, skip;
  int error;      /* 1: the file is malformed or unreadable; errmsg names file and line or id */
  int no_reason;  /* 1: a reader gave up without recording why, a defect of the runner (every
                   * malformed input must be named with its reason; the fuzz tests check this) */
  char errmsg[600];
  kat_failure failures[KAT_MAX_FAILURES]; /* the first mismatches */
  int n_failures;
  kat_skip_reason skips[KAT_MAX_SKIP_REASONS];
  int n_skip_reasons;
  long skips_unlisted; /* skipped cases whose reason did not fit in skips[] */
  long ignored_lines;  /* CAVP lines that are neither `key = value`, a header nor a comment */
  int first_ignored_line;
  int nothing_tested;  /* set by the command: no case passed or failed */
} kat_report;

/* kat_run_file runs every case of the vector file at |path| and fills |r|. Returns 0 when the
 * file was read to the end (r->fail may still be non-zero) and -1 when it is malformed,
 * unreadable or of a kind no runner handles (r->error = 1 and r->errmsg says why). */
int kat_run_file(const char *path, const kat_options *opt, kat_report *r);

/* kat_run_pair checks the ACVP prompt |prompt| against the answers in |expected| (its
 * expectedResults.json); results as kat_run_file. */
int kat_run_pair(const char *prompt, const char *expected, const kat_options *opt, kat_report *r);

/* kat_is_answer_file_for returns 1 when |expected| is an ACVP answer file (expectedResults) for
 * the prompt |prompt|: both ACVP sets of one algorithm (and vsId), the prompt without answers. */
int kat_is_answer_file_for(const char *prompt, const char *expected);

#endif
