/* The RSA private-key services leave no secret on the stack below their caller, on the CPU path in
 * use (registered again with FIPSMOD_CPU=portable): PKCS#1 v1.5 signing (from the digest) and
 * RSADP on one of two inputs with one 2048-bit key (every intermediate of the private exponentiation is derived
 * from the key), and key generation (two runs draw different primes). Each run works on a stack
 * area zeroed first, and the two runs' areas are compared (tests/aes/stack_residue.h): a byte
 * that differs was computed from a secret. Without module/rsa/rsa_stack_wipe.c's wipe, signing
 * left 143 such bytes, 19-34 KiB below the caller. */
#include <string.h>

#include "fipsmod/module.h"
#include "fipsmod/rsa.h"
#include "module/rsa/internal.h"

/* The scan reaches 8 KiB beyond the wipe, so that a frame deeper than the wipe leaves secrets
 * where the scan sees them. */
#define RESIDUE_SCAN (RSA_STACK_WIPE + 8192)
#include "tests/aes/stack_residue.h"

static fm_rsa_key *g_key;
static uint8_t g_inputs[2][256], g_input[256], g_out[512];
static size_t g_len;

static void setup_input(int which) { memcpy(g_input, g_inputs[which], sizeof g_input); }
static void setup_none(int which) { (void)which; }

/* Signing from the digest (what fm_rsa_sign_pkcs1v15 does after hashing the message): the two
 * runs differ in the digest, a public input, so that only the private-key operation's values can
 * differ; hashing two public messages would leave their hash states, which are not secret. */
static __attribute__((noinline)) void run_sign(void) {
  CHECK_EQ_INT(rsa_sign_pkcs1v15_digest(g_key, FM_HASH_SHA256, g_input, g_out), FM_OK);
  __asm__ __volatile__("" : : : "memory");
}

static __attribute__((noinline)) void run_rsadp(void) {
  CHECK_EQ_INT(fm_rsa_rsadp(g_key, g_input, sizeof g_input, g_out, sizeof g_out, &g_len), FM_OK);
  __asm__ __volatile__("" : : : "memory");
}

static __attribute__((noinline)) void run_keygen(void) {
  fm_rsa_key *k = NULL;
  CHECK_EQ_INT(fm_rsa_key_generate(2048, &k), FM_OK);
  CHECK_EQ_INT(fm_rsa_key_free(k), FM_OK);
  *(fm_rsa_key *volatile *)&k = NULL; /* the freed key's address, which may differ, off the stack */
  __asm__ __volatile__("" : : : "memory");
}

/* ASan's allocator never hands a freed block straight back, so key generation's two runs hold
 * their keys at different addresses, which show as residue: that comparison runs in the
 * uninstrumented builds (the release and clang presets), where the module ships. */
#if defined(__SANITIZE_ADDRESS__)
#define RSA_RESIDUE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RSA_RESIDUE_ASAN 1
#endif
#endif

static void check_services(const char *path, size_t *depth) {
  static const struct {
    const char *name;
    residue_setup_fn setup;
    residue_run_fn run;
  } services[] = {{"rsa_sign_pkcs1v15_digest", setup_input, run_sign},
                  {"fm_rsa_rsadp", setup_input, run_rsadp},
                  {"fm_rsa_key_generate", setup_none, run_keygen}};
  test_rng rng;
  test_rng_seed(&rng, "test_rsa_residue");
  test_rng_bytes(&rng, g_inputs, sizeof g_inputs);
  for (int k = 0; k < 2; k++) g_inputs[k][0] &= 0x3f; /* below n (n's top bit is set) */
  CHECK_EQ_INT(fm_rsa_key_generate(2048, &g_key), FM_OK);
  for (size_t s = 0; s < sizeof services / sizeof services[0]; s++) {
#if defined(RSA_RESIDUE_ASAN)
    if (services[s].run == run_keygen) {
      printf("test_rsa_residue.stack: %s not under ASan (its allocator moves the keys)\n",
             services[s].name);
      continue;
    }
#endif
    /* First use runs the self-tests, which the second run would not: once beforehand. */
    services[s].setup(0);
    services[s].run();
    char what[320];
    snprintf(what, sizeof what, "%s: %s, 2048 bits", path, services[s].name);
    CHECK_EQ_INT(residue_differing(services[s].setup, services[s].run, what), 0);
    const size_t d = residue_depth(services[s].setup, services[s].run);
    if (d > *depth) *depth = d;
  }
  CHECK_EQ_INT(fm_rsa_key_free(g_key), FM_OK);
}

static void test_stack(void) { residue_check_path(fm_module_cpu_paths(), check_services); }

static void test_scan_sees_residue(void) { residue_self_check(); }

static const test_case cases[] = {
    TEST_CASE(stack),
    TEST_CASE(scan_sees_residue),
};

int main(int argc, char **argv) { return TEST_RUN(argc, argv, "test_rsa_residue", cases); }
