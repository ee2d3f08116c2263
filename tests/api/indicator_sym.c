/* The service indicator cases of the hashes, HMAC, AES, AES-GCM and the KDFs (see test_indicator.c). */
#include <stdint.h>
#include <string.h>

#include "tests/api/indicator_test.h"

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

service_case indicator_cases_sym[] = {
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
    {NULL, NULL, false},
};
