/* HMAC leaves no key-derived state behind ("residue"):
 *
 *  - on the stack: after fm_hmac_init/update/final/wipe (and after the one-shot fm_hmac), the
 *    stack below the caller holds nothing that depends on the key. The test runs the same
 *    sequence twice, with two random keys and everything else equal, each time on a stack area
 *    zeroed first, and compares what the two runs left there byte by byte: a byte that differs
 *    was computed from the key (return addresses, pointers, counters and message-derived data
 *    are the same in both runs). Run for SHA-256, SHA-384 and SHA-512, on the CPU path in use
 *    (registered a second time with FIPSMOD_CPU=portable);
 *  - in vector registers: right after the SHA-NI and AVX2 compression kernels return, xmm0-15
 *    hold nothing that depends on the block they compressed (the same two-input comparison on a
 *    dump of the registers). Run where the CPU has those extensions.
 *
 * The stack is read by a function whose frame lies where the module's frames were (called from
 * the same function at the same depth), through an uninitialized local array that an empty asm
 * claims to write. A planted residue checks that the scan sees what a returned function left. */
#if defined(__x86_64__)
#include <cpuid.h>
#endif
#include <stdlib.h>
#include <string.h>

#include "fipsmod/hmac.h"
#include "module/internal.h"
#include "module/sha/internal.h"
#include "tests/common/test_util.h"

#define SCAN 8192

static const fm_hash_alg k_algs[3] = {FM_HASH_SHA256, FM_HASH_SHA384, FM_HASH_SHA512};
static const char *const k_names[3] = {"HMAC-SHA-256", "HMAC-SHA-384", "HMAC-SHA-512"};
static uint8_t g_key[2][64];
static uint8_t g_cur_key[64]; /* the key of the run: one address, so that pointers are equal */
static uint8_t g_msg[300];
static uint8_t g_tag[64];
static fm_hmac_ctx g_ctx;

static __attribute__((noinline)) void clear_area(void) {
  volatile uint8_t area[SCAN];
  for (size_t i = 0; i < sizeof area; i++) area[i] = 0;
  __asm__ __volatile__("" : : "r"(area) : "memory");
}

static __attribute__((noinline)) void snapshot(uint8_t *dst) {
  uint8_t area[SCAN];
  __asm__ __volatile__("" : : "r"(area) : "memory");
  memcpy(dst, area, sizeof area);
  __asm__ __volatile__("" : : "r"(area) : "memory");
}

/* run_hmac: incremental HMAC with the message in three pieces (a partial block, whole blocks,
 * a tail), then the wipe a careful caller adds; or the one-shot service. */
static __attribute__((noinline)) void run_hmac(fm_hash_alg alg, const uint8_t *key, int oneshot) {
  if (oneshot) {
    CHECK_EQ_INT(fm_hmac(alg, key, 64, g_msg, sizeof g_msg, g_tag, sizeof g_tag), FM_OK);
  } else {
    CHECK_EQ_INT(fm_hmac_init(&g_ctx, alg, key, 64), FM_OK);
    CHECK_EQ_INT(fm_hmac_update(&g_ctx, g_msg, 17), FM_OK);
    CHECK_EQ_INT(fm_hmac_update(&g_ctx, g_msg + 17, 256), FM_OK);
    CHECK_EQ_INT(fm_hmac_update(&g_ctx, g_msg + 273, sizeof g_msg - 273), FM_OK);
    CHECK_EQ_INT(fm_hmac_final(&g_ctx, g_tag, sizeof g_tag), FM_OK);
    CHECK_EQ_INT(fm_hmac_wipe(&g_ctx), FM_OK);
  }
  __asm__ __volatile__("" : : : "memory");
}

/* leave_in_frame copies |secret| (64 bytes) into its own frame and returns without wiping. */
static __attribute__((noinline)) void leave_in_frame(fm_hash_alg alg, const uint8_t *secret,
                                                     int oneshot) {
  (void)alg;
  (void)oneshot;
  volatile uint8_t frame[512];
  for (size_t i = 0; i < sizeof frame; i++) frame[i] = secret[i % 64];
  __asm__ __volatile__("" : : "r"(frame) : "memory");
}

typedef void (*runner)(fm_hash_alg, const uint8_t *, int);

/* one_run clears the area, runs, and copies the area to g_scan. Nothing that differs between
 * the two runs of a comparison (the loop index, which scan buffer) is live in it, so no register
 * the module's functions save on entry holds such a value: what differs below it is what the
 * run computed from the key. */
static uint8_t g_scan[SCAN];
static __attribute__((noinline)) void one_run(runner run, fm_hash_alg alg, int oneshot) {
  /* The registers may still hold the previous run's values (setup's). */
  TEST_ZERO_GENERAL_REGISTERS();
  clear_area();
  run(alg, g_cur_key, oneshot);
  snapshot(g_scan);
  __asm__ __volatile__("" : : : "memory");
}

/* differing_bytes runs |run| with each key on a zeroed area and counts the bytes of the area
 * that differ between the two runs; it prints where they are. */
static size_t differing_bytes(runner run, fm_hash_alg alg, int oneshot, const char *what) {
  static uint8_t scan[2][SCAN];
  for (int k = 0; k < 2; k++) {
    memcpy(g_cur_key, g_key[k], sizeof g_cur_key);
    one_run(run, alg, oneshot);
    memcpy(scan[k], g_scan, SCAN);
  }
  size_t n = 0, first = SCAN, last = 0;
  for (size_t i = 0; i < SCAN; i++) {
    if (scan[0][i] != scan[1][i]) {
      n++;
      if (i < first) first = i;
      last = i;
    }
  }
  for (size_t i = 0; n != 0 && what != NULL && i < SCAN; i += 8) {
    if (memcmp(scan[0] + i, scan[1] + i, 8) == 0) continue;
    uint64_t x, y;
    memcpy(&x, scan[0] + i, 8);
    memcpy(&y, scan[1] + i, 8);
    fprintf(stderr, "  offset %zu: %016llx / %016llx\n", i, (unsigned long long)x,
            (unsigned long long)y);
  }
  if (n != 0 && what != NULL)
    fprintf(stderr, "%s: %zu key-dependent bytes left on the stack (area offsets %zu..%zu of %d)\n",
            what, n, first, last, SCAN);
  return n;
}

static void test_stack(void) {
  /* Each algorithm's first use runs its self-test (public vectors) in the first run only, which
   * would differ from the second for that reason alone: use each once first. */
  for (int a = 0; a < 3; a++)
    CHECK_EQ_INT(fm_hmac(k_algs[a], g_key[0], 64, g_msg, 1, g_tag, sizeof g_tag), FM_OK);
  for (int a = 0; a < 3; a++) {
    for (int oneshot = 0; oneshot <= 1; oneshot++) {
      char what[64];
      snprintf(what, sizeof what, "%s %s", k_names[a], oneshot ? "one-shot" : "init/update/final");
      CHECK_EQ_INT(differing_bytes(run_hmac, k_algs[a], oneshot, what), 0);
    }
  }
  /* The scan sees a planted residue. */
  CHECK(differing_bytes(leave_in_frame, FM_HASH_SHA256, 0, NULL) >= 64);
}

/* ---- Vector registers --------------------------------------------------------------------- */

typedef void (*kernel256)(uint32_t *, const uint8_t *, size_t);
typedef void (*kernel512)(uint64_t *, const uint8_t *, size_t);

#if defined(__x86_64__)
/* call_and_dump calls a kernel and stores xmm0-15 as it returned them. Nothing runs in between
 * that uses a vector register (every xmm register is call-clobbered, so the compiler keeps no
 * value of its own there across the call). */
static __attribute__((noinline)) void call_and_dump(kernel256 k256, kernel512 k512, void *h,
                                                    const uint8_t *block, uint8_t dump[256]) {
  if (k256) {
    k256(h, block, 1);
  } else {
    k512(h, block, 1);
  }
  __asm__ __volatile__(
      "movdqu %%xmm0, 0(%0)\n\tmovdqu %%xmm1, 16(%0)\n\tmovdqu %%xmm2, 32(%0)\n\t"
      "movdqu %%xmm3, 48(%0)\n\tmovdqu %%xmm4, 64(%0)\n\tmovdqu %%xmm5, 80(%0)\n\t"
      "movdqu %%xmm6, 96(%0)\n\tmovdqu %%xmm7, 112(%0)\n\tmovdqu %%xmm8, 128(%0)\n\t"
      "movdqu %%xmm9, 144(%0)\n\tmovdqu %%xmm10, 160(%0)\n\tmovdqu %%xmm11, 176(%0)\n\t"
      "movdqu %%xmm12, 192(%0)\n\tmovdqu %%xmm13, 208(%0)\n\tmovdqu %%xmm14, 224(%0)\n\t"
      "movdqu %%xmm15, 240(%0)\n\t"
      :
      : "r"(dump)
      : "memory");
}

/* registers_differing counts the bytes of xmm0-15 that differ after compressing two blocks. */
static size_t registers_differing(kernel256 k256, kernel512 k512, const char *what) {
  uint8_t dump[2][256];
  for (int k = 0; k < 2; k++) {
    uint8_t block[128];
    for (size_t i = 0; i < sizeof block; i++) block[i] = g_key[k][i % 64] ^ 0x36; /* a key pad */
    uint64_t h[8];
    memcpy(h, sha512_iv, sizeof h);
    call_and_dump(k256, k512, h, block, dump[k]);
  }
  size_t n = 0;
  for (size_t i = 0; i < 256; i++) n += dump[0][i] != dump[1][i];
  for (int r = 0; r < 16; r++) {
    if (memcmp(dump[0] + 16 * r, dump[1] + 16 * r, 16) != 0)
      fprintf(stderr, "%s: xmm%d holds block-dependent data after return\n", what, r);
  }
  return n;
}

/* The CPU's own answer (not the module's, which FIPSMOD_CPU=portable overrides). */
static void cpu_has(int *shani, int *avx2_bmi2) {
  unsigned a, b, c, d;
  *shani = *avx2_bmi2 = 0;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return;
  const int sse41 = (c >> 19) & 1, osxsave = (c >> 27) & 1;
  int ymm = 0;
  if (osxsave) {
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    ymm = (lo & 6) == 6;
  }
  if (__get_cpuid_max(0, NULL) < 7) return;
  __cpuid_count(7, 0, a, b, c, d);
  *shani = ((b >> 29) & 1) && sse41;
  *avx2_bmi2 = ((b >> 5) & 1) && ((b >> 8) & 1) && ymm;
}

#endif

static void test_registers(void) {
#if !defined(__x86_64__)
  fprintf(stderr, "the SHA-NI and AVX2 kernels are x86-64's: no register check here\n");
#else
  int shani, avx2_bmi2;
  cpu_has(&shani, &avx2_bmi2);
  if (shani) {
    CHECK_EQ_INT(registers_differing(sha256_blocks_shani, NULL, "sha256_blocks_shani"), 0);
  } else {
    fprintf(stderr, "no SHA-NI on this CPU: sha256_blocks_shani not checked\n");
  }
  if (avx2_bmi2) {
    CHECK_EQ_INT(registers_differing(NULL, sha512_blocks_avx2, "sha512_blocks_avx2"), 0);
  } else {
    fprintf(stderr, "no AVX2+BMI2 on this CPU: sha512_blocks_avx2 not checked\n");
  }
#endif
}

static const test_case cases[] = {
  TEST_CASE(stack),
  TEST_CASE(registers),
};

int main(int argc, char **argv) {
  srand(20261201);
  for (int k = 0; k < 2; k++)
    for (size_t i = 0; i < sizeof g_key[k]; i++) g_key[k][i] = (uint8_t)(rand() >> 7);
  for (size_t i = 0; i < sizeof g_msg; i++) g_msg[i] = (uint8_t)i;
  return TEST_RUN(argc, argv, "test_sha_residue", cases);
}
