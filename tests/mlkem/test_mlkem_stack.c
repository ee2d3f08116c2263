/* The ML-KEM services leave no secret on the stack below their caller (the project standard:
 * stack intermediates are CSPs, and the compiler spills polynomials and hash states to slots
 * that no fm_zeroize of a named local reaches; mlkem_service.c wipes the stack below it after
 * computing).
 *
 * Each case runs one service twice with two different secrets and the same public inputs, at the
 * same buffer addresses, each time on a stack area filled first, and compares what the runs left
 * below the caller: a byte that differs was computed from the secret.
 *   - Decaps: two dk that share ek and H(ek) but differ in dk_pke (s-hat) and z, on one
 *     ciphertext (so m', r', K' and K-bar all differ);
 *   - Encaps_internal: one ek, two messages m.
 * Key generation runs the same wipe but is not compared here: two seeds give two public
 * matrices, whose spills would differ without being secret. The deepest stack use is printed
 * (it is the wipe's own, MLKEM_STACK_WIPE, once the wipe runs). All three parameter sets;
 * registered again with FIPSMOD_CPU=portable. */
#include <stdio.h>
#include <string.h>

#include "fipsmod/mlkem.h"
#include "tests/common/test_util.h"

enum { SCAN = 64 * 1024 };

static __attribute__((noinline, no_sanitize_address)) void fill_area(uint8_t value) {
  volatile uint8_t area[SCAN];
  for (size_t i = 0; i < sizeof area; i++) area[i] = value;
  __asm__ __volatile__("" : : "r"(area) : "memory");
}

static __attribute__((noinline, no_sanitize_address)) void snapshot(uint8_t *dst) {
  uint8_t area[SCAN];
  __asm__ __volatile__("" : : "r"(area) : "memory");
  const volatile uint8_t *src = area;
  for (size_t i = 0; i < sizeof area; i++) dst[i] = src[i];
  __asm__ __volatile__("" : : "r"(area) : "memory");
}

static uint8_t g_scan[2][SCAN];

static __attribute__((noinline)) void one_run(void (*run)(void), uint8_t fill, uint8_t *dst) {
  TEST_ZERO_GENERAL_REGISTERS();
  fill_area(fill);
  run();
  snapshot(dst);
  __asm__ __volatile__("" : : : "memory");
}

/* The service's inputs and outputs, at fixed addresses. */
static fm_mlkem_param g_p;
static size_t g_ek_n, g_dk_n, g_ct_n;
static uint8_t g_seed[64], g_m[32], g_ss[32];
static uint8_t g_ek[FM_MLKEM_MAX_EK_LEN], g_dk[FM_MLKEM_MAX_DK_LEN], g_ct[FM_MLKEM_MAX_CT_LEN];
static uint8_t g_dk_sec[2][FM_MLKEM_MAX_DK_LEN], g_m_sec[2][32];

static __attribute__((noinline)) void run_decaps(void) {
  CHECK(fm_mlkem_decaps(g_p, g_dk, g_dk_n, g_ct, g_ct_n, g_ss, 32) == FM_OK);
}
static __attribute__((noinline)) void run_encaps(void) {
  CHECK(fm_mlkem_encaps_internal(g_p, g_ek, g_ek_n, g_m, 32, g_ct, g_ct_n, g_ss, 32) == FM_OK);
}

/* differing: runs |run| after |setup|(0) and (1) and returns the bytes that differ. */
static size_t differing(void (*setup)(int), void (*run)(void), const char *what) {
  for (int k = 0; k < 2; k++) {
    setup(k);
    one_run(run, 0, g_scan[k]);
  }
  size_t n = 0, deepest = 0;
  for (size_t i = 0; i < SCAN; i++) {
    if (g_scan[0][i] != g_scan[1][i]) {
      if (n == 0) deepest = SCAN - i;
      n++;
    }
  }
  if (n) fprintf(stderr, "%s: %zu secret-dependent bytes, down to %zu below the caller\n", what, n,
                 deepest);
  return n;
}

/* depth: how far below the caller |run| wrote (two fills). */
static size_t depth(void (*setup)(int), void (*run)(void)) {
  setup(0);
  one_run(run, 0x00, g_scan[0]);
  setup(0);
  one_run(run, 0xff, g_scan[1]);
  for (size_t i = 0; i < SCAN; i++)
    if (g_scan[0][i] != 0x00 || g_scan[1][i] != 0xff) return SCAN - i;
  return 0;
}

static void setup_decaps(int k) { memcpy(g_dk, g_dk_sec[k], g_dk_n); }
static void setup_encaps(int k) { memcpy(g_m, g_m_sec[k], 32); }

static void run_set(fm_mlkem_param p) {
  g_p = p;
  CHECK(fm_mlkem_sizes(p, &g_ek_n, &g_dk_n, &g_ct_n) == FM_OK);
  for (int i = 0; i < 64; i++) g_seed[i] = (uint8_t)(3 * i + 1);
  CHECK(fm_mlkem_keygen_from_seed(p, g_seed, 64, g_ek, g_ek_n, g_dk_sec[0], g_dk_n) == FM_OK);
  /* The second dk: the same ek and H(ek), another s-hat (12-bit values below q) and z. */
  memcpy(g_dk_sec[1], g_dk_sec[0], g_dk_n);
  const size_t pke = g_dk_n - g_ek_n - 64;
  for (size_t i = 0; i < pke; i += 3) {
    g_dk_sec[1][i] = (uint8_t)(i * 7);
    g_dk_sec[1][i + 1] = (uint8_t)((i * 13) & 0x0f);
    g_dk_sec[1][i + 2] = (uint8_t)(i * 5 & 0x7f);
  }
  for (size_t i = 0; i < 32; i++) g_dk_sec[1][g_dk_n - 32 + i] ^= 0x5a;
  for (int i = 0; i < 32; i++) {
    g_m_sec[0][i] = (uint8_t)i;
    g_m_sec[1][i] = (uint8_t)(0xa5 ^ (i * 11));
  }
  memcpy(g_m, g_m_sec[0], 32);
  run_encaps(); /* a valid ciphertext of dk 0 */
  char what[64];
  snprintf(what, sizeof what, "ML-KEM-%d decaps", (int)p);
  CHECK(differing(setup_decaps, run_decaps, what) == 0);
  fprintf(stderr, "%s: deepest stack use %zu bytes\n", what, depth(setup_decaps, run_decaps));
  snprintf(what, sizeof what, "ML-KEM-%d encaps_internal", (int)p);
  CHECK(differing(setup_encaps, run_encaps, what) == 0);
  fprintf(stderr, "%s: deepest stack use %zu bytes\n", what, depth(setup_encaps, run_encaps));
}

static void test_mlkem512(void) { run_set(FM_MLKEM_512); }
static void test_mlkem768(void) { run_set(FM_MLKEM_768); }
static void test_mlkem1024(void) { run_set(FM_MLKEM_1024); }

static const test_case cases[] = {TEST_CASE(mlkem512), TEST_CASE(mlkem768), TEST_CASE(mlkem1024)};

int main(int argc, char **argv) { return TEST_RUN(argc, argv, "test_mlkem_stack", cases); }
