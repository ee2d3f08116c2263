/* The measuring harness shared by fipsmod-speed and fipsmod-speed-bn.
 *
 * An operation ("AES-256-CTR" at 8192 bytes) has one or more implementations ("fipsmod",
 * "openssl", ...). bench_measure runs each implementation for a fixed time on each requested
 * thread count, prints one `Did N <op> (<size> bytes) operations in X us (Y ops/sec): Z MB/s`
 * line per implementation and then the ratios of the first implementation (always fipsmod) to
 * each peer, and keeps a row for -json. An implementation that cannot be set up (a peer the
 * machine lacks, a call that fails) prints a note and is skipped; it never stops the run. */
#ifndef FIPSMOD_BENCH_BENCH_H
#define FIPSMOD_BENCH_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BENCH_MAX_THREADS 64
#define BENCH_MAX_THREAD_COUNTS 8

/* One implementation of an operation.
 * init: called on each measuring thread before timing starts, returns that thread's state
 *   (NULL: setup failed; write a reason into |why|, it is printed as a note). May be NULL
 *   itself, then the state is |param|.
 * run: performs the operation |n| times; returns 0, or non-zero on a failed call (the run is
 *   abandoned with a note). Called once untimed as a warm-up.
 * fini: frees the state (may be NULL). */
typedef struct bench_impl {
  const char *name;
  void *(*init)(const void *param, size_t size, char *why, size_t why_len);
  int (*run)(void *state, size_t size, uint64_t n);
  void (*fini)(void *state);
  const void *param;
} bench_impl;

/* Units for the size of an operation: bytes of data, or bits of a modulus (RSA, Montgomery). */
typedef enum { BENCH_BYTES, BENCH_BITS } bench_unit;

typedef struct bench_result {
  bool ok;
  uint64_t ops;          /* total over all threads */
  double us;             /* wall time (longest thread's; summed over slices) */
  double ops_per_sec;    /* sum over threads of ops_i / time_i */
  double per_thread[BENCH_MAX_THREADS];
  uint64_t thread_ops[BENCH_MAX_THREADS];
  uint64_t thread_ns[BENCH_MAX_THREADS];
} bench_result;

#define BENCH_MAX_CHUNKS 16
#define BENCH_MAX_FILTERS 16

typedef struct bench_options {
  const char *filters[BENCH_MAX_FILTERS]; /* substrings of the op name (any one selects) */
  int n_filters;                          /* 0: every op */
  double timeout;              /* seconds per measurement: one op, size, implementation and
                                  thread count */
  size_t chunks[BENCH_MAX_CHUNKS]; /* -chunks: the sizes the byte-size ops run at */
  int n_chunks;                    /* 0: each op's default sizes */
  int thread_counts[BENCH_MAX_THREAD_COUNTS];
  int n_thread_counts;         /* 0: the default (1, and 1 and 2 for the RNG family) */
  const char *json_path;       /* NULL: no JSON */
} bench_options;

extern bench_options g_bench_opts;

/* bench_parse_args fills g_bench_opts from argv; also accepts the extra option |extra| (may be
 * NULL) with one argument, stored into *extra_value. Returns 0; 1 when it printed the help asked
 * for (-h, -help, --help) to stdout; -1 after printing a usage error to stderr. */
int bench_parse_args(int argc, char **argv, const char *prog, const char *extra,
                     const char **extra_value);

/* bench_wants is true when the filter selects |op| (use it to skip costly setup). */
bool bench_wants(const char *op);

/* bench_sizes returns the sizes a byte-size op runs at: the -chunks list when one was given,
 * else |defaults|; *n is set to the count. */
const size_t *bench_sizes(const size_t *defaults, size_t n_defaults, size_t *n);

/* bench_print_summary prints the table of every recorded row: op, size, threads, fipsmod's
 * ops/sec, then each peer's and the ratio fipsmod/peer. */
void bench_print_summary(void);

/* bench_note prints an indented note line (printf format). */
void bench_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* bench_measure times |impls| (impls[0] is fipsmod) for |op| at |size| on every thread count
 * that applies (|multi_thread_default|: the op is run at 1 and 2 threads unless -threads says
 * otherwise), prints the lines and ratios and records the rows. Does nothing when the filter
 * does not select |op|. */
void bench_measure(const char *op, size_t size, bench_unit unit, const bench_impl *impls,
                   size_t n_impls, bool multi_thread_default);

/* bench_run_impl times one implementation on |threads| threads for the -timeout, in one piece,
 * without printing (a failure prints a note); used by ops that print their own summary. */
bench_result bench_run_impl(const bench_impl *impl, size_t size, int threads);

/* bench_print_line prints the `Did N ...` line of |r| for |impl_name|. */
void bench_print_line(const char *op, size_t size, bench_unit unit, const char *impl_name,
                      int threads, const bench_result *r);

/* bench_add_row records one JSON row. */
void bench_add_row(const char *op, const char *impl, size_t size, int threads,
                   double ops_per_sec, double bytes_per_sec);

/* bench_write_json writes every recorded row to the -json file (if any). Returns 0 or -1. */
int bench_write_json(void);

/* bench_rows_write_plain / bench_rows_read_plain pass rows between fipsmod-speed and its helper
 * process fipsmod-speed-bn, one row a line: "op impl size threads ops_per_sec bytes_per_sec". */
int bench_rows_write_plain(const char *path);
int bench_rows_read_plain(const char *path);

/* bench_now_ns is CLOCK_MONOTONIC in nanoseconds. */
uint64_t bench_now_ns(void);

/* bench_fill fills |len| bytes with a fixed, non-zero pattern (inputs need not be random). */
void bench_fill(uint8_t *p, size_t len, uint8_t seed);

#endif
