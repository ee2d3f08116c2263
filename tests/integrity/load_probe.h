/* Loading a copy of libfipsmod.so in a child process and reading what it says about itself: the
 * module state, the integrity test's result and how many power-on tests passed. Shared by the
 * integrity tests, which do not link the module (each child dlopens the copy under test).
 * Header-only: each test program includes it once. */
#ifndef FIPSMOD_TESTS_INTEGRITY_LOAD_PROBE_H
#define FIPSMOD_TESTS_INTEGRITY_LOAD_PROBE_H

#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fipsmod/module.h"
#include "fipsmod/selftest.h"

/* What a child saw. |outcome| is PROBE_LOADED when the child could load the copy and read its
 * report; the other outcomes say why not (which the tests accept as "not OPERATIONAL"). */
enum probe_outcome { PROBE_LOADED = 0, PROBE_DLOPEN_FAILED = 1, PROBE_NO_SYMBOLS = 2,
                     PROBE_REPORT_FAILED = 3, PROBE_CRASHED = 4, PROBE_NO_ANSWER = 5,
                     PROBE_HUNG = 6 };

struct probe_result {
  int outcome;
  int signal;              /* PROBE_CRASHED: the signal */
  int state;               /* fm_state */
  int integrity;           /* fm_selftest_result of the integrity entry (-1: no such entry) */
  int power_on_passed;     /* power-on entries whose result is PASSED */
  int failed;              /* entries whose result is FAILED */
  size_t summary_passed;   /* fm_selftest_get_summary: passed */
  int summary_integrity;   /* fm_selftest_get_summary: integrity */
  char dlerror_text[120];  /* PROBE_DLOPEN_FAILED: the start of dlerror() */
};

static inline const char *probe_outcome_name(int o) {
  switch (o) {
    case PROBE_LOADED: return "loaded";
    case PROBE_DLOPEN_FAILED: return "dlopen failed";
    case PROBE_NO_SYMBOLS: return "symbols missing";
    case PROBE_REPORT_FAILED: return "report failed";
    case PROBE_CRASHED: return "crashed";
    case PROBE_HUNG: return "hung (killed after the timeout)";
    default: return "no answer";
  }
}

/* probe_child runs in the child: load, read, write the result to |fd|, exit. */
static inline void probe_child(const char *path, int fd) {
  struct probe_result r = {.outcome = PROBE_DLOPEN_FAILED, .integrity = -1};
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char *e = dlerror();
    if (e) snprintf(r.dlerror_text, sizeof r.dlerror_text, "%s", e);
  }
  if (h) {
    fm_state (*state)(void) = (fm_state(*)(void))dlsym(h, "fm_module_state");
    int (*report)(fm_selftest_entry *, size_t, size_t *) =
        (int (*)(fm_selftest_entry *, size_t, size_t *))dlsym(h, "fm_selftest_report");
    int (*summary)(fm_selftest_summary *) =
        (int (*)(fm_selftest_summary *))dlsym(h, "fm_selftest_get_summary");
    r.outcome = PROBE_NO_SYMBOLS;
    if (state && report && summary) {
      static fm_selftest_entry e[FM_SELFTEST_MAX_ENTRIES];
      size_t n = 0;
      fm_selftest_summary s;
      r.outcome = PROBE_REPORT_FAILED;
      if (report(e, FM_SELFTEST_MAX_ENTRIES, &n) == FM_OK && summary(&s) == FM_OK) {
        r.outcome = PROBE_LOADED;
        r.state = (int)state();
        for (size_t i = 0; i < n; i++) {
          if (e[i].kind == FM_SELFTEST_KIND_INTEGRITY) r.integrity = (int)e[i].result;
          if (e[i].when == FM_SELFTEST_AT_POWER_ON && e[i].result == FM_SELFTEST_PASSED)
            r.power_on_passed++;
          if (e[i].result == FM_SELFTEST_FAILED) r.failed++;
        }
        r.summary_passed = s.passed;
        r.summary_integrity = (int)s.integrity;
      }
    }
  }
  ssize_t w = write(fd, &r, sizeof r);
  _exit(w == (ssize_t)sizeof r ? 0 : 1);
}

/* probe_fork is fork() for the integrity tests, whose children only load a copy of the library:
 * _Fork where glibc has it (2.34 and later). These programs register no atfork handler and never
 * have the module loaded when they fork, so _Fork, which runs no handler, makes the same child;
 * and it also works under qemu-user 7.2, where glibc's fork() hangs in the child of an aarch64
 * program (its child-side bookkeeping spins), which would leave the tamper tests unable to run
 * there. */
static inline pid_t probe_fork(void) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
  return _Fork();
#else
  return fork();
#endif
}

/* probe_load_within loads |path| in a fresh child and fills |r|; a child that has not answered
 * after |timeout_ms| (0: no limit) is killed and reported PROBE_HUNG. Returns 0, or -1 when no
 * child ran. */
static inline int probe_load_within(const char *path, struct probe_result *r, int timeout_ms) {
  *r = (struct probe_result){.outcome = PROBE_NO_ANSWER, .integrity = -1};
  int fds[2];
  if (pipe(fds) != 0) return -1;
  fflush(NULL);
  pid_t pid = probe_fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return -1;
  }
  if (pid == 0) {
    close(fds[0]);
    /* A corrupted copy may print or abort noisily; its report is what counts. */
    int devnull = open("/dev/null", O_WRONLY);
    if (devnull >= 0) dup2(devnull, 2);
    probe_child(path, fds[1]);
  }
  close(fds[1]);
  struct probe_result got;
  ssize_t n = -1;
  int hung = 0;
  if (timeout_ms > 0) {
    struct pollfd pfd = {.fd = fds[0], .events = POLLIN};
    int pr;
    do {
      pr = poll(&pfd, 1, timeout_ms);
    } while (pr < 0 && errno == EINTR);
    if (pr == 0) {
      hung = 1;
      kill(pid, SIGKILL);
    }
  }
  if (!hung) n = read(fds[0], &got, sizeof got);
  close(fds[0]);
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return -1;
  if (hung) {
    *r = (struct probe_result){.outcome = PROBE_HUNG, .integrity = -1};
  } else if (n == (ssize_t)sizeof got) {
    *r = got;
  } else {
    *r = (struct probe_result){.outcome = PROBE_NO_ANSWER, .integrity = -1};
    if (WIFSIGNALED(status)) {
      r->outcome = PROBE_CRASHED;
      r->signal = WTERMSIG(status);
    }
  }
  return 0;
}

/* probe_load is probe_load_within with no time limit. */
static inline int probe_load(const char *path, struct probe_result *r) {
  return probe_load_within(path, r, 0);
}

/* probe_operational_intact is true when the copy loaded OPERATIONAL with the integrity test
 * passed and nothing failed. */
static inline int probe_operational_intact(const struct probe_result *r) {
  return r->outcome == PROBE_LOADED && r->state == FM_STATE_OPERATIONAL &&
         r->integrity == FM_SELFTEST_PASSED && r->summary_integrity == FM_SELFTEST_PASSED &&
         r->failed == 0;
}

#endif
