/* The measuring harness: option parsing, timed runs on N threads, output lines, ratios and JSON.
 * See bench.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/bench.h"

bench_options g_bench_opts = {.n_filters = 0, .timeout = 1.0, .n_chunks = 0,
                              .n_thread_counts = 0, .json_path = NULL};

/* ---- Options ------------------------------------------------------------------------------ */

static void usage(FILE *f, const char *prog, const char *extra) {
  fprintf(f,
          "usage: %s [-filter NAME[,NAME...]] [-chunks N[,N...]] [-threads N[,N...]]\n"
          "       [-timeout SECONDS] [-json FILE]%s%s%s\n"
          "  -filter   run only the operations whose name contains one of the NAMEs\n"
          "  -chunks   the sizes in bytes to time the data operations at (AES, GCM, SHA, HMAC,\n"
          "            RNG; default 16,64,256,1350,8192,16384); fixed-size operations (RSA,\n"
          "            UUIDs, KDFs, RNG-u32) keep their sizes\n"
          "  -threads  thread counts to run every operation at (default: 1, and 1,2 for the\n"
          "            RNG/UUID operations); ops/sec is the total over all threads\n"
          "  -timeout  seconds per measurement: each operation, size, implementation and\n"
          "            thread count runs this long, in slices taken in turn (default 1)\n"
          "  -json     also write the results as a JSON array of\n"
          "            {op, impl, size, threads, ops_per_sec, bytes_per_sec}\n"
          "  -help     this text\n"
          "Options take one dash or two. Each measurement prints a `Did N ...` line and the\n"
          "ratios fipsmod/peer; a summary table of every measurement ends the run.\n"
          "Exit status: 0 success; 1 the module is not operational or the JSON cannot be\n"
          "written; 2 usage error.\n",
          prog, extra ? " [" : "", extra ? extra : "", extra ? " ARG]" : "");
}

/* parse_chunk_list reads -chunks: sizes 0..16 MiB, comma-separated. */
static int parse_chunk_list(const char *s) {
  g_bench_opts.n_chunks = 0;
  while (*s) {
    char *end = NULL;
    errno = 0;
    if (*s < '0' || *s > '9') return -1;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || v > (1u << 24) || g_bench_opts.n_chunks == BENCH_MAX_CHUNKS)
      return -1;
    g_bench_opts.chunks[g_bench_opts.n_chunks++] = (size_t)v;
    if (*end == ',') end++;
    else if (*end != '\0') return -1;
    s = end;
  }
  return g_bench_opts.n_chunks ? 0 : -1;
}

/* parse_filter_list splits -filter at commas (the names are kept in argv, so it is copied). */
static int parse_filter_list(const char *s) {
  static char buf[1024];
  if (strlen(s) >= sizeof(buf)) return -1;
  memcpy(buf, s, strlen(s) + 1);
  g_bench_opts.n_filters = 0;
  for (char *p = buf;;) {
    char *comma = strchr(p, ',');
    if (comma) *comma = '\0';
    if (*p == '\0' || g_bench_opts.n_filters == BENCH_MAX_FILTERS) return -1;
    g_bench_opts.filters[g_bench_opts.n_filters++] = p;
    if (!comma) break;
    p = comma + 1;
  }
  return 0;
}

static int parse_thread_list(const char *s) {
  g_bench_opts.n_thread_counts = 0;
  while (*s) {
    char *end = NULL;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || v < 1 || v > BENCH_MAX_THREADS ||
        g_bench_opts.n_thread_counts == BENCH_MAX_THREAD_COUNTS)
      return -1;
    g_bench_opts.thread_counts[g_bench_opts.n_thread_counts++] = (int)v;
    if (*end == ',') end++;
    else if (*end != '\0') return -1;
    s = end;
  }
  return g_bench_opts.n_thread_counts ? 0 : -1;
}

int bench_parse_args(int argc, char **argv, const char *prog, const char *extra,
                     const char **extra_value) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    /* Accept -opt and --opt alike. */
    if (a[0] == '-' && a[1] == '-') a++;
    if (strcmp(a, "-h") == 0 || strcmp(a, "-help") == 0) {
      usage(stdout, prog, extra);
      return 1;
    }
    if (i + 1 >= argc) {
      usage(stderr, prog, extra);
      return -1;
    }
    const char *v = argv[++i];
    if (strcmp(a, "-filter") == 0) {
      if (parse_filter_list(v) != 0) {
        fprintf(stderr, "%s: bad -filter '%s' (names, comma-separated)\n", prog, v);
        return -1;
      }
    } else if (strcmp(a, "-chunks") == 0) {
      if (parse_chunk_list(v) != 0) {
        fprintf(stderr, "%s: bad -chunks '%s' (%d sizes of 0..16777216, comma-separated)\n",
                prog, v, BENCH_MAX_CHUNKS);
        return -1;
      }
    } else if (strcmp(a, "-timeout") == 0) {
      char *end = NULL;
      double t = strtod(v, &end);
      if (end == v || *end != '\0' || !(t > 0.0) || t > 3600.0) {
        fprintf(stderr, "%s: bad -timeout '%s'\n", prog, v);
        return -1;
      }
      g_bench_opts.timeout = t;
    } else if (strcmp(a, "-threads") == 0) {
      if (parse_thread_list(v) != 0) {
        fprintf(stderr, "%s: bad -threads '%s' (1..%d, comma-separated)\n", prog, v,
                BENCH_MAX_THREADS);
        return -1;
      }
    } else if (strcmp(a, "-json") == 0) {
      g_bench_opts.json_path = v;
    } else if (extra != NULL && strcmp(a, extra) == 0) {
      *extra_value = v;
    } else {
      usage(stderr, prog, extra);
      return -1;
    }
  }
  return 0;
}

bool bench_wants(const char *op) {
  if (g_bench_opts.n_filters == 0) return true;
  for (int i = 0; i < g_bench_opts.n_filters; i++)
    if (strstr(op, g_bench_opts.filters[i]) != NULL) return true;
  return false;
}

const size_t *bench_sizes(const size_t *defaults, size_t n_defaults, size_t *n) {
  if (g_bench_opts.n_chunks > 0) {
    *n = (size_t)g_bench_opts.n_chunks;
    return g_bench_opts.chunks;
  }
  *n = n_defaults;
  return defaults;
}

void bench_note(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("  note: ", stdout);
  vprintf(fmt, ap);
  fputc('\n', stdout);
  va_end(ap);
  fflush(stdout);
}

uint64_t bench_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void bench_fill(uint8_t *p, size_t len, uint8_t seed) {
  for (size_t i = 0; i < len; i++) p[i] = (uint8_t)(seed + 31u * i + (i >> 8));
}

/* ---- Rows --------------------------------------------------------------------------------- */

typedef struct {
  char op[48];
  char impl[48];
  size_t size;
  int threads;
  double ops_per_sec;
  double bytes_per_sec;
} row;

static row *g_rows;
static size_t g_n_rows, g_cap_rows;

void bench_add_row(const char *op, const char *impl, size_t size, int threads,
                   double ops_per_sec, double bytes_per_sec) {
  if (g_n_rows == g_cap_rows) {
    size_t cap = g_cap_rows ? 2 * g_cap_rows : 64;
    row *n = realloc(g_rows, cap * sizeof(*n));
    if (n == NULL) return; /* a lost row is reported by its absence, not a crash */
    g_rows = n;
    g_cap_rows = cap;
  }
  row *r = &g_rows[g_n_rows++];
  snprintf(r->op, sizeof(r->op), "%s", op);
  snprintf(r->impl, sizeof(r->impl), "%s", impl);
  r->size = size;
  r->threads = threads;
  r->ops_per_sec = ops_per_sec;
  r->bytes_per_sec = bytes_per_sec;
}

/* Op and impl names are ours (letters, digits, '-', '_'), so they need no JSON escaping; the
 * check keeps the output valid should one ever not be. */
static void json_string(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
    else if (c < 0x20) fprintf(f, "\\u%04x", c);
    else fputc(c, f);
  }
  fputc('"', f);
}

int bench_write_json(void) {
  if (g_bench_opts.json_path == NULL) return 0;
  FILE *f = fopen(g_bench_opts.json_path, "w");
  if (f == NULL) {
    fprintf(stderr, "cannot write %s: %s\n", g_bench_opts.json_path, strerror(errno));
    return -1;
  }
  fputs("[", f);
  for (size_t i = 0; i < g_n_rows; i++) {
    const row *r = &g_rows[i];
    fputs(i ? ",\n  {" : "\n  {", f);
    fputs("\"op\": ", f);
    json_string(f, r->op);
    fputs(", \"impl\": ", f);
    json_string(f, r->impl);
    fprintf(f, ", \"size\": %zu, \"threads\": %d, \"ops_per_sec\": %.3f, \"bytes_per_sec\": %.3f}",
            r->size, r->threads, r->ops_per_sec, r->bytes_per_sec);
  }
  fputs(g_n_rows ? "\n]\n" : "]\n", f);
  int bad = ferror(f);
  if (fclose(f) != 0 || bad) {
    fprintf(stderr, "error writing %s\n", g_bench_opts.json_path);
    return -1;
  }
  return 0;
}

void bench_print_summary(void) {
  if (g_n_rows == 0) return;
  printf("\nSummary (ops/sec; ratio = fipsmod / peer, above 1 fipsmod is faster):\n");
  printf("%-24s %8s %3s %14s  %-16s %14s %7s\n", "op", "size", "thr", "fipsmod", "peer",
         "peer ops/s", "ratio");
  /* Rows of one measurement (op, size, threads) are recorded together, fipsmod's first; the
   * table keeps that order. */
  for (size_t i = 0; i < g_n_rows; i++) {
    const row *f = &g_rows[i];
    if (strcmp(f->impl, "fipsmod") != 0) continue;
    int peers = 0;
    for (size_t j = 0; j < g_n_rows; j++) {
      const row *p = &g_rows[j];
      if (j == i || strcmp(p->op, f->op) != 0 || p->size != f->size ||
          p->threads != f->threads || strcmp(p->impl, "fipsmod") == 0)
        continue;
      printf("%-24s %8zu %3d %14.1f  %-16s %14.1f %7.2f\n", f->op, f->size, f->threads,
             f->ops_per_sec, p->impl, p->ops_per_sec,
             p->ops_per_sec > 0.0 ? f->ops_per_sec / p->ops_per_sec : 0.0);
      peers++;
    }
    if (peers == 0)
      printf("%-24s %8zu %3d %14.1f  %-16s %14s %7s\n", f->op, f->size, f->threads,
             f->ops_per_sec, "-", "-", "-");
  }
  fflush(stdout);
}

int bench_rows_write_plain(const char *path) {
  FILE *f = fopen(path, "w");
  if (f == NULL) return -1;
  for (size_t i = 0; i < g_n_rows; i++) {
    const row *r = &g_rows[i];
    fprintf(f, "%s %s %zu %d %.3f %.3f\n", r->op, r->impl, r->size, r->threads, r->ops_per_sec,
            r->bytes_per_sec);
  }
  return fclose(f) == 0 ? 0 : -1;
}

int bench_rows_read_plain(const char *path) {
  FILE *f = fopen(path, "r");
  if (f == NULL) return -1;
  char op[48], impl[48];
  size_t size;
  int threads;
  double ops, bytes;
  while (fscanf(f, "%47s %47s %zu %d %lf %lf", op, impl, &size, &threads, &ops, &bytes) == 6)
    bench_add_row(op, impl, size, threads, ops, bytes);
  fclose(f);
  return 0;
}

/* ---- Timed runs --------------------------------------------------------------------------- */

typedef struct {
  const bench_impl *impl;
  size_t size;
  pthread_barrier_t *barrier;
  uint64_t deadline_ns; /* length of the run */
  uint64_t ops;
  uint64_t elapsed_ns;
  int failed;
  char why[160];
} worker;

static void *worker_main(void *arg) {
  worker *w = arg;
  const bench_impl *impl = w->impl;
  void *state = (void *)impl->param;
  bool have_state = true;
  if (impl->init != NULL) {
    state = impl->init(impl->param, w->size, w->why, sizeof(w->why));
    have_state = state != NULL;
  }
  if (!have_state) {
    w->failed = 1;
    if (w->why[0] == '\0') snprintf(w->why, sizeof(w->why), "setup failed");
  } else if (impl->run(state, w->size, 1) != 0) {
    /* The warm-up call also creates what is made on first use (a thread's DRBG). */
    w->failed = 1;
    if (w->why[0] == '\0') snprintf(w->why, sizeof(w->why), "the call failed");
  }
  pthread_barrier_wait(w->barrier);
  if (!w->failed) {
    /* Batches double until one takes about 1/50 of the run, so that reading the clock costs
     * nothing measurable and a slow operation still stops close to the deadline. */
    uint64_t batch = 1, ops = 0, target = w->deadline_ns / 50;
    uint64_t t0 = bench_now_ns(), t = t0;
    for (;;) {
      uint64_t b0 = t;
      if (impl->run(state, w->size, batch) != 0) {
        w->failed = 1;
        snprintf(w->why, sizeof(w->why), "a call failed during the run");
        break;
      }
      ops += batch;
      t = bench_now_ns();
      if (t - t0 >= w->deadline_ns) break;
      if (t - b0 < target && batch < (UINT64_C(1) << 32)) batch *= 2;
    }
    w->ops = ops;
    w->elapsed_ns = t - t0;
  }
  if (have_state && impl->init != NULL && impl->fini != NULL) impl->fini(state);
  return NULL;
}

/* run_slice times |impl| on |threads| threads for |seconds|. */
static bench_result run_slice(const bench_impl *impl, size_t size, int threads, double seconds) {
  bench_result r;
  memset(&r, 0, sizeof(r));
  worker *ws = calloc((size_t)threads, sizeof(*ws));
  pthread_t *tids = calloc((size_t)threads, sizeof(*tids));
  pthread_barrier_t barrier;
  if (ws == NULL || tids == NULL || pthread_barrier_init(&barrier, NULL, (unsigned)threads)) {
    bench_note("%s: out of memory", impl->name);
    free(ws);
    free(tids);
    return r;
  }
  int started = 0;
  for (int i = 0; i < threads; i++) {
    ws[i].impl = impl;
    ws[i].size = size;
    ws[i].barrier = &barrier;
    ws[i].deadline_ns = (uint64_t)(seconds * 1e9);
    if (pthread_create(&tids[i], NULL, worker_main, &ws[i]) != 0) break;
    started++;
  }
  if (started != threads) {
    /* The barrier would never open; this only happens when the system is out of threads. */
    bench_note("%s: could not start %d threads", impl->name, threads);
    exit(1);
  }
  for (int i = 0; i < threads; i++) pthread_join(tids[i], NULL);
  pthread_barrier_destroy(&barrier);
  r.ok = true;
  for (int i = 0; i < threads; i++) {
    if (ws[i].failed) {
      r.ok = false;
      bench_note("%s skipped: %s", impl->name, ws[i].why);
      break;
    }
    double secs = (double)ws[i].elapsed_ns / 1e9;
    r.thread_ops[i] = ws[i].ops;
    r.thread_ns[i] = ws[i].elapsed_ns;
    r.ops += ws[i].ops;
    r.per_thread[i] = (double)ws[i].ops / secs;
    r.ops_per_sec += r.per_thread[i];
    if ((double)ws[i].elapsed_ns / 1e3 > r.us) r.us = (double)ws[i].elapsed_ns / 1e3;
  }
  free(ws);
  free(tids);
  return r;
}

bench_result bench_run_impl(const bench_impl *impl, size_t size, int threads) {
  return run_slice(impl, size, threads, g_bench_opts.timeout);
}

static double bytes_per_op(size_t size, bench_unit unit) {
  return unit == BENCH_BITS ? (double)size / 8.0 : (double)size;
}

void bench_print_line(const char *op, size_t size, bench_unit unit, const char *impl_name,
                      int threads, const bench_result *r) {
  if (unit == BENCH_BITS) {
    printf("Did %" PRIu64 " %s (%zu bits) operations in %.0f us (%.1f ops/sec) [%s",
           r->ops, op, size, r->us, r->ops_per_sec, impl_name);
  } else {
    printf("Did %" PRIu64 " %s (%zu bytes) operations in %.0f us (%.1f ops/sec): %.1f MB/s [%s",
           r->ops, op, size, r->us, r->ops_per_sec,
           r->ops_per_sec * bytes_per_op(size, unit) / 1e6, impl_name);
  }
  if (threads > 1) {
    printf(", %d threads:", threads);
    for (int i = 0; i < threads; i++) printf("%s %.1f", i ? " +" : "", r->per_thread[i]);
    printf(" ops/sec per thread");
  }
  printf("]\n");
  fflush(stdout);
}

static bool op_thread_counts(bool multi_default, int *counts, int *n) {
  if (g_bench_opts.n_thread_counts > 0) {
    *n = g_bench_opts.n_thread_counts;
    memcpy(counts, g_bench_opts.thread_counts, (size_t)*n * sizeof(int));
  } else if (multi_default) {
    counts[0] = 1;
    counts[1] = 2;
    *n = 2;
  } else {
    counts[0] = 1;
    *n = 1;
  }
  return true;
}

/* Each implementation runs for the -timeout in total, in BENCH_SLICES slices taken in turn with
 * the other implementations (fipsmod, peer, ..., fipsmod, peer, ...), so that a change in the
 * machine's load (it is shared) falls on every implementation alike instead of on whichever ran
 * at the time. The slices of one implementation are summed: N is the total count, X the total
 * time, and ops/sec per thread is that thread's total count over its total time. */
#define BENCH_SLICES 3

static void add_slice(bench_result *acc, const bench_result *s, int threads) {
  acc->ops += s->ops;
  acc->us += s->us;
  acc->ops_per_sec = 0.0;
  for (int i = 0; i < threads; i++) {
    acc->thread_ops[i] += s->thread_ops[i];
    acc->thread_ns[i] += s->thread_ns[i];
    acc->per_thread[i] = (double)acc->thread_ops[i] / ((double)acc->thread_ns[i] / 1e9);
    acc->ops_per_sec += acc->per_thread[i];
  }
}

#define BENCH_MAX_IMPLS 16

void bench_measure(const char *op, size_t size, bench_unit unit, const bench_impl *impls,
                   size_t n_impls, bool multi_thread_default) {
  if (!bench_wants(op)) return;
  if (n_impls > BENCH_MAX_IMPLS) n_impls = BENCH_MAX_IMPLS;
  int counts[BENCH_MAX_THREAD_COUNTS], n_counts = 0;
  op_thread_counts(multi_thread_default, counts, &n_counts);
  for (int c = 0; c < n_counts; c++) {
    int threads = counts[c];
    bench_result acc[BENCH_MAX_IMPLS];
    bool alive[BENCH_MAX_IMPLS] = {false};
    memset(acc, 0, sizeof(acc));
    for (size_t i = 0; i < n_impls; i++) alive[i] = true;
    for (int slice = 0; slice < BENCH_SLICES; slice++) {
      for (size_t i = 0; i < n_impls; i++) {
        if (!alive[i]) continue;
        bench_result r = run_slice(&impls[i], size, threads, g_bench_opts.timeout / BENCH_SLICES);
        if (!r.ok) {
          alive[i] = false; /* the note is printed; no further slices */
          continue;
        }
        add_slice(&acc[i], &r, threads);
      }
    }
    for (size_t i = 0; i < n_impls; i++) {
      if (!alive[i]) continue;
      acc[i].ok = true;
      bench_print_line(op, size, unit, impls[i].name, threads, &acc[i]);
      bench_add_row(op, impls[i].name, size, threads, acc[i].ops_per_sec,
                    acc[i].ops_per_sec * bytes_per_op(size, unit));
    }
    if (!alive[0] || acc[0].ops_per_sec <= 0.0) continue;
    for (size_t i = 1; i < n_impls; i++) {
      if (!alive[i] || acc[i].ops_per_sec <= 0.0) continue;
      printf("  ratio %s/%s: %.2f\n", impls[0].name, impls[i].name,
             acc[0].ops_per_sec / acc[i].ops_per_sec);
    }
    fflush(stdout);
  }
}
