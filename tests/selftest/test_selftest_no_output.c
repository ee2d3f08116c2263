/* No data output while the module is in SELF_TEST (ISO/IEC 19790 7.10.1; selftest.h):
 *   - a self-test callback is an ordinary caller: fm_rand_bytes, fm_rand_u64, fm_gcm_seal and
 *     fm_aes_ctr called from it during an on-demand run return FM_ERR_NOT_OPERATIONAL with their
 *     outputs wiped, and so do the same calls made meanwhile on another thread;
 *   - a long fm_gcm_seal, fm_aes_ctr or fm_rand_bytes already running on another thread when a run
 *     begins releases nothing: when its call was still running at the run's first event it
 *     returns FM_ERR_NOT_OPERATIONAL and its whole output is zero (the check is one-sided and
 *     sound: the state is SELF_TEST before the first event). At least one call must overlap a
 *     run, or the test fails (it retries with longer inputs first). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fipsmod/fipsmod.h"
#include "tests/common/test_util.h"

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static const uint8_t k_key[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
static fm_gcm_key g_gk;
static fm_aes_key g_ak;

/* calls_refused makes each short call once and counts those not refused as specified. */
static int calls_refused(void) {
  int bad = 0;
  uint8_t buf[64], iv[12], tag[16], ctr[16] = {0}, pt[64] = {7};
  uint64_t w = 0x5555;
  memset(buf, 0x55, sizeof buf);
  bad += fm_rand_bytes(buf, sizeof buf) != FM_ERR_NOT_OPERATIONAL || !test_is_all_zero(buf, 64);
  bad += fm_rand_u64(&w) != FM_ERR_NOT_OPERATIONAL || w != 0;
  memset(buf, 0x55, sizeof buf);
  bad += fm_gcm_seal(&g_gk, iv, NULL, 0, pt, 64, buf, tag, 16) != FM_ERR_NOT_OPERATIONAL ||
         !test_is_all_zero(buf, 64) || !test_is_all_zero(tag, 16) || !test_is_all_zero(iv, 12);
  memset(buf, 0x55, sizeof buf);
  bad += fm_aes_ctr(&g_ak, FM_AES_CTR128, ctr, pt, buf, 64) != FM_ERR_NOT_OPERATIONAL ||
         !test_is_all_zero(buf, 64);
  return bad;
}

/* ---- From a callback, and from another thread while the callback holds the run ------------- */

struct peer {
  pthread_mutex_t lock;
  pthread_cond_t cond;
  int go, done, bad;
};

static void *peer_main(void *arg) {
  struct peer *p = arg;
  pthread_mutex_lock(&p->lock);
  while (!p->go) pthread_cond_wait(&p->cond, &p->lock);
  pthread_mutex_unlock(&p->lock);
  const int bad = calls_refused();
  pthread_mutex_lock(&p->lock);
  p->bad = bad;
  p->done = 1;
  pthread_cond_broadcast(&p->cond);
  pthread_mutex_unlock(&p->lock);
  return NULL;
}

struct cb_state {
  struct peer *peer;
  int events, bad;
};

static void on_event(fm_selftest_event ev, const fm_selftest_entry *e, void *arg) {
  (void)e;
  struct cb_state *s = arg;
  if (ev != FM_SELFTEST_EVENT_BEGIN || s->events++ != 3) return;
  s->bad += fm_module_state() != FM_STATE_SELF_TEST;
  s->bad += calls_refused();
  /* The peer calls while this callback holds the run. */
  pthread_mutex_lock(&s->peer->lock);
  s->peer->go = 1;
  pthread_cond_broadcast(&s->peer->cond);
  while (!s->peer->done) pthread_cond_wait(&s->peer->cond, &s->peer->lock);
  pthread_mutex_unlock(&s->peer->lock);
}

static void check_callback_and_peer_refused(void) {
  struct peer p = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0};
  struct cb_state s = {&p, 0, 0};
  pthread_t t;
  CHECK(pthread_create(&t, NULL, peer_main, &p) == 0);
  CHECK_EQ_INT(fm_set_selftest_callback(on_event, &s), FM_OK);
  CHECK_EQ_INT(fm_selftest_run(), FM_OK);
  CHECK_EQ_INT(fm_set_selftest_callback(NULL, NULL), FM_OK);
  pthread_join(t, NULL);
  CHECK(s.events > 3);
  CHECK_EQ_INT(s.bad, 0);
  CHECK_EQ_INT(p.bad, 0);
  CHECK_EQ_INT(calls_refused(), 4); /* OPERATIONAL again: every call works */
}

/* ---- Long calls in flight when a run begins -------------------------------------------------- */

enum { OP_GCM, OP_CTR, OP_RAND };

struct flight {
  int op;
  size_t len;
  uint8_t *in, *out;
  _Atomic int started;
  uint64_t t0, t1;
  int status;
};

static void *flight_main(void *arg) {
  struct flight *f = arg;
  uint8_t iv[12], tag[16], ctr[16] = {0};
  atomic_store(&f->started, 1);
  f->t0 = now_ns();
  switch (f->op) {
    case OP_GCM: f->status = fm_gcm_seal(&g_gk, iv, NULL, 0, f->in, f->len, f->out, tag, 16); break;
    case OP_CTR: f->status = fm_aes_ctr(&g_ak, FM_AES_CTR128, ctr, f->in, f->out, f->len); break;
    default: f->status = fm_rand_bytes(f->out, f->len); break;
  }
  f->t1 = now_ns();
  return NULL;
}

static _Atomic uint64_t g_first_event_ns;

static void on_first_event(fm_selftest_event ev, const fm_selftest_entry *e, void *arg) {
  (void)ev, (void)e, (void)arg;
  uint64_t zero = 0;
  atomic_compare_exchange_strong(&g_first_event_ns, &zero, now_ns());
}

static void check_long_calls_in_flight(void) {
  static const char *names[] = {"fm_gcm_seal", "fm_aes_ctr", "fm_rand_bytes"};
  CHECK_EQ_INT(fm_set_selftest_callback(on_first_event, NULL), FM_OK);
  for (int op = OP_GCM; op <= OP_RAND; op++) {
    int overlaps = 0;
    for (size_t len = (size_t)16 << 20; len <= ((size_t)256 << 20) && overlaps == 0; len *= 2) {
      struct flight f = {.op = op, .len = len};
      f.in = calloc(1, len);
      f.out = malloc(len);
      CHECK(f.in != NULL && f.out != NULL);
      if (f.in == NULL || f.out == NULL) break;
      memset(f.out, 0x55, len);
      atomic_store(&g_first_event_ns, 0);
      pthread_t t;
      CHECK(pthread_create(&t, NULL, flight_main, &f) == 0);
      while (!atomic_load(&f.started)) {
      }
      struct timespec pause = {0, 200000}; /* let the call get going */
      nanosleep(&pause, NULL);
      CHECK_EQ_INT(fm_selftest_run(), FM_OK);
      pthread_join(t, NULL);
      const uint64_t first = atomic_load(&g_first_event_ns);
      if (first != 0 && f.t1 > first) {
        overlaps++;
        CHECK_EQ_INT(f.status, FM_ERR_NOT_OPERATIONAL);
        CHECK(test_is_all_zero(f.out, len));
      } else {
        CHECK_EQ_INT(f.status, FM_OK);
      }
      free(f.in);
      free(f.out);
    }
    if (overlaps == 0) fprintf(stderr, "  %s: no call overlapped a run\n", names[op]);
    CHECK(overlaps > 0);
  }
  CHECK_EQ_INT(fm_set_selftest_callback(NULL, NULL), FM_OK);
}

static void setup(void) {
  CHECK_EQ_INT(fm_gcm_key_init(&g_gk, k_key, 16), FM_OK);
  CHECK_EQ_INT(fm_aes_key_init(&g_ak, k_key, 16), FM_OK);
}

static void test_callback_refused(void) {
  setup();
  check_callback_and_peer_refused();
}

static void test_in_flight(void) {
  setup();
  check_long_calls_in_flight();
}

static const test_case cases[] = {
  TEST_CASE(callback_refused),
  TEST_CASE(in_flight),
};

int main(int argc, char **argv) {
  return TEST_RUN(argc, argv, "test_selftest_no_output", cases);
}
