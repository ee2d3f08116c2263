/* Differential test against OpenSSL EVP: every hash of sha.h ("sha": SHA-224 ... SHA-512/256,
 * SHA3-224 ... SHA3-512) or HMAC with each ("hmac"), 100,000 random cases per algorithm by
 * default for SHA-256/384/512 and a fifth of that for the others. Each case takes a message of random
 * length 0..10000 (and for HMAC a key of random length 0..200), computes it with fipsmod's one-shot
 * call and with its incremental calls fed in random splits (empty pieces included), and with
 * OpenSSL fed in other random splits; all three must agree.
 *
 * usage: test_sha_diff sha|hmac [cases] (FIPSMOD_DIFF_DIVISOR divides the default: test_util.h);
 * FIPSMOD_TEST_SEED replays a run (the seed is printed). */
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "fipsmod/hmac.h"
#include "fipsmod/sha.h"
#include "tests/common/test_util.h"

enum { MAX_MSG = 10000, MAX_KEY = 200, POOL = 1 << 20, MAX_PIECES = 8 };

#define N_ALGS 10
static const fm_hash_alg k_algs[N_ALGS] = {
    FM_HASH_SHA256,     FM_HASH_SHA384,   FM_HASH_SHA512,   FM_HASH_SHA224,   FM_HASH_SHA512_224,
    FM_HASH_SHA512_256, FM_HASH_SHA3_224, FM_HASH_SHA3_256, FM_HASH_SHA3_384, FM_HASH_SHA3_512};
/* OpenSSL's names, for EVP_get_digestbyname and the HMAC "digest" parameter. */
static const char *const k_names[N_ALGS] = {"SHA256",     "SHA384",   "SHA512",   "SHA224",
                                            "SHA512-224", "SHA512-256", "SHA3-224", "SHA3-256",
                                            "SHA3-384",   "SHA3-512"};

/* random_cuts fills cuts[0..n] with 0 = cuts[0] <= ... <= cuts[n] = len for a random n in
 * 1..MAX_PIECES, and returns n. Cut points are drawn uniformly, so pieces of every size, empty
 * ones and ones that straddle block boundaries all occur. */
static size_t random_cuts(test_rng *rng, size_t len, size_t cuts[MAX_PIECES + 1]) {
  size_t n = 1 + (size_t)test_rng_below(rng, MAX_PIECES);
  cuts[0] = 0;
  cuts[n] = len;
  for (size_t i = 1; i < n; i++) cuts[i] = (size_t)test_rng_below(rng, len + 1);
  /* Insertion sort of the interior points. */
  for (size_t i = 2; i < n; i++) {
    for (size_t j = i; j > 1 && cuts[j - 1] > cuts[j]; j--) {
      size_t t = cuts[j];
      cuts[j] = cuts[j - 1];
      cuts[j - 1] = t;
    }
  }
  return n;
}

/* One SHA case: returns 1 when fipsmod (one-shot and incremental) and OpenSSL agree. */
static int sha_case(test_rng *rng, int a, const uint8_t *msg, size_t len, EVP_MD_CTX *md_ctx,
                    const EVP_MD *md) {
  uint8_t one[64], inc[64], ref[64];
  size_t cuts[MAX_PIECES + 1];
  size_t dl = 0;
  unsigned ref_len = 0;
  fm_sha_ctx ctx;
  int ok = fm_hash_digest_len(k_algs[a], &dl) == FM_OK;

  ok = ok && fm_sha_digest(k_algs[a], msg, len, one, sizeof one) == FM_OK;

  size_t n = random_cuts(rng, len, cuts);
  ok = ok && fm_sha_init(&ctx, k_algs[a]) == FM_OK;
  for (size_t i = 0; ok && i < n; i++) {
    ok = fm_sha_update(&ctx, msg + cuts[i], cuts[i + 1] - cuts[i]) == FM_OK;
  }
  ok = ok && fm_sha_final(&ctx, inc, sizeof inc) == FM_OK;

  n = random_cuts(rng, len, cuts);
  ok = ok && EVP_DigestInit_ex(md_ctx, md, NULL) == 1;
  for (size_t i = 0; ok && i < n; i++) {
    ok = EVP_DigestUpdate(md_ctx, msg + cuts[i], cuts[i + 1] - cuts[i]) == 1;
  }
  ok = ok && EVP_DigestFinal_ex(md_ctx, ref, &ref_len) == 1 && ref_len == dl;

  return ok && memcmp(one, ref, dl) == 0 && memcmp(inc, ref, dl) == 0;
}

/* One HMAC case, against EVP_MAC "HMAC". */
static int hmac_case(test_rng *rng, int a, const uint8_t *key, size_t key_len, const uint8_t *msg,
                     size_t len, EVP_MAC_CTX *mac_ctx) {
  uint8_t one[64], inc[64], ref[64];
  size_t cuts[MAX_PIECES + 1];
  size_t dl = 0, ref_len = 0;
  fm_hmac_ctx ctx;
  int ok = fm_hash_digest_len(k_algs[a], &dl) == FM_OK;

  ok = ok && fm_hmac(k_algs[a], key, key_len, msg, len, one, sizeof one) == FM_OK;

  size_t n = random_cuts(rng, len, cuts);
  ok = ok && fm_hmac_init(&ctx, k_algs[a], key, key_len) == FM_OK;
  for (size_t i = 0; ok && i < n; i++) {
    ok = fm_hmac_update(&ctx, msg + cuts[i], cuts[i + 1] - cuts[i]) == FM_OK;
  }
  ok = ok && fm_hmac_final(&ctx, inc, sizeof inc) == FM_OK;

  /* EVP_MAC_init keeps the previous key when given NULL, so an empty key is passed as a
   * non-NULL pointer with length 0. */
  OSSL_PARAM params[2] = {
      OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)k_names[a], 0),
      OSSL_PARAM_construct_end()};
  n = random_cuts(rng, len, cuts);
  ok = ok && EVP_MAC_init(mac_ctx, key, key_len, params) == 1;
  for (size_t i = 0; ok && i < n; i++) {
    ok = EVP_MAC_update(mac_ctx, msg + cuts[i], cuts[i + 1] - cuts[i]) == 1;
  }
  ok = ok && EVP_MAC_final(mac_ctx, ref, &ref_len, sizeof ref) == 1 && ref_len == dl;

  return ok && memcmp(one, ref, dl) == 0 && memcmp(inc, ref, dl) == 0;
}

int main(int argc, char **argv) {
  if (argc < 2 || (strcmp(argv[1], "sha") != 0 && strcmp(argv[1], "hmac") != 0)) {
    fprintf(stderr, "usage: %s sha|hmac [cases]\n", argv[0]);
    return 2;
  }
  const int hmac = strcmp(argv[1], "hmac") == 0;
  const long cases = argc > 2 ? strtol(argv[2], NULL, 10) : test_case_count(100000);
  const char *name = hmac ? "test_hmac_diff" : "test_sha_diff";
  test_rng rng;
  test_rng_seed(&rng, name);

  /* Messages and keys are windows into one random pool, one byte of which changes per case, so
   * cases differ in content as well as in offset and length without generating 5 KB each. */
  uint8_t *pool = malloc(POOL + MAX_MSG + MAX_KEY);
  EVP_MD_CTX *md_ctx = EVP_MD_CTX_new();
  EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
  EVP_MAC_CTX *mac_ctx = mac ? EVP_MAC_CTX_new(mac) : NULL;
  CHECK(pool != NULL && md_ctx != NULL && mac_ctx != NULL);
  if (pool == NULL || md_ctx == NULL || mac_ctx == NULL) return test_main_result(name);
  test_rng_bytes(&rng, pool, POOL + MAX_MSG + MAX_KEY);

  for (int a = 0; a < N_ALGS; a++) {
    const EVP_MD *md = EVP_get_digestbyname(k_names[a]);
    CHECK(md != NULL);
    if (md == NULL) continue;
    const long n = a < 3 ? cases : (cases + 4) / 5;
    long failed = 0;
    for (long c = 0; c < n; c++) {
      pool[test_rng_below(&rng, POOL)] = (uint8_t)test_rng_u64(&rng);
      size_t len = (size_t)test_rng_below(&rng, MAX_MSG + 1);
      const uint8_t *msg = pool + test_rng_below(&rng, POOL);
      int ok;
      size_t key_len = 0;
      if (hmac) {
        key_len = (size_t)test_rng_below(&rng, MAX_KEY + 1);
        const uint8_t *key = pool + test_rng_below(&rng, POOL);
        ok = hmac_case(&rng, a, key, key_len, msg, len, mac_ctx);
      } else {
        ok = sha_case(&rng, a, msg, len, md_ctx, md);
      }
      if (!ok) {
        test_failures++;
        if (failed++ < 10) {
          fprintf(stderr, "%s %s: case %ld differs (message %zu bytes, key %zu bytes)\n", name,
                  k_names[a], c, len, key_len);
        }
      }
    }
    printf("%s %s: %ld cases, %ld mismatches\n", name, k_names[a], n, failed);
  }

  EVP_MAC_CTX_free(mac_ctx);
  EVP_MAC_free(mac);
  EVP_MD_CTX_free(md_ctx);
  free(pool);
  return test_main_result(name);
}
