/* EC key files and DER ECDSA signatures against OpenSSL 3, both ways, on every curve:
 *   - OpenSSL's keys (EVP_EC_gen), written by OpenSSL's encoders in the six forms (SEC1, PKCS#8,
 *     SPKI; DER, PEM), are read by fm_ec_key_decode, and fm_ec_key_encode writes each form back
 *     byte for byte as OpenSSL wrote it; compressed SPKI reads too;
 *   - fipsmod's keys (fm_ec_key_generate), in the six forms, are read by OpenSSL's decoders, pass
 *     its pairwise check, are the same key in every form, and OpenSSL writes each back byte for
 *     byte;
 *   - fipsmod's signatures (fm_ecdsa_sign, fm_ecdsa_sig_to_der) verify in OpenSSL, OpenSSL's
 *     (EVP_DigestSign) verify in fipsmod (fm_ecdsa_sig_from_der), both DER forms are the same
 *     bytes, and a changed message fails on both sides.
 * FIPSMOD_EC_KEYFILE_CASES sets the keys per curve and direction (default 50). */
#include <openssl/core_names.h>
#include <openssl/decoder.h>
#include <openssl/ecdsa.h>
#include <openssl/encoder.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fipsmod/fipsmod.h"
#include "tests/common/test_util.h"

typedef struct {
  fm_ec_curve curve;
  const char *name;
  fm_hash_alg hash;
  const EVP_MD *(*md)(void);
} curve_def;

/* The six forms, with OpenSSL's names for them. */
static const struct form {
  fm_key_format format;
  fm_key_encoding encoding;
  int selection;
  const char *type;      /* OSSL_ENCODER output type */
  const char *structure; /* OSSL_ENCODER output structure */
} k_forms[] = {
    {FM_KEY_SEC1_PRIVATE, FM_KEY_DER, EVP_PKEY_KEYPAIR, "DER", "type-specific"},
    {FM_KEY_SEC1_PRIVATE, FM_KEY_PEM, EVP_PKEY_KEYPAIR, "PEM", "type-specific"},
    {FM_KEY_PKCS8_PRIVATE, FM_KEY_DER, EVP_PKEY_KEYPAIR, "DER", "PrivateKeyInfo"},
    {FM_KEY_PKCS8_PRIVATE, FM_KEY_PEM, EVP_PKEY_KEYPAIR, "PEM", "PrivateKeyInfo"},
    {FM_KEY_SPKI_PUBLIC, FM_KEY_DER, EVP_PKEY_PUBLIC_KEY, "DER", "SubjectPublicKeyInfo"},
    {FM_KEY_SPKI_PUBLIC, FM_KEY_PEM, EVP_PKEY_PUBLIC_KEY, "PEM", "SubjectPublicKeyInfo"},
};
#define FORMS (sizeof k_forms / sizeof k_forms[0])

/* ossl_encode writes |pk| in |f| with OpenSSL's encoders; the caller frees *out (OPENSSL_free). */
static size_t ossl_encode(EVP_PKEY *pk, const struct form *f, unsigned char **out) {
  OSSL_ENCODER_CTX *ctx =
      OSSL_ENCODER_CTX_new_for_pkey(pk, f->selection, f->type, f->structure, NULL);
  size_t len = 0;
  *out = NULL;
  if (ctx == NULL || OSSL_ENCODER_CTX_get_num_encoders(ctx) == 0 ||
      OSSL_ENCODER_to_data(ctx, out, &len) != 1) {
    fprintf(stderr, "OpenSSL cannot write %s %s\n", f->structure, f->type);
    test_failures++;
    len = 0;
  }
  OSSL_ENCODER_CTX_free(ctx);
  return len;
}

/* ossl_decode reads a key with OpenSSL's decoders (any structure), or returns NULL. */
static EVP_PKEY *ossl_decode(const uint8_t *in, size_t len, const struct form *f) {
  EVP_PKEY *pk = NULL;
  OSSL_DECODER_CTX *ctx =
      OSSL_DECODER_CTX_new_for_pkey(&pk, f->type, NULL, "EC", f->selection, NULL, NULL);
  const unsigned char *p = in;
  size_t left = len;
  if (ctx == NULL || OSSL_DECODER_from_data(ctx, &p, &left) != 1 || left != 0) {
    EVP_PKEY_free(pk);
    pk = NULL;
  }
  OSSL_DECODER_CTX_free(ctx);
  return pk;
}

static size_t fm_encode(const fm_ec_key *k, const struct form *f, uint8_t *out, size_t cap) {
  size_t n = 0;
  CHECK_EQ_INT(fm_ec_key_encode(k, f->format, f->encoding, out, cap, &n), FM_OK);
  return n;
}

static int ossl_verify(EVP_PKEY *pk, const EVP_MD *md, const uint8_t *sig, size_t sl,
                       const uint8_t *msg, size_t ml) {
  EVP_MD_CTX *mc = EVP_MD_CTX_new();
  int ok = mc != NULL && EVP_DigestVerifyInit(mc, NULL, md, NULL, pk) == 1 &&
           EVP_DigestVerify(mc, sig, sl, msg, ml) == 1;
  EVP_MD_CTX_free(mc);
  return ok;
}

/* ossl_reencode_sig is OpenSSL's own DER of a DER signature (d2i then i2d), or 0. */
static size_t ossl_reencode_sig(const uint8_t *der, size_t len, uint8_t *out) {
  const unsigned char *p = der;
  ECDSA_SIG *es = d2i_ECDSA_SIG(NULL, &p, (long)len);
  if (es == NULL) return 0;
  unsigned char *o = out;
  int n = i2d_ECDSA_SIG(es, &o);
  ECDSA_SIG_free(es);
  return n > 0 ? (size_t)n : 0;
}

/* OpenSSL's key, written by OpenSSL: fipsmod reads every form, writes the same bytes, signs, and
 * verifies OpenSSL's signatures. */
static void openssl_to_fipsmod(const curve_def *cd, test_rng *rng) {
  EVP_PKEY *oa = EVP_EC_gen(cd->name);
  CHECK(oa != NULL);
  if (oa == NULL) return;
  fm_ec_key *priv = NULL, *pub = NULL;
  for (size_t i = 0; i < FORMS; i++) {
    unsigned char *enc = NULL;
    const size_t len = ossl_encode(oa, &k_forms[i], &enc);
    fm_ec_key *k = NULL;
    int st = fm_ec_key_decode(enc, len, &k);
    if (st != FM_OK) fprintf(stderr, "%s %s %s: %s\n", cd->name, k_forms[i].structure,
                             k_forms[i].type, fm_strerror(st));
    CHECK_EQ_INT(st, FM_OK);
    if (k != NULL) {
      uint8_t out[1024];
      const size_t n = fm_encode(k, &k_forms[i], out, sizeof out);
      CHECK_EQ_INT(n, len);
      if (n == len) CHECK_MEM(out, enc, len);
      fm_ec_curve c = (fm_ec_curve)0;
      CHECK_EQ_INT(fm_ec_key_curve(k, &c), FM_OK);
      CHECK_EQ_INT(c, cd->curve);
      (void)fm_cleanse(out, sizeof out);
      if (i == 0 && priv == NULL) {
        priv = k;
      } else if (k_forms[i].format == FM_KEY_SPKI_PUBLIC && pub == NULL) {
        pub = k;
      } else {
        CHECK_EQ_INT(fm_ec_key_free(k), FM_OK);
      }
    }
    OPENSSL_clear_free(enc, len);
  }
  /* A compressed point in SPKI (P-224's square roots are not offered: FM_ERR_UNSUPPORTED). */
  EVP_PKEY *oc = EVP_PKEY_dup(oa);
  CHECK(oc != NULL &&
        EVP_PKEY_set_utf8_string_param(oc, OSSL_PKEY_PARAM_EC_POINT_CONVERSION_FORMAT,
                                       "compressed") == 1);
  unsigned char *comp = NULL, *uncomp = NULL;
  const size_t cl = ossl_encode(oc, &k_forms[4], &comp), ul = ossl_encode(oa, &k_forms[4], &uncomp);
  const size_t nb = fm_ec_curve_bytes(cd->curve);
  CHECK(cl > 0 && cl < ul); /* the point is nb bytes shorter */
  fm_ec_key *ck = NULL;
  CHECK_EQ_INT(fm_ec_key_decode(comp, cl, &ck), cd->curve == FM_EC_P224 ? FM_ERR_UNSUPPORTED : FM_OK);
  if (ck != NULL) {
    uint8_t out[256];
    const size_t n = fm_encode(ck, &k_forms[4], out, sizeof out);
    CHECK_EQ_INT(n, ul);
    if (n == ul) CHECK_MEM(out, uncomp, ul);
    CHECK_EQ_INT(fm_ec_key_free(ck), FM_OK);
  }
  OPENSSL_free(comp);
  OPENSSL_free(uncomp);
  EVP_PKEY_free(oc);

  if (priv != NULL && pub != NULL) {
    uint8_t msg[100], sig[FM_EC_MAX_SIG_BYTES], der[FM_EC_MAX_DER_SIG_BYTES], again[200];
    const size_t ml = 1 + (size_t)test_rng_below(rng, sizeof msg - 1);
    test_rng_bytes(rng, msg, ml);
    /* fipsmod signs; OpenSSL verifies the DER, and writes the same DER. */
    size_t sl = 0, dl = 0;
    CHECK_EQ_INT(fm_ecdsa_sign(priv, cd->hash, msg, ml, sig, sizeof sig, &sl), FM_OK);
    CHECK_EQ_INT(fm_ecdsa_sig_to_der(cd->curve, sig, sl, der, sizeof der, &dl), FM_OK);
    CHECK(ossl_verify(oa, cd->md(), der, dl, msg, ml));
    msg[0] ^= 1;
    CHECK(!ossl_verify(oa, cd->md(), der, dl, msg, ml));
    msg[0] ^= 1;
    const size_t al = ossl_reencode_sig(der, dl, again);
    CHECK_EQ_INT(al, dl);
    if (al == dl) CHECK_MEM(again, der, dl);
    /* OpenSSL signs; fipsmod reads the DER and verifies with the key from the SPKI file. */
    uint8_t osig[200], raw[FM_EC_MAX_SIG_BYTES];
    size_t osl = sizeof osig, rl = 0;
    EVP_MD_CTX *mc = EVP_MD_CTX_new();
    CHECK(mc != NULL && EVP_DigestSignInit(mc, NULL, cd->md(), NULL, oa) == 1 &&
          EVP_DigestSign(mc, osig, &osl, msg, ml) == 1);
    EVP_MD_CTX_free(mc);
    CHECK_EQ_INT(fm_ecdsa_sig_from_der(cd->curve, osig, osl, raw, sizeof raw, &rl), FM_OK);
    CHECK_EQ_INT(rl, 2 * nb);
    CHECK_EQ_INT(fm_ecdsa_verify(pub, cd->hash, msg, ml, raw, rl), FM_OK);
    CHECK_EQ_INT(fm_ecdsa_verify(pub, cd->hash, msg, ml - 1, raw, rl), FM_ERR_VERIFY);
    CHECK_EQ_INT(fm_ecdsa_sig_to_der(cd->curve, raw, rl, der, sizeof der, &dl), FM_OK);
    CHECK_EQ_INT(dl, osl);
    if (dl == osl) CHECK_MEM(der, osig, osl);
  }
  CHECK_EQ_INT(fm_ec_key_free(priv), FM_OK);
  CHECK_EQ_INT(fm_ec_key_free(pub), FM_OK);
  EVP_PKEY_free(oa);
}

/* fipsmod's key, written by fipsmod: OpenSSL reads every form as the same key, which passes its
 * pairwise check, writes the same bytes back, and verifies fipsmod's DER signature. */
static void fipsmod_to_openssl(const curve_def *cd, test_rng *rng) {
  fm_ec_key *key = NULL;
  CHECK_EQ_INT(fm_ec_key_generate(cd->curve, &key), FM_OK);
  if (key == NULL) return;
  EVP_PKEY *first = NULL, *pub = NULL;
  for (size_t i = 0; i < FORMS; i++) {
    uint8_t enc[1024];
    const size_t len = fm_encode(key, &k_forms[i], enc, sizeof enc);
    EVP_PKEY *pk = ossl_decode(enc, len, &k_forms[i]);
    if (pk == NULL) fprintf(stderr, "%s: OpenSSL cannot read fipsmod's %s %s\n", cd->name,
                            k_forms[i].structure, k_forms[i].type);
    CHECK(pk != NULL);
    (void)fm_cleanse(enc, sizeof enc);
    if (pk == NULL) continue;
    /* OpenSSL writes it back as fipsmod wrote it. */
    uint8_t again[1024];
    unsigned char *oenc = NULL;
    const size_t ol = ossl_encode(pk, &k_forms[i], &oenc);
    const size_t len2 = fm_encode(key, &k_forms[i], again, sizeof again);
    CHECK_EQ_INT(ol, len2);
    if (ol == len2) CHECK_MEM(oenc, again, ol);
    OPENSSL_clear_free(oenc, ol);
    (void)fm_cleanse(again, sizeof again);
    if (k_forms[i].selection == EVP_PKEY_KEYPAIR) {
      EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new_from_pkey(NULL, pk, NULL);
      CHECK(pc != NULL && EVP_PKEY_pairwise_check(pc) == 1);
      EVP_PKEY_CTX_free(pc);
    }
    if (first == NULL) {
      first = pk;
    } else {
      CHECK(EVP_PKEY_eq(first, pk) == 1);
      if (k_forms[i].format == FM_KEY_SPKI_PUBLIC && pub == NULL) {
        pub = pk;
      } else {
        EVP_PKEY_free(pk);
      }
    }
  }
  if (pub != NULL) {
    uint8_t msg[100], sig[FM_EC_MAX_SIG_BYTES], der[FM_EC_MAX_DER_SIG_BYTES];
    const size_t ml = (size_t)test_rng_below(rng, sizeof msg);
    test_rng_bytes(rng, msg, ml);
    size_t sl = 0, dl = 0;
    CHECK_EQ_INT(fm_ecdsa_sign(key, cd->hash, msg, ml, sig, sizeof sig, &sl), FM_OK);
    CHECK_EQ_INT(fm_ecdsa_sig_to_der(cd->curve, sig, sl, der, sizeof der, &dl), FM_OK);
    CHECK(ossl_verify(pub, cd->md(), der, dl, msg, ml));
    CHECK(!ossl_verify(pub, cd->md(), der, dl, (const uint8_t *)"other", 5));
  }
  EVP_PKEY_free(first);
  EVP_PKEY_free(pub);
  CHECK_EQ_INT(fm_ec_key_free(key), FM_OK);
}

static void run_curve(const curve_def *cd) {
  test_rng rng;
  test_rng_seed(&rng, cd->name);
  const char *env = getenv("FIPSMOD_EC_KEYFILE_CASES");
  const long n = env != NULL ? atol(env) : 50;
  for (long i = 0; i < n && test_failures == 0; i++) {
    openssl_to_fipsmod(cd, &rng);
    fipsmod_to_openssl(cd, &rng);
  }
}

static void test_p224(void) { run_curve(&(curve_def){FM_EC_P224, "P-224", FM_HASH_SHA256, EVP_sha256}); }
static void test_p256(void) { run_curve(&(curve_def){FM_EC_P256, "P-256", FM_HASH_SHA256, EVP_sha256}); }
static void test_p384(void) { run_curve(&(curve_def){FM_EC_P384, "P-384", FM_HASH_SHA384, EVP_sha384}); }
static void test_p521(void) { run_curve(&(curve_def){FM_EC_P521, "P-521", FM_HASH_SHA512, EVP_sha512}); }

static const test_case cases[] = {TEST_CASE(p224), TEST_CASE(p256), TEST_CASE(p384),
                                  TEST_CASE(p521)};

int main(int argc, char **argv) { return TEST_RUN(argc, argv, "test_ec_keyfile_openssl", cases); }
