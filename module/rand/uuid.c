/* RFC 9562 UUIDs, versions 4 and 7, and their string form.
 *
 * Random bits come from the calling thread's batch (rand_take_batch), so a UUID costs a copy
 * out of an already generated buffer, not a DRBG request. Version 7's ordering comes from one
 * process-wide atomic word holding (Unix milliseconds << 16 | counter): each UUID takes the
 * larger of "now, counter 0" and "last + 1" with a compare-exchange, so values are unique and
 * strictly increasing in the order the exchanges succeed, whichever thread makes them. A counter
 * that runs past 16 bits carries into the timestamp (RFC 9562 6.2: borrowing the next
 * millisecond), as does a clock that steps back. */
#define _GNU_SOURCE
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__)
#include <emmintrin.h>
#include <x86intrin.h>
#endif

#include "fipsmod/uuid.h"
#include "module/internal.h"
#include "module/rand/internal.h"

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "UUIDs are built as little-endian words");

/* The last (timestamp << 16 | counter) handed out; touched only by fm_uuid_v7. It has a cache
 * line of its own, so its compare-exchanges do not evict the read-mostly words every draw of
 * the process RNG loads. */
static struct {
  _Alignas(64) _Atomic uint64_t last;
  char pad[64 - sizeof(uint64_t)];
} g_v7;

/* ---- The millisecond clock ------------------------------------------------------------------
 * Reading CLOCK_REALTIME costs about 22 ns through the vDSO (Sapphire Rapids guest), most of a
 * version 7 string. Where the CPU's TSC is invariant (fm_cpu_invariant_tsc), each thread keeps
 * the millisecond it last read with the TSC interval in which that millisecond certainly still
 * holds, and answers from it while rdtsc (10 ns there) falls inside:
 *   - the interval starts at a TSC value taken before the clock read (the vDSO's own TSC read is
 *     fenced, so ours is not later), and it is the rest of the millisecond times a lower bound on
 *     the TSC's rate, so it ends at the millisecond's end or before;
 *   - the rate's lower bound comes from two CLOCK_BOOTTIME reads 8 ms to 1 s apart, each with a
 *     TSC value before it and a fenced one after it: the fewest ticks that can lie between the
 *     reads over their nanoseconds, less 1/256 for NTP's slewing of CLOCK_REALTIME (at most 500
 *     ppm). BOOTTIME counts a suspend and never steps, so a suspend or a settimeofday in between
 *     can only lower the bound. It is measured again every 8 ms to 1 s of use;
 *   - a TSC value below the interval's start (another CPU's TSC, one reset by a resume) or past
 *     its end reads the clock again.
 * Until the first rate is measured, and without an invariant TSC, every call reads the clock.
 * What is assumed: the TSCs of the CPUs a thread runs on agree (as the kernel requires before it
 * makes the TSC its clock source); a thread moved onto one that lags could see the last
 * millisecond for as long as the lag. Nothing here is secret. */
#if defined(__x86_64__)
typedef struct {
  uint64_t ms;       /* the millisecond last read */
  uint64_t t0;       /* the TSC before that read */
  uint64_t span;     /* ticks from t0 in which ms still holds; 0: none */
  uint64_t cal_tsc;  /* the calibration's first sample: the fenced TSC after its read, */
  uint64_t cal_ns;   /* and the CLOCK_BOOTTIME nanoseconds it read (0: no sample) */
  uint64_t rate_q32; /* a lower bound on TSC ticks per nanosecond, 32 fraction bits; 0: none */
} tsc_clock;
static __thread tsc_clock tl_clock __attribute__((tls_model("initial-exec")));

/* tsc_calibrate takes a CLOCK_BOOTTIME sample and, with the first one 8 ms to 1 s back, a new
 * rate bound (above); the sample then becomes the first one. */
static void tsc_calibrate(tsc_clock *c) {
  struct timespec b;
  const uint64_t before = __rdtsc();
  if (clock_gettime(CLOCK_BOOTTIME, &b) != 0) return;
  _mm_lfence(); /* the TSC after the read is taken after it */
  const uint64_t after = __rdtsc();
  const uint64_t ns = (uint64_t)b.tv_sec * 1000000000u + (uint64_t)b.tv_nsec;
  if (c->cal_ns != 0) {
    const uint64_t dns = ns - c->cal_ns;
    if (ns > c->cal_ns && dns < 8000000u) return; /* too close: keep the first sample */
    if (ns > c->cal_ns && dns <= 1000000000u && before > c->cal_tsc) {
      const uint64_t q = (uint64_t)(((unsigned __int128)(before - c->cal_tsc) << 32) / dns);
      c->rate_q32 = q - (q >> 8);
    }
  }
  c->cal_tsc = after;
  c->cal_ns = ns;
}

/* realtime_ms reads CLOCK_REALTIME and, with an invariant TSC, sets the thread's interval from a
 * TSC value taken just before. Out of line: the fast path in unix_ms stays small. */
__attribute__((noinline)) static uint64_t realtime_ms(tsc_clock *c) {
  const bool tsc = fm_cpu_invariant_tsc();
  const uint64_t t0 = tsc ? __rdtsc() : 0;
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  const uint64_t ms = (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
  if (tsc) {
    /* The interval is closed while it changes, and opened last: a signal handler that makes a
     * UUID in between (on this thread) sees no interval, or a whole one. */
    c->span = 0;
    atomic_signal_fence(memory_order_seq_cst);
    tsc_calibrate(c);
    const uint64_t rest = 1000000u - (uint64_t)ts.tv_nsec % 1000000u; /* ns to the next ms */
    c->ms = ms;
    c->t0 = t0;
    atomic_signal_fence(memory_order_seq_cst);
    c->span = (rest * c->rate_q32) >> 32; /* rest < 2^20, rate_q32 < 2^40: no overflow */
  }
  return ms;
}

/* unix_ms is the Unix time in milliseconds: from the thread's interval while the TSC is in it
 * (its span is non-zero only with an invariant TSC), else from the clock. */
static inline uint64_t unix_ms(void) {
  tsc_clock *c = &tl_clock;
  if (c->span != 0) {
    const uint64_t t = __rdtsc();
    if (t - c->t0 < c->span) return c->ms;
  }
  return realtime_ms(c);
}
#else
static uint64_t unix_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}
#endif

/* uuid_v4_fill writes a version 4 UUID (module gate already passed). */
static int uuid_v4_fill(uint8_t out[FM_UUID_LEN]) {
  int err = rand_take_16(out);
  if (err != FM_OK) return err;
  /* RFC 9562 5.4: version 4 in the top nibble of octet 6, variant 10 in octet 8. */
  out[6] = (uint8_t)(0x40 | (out[6] & 0x0f));
  out[8] = (uint8_t)(0x80 | (out[8] & 0x3f));
  return FM_OK;
}

/* v7_next returns the next (timestamp << 16 | counter) of the process: the larger of "now,
 * counter 0" and "last + 1", installed in g_v7.last by one atomic operation, so that the values
 * are unique and strictly increasing in the order those operations take effect. Within a
 * millisecond that already has a value (the common case under load) "last + 1" wins, and a
 * fetch-and-add is enough: g_v7.last only ever grows, so if the value read was at least "now,
 * counter 0", the one the addition meets is too. Otherwise a compare-exchange moves the word up to
 * the new millisecond, or to last + 1 where another thread got there first. */
static uint64_t v7_next(uint64_t now) {
  uint64_t last = atomic_load_explicit(&g_v7.last, memory_order_relaxed);
  if (now <= last) return atomic_fetch_add_explicit(&g_v7.last, 1, memory_order_relaxed) + 1;
  uint64_t next;
  do {
    next = now > last ? now : last + 1;
  } while (!atomic_compare_exchange_weak_explicit(&g_v7.last, &last, next, memory_order_relaxed,
                                                  memory_order_relaxed));
  return next;
}

/* v7_words makes a version 7 UUID from |next| (v7_next) and the 8 random bytes |r| (read as a
 * little-endian word, r[0] lowest), as the little-endian words of its octets 0-7 (*w0) and 8-15
 * (*w1), in registers: RFC 9562 5.7's unix_ts_ms (48 bits), ver (4) | rand_a (12: counter bits
 * 15..4), var (2) | rand_b (62: counter bits 3..0, then 58 random bits, the low 2 bits of r[0]
 * and r[1..7]). */
static inline void v7_words(uint64_t next, uint64_t r, uint64_t *w0, uint64_t *w1) {
  const uint64_t ms = next >> 16, ctr = next & 0xffff;
  *w0 = __builtin_bswap64(ms << 16 | (0x70 | ctr >> 12) << 8 | ((ctr >> 4) & 0xff));
  *w1 = (r & ~(uint64_t)0xff) | 0x80 | (ctr & 0x0f) << 2 | (r & 0x03);
}

/* uuid_v7_words writes a version 7 UUID's words (module gate already passed). */
static inline __attribute__((always_inline)) int uuid_v7_words(uint64_t *w0, uint64_t *w1) {
  /* The time and its place in the order first: the atomic operation then meets fewer pending
   * stores (it waits for them), and its latency and rdtsc's overlap the batch take. */
  const uint64_t next = v7_next(unix_ms() << 16);
  _Alignas(8) uint8_t rb[8];
  int err = rand_take_8(rb);
  if (err != FM_OK) return err;
  uint64_t r;
  memcpy(&r, rb, 8);
  /* One word store that the barrier keeps (fm_zeroize's general memset costs more here). */
  const uint64_t z = 0;
  memcpy(rb, &z, 8);
  __asm__ __volatile__("" : : "r"(rb) : "memory");
  v7_words(next, r, w0, w1);
  return FM_OK;
}

/* uuid_v7_fill writes a version 7 UUID (module gate already passed). */
static int uuid_v7_fill(uint8_t out[FM_UUID_LEN]) {
  uint64_t w0, w1;
  int err = uuid_v7_words(&w0, &w1);
  if (err != FM_OK) {
    fm_zeroize(out, FM_UUID_LEN);
    return err;
  }
  memcpy(out, &w0, 8);
  memcpy(out + 8, &w1, 8);
  return FM_OK;
}

int fm_uuid_v4(uint8_t out[FM_UUID_LEN]) {
  int st = fm_service_gate();
  if (st != FM_OK) return fm_refuse(st, out, FM_UUID_LEN);
  if (out == NULL) return fm_refuse(FM_ERR_BAD_ARGUMENT, NULL, 0);
  return uuid_v4_fill(out);
}

int fm_uuid_v7(uint8_t out[FM_UUID_LEN]) {
  int st = fm_service_gate();
  if (st != FM_OK) return fm_refuse(st, out, FM_UUID_LEN);
  if (out == NULL) return fm_refuse(FM_ERR_BAD_ARGUMENT, NULL, 0);
  return uuid_v7_fill(out);
}

/* The string form is made with SSE2 on x86-64 (its baseline: one text, the one the tests run
 * there), and with the scalar formatter below elsewhere (aarch64). */
#if defined(__x86_64__)
#if !defined(__SSE2__)
#error "module/rand/uuid.c formats UUIDs with SSE2 (baseline on x86-64)"
#endif

/* format with SSE2 (baseline on x86-64): the 32 nibbles are split and interleaved into two
 * registers, and each becomes '0' + n, plus 39 where n > 9 (a compare mask, not a branch: the
 * random bits are secret until the caller publishes the UUID). The stores are laid out so that
 * later ones overwrite the bytes that belong to a hyphen or to a shifted group. */
static inline void format_reg(__m128i x, char out[FM_UUID_STRING_LEN + 1]) {
  const __m128i low4 = _mm_set1_epi8(0x0f);
  const __m128i hi = _mm_and_si128(_mm_srli_epi16(x, 4), low4);
  const __m128i lo = _mm_and_si128(x, low4);
  __m128i d0 = _mm_unpacklo_epi8(hi, lo); /* digits 0..15 (octets 0..7) */
  __m128i d1 = _mm_unpackhi_epi8(hi, lo); /* digits 16..31 (octets 8..15) */
  const __m128i nine = _mm_set1_epi8(9), ascii0 = _mm_set1_epi8('0'), gap = _mm_set1_epi8(39);
  d0 = _mm_add_epi8(_mm_add_epi8(d0, ascii0), _mm_and_si128(_mm_cmpgt_epi8(d0, nine), gap));
  d1 = _mm_add_epi8(_mm_add_epi8(d1, ascii0), _mm_and_si128(_mm_cmpgt_epi8(d1, nine), gap));
  uint64_t d0_hi = (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(d0, d0)); /* digits 8..15 */
  uint32_t d1_lo = (uint32_t)_mm_cvtsi128_si32(d1);                          /* digits 16..19 */
  _mm_storeu_si128((__m128i *)(void *)out, d0);         /* 0..7 final, 8..15 rewritten below */
  _mm_storeu_si128((__m128i *)(void *)(out + 20), d1);  /* 24..35 final, 20..23 rewritten */
  memcpy(out + 9, &d0_hi, 4);
  memcpy(out + 14, (const char *)&d0_hi + 4, 4);
  memcpy(out + 19, &d1_lo, 4);
  out[8] = '-';
  out[13] = '-';
  out[18] = '-';
  out[23] = '-';
  out[36] = '\0';
}

static void format(const uint8_t u[FM_UUID_LEN], char out[FM_UUID_STRING_LEN + 1]) {
  format_reg(_mm_loadu_si128((const __m128i *)(const void *)u), out);
}

/* format_words formats the UUID whose octets 0-7 and 8-15 are the little-endian words w0, w1. */
static void format_words(uint64_t w0, uint64_t w1, char out[FM_UUID_STRING_LEN + 1]) {
  format_reg(_mm_set_epi64x((long long)w1, (long long)w0), out);
}

/* v4_string_fast formats 16 random bytes as a version 4 UUID, setting the version and variant
 * bits in the register (byte stores into the buffer just before a 16-byte load of it would
 * stall store forwarding). */
static void v4_string_fast(const uint8_t r[FM_UUID_LEN], char out[FM_UUID_STRING_LEN + 1]) {
  const __m128i keep = _mm_setr_epi8(-1, -1, -1, -1, -1, -1, 0x0f, -1, 0x3f, -1, -1, -1, -1, -1,
                                     -1, -1);
  const __m128i set = _mm_setr_epi8(0, 0, 0, 0, 0, 0, 0x40, 0, (char)0x80, 0, 0, 0, 0, 0, 0, 0);
  /* Two 8-byte loads, as the batch handed the bytes out with two 8-byte stores: one 16-byte load
   * of them would miss store forwarding and stall (it made a string twice as slow). */
  uint64_t lo, hi;
  memcpy(&lo, r, 8);
  memcpy(&hi, r + 8, 8);
  /* The barriers keep the compiler from merging the two loads back into one. */
  __asm__("" : "+r"(lo));
  __asm__("" : "+r"(hi));
  __m128i x = _mm_set_epi64x((long long)hi, (long long)lo);
  format_reg(_mm_or_si128(_mm_and_si128(x, keep), set), out);
}
#else
/* hex_digit is '0' + n for n < 10 and 'a' + n - 10 above: plus 39 under a mask made from the sign
 * of 9 - n, not a branch (the random bits are secret until the caller publishes the UUID). */
static inline char hex_digit(unsigned n) {
  const unsigned above9 = (unsigned)((9 - (int)n) >> 8) & 39u; /* n <= 15 */
  return (char)('0' + n + above9);
}

/* format writes the 36 characters and the NUL: hyphens after octets 4, 6, 8 and 10. */
static void format(const uint8_t u[FM_UUID_LEN], char out[FM_UUID_STRING_LEN + 1]) {
  size_t o = 0;
  for (size_t i = 0; i < FM_UUID_LEN; i++) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out[o++] = '-';
    out[o++] = hex_digit(u[i] >> 4);
    out[o++] = hex_digit(u[i] & 15u);
  }
  out[o] = '\0';
}

/* format_words formats the UUID whose octets 0-7 and 8-15 are the little-endian words w0, w1,
 * through a local copy, which it wipes. */
static void format_words(uint64_t w0, uint64_t w1, char out[FM_UUID_STRING_LEN + 1]) {
  uint8_t u[FM_UUID_LEN];
  memcpy(u, &w0, 8);
  memcpy(u + 8, &w1, 8);
  format(u, out);
  fm_zeroize(u, sizeof u);
}

/* v4_string_fast formats 16 random bytes as a version 4 UUID, setting the version and variant
 * bits on a local copy, which it wipes. */
static void v4_string_fast(const uint8_t r[FM_UUID_LEN], char out[FM_UUID_STRING_LEN + 1]) {
  uint8_t u[FM_UUID_LEN];
  memcpy(u, r, FM_UUID_LEN);
  u[6] = (uint8_t)((u[6] & 0x0f) | 0x40);
  u[8] = (uint8_t)((u[8] & 0x3f) | 0x80);
  format(u, out);
  fm_zeroize(u, sizeof u);
}
#endif

static int uuid_format_checked(const uint8_t uuid[FM_UUID_LEN], char out[FM_UUID_STRING_LEN + 1]) {
  int st = fm_service_gate();
  if (st != FM_OK) return fm_refuse(st, out, FM_UUID_STRING_LEN + 1);
  if (out == NULL) return FM_ERR_BAD_ARGUMENT;
  if (uuid == NULL) return fm_refuse(FM_ERR_BAD_ARGUMENT, out, FM_UUID_STRING_LEN + 1);
  format(uuid, out);
  rand_wipe_vector_regs(); /* the digits of a secret went through xmm */
  return FM_OK;
}

/* fm_uuid_format is informational (no security service): the indicator is left as it was. */
int fm_uuid_format(const uint8_t uuid[FM_UUID_LEN], char out[FM_UUID_STRING_LEN + 1]) {
  const uint8_t ind = fm_tl_indicator; /* read before the call (argument order is unspecified) */
  return fm_indicator_keep(ind, uuid_format_checked(uuid, out));
}

/* wipe16 zeroizes 16 bytes with two word stores that the barrier keeps (fm_zeroize's general
 * memset costs more than the whole string on this path). */
static inline void wipe16(uint8_t p[16]) {
  const uint64_t z = 0;
  memcpy(p, &z, 8);
  memcpy(p + 8, &z, 8);
  __asm__ __volatile__("" : : "r"(p) : "memory");
}

static int uuid_string(int version, char out[FM_UUID_STRING_LEN + 1]) {
  int st = fm_service_gate();
  if (st != FM_OK) return fm_refuse(st, out, FM_UUID_STRING_LEN + 1);
  if (out == NULL) return fm_refuse(FM_ERR_BAD_ARGUMENT, NULL, 0);
  uint8_t u[FM_UUID_LEN];
  int err;
  if (version == 4) {
    err = rand_take_16(u);
    if (err == FM_OK) v4_string_fast(u, out);
  } else {
    /* In registers: byte stores just before format's 16-byte load would stall store forwarding. */
    uint64_t w0, w1;
    err = uuid_v7_words(&w0, &w1);
    if (err == FM_OK) format_words(w0, w1, out);
  }
  wipe16(u);
  rand_wipe_vector_regs(); /* the random bits and their digits went through xmm */
  if (err != FM_OK) return fm_refuse(err, out, FM_UUID_STRING_LEN + 1);
  return FM_OK;
}

int fm_uuid_v4_string(char out[FM_UUID_STRING_LEN + 1]) { return uuid_string(4, out); }
int fm_uuid_v7_string(char out[FM_UUID_STRING_LEN + 1]) { return uuid_string(7, out); }

/* parse_nibble returns 0..15 for a hex digit of either case, -1 otherwise. The text being parsed
 * is public. */
static int parse_nibble(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static int uuid_parse_checked(const char *str, size_t len, uint8_t out[FM_UUID_LEN]) {
  int st = fm_service_gate();
  if (st != FM_OK) return fm_refuse(st, out, FM_UUID_LEN);
  if (str == NULL) return fm_refuse(FM_ERR_BAD_ARGUMENT, out, FM_UUID_LEN);
  /* The length first: no byte of |str| is read unless it has the 36 the string form needs. */
  if (len != FM_UUID_STRING_LEN) return fm_refuse(FM_ERR_PARSE, out, FM_UUID_LEN);
  uint8_t u[FM_UUID_LEN];
  size_t o = 0;
  for (size_t i = 0; i < FM_UUID_STRING_LEN;) {
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (str[i] != '-') return fm_refuse(FM_ERR_PARSE, out, FM_UUID_LEN);
      i++;
      continue;
    }
    int hi = parse_nibble(str[i]), lo = parse_nibble(str[i + 1]);
    if (hi < 0 || lo < 0) return fm_refuse(FM_ERR_PARSE, out, FM_UUID_LEN);
    u[o++] = (uint8_t)(hi << 4 | lo);
    i += 2;
  }
  if (out != NULL) memcpy(out, u, FM_UUID_LEN);
  return FM_OK;
}

/* fm_uuid_parse is informational (no security service): the indicator is left as it was. */
int fm_uuid_parse(const char *str, size_t len, uint8_t out[FM_UUID_LEN]) {
  const uint8_t ind = fm_tl_indicator; /* read before the call (argument order is unspecified) */
  return fm_indicator_keep(ind, uuid_parse_checked(str, len, out));
}

static int uuid_version_checked(const uint8_t uuid[FM_UUID_LEN], int *version) {
  int st = fm_service_gate();
  if (st != FM_OK) return fm_refuse(st, version, sizeof(*version));
  if (version == NULL) return FM_ERR_BAD_ARGUMENT;
  if (uuid == NULL) return fm_refuse(FM_ERR_BAD_ARGUMENT, version, sizeof(*version));
  if ((uuid[8] & 0xc0) != 0x80) return fm_refuse(FM_ERR_PARSE, version, sizeof(*version));
  *version = uuid[6] >> 4;
  return FM_OK;
}

/* fm_uuid_version is informational (no security service): the indicator is left as it was. */
int fm_uuid_version(const uint8_t uuid[FM_UUID_LEN], int *version) {
  const uint8_t ind = fm_tl_indicator; /* read before the call (argument order is unspecified) */
  return fm_indicator_keep(ind, uuid_version_checked(uuid, version));
}

#if defined(FIPSMOD_TEST_HOOKS)
void fm_uuid_v7_set_last_for_testing(uint64_t ms, uint32_t counter) {
  atomic_store(&g_v7.last, ms << 16 | (counter & 0xffff));
}

uint64_t fm_uuid_clock_span_for_testing(void) {
#if defined(__x86_64__)
  return tl_clock.span;
#else
  return 0;
#endif
}
#endif
