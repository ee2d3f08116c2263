/* What the two KAT-reader targets share: the input is written to a vector file in a private
 * temporary directory and run by kat_run_file (cli/vectors/kat.h, the fipsmod_kat library), which
 * recognises the format from the content. The targets differ in their seed corpora (and file
 * name): CAVP response files for fuzz_kat_rsp, ACVP and Wycheproof JSON for fuzz_kat_json.
 * Properties: the runner returns (no crash, no leak, no undefined behaviour) and reports
 * consistently: -1 exactly when it records an error, whose message names the file; counts are
 * non-negative and the listed failures are at most the failures counted. */
#ifndef FIPSMOD_TESTS_FUZZ_KAT_H
#define FIPSMOD_TESTS_FUZZ_KAT_H

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/vectors/kat.h"
#include "tests/fuzz/fuzz_util.h"

static char g_dir[64], g_path[128];

static void fuzz_kat_cleanup(void) {
  unlink(g_path);
  rmdir(g_dir);
}

static void fuzz_kat_init(const char *file_name) {
  fuzz_require_operational();
  const char *tmp = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
  snprintf(g_dir, sizeof(g_dir), "%s/fipsmod-fuzz-XXXXXX", tmp);
  FUZZ_ASSERT(mkdtemp(g_dir) != NULL);
  snprintf(g_path, sizeof(g_path), "%s/%s", g_dir, file_name);
  atexit(fuzz_kat_cleanup);
}

static void fuzz_kat_run(const uint8_t *data, size_t size) {
  FILE *f = fopen(g_path, "wb");
  FUZZ_ASSERT(f != NULL);
  FUZZ_ASSERT(fwrite(data, 1, size, f) == size);
  FUZZ_ASSERT(fclose(f) == 0);

  static kat_report rep;
  kat_options opt = {0};
  int rc = kat_run_file(g_path, &opt, &rep);
  FUZZ_ASSERT(rc == 0 || rc == -1);
  FUZZ_ASSERT((rc == -1) == (rep.error == 1));
  if (rc == -1) FUZZ_ASSERT(strstr(rep.errmsg, g_path) != NULL);
  FUZZ_ASSERT(!rep.no_reason);
  FUZZ_ASSERT(rep.pass >= 0 && rep.fail >= 0 && rep.skip >= 0);
  FUZZ_ASSERT(rep.n_failures >= 0 && rep.n_failures <= rep.fail &&
              rep.n_failures <= KAT_MAX_FAILURES);
  fuzz_require_operational();
}

#endif
