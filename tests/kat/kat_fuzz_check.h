/* What the KAT runner's two damage tests (test_kat_fuzz, test_acvp_fuzz) share: the number of
 * damaged copies from the environment, and the check that a report is consistent. */
#ifndef FIPSMOD_TESTS_KAT_FUZZ_CHECK_H
#define FIPSMOD_TESTS_KAT_FUZZ_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/vectors/kat.h"
#include "tests/common/test_util.h"

/* fuzz_iters: the copies per file, from the environment variable |var| when set. */
static inline long fuzz_iters(const char *var, long dflt) {
  const char *env = getenv(var);
  return env != NULL ? atol(env) : dflt;
}

/* fuzz_check_report checks what kat_run_file/kat_run_pair returned (|rc|, |rep|): -1 exactly
 * when an error is recorded, with its reason and naming |name|; counts that add up. Returns 1
 * for a malformed file. */
static inline int fuzz_check_report(const char *test, int rc, const kat_report *rep,
                                    const char *name) {
  CHECK(rc == 0 || rc == -1);
  CHECK((rc == -1) == (rep->error == 1));
  if (rc == -1) {
    if (rep->no_reason || strstr(rep->errmsg, name) == NULL) {
      fprintf(stderr, "%s: %s: %s\n", test,
              rep->no_reason ? "an error without its reason" : "an error not naming the file",
              rep->errmsg);
    }
    CHECK(!rep->no_reason);
    CHECK(strstr(rep->errmsg, name) != NULL);
  }
  CHECK(rep->pass >= 0 && rep->fail >= 0 && rep->skip >= 0);
  CHECK(rep->n_failures <= rep->fail && rep->n_failures <= KAT_MAX_FAILURES);
  return rc == -1;
}

#endif
