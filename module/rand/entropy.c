/* The entropy source: getrandom(2) behind SP 800-90B health tests.
 *
 * getrandom(buf, len, 0) blocks until the kernel's pool has been seeded once and never blocks
 * afterwards; a signal may interrupt it (EINTR) and a request may come back short, so both are
 * retried. It is issued with the syscall instruction (fm_syscall), not libc's getrandom(),
 * which an LD_PRELOAD library could replace. A kernel without it (ENOSYS, before Linux 3.17) or
 * any other error fails the source: there is no fallback to a file that could be swapped. Every byte it returns goes through the continuous tests of the caller's context
 * (repetition count, adaptive proportion, and a comparison of consecutive 16-byte blocks) before
 * it is used. A failure is recorded as a conditional self-test failure, which puts the module in
 * the ERROR state for good. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/syscall.h>

#include "module/internal.h"
#include "module/rand/internal.h"
#include "module/rand/syscall.h"

static_assert(ENTROPY_STARTUP_SAMPLES >= 1024, "SP 800-90B 4.3 item 4: at least 1024 samples");

#if defined(FIPSMOD_TEST_HOOKS)
/* The substitute-source hook: while g_pattern_len != 0 the source returns the bytes of
 * g_pattern cyclically instead of getrandom's. Set by tests before the threads that draw start
 * (the position is shared and updated without a lock: tests of the hook are single-threaded). */
static uint8_t g_pattern[1024];
static _Atomic size_t g_pattern_len;
static size_t g_pattern_pos;

void fm_entropy_set_pattern_source_for_testing(const uint8_t *pattern, size_t len) {
  if (len > sizeof(g_pattern)) len = sizeof(g_pattern);
  atomic_store(&g_pattern_len, 0);
  if (pattern != NULL && len != 0) {
    memcpy(g_pattern, pattern, len);
    g_pattern_pos = 0;
    atomic_store(&g_pattern_len, len);
  }
}

void fm_entropy_set_stuck_source_for_testing(int on, uint8_t byte) {
  fm_entropy_set_pattern_source_for_testing(&byte, on ? 1 : 0);
}
#endif

/* source_read fills |out| from the OS. Returns 0, or -1 on an error other than EINTR. */
static int source_read(uint8_t *out, size_t len) {
#if defined(FIPSMOD_TEST_HOOKS)
  size_t plen = atomic_load(&g_pattern_len);
  if (plen != 0) {
    for (size_t i = 0; i < len; i++) {
      out[i] = g_pattern[g_pattern_pos % plen];
      g_pattern_pos++;
    }
    return 0;
  }
#endif
  while (len > 0) {
    /* The kernel may return fewer bytes than asked (it caps one request): the rest is read by
     * the next pass of this loop. */
    long n = fm_syscall(SYS_getrandom, (long)out, (long)len, 0);
    if (n == -EINTR) continue;
    if (n <= 0 || (size_t)n > len) return -1; /* an error (-errno), or nothing: never spin */
    out += n;
    len -= (size_t)n;
  }
  return 0;
}

void entropy_health_init(entropy_health *h) { memset(h, 0, sizeof(*h)); }

/* health_sample feeds one sample to the repetition count and adaptive proportion tests.
 * Returns 0, or all-ones when a test fails. The sample values are secret: the running counters are
 * updated with masks, and only the pass/fail outcome (public: it ends the module) is branched
 * on, once per request. */
static uint32_t health_sample(entropy_health *h, uint8_t x) {
  /* 90B 4.4.1: B = B + 1 when x repeats the previous sample, else B = 1; fail when B >= C. */
  uint32_t same = ct_eq_u32(x, h->rct_last) & (0u - (uint32_t)h->started);
  h->rct_count = ct_select_u32(same, h->rct_count + 1, 1);
  h->rct_last = x;
  h->started = 1;
  uint32_t fail = 0u - (uint32_t)(h->rct_count >= ENTROPY_RCT_CUTOFF);

  /* 90B 4.4.2: the first sample of a window is A (count 1); each later sample equal to A adds
   * one; fail when the count reaches C; a new window starts after W samples. */
  uint32_t first = ct_is_zero_u32(h->apt_pos);
  uint32_t match = ct_eq_u32(x, h->apt_first);
  h->apt_first = (uint8_t)ct_select_u32(first, x, h->apt_first);
  h->apt_count = ct_select_u32(first, 1, h->apt_count + (match & 1u));
  fail |= 0u - (uint32_t)(h->apt_count >= ENTROPY_APT_CUTOFF);
  h->apt_pos = (h->apt_pos + 1) % ENTROPY_APT_WINDOW;
  return fail;
}

/* health_check runs the continuous tests over |len| fresh bytes. Returns 0 when they pass. */
static int health_check(entropy_health *h, const uint8_t *buf, size_t len) {
  uint32_t fail = 0;
  for (size_t i = 0; i < len; i++) fail |= health_sample(h, buf[i]);
  /* Continuous comparison: no 16-byte block equals the one before it in the same request. */
  for (size_t off = 16; off + 16 <= len; off += 16) {
    fail |= 0u - (uint32_t)fm_ct_memeq(buf + off - 16, buf + off, 16);
  }
  return fail != 0 ? -1 : 0;
}

/* How many seed requests passed the continuous health tests, for the self-test report. An atomic
 * add at seeding time only (never in the steady state); the report reads it without a lock, so
 * a draw from a signal handler never waits on the report's lock. */
static _Atomic uint64_t g_health_passes;

#if defined(FIPSMOD_TEST_HOOKS)
static _Atomic int g_entropy_secret;
void fm_entropy_mark_secret_for_testing(int on) { atomic_store(&g_entropy_secret, on != 0); }
#endif

uint64_t fm_entropy_health_passes(void) {
  return atomic_load_explicit(&g_health_passes, memory_order_relaxed);
}

int fm_entropy_get(entropy_health *h, uint8_t *out, size_t len) {
  int src = source_read(out, len);
  if (src == 0 && health_check(h, out, len) == 0) {
    atomic_fetch_add_explicit(&g_health_passes, 1, memory_order_relaxed);
#if defined(FIPSMOD_TEST_HOOKS)
    /* Constant-time tests: from here on the entropy is secret for memcheck. */
    if (atomic_load_explicit(&g_entropy_secret, memory_order_relaxed))
      fm_mark_secret_for_testing(out, len);
#endif
    return FM_OK;
  }
  fm_zeroize(out, len);
  /* The source failed: the module can no longer produce random bits it vouches for. */
  fm_selftest_record_conditional(src != 0 ? FM_ST_ENTROPY_SOURCE : FM_ST_ENTROPY_HEALTH,
                                 FM_ERR_ENTROPY);
  return FM_ERR_ENTROPY;
}

int fm_entropy_startup_test(void) {
  entropy_health h;
  uint8_t buf[256];
  entropy_health_init(&h);
  int result = FM_OK;
  for (size_t done = 0; done < ENTROPY_STARTUP_SAMPLES; done += sizeof(buf)) {
    if (source_read(buf, sizeof(buf)) != 0 || health_check(&h, buf, sizeof(buf)) != 0) {
      result = FM_ERR_ENTROPY;
      break;
    }
  }
  fm_zeroize(buf, sizeof(buf));
  fm_zeroize(&h, sizeof(h));
  return result;
}
