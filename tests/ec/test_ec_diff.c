/* EC against OpenSSL, on every curve: key import both ways (a scalar d from the seeded generator
 * or from fipsmod's key generation: OpenSSL's d * G (EC_POINT_mul) equals fipsmod's public key, and
 * each side imports the other's pair), ECDH in both directions and from both libraries (four
 * equal Z), signatures made here (random and deterministic k) verified by OpenSSL and OpenSSL's
 * verified here, a changed message refused by both, and compressed points read by OpenSSL. The hash
 * of each case is drawn from SHA-224 ... SHA-512/256 and SHA3-224 ... SHA3-512.
 *
 * FIPSMOD_EC_DIFF_CASES sets the cases per curve (default 300, divided by FIPSMOD_DIFF_DIVISOR
 * when set: test_util.h; the slow-labelled test_ec_diff_100k runs 100000). The generator's seed is printed first (replay with
 * FIPSMOD_TEST_SEED): it fixes the messages, hashes and the first key of each case; the second
 * key and the random nonces come from the module's DRBG and OpenSSL. Each failure names the case
 * number. */
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/param_build.h>
#include <openssl/params.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fipsmod/ec.h"
#include "tests/common/test_util.h"

typedef struct {
  fm_ec_curve curve;
  const char *name;
  int nid;
} curve_def;

static const struct {
  fm_hash_alg alg;
  const char *name;
} k_hashes[] = {{FM_HASH_SHA224, "SHA224"},         {FM_HASH_SHA256, "SHA256"},
                {FM_HASH_SHA384, "SHA384"},         {FM_HASH_SHA512, "SHA512"},
                {FM_HASH_SHA512_224, "SHA512-224"}, {FM_HASH_SHA512_256, "SHA512-256"},
                {FM_HASH_SHA3_224, "SHA3-224"},     {FM_HASH_SHA3_256, "SHA3-256"},
                {FM_HASH_SHA3_384, "SHA3-384"},     {FM_HASH_SHA3_512, "SHA3-512"}};

/* ossl_key makes an OpenSSL key from a point and, when d is given, the private scalar. */
static EVP_PKEY *ossl_key(const char *group, const uint8_t *pt, size_t len, const uint8_t *d,
                          size_t dl) {
  EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
  EVP_PKEY *k = NULL;
  BIGNUM *bd = d != NULL ? BN_bin2bn(d, (int)dl, NULL) : NULL;
  OSSL_PARAM_BLD *b = OSSL_PARAM_BLD_new();
  OSSL_PARAM *params = NULL;
  if (b != NULL && OSSL_PARAM_BLD_push_utf8_string(b, OSSL_PKEY_PARAM_GROUP_NAME, group, 0) == 1 &&
      OSSL_PARAM_BLD_push_octet_string(b, OSSL_PKEY_PARAM_PUB_KEY, pt, len) == 1 &&
      (bd == NULL || OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_PRIV_KEY, bd) == 1))
    params = OSSL_PARAM_BLD_to_param(b);
  if (pc == NULL || params == NULL || EVP_PKEY_fromdata_init(pc) != 1 ||
      EVP_PKEY_fromdata(pc, &k, d != NULL ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, params) != 1)
    k = NULL;
  OSSL_PARAM_free(params);
  OSSL_PARAM_BLD_free(b);
  BN_clear_free(bd);
  EVP_PKEY_CTX_free(pc);
  return k;
}

/* ossl_mul_base writes OpenSSL's d * G, uncompressed, to out. */
static size_t ossl_mul_base(int nid, const uint8_t *d, size_t dl, uint8_t *out, size_t cap) {
  EC_GROUP *g = EC_GROUP_new_by_curve_name(nid);
  EC_POINT *p = g ? EC_POINT_new(g) : NULL;
  BIGNUM *bd = BN_bin2bn(d, (int)dl, NULL);
  size_t n = 0;
  if (p != NULL && bd != NULL && EC_POINT_mul(g, p, bd, NULL, NULL, NULL) == 1)
    n = EC_POINT_point2oct(g, p, POINT_CONVERSION_UNCOMPRESSED, out, cap, NULL);
  BN_clear_free(bd);
  EC_POINT_free(p);
  EC_GROUP_free(g);
  return n;
}

/* ossl_same_point: OpenSSL reads |a| (any SEC1 form) as the same point as uncompressed |b|. */
static int ossl_same_point(int nid, const uint8_t *a, size_t al, const uint8_t *b, size_t bl) {
  EC_GROUP *g = EC_GROUP_new_by_curve_name(nid);
  EC_POINT *p = g ? EC_POINT_new(g) : NULL;
  uint8_t out[FM_EC_MAX_POINT_BYTES];
  size_t n = 0;
  if (p != NULL && EC_POINT_oct2point(g, p, a, al, NULL) == 1)
    n = EC_POINT_point2oct(g, p, POINT_CONVERSION_UNCOMPRESSED, out, sizeof out, NULL);
  EC_POINT_free(p);
  EC_GROUP_free(g);
  return n == bl && memcmp(out, b, bl) == 0;
}

static size_t ossl_derive(EVP_PKEY *priv, EVP_PKEY *peer, uint8_t *z, size_t cap) {
  EVP_PKEY_CTX *dc = EVP_PKEY_CTX_new(priv, NULL);
  size_t zl = cap;
  if (dc == NULL || EVP_PKEY_derive_init(dc) != 1 || EVP_PKEY_derive_set_peer(dc, peer) != 1 ||
      EVP_PKEY_derive(dc, z, &zl) != 1)
    zl = 0;
  EVP_PKEY_CTX_free(dc);
  return zl;
}

/* raw_to_der / der_to_raw: r || s and OpenSSL's DER ECDSA-Sig-Value. */
static int raw_to_der(const uint8_t *sig, size_t nb, uint8_t *der) {
  ECDSA_SIG *es = ECDSA_SIG_new();
  ECDSA_SIG_set0(es, BN_bin2bn(sig, (int)nb, NULL), BN_bin2bn(sig + nb, (int)nb, NULL));
  unsigned char *dp = der;
  const int dl = i2d_ECDSA_SIG(es, &dp);
  ECDSA_SIG_free(es);
  return dl;
}

static int der_to_raw(const uint8_t *der, size_t dl, size_t nb, uint8_t *sig) {
  const unsigned char *cp = der;
  ECDSA_SIG *es = d2i_ECDSA_SIG(NULL, &cp, (long)dl);
  int ok = es != NULL && BN_bn2binpad(ECDSA_SIG_get0_r(es), sig, (int)nb) == (int)nb &&
           BN_bn2binpad(ECDSA_SIG_get0_s(es), sig + nb, (int)nb) == (int)nb;
  ECDSA_SIG_free(es);
  return ok;
}

static int ossl_verify(EVP_PKEY *pub, const char *md, const uint8_t *der, size_t dl,
                       const uint8_t *msg, size_t ml) {
  EVP_MD_CTX *mc = EVP_MD_CTX_new();
  const int ok = mc != NULL && EVP_DigestVerifyInit_ex(mc, NULL, md, NULL, NULL, pub, NULL) == 1 &&
                 EVP_DigestVerify(mc, der, dl, msg, ml) == 1;
  EVP_MD_CTX_free(mc);
  return ok;
}

static long g_case;

/* DCHECK evaluates |cond| once and names the case on failure. */
#define DCHECK(cond)                                                                  \
  do {                                                                                \
    const int dcheck_ok_ = (cond) ? 1 : 0;                                            \
    if (!dcheck_ok_) fprintf(stderr, "%s case %ld: %s\n", cd->name, g_case, #cond);   \
    CHECK(dcheck_ok_);                                                                \
  } while (0)

static void one_case(const curve_def *cd, test_rng *rng) {
  const size_t nb = fm_ec_curve_bytes(cd->curve), pl = 1 + 2 * nb;
  const unsigned bits = cd->curve == FM_EC_P521 ? 521 : (unsigned)(8 * nb);
  const size_t hi = (size_t)test_rng_below(rng, sizeof k_hashes / sizeof k_hashes[0]);
  const fm_hash_alg hash = k_hashes[hi].alg;
  const char *md = k_hashes[hi].name;
  uint8_t da[FM_EC_MAX_BYTES], db[FM_EC_MAX_BYTES], pa[FM_EC_MAX_POINT_BYTES],
      pb[FM_EC_MAX_POINT_BYTES], po[FM_EC_MAX_POINT_BYTES];
  size_t al = 0, bl = 0, dbl = 0;
  fm_ec_key *fa = NULL, *fb = NULL, *fpa = NULL;
  EVP_PKEY *oa = NULL, *ob = NULL, *oapub = NULL, *obpub = NULL;
  /* Key a: d from the seeded generator (a draw >= n is drawn again). */
  int st;
  do {
    test_rng_bytes(rng, da, nb);
    if (bits % 8) da[0] &= (uint8_t)((1u << (bits % 8)) - 1);
    st = fm_ec_key_import_private(cd->curve, da, nb, NULL, 0, &fa);
  } while (st == FM_ERR_OUT_OF_RANGE);
  DCHECK(st == FM_OK);
  /* Key b: fipsmod's key generation. */
  DCHECK(fm_ec_key_generate(cd->curve, &fb) == FM_OK);
  if (fa == NULL || fb == NULL) goto done;
  DCHECK(fm_ec_key_export_public(fa, 0, pa, sizeof pa, &al) == FM_OK && al == pl);
  DCHECK(fm_ec_key_export_public(fb, 0, pb, sizeof pb, &bl) == FM_OK && bl == pl);
  DCHECK(fm_ec_key_export_private(fb, db, sizeof db, &dbl) == FM_OK && dbl == nb);
  /* Key import both ways: OpenSSL's d * G is fipsmod's Q for both keys. */
  DCHECK(ossl_mul_base(cd->nid, da, nb, po, sizeof po) == pl && memcmp(po, pa, pl) == 0);
  DCHECK(ossl_mul_base(cd->nid, db, nb, po, sizeof po) == pl && memcmp(po, pb, pl) == 0);
  oa = ossl_key(cd->name, pa, pl, da, nb);
  ob = ossl_key(cd->name, pb, pl, db, nb);
  oapub = ossl_key(cd->name, pa, pl, NULL, 0);
  obpub = ossl_key(cd->name, pb, pl, NULL, 0);
  DCHECK(oa != NULL && ob != NULL && oapub != NULL && obpub != NULL);
  if (oa == NULL || ob == NULL || oapub == NULL || obpub == NULL) goto done;
  DCHECK(fm_ec_key_import_public(cd->curve, pa, pl, &fpa) == FM_OK);
  /* Compressed points: fipsmod writes them (not on P-224), OpenSSL reads the same point. */
  if (cd->curve != FM_EC_P224) {
    uint8_t cp[FM_EC_MAX_POINT_BYTES];
    size_t cl = 0;
    DCHECK(fm_ec_key_export_public(fb, 1, cp, sizeof cp, &cl) == FM_OK && cl == 1 + nb);
    DCHECK(ossl_same_point(cd->nid, cp, cl, pb, pl));
  }
  /* ECDH: Z(a, Qb) and Z(b, Qa), from fipsmod and from OpenSSL, all equal. */
  uint8_t z[4][FM_EC_MAX_BYTES];
  size_t zl[4] = {0, 0, 0, 0};
  DCHECK(fm_ecdh(fa, pb, pl, z[0], sizeof z[0], &zl[0]) == FM_OK);
  DCHECK(fm_ecdh(fb, pa, pl, z[1], sizeof z[1], &zl[1]) == FM_OK);
  zl[2] = ossl_derive(oa, obpub, z[2], sizeof z[2]);
  zl[3] = ossl_derive(ob, oapub, z[3], sizeof z[3]);
  for (int i = 1; i < 4; i++) DCHECK(zl[i] == nb && zl[0] == nb && memcmp(z[0], z[i], nb) == 0);
  /* Signatures: fipsmod (random and deterministic k) to OpenSSL, OpenSSL to fipsmod. */
  uint8_t msg[96], sig[FM_EC_MAX_SIG_BYTES], der[FM_EC_MAX_DER_SIG_BYTES + 8];
  const size_t ml = (size_t)test_rng_below(rng, sizeof msg);
  test_rng_bytes(rng, msg, ml);
  size_t sl = 0;
  DCHECK(fm_ecdsa_sign(fb, hash, msg, ml, sig, sizeof sig, &sl) == FM_OK);
  int dl = raw_to_der(sig, nb, der);
  DCHECK(dl > 0 && ossl_verify(obpub, md, der, (size_t)dl, msg, ml));
  DCHECK(fm_ecdsa_sign_deterministic(fa, hash, msg, ml, sig, sizeof sig, &sl) == FM_OK);
  dl = raw_to_der(sig, nb, der);
  DCHECK(dl > 0 && ossl_verify(oapub, md, der, (size_t)dl, msg, ml));
  if (ml > 0) {
    msg[0] ^= 1; /* a changed message: refused by OpenSSL */
    DCHECK(!ossl_verify(oapub, md, der, (size_t)dl, msg, ml));
    msg[0] ^= 1;
  }
  EVP_MD_CTX *mc = EVP_MD_CTX_new();
  size_t osl = sizeof der;
  DCHECK(mc != NULL && EVP_DigestSignInit_ex(mc, NULL, md, NULL, NULL, oa, NULL) == 1 &&
         EVP_DigestSign(mc, der, &osl, msg, ml) == 1);
  EVP_MD_CTX_free(mc);
  DCHECK(der_to_raw(der, osl, nb, sig));
  DCHECK(fm_ecdsa_verify(fpa, hash, msg, ml, sig, 2 * nb) == FM_OK);
  if (ml > 0) {
    msg[ml - 1] ^= 0x80; /* a changed message: refused by fipsmod */
    DCHECK(fm_ecdsa_verify(fpa, hash, msg, ml, sig, 2 * nb) == FM_ERR_VERIFY);
  }
done:
  fm_ec_key_free(fa);
  fm_ec_key_free(fb);
  fm_ec_key_free(fpa);
  EVP_PKEY_free(oa);
  EVP_PKEY_free(ob);
  EVP_PKEY_free(oapub);
  EVP_PKEY_free(obpub);
}

static void run_curve(const curve_def *cd) {
  test_rng rng;
  char name[64];
  snprintf(name, sizeof name, "test_ec_diff %s", cd->name);
  const uint64_t seed = test_rng_seed(&rng, name);
  const char *env = getenv("FIPSMOD_EC_DIFF_CASES");
  const long n = env != NULL ? atol(env) : test_case_count(300);
  const int before = test_failures;
  for (g_case = 0; g_case < n && test_failures == before; g_case++) one_case(cd, &rng);
  if (test_failures != before) {
    fprintf(stderr, "%s: FAILED at case %ld; seed 0x%016llx\n", cd->name, g_case - 1,
            (unsigned long long)seed);
  } else {
    fprintf(stderr, "%s: %ld cases agree with OpenSSL\n", cd->name, n);
  }
}

static void test_p224(void) { run_curve(&(curve_def){FM_EC_P224, "P-224", NID_secp224r1}); }
static void test_p256(void) { run_curve(&(curve_def){FM_EC_P256, "P-256", NID_X9_62_prime256v1}); }
static void test_p384(void) { run_curve(&(curve_def){FM_EC_P384, "P-384", NID_secp384r1}); }
static void test_p521(void) { run_curve(&(curve_def){FM_EC_P521, "P-521", NID_secp521r1}); }

static const test_case cases[] = {TEST_CASE(p224), TEST_CASE(p256), TEST_CASE(p384),
                                  TEST_CASE(p521)};

int main(int argc, char **argv) { return TEST_RUN(argc, argv, "test_ec_diff", cases); }
