/* selftest: what the power-on self-tests cost each process that loads the module.
 *
 * Each operation starts fipsmod-bench-load in a fresh process (posix_spawn), which dlopens one
 * library and reports how long the dlopen took; the operation ends when the process has exited.
 * Variants:
 *   fipsmod                  libfipsmod.so as users get it: integrity check + every KAT at load
 *   testhooks                the test-hooks build of the shared library, self-tests run
 *   testhooks-skip-selftest  the same library with FIPSMOD_SKIP_SELFTEST=1 (self-tests skipped)
 *   no-module                the loader loading nothing (the cost of a process)
 * The per-load cost of the self-tests is the difference between testhooks and
 * testhooks-skip-selftest (the same library either way), measured both over the whole process
 * and over the dlopen alone; fipsmod against testhooks-skip-selftest is printed too. The module's
 * own account of its load-time run (fm_selftest_get_summary / fm_selftest_report of this
 * process, which loaded libfipsmod.so at start-up) is printed after. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/bench.h"
#include "bench/bench_ops.h"
#include "fipsmod/selftest.h"

extern char **environ;

typedef struct {
  const char *name;
  char loader[4096];
  const char *lib; /* path, or "none" */
  char **envp;
  uint64_t dlopen_ns_sum;
  uint64_t loads;
  char error[512];
} load_variant;

/* make_env copies the environment without the variables that change what the module does at
 * load, then adds FIPSMOD_SKIP_SELFTEST=1 when |skip|. */
static char **make_env(int skip) {
  size_t n = 0;
  while (environ[n]) n++;
  char **e = calloc(n + 2, sizeof(*e));
  if (e == NULL) return NULL;
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (strncmp(environ[i], "FIPSMOD_SKIP_SELFTEST=", 22) == 0 ||
        strncmp(environ[i], "FIPSMOD_SELFTEST_REPORT=", 24) == 0 ||
        strncmp(environ[i], "FIPSMOD_BREAK_TEST=", 19) == 0)
      continue;
    e[k++] = environ[i];
  }
  if (skip) e[k++] = "FIPSMOD_SKIP_SELFTEST=1";
  e[k] = NULL;
  return e;
}

/* load_once runs the loader once; returns 0 and adds its dlopen time, or -1 with v->error set. */
static int load_once(load_variant *v) {
  int fds[2];
  if (pipe(fds) != 0) {
    snprintf(v->error, sizeof(v->error), "pipe: %s", strerror(errno));
    return -1;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&fa, fds[0]);
  posix_spawn_file_actions_addclose(&fa, fds[1]);
  char *argv[] = {v->loader, (char *)v->lib, NULL};
  pid_t pid;
  int rc = posix_spawn(&pid, v->loader, &fa, NULL, argv, v->envp);
  posix_spawn_file_actions_destroy(&fa);
  close(fds[1]);
  if (rc != 0) {
    close(fds[0]);
    snprintf(v->error, sizeof(v->error), "cannot start %.300s: %.100s", v->loader, strerror(rc));
    return -1;
  }
  char buf[64];
  size_t got = 0;
  for (;;) {
    ssize_t r = read(fds[0], buf + got, sizeof(buf) - 1 - got);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    got += (size_t)r;
    if (got == sizeof(buf) - 1) break;
  }
  close(fds[0]);
  buf[got] = '\0';
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || got == 0) {
    snprintf(v->error, sizeof(v->error), "the loader failed on %.300s (status %d)", v->lib, status);
    return -1;
  }
  v->dlopen_ns_sum += strtoull(buf, NULL, 10);
  v->loads++;
  return 0;
}

static int load_run(void *p, size_t size, uint64_t n) {
  (void)size;
  load_variant *v = p;
  for (uint64_t i = 0; i < n; i++)
    if (load_once(v) != 0) return 1;
  return 0;
}

static void *load_check(const void *param, size_t size, char *why, size_t why_len) {
  (void)size;
  load_variant *v = (load_variant *)param;
  if (v->lib == NULL || v->lib[0] == '\0') {
    snprintf(why, why_len, "this build has no %s library", v->name);
    return NULL;
  }
  if (strcmp(v->lib, "none") != 0 && access(v->lib, R_OK) != 0) {
    snprintf(why, why_len, "%s: %s", v->lib, strerror(errno));
    return NULL;
  }
  if (v->envp == NULL) {
    snprintf(why, why_len, "out of memory");
    return NULL;
  }
  return v;
}

static void print_module_report(void) {
  fm_selftest_summary sum;
  if (fm_selftest_get_summary(&sum) != FM_OK) {
    bench_note("fm_selftest_get_summary failed");
    return;
  }
  printf("selftest: the module's own report (this process's load of libfipsmod.so): state %s, "
         "integrity %s, power-on run %.1f us, %zu tests (%zu passed, %zu failed)\n",
         fm_module_state_name(sum.state), sum.integrity_text ? sum.integrity_text : "?",
         (double)sum.power_on_ns / 1e3, sum.tests, sum.passed, sum.failed);
  fm_selftest_entry entries[FM_SELFTEST_MAX_ENTRIES];
  size_t count = 0;
  if (fm_selftest_report(entries, FM_SELFTEST_MAX_ENTRIES, &count) != FM_OK) return;
  uint64_t at_load = 0;
  for (size_t i = 0; i < count; i++) {
    const fm_selftest_entry *e = &entries[i];
    if (e->runs == 0) continue;
    printf("  %-32s %-10s %-16s %-8s %9.1f us\n", e->name, fm_selftest_kind_name(e->kind),
           fm_selftest_when_name(e->when), fm_selftest_result_name(e->result),
           (double)e->duration_ns / 1e3);
    if (e->when == FM_SELFTEST_AT_POWER_ON) at_load += e->duration_ns;
  }
  printf("  sum of the power-on entries: %.1f us\n", (double)at_load / 1e3);
}

void bench_selftest(const char *self_dir) {
  if (!bench_wants("selftest")) return;
#ifdef FIPSMOD_BENCH_TESTHOOKS_LIB
  const char *testhooks = FIPSMOD_BENCH_TESTHOOKS_LIB;
#else
  const char *testhooks = "";
#endif
  /* The libfipsmod.so this process loaded (found through one of its functions), so that the
   * fresh processes load the very same file. */
  const char *lib = FIPSMOD_BENCH_LIB;
  Dl_info info;
  if (dladdr((void *)fm_module_version, &info) != 0 && info.dli_fname != NULL) lib = info.dli_fname;
  load_variant v[4] = {
      {.name = "fipsmod", .lib = lib, .envp = make_env(0)},
      {.name = "testhooks", .lib = testhooks, .envp = make_env(0)},
      {.name = "testhooks-skip-selftest", .lib = testhooks, .envp = make_env(1)},
      {.name = "no-module", .lib = "none", .envp = make_env(0)},
  };
  bench_result r[4];
  for (int i = 0; i < 4; i++) {
    snprintf(v[i].loader, sizeof(v[i].loader), "%s/fipsmod-bench-load", self_dir);
    bench_impl impl = {v[i].name, load_check, load_run, NULL, &v[i]};
    r[i] = bench_run_impl(&impl, 0, 1);
    if (r[i].ok) {
      bench_print_line("selftest", 0, BENCH_BYTES, v[i].name, 1, &r[i]);
      bench_add_row("selftest", v[i].name, 0, 1, r[i].ops_per_sec, 0.0);
    } else if (v[i].error[0]) {
      bench_note("%s: %s", v[i].name, v[i].error);
    }
  }
  double proc_us[4] = {0}, dl_us[4] = {0};
  for (int i = 0; i < 4; i++) {
    if (!r[i].ok || v[i].loads == 0) continue;
    proc_us[i] = 1e6 / r[i].ops_per_sec;
    dl_us[i] = (double)v[i].dlopen_ns_sum / (double)v[i].loads / 1e3;
    bench_add_row("selftest-dlopen", v[i].name, 0, 1, 1e6 / dl_us[i], 0.0);
    printf("selftest: %-24s %9.1f us per process, %9.1f us in dlopen (mean of %" PRIu64 ")\n",
           v[i].name, proc_us[i], dl_us[i], v[i].loads);
  }
  if (r[1].ok && r[2].ok)
    printf("selftest: per-load cost of the self-tests (testhooks - testhooks-skip-selftest): "
           "%.1f us per process, %.1f us in dlopen\n",
           proc_us[1] - proc_us[2], dl_us[1] - dl_us[2]);
  if (r[0].ok && r[2].ok)
    printf("selftest: fipsmod (integrity + KATs) - testhooks-skip-selftest: %.1f us per process, "
           "%.1f us in dlopen\n",
           proc_us[0] - proc_us[2], dl_us[0] - dl_us[2]);
  print_module_report();
  for (int i = 0; i < 4; i++) free(v[i].envp);
  fflush(stdout);
}
