#define _GNU_SOURCE
#include "tests/rand/rand_test_util.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int rt_result_fd = -1;

void rt_report(const char *msg) {
  if (rt_result_fd >= 0) {
    ssize_t w = write(rt_result_fd, msg, strlen(msg));
    (void)w;
  }
}

int rt_run_child(const char *name, int (*fn)(void), int timeout_s, char *report, size_t cap) {
  int fds[2];
  if (pipe(fds) != 0) return -1;
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    close(fds[0]);
    rt_result_fd = fds[1];
    alarm((unsigned)timeout_s); /* SIGALRM's default action ends a hung child */
    exit(fn());
  }
  close(fds[1]);
  size_t got = 0;
  for (;;) {
    char buf[256];
    ssize_t n = read(fds[0], buf, sizeof(buf));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    for (ssize_t i = 0; i < n && report != NULL && got + 1 < cap; i++) report[got++] = buf[i];
  }
  if (report != NULL && cap > 0) report[got] = '\0';
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  fprintf(stderr, "%s: child ended by signal %d%s\n", name, WTERMSIG(status),
          WTERMSIG(status) == SIGALRM ? " (timeout)" : "");
  return -1;
}

static size_t g_sort_size;
static int cmp_rec(const void *a, const void *b) { return memcmp(a, b, g_sort_size); }

size_t rt_sort_count_dups(void *recs, size_t n, size_t size) {
  g_sort_size = size;
  qsort(recs, n, size, cmp_rec);
  size_t dups = 0;
  const uint8_t *p = recs;
  for (size_t i = 1; i < n; i++) {
    if (memcmp(p + (i - 1) * size, p + i * size, size) == 0) dups++;
  }
  return dups;
}
