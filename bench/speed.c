/* fipsmod-speed: every service of the module timed side by side with OpenSSL and the kernel.
 *
 * Public functions are timed through libfipsmod.so, the module as users get it. The Montgomery
 * operations (mont-setup-consttime, modexp-consttime) time internals that libfipsmod.so does not
 * export; they run in a helper program, fipsmod-speed-bn, linked with the module's internal
 * library, which this program starts with the same options and whose rows it merges into its
 * own -json output. Two programs rather than one because linking libfipsmod.so and the internal
 * library into one process would give it two copies of the module (two states, two RNGs, two
 * power-on runs). See bench.h for the output format. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <openssl/crypto.h>

#include "bench/bench.h"
#include "bench/bench_ops.h"
#include "fipsmod/module.h"

extern char **environ;

/* self_dir sets |dir| to the directory of this executable. */
static int self_dir(char *dir, size_t len) {
  ssize_t r = readlink("/proc/self/exe", dir, len - 1);
  if (r <= 0) return -1;
  dir[r] = '\0';
  char *slash = strrchr(dir, '/');
  if (slash == NULL) return -1;
  *slash = '\0';
  return 0;
}

/* run_bn_helper runs fipsmod-speed-bn with this run's options and merges its rows. */
static void run_bn_helper(const char *dir) {
  if (!bench_wants("mont-setup-consttime") && !bench_wants("modexp-consttime")) return;
  char prog[PATH_MAX + 32], rows[] = "/tmp/fipsmod-speed-rows-XXXXXX", timeout[32], threads[256],
      filter[1024];
  snprintf(prog, sizeof(prog), "%s/fipsmod-speed-bn", dir);
  int fd = mkstemp(rows);
  if (fd < 0) {
    bench_note("mont/modexp skipped: mkstemp: %s", strerror(errno));
    return;
  }
  close(fd);
  snprintf(timeout, sizeof(timeout), "%.6g", g_bench_opts.timeout);
  char *argv[12];
  int a = 0;
  argv[a++] = prog;
  argv[a++] = "-timeout";
  argv[a++] = timeout;
  argv[a++] = "-rows";
  argv[a++] = rows;
  if (g_bench_opts.n_filters > 0) {
    size_t o = 0;
    for (int i = 0; i < g_bench_opts.n_filters && o < sizeof(filter); i++)
      o += (size_t)snprintf(filter + o, sizeof(filter) - o, "%s%s", i ? "," : "",
                            g_bench_opts.filters[i]);
    argv[a++] = "-filter";
    argv[a++] = filter;
  }
  if (g_bench_opts.n_thread_counts > 0) {
    size_t o = 0;
    for (int i = 0; i < g_bench_opts.n_thread_counts; i++)
      o += (size_t)snprintf(threads + o, sizeof(threads) - o, "%s%d", i ? "," : "",
                            g_bench_opts.thread_counts[i]);
    argv[a++] = "-threads";
    argv[a++] = threads;
  }
  argv[a] = NULL;
  fflush(stdout);
  pid_t pid;
  int rc = posix_spawn(&pid, prog, NULL, NULL, argv, environ);
  if (rc != 0) {
    bench_note("mont/modexp skipped: cannot start %s: %s", prog, strerror(rc));
    unlink(rows);
    return;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    bench_note("%s failed (status %d); its rows may be missing", prog, status);
  bench_rows_read_plain(rows);
  unlink(rows);
}

int main(int argc, char **argv) {
  int parsed = bench_parse_args(argc, argv, "fipsmod-speed", NULL, NULL);
  if (parsed != 0) return parsed > 0 ? 0 : 2;
  char dir[PATH_MAX];
  if (self_dir(dir, sizeof(dir)) != 0) snprintf(dir, sizeof(dir), ".");
  fm_state st = fm_module_state();
  Dl_info info;
  const char *lib = dladdr((void *)fm_module_version, &info) && info.dli_fname ? info.dli_fname
                                                                              : "?";
  printf("%s (%s), state %s, paths: %s\n%s; %.3g s per measurement\n", fm_module_version(),
         lib, fm_module_state_name(st), fm_module_cpu_paths(),
         OpenSSL_version(OPENSSL_VERSION), g_bench_opts.timeout);
  /* The machine may be shared: its load is context for every figure below. */
  double load[3] = {0, 0, 0};
  if (getloadavg(load, 3) < 0) load[0] = -1;
  printf("%ld CPUs online, load average %.2f %.2f %.2f\n", sysconf(_SC_NPROCESSORS_ONLN), load[0],
         load[1], load[2]);
  if (st != FM_STATE_OPERATIONAL) {
    fprintf(stderr, "fipsmod-speed: the module is not OPERATIONAL; nothing to time\n");
    return 1;
  }
  fflush(stdout);
  bench_sym();
  bench_rand();
  run_bn_helper(dir);
  bench_rsa();
  bench_mldsa();
  bench_ec();
  bench_mlkem();
  bench_selftest(dir);
  bench_print_summary();
  return bench_write_json() == 0 ? 0 : 1;
}
