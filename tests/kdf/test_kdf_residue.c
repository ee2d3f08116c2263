/* The KDFs leave no secret on the stack below their caller: HKDF (one-shot, extract, expand),
 * PBKDF2 and KBKDF, for HMAC-SHA-256/384/512, on the CPU path in use (registered again with
 * FIPSMOD_CPU=portable). Each case runs one service twice with two random secrets (IKM, PRK,
 * password, key-derivation key) and everything else equal, each time on a stack area zeroed
 * first, and compares what the two runs left below the caller (tests/aes/stack_residue.h): a
 * byte that differs was computed from the secret. The depth each reached is printed, for sizing
 * the wipe the KDF entry points end with. */
#include <string.h>

#include "fipsmod/kdf.h"
#include "fipsmod/module.h"
#include "tests/aes/stack_residue.h"

static uint8_t g_secrets[2][80], g_secret[80], g_out[200];
static const uint8_t k_salt[20] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17};
static const uint8_t k_info[24] = {0xa, 0xb, 0xc};
static fm_hash_alg g_alg;
static size_t g_out_len;

static void setup(int which) { memcpy(g_secret, g_secrets[which], sizeof g_secret); }

static __attribute__((noinline)) void run_hkdf(void) {
  CHECK_EQ_INT(fm_hkdf(g_alg, g_secret, 40, k_salt, sizeof k_salt, k_info, sizeof k_info, g_out,
                       g_out_len),
               FM_OK);
  __asm__ __volatile__("" : : : "memory");
}

static __attribute__((noinline)) void run_extract(void) {
  CHECK_EQ_INT(fm_hkdf_extract(g_alg, k_salt, sizeof k_salt, g_secret, 40, g_out, sizeof g_out),
               FM_OK);
  __asm__ __volatile__("" : : : "memory");
}

static __attribute__((noinline)) void run_expand(void) {
  CHECK_EQ_INT(fm_hkdf_expand(g_alg, g_secret, 64, k_info, sizeof k_info, g_out, g_out_len), FM_OK);
  __asm__ __volatile__("" : : : "memory");
}

static __attribute__((noinline)) void run_pbkdf2(void) {
  CHECK_EQ_INT(fm_pbkdf2_hmac(g_alg, g_secret, 20, k_salt, 16, 1100, g_out, g_out_len), FM_OK);
  __asm__ __volatile__("" : : : "memory");
}

static __attribute__((noinline)) void run_kbkdf(void) {
  CHECK_EQ_INT(fm_kbkdf_ctr_hmac(g_alg, g_secret, 32, k_info, sizeof k_info, 0, 32, g_out,
                                 g_out_len),
               FM_OK);
  __asm__ __volatile__("" : : : "memory");
}

static void check_services(const char *path, size_t *depth) {
  static const fm_hash_alg algs[] = {FM_HASH_SHA256, FM_HASH_SHA384, FM_HASH_SHA512};
  static const char *const names[] = {"SHA-256", "SHA-384", "SHA-512"};
  static const struct {
    const char *name;
    residue_run_fn run;
  } services[] = {{"fm_hkdf", run_hkdf},
                  {"fm_hkdf_extract", run_extract},
                  {"fm_hkdf_expand", run_expand},
                  {"fm_pbkdf2_hmac", run_pbkdf2},
                  {"fm_kbkdf_ctr_hmac", run_kbkdf}};
  for (size_t a = 0; a < 3; a++) {
    g_alg = algs[a];
    /* First use runs the self-tests, which the second run would not: once beforehand. */
    g_out_len = 100;
    for (size_t s = 0; s < sizeof services / sizeof services[0]; s++) services[s].run();
    for (size_t s = 0; s < sizeof services / sizeof services[0]; s++) {
      g_out_len = 100;
      char what[96];
      snprintf(what, sizeof what, "%s: %s, HMAC-%s", path, services[s].name, names[a]);
      CHECK_EQ_INT(residue_differing(setup, services[s].run, what), 0);
      const size_t d = residue_depth(setup, services[s].run);
      if (d > *depth) *depth = d;
    }
  }
}

static void test_stack(void) { residue_check_path(fm_module_cpu_paths(), check_services); }

static void test_scan_sees_residue(void) { residue_self_check(); }

static const test_case cases[] = {
  TEST_CASE(stack),
  TEST_CASE(scan_sees_residue),
};

int main(int argc, char **argv) {
  test_rng rng;
  test_rng_seed(&rng, "test_kdf_residue");
  test_rng_bytes(&rng, g_secrets, sizeof g_secrets);
  return TEST_RUN(argc, argv, "test_kdf_residue", cases);
}
