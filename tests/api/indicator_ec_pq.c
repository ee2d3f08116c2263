/* The service indicator cases of the elliptic curves, ML-DSA and ML-KEM (see test_indicator.c). */
#include <stdint.h>
#include <string.h>

#include "tests/api/indicator_test.h"

/* ---- Elliptic curves ---------------------------------------------------------------------- */

static const uint8_t ec_d[32] = {1, 2, 3, 4};

static fm_ec_key *ec_key(void) {
  fm_ec_key *k = NULL;
  CHECK_EQ_INT(fm_ec_key_import_private(FM_EC_P256, ec_d, sizeof ec_d, NULL, 0, &k), FM_OK);
  return k;
}

static size_t ec_point_of(const fm_ec_key *k, uint8_t pt[65]) {
  size_t len = 0;
  CHECK_EQ_INT(fm_ec_key_export_public(k, 0, pt, 65, &len), FM_OK);
  return len;
}

static void case_fm_ec_curve_bytes(void) { UNCHANGED(fm_ec_curve_bytes(FM_EC_P256)); }
static void case_fm_ec_key_generate(void) {
  fm_ec_key *k = NULL;
  APPROVED(fm_ec_key_generate(FM_EC_P384, &k));
  fm_ec_key_free(k);
  FAILS(FM_ERR_UNSUPPORTED, fm_ec_key_generate((fm_ec_curve)0, &k));
}
static void case_fm_ec_key_import_private(void) {
  fm_ec_key *k = NULL;
  APPROVED(fm_ec_key_import_private(FM_EC_P256, ec_d, sizeof ec_d, NULL, 0, &k));
  fm_ec_key_free(k);
  FAILS(FM_ERR_LENGTH, fm_ec_key_import_private(FM_EC_P256, ec_d, 31, NULL, 0, &k));
}
static void case_fm_ec_key_import_public(void) {
  fm_ec_key *k = ec_key(), *p = NULL;
  uint8_t pt[65];
  const size_t len = ec_point_of(k, pt);
  APPROVED(fm_ec_key_import_public(FM_EC_P256, pt, len, &p));
  fm_ec_key_free(p);
  pt[64] ^= 1;
  FAILS(FM_ERR_BAD_KEY, fm_ec_key_import_public(FM_EC_P256, pt, len, &p));
  fm_ec_key_free(k);
}
static void case_fm_ec_key_export_public(void) {
  fm_ec_key *k = ec_key();
  uint8_t pt[65];
  size_t len;
  APPROVED(fm_ec_key_export_public(k, 1, pt, sizeof pt, &len));
  FAILS(FM_ERR_BUFFER_TOO_SMALL, fm_ec_key_export_public(k, 0, pt, 64, &len));
  fm_ec_key_free(k);
}
static void case_fm_ec_key_export_private(void) {
  fm_ec_key *k = ec_key();
  uint8_t d[32];
  size_t len;
  APPROVED(fm_ec_key_export_private(k, d, sizeof d, &len));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_ec_key_export_private(NULL, d, sizeof d, &len));
  fm_ec_key_free(k);
}
static void case_fm_ec_key_curve(void) {
  fm_ec_key *k = ec_key();
  fm_ec_curve c;
  UNCHANGED(fm_ec_key_curve(k, &c));
  UNCHANGED(fm_ec_key_curve(NULL, &c));
  fm_ec_key_free(k);
}
static void case_fm_ec_key_free(void) {
  APPROVED(fm_ec_key_free(ec_key()));
  APPROVED(fm_ec_key_free(NULL));
}
static void case_fm_ecdsa_sign(void) {
  fm_ec_key *k = ec_key();
  uint8_t s[64];
  size_t len;
  APPROVED(fm_ecdsa_sign(k, FM_HASH_SHA256, msg, 3, s, sizeof s, &len));
  FAILS(FM_ERR_UNSUPPORTED, fm_ecdsa_sign(k, (fm_hash_alg)0, msg, 3, s, sizeof s, &len));
  fm_ec_key_free(k);
}
static void case_fm_ecdsa_sign_digest(void) {
  fm_ec_key *k = ec_key();
  uint8_t s[64];
  size_t len;
  APPROVED(fm_ecdsa_sign_digest(k, key32, 32, s, sizeof s, &len));
  FAILS(FM_ERR_LENGTH, fm_ecdsa_sign_digest(k, key32, 20, s, sizeof s, &len));
  fm_ec_key_free(k);
}
static void case_fm_ecdsa_sign_deterministic(void) {
  fm_ec_key *k = ec_key();
  uint8_t s[64];
  size_t len;
  APPROVED(fm_ecdsa_sign_deterministic(k, FM_HASH_SHA3_256, msg, 3, s, sizeof s, &len));
  FAILS(FM_ERR_UNSUPPORTED, fm_ecdsa_sign_deterministic(k, (fm_hash_alg)0, msg, 3, s, sizeof s, &len));
  fm_ec_key_free(k);
}
static void case_fm_ecdsa_sign_deterministic_digest(void) {
  fm_ec_key *k = ec_key();
  uint8_t s[64];
  size_t len;
  APPROVED(fm_ecdsa_sign_deterministic_digest(k, FM_HASH_SHA256, key32, 32, s, sizeof s, &len));
  FAILS(FM_ERR_LENGTH,
        fm_ecdsa_sign_deterministic_digest(k, FM_HASH_SHA384, key32, 32, s, sizeof s, &len));
  fm_ec_key_free(k);
}
static void case_fm_ecdsa_verify(void) {
  fm_ec_key *k = ec_key();
  uint8_t s[64];
  size_t len;
  CHECK_EQ_INT(fm_ecdsa_sign(k, FM_HASH_SHA256, msg, 3, s, sizeof s, &len), FM_OK);
  APPROVED(fm_ecdsa_verify(k, FM_HASH_SHA256, msg, 3, s, len));
  FAILS(FM_ERR_VERIFY, fm_ecdsa_verify(k, FM_HASH_SHA256, msg, 2, s, len));
  fm_ec_key_free(k);
}
static void case_fm_ecdsa_verify_digest(void) {
  fm_ec_key *k = ec_key();
  uint8_t s[64];
  size_t len;
  CHECK_EQ_INT(fm_ecdsa_sign_digest(k, key32, 32, s, sizeof s, &len), FM_OK);
  APPROVED(fm_ecdsa_verify_digest(k, key32, 32, s, len));
  FAILS(FM_ERR_VERIFY, fm_ecdsa_verify_digest(k, key32, 31, s, len));
  fm_ec_key_free(k);
}
static void case_fm_ecdsa_sig_to_der(void) {
  uint8_t sig[64] = {0}, der[FM_EC_MAX_DER_SIG_BYTES];
  size_t len;
  sig[31] = sig[63] = 1;
  UNCHANGED(fm_ecdsa_sig_to_der(FM_EC_P256, sig, sizeof sig, der, sizeof der, &len));
  UNCHANGED(fm_ecdsa_sig_to_der(FM_EC_P256, sig, 63, der, sizeof der, &len));
}
static void case_fm_ecdsa_sig_from_der(void) {
  static const uint8_t der[] = {0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02};
  uint8_t sig[64];
  size_t len;
  UNCHANGED(fm_ecdsa_sig_from_der(FM_EC_P256, der, sizeof der, sig, sizeof sig, &len));
  UNCHANGED(fm_ecdsa_sig_from_der(FM_EC_P256, der, 5, sig, sizeof sig, &len));
}
static void case_fm_ec_key_encode(void) {
  fm_ec_key *k = ec_key();
  uint8_t out[256];
  size_t len;
  APPROVED(fm_ec_key_encode(k, FM_KEY_PKCS8_PRIVATE, FM_KEY_PEM, out, sizeof out, &len));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_ec_key_encode(k, FM_KEY_PKCS1_PRIVATE, FM_KEY_DER, out,
                                              sizeof out, &len));
  fm_ec_key_free(k);
}
static void case_fm_ec_key_decode(void) {
  fm_ec_key *k = ec_key(), *back = NULL;
  uint8_t out[256];
  size_t len;
  CHECK_EQ_INT(fm_ec_key_encode(k, FM_KEY_SEC1_PRIVATE, FM_KEY_DER, out, sizeof out, &len), FM_OK);
  APPROVED(fm_ec_key_decode(out, len, &back));
  fm_ec_key_free(back);
  FAILS(FM_ERR_PARSE, fm_ec_key_decode(out, len - 1, &back));
  fm_ec_key_free(k);
}
static void case_fm_ecdh(void) {
  fm_ec_key *k = ec_key();
  uint8_t pt[65], z[32];
  size_t len = ec_point_of(k, pt), zl;
  APPROVED(fm_ecdh(k, pt, len, z, sizeof z, &zl));
  pt[64] ^= 1;
  FAILS(FM_ERR_BAD_KEY, fm_ecdh(k, pt, len, z, sizeof z, &zl));
  fm_ec_key_free(k);
}


/* ML-DSA: every parameter set and interface is approved; refusals are not. */
static uint8_t mldsa_pk[FM_MLDSA_44_PUBLIC_KEY_LEN], mldsa_sk[FM_MLDSA_44_PRIVATE_KEY_LEN];
static uint8_t mldsa_sig[FM_MLDSA_44_SIGNATURE_LEN];
static size_t mldsa_sig_len;
static const uint8_t mldsa_mu[FM_MLDSA_MU_LEN] = {1};
static void mldsa_fixture(void) {
  if (mldsa_sig_len != 0) return;
  CHECK_EQ_INT(fm_mldsa_keygen(FM_MLDSA_44, mldsa_pk, sizeof mldsa_pk, mldsa_sk, sizeof mldsa_sk,
                               NULL),
               FM_OK);
  CHECK_EQ_INT(fm_mldsa_sign(FM_MLDSA_44, mldsa_sk, sizeof mldsa_sk, msg, 3, NULL, 0, 0, mldsa_sig,
                             sizeof mldsa_sig, &mldsa_sig_len),
               FM_OK);
}
static void case_fm_mldsa_public_key_len(void) {
  UNCHANGED(fm_mldsa_public_key_len(FM_MLDSA_44) == 1312);
}
static void case_fm_mldsa_private_key_len(void) {
  UNCHANGED(fm_mldsa_private_key_len(FM_MLDSA_44) == 2560);
}
static void case_fm_mldsa_signature_len(void) {
  UNCHANGED(fm_mldsa_signature_len(FM_MLDSA_44) == 2420);
}
static void case_fm_mldsa_keygen(void) {
  uint8_t pk[FM_MLDSA_44_PUBLIC_KEY_LEN], sk[FM_MLDSA_44_PRIVATE_KEY_LEN];
  APPROVED(fm_mldsa_keygen(FM_MLDSA_44, pk, sizeof pk, sk, sizeof sk, NULL));
  FAILS(FM_ERR_KEY_SIZE, fm_mldsa_keygen(FM_MLDSA_44, pk, sizeof pk - 1, sk, sizeof sk, NULL));
}
static void case_fm_mldsa_keygen_from_seed(void) {
  uint8_t pk[FM_MLDSA_44_PUBLIC_KEY_LEN], sk[FM_MLDSA_44_PRIVATE_KEY_LEN];
  APPROVED(fm_mldsa_keygen_from_seed(FM_MLDSA_44, key32, pk, sizeof pk, sk, sizeof sk));
  FAILS(FM_ERR_UNSUPPORTED, fm_mldsa_keygen_from_seed((fm_mldsa_param)1, key32, pk, sizeof pk, sk,
                                                      sizeof sk));
}
static void case_fm_mldsa_sign(void) {
  mldsa_fixture();
  uint8_t s[FM_MLDSA_44_SIGNATURE_LEN], ctx[256] = {0};
  size_t len;
  APPROVED(fm_mldsa_sign(FM_MLDSA_44, mldsa_sk, sizeof mldsa_sk, msg, 3, ctx, 255, 0, s, sizeof s,
                         &len));
  FAILS(FM_ERR_LENGTH, fm_mldsa_sign(FM_MLDSA_44, mldsa_sk, sizeof mldsa_sk, msg, 3, ctx, 256, 0, s,
                                     sizeof s, &len));
}
static void case_fm_mldsa_hash_sign(void) {
  mldsa_fixture();
  uint8_t s[FM_MLDSA_44_SIGNATURE_LEN];
  size_t len;
  APPROVED(fm_mldsa_hash_sign(FM_MLDSA_44, mldsa_sk, sizeof mldsa_sk, FM_MLDSA_PH_SHA256, msg, 3,
                              NULL, 0, FM_MLDSA_SIGN_DETERMINISTIC, s, sizeof s, &len));
  FAILS(FM_ERR_UNSUPPORTED, fm_mldsa_hash_sign(FM_MLDSA_44, mldsa_sk, sizeof mldsa_sk,
                                               (fm_mldsa_prehash)99, msg, 3, NULL, 0, 0, s,
                                               sizeof s, &len));
}
static void case_fm_mldsa_sign_internal(void) {
  mldsa_fixture();
  uint8_t s[FM_MLDSA_44_SIGNATURE_LEN];
  size_t len;
  APPROVED(fm_mldsa_sign_internal(FM_MLDSA_44, mldsa_sk, sizeof mldsa_sk, msg, 3, key32, s,
                                  sizeof s, &len));
  FAILS(FM_ERR_BUFFER_TOO_SMALL, fm_mldsa_sign_internal(FM_MLDSA_44, mldsa_sk, sizeof mldsa_sk, msg,
                                                        3, NULL, s, sizeof s - 1, &len));
}
static void case_fm_mldsa_sign_with_rnd(void) {
  mldsa_fixture();
  uint8_t s[FM_MLDSA_44_SIGNATURE_LEN];
  size_t len;
  APPROVED(fm_mldsa_sign_with_rnd(FM_MLDSA_44, mldsa_sk, sizeof mldsa_sk, FM_MLDSA_PH_SHA224, msg,
                                  3, NULL, 0, key32, s, sizeof s, &len));
  FAILS(FM_ERR_UNSUPPORTED, fm_mldsa_sign_with_rnd(FM_MLDSA_44, mldsa_sk, sizeof mldsa_sk,
                                                   (fm_mldsa_prehash)99, msg, 3, NULL, 0, key32,
                                                   s, sizeof s, &len));
}
static void case_fm_mldsa_sign_mu(void) {
  mldsa_fixture();
  uint8_t s[FM_MLDSA_44_SIGNATURE_LEN];
  size_t len;
  APPROVED(fm_mldsa_sign_mu(FM_MLDSA_44, mldsa_sk, sizeof mldsa_sk, mldsa_mu, NULL, s, sizeof s,
                            &len));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_mldsa_sign_mu(FM_MLDSA_44, mldsa_sk, sizeof mldsa_sk, NULL, NULL, s,
                                              sizeof s, &len));
}
static void case_fm_mldsa_verify(void) {
  mldsa_fixture();
  APPROVED(fm_mldsa_verify(FM_MLDSA_44, mldsa_pk, sizeof mldsa_pk, msg, 3, NULL, 0, mldsa_sig,
                           mldsa_sig_len));
  FAILS(FM_ERR_VERIFY, fm_mldsa_verify(FM_MLDSA_44, mldsa_pk, sizeof mldsa_pk, msg, 2, NULL, 0,
                                       mldsa_sig, mldsa_sig_len));
}
static void case_fm_mldsa_hash_verify(void) {
  mldsa_fixture();
  FAILS(FM_ERR_VERIFY, fm_mldsa_hash_verify(FM_MLDSA_44, mldsa_pk, sizeof mldsa_pk,
                                            FM_MLDSA_PH_SHA256, msg, 3, NULL, 0, mldsa_sig,
                                            mldsa_sig_len));
  uint8_t s[FM_MLDSA_44_SIGNATURE_LEN];
  size_t len;
  CHECK_EQ_INT(fm_mldsa_hash_sign(FM_MLDSA_44, mldsa_sk, sizeof mldsa_sk, FM_MLDSA_PH_SHA256, msg,
                                  3, NULL, 0, 0, s, sizeof s, &len),
               FM_OK);
  APPROVED(fm_mldsa_hash_verify(FM_MLDSA_44, mldsa_pk, sizeof mldsa_pk, FM_MLDSA_PH_SHA256, msg, 3,
                                NULL, 0, s, len));
}
static void case_fm_mldsa_verify_internal(void) {
  mldsa_fixture();
  uint8_t s[FM_MLDSA_44_SIGNATURE_LEN];
  size_t len;
  CHECK_EQ_INT(fm_mldsa_sign_internal(FM_MLDSA_44, mldsa_sk, sizeof mldsa_sk, msg, 3, NULL, s,
                                      sizeof s, &len),
               FM_OK);
  APPROVED(fm_mldsa_verify_internal(FM_MLDSA_44, mldsa_pk, sizeof mldsa_pk, msg, 3, s, len));
  FAILS(FM_ERR_LENGTH, fm_mldsa_verify_internal(FM_MLDSA_44, mldsa_pk, sizeof mldsa_pk, msg, 3, s,
                                                len - 1));
}
static void case_fm_mldsa_verify_mu(void) {
  mldsa_fixture();
  uint8_t s[FM_MLDSA_44_SIGNATURE_LEN];
  size_t len;
  CHECK_EQ_INT(fm_mldsa_sign_mu(FM_MLDSA_44, mldsa_sk, sizeof mldsa_sk, mldsa_mu, NULL, s, sizeof s,
                                &len),
               FM_OK);
  APPROVED(fm_mldsa_verify_mu(FM_MLDSA_44, mldsa_pk, sizeof mldsa_pk, mldsa_mu, s, len));
  FAILS(FM_ERR_KEY_SIZE, fm_mldsa_verify_mu(FM_MLDSA_44, mldsa_pk, 1, mldsa_mu, s, len));
}
static void case_fm_mldsa_key_encode(void) {
  mldsa_fixture();
  uint8_t out[8192];
  size_t len;
  APPROVED(fm_mldsa_key_encode(FM_MLDSA_44, FM_KEY_PKCS8_EXPANDED, mldsa_sk, sizeof mldsa_sk,
                               FM_KEY_DER, out, sizeof out, &len));
  FAILS(FM_ERR_KEY_SIZE, fm_mldsa_key_encode(FM_MLDSA_44, FM_KEY_SPKI_PUBLIC, mldsa_pk, 1,
                                             FM_KEY_DER, out, sizeof out, &len));
}
static void case_fm_mldsa_key_decode(void) {
  static const uint8_t seed[32] = {7};
  uint8_t pem[256], pk[FM_MLDSA_44_PUBLIC_KEY_LEN];
  size_t len;
  fm_mldsa_param p;
  fm_key_format f;
  CHECK_EQ_INT(fm_mldsa_key_encode(FM_MLDSA_44, FM_KEY_PKCS8_PRIVATE, seed, sizeof seed,
                                   FM_KEY_PEM, pem, sizeof pem, &len),
               FM_OK);
  APPROVED(fm_mldsa_key_decode(pem, len, &p, &f, NULL, 0, NULL, 0, pk, sizeof pk));
  FAILS(FM_ERR_BUFFER_TOO_SMALL, fm_mldsa_key_decode(pem, len, &p, &f, NULL, 0, NULL, 0, pk, 1));
}
/* ML-KEM: one ML-KEM-768 key made once for the cases below. */
static uint8_t mlkem_ek[FM_MLKEM768_EK_LEN], mlkem_dk[FM_MLKEM768_DK_LEN];
static uint8_t mlkem_ct[FM_MLKEM768_CT_LEN];
static void mlkem_key(void) {
  static const uint8_t seed[64] = {9};
  CHECK_EQ_INT(fm_mlkem_keygen_from_seed(FM_MLKEM_768, seed, 64, mlkem_ek, sizeof mlkem_ek,
                                         mlkem_dk, sizeof mlkem_dk),
               FM_OK);
}
static void case_fm_mlkem_sizes(void) {
  size_t a, b, c;
  UNCHANGED(fm_mlkem_sizes(FM_MLKEM_768, &a, &b, &c));
  UNCHANGED(fm_mlkem_sizes((fm_mlkem_param)1, &a, &b, &c));
}
static void case_fm_mlkem_keygen(void) {
  APPROVED(fm_mlkem_keygen(FM_MLKEM_512, mlkem_ek, FM_MLKEM512_EK_LEN, mlkem_dk,
                           FM_MLKEM512_DK_LEN, NULL, 0));
  FAILS(FM_ERR_UNSUPPORTED, fm_mlkem_keygen((fm_mlkem_param)1, mlkem_ek, 800, mlkem_dk, 1632,
                                            NULL, 0));
  mlkem_key();
}
static void case_fm_mlkem_keygen_from_seed(void) {
  static const uint8_t seed[64] = {9};
  APPROVED(fm_mlkem_keygen_from_seed(FM_MLKEM_768, seed, 64, mlkem_ek, sizeof mlkem_ek, mlkem_dk,
                                     sizeof mlkem_dk));
  FAILS(FM_ERR_LENGTH, fm_mlkem_keygen_from_seed(FM_MLKEM_768, seed, 32, mlkem_ek,
                                                 sizeof mlkem_ek, mlkem_dk, sizeof mlkem_dk));
  mlkem_key();
}
static void case_fm_mlkem_encaps(void) {
  uint8_t ss[32];
  mlkem_key();
  APPROVED(fm_mlkem_encaps(FM_MLKEM_768, mlkem_ek, sizeof mlkem_ek, mlkem_ct, sizeof mlkem_ct, ss,
                           32));
  FAILS(FM_ERR_LENGTH, fm_mlkem_encaps(FM_MLKEM_768, mlkem_ek, 100, mlkem_ct, sizeof mlkem_ct, ss,
                                       32));
}
static void case_fm_mlkem_encaps_internal(void) {
  static const uint8_t m[32] = {1};
  uint8_t ss[32];
  mlkem_key();
  OK_NOT_APPROVED(fm_mlkem_encaps_internal(FM_MLKEM_768, mlkem_ek, sizeof mlkem_ek, m, 32,
                                           mlkem_ct, sizeof mlkem_ct, ss, 32));
  FAILS(FM_ERR_LENGTH, fm_mlkem_encaps_internal(FM_MLKEM_768, mlkem_ek, sizeof mlkem_ek, m, 31,
                                                mlkem_ct, sizeof mlkem_ct, ss, 32));
}
static void case_fm_mlkem_decaps(void) {
  uint8_t ss[32];
  mlkem_key();
  APPROVED(fm_mlkem_decaps(FM_MLKEM_768, mlkem_dk, sizeof mlkem_dk, mlkem_ct, sizeof mlkem_ct, ss,
                           32));
  FAILS(FM_ERR_LENGTH, fm_mlkem_decaps(FM_MLKEM_768, mlkem_dk, 10, mlkem_ct, sizeof mlkem_ct, ss,
                                       32));
}
static void case_fm_mlkem_check_ek(void) {
  mlkem_key();
  APPROVED(fm_mlkem_check_ek(FM_MLKEM_768, mlkem_ek, sizeof mlkem_ek));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_mlkem_check_ek(FM_MLKEM_768, NULL, sizeof mlkem_ek));
}
static void case_fm_mlkem_check_dk(void) {
  mlkem_key();
  APPROVED(fm_mlkem_check_dk(FM_MLKEM_768, mlkem_dk, sizeof mlkem_dk));
  FAILS(FM_ERR_LENGTH, fm_mlkem_check_dk(FM_MLKEM_768, mlkem_dk, 1));
}

static void case_fm_mlkem_key_encode(void) {
  static const uint8_t seed[64] = {9};
  uint8_t out[8192];
  size_t len;
  APPROVED(fm_mlkem_key_encode(FM_MLKEM_768, FM_KEY_PKCS8_BOTH, seed, sizeof seed, FM_KEY_PEM,
                               out, sizeof out, &len));
  FAILS(FM_ERR_LENGTH, fm_mlkem_key_encode(FM_MLKEM_768, FM_KEY_PKCS8_PRIVATE, seed, 32,
                                           FM_KEY_DER, out, sizeof out, &len));
}
static void case_fm_mlkem_key_decode(void) {
  mlkem_key();
  uint8_t der[4096], ek[FM_MLKEM768_EK_LEN];
  size_t len;
  fm_mlkem_param p;
  fm_key_format f;
  CHECK_EQ_INT(fm_mlkem_key_encode(FM_MLKEM_768, FM_KEY_PKCS8_EXPANDED, mlkem_dk, sizeof mlkem_dk,
                                   FM_KEY_DER, der, sizeof der, &len),
               FM_OK);
  APPROVED(fm_mlkem_key_decode(der, len, &p, &f, NULL, 0, NULL, 0, ek, sizeof ek));
  der[len - 1] ^= 1; /* z: not checked; H(ek) is */
  der[len - 64] ^= 1;
  FAILS(FM_ERR_BAD_KEY, fm_mlkem_key_decode(der, len, &p, &f, NULL, 0, NULL, 0, ek, sizeof ek));
}

/* ---- Encrypted PKCS#8 and any-key loading ------------------------------------------------- */

/* pkcs8_ec writes the P-256 test key as PKCS#8 DER and returns its length. */
static size_t pkcs8_ec(uint8_t *der, size_t cap) {
  fm_ec_key *k = ec_key();
  size_t len = 0;
  CHECK_EQ_INT(fm_ec_key_encode(k, FM_KEY_PKCS8_PRIVATE, FM_KEY_DER, der, cap, &len), FM_OK);
  fm_ec_key_free(k);
  return len;
}

static const fm_pkcs8_params pbe_ok = {FM_PBE_NONE, FM_HASH_SHA256, 16, 1000, 16};
static const fm_pkcs8_params pbe_weak = {FM_PBE_NONE, FM_HASH_SHA256, 16, 999, 16};

static void case_fm_pkcs8_encrypt(void) {
  uint8_t der[256], out[512];
  size_t len = pkcs8_ec(der, sizeof der), n;
  APPROVED(fm_pkcs8_encrypt(der, len, key32, 8, &pbe_ok, FM_KEY_DER, out, sizeof out, &n));
  OK_NOT_APPROVED(fm_pkcs8_encrypt(der, len, key32, 8, &pbe_weak, FM_KEY_DER, out, sizeof out, &n));
  OK_NOT_APPROVED(fm_pkcs8_encrypt(der, len, key32, 7, &pbe_ok, FM_KEY_DER, out, sizeof out, &n));
  FAILS(FM_ERR_PASSPHRASE, fm_pkcs8_encrypt(der, len, NULL, 0, &pbe_ok, FM_KEY_DER, out, sizeof out, &n));
}
static void case_fm_pkcs8_decrypt(void) {
  uint8_t der[256], enc[512], weak[512], out[512];
  size_t len = pkcs8_ec(der, sizeof der), n, nw, m;
  CHECK_EQ_INT(fm_pkcs8_encrypt(der, len, key32, 8, &pbe_ok, FM_KEY_DER, enc, sizeof enc, &n), FM_OK);
  CHECK_EQ_INT(fm_pkcs8_encrypt(der, len, key32, 8, &pbe_weak, FM_KEY_DER, weak, sizeof weak, &nw),
               FM_OK);
  APPROVED(fm_pkcs8_decrypt(enc, n, key32, 8, out, sizeof out, &m, NULL));
  OK_NOT_APPROVED(fm_pkcs8_decrypt(weak, nw, key32, 8, out, sizeof out, &m, NULL));
  FAILS(FM_ERR_DECRYPT, fm_pkcs8_decrypt(enc, n, key32 + 1, 8, out, sizeof out, &m, NULL));
}
static void case_fm_key_decode(void) {
  uint8_t der[256], enc[512], weak[512];
  size_t len = pkcs8_ec(der, sizeof der), n, nw;
  CHECK_EQ_INT(fm_pkcs8_encrypt(der, len, key32, 8, &pbe_ok, FM_KEY_PEM, enc, sizeof enc, &n), FM_OK);
  CHECK_EQ_INT(fm_pkcs8_encrypt(der, len, key32, 8, &pbe_weak, FM_KEY_PEM, weak, sizeof weak, &nw),
               FM_OK);
  fm_key *k = NULL;
  APPROVED(fm_key_decode(der, len, NULL, 0, &k, NULL));
  fm_key_free(k);
  APPROVED(fm_key_decode(enc, n, key32, 8, &k, NULL));
  fm_key_free(k);
  OK_NOT_APPROVED(fm_key_decode(weak, nw, key32, 8, &k, NULL));
  fm_key_free(k);
  FAILS(FM_ERR_PASSPHRASE, fm_key_decode(enc, n, NULL, 0, &k, NULL));
}
static void case_fm_key_decode_ex(void) {
  uint8_t der[256], weak[512];
  size_t len = pkcs8_ec(der, sizeof der), nw;
  CHECK_EQ_INT(fm_pkcs8_encrypt(der, len, key32, 8, &pbe_weak, FM_KEY_PEM, weak, sizeof weak, &nw),
               FM_OK);
  fm_key *k = NULL;
  APPROVED(fm_key_decode_ex(der, len, NULL, 0, FM_KEY_DECODE_RSA_CONSISTENCY_ONLY, &k, NULL));
  fm_key_free(k);
  OK_NOT_APPROVED(fm_key_decode_ex(weak, nw, key32, 8, FM_KEY_DECODE_RSA_CONSISTENCY_ONLY, &k,
                                   NULL));
  fm_key_free(k);
  FAILS(FM_ERR_BAD_ARGUMENT, fm_key_decode_ex(der, len, NULL, 0, 0x80u, &k, NULL));
}
static void case_fm_key_load_file(void) {
  fm_key *k = NULL;
  APPROVED(fm_key_load_file(FIPSMOD_VECTORS_DIR "/keys/ec-p256-pkcs8.pem", NULL, 0, &k, NULL));
  fm_key_free(k);
  FAILS(FM_ERR_IO, fm_key_load_file(FIPSMOD_VECTORS_DIR "/keys/no-such-file", NULL, 0, &k, NULL));
}
static void case_fm_key_get(void) {
  uint8_t der[256];
  size_t len = pkcs8_ec(der, sizeof der);
  fm_key *k = NULL;
  fm_key_view v;
  CHECK_EQ_INT(fm_key_decode(der, len, NULL, 0, &k, NULL), FM_OK);
  UNCHANGED(fm_key_get(k, &v));
  UNCHANGED(fm_key_get(NULL, &v));
  fm_key_free(k);
}
static void case_fm_key_free(void) {
  uint8_t der[256];
  size_t len = pkcs8_ec(der, sizeof der);
  fm_key *k = NULL;
  CHECK_EQ_INT(fm_key_decode(der, len, NULL, 0, &k, NULL), FM_OK);
  APPROVED(fm_key_free(k));
  APPROVED(fm_key_free(NULL));
}

service_case indicator_cases_ec_pq[] = {
    CASE(fm_mlkem_sizes),
    CASE(fm_mlkem_keygen),
    CASE(fm_mlkem_keygen_from_seed),
    CASE(fm_mlkem_encaps),
    CASE(fm_mlkem_encaps_internal),
    CASE(fm_mlkem_decaps),
    CASE(fm_mlkem_check_ek),
    CASE(fm_mlkem_check_dk),
    CASE(fm_mldsa_public_key_len),
    CASE(fm_mldsa_private_key_len),
    CASE(fm_mldsa_signature_len),
    CASE(fm_mldsa_keygen),
    CASE(fm_mldsa_keygen_from_seed),
    CASE(fm_mldsa_sign),
    CASE(fm_mldsa_hash_sign),
    CASE(fm_mldsa_sign_internal),
    CASE(fm_mldsa_sign_with_rnd),
    CASE(fm_mldsa_sign_mu),
    CASE(fm_mldsa_verify),
    CASE(fm_mldsa_hash_verify),
    CASE(fm_mldsa_verify_internal),
    CASE(fm_mldsa_verify_mu),
    CASE(fm_ec_curve_bytes),
    CASE(fm_ec_key_generate),
    CASE(fm_ec_key_import_private),
    CASE(fm_ec_key_import_public),
    CASE(fm_ec_key_export_public),
    CASE(fm_ec_key_export_private),
    CASE(fm_ec_key_curve),
    CASE(fm_ec_key_free),
    CASE(fm_ecdsa_sign),
    CASE(fm_ecdsa_sign_digest),
    CASE(fm_ecdsa_sign_deterministic),
    CASE(fm_ecdsa_sign_deterministic_digest),
    CASE(fm_ecdsa_verify),
    CASE(fm_ecdsa_verify_digest),
    CASE(fm_ecdh),
    CASE(fm_ecdsa_sig_to_der),
    CASE(fm_ecdsa_sig_from_der),
    CASE(fm_ec_key_decode),
    CASE(fm_ec_key_encode),
    CASE(fm_mlkem_key_decode),
    CASE(fm_mlkem_key_encode),
    CASE(fm_pkcs8_encrypt),
    CASE(fm_pkcs8_decrypt),
    CASE(fm_key_decode),
    CASE(fm_key_decode_ex),
    CASE(fm_key_load_file),
    CASE(fm_key_get),
    CASE(fm_key_free),
    CASE(fm_mldsa_key_decode),
    CASE(fm_mldsa_key_encode),
    {NULL, NULL, false},
};
