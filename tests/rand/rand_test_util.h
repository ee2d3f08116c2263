/* Helpers for the RNG tests: running a scenario in a child process with a deadline, so that a
 * hang or a crash is a failed check and a scenario that ends the module (cleanup, ERROR) does not
 * affect the others. */
#ifndef FIPSMOD_TESTS_RAND_TEST_UTIL_H
#define FIPSMOD_TESTS_RAND_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* The write end of a pipe the scenario may report through (rt_report). */
extern int rt_result_fd;

/* rt_run_child runs |fn| in a forked child, which exits with fn's return value (through exit(),
 * so atexit handlers and the module's exit handler run). The child is killed after |timeout_s|.
 * Returns the exit status (0..255), or -1 when it was killed, crashed or timed out. Bytes the
 * child wrote with rt_report are copied to |report| (up to |cap|, NUL-terminated). */
int rt_run_child(const char *name, int (*fn)(void), int timeout_s, char *report, size_t cap);

/* rt_report appends |msg| to the child's report (async-signal-safe: one write). */
void rt_report(const char *msg);

/* rt_sort_unique sorts |n| records of |size| bytes and returns the number of adjacent equal
 * pairs (0: all distinct). */
size_t rt_sort_count_dups(void *recs, size_t n, size_t size);

#endif
