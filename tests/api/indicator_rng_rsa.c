/* The service indicator cases of the RNG and UUIDs, the caller-seeded CTR_DRBG, RSA keys, RSA
 * signatures and primitives (see test_indicator.c). */
#include <stdint.h>
#include <string.h>

#include "tests/api/indicator_test.h"

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
static void case_fm_rsa_key_import_private_consistent(void) {
  fm_rsa_key *k = NULL;
  fm_rsa_private_components c = {n2048, n2048_len, e65537, 3, d2048, d2048_len, p2048, p2048_len,
                                 q2048, q2048_len, NULL, 0, NULL, 0, NULL, 0};
  APPROVED(fm_rsa_key_import_private_consistent(&c, &k));
  fm_rsa_key_free(k);
  FAILS(FM_ERR_BAD_ARGUMENT, fm_rsa_key_import_private_consistent(NULL, &k));
}
static void case_fm_rsa_key_validate(void) {
  APPROVED(fm_rsa_key_validate(rsa2048));
  FAILS(FM_ERR_UNSUPPORTED, fm_rsa_key_validate(rsa1024pub));
  FAILS(FM_ERR_BAD_ARGUMENT, fm_rsa_key_validate(NULL));
}
static void case_fm_rsa_key_import_private_nd(void) {
  fm_rsa_key *k = NULL;
  OK_NOT_APPROVED(fm_rsa_key_import_private_nd(n2048, n2048_len, e65537, 3, d2048, d2048_len, &k));
  fm_rsa_key_free(k);
  FAILS(FM_ERR_BAD_ARGUMENT, fm_rsa_key_import_private_nd(NULL, 256, e65537, 3, d2048, 256, &k));
}
static void case_fm_rsa_key_import_private_pq(void) {
  fm_rsa_key *k = NULL;
  OK_NOT_APPROVED(fm_rsa_key_import_private_pq(e65537, 3, p2048, p2048_len, q2048, q2048_len, &k));
  fm_rsa_key_free(k);
  FAILS(FM_ERR_BAD_ARGUMENT, fm_rsa_key_import_private_pq(NULL, 3, p2048, p2048_len, q2048,
                                                          q2048_len, &k));
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

service_case indicator_cases_rng_rsa[] = {
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
    CASE(fm_rsa_key_import_private_consistent),
    CASE(fm_rsa_key_validate),
    CASE(fm_rsa_key_import_private_nd),
    CASE(fm_rsa_key_import_private_pq),
    CASE(fm_rsa_key_encode),
    CASE(fm_rsa_key_decode),
    CASE(fm_rsa_key_generate),
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
    {NULL, NULL, false},
};
