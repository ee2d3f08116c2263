/* The self-tests of libfipsmod.so as users load it: the integrity check ran and passed, every
 * power-on test passed with a measured duration, the other CASTs had not run before their
 * algorithm's first use and ran at it, and FIPSMOD_SELFTEST_REPORT=1 prints the report
 * (every test's name and the integrity status) to stderr at load, but only when stderr is a
 * stream someone reads: a pipe whose reader has gone does not kill the process (no SIGPIPE
 * before main), and a regular file at fd 2 is never written. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
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
  fm_selftest_times t[FM_SELFTEST_MAX_ENTRIES];
  size_t nt = 0;
  CHECK_EQ_INT(fm_selftest_report_times(t, FM_SELFTEST_MAX_ENTRIES, &nt), FM_OK);
  CHECK_EQ_INT(nt, n);
  size_t at_load = 0, later = 0;
  uint64_t sum = 0;
  for (size_t i = 0; i < n && i < nt; i++) {
    CHECK(strcmp(t[i].name, e[i].name) == 0);
    if (e[i].when == FM_SELFTEST_BEFORE_FIRST_USE) {
      later++;
      CHECK_EQ_INT(e[i].result, FM_SELFTEST_NOT_RUN);
      CHECK_EQ_INT(t[i].first_trigger, FM_SELFTEST_RAN_NOT_YET);
    }
    if (e[i].when != FM_SELFTEST_AT_POWER_ON) continue;
    at_load++;
    CHECK_EQ_INT(e[i].result, FM_SELFTEST_PASSED);
    CHECK_EQ_INT(e[i].runs, 1);
    CHECK(e[i].duration_ns > 0);
    CHECK_EQ_INT(t[i].first_trigger, FM_SELFTEST_RAN_AT_POWER_ON);
    sum += e[i].duration_ns;
  }
  CHECK(at_load >= 8);
  CHECK(later >= 20);
  CHECK(sum <= s.power_on_ns); /* the whole run includes each test */
  printf("power-on self-tests: %zu at load, %.1f us in all (integrity %s); %zu before first use\n",
         at_load, (double)s.power_on_ns / 1000.0, s.integrity_text, later);

  /* A first use runs its algorithm's test, after the power-on run. */
  uint8_t d[64];
  CHECK_EQ_INT(fm_sha512("abc", 3, d), FM_OK);
  CHECK_EQ_INT(fm_selftest_report(e, FM_SELFTEST_MAX_ENTRIES, &n), FM_OK);
  CHECK_EQ_INT(fm_selftest_report_times(t, FM_SELFTEST_MAX_ENTRIES, &nt), FM_OK);
  int seen = 0;
  for (size_t i = 0; i < n && i < nt; i++) {
    if (strcmp(e[i].name, "sha512-kat") != 0) continue;
    seen = 1;
    CHECK_EQ_INT(e[i].result, FM_SELFTEST_PASSED);
    CHECK_EQ_INT(t[i].first_trigger, FM_SELFTEST_RAN_AT_FIRST_USE);
    CHECK(t[i].first_at_ns >= s.power_on_ns);
  }
  CHECK(seen);
}

/* spawn_reporting runs this program (--quiet: exit 0 when OPERATIONAL) with
 * FIPSMOD_SELFTEST_REPORT=1 and |stderr_fd| as its fd 2 (-1: fd 2 closed), SIGPIPE at its default
 * action; returns its wait status. */
static int spawn_reporting(const char *self, int stderr_fd, int close_too) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  if (stderr_fd >= 0) posix_spawn_file_actions_adddup2(&fa, stderr_fd, STDERR_FILENO);
  else posix_spawn_file_actions_addclose(&fa, STDERR_FILENO);
  if (close_too >= 0) posix_spawn_file_actions_addclose(&fa, close_too);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t dfl;
  sigemptyset(&dfl);
  sigaddset(&dfl, SIGPIPE);
  posix_spawnattr_setsigdefault(&attr, &dfl);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
  size_t n = 0;
  while (environ[n]) n++;
  char **env = calloc(n + 2, sizeof *env);
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (strncmp(environ[i], "FIPSMOD_SELFTEST_REPORT=", 24) != 0) env[k++] = environ[i];
  env[k] = "FIPSMOD_SELFTEST_REPORT=1";
  char *argv[] = {(char *)self, "--quiet", NULL};
  pid_t pid;
  int status = -1;
  if (posix_spawn(&pid, self, &fa, &attr, argv, env) != 0 || waitpid(pid, &status, 0) != pid)
    status = -1;
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  free(env);
  return status;
}

static int exited_ok(int status) { return status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0; }

/* To a pipe: the whole report, every test named. */
static void test_env_report(const char *self) {
  int fds[2];
  CHECK(pipe(fds) == 0);
  /* The report (a few KB) fits in the pipe's buffer, so the child never waits on this reader. */
  int status = spawn_reporting(self, fds[1], fds[0]);
  close(fds[1]);
  static char out[65536];
  size_t len = 0;
  ssize_t r;
  while (len < sizeof out - 1 && (r = read(fds[0], out + len, sizeof out - 1 - len)) > 0)
    len += (size_t)r;
  out[len] = 0;
  close(fds[0]);
  CHECK(exited_ok(status));
  CHECK(strstr(out, "integrity: passed") != NULL);
  fm_selftest_entry e[FM_SELFTEST_MAX_ENTRIES];
  size_t count = 0;
  CHECK_EQ_INT(fm_selftest_report(e, FM_SELFTEST_MAX_ENTRIES, &count), FM_OK);
  for (size_t i = 0; i < count; i++) {
    if (strstr(out, e[i].name) == NULL) fprintf(stderr, "report lacks %s\n", e[i].name);
    CHECK(strstr(out, e[i].name) != NULL);
  }
}

/* To a pipe whose reader has gone: the write fails with EPIPE, and the process lives on (before
 * the fix, SIGPIPE killed it before main). */
static void test_env_report_broken_pipe(const char *self) {
  int fds[2];
  CHECK(pipe(fds) == 0);
  close(fds[0]);
  int status = spawn_reporting(self, fds[1], -1);
  close(fds[1]);
  if (status != -1 && WIFSIGNALED(status))
    fprintf(stderr, "report to a broken pipe: killed by signal %d\n", WTERMSIG(status));
  CHECK(exited_ok(status));
}

/* With a regular file at fd 2 (as when a process started with fd 2 closed has opened a data
 * file there) nothing is written to it; with fd 2 closed the process is fine. */
static void test_env_report_not_to_a_file(const char *self) {
  char path[] = "/tmp/fipsmod-report-XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  if (fd < 0) return;
  unlink(path);
  CHECK(exited_ok(spawn_reporting(self, fd, fd)));
  CHECK_EQ_INT(lseek(fd, 0, SEEK_END), 0);
  close(fd);
  CHECK(exited_ok(spawn_reporting(self, -1, -1)));
}

/* The environment cases run this program again (argv[0]). */
static const char *g_self;
static void test_env(void) { test_env_report(g_self); }
static void test_env_broken_pipe(void) { test_env_report_broken_pipe(g_self); }
static void test_env_not_to_a_file(void) { test_env_report_not_to_a_file(g_self); }

static const test_case cases[] = {
  TEST_CASE(report),
  TEST_CASE(env),
  TEST_CASE(env_broken_pipe),
  TEST_CASE(env_not_to_a_file),
};

int main(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "--quiet") == 0)
    return fm_module_state() == FM_STATE_OPERATIONAL ? 0 : 1;
  g_self = argv[0];
  return TEST_RUN(argc, argv, "test_selftest_shared", cases);
}
