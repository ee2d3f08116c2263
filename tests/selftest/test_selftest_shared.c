/* The self-tests of libfipsmod.so as users load it: the integrity check ran and passed, every
 * power-on test passed with a measured duration, and FIPSMOD_SELFTEST_REPORT=1 prints the report
 * (every test's name and the integrity status) to stderr at load. */
#define _GNU_SOURCE
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fipsmod/fipsmod.h"
#include "fipsmod/selftest.h"
#include "tests/common/test_util.h"

extern char **environ;

static void test_report(void) {
  CHECK_EQ_INT(fm_module_state(), FM_STATE_OPERATIONAL);
  fm_selftest_summary s;
  CHECK_EQ_INT(fm_selftest_get_summary(&s), FM_OK);
  CHECK_EQ_INT(s.integrity, FM_SELFTEST_PASSED);
  CHECK(strcmp(s.integrity_text, "passed") == 0);
  CHECK(s.power_on_ns > 0);
  CHECK_EQ_INT(s.failed, 0);
  fm_selftest_entry e[FM_SELFTEST_MAX_ENTRIES];
  size_t n = 0;
  CHECK_EQ_INT(fm_selftest_report(e, FM_SELFTEST_MAX_ENTRIES, &n), FM_OK);
  size_t at_load = 0;
  uint64_t sum = 0;
  for (size_t i = 0; i < n; i++) {
    if (e[i].when != FM_SELFTEST_AT_POWER_ON) continue;
    at_load++;
    CHECK_EQ_INT(e[i].result, FM_SELFTEST_PASSED);
    CHECK_EQ_INT(e[i].runs, 1);
    CHECK(e[i].duration_ns > 0);
    sum += e[i].duration_ns;
  }
  CHECK(at_load >= 24);
  CHECK(sum <= s.power_on_ns); /* the whole run includes each test */
  printf("power-on self-tests: %zu at load, %.1f us in all (integrity %s)\n", at_load,
         (double)s.power_on_ns / 1000.0, s.integrity_text);
}

static void test_env_report(const char *self) {
  int fds[2];
  CHECK(pipe(fds) == 0);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, fds[1], STDERR_FILENO);
  posix_spawn_file_actions_addclose(&fa, fds[0]);
  size_t n = 0;
  while (environ[n]) n++;
  char **env = calloc(n + 2, sizeof *env);
  for (size_t i = 0; i < n; i++) env[i] = environ[i];
  env[n] = "FIPSMOD_SELFTEST_REPORT=1";
  char *argv[] = {(char *)self, "--quiet", NULL};
  pid_t pid;
  CHECK(posix_spawn(&pid, self, &fa, NULL, argv, env) == 0);
  posix_spawn_file_actions_destroy(&fa);
  free(env);
  close(fds[1]);
  static char out[65536];
  size_t len = 0;
  ssize_t r;
  while (len < sizeof out - 1 && (r = read(fds[0], out + len, sizeof out - 1 - len)) > 0)
    len += (size_t)r;
  out[len] = 0;
  close(fds[0]);
  int status = 0;
  CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
  CHECK(strstr(out, "integrity: passed") != NULL);
  fm_selftest_entry e[FM_SELFTEST_MAX_ENTRIES];
  size_t count = 0;
  fm_selftest_report(e, FM_SELFTEST_MAX_ENTRIES, &count);
  for (size_t i = 0; i < count; i++) {
    if (strstr(out, e[i].name) == NULL) fprintf(stderr, "report lacks %s\n", e[i].name);
    CHECK(strstr(out, e[i].name) != NULL);
  }
}

int main(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "--quiet") == 0)
    return fm_module_state() == FM_STATE_OPERATIONAL ? 0 : 1;
  test_report();
  test_env_report(argv[0]);
  return test_main_result("test_selftest_shared");
}
