/* The RNG family: RNG (random bytes), RNG-u32, RNG-u64, UUIDv4-string and UUIDv7-string.
 *
 * Peers, each timed in the same run on the same thread counts:
 * - openssl: RAND_bytes (OpenSSL 3's per-thread public DRBG).
 * - getrandom: the getrandom(2) system call (glibc's wrapper), flags 0.
 * - vdso-getrandom: the kernel's vDSO getrandom (6.11+), called directly with one opaque state
 *   per thread (vdso_getrandom.c); skipped with a note where the kernel lacks it.
 * - libuuid: uuid_generate_random (v4) or uuid_generate_time (v1: libuuid 2.38 has no v7, so the
 *   closest time-based UUID it offers) and uuid_unparse_lower.
 * - envoy-style: what Envoy's RandomGeneratorImpl::uuid() does, in C: a per-thread 2048-byte
 *   buffer refilled with RAND_bytes, 16 bytes taken per UUID, the version and variant bits set,
 *   then hex formatting (into a caller buffer: no std::string allocation, so this peer is if
 *   anything faster than Envoy itself). Like Envoy, it never wipes consumed bytes and ignores
 *   fork; for v7 the first 6 bytes are replaced by the Unix time in milliseconds (RFC 9562 5.7)
 *   and no counter is kept, so it does not guarantee ordering within a millisecond.
 * fipsmod: fm_rand_bytes, fm_rand_u32, fm_rand_u64, fm_uuid_v4_string, fm_uuid_v7_string. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include <openssl/rand.h>
#ifndef FIPSMOD_BENCH_NO_LIBUUID
#include <uuid/uuid.h>
#endif

#include "bench/bench.h"
#include "bench/bench_ops.h"
#include "bench/vdso_getrandom.h"
#include "fipsmod/rand.h"
#include "fipsmod/uuid.h"

/* Results go through a volatile sink so that no loop can be optimized away. */
static volatile uint64_t g_sink;

typedef struct {
  uint8_t *buf;
  void *vdso_state;
} rng_state;

static void rng_fini(void *p) {
  rng_state *s = p;
  if (s == NULL) return;
  vdso_getrandom_state_free(s->vdso_state);
  free(s->buf);
  free(s);
}

static void *rng_init(const void *param, size_t size, char *why, size_t why_len) {
  (void)param;
  rng_state *s = calloc(1, sizeof(*s));
  if (s == NULL) return NULL;
  s->buf = malloc(size ? size : 1);
  if (s->buf == NULL) {
    rng_fini(s);
    return NULL;
  }
  (void)why;
  (void)why_len;
  return s;
}

static void *vdso_init(const void *param, size_t size, char *why, size_t why_len) {
  if (!vdso_getrandom_available(why, why_len)) return NULL;
  rng_state *s = rng_init(param, size, why, why_len);
  if (s == NULL) return NULL;
  s->vdso_state = vdso_getrandom_state_new();
  if (s->vdso_state == NULL) {
    snprintf(why, why_len, "could not map a vDSO getrandom state");
    rng_fini(s);
    return NULL;
  }
  return s;
}

static int fm_rng_run(void *p, size_t size, uint64_t n) {
  rng_state *s = p;
  for (uint64_t i = 0; i < n; i++)
    if (fm_rand_bytes(s->buf, size) != FM_OK) return 1;
  return 0;
}

static int ossl_rng_run(void *p, size_t size, uint64_t n) {
  rng_state *s = p;
  for (uint64_t i = 0; i < n; i++)
    if (RAND_bytes(s->buf, (int)size) != 1) return 1;
  return 0;
}

static int getrandom_fill(uint8_t *buf, size_t len) {
  while (len > 0) {
    ssize_t r = getrandom(buf, len, 0);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return 1;
    buf += r;
    len -= (size_t)r;
  }
  return 0;
}

static int getrandom_run(void *p, size_t size, uint64_t n) {
  rng_state *s = p;
  for (uint64_t i = 0; i < n; i++)
    if (getrandom_fill(s->buf, size) != 0) return 1;
  return 0;
}

static int vdso_run(void *p, size_t size, uint64_t n) {
  rng_state *s = p;
  for (uint64_t i = 0; i < n; i++)
    if (vdso_getrandom(s->vdso_state, s->buf, size) != 0) return 1;
  return 0;
}

/* RNG-u32 / RNG-u64: the fipsmod side calls fm_rand_u32/u64 (size 4 or 8 selects which); the
 * peers draw 4 or 8 bytes with their byte interface. */
static int fm_word_run(void *p, size_t size, uint64_t n) {
  (void)p;
  uint64_t acc = 0;
  if (size == 4) {
    for (uint64_t i = 0; i < n; i++) {
      uint32_t v;
      if (fm_rand_u32(&v) != FM_OK) return 1;
      acc += v;
    }
  } else {
    for (uint64_t i = 0; i < n; i++) {
      uint64_t v;
      if (fm_rand_u64(&v) != FM_OK) return 1;
      acc += v;
    }
  }
  g_sink = acc;
  return 0;
}

/* ---- UUIDs -------------------------------------------------------------------------------- */

enum uuid_kind { UUID_V4 = 4, UUID_V7 = 7 };
static const enum uuid_kind k_v4 = UUID_V4, k_v7 = UUID_V7;

static int fm_uuid_run(void *p, size_t size, uint64_t n) {
  (void)size;
  enum uuid_kind kind = *(const enum uuid_kind *)p;
  char str[FM_UUID_STRING_LEN + 1];
  uint64_t acc = 0;
  for (uint64_t i = 0; i < n; i++) {
    int st = kind == UUID_V4 ? fm_uuid_v4_string(str) : fm_uuid_v7_string(str);
    if (st != FM_OK) return 1;
    acc += (uint8_t)str[35];
  }
  g_sink = acc;
  return 0;
}

#ifndef FIPSMOD_BENCH_NO_LIBUUID
static int libuuid_run(void *p, size_t size, uint64_t n) {
  (void)size;
  enum uuid_kind kind = *(const enum uuid_kind *)p;
  char str[37];
  uint64_t acc = 0;
  for (uint64_t i = 0; i < n; i++) {
    uuid_t u;
    if (kind == UUID_V4) uuid_generate_random(u);
    else uuid_generate_time(u);
    uuid_unparse_lower(u, str);
    acc += (uint8_t)str[35];
  }
  g_sink = acc;
  return 0;
}
#define LIBUUID_INIT NULL
#else
static void *libuuid_missing(const void *param, size_t size, char *why, size_t why_len) {
  (void)param;
  (void)size;
  snprintf(why, why_len, "built without libuuid (install uuid-dev)");
  return NULL;
}
#define libuuid_run NULL
#define LIBUUID_INIT libuuid_missing
#endif

#define ENVOY_PREFETCH 2048
typedef struct {
  enum uuid_kind kind;
  size_t idx;
  uint8_t buf[ENVOY_PREFETCH];
} envoy_state;

static void *envoy_init(const void *param, size_t size, char *why, size_t why_len) {
  (void)size;
  (void)why;
  (void)why_len;
  envoy_state *s = calloc(1, sizeof(*s));
  if (s == NULL) return NULL;
  s->kind = *(const enum uuid_kind *)param;
  s->idx = ENVOY_PREFETCH; /* empty: the first UUID fills it */
  return s;
}

static int envoy_run(void *p, size_t size, uint64_t n) {
  (void)size;
  envoy_state *s = p;
  static const char hex[] = "0123456789abcdef";
  char str[37];
  uint64_t acc = 0;
  for (uint64_t i = 0; i < n; i++) {
    if (s->idx + 16 > ENVOY_PREFETCH) {
      if (RAND_bytes(s->buf, ENVOY_PREFETCH) != 1) return 1;
      s->idx = 0;
    }
    uint8_t u[16];
    memcpy(u, s->buf + s->idx, 16);
    s->idx += 16;
    if (s->kind == UUID_V7) {
      struct timespec ts;
      clock_gettime(CLOCK_REALTIME, &ts);
      uint64_t ms = (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
      for (int b = 0; b < 6; b++) u[b] = (uint8_t)(ms >> (40 - 8 * b));
    }
    u[6] = (uint8_t)((u[6] & 0x0f) | (s->kind == UUID_V4 ? 0x40 : 0x70));
    u[8] = (uint8_t)((u[8] & 0x3f) | 0x80);
    size_t o = 0;
    for (int b = 0; b < 16; b++) {
      if (b == 4 || b == 6 || b == 8 || b == 10) str[o++] = '-';
      str[o++] = hex[u[b] >> 4];
      str[o++] = hex[u[b] & 15];
    }
    str[o] = '\0';
    acc += (uint8_t)str[35];
  }
  g_sink = acc;
  return 0;
}

void bench_rand(void) {
  char why[128];
  if (bench_wants("RNG") && !vdso_getrandom_available(why, sizeof(why)))
    bench_note("vdso-getrandom peer unavailable: %s", why);

  static const size_t k_sizes[] = {16, 32, 256, 1350, 8192, 16384};
  size_t n_sizes;
  const size_t *sizes = bench_sizes(k_sizes, sizeof(k_sizes) / sizeof(k_sizes[0]), &n_sizes);
  const bench_impl rng[] = {
      {"fipsmod", rng_init, fm_rng_run, rng_fini, NULL},
      {"openssl", rng_init, ossl_rng_run, rng_fini, NULL},
      {"getrandom", rng_init, getrandom_run, rng_fini, NULL},
      {"vdso-getrandom", vdso_init, vdso_run, rng_fini, NULL},
  };
  for (size_t i = 0; i < n_sizes; i++)
    bench_measure("RNG", sizes[i], BENCH_BYTES, rng, 4, true);

  const bench_impl words[] = {
      {"fipsmod", NULL, fm_word_run, NULL, NULL},
      {"openssl", rng_init, ossl_rng_run, rng_fini, NULL},
      {"getrandom", rng_init, getrandom_run, rng_fini, NULL},
      {"vdso-getrandom", vdso_init, vdso_run, rng_fini, NULL},
  };
  bench_measure("RNG-u32", 4, BENCH_BYTES, words, 4, true);
  bench_measure("RNG-u64", 8, BENCH_BYTES, words, 4, true);

  const bench_impl v4[] = {
      {"fipsmod", NULL, fm_uuid_run, NULL, &k_v4},
      {"libuuid", LIBUUID_INIT, libuuid_run, NULL, &k_v4},
      {"envoy-style", envoy_init, envoy_run, free, &k_v4},
  };
  bench_measure("UUIDv4-string", FM_UUID_STRING_LEN, BENCH_BYTES, v4, 3, true);
  if (bench_wants("UUIDv7-string"))
    bench_note("libuuid 2.38 has no version 7: its peer is uuid_generate_time (version 1)");
  const bench_impl v7[] = {
      {"fipsmod", NULL, fm_uuid_run, NULL, &k_v7},
      {"libuuid", LIBUUID_INIT, libuuid_run, NULL, &k_v7},
      {"envoy-style", envoy_init, envoy_run, free, &k_v7},
  };
  bench_measure("UUIDv7-string", FM_UUID_STRING_LEN, BENCH_BYTES, v7, 3, true);
}
