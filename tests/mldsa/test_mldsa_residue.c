/* The ML-DSA services leave no secret on the stack below their caller, for ML-DSA-44, -65 and -87
 * on the CPU path in use (registered again with FIPSMOD_CPU=portable): signing (pure, with a
 * fixed rnd; and from mu) with one of two private keys, and key generation from one of two
 * seeds, everything else equal. Each run works on a stack area zeroed first, and the two runs'
 * areas are compared (tests/aes/stack_residue.h): a byte that differs was computed from a
 * secret. Without module/mldsa/mldsa_stack_wipe.c's wipe, signing left up to 368 such bytes,
 * 0.8-1.7 KiB below the caller. */
#include <string.h>

#include "fipsmod/mldsa.h"
#include "fipsmod/module.h"
#include "module/mldsa/internal.h"

/* The scan reaches 8 KiB beyond the wipe, so that a frame deeper than the wipe leaves secrets
 * where the scan sees them. */
#define RESIDUE_SCAN (MLDSA_STACK_WIPE_KEYGEN + 8192)
#include "tests/aes/stack_residue.h"

static fm_mldsa_param g_param;
static uint8_t g_sks[2][FM_MLDSA_87_PRIVATE_KEY_LEN], g_sk[FM_MLDSA_87_PRIVATE_KEY_LEN];
static uint8_t g_pk[FM_MLDSA_87_PUBLIC_KEY_LEN], g_sig[FM_MLDSA_87_SIGNATURE_LEN];
static uint8_t g_seeds[2][32], g_seed[32], g_msg[48], g_rnd[32], g_mu[64];
static size_t g_sk_len, g_pk_len, g_len;

static void setup_sk(int which) { memcpy(g_sk, g_sks[which], sizeof g_sk); }
static void setup_seed(int which) { memcpy(g_seed, g_seeds[which], sizeof g_seed); }

static __attribute__((noinline)) void run_sign(void) {
  CHECK_EQ_INT(fm_mldsa_sign_with_rnd(g_param, g_sk, g_sk_len, FM_MLDSA_PH_NONE, g_msg, sizeof g_msg,
                                      NULL, 0, g_rnd, g_sig, sizeof g_sig, &g_len),
               FM_OK);
  __asm__ __volatile__("" : : : "memory");
}

static __attribute__((noinline)) void run_sign_mu(void) {
  CHECK_EQ_INT(fm_mldsa_sign_mu(g_param, g_sk, g_sk_len, g_mu, g_rnd, g_sig, sizeof g_sig, &g_len),
               FM_OK);
  __asm__ __volatile__("" : : : "memory");
}

static __attribute__((noinline)) void run_keygen(void) {
  CHECK_EQ_INT(fm_mldsa_keygen_from_seed(g_param, g_seed, g_pk, g_pk_len, g_sk, g_sk_len), FM_OK);
  __asm__ __volatile__("" : : : "memory");
}

static void check_services(const char *path, size_t *depth) {
  static const struct {
    fm_mldsa_param param;
    size_t pk_len, sk_len;
  } sets[] = {{FM_MLDSA_44, FM_MLDSA_44_PUBLIC_KEY_LEN, FM_MLDSA_44_PRIVATE_KEY_LEN},
              {FM_MLDSA_65, FM_MLDSA_65_PUBLIC_KEY_LEN, FM_MLDSA_65_PRIVATE_KEY_LEN},
              {FM_MLDSA_87, FM_MLDSA_87_PUBLIC_KEY_LEN, FM_MLDSA_87_PRIVATE_KEY_LEN}};
  static const struct {
    const char *name;
    residue_setup_fn setup;
    residue_run_fn run;
  } services[] = {{"fm_mldsa_sign_with_rnd", setup_sk, run_sign},
                  {"fm_mldsa_sign_mu", setup_sk, run_sign_mu},
                  {"fm_mldsa_keygen_from_seed", setup_seed, run_keygen}};
  test_rng rng;
  test_rng_seed(&rng, "test_mldsa_residue");
  test_rng_bytes(&rng, g_seeds, sizeof g_seeds);
  test_rng_bytes(&rng, g_msg, sizeof g_msg);
  test_rng_bytes(&rng, g_rnd, sizeof g_rnd);
  test_rng_bytes(&rng, g_mu, sizeof g_mu);
  for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
    g_param = sets[i].param;
    g_pk_len = sets[i].pk_len;
    g_sk_len = sets[i].sk_len;
    for (int k = 0; k < 2; k++)
      CHECK_EQ_INT(fm_mldsa_keygen_from_seed(g_param, g_seeds[k], g_pk, g_pk_len, g_sks[k],
                                             g_sk_len),
                   FM_OK);
    for (size_t s = 0; s < sizeof services / sizeof services[0]; s++) {
      /* First use runs the self-tests, which the second run would not: once beforehand. */
      services[s].setup(0);
      services[s].run();
      char what[320];
      snprintf(what, sizeof what, "%s: %s, ML-DSA-%d", path, services[s].name, (int)g_param);
      CHECK_EQ_INT(residue_differing(services[s].setup, services[s].run, what), 0);
      const size_t d = residue_depth(services[s].setup, services[s].run);
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

int main(int argc, char **argv) { return TEST_RUN(argc, argv, "test_mldsa_residue", cases); }
