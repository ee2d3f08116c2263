/* The service indicator (FIPS 140-3 IG 2.4.C; include/fipsmod/indicator.h), checked for every
 * exported function: policy/services.tsv names each export and what its indicator must say, and
 * this test has one case per row (it fails when a row has none). Each case makes one approved
 * call and one call that is not approved or fails, and checks the indicator after each;
 * informational functions must leave whatever value the indicator had, both APPROVED and
 * NOT_APPROVED. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fipsmod/fipsmod.h"
#include "tests/common/test_util.h"

static fm_indicator indicator(void) {
  fm_indicator ind = FM_INDICATOR_NONE;
  if (fm_service_indicator(&ind) != FM_OK) return (fm_indicator)99;
  return ind;
}

/* set_indicator leaves the indicator at |want| by an approved or a failing fm_sha256 call. */
static void set_indicator(fm_indicator want) {
  uint8_t d[FM_SHA256_DIGEST_LEN];
  if (want == FM_INDICATOR_APPROVED) {
    CHECK_EQ_INT(fm_sha256("x", 1, d), FM_OK);
  } else {
    CHECK_EQ_INT(fm_sha256(NULL, 1, d), FM_ERR_BAD_ARGUMENT);
  }
  CHECK_EQ_INT(indicator(), want);
}

/* APPROVED: the call returns FM_OK and the indicator says approved. */
#define APPROVED(call)                                   \
  do {                                                   \
    set_indicator(FM_INDICATOR_NOT_APPROVED);            \
    CHECK_EQ_INT((call), FM_OK);                         \
    CHECK_EQ_INT(indicator(), FM_INDICATOR_APPROVED);    \
  } while (0)

/* OK_NOT_APPROVED: the call returns FM_OK, but with parameters outside the approved set. */
#define OK_NOT_APPROVED(call)                             \
  do {                                                    \
    set_indicator(FM_INDICATOR_APPROVED);                 \
    CHECK_EQ_INT((call), FM_OK);                          \
    CHECK_EQ_INT(indicator(), FM_INDICATOR_NOT_APPROVED); \
  } while (0)

/* FAILS: the call returns |status| (an error) and the indicator says not approved. */
#define FAILS(status, call)                               \
  do {                                                    \
    set_indicator(FM_INDICATOR_APPROVED);                 \
    CHECK_EQ_INT((call), (status));                       \
    CHECK_EQ_INT(indicator(), FM_INDICATOR_NOT_APPROVED); \
  } while (0)

/* UNCHANGED: the call (an expression whose value is ignored; it may fail) leaves the indicator
 * as it was, APPROVED or NOT_APPROVED. */
#define UNCHANGED(call)                                   \
  do {                                                    \
    set_indicator(FM_INDICATOR_APPROVED);                 \
    (void)!(call);                                        \
    CHECK_EQ_INT(indicator(), FM_INDICATOR_APPROVED);     \
    set_indicator(FM_INDICATOR_NOT_APPROVED);             \
    (void)!(call);                                        \
    CHECK_EQ_INT(indicator(), FM_INDICATOR_NOT_APPROVED); \
  } while (0)

/* A 1024-bit RSA key (legacy size) and a PKCS#1 v1.5 SHA-256 signature of "abc" under it,
 * made with python3 cryptography for this test. */
static const char k1024_n[] =
  "c562aa6ca2d2648008e7c995ca991230d884f047d5d61f7f74184b090d521358fc613d8a888dbcfb53a5151106042ff3"
  "0f0003e8177e5eafa7886bde0e24247d7c3e900a8a1dafe68dd62d825e05d35b4f74ee594f1bda493c4439ab9e4037e5"
  "ebf3e1a54c238f54d3b9ab834126d5c3b8c769e5101e0209937fb649b6888d13"
  ;
static const char k1024_sig_abc[] =
  "3e2fa23d030d12bc95aa30639e72accd03986c5458fad24e3b73300f1a40075424018001527fc3114f72d3f7a0913071"
  "74f7d0b5554a64017fd6b59270a6357d98e003348bcd814f6abae70154e74a774624e004d931c850cbb9dc9b7a195aeb"
  "c20f992e9433fe8e9948bc8a16f5f938a76aa6adeb9ea10153a9b2f6de535027"
  ;

static const uint8_t key32[32] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                                  17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32};
static const uint8_t e65537[3] = {1, 0, 1};
static const uint8_t msg[3] = {'a', 'b', 'c'};

/* Shared keys, made once by main. */
static fm_rsa_key *rsa2048;    /* generated private key */
static fm_rsa_key *rsa1024pub; /* the 1024-bit public key above */
static uint8_t n1024[128], sig1024[128];
static uint8_t n2048[256], d2048[256], p2048[128], q2048[128];
static size_t n2048_len, d2048_len, p2048_len, q2048_len;

static void make_keys(void) {
  CHECK(test_hex_decode(k1024_n, n1024, sizeof n1024) == 128);
  CHECK(test_hex_decode(k1024_sig_abc, sig1024, sizeof sig1024) == 128);
  CHECK_EQ_INT(fm_rsa_key_generate(2048, &rsa2048), FM_OK);
  CHECK_EQ_INT(fm_rsa_key_import_public(n1024, sizeof n1024, e65537, sizeof e65537, &rsa1024pub),
               FM_OK);
  CHECK_EQ_INT(fm_rsa_key_export(rsa2048, FM_RSA_N, n2048, sizeof n2048, &n2048_len), FM_OK);
  CHECK_EQ_INT(fm_rsa_key_export(rsa2048, FM_RSA_D, d2048, sizeof d2048, &d2048_len), FM_OK);
  CHECK_EQ_INT(fm_rsa_key_export(rsa2048, FM_RSA_P, p2048, sizeof p2048, &p2048_len), FM_OK);
  CHECK_EQ_INT(fm_rsa_key_export(rsa2048, FM_RSA_Q, q2048, sizeof q2048, &q2048_len), FM_OK);
}

static void selftest_cb(fm_selftest_event event, const fm_selftest_entry *entry, void *arg) {
  (void)event, (void)entry, (void)arg;
}

/* ---- Module, status, helpers: informational ------------------------------------------------- */

static void case_fm_module_state(void) { UNCHANGED(fm_module_state()); }
static void case_fm_module_state_name(void) { UNCHANGED(fm_module_state_name(FM_STATE_OPERATIONAL)); }
static void case_fm_module_version(void) { UNCHANGED(fm_module_version()); }
static void case_fm_module_cpu_features(void) {
  uint32_t det, use;
  UNCHANGED(fm_module_cpu_features(&det, &use));
  UNCHANGED(fm_module_cpu_features(NULL, NULL));
}
static void case_fm_module_cpu_feature_name(void) { UNCHANGED(fm_module_cpu_feature_name(1)); }
static void case_fm_module_cpu_paths(void) { UNCHANGED(fm_module_cpu_paths()); }
static void case_fm_strerror(void) { UNCHANGED(fm_strerror(FM_ERR_VERIFY)); }
static void case_fm_version_check(void) {
  UNCHANGED(fm_version_check(FIPSMOD_VERSION_MAJOR, FIPSMOD_VERSION_MINOR, 0));
  UNCHANGED(fm_version_check(FIPSMOD_VERSION_MAJOR + 1, 0, 0));
}
static void case_fm_memeq_consttime(void) {
  UNCHANGED(fm_memeq_consttime(key32, key32, 32));
  UNCHANGED(fm_memeq_consttime(key32, msg, 3));
  UNCHANGED(fm_memeq_consttime(NULL, msg, 3));
}
static void case_fm_cleanse(void) {
  uint8_t b[8] = {1};
  UNCHANGED(fm_cleanse(b, sizeof b));
  UNCHANGED(fm_cleanse(NULL, 1));
}
static void case_fm_service_indicator(void) {
  fm_indicator i;
  UNCHANGED(fm_service_indicator(&i));
  UNCHANGED(fm_service_indicator(NULL));
}
static void case_fm_service_indicator_name(void) {
  UNCHANGED(fm_service_indicator_name(FM_INDICATOR_APPROVED));
}
static void case_fm_hash_digest_len(void) {
  size_t len;
  UNCHANGED(fm_hash_digest_len(FM_HASH_SHA256, &len));
  UNCHANGED(fm_hash_digest_len((fm_hash_alg)77, &len));
}

/* ---- Self-tests -------------------------------------------------------------------------------- */

static void case_fm_selftest_run(void) { UNCHANGED(fm_selftest_run()); }
static void case_fm_selftest_report(void) {
  fm_selftest_entry e[4];
  size_t count;
  UNCHANGED(fm_selftest_report(e, 4, &count));
  UNCHANGED(fm_selftest_report(NULL, 4, &count));
}
static void case_fm_selftest_get_summary(void) {
  fm_selftest_summary s;
  UNCHANGED(fm_selftest_get_summary(&s));
  UNCHANGED(fm_selftest_get_summary(NULL));
}
static void case_fm_selftest_kind_name(void) { UNCHANGED(fm_selftest_kind_name((fm_selftest_kind)0)); }
static void case_fm_selftest_result_name(void) {
  UNCHANGED(fm_selftest_result_name((fm_selftest_result)0));
}
static void case_fm_selftest_when_name(void) { UNCHANGED(fm_selftest_when_name((fm_selftest_when)0)); }
static void case_fm_selftest_report_times(void) {
  size_t n = 0;
  UNCHANGED(fm_selftest_report_times(NULL, 0, &n));
}
static void case_fm_selftest_trigger_name(void) {
  UNCHANGED(fm_selftest_trigger_name((fm_selftest_trigger)0));
}
static void case_fm_set_selftest_callback(void) {
  UNCHANGED(fm_set_selftest_callback(selftest_cb, NULL));
  UNCHANGED(fm_set_selftest_callback(NULL, NULL));
}

/* ---- SHA-2 -------------------------------------------------------------------------------- */

static void case_fm_sha256(void) {
  uint8_t d[32];
  APPROVED(fm_sha256(msg, 3, d));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_sha256(msg, 3, NULL));
}
static void case_fm_sha384(void) {
  uint8_t d[48];
  APPROVED(fm_sha384(msg, 3, d));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_sha384(NULL, 3, d));
}
static void case_fm_sha512(void) {
  uint8_t d[64];
  APPROVED(fm_sha512(msg, 3, d));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_sha512(NULL, 3, d));
}
static void case_fm_sha224(void) {
  uint8_t d[28];
  APPROVED(fm_sha224(msg, 3, d));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_sha224(NULL, 3, d));
}
static void case_fm_sha512_224(void) {
  uint8_t d[28];
  APPROVED(fm_sha512_224(msg, 3, d));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_sha512_224(NULL, 3, d));
}
static void case_fm_sha512_256(void) {
  uint8_t d[32];
  APPROVED(fm_sha512_256(msg, 3, d));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_sha512_256(NULL, 3, d));
}
static void case_fm_sha3_224(void) {
  uint8_t d[28];
  APPROVED(fm_sha3_224(msg, 3, d));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_sha3_224(NULL, 3, d));
}
static void case_fm_sha3_256(void) {
  uint8_t d[32];
  APPROVED(fm_sha3_256(msg, 3, d));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_sha3_256(NULL, 3, d));
}
static void case_fm_sha3_384(void) {
  uint8_t d[48];
  APPROVED(fm_sha3_384(msg, 3, d));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_sha3_384(NULL, 3, d));
}
static void case_fm_sha3_512(void) {
  uint8_t d[64];
  APPROVED(fm_sha3_512(msg, 3, d));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_sha3_512(NULL, 3, d));
}
static void case_fm_shake128(void) {
  uint8_t d[200];
  APPROVED(fm_shake128(msg, 3, d, sizeof d));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_shake128(NULL, 3, d, sizeof d));
}
static void case_fm_shake256(void) {
  uint8_t d[200];
  APPROVED(fm_shake256(msg, 3, d, sizeof d));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_shake256(msg, 3, NULL, sizeof d));
}
static void case_fm_shake_init(void) {
  fm_shake_ctx c;
  APPROVED(fm_shake_init(&c, FM_XOF_SHAKE256));
  FAILS(FM_ERR_UNSUPPORTED, fm_shake_init(&c, (fm_xof_alg)9));
  fm_shake_wipe(&c);
}
static void case_fm_shake_absorb(void) {
  fm_shake_ctx c;
  CHECK_EQ_INT(fm_shake_init(&c, FM_XOF_SHAKE128), FM_OK);
  APPROVED(fm_shake_absorb(&c, msg, 3));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_shake_absorb(&c, NULL, 3));
  fm_shake_wipe(&c);
}
static void case_fm_shake_squeeze(void) {
  fm_shake_ctx c;
  uint8_t d[32];
  CHECK_EQ_INT(fm_shake_init(&c, FM_XOF_SHAKE128), FM_OK);
  APPROVED(fm_shake_squeeze(&c, d, sizeof d));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_shake_squeeze(&c, NULL, sizeof d));
  fm_shake_wipe(&c);
}
static void case_fm_shake_wipe(void) {
  fm_shake_ctx c;
  CHECK_EQ_INT(fm_shake_init(&c, FM_XOF_SHAKE128), FM_OK);
  APPROVED(fm_shake_wipe(&c));
  APPROVED(fm_shake_wipe(NULL));
}
static void case_fm_sha_digest(void) {
  uint8_t d[64];
  APPROVED(fm_sha_digest(FM_HASH_SHA512, msg, 3, d, sizeof d));
  FAILS(FM_ERR_BUFFER_TOO_SMALL, fm_sha_digest(FM_HASH_SHA512, msg, 3, d, 10));
}
static void case_fm_sha_init(void) {
  fm_sha_ctx c;
  APPROVED(fm_sha_init(&c, FM_HASH_SHA256));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_sha_init(NULL, FM_HASH_SHA256));
  fm_sha_wipe(&c);
}
static void case_fm_sha_update(void) {
  fm_sha_ctx c;
  CHECK_EQ_INT(fm_sha_init(&c, FM_HASH_SHA256), FM_OK);
  APPROVED(fm_sha_update(&c, msg, 3));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_sha_update(&c, NULL, 3));
  fm_sha_wipe(&c);
}
static void case_fm_sha_final(void) {
  fm_sha_ctx c;
  uint8_t d[32];
  CHECK_EQ_INT(fm_sha_init(&c, FM_HASH_SHA256), FM_OK);
  APPROVED(fm_sha_final(&c, d, sizeof d));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_sha_final(NULL, d, sizeof d));
}
static void case_fm_sha_wipe(void) {
  fm_sha_ctx c;
  CHECK_EQ_INT(fm_sha_init(&c, FM_HASH_SHA256), FM_OK);
  APPROVED(fm_sha_wipe(&c));
  APPROVED(fm_sha_wipe(NULL)); /* nothing to wipe; it fails only outside OPERATIONAL (below) */
}

/* ---- HMAC: keys under 112 bits (14 bytes) are not approved ------------------------------- */

static void case_fm_hmac(void) {
  uint8_t t[32];
  APPROVED(fm_hmac(FM_HASH_SHA256, key32, 14, msg, 3, t, sizeof t));
  OK_NOT_APPROVED(fm_hmac(FM_HASH_SHA256, key32, 13, msg, 3, t, sizeof t));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_hmac(FM_HASH_SHA256, NULL, 14, msg, 3, t, sizeof t));
}
static void case_fm_hmac_init(void) {
  fm_hmac_ctx c;
  APPROVED(fm_hmac_init(&c, FM_HASH_SHA256, key32, 32));
  OK_NOT_APPROVED(fm_hmac_init(&c, FM_HASH_SHA256, key32, 8));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_hmac_init(NULL, FM_HASH_SHA256, key32, 32));
  fm_hmac_wipe(&c);
}
static void case_fm_hmac_update(void) {
  fm_hmac_ctx c;
  CHECK_EQ_INT(fm_hmac_init(&c, FM_HASH_SHA256, key32, 32), FM_OK);
  APPROVED(fm_hmac_update(&c, msg, 3));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_hmac_update(&c, NULL, 3));
  CHECK_EQ_INT(fm_hmac_init(&c, FM_HASH_SHA256, key32, 8), FM_OK);
  OK_NOT_APPROVED(fm_hmac_update(&c, msg, 3)); /* the context of a short key stays not approved */
  fm_hmac_wipe(&c);
}
static void case_fm_hmac_final(void) {
  fm_hmac_ctx c;
  uint8_t t[32];
  CHECK_EQ_INT(fm_hmac_init(&c, FM_HASH_SHA256, key32, 32), FM_OK);
  APPROVED(fm_hmac_final(&c, t, sizeof t));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_hmac_final(NULL, t, sizeof t));
  CHECK_EQ_INT(fm_hmac_init(&c, FM_HASH_SHA256, key32, 8), FM_OK);
  OK_NOT_APPROVED(fm_hmac_final(&c, t, sizeof t));
}
static void case_fm_hmac_wipe(void) {
  fm_hmac_ctx c;
  CHECK_EQ_INT(fm_hmac_init(&c, FM_HASH_SHA256, key32, 32), FM_OK);
  APPROVED(fm_hmac_wipe(&c));
  APPROVED(fm_hmac_wipe(NULL)); /* nothing to wipe; it fails only outside OPERATIONAL (below) */
}
static void case_fm_hmac_verify(void) {
  uint8_t t[32], t13[32];
  CHECK_EQ_INT(fm_hmac(FM_HASH_SHA256, key32, 32, msg, 3, t, sizeof t), FM_OK);
  CHECK_EQ_INT(fm_hmac(FM_HASH_SHA256, key32, 13, msg, 3, t13, sizeof t13), FM_OK);
  APPROVED(fm_hmac_verify(FM_HASH_SHA256, key32, 32, msg, 3, t, sizeof t));
  OK_NOT_APPROVED(fm_hmac_verify(FM_HASH_SHA256, key32, 13, msg, 3, t13, sizeof t13));
  t[0] ^= 1;
  FAILS(FM_ERR_VERIFY, fm_hmac_verify(FM_HASH_SHA256, key32, 32, msg, 3, t, sizeof t));
}

/* ---- AES ------------------------------------------------------------------------------------ */

static void case_fm_aes_key_init(void) {
  fm_aes_key k;
  APPROVED(fm_aes_key_init(&k, key32, 32));
  APPROVED(fm_aes_key_init(&k, key32, 24)); /* AES-192 */
  FAILS(FM_ERR_KEY_SIZE, fm_aes_key_init(&k, key32, 20));
  FAILS(FM_ERR_KEY_SIZE, fm_aes_key_init(&k, key32, 28));
  fm_aes_key_wipe(&k);
}
static void case_fm_aes_key_wipe(void) {
  fm_aes_key k;
  CHECK_EQ_INT(fm_aes_key_init(&k, key32, 16), FM_OK);
  APPROVED(fm_aes_key_wipe(&k));
  APPROVED(fm_aes_key_wipe(NULL)); /* nothing to wipe; it fails only outside OPERATIONAL (below) */
}
static fm_aes_key aes;
static void case_fm_aes_ecb_encrypt(void) {
  uint8_t b[32];
  APPROVED(fm_aes_ecb_encrypt(&aes, key32, b, 32));
  FAILS(FM_ERR_LENGTH, fm_aes_ecb_encrypt(&aes, key32, b, 31));
}
static void case_fm_aes_ecb_decrypt(void) {
  uint8_t b[32];
  APPROVED(fm_aes_ecb_decrypt(&aes, key32, b, 32));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_aes_ecb_decrypt(NULL, key32, b, 32));
}
static void case_fm_aes_cbc_encrypt(void) {
  uint8_t b[32], iv[16] = {0};
  APPROVED(fm_aes_cbc_encrypt(&aes, iv, key32, b, 32));
  FAILS(FM_ERR_LENGTH, fm_aes_cbc_encrypt(&aes, iv, key32, b, 17));
}
static void case_fm_aes_cbc_decrypt(void) {
  uint8_t b[32], iv[16] = {0};
  APPROVED(fm_aes_cbc_decrypt(&aes, iv, key32, b, 32));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_aes_cbc_decrypt(&aes, NULL, key32, b, 32));
}
static void case_fm_aes_ctr(void) {
  uint8_t b[20], ctr[16] = {0};
  APPROVED(fm_aes_ctr(&aes, FM_AES_CTR128, ctr, key32, b, 20));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_aes_ctr(&aes, FM_AES_CTR128, NULL, key32, b, 20));
}
static void case_fm_aes_ctr_stream(void) {
  uint8_t b[20], ctr[16] = {0}, ks[16];
  unsigned used = 0;
  APPROVED(fm_aes_ctr_stream(&aes, FM_AES_CTR128, ctr, ks, &used, key32, b, 20));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_aes_ctr_stream(&aes, FM_AES_CTR128, ctr, ks, NULL, key32, b, 20));
}

/* ---- AES-GCM: caller IVs for encryption and tags of 64 or 32 bits are not approved -------- */

static void case_fm_gcm_key_init(void) {
  fm_gcm_key k;
  APPROVED(fm_gcm_key_init(&k, key32, 32));
  APPROVED(fm_gcm_key_init(&k, key32, 24)); /* AES-192 */
  FAILS(FM_ERR_KEY_SIZE, fm_gcm_key_init(&k, key32, 20));
  FAILS(FM_ERR_KEY_SIZE, fm_gcm_key_init(&k, key32, 28));
  fm_gcm_key_wipe(&k);
}
static void case_fm_gcm_key_init_counter_iv(void) {
  fm_gcm_key k;
  const uint8_t fixed[4] = {1, 2, 3, 4};
  APPROVED(fm_gcm_key_init_counter_iv(&k, key32, 16, fixed));
  APPROVED(fm_gcm_key_init_counter_iv(&k, key32, 24, fixed)); /* AES-192 */
  FAILS(FM_ERR_KEY_SIZE, fm_gcm_key_init_counter_iv(&k, key32, 28, fixed));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_gcm_key_init_counter_iv(&k, key32, 16, NULL));
  fm_gcm_key_wipe(&k);
}
static void case_fm_gcm_key_wipe(void) {
  fm_gcm_key k;
  CHECK_EQ_INT(fm_gcm_key_init(&k, key32, 16), FM_OK);
  APPROVED(fm_gcm_key_wipe(&k));
  APPROVED(fm_gcm_key_wipe(NULL)); /* nothing to wipe; it fails only outside OPERATIONAL (below) */
}
static fm_gcm_key gk;
static void case_fm_gcm_seal(void) {
  uint8_t iv[12], ct[3], tag[16];
  APPROVED(fm_gcm_seal(&gk, iv, msg, 3, msg, 3, ct, tag, 16));
  APPROVED(fm_gcm_seal(&gk, iv, msg, 3, msg, 3, ct, tag, 12));
  OK_NOT_APPROVED(fm_gcm_seal(&gk, iv, msg, 3, msg, 3, ct, tag, 8));
  OK_NOT_APPROVED(fm_gcm_seal(&gk, iv, msg, 3, msg, 3, ct, tag, 4));
  FAILS(FM_ERR_LENGTH, fm_gcm_seal(&gk, iv, msg, 3, msg, 3, ct, tag, 11));
}
static void case_fm_gcm_seal_with_iv(void) {
  uint8_t iv[12] = {0}, ct[3], tag[16];
  OK_NOT_APPROVED(fm_gcm_seal_with_iv(&gk, iv, 12, msg, 3, msg, 3, ct, tag, 16));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_gcm_seal_with_iv(&gk, NULL, 12, msg, 3, msg, 3, ct, tag, 16));
}
static void case_fm_gcm_open(void) {
  uint8_t iv[12], ct[3], tag[16], tag8[8], pt[3];
  CHECK_EQ_INT(fm_gcm_seal(&gk, iv, NULL, 0, msg, 3, ct, tag, 16), FM_OK);
  APPROVED(fm_gcm_open(&gk, iv, 12, NULL, 0, ct, 3, tag, 16, pt));
  memcpy(tag8, tag, 8);
  OK_NOT_APPROVED(fm_gcm_open(&gk, iv, 12, NULL, 0, ct, 3, tag8, 8, pt));
  tag[5] ^= 1;
  FAILS(FM_ERR_VERIFY, fm_gcm_open(&gk, iv, 12, NULL, 0, ct, 3, tag, 16, pt));
}
static void case_fm_gcm_encrypt_init(void) {
  fm_gcm_ctx c;
  uint8_t iv[12];
  APPROVED(fm_gcm_encrypt_init(&c, &gk, iv));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_gcm_encrypt_init(&c, &gk, NULL));
  fm_gcm_ctx_wipe(&c);
}
static void case_fm_gcm_encrypt_init_with_iv(void) {
  fm_gcm_ctx c;
  uint8_t iv[12] = {0};
  OK_NOT_APPROVED(fm_gcm_encrypt_init_with_iv(&c, &gk, iv, 12));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_gcm_encrypt_init_with_iv(&c, &gk, NULL, 12));
  fm_gcm_ctx_wipe(&c);
}
static void case_fm_gcm_decrypt_init(void) {
  fm_gcm_ctx c;
  uint8_t iv[12] = {0};
  APPROVED(fm_gcm_decrypt_init(&c, &gk, iv, 12));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_gcm_decrypt_init(&c, &gk, NULL, 12));
  fm_gcm_ctx_wipe(&c);
}
static void case_fm_gcm_aad(void) {
  fm_gcm_ctx c;
  uint8_t iv[12];
  CHECK_EQ_INT(fm_gcm_encrypt_init(&c, &gk, iv), FM_OK);
  APPROVED(fm_gcm_aad(&c, msg, 3));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_gcm_aad(&c, NULL, 3));
  fm_gcm_ctx_wipe(&c);
}
static void case_fm_gcm_update(void) {
  fm_gcm_ctx c;
  uint8_t iv[12], out[3];
  CHECK_EQ_INT(fm_gcm_encrypt_init(&c, &gk, iv), FM_OK);
  APPROVED(fm_gcm_update(&c, msg, out, 3));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_gcm_update(&c, NULL, out, 3));
  fm_gcm_ctx_wipe(&c);
}
static void case_fm_gcm_encrypt_final(void) {
  fm_gcm_ctx c;
  uint8_t iv[12] = {0}, tag[16];
  CHECK_EQ_INT(fm_gcm_encrypt_init(&c, &gk, iv), FM_OK);
  APPROVED(fm_gcm_encrypt_final(&c, tag, 16));
  CHECK_EQ_INT(fm_gcm_encrypt_init(&c, &gk, iv), FM_OK);
  OK_NOT_APPROVED(fm_gcm_encrypt_final(&c, tag, 8));
  CHECK_EQ_INT(fm_gcm_encrypt_init_with_iv(&c, &gk, iv, 12), FM_OK);
  OK_NOT_APPROVED(fm_gcm_encrypt_final(&c, tag, 16)); /* a stream with a caller-chosen IV */
  CHECK_EQ_INT(fm_gcm_encrypt_init(&c, &gk, iv), FM_OK);
  FAILS(FM_ERR_LENGTH, fm_gcm_encrypt_final(&c, tag, 3));
  fm_gcm_ctx_wipe(&c);
}
static void case_fm_gcm_decrypt_final(void) {
  fm_gcm_ctx c;
  uint8_t iv[12], ct[3], tag[16], pt[3];
  CHECK_EQ_INT(fm_gcm_seal(&gk, iv, NULL, 0, msg, 3, ct, tag, 16), FM_OK);
  CHECK_EQ_INT(fm_gcm_decrypt_init(&c, &gk, iv, 12), FM_OK);
  CHECK_EQ_INT(fm_gcm_update(&c, ct, pt, 3), FM_OK);
  APPROVED(fm_gcm_decrypt_final(&c, tag, 16));
  CHECK_EQ_INT(fm_gcm_decrypt_init(&c, &gk, iv, 12), FM_OK);
  CHECK_EQ_INT(fm_gcm_update(&c, ct, pt, 3), FM_OK);
  OK_NOT_APPROVED(fm_gcm_decrypt_final(&c, tag, 8));
  CHECK_EQ_INT(fm_gcm_decrypt_init(&c, &gk, iv, 12), FM_OK);
  CHECK_EQ_INT(fm_gcm_update(&c, ct, pt, 3), FM_OK);
  tag[0] ^= 1;
  FAILS(FM_ERR_VERIFY, fm_gcm_decrypt_final(&c, tag, 16));
  fm_gcm_ctx_wipe(&c);
}
static void case_fm_gcm_ctx_wipe(void) {
  fm_gcm_ctx c;
  uint8_t iv[12];
  CHECK_EQ_INT(fm_gcm_encrypt_init(&c, &gk, iv), FM_OK);
  APPROVED(fm_gcm_ctx_wipe(&c));
  APPROVED(fm_gcm_ctx_wipe(NULL)); /* nothing to wipe; it fails only outside OPERATIONAL (below) */
}

/* ---- KDFs: include/fipsmod/kdf.h "Approved parameters" ------------------------------------- */

static void case_fm_hkdf_extract(void) {
  uint8_t prk[32];
  APPROVED(fm_hkdf_extract(FM_HASH_SHA256, msg, 3, key32, 32, prk, 32));
  /* An IKM under 112 bits (module/approval.c): 0, 1 and 13 bytes. */
  APPROVED(fm_hkdf_extract(FM_HASH_SHA256, msg, 3, key32, 14, prk, 32));
  OK_NOT_APPROVED(fm_hkdf_extract(FM_HASH_SHA256, msg, 3, key32, 13, prk, 32));
  OK_NOT_APPROVED(fm_hkdf_extract(FM_HASH_SHA256, msg, 3, key32, 1, prk, 32));
  OK_NOT_APPROVED(fm_hkdf_extract(FM_HASH_SHA256, msg, 3, NULL, 0, prk, 32));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_hkdf_extract(FM_HASH_SHA256, msg, 3, NULL, 32, prk, 32));
}
static void case_fm_hkdf_expand(void) {
  uint8_t out[32];
  APPROVED(fm_hkdf_expand(FM_HASH_SHA256, key32, 32, msg, 3, out, 14));
  OK_NOT_APPROVED(fm_hkdf_expand(FM_HASH_SHA256, key32, 32, msg, 3, out, 13));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_hkdf_expand(FM_HASH_SHA256, NULL, 32, msg, 3, out, 14));
}
static void case_fm_hkdf(void) {
  uint8_t out[32];
  APPROVED(fm_hkdf(FM_HASH_SHA256, key32, 32, msg, 3, msg, 3, out, 32));
  OK_NOT_APPROVED(fm_hkdf(FM_HASH_SHA256, key32, 32, msg, 3, msg, 3, out, 8));
  OK_NOT_APPROVED(fm_hkdf(FM_HASH_SHA256, key32, 13, msg, 3, msg, 3, out, 32));
  OK_NOT_APPROVED(fm_hkdf(FM_HASH_SHA256, key32, 1, msg, 3, msg, 3, out, 32));
  OK_NOT_APPROVED(fm_hkdf(FM_HASH_SHA256, NULL, 0, msg, 3, msg, 3, out, 32));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_hkdf(FM_HASH_SHA256, key32, 32, msg, 3, msg, 3, NULL, 32));
}
static void case_fm_kbkdf_ctr_hmac(void) {
  uint8_t out[32];
  APPROVED(fm_kbkdf_ctr_hmac(FM_HASH_SHA256, key32, 14, msg, 3, 0, 32, out, 14));
  OK_NOT_APPROVED(fm_kbkdf_ctr_hmac(FM_HASH_SHA256, key32, 13, msg, 3, 0, 32, out, 32));
  OK_NOT_APPROVED(fm_kbkdf_ctr_hmac(FM_HASH_SHA256, key32, 32, msg, 3, 0, 32, out, 13));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_kbkdf_ctr_hmac(FM_HASH_SHA256, NULL, 32, msg, 3, 0, 32, out, 32));
}
static void case_fm_pbkdf2_hmac(void) {
  uint8_t out[32];
  APPROVED(fm_pbkdf2_hmac(FM_HASH_SHA256, key32 + 16, 8, key32, 16, 1000, out, 14));
  OK_NOT_APPROVED(fm_pbkdf2_hmac(FM_HASH_SHA256, key32 + 16, 8, key32, 15, 1000, out, 32));
  OK_NOT_APPROVED(fm_pbkdf2_hmac(FM_HASH_SHA256, key32 + 16, 8, key32, 16, 999, out, 32));
  OK_NOT_APPROVED(fm_pbkdf2_hmac(FM_HASH_SHA256, key32 + 16, 8, key32, 16, 1000, out, 13));
  /* A password under the module's 8-byte minimum (kdf.h): 7, 1 and 0 bytes. */
  OK_NOT_APPROVED(fm_pbkdf2_hmac(FM_HASH_SHA256, key32 + 16, 7, key32, 16, 1000, out, 32));
  OK_NOT_APPROVED(fm_pbkdf2_hmac(FM_HASH_SHA256, key32 + 16, 1, key32, 16, 1000, out, 32));
  OK_NOT_APPROVED(fm_pbkdf2_hmac(FM_HASH_SHA256, NULL, 0, key32, 16, 1000, out, 32));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_pbkdf2_hmac(FM_HASH_SHA256, msg, 3, key32, 16, 1000, NULL, 32));
}

/* ---- RNG and UUIDs -------------------------------------------------------------------------- */

static void case_fm_rand_bytes(void) {
  uint8_t b[40];
  APPROVED(fm_rand_bytes(b, sizeof b));
  APPROVED(fm_rand_bytes(b, 0));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_rand_bytes(NULL, 4));
}
static void case_fm_rand_bytes_with_input(void) {
  uint8_t b[40];
  APPROVED(fm_rand_bytes_with_input(b, sizeof b, msg, 3));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_rand_bytes_with_input(b, sizeof b, NULL, 3));
}
static void case_fm_rand_u32(void) {
  uint32_t v;
  for (int i = 0; i < 3; i++) APPROVED(fm_rand_u32(&v)); /* the first may fill the batch */
  FAILS(FM_ERR_BAD_ARGUMENT, fm_rand_u32(NULL));
}
static void case_fm_rand_u64(void) {
  uint64_t v;
  for (int i = 0; i < 3; i++) APPROVED(fm_rand_u64(&v));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_rand_u64(NULL));
}
static void case_fm_rand_uniform(void) {
  uint64_t v;
  APPROVED(fm_rand_uniform(1000, &v));
  FAILS(FM_ERR_OUT_OF_RANGE, fm_rand_uniform(0, &v));
}
static void case_fm_rand_reseed(void) {
  APPROVED(fm_rand_reseed());
  /* No argument can make it fail while the module is OPERATIONAL; the refusal outside
   * OPERATIONAL goes through the gate, checked with fm_module_cleanup below. */
}
static void case_fm_rand_enable_fork_unsafe_buffering(void) {
  APPROVED(fm_rand_enable_fork_unsafe_buffering(0));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_rand_enable_fork_unsafe_buffering(2));
}
static void case_fm_uuid_v4(void) {
  uint8_t u[16];
  APPROVED(fm_uuid_v4(u));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_uuid_v4(NULL));
}
static void case_fm_uuid_v7(void) {
  uint8_t u[16];
  APPROVED(fm_uuid_v7(u));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_uuid_v7(NULL));
}
static void case_fm_uuid_v4_string(void) {
  char s[FM_UUID_STRING_LEN + 1];
  APPROVED(fm_uuid_v4_string(s));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_uuid_v4_string(NULL));
}
static void case_fm_uuid_v7_string(void) {
  char s[FM_UUID_STRING_LEN + 1];
  APPROVED(fm_uuid_v7_string(s));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_uuid_v7_string(NULL));
}
static void case_fm_uuid_format(void) {
  uint8_t u[16] = {0};
  char s[FM_UUID_STRING_LEN + 1];
  UNCHANGED(fm_uuid_format(u, s));
  UNCHANGED(fm_uuid_format(NULL, s));
}
static void case_fm_uuid_parse(void) {
  uint8_t u[16];
  const char *good = "0190163d-8694-739b-aea5-966c26f8ad91";
  UNCHANGED(fm_uuid_parse(good, strlen(good), u));
  UNCHANGED(fm_uuid_parse("nope", 4, u));
}
static void case_fm_uuid_version(void) {
  uint8_t u[16];
  int v;
  CHECK_EQ_INT(fm_uuid_v4(u), FM_OK);
  UNCHANGED(fm_uuid_version(u, &v));
  UNCHANGED(fm_uuid_version(NULL, &v));
}

/* ---- The caller-seeded CTR_DRBG (testing interface): never approved ------------------------ */

static void drbg_new(fm_ctr_drbg *d) {
  CHECK_EQ_INT(fm_ctr_drbg_instantiate(d, FM_DRBG_USE_DF, key32, 32, key32, 16, NULL, 0), FM_OK);
}
static void case_fm_ctr_drbg_instantiate(void) {
  fm_ctr_drbg d;
  OK_NOT_APPROVED(fm_ctr_drbg_instantiate(&d, FM_DRBG_USE_DF, key32, 32, key32, 16, NULL, 0));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_ctr_drbg_instantiate(NULL, FM_DRBG_USE_DF, key32, 32, key32, 16,
                                                     NULL, 0));
  fm_ctr_drbg_uninstantiate(&d);
}
static void case_fm_ctr_drbg_generate(void) {
  fm_ctr_drbg d;
  uint8_t out[16];
  drbg_new(&d);
  OK_NOT_APPROVED(fm_ctr_drbg_generate(&d, out, 16, NULL, 0, NULL, 0));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_ctr_drbg_generate(&d, NULL, 16, NULL, 0, NULL, 0));
  fm_ctr_drbg_uninstantiate(&d);
}
static void case_fm_ctr_drbg_reseed(void) {
  fm_ctr_drbg d;
  drbg_new(&d);
  OK_NOT_APPROVED(fm_ctr_drbg_reseed(&d, key32, 32, NULL, 0));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_ctr_drbg_reseed(&d, NULL, 32, NULL, 0));
  fm_ctr_drbg_uninstantiate(&d);
}
static void case_fm_ctr_drbg_uninstantiate(void) {
  fm_ctr_drbg d;
  drbg_new(&d);
  OK_NOT_APPROVED(fm_ctr_drbg_uninstantiate(&d));
  OK_NOT_APPROVED(fm_ctr_drbg_uninstantiate(NULL)); /* NULL is a no-op */
}

/* ---- RSA keys ------------------------------------------------------------------------------ */

static void case_fm_rsa_key_import_public(void) {
  fm_rsa_key *k = NULL;
  APPROVED(fm_rsa_key_import_public(n2048, n2048_len, e65537, 3, &k));
  fm_rsa_key_free(k);
  OK_NOT_APPROVED(fm_rsa_key_import_public(n1024, 128, e65537, 3, &k));
  fm_rsa_key_free(k);
  FAILS(FM_ERR_BAD_ARGUMENT, fm_rsa_key_import_public(NULL, 128, e65537, 3, &k));
}
static void case_fm_rsa_key_import_private(void) {
  fm_rsa_key *k = NULL;
  fm_rsa_private_components c = {n2048, n2048_len, e65537, 3, d2048, d2048_len, p2048, p2048_len,
                                 q2048, q2048_len, NULL, 0, NULL, 0, NULL, 0};
  APPROVED(fm_rsa_key_import_private(&c, &k));
  fm_rsa_key_free(k);
  FAILS(FM_ERR_BAD_ARGUMENT, fm_rsa_key_import_private(NULL, &k));
}
static void case_fm_rsa_key_import_private_nd(void) {
  fm_rsa_key *k = NULL;
  OK_NOT_APPROVED(fm_rsa_key_import_private_nd(n2048, n2048_len, e65537, 3, d2048, d2048_len, &k));
  fm_rsa_key_free(k);
  FAILS(FM_ERR_BAD_ARGUMENT, fm_rsa_key_import_private_nd(NULL, 256, e65537, 3, d2048, 256, &k));
}
static void case_fm_rsa_key_encode(void) {
  uint8_t der[600];
  size_t len;
  APPROVED(fm_rsa_key_encode(rsa2048, FM_KEY_SPKI_PUBLIC, FM_KEY_DER, der, sizeof der, &len));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_rsa_key_encode(NULL, FM_KEY_SPKI_PUBLIC, FM_KEY_DER, der,
                                               sizeof der, &len));
}
static void case_fm_rsa_key_decode(void) {
  uint8_t der[600];
  size_t len;
  fm_rsa_key *k = NULL;
  CHECK_EQ_INT(fm_rsa_key_encode(rsa2048, FM_KEY_SPKI_PUBLIC, FM_KEY_DER, der, sizeof der, &len),
               FM_OK);
  APPROVED(fm_rsa_key_decode(der, len, &k));
  fm_rsa_key_free(k);
  CHECK_EQ_INT(
      fm_rsa_key_encode(rsa1024pub, FM_KEY_SPKI_PUBLIC, FM_KEY_DER, der, sizeof der, &len), FM_OK);
  OK_NOT_APPROVED(fm_rsa_key_decode(der, len, &k));
  fm_rsa_key_free(k);
  FAILS(FM_ERR_BAD_ARGUMENT, fm_rsa_key_decode(NULL, len, &k));
}
static void case_fm_rsa_key_generate(void) {
  fm_rsa_key *k = NULL;
  APPROVED(fm_rsa_key_generate(2048, &k));
  fm_rsa_key_free(k);
  FAILS(FM_ERR_KEY_SIZE, fm_rsa_key_generate(1024, &k));
}
static void case_fm_rsa_key_generate_mod8(void) {
  fm_rsa_key *k = NULL;
  APPROVED(fm_rsa_key_generate_mod8(2048, 5, 3, &k));
  fm_rsa_key_free(k);
  FAILS(FM_ERR_BAD_ARGUMENT, fm_rsa_key_generate_mod8(2048, 2, 0, &k));
}
static void case_fm_rsa_key_export(void) {
  uint8_t b[256];
  size_t len;
  APPROVED(fm_rsa_key_export(rsa2048, FM_RSA_N, b, sizeof b, &len));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_rsa_key_export(NULL, FM_RSA_N, b, sizeof b, &len));
}
static void case_fm_rsa_key_free(void) {
  fm_rsa_key *k = NULL;
  CHECK_EQ_INT(fm_rsa_key_import_public(n2048, n2048_len, e65537, 3, &k), FM_OK);
  APPROVED(fm_rsa_key_free(k));
  /* No argument makes it fail (NULL is a no-op, FM_OK); it is approved in every state. */
  APPROVED(fm_rsa_key_free(NULL));
}
static void case_fm_rsa_key_bits(void) {
  size_t v;
  UNCHANGED(fm_rsa_key_bits(rsa2048, &v));
  UNCHANGED(fm_rsa_key_bits(NULL, &v));
}
static void case_fm_rsa_key_size(void) {
  size_t v;
  UNCHANGED(fm_rsa_key_size(rsa2048, &v));
  UNCHANGED(fm_rsa_key_size(NULL, &v));
}
static void case_fm_rsa_key_is_private(void) {
  int v;
  UNCHANGED(fm_rsa_key_is_private(rsa2048, &v));
  UNCHANGED(fm_rsa_key_is_private(NULL, &v));
}

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

/* ---- RSA signatures and primitives ------------------------------------------------------- */

static void case_fm_rsa_sign_pkcs1v15(void) {
  uint8_t s[256];
  size_t len;
  APPROVED(fm_rsa_sign_pkcs1v15(rsa2048, FM_HASH_SHA256, msg, 3, s, sizeof s, &len));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_rsa_sign_pkcs1v15(rsa2048, FM_HASH_SHA256, NULL, 3, s, sizeof s,
                                                  &len));
}
static void case_fm_rsa_sign_pss(void) {
  uint8_t s[256];
  size_t len;
  APPROVED(fm_rsa_sign_pss(rsa2048, FM_HASH_SHA256, msg, 3, 32, s, sizeof s, &len));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_rsa_sign_pss(rsa2048, FM_HASH_SHA256, NULL, 3, 32, s, sizeof s,
                                             &len));
}
static void case_fm_rsa_sign_pss_with_salt(void) {
  uint8_t s[256];
  size_t len;
  OK_NOT_APPROVED(fm_rsa_sign_pss_with_salt(rsa2048, FM_HASH_SHA256, msg, 3, key32, 32, s,
                                            sizeof s, &len));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_rsa_sign_pss_with_salt(rsa2048, FM_HASH_SHA256, NULL, 3, key32, 32,
                                                       s, sizeof s, &len));
}
static void case_fm_rsa_verify_pkcs1v15(void) {
  uint8_t s[256];
  size_t len;
  CHECK_EQ_INT(fm_rsa_sign_pkcs1v15(rsa2048, FM_HASH_SHA256, msg, 3, s, sizeof s, &len), FM_OK);
  APPROVED(fm_rsa_verify_pkcs1v15(rsa2048, FM_HASH_SHA256, msg, 3, s, len));
  OK_NOT_APPROVED(fm_rsa_verify_pkcs1v15(rsa1024pub, FM_HASH_SHA256, msg, 3, sig1024, 128));
  s[7] ^= 1;
  FAILS(FM_ERR_VERIFY, fm_rsa_verify_pkcs1v15(rsa2048, FM_HASH_SHA256, msg, 3, s, len));
}
static void case_fm_rsa_verify_pss(void) {
  uint8_t s[256];
  size_t len;
  CHECK_EQ_INT(fm_rsa_sign_pss(rsa2048, FM_HASH_SHA256, msg, 3, 32, s, sizeof s, &len), FM_OK);
  APPROVED(fm_rsa_verify_pss(rsa2048, FM_HASH_SHA256, msg, 3, 32, s, len));
  /* The PKCS#1 v1.5 signature is no PSS signature: refused, and from a 1024-bit key. */
  FAILS(FM_ERR_VERIFY, fm_rsa_verify_pss(rsa1024pub, FM_HASH_SHA256, msg, 3, 32, sig1024, 128));
  s[9] ^= 1;
  FAILS(FM_ERR_VERIFY, fm_rsa_verify_pss(rsa2048, FM_HASH_SHA256, msg, 3, 32, s, 256));
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
static void rsa_primitive_case(int (*prim)(const fm_rsa_key *, const uint8_t *, size_t, uint8_t *,
                                           size_t, size_t *)) {
  uint8_t in[256] = {0}, out[256];
  size_t len;
  fm_rsa_key *nd = NULL;
  in[255] = 5;
  APPROVED(prim(rsa2048, in, sizeof in, out, sizeof out, &len));
  CHECK_EQ_INT(fm_rsa_key_import_private_nd(n2048, n2048_len, e65537, 3, d2048, d2048_len, &nd),
               FM_OK);
  OK_NOT_APPROVED(prim(nd, in, sizeof in, out, sizeof out, &len));
  fm_rsa_key_free(nd);
  FAILS(FM_ERR_BAD_ARGUMENT, prim(rsa2048, NULL, sizeof in, out, sizeof out, &len));
}
static void case_fm_rsa_rsasp1(void) { rsa_primitive_case(fm_rsa_rsasp1); }
static void case_fm_rsa_rsadp(void) { rsa_primitive_case(fm_rsa_rsadp); }

/* fm_module_cleanup is last: it ends the module. It gives no information and delivers no
 * cryptographic output, so it leaves the indicator as it was; after it every service is refused
 * (NOT_APPROVED), including the fast paths. */
static void case_fm_module_cleanup(void) {
  uint32_t v;
  fm_sha_ctx c;
  set_indicator(FM_INDICATOR_APPROVED);
  CHECK_EQ_INT(fm_module_cleanup(), FM_OK);
  CHECK_EQ_INT(indicator(), FM_INDICATOR_APPROVED);
  /* The fast path of the word draws is refused too. */
  CHECK_EQ_INT(fm_rand_u32(&v), FM_ERR_NOT_OPERATIONAL);
  CHECK_EQ_INT(indicator(), FM_INDICATOR_NOT_APPROVED);
  /* Zeroization is approved in every state. */
  CHECK_EQ_INT(fm_rsa_key_free(NULL), FM_OK);
  CHECK_EQ_INT(indicator(), FM_INDICATOR_APPROVED);
  CHECK_EQ_INT(fm_sha_wipe(&c), FM_ERR_NOT_OPERATIONAL);
  CHECK_EQ_INT(indicator(), FM_INDICATOR_NOT_APPROVED);
}

/* ---- One case per row of policy/services.tsv ---------------------------------------------- */

typedef struct {
  const char *symbol;
  void (*run)(void);
  bool ran;
} service_case;

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

#define CASE(sym) {#sym, case_##sym, false}
static service_case cases[] = {
    CASE(fm_module_state),
    CASE(fm_module_state_name),
    CASE(fm_module_version),
    CASE(fm_module_cpu_features),
    CASE(fm_module_cpu_feature_name),
    CASE(fm_module_cpu_paths),
    CASE(fm_strerror),
    CASE(fm_version_check),
    CASE(fm_memeq_consttime),
    CASE(fm_cleanse),
    CASE(fm_service_indicator),
    CASE(fm_service_indicator_name),
    CASE(fm_hash_digest_len),
    CASE(fm_selftest_run),
    CASE(fm_selftest_report),
    CASE(fm_selftest_get_summary),
    CASE(fm_selftest_kind_name),
    CASE(fm_selftest_result_name),
    CASE(fm_selftest_when_name),
    CASE(fm_selftest_trigger_name),
    CASE(fm_selftest_report_times),
    CASE(fm_set_selftest_callback),
    CASE(fm_sha256),
    CASE(fm_sha384),
    CASE(fm_sha512),
    CASE(fm_sha224),
    CASE(fm_sha512_224),
    CASE(fm_sha512_256),
    CASE(fm_sha3_224),
    CASE(fm_sha3_256),
    CASE(fm_sha3_384),
    CASE(fm_sha3_512),
    CASE(fm_shake128),
    CASE(fm_shake256),
    CASE(fm_shake_init),
    CASE(fm_shake_absorb),
    CASE(fm_shake_squeeze),
    CASE(fm_shake_wipe),
    CASE(fm_sha_digest),
    CASE(fm_sha_init),
    CASE(fm_sha_update),
    CASE(fm_sha_final),
    CASE(fm_sha_wipe),
    CASE(fm_hmac),
    CASE(fm_hmac_init),
    CASE(fm_hmac_update),
    CASE(fm_hmac_final),
    CASE(fm_hmac_wipe),
    CASE(fm_hmac_verify),
    CASE(fm_aes_key_init),
    CASE(fm_aes_key_wipe),
    CASE(fm_aes_ecb_encrypt),
    CASE(fm_aes_ecb_decrypt),
    CASE(fm_aes_cbc_encrypt),
    CASE(fm_aes_cbc_decrypt),
    CASE(fm_aes_ctr),
    CASE(fm_aes_ctr_stream),
    CASE(fm_gcm_key_init),
    CASE(fm_gcm_key_init_counter_iv),
    CASE(fm_gcm_key_wipe),
    CASE(fm_gcm_seal),
    CASE(fm_gcm_seal_with_iv),
    CASE(fm_gcm_open),
    CASE(fm_gcm_encrypt_init),
    CASE(fm_gcm_encrypt_init_with_iv),
    CASE(fm_gcm_decrypt_init),
    CASE(fm_gcm_aad),
    CASE(fm_gcm_update),
    CASE(fm_gcm_encrypt_final),
    CASE(fm_gcm_decrypt_final),
    CASE(fm_gcm_ctx_wipe),
    CASE(fm_hkdf_extract),
    CASE(fm_hkdf_expand),
    CASE(fm_hkdf),
    CASE(fm_kbkdf_ctr_hmac),
    CASE(fm_pbkdf2_hmac),
    CASE(fm_rand_bytes),
    CASE(fm_rand_bytes_with_input),
    CASE(fm_rand_u32),
    CASE(fm_rand_u64),
    CASE(fm_rand_uniform),
    CASE(fm_rand_reseed),
    CASE(fm_rand_enable_fork_unsafe_buffering),
    CASE(fm_uuid_v4),
    CASE(fm_uuid_v7),
    CASE(fm_uuid_v4_string),
    CASE(fm_uuid_v7_string),
    CASE(fm_uuid_format),
    CASE(fm_uuid_parse),
    CASE(fm_uuid_version),
    CASE(fm_ctr_drbg_instantiate),
    CASE(fm_ctr_drbg_generate),
    CASE(fm_ctr_drbg_reseed),
    CASE(fm_ctr_drbg_uninstantiate),
    CASE(fm_rsa_key_import_public),
    CASE(fm_rsa_key_import_private),
    CASE(fm_rsa_key_import_private_nd),
    CASE(fm_rsa_key_encode),
    CASE(fm_rsa_key_decode),
    CASE(fm_rsa_key_generate),
    CASE(fm_mlkem_sizes),
    CASE(fm_mlkem_keygen),
    CASE(fm_mlkem_keygen_from_seed),
    CASE(fm_mlkem_encaps),
    CASE(fm_mlkem_encaps_internal),
    CASE(fm_mlkem_decaps),
    CASE(fm_mlkem_check_ek),
    CASE(fm_mlkem_check_dk),
    CASE(fm_rsa_key_generate_mod8),
    CASE(fm_rsa_key_export),
    CASE(fm_rsa_key_free),
    CASE(fm_rsa_key_bits),
    CASE(fm_rsa_key_size),
    CASE(fm_rsa_key_is_private),
    CASE(fm_rsa_sign_pkcs1v15),
    CASE(fm_rsa_sign_pss),
    CASE(fm_rsa_sign_pss_with_salt),
    CASE(fm_rsa_verify_pkcs1v15),
    CASE(fm_rsa_verify_pss),
    CASE(fm_rsa_rsasp1),
    CASE(fm_rsa_rsadp),
    CASE(fm_mldsa_public_key_len),
    CASE(fm_mldsa_private_key_len),
    CASE(fm_mldsa_signature_len),
    CASE(fm_mldsa_keygen),
    CASE(fm_mldsa_keygen_from_seed),
    CASE(fm_mldsa_sign),
    CASE(fm_mldsa_hash_sign),
    CASE(fm_mldsa_sign_internal),
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
    CASE(fm_mldsa_key_decode),
    CASE(fm_mldsa_key_encode),
    CASE(fm_module_cleanup),
};

/* find_case returns the case for |symbol|, or NULL. */
static service_case *find_case(const char *symbol) {
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    if (strcmp(cases[i].symbol, symbol) == 0) return &cases[i];
  }
  return NULL;
}

/* run_services_table runs the case of every row of services.tsv, in the file's order except
 * fm_module_cleanup (last). A row without a case is a failure. */
static void run_services_table(void) {
  FILE *f = fopen(FIPSMOD_POLICY_DIR "/services.tsv", "r");
  CHECK(f != NULL);
  if (f == NULL) return;
  char line[1024];
  size_t rows = 0;
  bool header = true;
  while (fgets(line, sizeof line, f) != NULL) {
    if (line[0] == '#' || line[0] == '\n') continue;
    if (header) { /* the column names */
      header = false;
      continue;
    }
    line[strcspn(line, "\t\n")] = '\0';
    rows++;
    service_case *c = find_case(line);
    if (c == NULL) {
      fprintf(stderr, "services.tsv row %s has no indicator test case\n", line);
      test_failures++;
      continue;
    }
    if (strcmp(line, "fm_module_cleanup") != 0) {
      c->run();
      c->ran = true;
    }
  }
  fclose(f);
  CHECK(rows >= sizeof cases / sizeof cases[0]);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    if (!cases[i].ran && strcmp(cases[i].symbol, "fm_module_cleanup") != 0) {
      fprintf(stderr, "case %s has no row in services.tsv\n", cases[i].symbol);
      test_failures++;
    }
  }
}

int main(void) {
  /* Before the thread's first service the indicator is NONE. */
  CHECK_EQ_INT(indicator(), FM_INDICATOR_NONE);
  make_keys();
  CHECK_EQ_INT(fm_aes_key_init(&aes, key32, 32), FM_OK);
  CHECK_EQ_INT(fm_gcm_key_init(&gk, key32, 32), FM_OK);
  run_services_table();
  fm_rsa_key_free(rsa2048);
  fm_rsa_key_free(rsa1024pub);
  case_fm_module_cleanup();
  return test_main_result("test_indicator");
}
