/* Differential test: fipsmod's CTR_DRBG (drbg.h) against OpenSSL 3's EVP_RAND "CTR-DRBG"
 * (AES-256-CTR, use_df 0 and 1), both fed the same entropy, nonce, personalization and additional
 * input. OpenSSL takes its entropy and nonce from a "TEST-RAND" parent whose output is set with
 * OSSL_RAND_PARAM_TEST_ENTROPY / OSSL_RAND_PARAM_TEST_NONCE before each instantiate, reseed or
 * prediction-resistant generate.
 *
 * Each sequence: instantiate with random lengths, then 1..8 random operations (generate of
 * 1..80 or 1..2048 bytes with or without additional input, reseed, prediction-resistant generate; the last
 * one a generate); every output compared. Each generate runs on an AES path drawn from those the
 * CPU has (AES-NI, VAES 256, VAES 512: the short requests take the 128- or 256-bit fused kernel),
 * so that one instance moves between the kernels, which leave the kept key schedule stale, and the
 * long requests and reseeds, which must rebuild it. FIPSMOD_DIFF_SEQUENCES overrides the count
 * (default 10000); the seed is printed (FIPSMOD_TEST_SEED replays it). */
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <stdlib.h>
#include <string.h>

#include "fipsmod/drbg.h"
#include "tests/aes/aes_test_paths.h"
#include "tests/common/test_util.h"

typedef struct {
  EVP_RAND_CTX *parent, *drbg;
} ossl_drbg;

static EVP_RAND *g_test_rand, *g_ctr;
static int g_paths[3], g_npaths;
static unsigned long long g_path_generates[3];
static unsigned long long g_bytes_compared, g_generates, g_reseeds, g_pr_generates;

static int set_parent_input(EVP_RAND_CTX *parent, const uint8_t *entropy, size_t elen,
                            const uint8_t *nonce, size_t nlen) {
  OSSL_PARAM p[3];
  int n = 0;
  p[n++] = OSSL_PARAM_construct_octet_string(OSSL_RAND_PARAM_TEST_ENTROPY, (void *)entropy, elen);
  if (nonce != NULL) {
    p[n++] = OSSL_PARAM_construct_octet_string(OSSL_RAND_PARAM_TEST_NONCE, (void *)nonce, nlen);
  }
  p[n] = OSSL_PARAM_construct_end();
  return EVP_RAND_CTX_set_params(parent, p);
}

static int ossl_new(ossl_drbg *o, int use_df) {
  unsigned int strength = 256;
  OSSL_PARAM pp[2] = {OSSL_PARAM_construct_uint(OSSL_RAND_PARAM_STRENGTH, &strength),
                      OSSL_PARAM_construct_end()};
  o->parent = EVP_RAND_CTX_new(g_test_rand, NULL);
  if (o->parent == NULL || !EVP_RAND_CTX_set_params(o->parent, pp) ||
      !EVP_RAND_instantiate(o->parent, 256, 0, NULL, 0, NULL)) {
    return 0;
  }
  o->drbg = EVP_RAND_CTX_new(g_ctr, o->parent);
  int df = use_df;
  OSSL_PARAM dp[3] = {
      OSSL_PARAM_construct_utf8_string(OSSL_DRBG_PARAM_CIPHER, (char *)"AES-256-CTR", 0),
      OSSL_PARAM_construct_int(OSSL_DRBG_PARAM_USE_DF, &df), OSSL_PARAM_construct_end()};
  return o->drbg != NULL && EVP_RAND_CTX_set_params(o->drbg, dp);
}

static void ossl_free(ossl_drbg *o) {
  EVP_RAND_CTX_free(o->drbg);
  EVP_RAND_CTX_free(o->parent);
}

/* rand_len returns a length in [lo, hi]. */
static size_t rand_len(test_rng *r, size_t lo, size_t hi) {
  return lo + (size_t)test_rng_below(r, hi - lo + 1);
}

static int run_sequence(test_rng *r, long seq) {
  int use_df = (int)test_rng_below(r, 2);
  int pr = (int)test_rng_below(r, 2);
  unsigned flags = (use_df ? FM_DRBG_USE_DF : 0) | (pr ? FM_DRBG_PREDICTION_RESISTANCE : 0);
  static uint8_t ent[128], nonce[64], pers[128], ai[128], a[2048], b[2048];
  size_t elen = use_df ? rand_len(r, 32, 96) : 48;
  size_t nlen = use_df ? rand_len(r, 16, 48) : 0;
  size_t plen = test_rng_below(r, 4) == 0 ? 0 : rand_len(r, 1, use_df ? 128 : 48);
  test_rng_bytes(r, ent, elen);
  test_rng_bytes(r, nonce, nlen);
  test_rng_bytes(r, pers, plen);

  ossl_drbg o = {NULL, NULL};
  fm_ctr_drbg d;
  int ok = ossl_new(&o, use_df);
  ok = ok && set_parent_input(o.parent, ent, elen, use_df ? nonce : NULL, nlen);
  ok = ok && EVP_RAND_instantiate(o.drbg, 256, pr, pers, plen, NULL);
  if (!ok) {
    fprintf(stderr, "sequence %ld: OpenSSL instantiate failed\n", seq);
    ERR_print_errors_fp(stderr);
    ossl_free(&o);
    return 0;
  }
  if (fm_ctr_drbg_instantiate(&d, flags, ent, elen, use_df ? nonce : NULL, nlen, pers, plen) !=
      FM_OK) {
    fprintf(stderr, "sequence %ld: fipsmod instantiate failed\n", seq);
    ossl_free(&o);
    return 0;
  }
  int nops = (int)rand_len(r, 1, 8);
  for (int op = 0; op < nops && ok; op++) {
    size_t alen = test_rng_below(r, 3) == 0 ? 0 : rand_len(r, 1, use_df ? 128 : 48);
    test_rng_bytes(r, ai, alen);
    /* The last operation is always a plain or prediction-resistant generate. */
    int kind = (int)test_rng_below(r, pr ? 3 : 2);
    if (op == nops - 1 && kind == 1) kind = 0;
    if (kind == 1) {
      /* Reseed with fresh entropy and the additional input. */
      elen = use_df ? rand_len(r, 32, 96) : 48;
      test_rng_bytes(r, ent, elen);
      ok = set_parent_input(o.parent, ent, elen, NULL, 0) &&
           EVP_RAND_reseed(o.drbg, 0, NULL, 0, ai, alen) &&
           fm_ctr_drbg_reseed(&d, ent, elen, ai, alen) == FM_OK;
      if (!ok) fprintf(stderr, "sequence %ld op %d: reseed failed\n", seq, op);
      g_reseeds++;
      continue;
    }
    /* Half the requests are small (1..80 bytes) so that the fused paths for requests of up to
     * 64 bytes and their boundary are compared as often as the general one. */
    size_t olen = test_rng_below(r, 2) == 0 ? rand_len(r, 1, 80) : rand_len(r, 1, sizeof(a));
    const int pi = (int)test_rng_below(r, (uint64_t)g_npaths);
    aes_limit_path_for_testing(g_paths[pi]);
    const uint8_t *pr_ent = NULL;
    size_t pr_len = 0;
    if (kind == 2) {
      /* Prediction-resistant generate: OpenSSL pulls the entropy from its parent. */
      elen = use_df ? rand_len(r, 32, 96) : 48;
      test_rng_bytes(r, ent, elen);
      ok = set_parent_input(o.parent, ent, elen, NULL, 0);
      pr_ent = ent;
      pr_len = elen;
    }
    ok = ok && EVP_RAND_generate(o.drbg, a, olen, 256, kind == 2, ai, alen);
    ok = ok && fm_ctr_drbg_generate(&d, b, olen, pr_ent, pr_len, ai, alen) == FM_OK;
    if (!ok) {
      fprintf(stderr, "sequence %ld op %d: generate failed\n", seq, op);
      ERR_print_errors_fp(stderr);
    } else if (memcmp(a, b, olen) != 0) {
      fprintf(stderr, "sequence %ld op %d: outputs differ (df %d, pr %d, %zu bytes, ai %zu, %s)\n",
              seq, op, use_df, kind == 2, olen, alen, aes_test_path_name(g_paths[pi]));
      ok = 0;
    } else {
      g_bytes_compared += olen;
      g_generates++;
      g_pr_generates += kind == 2;
      g_path_generates[pi]++;
    }
  }
  fm_ctr_drbg_uninstantiate(&d);
  ossl_free(&o);
  return ok;
}

int main(void) {
  test_rng r;
  test_rng_seed(&r, "test_drbg_diff");
  g_test_rand = EVP_RAND_fetch(NULL, "TEST-RAND", NULL);
  g_ctr = EVP_RAND_fetch(NULL, "CTR-DRBG", NULL);
  CHECK(g_test_rand != NULL && g_ctr != NULL);
  if (g_test_rand == NULL || g_ctr == NULL) return test_main_result("test_drbg_diff");
  long n = 10000;
  const char *env = getenv("FIPSMOD_DIFF_SEQUENCES");
  if (env != NULL) n = atol(env);
  g_npaths = aes_test_paths(g_paths);
  long failed = 0;
  for (long i = 0; i < n && failed < 10; i++) {
    if (!run_sequence(&r, i)) failed++;
  }
  aes_limit_path_for_testing(0);
  CHECK_EQ_INT(failed, 0);
  for (int i = 0; i < g_npaths; i++) {
    fprintf(stderr, "%s: %llu generates\n", aes_test_path_name(g_paths[i]), g_path_generates[i]);
    /* Every reachable path is compared (a few hundred generates each at the least). */
    if (n >= 1000) CHECK(g_path_generates[i] >= (unsigned long long)n / 10);
  }
  fprintf(stderr, "%ld sequences: %llu generates (%llu prediction-resistant), %llu reseeds, %llu bytes compared\n",
          n, g_generates, g_pr_generates, g_reseeds, g_bytes_compared);
  CHECK(g_generates >= (unsigned long long)n); /* each sequence ends with a compared generate */
  EVP_RAND_free(g_test_rand);
  EVP_RAND_free(g_ctr);
  return test_main_result("test_drbg_diff");
}
