/* The EC services leave no secret on the stack below their caller, on P-256, P-384 and P-521 and
 * on the CPU path in use (registered again with FIPSMOD_CPU=portable): ECDH and deterministic
 * ECDSA signing with one of two private keys (everything else equal), the import of one of two
 * private scalars (which computes Q = dG), and key generation and randomized signing (two runs
 * draw different secrets). Each run works on a stack area zeroed first, and the two runs' areas
 * are compared (tests/aes/stack_residue.h): a byte that differs was computed from a secret. The
 * key objects are freed and made again between runs, so that the heap hands back the same
 * address and no pointer differs. Without module/ec/ec_stack_wipe.c's wipes, each of these
 * services but ECDH on the ADX path left hundreds of such bytes, down to 13 KiB below the
 * service (28 KiB for key generation with clang). The deepest write is printed (the wipes' own
 * included). Not under ASan (see test_stack). */
#include <string.h>

#include "fipsmod/ec.h"
#include "fipsmod/module.h"
#include "module/ec/internal.h"

/* The scan reaches 8 KiB beyond the deeper EC wipe, so that a frame deeper than the wipe leaves
 * secrets where the scan sees them. */
#define RESIDUE_SCAN (EC_STACK_WIPE_KEYGEN + 8192)
#include "tests/aes/stack_residue.h"

static fm_ec_curve g_curve;
static uint8_t g_d[2][66], g_scalar[66], g_peer[133], g_digest[32], g_sig[132], g_z[66];
static size_t g_peer_len, g_len;
static fm_ec_key *g_key;
static const fm_ec_key *g_key_addr;

/* A private key that stays at one address: the key of the run's secret, made again each time
 * (the allocator may alternate between two free blocks: it is made again until it lands where
 * the comparison's first key was). */
static void make_key(int which) {
  for (int tries = 0; tries < 4; tries++) {
    if (g_key != NULL) CHECK_EQ_INT(fm_ec_key_free(g_key), FM_OK);
    g_key = NULL;
    CHECK_EQ_INT(fm_ec_key_import_private(g_curve, g_d[which], fm_ec_curve_bytes(g_curve), NULL,
                                          0, &g_key),
                 FM_OK);
    if (g_key_addr == NULL) g_key_addr = g_key;
    if (g_key == g_key_addr) break;
  }
  CHECK(g_key == g_key_addr);
}

static void setup_key(int which) { make_key(which); }
static void setup_scalar(int which) { memcpy(g_scalar, g_d[which], sizeof g_scalar); }
static void setup_none(int which) {
  (void)which;
  make_key(0);
}

static __attribute__((noinline)) void run_ecdh(void) {
  CHECK_EQ_INT(fm_ecdh(g_key, g_peer, g_peer_len, g_z, sizeof g_z, &g_len), FM_OK);
  __asm__ __volatile__("" : : : "memory");
}

static __attribute__((noinline)) void run_sign_det(void) {
  CHECK_EQ_INT(fm_ecdsa_sign_deterministic_digest(g_key, FM_HASH_SHA256, g_digest,
                                                  sizeof g_digest, g_sig, sizeof g_sig, &g_len),
               FM_OK);
  __asm__ __volatile__("" : : : "memory");
}

static __attribute__((noinline)) void run_sign(void) {
  CHECK_EQ_INT(fm_ecdsa_sign_digest(g_key, g_digest, sizeof g_digest, g_sig, sizeof g_sig, &g_len),
               FM_OK);
  __asm__ __volatile__("" : : : "memory");
}

static __attribute__((noinline)) void run_import(void) {
  fm_ec_key *k = NULL;
  CHECK_EQ_INT(fm_ec_key_import_private(g_curve, g_scalar, fm_ec_curve_bytes(g_curve), NULL, 0,
                                        &k),
               FM_OK);
  CHECK_EQ_INT(fm_ec_key_free(k), FM_OK);
  *(fm_ec_key *volatile *)&k = NULL; /* the freed key's address, which may differ, off the stack */
  __asm__ __volatile__("" : : : "memory");
}

static __attribute__((noinline)) void run_generate(void) {
  fm_ec_key *k = NULL;
  CHECK_EQ_INT(fm_ec_key_generate(g_curve, &k), FM_OK);
  CHECK_EQ_INT(fm_ec_key_free(k), FM_OK);
  *(fm_ec_key *volatile *)&k = NULL;
  __asm__ __volatile__("" : : : "memory");
}

static void check_services(const char *path, size_t *depth) {
  static const fm_ec_curve curves[] = {FM_EC_P256, FM_EC_P384, FM_EC_P521};
  static const struct {
    const char *name;
    residue_setup_fn setup;
    residue_run_fn run;
  } services[] = {{"fm_ecdh", setup_key, run_ecdh},
                  {"fm_ecdsa_sign_deterministic_digest", setup_key, run_sign_det},
                  {"fm_ecdsa_sign_digest", setup_none, run_sign},
                  {"fm_ec_key_import_private", setup_scalar, run_import},
                  {"fm_ec_key_generate", setup_none, run_generate}};
  for (size_t c = 0; c < sizeof curves / sizeof curves[0]; c++) {
    g_curve = curves[c];
    const size_t n = fm_ec_curve_bytes(g_curve);
    test_rng rng;
    test_rng_seed(&rng, "test_ec_residue");
    for (int k = 0; k < 2; k++) {
      test_rng_bytes(&rng, g_d[k], n);
      g_d[k][0] &= 0x7f; /* below n on every curve */
      if (g_curve == FM_EC_P521) g_d[k][0] &= 1;
    }
    /* glibc's calloc (the module's key allocation) passes over its per-thread cache of freed
     * blocks, which free fills first: eight keys freed here fill the cache's bin for the key's
     * size, so that a key freed later goes where the next calloc finds it again. */
    fm_ec_key *spare[8];
    for (int k = 0; k < 8; k++)
      CHECK_EQ_INT(fm_ec_key_import_private(g_curve, g_d[0], n, NULL, 0, &spare[k]), FM_OK);
    for (int k = 0; k < 8; k++) CHECK_EQ_INT(fm_ec_key_free(spare[k]), FM_OK);
    fm_ec_key *peer = NULL;
    CHECK_EQ_INT(fm_ec_key_generate(g_curve, &peer), FM_OK);
    CHECK_EQ_INT(fm_ec_key_export_public(peer, 0, g_peer, sizeof g_peer, &g_peer_len), FM_OK);
    CHECK_EQ_INT(fm_ec_key_free(peer), FM_OK);
    for (size_t s = 0; s < sizeof services / sizeof services[0]; s++) {
      /* First use runs the self-tests, which the second run would not: once beforehand. */
      services[s].setup(0);
      services[s].run();
      g_key_addr = NULL; /* the key's address must stay the same within a comparison */
      char what[320];
      snprintf(what, sizeof what, "%s: %s, curve %d", path, services[s].name, (int)g_curve);
      CHECK_EQ_INT(residue_differing(services[s].setup, services[s].run, what), 0);
      const size_t d = residue_depth(services[s].setup, services[s].run);
      if (d > *depth) *depth = d;
    }
    if (g_key != NULL) CHECK_EQ_INT(fm_ec_key_free(g_key), FM_OK);
    g_key = NULL;
  }
}

/* ASan's allocator never hands a freed key's block straight back, so the two runs' key pointers
 * differ and show as residue: the comparison runs in the uninstrumented builds (the release and
 * clang presets), where the module ships. */
#if defined(__SANITIZE_ADDRESS__)
#define EC_RESIDUE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define EC_RESIDUE_ASAN 1
#endif
#endif

static void test_stack(void) {
#if defined(EC_RESIDUE_ASAN)
  printf("test_ec_residue.stack: not under ASan (its allocator moves the keys), nothing to compare\n");
  (void)check_services;
  (void)residue_check_path;
#else
  residue_check_path(fm_module_cpu_paths(), check_services);
#endif
}

static void test_scan_sees_residue(void) { residue_self_check(); }

static const test_case cases[] = {
    TEST_CASE(stack),
    TEST_CASE(scan_sees_residue),
};

int main(int argc, char **argv) { return TEST_RUN(argc, argv, "test_ec_residue", cases); }
