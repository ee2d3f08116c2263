/* The fused short generates leave no secret on the stack: after aes_ni_drbg_generate_small (on
 * 128-bit AES-NI registers) and aes_vaes_drbg_generate_small (on 256-bit VAES registers), both of
 * which expand Key on the fly, for 0..64-byte requests with and without provided data, the stack
 * below the caller holds no 16-byte round key of the old or the new Key, no output block and no
 * half of the new Key or V. The kernels run on CPUs with AES-NI (and VAES for the second); where
 * the CPU lacks them the test checks only that it can tell (it reports what it skipped).
 *
 * The stack is read by a function whose frame lies where the kernels' frames were (called from
 * the same function at the same depth). Its local array is not initialized: an empty asm that
 * claims to write it makes the compiler copy what is there. */
#include <stdlib.h>
#include <string.h>

#include "module/aes/internal.h"
#include "module/internal.h"
#include "tests/common/test_util.h"

/* The scan covers the kernels' stack wipe and 4 KiB beyond it, so that a kernel frame larger
 * than the wipe leaves secrets where the scan sees them. */
#define SCAN (AES_DRBG_STACK_WIPE + 4096)

static uint8_t g_key[32], g_v[16], g_out[64], g_provided[48];
static aes_ks g_ks;

/* The secrets to look for: up to 15 + 15 round keys, 4 output blocks, 3 update blocks. */
static uint8_t g_secret[40][16];
static int g_nsecret;

static void add_secret(const uint8_t *p) {
  memcpy(g_secret[g_nsecret++], p, 16);
}

static __attribute__((noinline)) void run_kernel(int vaes, size_t len, int with_provided) {
  if (vaes) {
    aes_vaes_drbg_generate_small(g_v, g_key, g_out, len, with_provided ? g_provided : NULL);
  } else {
    aes_ni_drbg_generate_small(g_v, g_key, g_out, len, with_provided ? g_provided : NULL);
  }
  __asm__ __volatile__("" : : : "memory");
}

static __attribute__((noinline)) void snapshot(uint8_t *dst) {
  uint8_t area[SCAN];
  __asm__ __volatile__("" : : "r"(area) : "memory");
  memcpy(dst, area, sizeof(area));
  __asm__ __volatile__("" : : "r"(area) : "memory");
}

/* leave_in_frame copies |secret| into its own frame, several times, and returns without wiping. */
static __attribute__((noinline)) void leave_in_frame(const uint8_t secret[16]) {
  volatile uint8_t frame[256];
  for (size_t i = 0; i < sizeof(frame); i++) frame[i] = secret[i % 16];
  __asm__ __volatile__("" : : "r"(frame) : "memory");
}

/* found_in returns how many of the secrets occur anywhere (any byte offset) in |mem|. */
static int found_in(const uint8_t *mem, size_t len) {
  int hits = 0;
  for (int s = 0; s < g_nsecret; s++) {
    for (size_t off = 0; off + 16 <= len; off++) {
      if (memcmp(mem + off, g_secret[s], 16) == 0) {
        hits++;
        break;
      }
    }
  }
  return hits;
}

static int check_one(int vaes, size_t len, int with_provided, uint8_t *scan) {
  /* A fresh, non-trivial state each time. */
  for (size_t i = 0; i < sizeof(g_key); i++) g_key[i] = (uint8_t)(rand() >> 7);
  for (size_t i = 0; i < sizeof(g_v); i++) g_v[i] = (uint8_t)(rand() >> 7);
  for (size_t i = 0; i < sizeof(g_provided); i++) g_provided[i] = (uint8_t)(rand() >> 7);
  aes_ks_init_encrypt(&g_ks, g_key, sizeof(g_key));
  g_nsecret = 0;
  for (int r = 2; r < 15; r++) add_secret((const uint8_t *)g_ks.words + 16 * r);
  run_kernel(vaes, len, with_provided);
  snapshot(scan);
  /* Output blocks, the new Key (and its round keys) and V. */
  for (size_t b = 0; b + 16 <= len; b += 16) add_secret(g_out + b);
  add_secret(g_key);
  add_secret(g_key + 16);
  add_secret(g_v);
  aes_ks fresh;
  aes_ks_init_encrypt(&fresh, g_key, sizeof(g_key));
  for (int r = 2; r < 15; r++) add_secret((const uint8_t *)fresh.words + 16 * r);
  aes_ks_wipe(&fresh);
  int hits = found_in(scan, SCAN);
  if (hits != 0) {
    fprintf(stderr, "%s kernel, %zu bytes, provided %d: %d secrets left on the stack\n",
            vaes ? "VAES" : "AES-NI", len, with_provided, hits);
  }
  return hits;
}

int main(void) {
  static uint8_t scan[SCAN];
  srand(20261129);
  int kernels = 0;
  for (int vaes = 0; vaes <= 1; vaes++) {
    const bool have = vaes ? fm_cpu_use(FM_CPU_AESNI | FM_CPU_VAES) : fm_cpu_use(FM_CPU_AESNI);
    if (!have) {
      fprintf(stderr, "%s kernel: CPU path not in use here, skipped\n", vaes ? "VAES" : "AES-NI");
      continue;
    }
    kernels++;
    for (size_t len = 0; len <= 64; len += 8) {
      for (int p = 0; p <= 1; p++) CHECK_EQ_INT(check_one(vaes, len, p, scan), 0);
    }
  }
  fprintf(stderr, "%d fused kernel(s) checked\n", kernels);
  /* The scan must see what a returned function left in its frame: without that, a pass above
   * would mean nothing. */
  g_nsecret = 0;
  uint8_t planted[16];
  for (int i = 0; i < 16; i++) planted[i] = (uint8_t)(0xa5 ^ (i * 29));
  add_secret(planted);
  leave_in_frame(planted);
  snapshot(scan);
  CHECK_EQ_INT(found_in(scan, SCAN), 1);
  return test_main_result("test_drbg_stack");
}
