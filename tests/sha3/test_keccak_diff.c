/* Differential test of module/sha3's sponge against OpenSSL EVP (SHA3-224/256/384/512,
 * SHAKE128/256): random messages of 0..2000 bytes absorbed in random pieces, squeezed in random
 * pieces to random lengths (SHAKE), must equal OpenSSL's one-shot output. Also the FIPS 202
 * empty-message values (NIST's examples), so that the test does not rest on OpenSSL alone.
 *
 * usage: test_keccak_diff [case]; FIPSMOD_TEST_SEED replays a run (the seed is printed). */
#include <string.h>

#include <openssl/evp.h>

#include "fipsmod/module.h"
#include "module/internal.h"
#include "module/sha3/internal.h"
#include "tests/common/test_util.h"

enum { MAX_MSG = 2000, MAX_OUT = 600, CASES = 3000 };

static void test_empty_messages(void) {
  /* NIST's example values for the empty message (FIPS 202 examples, csrc.nist.gov). */
  uint8_t out[32], want[32];
  sha3_digest(256, NULL, 0, out);
  CHECK(test_hex_decode("a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a", want,
                        sizeof want) == 32);
  CHECK_MEM(out, want, 32);
  shake128(out, 32, NULL, 0);
  CHECK(test_hex_decode("7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26", want,
                        sizeof want) == 32);
  CHECK_MEM(out, want, 32);
}

static const struct {
  const char *name;
  unsigned bits; /* 0 for SHAKE */
  int shake;     /* 128 or 256 */
} k_algs[] = {{"SHA3-224", 224, 0}, {"SHA3-256", 256, 0}, {"SHA3-384", 384, 0},
              {"SHA3-512", 512, 0}, {"SHAKE128", 0, 128}, {"SHAKE256", 0, 256}};

static void test_against_openssl(void) {
  test_rng rng;
  test_rng_seed(&rng, "test_keccak_diff");
  static uint8_t msg[MAX_MSG], got[MAX_OUT], ref[MAX_OUT];
  EVP_MD_CTX *ctx = EVP_MD_CTX_new();
  for (int c = 0; c < CASES && test_failures == 0; c++) {
    size_t a = (size_t)test_rng_below(&rng, sizeof k_algs / sizeof k_algs[0]);
    size_t len = (size_t)test_rng_below(&rng, MAX_MSG + 1);
    size_t out_len = k_algs[a].bits ? k_algs[a].bits / 8 : (size_t)test_rng_below(&rng, MAX_OUT + 1);
    test_rng_bytes(&rng, msg, len);

    keccak_state s;
    if (k_algs[a].bits) sha3_init(&s, k_algs[a].bits);
    else if (k_algs[a].shake == 128) shake128_init(&s);
    else shake256_init(&s);
    for (size_t done = 0; done < len;) {
      size_t n = (size_t)test_rng_below(&rng, len - done + 1);
      keccak_absorb(&s, msg + done, n);
      done += n;
    }
    for (size_t done = 0; done < out_len;) {
      size_t n = k_algs[a].bits ? out_len : (size_t)test_rng_below(&rng, out_len - done + 1);
      keccak_squeeze(&s, got + done, n);
      done += n;
    }
    keccak_wipe(&s);

    const EVP_MD *md = EVP_get_digestbyname(k_algs[a].name);
    CHECK(md != NULL && EVP_DigestInit_ex(ctx, md, NULL) == 1 &&
          EVP_DigestUpdate(ctx, msg, len) == 1);
    if (k_algs[a].bits) {
      unsigned l = 0;
      CHECK(EVP_DigestFinal_ex(ctx, ref, &l) == 1 && l == out_len);
    } else {
      CHECK(EVP_DigestFinalXOF(ctx, ref, out_len) == 1);
    }
    if (memcmp(got, ref, out_len) != 0) {
      fprintf(stderr, "case %d: %s, %zu-byte message, %zu-byte output differs\n", c,
              k_algs[a].name, len, out_len);
      test_failures++;
    }
  }
  EVP_MD_CTX_free(ctx);
}

/* The permutation on the CPU path in use (keccak_f1600, keccak_f1600_x4) equals its portable
 * twin on random states (the seed is printed). Under FIPSMOD_CPU=portable both are the twin. */
static void test_paths_agree(void) {
  test_rng rng;
  test_rng_seed(&rng, "test_keccak_diff.paths_agree");
  static uint64_t fast[4][25], twin[4][25];
  /* The module's start-up (linked in by this reference) chooses the CPU paths. */
  CHECK(fm_module_state() == FM_STATE_OPERATIONAL);
  for (int c = 0; c < 2000; c++) {
    test_rng_bytes(&rng, (uint8_t *)fast, sizeof fast);
    memcpy(twin, fast, sizeof twin);
    keccak_f1600(fast[0]);
    keccak_f1600_portable(twin[0]);
    keccak_f1600_x4(fast);
    for (int i = 0; i < 4; i++) keccak_f1600_portable(twin[i]);
    CHECK_MEM(fast, twin, sizeof fast);
#if defined(__x86_64__)
    /* The AVX2 form too where AVX-512 is what keccak_f1600_x4 takes. */
    if (fm_cpu_use(FM_CPU_AVX2)) {
      keccak_f1600_x4_avx2(fast);
      for (int i = 0; i < 4; i++) keccak_f1600_portable(twin[i]);
      CHECK_MEM(fast, twin, sizeof fast);
    }
#endif
  }
  printf("keccak path: %s\n", keccak_path_name());
}

static const test_case cases[] = {TEST_CASE(empty_messages), TEST_CASE(against_openssl),
                                  TEST_CASE(paths_agree)};

int main(int argc, char **argv) { return TEST_RUN(argc, argv, "test_keccak_diff", cases); }
