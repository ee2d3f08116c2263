/* EC against OpenSSL: on every curve, random key pairs from both sides, ECDH in both directions
 * (fipsmod's Z equals OpenSSL's), fipsmod's signatures verified by OpenSSL and OpenSSL's by
 * fipsmod, public points exchanged both ways. FIPSMOD_EC_DIFF_CASES sets the cases per curve
 * (default 300); the seed of the messages is printed for a replay. */
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fipsmod/ec.h"
#include "tests/common/test_util.h"

typedef struct {
  fm_ec_curve curve;
  const char *name;
  fm_hash_alg hash;
} curve_def;

static EVP_PKEY *ossl_public(const char *group, const uint8_t *pt, size_t len) {
  EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
  EVP_PKEY *k = NULL;
  OSSL_PARAM params[3];
  params[0] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, (char *)group, 0);
  params[1] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, (void *)pt, len);
  params[2] = OSSL_PARAM_construct_end();
  if (pc == NULL || EVP_PKEY_fromdata_init(pc) != 1 ||
      EVP_PKEY_fromdata(pc, &k, EVP_PKEY_PUBLIC_KEY, params) != 1)
    k = NULL;
  EVP_PKEY_CTX_free(pc);
  return k;
}

static const EVP_MD *md_of(fm_hash_alg h) {
  return h == FM_HASH_SHA256 ? EVP_sha256() : h == FM_HASH_SHA384 ? EVP_sha384() : EVP_sha512();
}

static void one_case(const curve_def *cd, test_rng *rng) {
  const size_t nb = fm_ec_curve_bytes(cd->curve);
  EVP_PKEY *oa = EVP_EC_gen(cd->name);
  CHECK(oa != NULL);
  if (oa == NULL) return;
  uint8_t d[FM_EC_MAX_BYTES], apt[FM_EC_MAX_POINT_BYTES], bpt[FM_EC_MAX_POINT_BYTES];
  size_t apl = 0, bpl = 0;
  BIGNUM *bd = NULL;
  CHECK(EVP_PKEY_get_bn_param(oa, OSSL_PKEY_PARAM_PRIV_KEY, &bd) == 1);
  CHECK(BN_bn2binpad(bd, d, (int)nb) == (int)nb);
  BN_clear_free(bd);
  CHECK(EVP_PKEY_get_octet_string_param(oa, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, apt, sizeof apt,
                                        &apl) == 1);
  fm_ec_key *fa = NULL, *fb = NULL;
  /* OpenSSL's key, imported with its point (which must be d * G). */
  CHECK_EQ_INT(fm_ec_key_import_private(cd->curve, d, nb, apt, apl, &fa), FM_OK);
  CHECK_EQ_INT(fm_ec_key_generate(cd->curve, &fb), FM_OK);
  if (fa == NULL || fb == NULL) goto done;
  CHECK_EQ_INT(fm_ec_key_export_public(fb, 0, bpt, sizeof bpt, &bpl), FM_OK);
  EVP_PKEY *ob = ossl_public(cd->name, bpt, bpl);
  CHECK(ob != NULL);
  /* ECDH: OpenSSL's d with fipsmod's point, both sides. */
  uint8_t z1[FM_EC_MAX_BYTES], z2[FM_EC_MAX_BYTES];
  size_t z1l = 0, z2l = sizeof z2;
  CHECK_EQ_INT(fm_ecdh(fa, bpt, bpl, z1, sizeof z1, &z1l), FM_OK);
  EVP_PKEY_CTX *dc = EVP_PKEY_CTX_new(oa, NULL);
  CHECK(dc != NULL && EVP_PKEY_derive_init(dc) == 1 && EVP_PKEY_derive_set_peer(dc, ob) == 1 &&
        EVP_PKEY_derive(dc, z2, &z2l) == 1);
  EVP_PKEY_CTX_free(dc);
  CHECK_EQ_INT(z1l, z2l);
  CHECK_MEM(z1, z2, z1l);
  /* fipsmod signs with b, OpenSSL verifies; OpenSSL signs with a, fipsmod verifies. */
  uint8_t msg[64], sig[FM_EC_MAX_SIG_BYTES], der[200];
  const size_t ml = (size_t)test_rng_below(rng, sizeof msg);
  test_rng_bytes(rng, msg, ml);
  size_t sl = 0;
  CHECK_EQ_INT(fm_ecdsa_sign(fb, cd->hash, msg, ml, sig, sizeof sig, &sl), FM_OK);
  ECDSA_SIG *es = ECDSA_SIG_new();
  ECDSA_SIG_set0(es, BN_bin2bn(sig, (int)nb, NULL), BN_bin2bn(sig + nb, (int)nb, NULL));
  unsigned char *dp = der;
  const int dl = i2d_ECDSA_SIG(es, &dp);
  ECDSA_SIG_free(es);
  EVP_MD_CTX *mc = EVP_MD_CTX_new();
  CHECK(EVP_DigestVerifyInit(mc, NULL, md_of(cd->hash), NULL, ob) == 1 &&
        EVP_DigestVerify(mc, der, (size_t)dl, msg, ml) == 1);
  EVP_MD_CTX_free(mc);
  mc = EVP_MD_CTX_new();
  size_t osl = sizeof der;
  CHECK(EVP_DigestSignInit(mc, NULL, md_of(cd->hash), NULL, oa) == 1 &&
        EVP_DigestSign(mc, der, &osl, msg, ml) == 1);
  EVP_MD_CTX_free(mc);
  const unsigned char *cp = der;
  es = d2i_ECDSA_SIG(NULL, &cp, (long)osl);
  CHECK(es != NULL);
  if (es != NULL) {
    CHECK(BN_bn2binpad(ECDSA_SIG_get0_r(es), sig, (int)nb) == (int)nb);
    CHECK(BN_bn2binpad(ECDSA_SIG_get0_s(es), sig + nb, (int)nb) == (int)nb);
    ECDSA_SIG_free(es);
    CHECK_EQ_INT(fm_ecdsa_verify(fa, cd->hash, msg, ml, sig, 2 * nb), FM_OK);
  }
  EVP_PKEY_free(ob);
done:
  fm_ec_key_free(fa);
  fm_ec_key_free(fb);
  EVP_PKEY_free(oa);
}

static void run_curve(const curve_def *cd) {
  test_rng rng;
  test_rng_seed(&rng, cd->name);
  const char *env = getenv("FIPSMOD_EC_DIFF_CASES");
  const long n = env != NULL ? atol(env) : 300;
  for (long i = 0; i < n && test_failures == 0; i++) one_case(cd, &rng);
}

static void test_p224(void) { run_curve(&(curve_def){FM_EC_P224, "P-224", FM_HASH_SHA256}); }
static void test_p256(void) { run_curve(&(curve_def){FM_EC_P256, "P-256", FM_HASH_SHA256}); }
static void test_p384(void) { run_curve(&(curve_def){FM_EC_P384, "P-384", FM_HASH_SHA384}); }
static void test_p521(void) { run_curve(&(curve_def){FM_EC_P521, "P-521", FM_HASH_SHA512}); }

static const test_case cases[] = {TEST_CASE(p224), TEST_CASE(p256), TEST_CASE(p384),
                                  TEST_CASE(p521)};

int main(int argc, char **argv) { return TEST_RUN(argc, argv, "test_ec_diff", cases); }
