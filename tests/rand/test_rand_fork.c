/* Fork safety of the process RNG: a child never repeats its parent's output (bytes, batch words
 * and UUIDs), with other threads generating at the moment of fork(), in a grandchild, and in every
 * fork-detection mode (MADV_WIPEONFORK with fork() and with a raw fork syscall that bypasses
 * pthread_atfork; the atfork fallback; no detection, where fresh entropy goes into every request).
 *
 * Each child sends its first 64 bytes, its first batch word and its first UUID through a pipe; the
 * parent draws the same right after the fork. All records must be distinct (a repeat of 64
 * random bytes is impossible for a correct RNG, so any repeat is a failure). */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fipsmod/rand.h"
#include "fipsmod/uuid.h"
#include "module/rand/internal.h"
#include "tests/common/test_util.h"
#include "tests/rand/rand_test_util.h"

typedef struct {
  uint8_t bytes[64];
  uint64_t word;
  uint8_t uuid[16];
} draw_rec;

static int draw(draw_rec *r) {
  return fm_rand_bytes(r->bytes, sizeof(r->bytes)) == FM_OK && fm_rand_u64(&r->word) == FM_OK &&
         fm_uuid_v4(r->uuid) == FM_OK;
}

static pid_t do_fork(int raw) {
#if defined(SYS_fork)
  return raw ? (pid_t)syscall(SYS_fork) : fork();
#else
  /* No fork system call (aarch64): clone with SIGCHLD as the exit signal is the same. */
  return raw ? (pid_t)syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0) : fork();
#endif
}

/* fork_round forks |n| children; each child draws and reports; the parent draws after each fork.
 * Records: parent's draws, children's draws. Returns the number of failures. */
static int fork_round(int n, int raw, const char *what) {
  draw_rec *recs = calloc((size_t)(2 * n + 1), sizeof(draw_rec));
  size_t nrec = 0;
  int failures = 0;
  /* The parent has a state and a partly used batch before forking. */
  if (!draw(&recs[nrec++])) failures++;
  for (int i = 0; i < n; i++) {
    int fds[2];
    if (pipe(fds) != 0) return failures + 1;
    pid_t pid = do_fork(raw);
    if (pid == 0) {
      draw_rec r;
      int ok = draw(&r);
      ssize_t w = ok ? write(fds[1], &r, sizeof(r)) : 0;
      _exit(w == (ssize_t)sizeof(r) ? 0 : 1);
    }
    close(fds[1]);
    if (!draw(&recs[nrec++])) failures++;
    ssize_t got = read(fds[0], &recs[nrec], sizeof(draw_rec));
    close(fds[0]);
    int status;
    waitpid(pid, &status, 0);
    if (got != (ssize_t)sizeof(draw_rec) || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      failures++;
      continue;
    }
    nrec++;
  }
  /* Compare each field on its own: a repeated batch word or UUID is as bad as repeated bytes. */
  uint8_t *bytes = malloc(nrec * 64);
  uint64_t *words = malloc(nrec * 8);
  uint8_t *uuids = malloc(nrec * 16);
  for (size_t i = 0; i < nrec; i++) {
    memcpy(bytes + 64 * i, recs[i].bytes, 64);
    words[i] = recs[i].word;
    memcpy(uuids + 16 * i, recs[i].uuid, 16);
  }
  size_t d1 = rt_sort_count_dups(bytes, nrec, 64);
  size_t d2 = rt_sort_count_dups(words, nrec, 8);
  size_t d3 = rt_sort_count_dups(uuids, nrec, 16);
  if (d1 || d2 || d3) {
    fprintf(stderr, "%s: repeated output across fork: bytes %zu, words %zu, uuids %zu\n", what, d1,
            d2, d3);
    failures++;
  }
  fprintf(stderr, "%s: %zu records\n", what, nrec);
  free(bytes);
  free(words);
  free(uuids);
  free(recs);
  return failures;
}

static atomic_int g_stop;

static void *generator(void *arg) {
  (void)arg;
  uint8_t b[48];
  uint32_t x;
  while (!atomic_load(&g_stop)) {
    (void)!fm_rand_bytes(b, sizeof(b)); /* load only: a draw may fail while the parent forks */
    (void)!fm_rand_u32(&x);
  }
  return NULL;
}

static int scenario_plain(void) { return fork_round(1000, 0, "1000 forks") != 0; }

static int scenario_threads(void) {
  pthread_t t[2];
  atomic_store(&g_stop, 0);
  for (int i = 0; i < 2; i++) pthread_create(&t[i], NULL, generator, NULL);
  int f = fork_round(1000, 0, "1000 forks, 2 threads generating");
  atomic_store(&g_stop, 1);
  for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
  return f != 0;
}

/* A child forked from a child: parent, child and grandchild all differ, whether or not the child
 * drew before forking. */
static int grandchild_round(int child_draws_first) {
  draw_rec recs[3];
  int fds[2];
  if (!draw(&recs[0]) || pipe(fds) != 0) return 1;
  pid_t pid = fork();
  if (pid == 0) {
    draw_rec r[2];
    int ok = 1;
    if (child_draws_first) ok &= draw(&r[0]);
    pid_t g = fork();
    if (g == 0) {
      draw_rec gr;
      ok &= draw(&gr);
      ssize_t w = ok ? write(fds[1], &gr, sizeof(gr)) : 0;
      _exit(w == (ssize_t)sizeof(gr) ? 0 : 1);
    }
    int st;
    waitpid(g, &st, 0);
    ok &= WIFEXITED(st) && WEXITSTATUS(st) == 0;
    ok &= draw(&r[1]);
    ssize_t w = ok ? write(fds[1], &r[1], sizeof(r[1])) : 0;
    _exit(w == (ssize_t)sizeof(r[1]) ? 0 : 1);
  }
  close(fds[1]);
  if (!draw(&recs[0])) return 1;
  ssize_t got = read(fds[0], &recs[1], 2 * sizeof(draw_rec));
  if (got == (ssize_t)sizeof(draw_rec)) got += read(fds[0], &recs[2], sizeof(draw_rec));
  close(fds[0]);
  int st;
  waitpid(pid, &st, 0);
  if (got != (ssize_t)(2 * sizeof(draw_rec)) || !WIFEXITED(st) || WEXITSTATUS(st) != 0) return 1;
  int bad = 0;
  for (int i = 0; i < 3; i++) {
    for (int j = i + 1; j < 3; j++) {
      bad |= memcmp(recs[i].bytes, recs[j].bytes, 64) == 0;
      bad |= recs[i].word == recs[j].word;
      bad |= memcmp(recs[i].uuid, recs[j].uuid, 16) == 0;
    }
  }
  return bad;
}

static int scenario_grandchild(void) { return grandchild_round(0) | grandchild_round(1) << 1; }

/* Raw fork syscall: no pthread_atfork handler runs; MADV_WIPEONFORK alone must protect. */
static int scenario_raw_wipeonfork(void) {
  if (fm_rand_fork_mode_for_testing() != RAND_FORK_WIPEONFORK) {
    fprintf(stderr, "MADV_WIPEONFORK not available: raw-fork round skipped\n");
    return 0;
  }
  return fork_round(200, 1, "200 raw forks (wipeonfork)") != 0;
}

static int scenario_atfork(void) {
  fm_rand_force_fork_mode_for_testing(RAND_FORK_ATFORK);
  return fork_round(200, 0, "200 forks (atfork fallback)") != 0;
}

/* No detection at all, and a fork that bypasses pthread_atfork: fresh entropy in every request
 * still separates the child (the batch is off in this mode). */
static int scenario_none(void) {
  fm_rand_force_fork_mode_for_testing(RAND_FORK_NONE);
  return fork_round(200, 1, "200 raw forks (no detection)") != 0;
}

/* The fork generation changes in a child that draws. */
static int scenario_generation(void) {
  uint8_t b[8];
  if (fm_rand_bytes(b, sizeof(b)) != FM_OK) return 5;
  uint64_t g0 = fm_rand_fork_generation_for_testing();
  int fds[2];
  if (pipe(fds) != 0) return 1;
  pid_t pid = fork();
  if (pid == 0) {
    if (fm_rand_bytes(b, sizeof(b)) != FM_OK) _exit(1);
    uint64_t g1 = fm_rand_fork_generation_for_testing();
    uint64_t reseeds = fm_rand_reseeds_for_testing();
    uint64_t msg[2] = {g1, reseeds};
    _exit(write(fds[1], msg, sizeof(msg)) == (ssize_t)sizeof(msg) ? 0 : 1);
  }
  close(fds[1]);
  uint64_t msg[2] = {0, 0};
  ssize_t got = read(fds[0], msg, sizeof(msg));
  close(fds[0]);
  waitpid(pid, NULL, 0);
  uint64_t parent_reseeds = fm_rand_reseeds_for_testing();
  if (got != (ssize_t)sizeof(msg)) return 1;
  if (msg[0] == g0) return 2;                     /* the child's generation differs */
  if (fm_rand_fork_generation_for_testing() != g0) return 3; /* the parent's does not */
  if (msg[1] < 1) return 4;
  (void)parent_reseeds;
  return 0;
}

static void run_scenario(const char *name, int (*fn)(void)) {
  int st = rt_run_child(name, fn, 60, NULL, 0);
  if (st != 0) {
    test_failures++;
    fprintf(stderr, "scenario %s failed: status %d\n", name, st);
  }
}

int main(void) {
  run_scenario("plain", scenario_plain);
  run_scenario("threads", scenario_threads);
  run_scenario("grandchild", scenario_grandchild);
  run_scenario("raw_wipeonfork", scenario_raw_wipeonfork);
  run_scenario("atfork", scenario_atfork);
  run_scenario("none", scenario_none);
  run_scenario("generation", scenario_generation);
  return test_main_result("test_rand_fork");
}
