/* Differential test of the KDFs against OpenSSL's EVP_KDF: HKDF (extract-and-expand) and PBKDF2
 * with HMAC-SHA-256/384/512, and the SP 800-108 counter-mode KDF with the 32-bit counter before
 * the fixed data (OpenSSL's KBKDF with no separator and no [L]_2, fixed = label || context),
 * random inputs and output lengths. 3,000 cases per function (argv[1] overrides). The seed is
 * printed first; FIPSMOD_TEST_SEED=<seed> replays a run. */
#include <openssl/core_names.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
#include <stdlib.h>
#include <string.h>

#include "fipsmod/kdf.h"
#include "tests/common/test_util.h"

static test_rng g_rng;
static uint64_t g_seed;

static const char *md_name(fm_hash_alg a) {
  return a == FM_HASH_SHA256 ? "SHA256" : a == FM_HASH_SHA384 ? "SHA384" : "SHA512";
}

static int ossl_derive(const char *kdf, OSSL_PARAM *params, uint8_t *out, size_t len) {
  EVP_KDF *k = EVP_KDF_fetch(NULL, kdf, NULL);
  EVP_KDF_CTX *c = k ? EVP_KDF_CTX_new(k) : NULL;
  int ok = c != NULL && EVP_KDF_derive(c, out, len, params) == 1;
  EVP_KDF_CTX_free(c);
  EVP_KDF_free(k);
  return ok;
}

static void fail(const char *what, long i) {
  test_failures++;
  fprintf(stderr, "test_kdf_diff: %s differs at case %ld; replay with FIPSMOD_TEST_SEED=0x%llx\n",
          what, i, (unsigned long long)g_seed);
}

int main(int argc, char **argv) {
  const long count = argc > 1 ? atol(argv[1]) : 3000;
  g_seed = test_rng_seed(&g_rng, "test_kdf_diff");
  static const fm_hash_alg algs[3] = {FM_HASH_SHA256, FM_HASH_SHA384, FM_HASH_SHA512};
  uint8_t a[200], b[200], c[200], ours[700], ref[700];
  for (long i = 0; i < count; i++) {
    const fm_hash_alg alg = algs[test_rng_below(&g_rng, 3)];
    char md[8];
    strcpy(md, md_name(alg));
    const size_t la = 1 + (size_t)test_rng_below(&g_rng, 150), lb = (size_t)test_rng_below(&g_rng, 150),
                 lc = (size_t)test_rng_below(&g_rng, 150);
    const size_t out_len = 1 + (size_t)test_rng_below(&g_rng, 600);
    test_rng_bytes(&g_rng, a, la);
    test_rng_bytes(&g_rng, b, lb);
    test_rng_bytes(&g_rng, c, lc);

    /* HKDF: ikm = a, salt = b, info = c. */
    OSSL_PARAM p[6];
    int mode = EVP_KDF_HKDF_MODE_EXTRACT_AND_EXPAND;
    p[0] = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, md, 0);
    p[1] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, a, la);
    p[2] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, b, lb);
    p[3] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, c, lc);
    p[4] = OSSL_PARAM_construct_int(OSSL_KDF_PARAM_MODE, &mode);
    p[5] = OSSL_PARAM_construct_end();
    CHECK(ossl_derive("HKDF", p, ref, out_len));
    CHECK_EQ_INT(fm_hkdf(alg, a, la, b, lb, c, lc, ours, out_len), FM_OK);
    if (memcmp(ours, ref, out_len) != 0) fail("HKDF", i);

    /* PBKDF2: password = a, salt = b. */
    uint64_t iter = 1 + test_rng_below(&g_rng, 40);
    int no_checks = 1; /* OpenSSL's default provider would refuse short salts and outputs */
    p[0] = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, md, 0);
    p[1] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_PASSWORD, a, la);
    p[2] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, b, lb);
    p[3] = OSSL_PARAM_construct_uint64(OSSL_KDF_PARAM_ITER, &iter);
    p[4] = OSSL_PARAM_construct_int(OSSL_KDF_PARAM_PKCS5, &no_checks);
    p[5] = OSSL_PARAM_construct_end();
    const size_t plen = out_len % 200 + 1;
    CHECK(ossl_derive("PBKDF2", p, ref, plen));
    CHECK_EQ_INT(fm_pbkdf2_hmac(alg, a, la, b, lb, iter, ours, plen), FM_OK);
    if (memcmp(ours, ref, plen) != 0) fail("PBKDF2", i);

    /* KBKDF counter mode: key = a, fixed = b || c, 32-bit counter first. */
    int zero = 0;
    OSSL_PARAM q[9];
    q[0] = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_MODE, "counter", 0);
    q[1] = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_MAC, "HMAC", 0);
    q[2] = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, md, 0);
    q[3] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, a, la);
    q[4] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, b, lb);
    q[5] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, c, lc);
    q[6] = OSSL_PARAM_construct_int(OSSL_KDF_PARAM_KBKDF_USE_L, &zero);
    q[7] = OSSL_PARAM_construct_int(OSSL_KDF_PARAM_KBKDF_USE_SEPARATOR, &zero);
    q[8] = OSSL_PARAM_construct_end();
    uint8_t fixed[300];
    memcpy(fixed, b, lb);
    memcpy(fixed + lb, c, lc);
    CHECK(ossl_derive("KBKDF", q, ref, out_len));
    CHECK_EQ_INT(fm_kbkdf_ctr_hmac(alg, a, la, fixed, lb + lc, 0, 32, ours, out_len), FM_OK);
    if (memcmp(ours, ref, out_len) != 0) fail("KBKDF", i);
  }
  return test_main_result("test_kdf_diff");
}
