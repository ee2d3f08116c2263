/* A signal handler that draws while its thread is inside fork() must not deadlock.
 *
 * The handler's draw is its thread's first: it must make the thread's state, and that must not
 * wait on a lock the interrupted fork() holds (glibc's atfork lock, or a registry lock taken by
 * the module's own atfork prepare handler). In a child process: SIGALRM every 50 us (setitimer),
 * a handler that calls fm_rand_bytes, and 40 fresh threads one after another, each forking 50
 * times (children _exit at once); the main thread blocks SIGALRM, so the signal lands on the
 * forking thread, whose first draw is then usually a handler's inside fork(). The child then
 * leaves through exit(), which must not hang either (the module's exit handler runs). The parent
 * kills the child after a deadline: a hang is a failed test, not a hung ctest.
 *
 * Every draw must succeed, and the values drawn by the handlers must all differ. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fipsmod/rand.h"
#include "module/internal.h"
#include "tests/common/test_util.h"
#include "tests/rand/rand_test_util.h"

#define THREADS 40
#define FORKS_PER_THREAD 50
#define MAX_SIG_VALS 200000

static uint64_t g_sig_vals[MAX_SIG_VALS];
static volatile sig_atomic_t g_sig_n, g_sig_err;

static void on_alarm(int sig) {
  (void)sig;
  int saved = errno;
  uint64_t v;
  if (fm_rand_bytes((uint8_t *)&v, sizeof(v)) != FM_OK) g_sig_err = 1;
  if (g_sig_n < MAX_SIG_VALS) g_sig_vals[g_sig_n++] = v;
  errno = saved;
}

static void *forker(void *arg) {
  (void)arg;
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGALRM);
  /* Consume the SIGALRM pending while every thread blocked it, so that the unblock does not
   * deliver it at once: the thread's first draw should come during a fork, not before. */
  struct timespec zero = {0, 0};
  while (sigtimedwait(&set, NULL, &zero) == SIGALRM) {
  }
  pthread_sigmask(SIG_UNBLOCK, &set, NULL);
  for (int i = 0; i < FORKS_PER_THREAD; i++) {
    pid_t pid = fork();
    if (pid == 0) _exit(0);
    if (pid < 0) return (void *)1;
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
    }
  }
  /* Block again before exiting: the thread's exit (and its state's destructor) is not part of
   * what this test interrupts. */
  pthread_sigmask(SIG_BLOCK, &set, NULL);
  return NULL;
}

static int scenario(void) {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGALRM);
  pthread_sigmask(SIG_BLOCK, &set, NULL); /* inherited by the threads, which unblock it */
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_alarm;
  sa.sa_flags = SA_RESTART;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGALRM, &sa, NULL);
  struct itimerval it = {{0, 50}, {0, 50}};
  setitimer(ITIMER_REAL, &it, NULL);
  int bad = 0;
  for (int t = 0; t < THREADS; t++) {
    pthread_t th;
    void *r = NULL;
    if (pthread_create(&th, NULL, forker, NULL) != 0) return 10;
    pthread_join(th, &r);
    if (r != NULL) bad++;
  }
  struct itimerval off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_REAL, &off, NULL);
  if (bad) return 11;
  if (g_sig_err) return 12;
  if (g_sig_n == 0) return 13;
  fprintf(stderr, "%d draws in signal handlers\n", (int)g_sig_n);
  if (rt_sort_count_dups(g_sig_vals, (size_t)g_sig_n, sizeof(uint64_t)) != 0) return 14;
  return 0; /* through exit(): the module's exit handler must not hang either */
}

int main(void) {
  const int deadline_s = 30;
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) exit(scenario());
  int status = 0;
  struct timespec start, now;
  clock_gettime(CLOCK_MONOTONIC, &start);
  for (;;) {
    pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) break;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec - start.tv_sec > deadline_s) {
      fprintf(stderr, "the child hung (deadlock): killed after %d s\n", deadline_s);
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      test_failures++;
      return test_main_result("test_rand_signal_fork");
    }
    struct timespec nap = {0, 20 * 1000 * 1000};
    nanosleep(&nap, NULL);
  }
  if (!WIFEXITED(status)) {
    fprintf(stderr, "the child ended by signal %d\n", WTERMSIG(status));
    test_failures++;
  } else {
    CHECK_EQ_INT(WEXITSTATUS(status), 0);
  }
  return test_main_result("test_rand_signal_fork");
}
