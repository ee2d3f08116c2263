/* The process RNG (rand.h): argument checks, the reseed schedule, additional input, small draws,
 * signal re-entrancy, zeroization after cleanup, and a stuck entropy source. Scenarios that end
 * the module run in child processes (rand_test_util.h). */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fipsmod/rand.h"
#include "fipsmod/uuid.h"
#include "module/rand/internal.h"
#include "module/internal.h"
#include "tests/common/test_util.h"
#include "tests/rand/rand_test_util.h"

static void test_bad_input(void) {
  uint8_t buf[64];
  CHECK_EQ_INT(fm_rand_bytes(NULL, 16), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_rand_bytes(NULL, 0), FM_OK);
  CHECK_EQ_INT(fm_rand_bytes(buf, 0), FM_OK);
  memset(buf, 0xaa, sizeof(buf));
  CHECK_EQ_INT(fm_rand_bytes_with_input(buf, sizeof(buf), buf, FM_RAND_MAX_ADDITIONAL_INPUT + 1),
               FM_ERR_LENGTH);
  CHECK(test_is_all_zero(buf, sizeof(buf)));
  memset(buf, 0xaa, sizeof(buf));
  CHECK_EQ_INT(fm_rand_bytes_with_input(buf, sizeof(buf), NULL, 4), FM_ERR_BAD_ARGUMENT);
  CHECK(test_is_all_zero(buf, sizeof(buf)));
  CHECK_EQ_INT(fm_rand_bytes_with_input(NULL, 4, buf, 4), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_rand_u32(NULL), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_rand_u64(NULL), FM_ERR_BAD_ARGUMENT);
  uint64_t v = 5;
  CHECK_EQ_INT(fm_rand_uniform(0, &v), FM_ERR_OUT_OF_RANGE);
  CHECK_EQ_INT(v, 0);
  CHECK_EQ_INT(fm_rand_uniform(10, NULL), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_rand_enable_fork_unsafe_buffering(2), FM_ERR_BAD_ARGUMENT);
}

static void test_outputs_differ(void) {
  uint8_t a[64], b[64];
  CHECK_EQ_INT(fm_rand_bytes(a, sizeof(a)), FM_OK);
  CHECK_EQ_INT(fm_rand_bytes(b, sizeof(b)), FM_OK);
  CHECK(memcmp(a, b, sizeof(a)) != 0);
  CHECK(!test_is_all_zero(a, sizeof(a)));
  /* The same additional input twice still gives different outputs (the state moves on). */
  CHECK_EQ_INT(fm_rand_bytes_with_input(a, sizeof(a), (const uint8_t *)"ai", 2), FM_OK);
  CHECK_EQ_INT(fm_rand_bytes_with_input(b, sizeof(b), (const uint8_t *)"ai", 2), FM_OK);
  CHECK(memcmp(a, b, sizeof(a)) != 0);
  CHECK_EQ_INT(fm_rand_bytes_with_input(a, sizeof(a), a, FM_RAND_MAX_ADDITIONAL_INPUT), FM_OK);
}

/* A long draw is split into requests of at most 65536 bytes, each one generate call. */
static void test_long_draw_splits(void) {
  size_t len = 3 * 65536 + 100;
  uint8_t *p = malloc(len);
  CHECK_EQ_INT(fm_rand_reseed(), FM_OK);
  CHECK_EQ_INT(fm_rand_calls_since_seed_for_testing(), 0);
  memset(p, 0, len);
  CHECK_EQ_INT(fm_rand_bytes(p, len), FM_OK);
  CHECK_EQ_INT(fm_rand_calls_since_seed_for_testing(), 4);
  /* Every 64 KiB piece is output, not zeros (the last bytes too). */
  for (size_t off = 0; off < len; off += 65536) {
    size_t n = len - off < 64 ? len - off : 64;
    CHECK(!test_is_all_zero(p + off, n));
  }
  CHECK(!test_is_all_zero(p + len - 32, 32));
  free(p);
}

/* Exactly 4096 generate requests between seeds: the 4097th request after a seed reseeds first. */
static void test_reseed_every_4096(void) {
  uint8_t b[RAND_SMALL_DRAW + 1]; /* longer than a small draw: each call is a generate request */
  CHECK_EQ_INT(fm_rand_reseed(), FM_OK);
  uint64_t r0 = fm_rand_reseeds_for_testing();
  CHECK_EQ_INT(fm_rand_calls_since_seed_for_testing(), 0);
  for (int i = 0; i < 4096; i++) CHECK_EQ_INT(fm_rand_bytes(b, sizeof(b)), FM_OK);
  CHECK_EQ_INT(fm_rand_reseeds_for_testing(), r0);
  CHECK_EQ_INT(fm_rand_calls_since_seed_for_testing(), 4096);
  CHECK_EQ_INT(fm_rand_bytes(b, sizeof(b)), FM_OK);
  CHECK_EQ_INT(fm_rand_reseeds_for_testing(), r0 + 1);
  CHECK_EQ_INT(fm_rand_calls_since_seed_for_testing(), 1);
  /* Then the next seed comes after another 4096 requests, counted across call kinds. */
  for (int i = 0; i < 4094; i++) CHECK_EQ_INT(fm_rand_bytes(b, sizeof(b)), FM_OK);
  CHECK_EQ_INT(fm_rand_u32(&(uint32_t){0}), FM_OK); /* the batch's refill */
  CHECK_EQ_INT(fm_rand_reseeds_for_testing(), r0 + 1);
  CHECK_EQ_INT(fm_rand_bytes(b, sizeof(b)), FM_OK);
  CHECK_EQ_INT(fm_rand_reseeds_for_testing(), r0 + 2);
}

/* A thread whose first call is fm_rand_reseed() is seeded exactly as by a first draw: the draws
 * after it do not seed again (the fork cookie was once left unset, so the first draw reseeded). */
static void *reseed_first_thread(void *arg) {
  int *ok = arg;
  uint8_t b[RAND_SMALL_DRAW + 1]; /* a generate request, not a batch take */
  *ok = fm_rand_reseeds_for_testing() == 0 && fm_rand_reseed() == FM_OK &&
        fm_rand_reseeds_for_testing() == 1 && fm_rand_bytes(b, sizeof b) == FM_OK &&
        fm_rand_u64(&(uint64_t){0}) == FM_OK && fm_rand_reseeds_for_testing() == 1 &&
        fm_rand_calls_since_seed_for_testing() == 2;
  return NULL;
}

static void test_reseed_as_first_call(void) {
  pthread_t t;
  int ok = 0;
  CHECK_EQ_INT(pthread_create(&t, NULL, reseed_first_thread, &ok), 0);
  CHECK_EQ_INT(pthread_join(t, NULL), 0);
  CHECK(ok);
}

/* fm_rand_bytes of 1..RAND_SMALL_DRAW bytes takes from the batch, wiping what it hands out;
 * a longer draw is a generate request of its own and leaves the batch alone. */
static void test_small_bytes_from_batch(void) {
  uint8_t b[RAND_SMALL_DRAW + 1], c[RAND_SMALL_DRAW];
  CHECK_EQ_INT(fm_rand_reseed(), FM_OK);
  CHECK_EQ_INT(fm_rand_bytes(b, 16), FM_OK);
  CHECK_EQ_INT(fm_rand_calls_since_seed_for_testing(), 1);
  CHECK_EQ_INT(fm_rand_batch_left_for_testing(), RAND_BATCH_LEN - 16);
  CHECK_EQ_INT(fm_rand_bytes(b, 1), FM_OK);
  CHECK_EQ_INT(fm_rand_bytes(c, RAND_SMALL_DRAW), FM_OK);
  CHECK_EQ_INT(fm_rand_batch_left_for_testing(), RAND_BATCH_LEN - 17 - RAND_SMALL_DRAW);
  CHECK_EQ_INT(fm_rand_calls_since_seed_for_testing(), 1);
  CHECK(!test_is_all_zero(c, sizeof(c)));
  CHECK_EQ_INT(fm_rand_bytes(b, sizeof(b)), FM_OK);
  CHECK_EQ_INT(fm_rand_batch_left_for_testing(), RAND_BATCH_LEN - 17 - RAND_SMALL_DRAW);
  CHECK_EQ_INT(fm_rand_calls_since_seed_for_testing(), 2);
  /* Consecutive small draws differ, and a draw never repeats its predecessor's bytes. */
  uint8_t prev[16] = {0};
  for (int i = 0; i < 2 * RAND_BATCH_LEN / 16; i++) {
    CHECK_EQ_INT(fm_rand_bytes(b, 16), FM_OK);
    CHECK(memcmp(b, prev, 16) != 0);
    memcpy(prev, b, 16);
  }
  /* Zero length and a NULL buffer keep their answers. */
  CHECK_EQ_INT(fm_rand_bytes(NULL, 0), FM_OK);
  CHECK_EQ_INT(fm_rand_bytes(NULL, 16), FM_ERR_BAD_ARGUMENT);
}

/* Small draws come from a RAND_BATCH_LEN-byte batch made by one generate call; a reseed drops
 * it. */
static void test_batch(void) {
  uint32_t x;
  CHECK_EQ_INT(fm_rand_reseed(), FM_OK);
  CHECK_EQ_INT(fm_rand_batch_left_for_testing(), 0);
  CHECK_EQ_INT(fm_rand_u32(&x), FM_OK);
  CHECK_EQ_INT(fm_rand_calls_since_seed_for_testing(), 1);
  CHECK_EQ_INT(fm_rand_batch_left_for_testing(), RAND_BATCH_LEN - 4);
  uint64_t y;
  CHECK_EQ_INT(fm_rand_u64(&y), FM_OK);
  CHECK_EQ_INT(fm_rand_batch_left_for_testing(), RAND_BATCH_LEN - 12);
  for (int i = 0; i < (RAND_BATCH_LEN - 12) / 4; i++) CHECK_EQ_INT(fm_rand_u32(&x), FM_OK);
  CHECK_EQ_INT(fm_rand_batch_left_for_testing(), 0);
  CHECK_EQ_INT(fm_rand_calls_since_seed_for_testing(), 1);
  CHECK_EQ_INT(fm_rand_u32(&x), FM_OK);
  CHECK_EQ_INT(fm_rand_calls_since_seed_for_testing(), 2);
  CHECK_EQ_INT(fm_rand_reseed(), FM_OK);
  CHECK_EQ_INT(fm_rand_batch_left_for_testing(), 0);
  /* Consecutive words differ (a stuck batch would repeat). */
  uint64_t prev = 0, same = 0;
  for (int i = 0; i < 10000; i++) {
    CHECK_EQ_INT(fm_rand_u64(&y), FM_OK);
    same += y == prev;
    prev = y;
  }
  CHECK_EQ_INT(same, 0);
}

/* fm_rand_uniform: values in range, every value reached, frequencies within 10 standard
 * deviations (60000 draws of bound 6: mean 10000, sd 91; a correct generator fails with
 * probability < 1e-20), and a bound just above 2^63 (rejection about half the time). */
static void test_uniform(void) {
  uint64_t v;
  CHECK_EQ_INT(fm_rand_uniform(1, &v), FM_OK);
  CHECK_EQ_INT(v, 0);
  long counts[6] = {0};
  for (int i = 0; i < 60000; i++) {
    CHECK_EQ_INT(fm_rand_uniform(6, &v), FM_OK);
    if (v < 6) counts[v]++; else CHECK(v < 6);
  }
  for (int i = 0; i < 6; i++) CHECK(counts[i] > 9090 && counts[i] < 10910);
  uint64_t big = (UINT64_C(1) << 63) + 1;
  int high = 0;
  for (int i = 0; i < 2000; i++) {
    CHECK_EQ_INT(fm_rand_uniform(big, &v), FM_OK);
    CHECK(v < big);
    high += v >= (UINT64_C(1) << 62);
  }
  CHECK(high > 850 && high < 1150); /* about half the range: mean 1000, sd 22 */
}

/* ---- Signal re-entrancy ----------------------------------------------------------------- */

#define REENTRY_MAIN 200000
#define REENTRY_SIG 4096
static uint64_t g_main_vals[REENTRY_MAIN];
static uint64_t g_sig_vals[REENTRY_SIG * 3];
static volatile sig_atomic_t g_sig_n;
static volatile sig_atomic_t g_sig_err;

static void on_alarm(int sig) {
  (void)sig;
  if (g_sig_n + 3 > (sig_atomic_t)(REENTRY_SIG * 3)) return;
  uint64_t a, b[2];
  if (fm_rand_u64(&a) != FM_OK || fm_rand_bytes((uint8_t *)b, sizeof(b)) != FM_OK) g_sig_err = 1;
  g_sig_vals[g_sig_n] = a;
  g_sig_vals[g_sig_n + 1] = b[0];
  g_sig_vals[g_sig_n + 2] = b[1];
  g_sig_n += 3;
}

/* A signal handler that draws while its thread is inside a draw must not get the same bytes as
 * the interrupted draw (or any other): all 64-bit values drawn in the main flow and in handlers
 * are distinct (a repeat of 64 random bits among ~2^18 values has probability < 2^-27). */
static void test_signal_reentry(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_alarm;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGALRM, &sa, NULL);
  struct itimerval it = {{0, 50}, {0, 50}};
  setitimer(ITIMER_REAL, &it, NULL);
  for (int i = 0; i < REENTRY_MAIN; i++) {
    if (i % 2 == 0) {
      CHECK_EQ_INT(fm_rand_u64(&g_main_vals[i]), FM_OK);
    } else {
      CHECK_EQ_INT(fm_rand_bytes((uint8_t *)&g_main_vals[i], 8), FM_OK);
    }
  }
  struct itimerval off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_REAL, &off, NULL);
  signal(SIGALRM, SIG_DFL);
  CHECK_EQ_INT(g_sig_err, 0);
  size_t n = REENTRY_MAIN + (size_t)g_sig_n;
  uint64_t *all = malloc(n * sizeof(uint64_t));
  memcpy(all, g_main_vals, sizeof(g_main_vals));
  memcpy(all + REENTRY_MAIN, g_sig_vals, (size_t)g_sig_n * sizeof(uint64_t));
  fprintf(stderr, "signal re-entry: %d values drawn in handlers, %llu draws by one-off DRBGs\n",
          (int)g_sig_n, (unsigned long long)fm_rand_oneoff_draws_for_testing());
  CHECK(g_sig_n > 0);
  CHECK_EQ_INT(rt_sort_count_dups(all, n, sizeof(uint64_t)), 0);
  free(all);
}

/* ---- Scenarios in child processes ------------------------------------------------------- */

static pthread_barrier_t g_barrier;

static void *idle_drawer(void *arg) {
  (void)arg;
  uint8_t b[32];
  uint32_t x;
  int ok = fm_rand_bytes(b, sizeof(b)) == FM_OK && fm_rand_u32(&x) == FM_OK;
  pthread_barrier_wait(&g_barrier); /* state made */
  pthread_barrier_wait(&g_barrier); /* cleanup done */
  memset(b, 0xaa, sizeof(b));
  ok = ok && fm_rand_bytes(b, sizeof(b)) == FM_ERR_NOT_OPERATIONAL && test_is_all_zero(b, 32);
  return ok ? (void *)1 : NULL;
}

/* After fm_module_cleanup every registered state (threads still alive included) reads as zeros,
 * and every draw returns FM_ERR_NOT_OPERATIONAL with its output wiped. */
static int scenario_zeroize_after_cleanup(void) {
  pthread_t t[3];
  pthread_barrier_init(&g_barrier, NULL, 4);
  for (int i = 0; i < 3; i++) pthread_create(&t[i], NULL, idle_drawer, NULL);
  uint8_t b[32];
  uint32_t x;
  if (fm_rand_bytes(b, sizeof(b)) != FM_OK || fm_rand_u32(&x) != FM_OK) return 10;
  pthread_barrier_wait(&g_barrier);
  if (fm_rand_registry_size_for_testing() != 4) return 11;
  if (fm_rand_all_states_zero_for_testing()) return 12; /* live states hold secrets */
  fm_module_cleanup();
  if (!fm_rand_all_states_zero_for_testing()) return 13;
  pthread_barrier_wait(&g_barrier);
  int bad = 0;
  for (int i = 0; i < 3; i++) {
    void *r;
    pthread_join(t[i], &r);
    bad += r == NULL;
  }
  if (bad) return 14;
  memset(b, 0xaa, sizeof(b));
  if (fm_rand_bytes(b, sizeof(b)) != FM_ERR_NOT_OPERATIONAL || !test_is_all_zero(b, 32)) return 15;
  x = 7;
  if (fm_rand_u32(&x) != FM_ERR_NOT_OPERATIONAL || x != 0) return 16;
  if (fm_rand_reseed() != FM_ERR_NOT_OPERATIONAL) return 17;
  if (!fm_rand_all_states_zero_for_testing()) return 18;
  return 0;
}

/* A stuck entropy source: the start-up test fails; a draw that needs a seed fails the health
 * tests, returns FM_ERR_ENTROPY and moves the module to ERROR; every state is wiped. */
static int scenario_stuck_source(void) {
  uint8_t b[16];
  if (fm_entropy_startup_test() != FM_OK) return 10;
  if (fm_rand_bytes(b, sizeof(b)) != FM_OK) return 11;
  fm_entropy_set_stuck_source_for_testing(1, 0x5a);
  if (fm_entropy_startup_test() != FM_ERR_ENTROPY) return 12;
  if (fm_module_state() != FM_STATE_OPERATIONAL) return 13; /* the start-up test only reports */
  /* The steady state needs no entropy... */
  if (fm_rand_bytes(b, sizeof(b)) != FM_OK) return 14;
  /* ...a reseed does. */
  memset(b, 0xaa, sizeof(b));
  if (fm_rand_reseed() != FM_ERR_ENTROPY) return 15;
  if (fm_module_state() != FM_STATE_ERROR) return 16;
  if (fm_rand_bytes(b, sizeof(b)) != FM_ERR_NOT_OPERATIONAL || !test_is_all_zero(b, 16)) return 17;
  if (!fm_rand_all_states_zero_for_testing()) return 18;
  return 0;
}

/* The same failure met by a thread's first draw (instantiation). */
static void *first_draw(void *arg) {
  uint8_t *b = arg;
  return (void *)(intptr_t)fm_rand_bytes(b, 16);
}

static int scenario_stuck_source_first_draw(void) {
  uint8_t b[16];
  memset(b, 0xaa, sizeof(b));
  fm_entropy_set_stuck_source_for_testing(1, 0x00);
  pthread_t t;
  void *r;
  pthread_create(&t, NULL, first_draw, b);
  pthread_join(t, &r);
  if ((intptr_t)r != FM_ERR_ENTROPY) return 10;
  if (!test_is_all_zero(b, sizeof(b))) return 11;
  if (fm_module_state() != FM_STATE_ERROR) return 12;
  return 0;
}

/* Each health test on its own (SP 800-90B 4.4), through the start-up test (which only reports):
 *  - a source that repeats one byte value in every other sample (A x1 A x2 ... A x255), with no
 *    run longer than one and no repeated 16-byte block: only the adaptive proportion test fails
 *    it (256 of every 512 samples equal the window's first);
 *  - six equal bytes among otherwise distinct ones: only the repetition count test fails it;
 *  - the same 16 distinct bytes over and over, drawn 48 at a time by a fresh thread (its own
 *    health context, so the APT window has seen 48 samples): only the block comparison fails it.
 *  And good data passes. */
static int scenario_health_tests(void) {
  uint8_t pattern[1024];
  for (int i = 0; i < 255; i++) {
    pattern[2 * i] = 0xa5;
    pattern[2 * i + 1] = (uint8_t)(i < 0xa5 ? i : i + 1);
  }
  fm_entropy_set_pattern_source_for_testing(pattern, 510);
  if (fm_entropy_startup_test() != FM_ERR_ENTROPY) return 10;
  for (int i = 0; i < 1024; i++) pattern[i] = (uint8_t)(i * 7 + i / 256); /* no APT/RCT hit */
  fm_entropy_set_pattern_source_for_testing(pattern, 1024);
  if (fm_entropy_startup_test() != FM_OK) return 11;
  memset(pattern + 300, 0x42, ENTROPY_RCT_CUTOFF);
  fm_entropy_set_pattern_source_for_testing(pattern, 1024);
  if (fm_entropy_startup_test() != FM_ERR_ENTROPY) return 12;
  memset(pattern + 300, 0x42, ENTROPY_RCT_CUTOFF - 1);
  pattern[300 + ENTROPY_RCT_CUTOFF - 1] = 0x43;
  fm_entropy_set_pattern_source_for_testing(pattern, 1024);
  if (fm_entropy_startup_test() != FM_OK) return 13;
  if (fm_module_state() != FM_STATE_OPERATIONAL) return 14;
  for (int i = 0; i < 16; i++) pattern[i] = (uint8_t)(17 * i + 3);
  fm_entropy_set_pattern_source_for_testing(pattern, 16);
  uint8_t b[16];
  pthread_t t;
  void *r;
  pthread_create(&t, NULL, first_draw, b);
  pthread_join(t, &r);
  if ((intptr_t)r != FM_ERR_ENTROPY) return 15;
  if (fm_module_state() != FM_STATE_ERROR) return 16;
  return 0;
}

/* In ERROR every draw is refused with wiped outputs. */
static int scenario_error_state(void) {
  uint8_t b[16];
  if (fm_rand_bytes(b, sizeof(b)) != FM_OK) return 10;
  fm_module_force_error_for_testing();
  memset(b, 0xaa, sizeof(b));
  if (fm_rand_bytes(b, sizeof(b)) != FM_ERR_NOT_OPERATIONAL || !test_is_all_zero(b, 16)) return 11;
  memset(b, 0xaa, sizeof(b));
  if (fm_rand_bytes_with_input(b, 16, b, 4) != FM_ERR_NOT_OPERATIONAL || !test_is_all_zero(b, 16))
    return 12;
  uint64_t v = 1;
  if (fm_rand_uniform(10, &v) != FM_ERR_NOT_OPERATIONAL || v != 0) return 13;
  if (fm_rand_enable_fork_unsafe_buffering(1) != FM_ERR_NOT_OPERATIONAL) return 14;
  if (!fm_rand_all_states_zero_for_testing()) return 15;
  return 0;
}

/* Without fork detection (NONE mode) draws still work, batch-free, with and without the
 * fork-unsafe buffering opt-out. */
static int scenario_mode_none(void) {
  fm_rand_force_fork_mode_for_testing(RAND_FORK_NONE);
  uint8_t a[32], b[32];
  uint32_t x;
  if (fm_rand_bytes(a, 32) != FM_OK || fm_rand_bytes(b, 32) != FM_OK) return 10;
  if (memcmp(a, b, 32) == 0) return 11;
  if (fm_rand_u32(&x) != FM_OK || fm_rand_batch_left_for_testing() != 0) return 12;
  if (fm_rand_enable_fork_unsafe_buffering(1) != FM_OK) return 13;
  if (fm_rand_u32(&x) != FM_OK || fm_rand_batch_left_for_testing() != RAND_BATCH_LEN - 4) return 14;
  return 0;
}

static void run_scenario(const char *name, int (*fn)(void)) {
  int st = rt_run_child(name, fn, 30, NULL, 0);
  if (st != 0) {
    test_failures++;
    fprintf(stderr, "scenario %s failed: status %d\n", name, st);
  }
}

/* ---- An unseeded state never produces output ------------------------------------------------
 * What a state that is not instantiated would hand out: the generate function on an all-zero
 * state, on this CPU path (the fused AES-NI kernels and the portable code differ on a zeroed key
 * schedule, so the expectation is computed, not a constant). */
static void unseeded_output(uint8_t *out, size_t len) {
  ctr_drbg_state z;
  memset(&z, 0, sizeof z);
  ctr_drbg_generate_nodf(&z, out, len, NULL, 0);
  ctr_drbg_wipe(&z);
}

/* A state wiped to zeros whose fork-generation cookie still matches (the condition a file edit of
 * the fork counter made in every child): the next draw of each kind seeds it first. */
static void test_unseeded_state_never_outputs(void) {
  uint8_t first[32], got[32], zero_out[RAND_BATCH_LEN];
  unseeded_output(zero_out, sizeof zero_out);
  CHECK_EQ_INT(fm_rand_bytes(first, sizeof first), FM_OK); /* the thread's state exists */

  /* fm_rand_bytes: the generate fast path. */
  CHECK_EQ_INT(fm_rand_unseed_state_for_testing(), FM_OK);
  CHECK_EQ_INT(fm_rand_reseeds_for_testing(), 0);
  CHECK_EQ_INT(fm_rand_bytes(got, sizeof got), FM_OK);
  CHECK_EQ_INT(fm_rand_reseeds_for_testing(), 1); /* seeded before the output */
  CHECK(memcmp(got, zero_out, sizeof got) != 0);
  uint8_t zero_short[32];
  unseeded_output(zero_short, sizeof zero_short);
  CHECK(memcmp(got, zero_short, sizeof got) != 0);

  /* fm_rand_u64: the batch's fast path (a 4096-byte refill from a zero state). */
  CHECK_EQ_INT(fm_rand_unseed_state_for_testing(), FM_OK);
  uint64_t w = 0;
  CHECK_EQ_INT(fm_rand_u64(&w), FM_OK);
  CHECK_EQ_INT(fm_rand_reseeds_for_testing(), 1);
  CHECK(memcmp(&w, zero_out, sizeof w) != 0);

  /* fm_rand_bytes_with_input and a long draw (several requests). */
  CHECK_EQ_INT(fm_rand_unseed_state_for_testing(), FM_OK);
  static uint8_t big[3 * FM_DRBG_MAX_REQUEST / 2];
  CHECK_EQ_INT(fm_rand_bytes(big, sizeof big), FM_OK);
  CHECK_EQ_INT(fm_rand_reseeds_for_testing(), 1);
  CHECK(memcmp(big, zero_out, sizeof zero_out) != 0);
}

/* The fork counter set to 2^64 - 2: the next child's generation is 2^64 - 1, whose inverse is the
 * cookie of a zeroed (MADV_WIPEONFORK) state. The child's first draws are still seeded first and
 * differ from what a zero state would give. */
static int scenario_fork_counter_near_wrap(void) {
  uint8_t zero_out[RAND_BATCH_LEN];
  unseeded_output(zero_out, sizeof zero_out);
  uint8_t parent[32];
  if (fm_rand_bytes(parent, sizeof parent) != FM_OK) return 10;
  fm_rand_set_fork_counter_for_testing(UINT64_MAX - 1);
  int fds[2];
  if (pipe(fds) != 0) return 11;
  pid_t pid = fork();
  if (pid == 0) {
    struct {
      uint8_t bytes[32];
      uint64_t word, reseeds;
      int st;
    } rec = {0};
    rec.st = fm_rand_bytes(rec.bytes, sizeof rec.bytes);
    if (rec.st == FM_OK) rec.st = fm_rand_u64(&rec.word);
    rec.reseeds = fm_rand_reseeds_for_testing();
    _exit(write(fds[1], &rec, sizeof rec) == (ssize_t)sizeof rec ? 0 : 1);
  }
  close(fds[1]);
  struct {
    uint8_t bytes[32];
    uint64_t word, reseeds;
    int st;
  } got;
  ssize_t n = read(fds[0], &got, sizeof got);
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (n != (ssize_t)sizeof got || got.st != FM_OK) return 12;
  if (got.reseeds == 0) return 13;                                  /* never seeded */
  if (memcmp(got.bytes, zero_out, sizeof got.bytes) == 0) return 14; /* a zero DRBG's bytes */
  uint8_t zero_short[32];
  unseeded_output(zero_short, sizeof zero_short);
  if (memcmp(got.bytes, zero_short, sizeof got.bytes) == 0) return 15;
  if (memcmp(got.bytes, parent, sizeof parent) == 0) return 16;
  return 0;
}

static void test_fork_counter_near_wrap(void) {
  run_scenario("fork_counter_near_wrap", scenario_fork_counter_near_wrap);
}

static void test_zeroize_after_cleanup(void) {
  run_scenario("zeroize_after_cleanup", scenario_zeroize_after_cleanup);
}
static void test_stuck_source(void) { run_scenario("stuck_source", scenario_stuck_source); }
static void test_stuck_source_first_draw(void) {
  run_scenario("stuck_source_first_draw", scenario_stuck_source_first_draw);
}
static void test_health_tests(void) { run_scenario("health_tests", scenario_health_tests); }
static void test_error_state(void) { run_scenario("error_state", scenario_error_state); }
static void test_mode_none(void) { run_scenario("mode_none", scenario_mode_none); }

static const test_case cases[] = {
  TEST_CASE(bad_input),
  TEST_CASE(outputs_differ),
  TEST_CASE(long_draw_splits),
  TEST_CASE(reseed_every_4096),
  TEST_CASE(reseed_as_first_call),
  TEST_CASE(batch),
  TEST_CASE(small_bytes_from_batch),
  TEST_CASE(uniform),
  TEST_CASE(signal_reentry),
  TEST_CASE(unseeded_state_never_outputs),
  TEST_CASE(fork_counter_near_wrap),
  TEST_CASE(zeroize_after_cleanup),
  TEST_CASE(stuck_source),
  TEST_CASE(stuck_source_first_draw),
  TEST_CASE(health_tests),
  TEST_CASE(error_state),
  TEST_CASE(mode_none),
};

int main(int argc, char **argv) {
  fprintf(stderr, "fork detection mode: %d (1 wipeonfork, 2 atfork, 3 none)\n",
          fm_rand_fork_mode_for_testing());
  /* reseed_every_4096 and batch start with fm_rand_reseed() on a state no draw has made; that is
   * a first call like any other (reseed_as_first_call). */
  return TEST_RUN(argc, argv, "test_rand_unit", cases);
}
