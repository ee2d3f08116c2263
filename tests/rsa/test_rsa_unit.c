/* RSA unit tests: known answers (one embedded case per CAVP file, see rsa_test_vectors.h),
 * sign/verify round trips, bad arguments, one key across threads and fork, cleanup while a
 * thread holds a key, and the service gate in a forked child (the key checks at import are in
 * test_rsa_keycheck.c). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fipsmod/rsa.h"
#include "module/internal.h"
#include "module/rsa/internal.h"
#include "rsa_test_vectors.h"
#include "rsa_unit_keys.h"
#include "tests/common/test_util.h"

/* ---- Known answers ------------------------------------------------------------------------- */

/* rsasp1_matches: for a key in the (n, e, d) form, RSASP1 of EM = S^e mod n gives back the known
 * S (the private-key operation checked against the vector's signature). */
static void rsasp1_matches(const fm_rsa_key *key, const blob *s) {
  uint64_t sv[BN_MAX_LIMBS], em[BN_MAX_LIMBS];
  uint8_t em_bytes[FM_RSA_MAX_BYTES], out[FM_RSA_MAX_BYTES];
  size_t out_len = 0;
  CHECK(bn_from_bytes_be(sv, key->nl, s->b, s->len));
  rsa_public_op(key, em, sv);
  bn_to_bytes_be(em_bytes, key->k, em, key->nl);
  CHECK_EQ_INT(fm_rsa_rsasp1(key, em_bytes, key->k, out, sizeof(out), &out_len), FM_OK);
  CHECK_EQ_INT(out_len, s->len);
  CHECK_MEM(out, s->b, s->len);
}

/* fm_rsa_key_import_private_pq: the n and d that the module derives from e, p and q are the
 * vector key's (its d is below lambda(n), so it is the one inverse of e modulo lambda), in either
 * order of the primes; the key serves RSASP1 and no signing; bad inputs are refused with the key
 * pointer cleared. */
static void test_import_private_pq(void) {
  const key_blobs *k = &g_sp1;
  uint8_t out[FM_RSA_MAX_BYTES], want[FM_RSA_MAX_BYTES];
  size_t len = 0;
  for (int swap = 0; swap < 2; swap++) {
    const blob *a = swap ? &k->q : &k->p, *b = swap ? &k->p : &k->q;
    fm_rsa_key *key = NULL;
    CHECK_EQ_INT(fm_rsa_key_import_private_pq(k->e.b, k->e.len, a->b, a->len, b->b, b->len, &key),
                 FM_OK);
    CHECK_EQ_INT(fm_rsa_key_export(key, FM_RSA_N, out, sizeof out, &len), FM_OK);
    CHECK_EQ_INT(len, k->n.len);
    CHECK_MEM(out, k->n.b, k->n.len);
    CHECK_EQ_INT(fm_rsa_key_export(key, FM_RSA_D, out, sizeof out, &len), FM_OK);
    CHECK(len >= k->d.len);
    memset(want, 0, len);
    memcpy(want + len - k->d.len, k->d.b, k->d.len);
    CHECK_MEM(out, want, len);
    CHECK_EQ_INT(fm_rsa_sign_pkcs1v15(key, FM_HASH_SHA256, (const uint8_t *)"abc", 3, out,
                                      sizeof out, &len), FM_ERR_BAD_ARGUMENT);
    CHECK_EQ_INT(fm_rsa_rsasp1(key, (const uint8_t *)"\x02", 1, out, sizeof out, &len), FM_OK);
    fm_rsa_key_free(key);
  }
  static const uint8_t e_even[3] = {0x01, 0x00, 0x00}, two[1] = {2}, three[1] = {3};
  fm_rsa_key *key = (fm_rsa_key *)out; /* any non-NULL value: a refusal must clear it */
  CHECK_EQ_INT(fm_rsa_key_import_private_pq(e_even, 3, k->p.b, k->p.len, k->q.b, k->q.len, &key),
               FM_ERR_BAD_KEY);
  CHECK(key == NULL);
  key = (fm_rsa_key *)out;
  CHECK_EQ_INT(fm_rsa_key_import_private_pq(k->e.b, k->e.len, two, 1, k->q.b, k->q.len, &key),
               FM_ERR_BAD_KEY);
  CHECK(key == NULL);
  CHECK_EQ_INT(fm_rsa_key_import_private_pq(k->e.b, k->e.len, three, 1, k->q.b, k->q.len, &key),
               FM_ERR_KEY_SIZE); /* n = 3 q: about 1026 bits */
  CHECK_EQ_INT(fm_rsa_key_import_private_pq(NULL, 3, k->p.b, k->p.len, k->q.b, k->q.len, &key),
               FM_ERR_BAD_ARGUMENT);
}

/* CAVP SigGen15: the key comes as (n, e, d), which serves only RSASP1 and RSADP: signing is
 * refused, the file's signature verifies, and RSASP1 reproduces it. */
static void test_kat_pkcs1v15_siggen15(void) {
  blob n = hex(kSigGen15N), e = hex(kSigGen15E), d = hex(kSigGen15D);
  blob msg = hex(kSigGen15Msg), s = hex(kSigGen15S);
  fm_rsa_key *key = NULL;
  CHECK_EQ_INT(fm_rsa_key_import_private_nd(n.b, n.len, e.b, e.len, d.b, d.len, &key), FM_OK);
  if (key == NULL) return;
  uint8_t sig[FM_RSA_MAX_BYTES];
  size_t sig_len = 7;
  memset(sig, 0xaa, sizeof(sig));
  CHECK_EQ_INT(fm_rsa_sign_pkcs1v15(key, FM_HASH_SHA256, msg.b, msg.len, sig, sizeof(sig),
                                    &sig_len),
               FM_ERR_BAD_ARGUMENT);
  CHECK(test_is_all_zero(sig, key->k) && sig_len == 0);
  rsasp1_matches(key, &s);
  CHECK_EQ_INT(fm_rsa_verify_pkcs1v15(key, FM_HASH_SHA256, msg.b, msg.len, s.b, s.len), FM_OK);
  /* The same signature through a public key. */
  fm_rsa_key *pub = NULL;
  CHECK_EQ_INT(fm_rsa_key_import_public(n.b, n.len, e.b, e.len, &pub), FM_OK);
  CHECK_EQ_INT(fm_rsa_verify_pkcs1v15(pub, FM_HASH_SHA256, msg.b, msg.len, s.b, s.len), FM_OK);
  s.b[s.len - 1] ^= 1;
  CHECK_EQ_INT(fm_rsa_verify_pkcs1v15(pub, FM_HASH_SHA256, msg.b, msg.len, s.b, s.len),
               FM_ERR_VERIFY);
  fm_rsa_key_free(pub);
  fm_rsa_key_free(key);
}

/* CAVP SigGenPSS, with the file's salt: as above, signing with the (n, e, d) key is refused (with
 * the vector's own salt and with a random one); the signature verifies and RSASP1 reproduces it. */
static void test_kat_pss_siggenpss(void) {
  blob n = hex(kSigGenPssN), e = hex(kSigGenPssE), d = hex(kSigGenPssD);
  blob salt = hex(kSigGenPssSalt), msg = hex(kSigGenPssMsg), s = hex(kSigGenPssS);
  fm_rsa_key *key = NULL;
  CHECK_EQ_INT(fm_rsa_key_import_private_nd(n.b, n.len, e.b, e.len, d.b, d.len, &key), FM_OK);
  if (key == NULL) return;
  uint8_t sig[FM_RSA_MAX_BYTES];
  size_t sig_len = 0;
  CHECK_EQ_INT(fm_rsa_sign_pss_with_salt(key, FM_HASH_SHA256, msg.b, msg.len, salt.b, salt.len,
                                         sig, sizeof(sig), &sig_len),
               FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_rsa_sign_pss(key, FM_HASH_SHA256, msg.b, msg.len, 32, sig, sizeof(sig),
                               &sig_len),
               FM_ERR_BAD_ARGUMENT);
  rsasp1_matches(key, &s);
  CHECK_EQ_INT(fm_rsa_verify_pss(key, FM_HASH_SHA256, msg.b, msg.len, salt.len, s.b, s.len), FM_OK);
  CHECK_EQ_INT(fm_rsa_verify_pss(key, FM_HASH_SHA256, msg.b, msg.len, FM_RSA_PSS_SALT_LEN_ANY,
                                 s.b, s.len),
               FM_OK);
  CHECK_EQ_INT(fm_rsa_verify_pss(key, FM_HASH_SHA256, msg.b, msg.len, salt.len + 1, s.b, s.len),
               FM_ERR_VERIFY);
  msg.b[0] ^= 0x80;
  CHECK_EQ_INT(fm_rsa_verify_pss(key, FM_HASH_SHA256, msg.b, msg.len, salt.len, s.b, s.len),
               FM_ERR_VERIFY);
  fm_rsa_key_free(key);
}

static void test_kat_rsasp1_crt(void) {
  fm_rsa_key *key = load_sp1_key();
  blob em = hex(kSp1EM), s = hex(kSp1S);
  uint8_t out[FM_RSA_MAX_BYTES];
  size_t out_len = 0;
  CHECK_EQ_INT(fm_rsa_rsasp1(key, em.b, em.len, out, sizeof(out), &out_len), FM_OK);
  CHECK_EQ_INT(out_len, s.len);
  CHECK_MEM(out, s.b, s.len);
  /* RSADP is the same exponentiation for c in (1, n-1). */
  CHECK_EQ_INT(fm_rsa_rsadp(key, em.b, em.len, out, sizeof(out), &out_len), FM_OK);
  CHECK_MEM(out, s.b, s.len);
  /* The key imported with the CRT values the module derived gives the same answer. */
  fm_rsa_private_components c = components_of(&g_sp1);
  fm_rsa_key *key2 = NULL;
  CHECK_EQ_INT(fm_rsa_key_import_private(&c, &key2), FM_OK);
  CHECK_EQ_INT(fm_rsa_rsasp1(key2, em.b, em.len, out, sizeof(out), &out_len), FM_OK);
  CHECK_MEM(out, s.b, s.len);
  /* And so does the (n, e, d) form, which exponentiates without CRT. */
  fm_rsa_key *key3 = NULL;
  CHECK_EQ_INT(fm_rsa_key_import_private_nd(g_sp1.n.b, g_sp1.n.len, g_sp1.e.b, g_sp1.e.len,
                                            g_sp1.d.b, g_sp1.d.len, &key3),
               FM_OK);
  CHECK_EQ_INT(fm_rsa_rsasp1(key3, em.b, em.len, out, sizeof(out), &out_len), FM_OK);
  CHECK_MEM(out, s.b, s.len);
  fm_rsa_key_free(key3);
  fm_rsa_key_free(key2);
  fm_rsa_key_free(key);
}

/* ---- Round trips --------------------------------------------------------------------------- */

static void test_round_trips_imported_key(void) {
  fm_rsa_key *key = load_sp1_key();
  round_trips(key);
  fm_rsa_key_free(key);
}

/* FIPS 186-5 A.1.3's a and b: every residue pair asked for is what the primes have (3072 bits
 * for one pair, so that the condition is not tied to one size); residues other than 0, 1, 3, 5
 * and 7 are refused with nothing returned. */
static void test_generated_key_mod8(void) {
  static const unsigned pairs[][3] = {{2048, 5, 3}, {2048, 1, 7}, {3072, 3, 5}, {2048, 0, 1}};
  for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
    fm_rsa_key *key = NULL;
    CHECK_EQ_INT(fm_rsa_key_generate_mod8(pairs[i][0], pairs[i][1], pairs[i][2], &key), FM_OK);
    if (key == NULL) continue;
    uint8_t p[FM_RSA_MAX_BYTES], q[FM_RSA_MAX_BYTES];
    size_t pl = 0, ql = 0;
    CHECK_EQ_INT(fm_rsa_key_export(key, FM_RSA_P, p, sizeof p, &pl), FM_OK);
    CHECK_EQ_INT(fm_rsa_key_export(key, FM_RSA_Q, q, sizeof q, &ql), FM_OK);
    if (pairs[i][1] != 0) CHECK_EQ_INT(p[pl - 1] & 7, pairs[i][1]);
    if (pairs[i][2] != 0) CHECK_EQ_INT(q[ql - 1] & 7, pairs[i][2]);
    CHECK_EQ_INT(pl * 8, pairs[i][0] / 2);
    fm_rsa_key_free(key);
  }
  static const unsigned bad[][2] = {{2, 0}, {0, 8}, {4, 4}, {9, 1}, {UINT32_MAX, 1}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    fm_rsa_key *key = (fm_rsa_key *)(uintptr_t)1;
    CHECK_EQ_INT(fm_rsa_key_generate_mod8(2048, bad[i][0], bad[i][1], &key), FM_ERR_BAD_ARGUMENT);
    CHECK(key == NULL);
  }
}

static void test_generated_key_2048(void) {
  fm_rsa_key *key = NULL;
  CHECK_EQ_INT(fm_rsa_key_generate(2048, &key), FM_OK);
  if (key == NULL) return;
  size_t bits = 0;
  int priv = 0;
  CHECK_EQ_INT(fm_rsa_key_bits(key, &bits), FM_OK);
  CHECK_EQ_INT(bits, 2048);
  CHECK_EQ_INT(fm_rsa_key_is_private(key, &priv), FM_OK);
  CHECK_EQ_INT(priv, 1);
  round_trips(key);
  /* Its exported components import again into an equivalent key, and e is 65537. */
  key_blobs b;
  fm_rsa_component which[] = {FM_RSA_N, FM_RSA_E, FM_RSA_D, FM_RSA_P,
                              FM_RSA_Q, FM_RSA_DP, FM_RSA_DQ, FM_RSA_QINV};
  blob *dst[] = {&b.n, &b.e, &b.d, &b.p, &b.q, &b.dp, &b.dq, &b.qinv};
  for (int i = 0; i < 8; i++) {
    CHECK_EQ_INT(fm_rsa_key_export(key, which[i], dst[i]->b, sizeof(dst[i]->b), &dst[i]->len),
                 FM_OK);
  }
  CHECK_EQ_INT(b.e.len, 3);
  CHECK(b.e.b[0] == 1 && b.e.b[1] == 0 && b.e.b[2] == 1);
  CHECK_EQ_INT(b.p.len, 128);
  fm_rsa_private_components c = components_of(&b);
  fm_rsa_key *again = NULL;
  CHECK_EQ_INT(fm_rsa_key_import_private(&c, &again), FM_OK);
  uint8_t sig[FM_RSA_MAX_BYTES];
  size_t sig_len = 0;
  CHECK_EQ_INT(fm_rsa_sign_pkcs1v15(again, FM_HASH_SHA256, (const uint8_t *)"x", 1, sig,
                                    sizeof(sig), &sig_len),
               FM_OK);
  CHECK_EQ_INT(fm_rsa_verify_pkcs1v15(key, FM_HASH_SHA256, (const uint8_t *)"x", 1, sig, sig_len),
               FM_OK);
  fm_rsa_key_free(again);
  fm_rsa_key_free(key);
}

/* ---- Bad inputs to the operations ----------------------------------------------------------- */

static void test_raw_out_of_range(void) {
  fm_rsa_key *key = load_sp1_key();
  uint8_t out[FM_RSA_MAX_BYTES], x[FM_RSA_MAX_BYTES + 1];
  size_t out_len = 7;
  const blob n = g_sp1.n;
  /* m = n and m > n: out of range, output wiped. */
  memset(out, 0xaa, sizeof(out));
  CHECK_EQ_INT(fm_rsa_rsasp1(key, n.b, n.len, out, sizeof(out), &out_len), FM_ERR_OUT_OF_RANGE);
  /* Wiped: the key's size, what the call could have written, and nothing beyond. */
  CHECK(test_is_all_zero(out, n.len) && out[n.len] == 0xaa && out_len == 0);
  memset(x, 0xff, n.len);
  CHECK_EQ_INT(fm_rsa_rsasp1(key, x, n.len, out, sizeof(out), &out_len), FM_ERR_OUT_OF_RANGE);
  x[0] = 1; /* one byte longer than n */
  memcpy(x + 1, n.b, n.len);
  CHECK_EQ_INT(fm_rsa_rsasp1(key, x, n.len + 1, out, sizeof(out), &out_len), FM_ERR_OUT_OF_RANGE);
  /* m = n - 1 and m = 0 are in range for RSASP1 ... */
  memcpy(x, n.b, n.len);
  x[n.len - 1] ^= 1;
  CHECK_EQ_INT(fm_rsa_rsasp1(key, x, n.len, out, sizeof(out), &out_len), FM_OK);
  const uint8_t zero[1] = {0}, one[1] = {1}, two[1] = {2};
  CHECK_EQ_INT(fm_rsa_rsasp1(key, zero, 1, out, sizeof(out), &out_len), FM_OK);
  CHECK(test_is_all_zero(out, n.len));
  /* ... but RSADP excludes 0, 1 and n - 1 (SP 800-56B Rev. 2 7.1.2). */
  CHECK_EQ_INT(fm_rsa_rsadp(key, x, n.len, out, sizeof(out), &out_len), FM_ERR_OUT_OF_RANGE);
  CHECK_EQ_INT(fm_rsa_rsadp(key, zero, 1, out, sizeof(out), &out_len), FM_ERR_OUT_OF_RANGE);
  CHECK_EQ_INT(fm_rsa_rsadp(key, one, 1, out, sizeof(out), &out_len), FM_ERR_OUT_OF_RANGE);
  CHECK_EQ_INT(fm_rsa_rsadp(key, two, 1, out, sizeof(out), &out_len), FM_OK);
  /* Empty input, NULLs, short output. */
  CHECK_EQ_INT(fm_rsa_rsasp1(key, x, 0, out, sizeof(out), &out_len), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_rsa_rsasp1(key, NULL, 1, out, sizeof(out), &out_len), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_rsa_rsasp1(key, two, 1, NULL, sizeof(out), &out_len), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_rsa_rsasp1(key, two, 1, out, sizeof(out), NULL), FM_ERR_BAD_ARGUMENT);
  memset(out, 0xaa, sizeof(out));
  CHECK_EQ_INT(fm_rsa_rsasp1(key, two, 1, out, n.len - 1, &out_len), FM_ERR_BUFFER_TOO_SMALL);
  CHECK(test_is_all_zero(out, n.len - 1));
  CHECK_EQ_INT(fm_rsa_rsasp1(NULL, two, 1, out, sizeof(out), &out_len), FM_ERR_BAD_ARGUMENT);
  fm_rsa_key_free(key);
}

static void test_sign_bad_inputs(void) {
  fm_rsa_key *key = load_sp1_key();
  fm_rsa_key *pub = NULL;
  CHECK_EQ_INT(fm_rsa_key_import_public(g_sp1.n.b, g_sp1.n.len, g_sp1.e.b, g_sp1.e.len, &pub),
               FM_OK);
  uint8_t sig[FM_RSA_MAX_BYTES], salt[300] = {0};
  size_t sig_len = 5;
  const uint8_t msg[] = "message";
  memset(sig, 0xaa, sizeof(sig));
  CHECK_EQ_INT(fm_rsa_sign_pkcs1v15(key, FM_HASH_SHA256, msg, 7, sig, 255, &sig_len),
               FM_ERR_BUFFER_TOO_SMALL);
  CHECK(test_is_all_zero(sig, 255) && sig_len == 0);
  CHECK_EQ_INT(fm_rsa_sign_pkcs1v15(key, (fm_hash_alg)99, msg, 7, sig, sizeof(sig), &sig_len),
               FM_ERR_UNSUPPORTED);
  CHECK_EQ_INT(fm_rsa_sign_pkcs1v15(key, FM_HASH_SHA256, NULL, 7, sig, sizeof(sig), &sig_len),
               FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_rsa_sign_pkcs1v15(key, FM_HASH_SHA256, NULL, 0, sig, sizeof(sig), &sig_len),
               FM_OK); /* the empty message is a message */
  CHECK_EQ_INT(fm_rsa_sign_pkcs1v15(key, FM_HASH_SHA256, msg, 7, NULL, sizeof(sig), &sig_len),
               FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_rsa_sign_pkcs1v15(pub, FM_HASH_SHA256, msg, 7, sig, sizeof(sig), &sig_len),
               FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_rsa_sign_pkcs1v15(NULL, FM_HASH_SHA256, msg, 7, sig, sizeof(sig), &sig_len),
               FM_ERR_BAD_ARGUMENT);
  /* FIPS 186-5 5.4: sLen <= hLen. 32 bytes with SHA-256 and 64 with SHA-512 sign; 33 and 64 with
   * SHA-256 (RFC 8017 alone would allow up to emLen - hLen - 2 = 222) are refused, output wiped. */
  CHECK_EQ_INT(fm_rsa_sign_pss(key, FM_HASH_SHA256, msg, 7, 32, sig, sizeof(sig), &sig_len),
               FM_OK);
  CHECK_EQ_INT(fm_rsa_verify_pss(key, FM_HASH_SHA256, msg, 7, 32, sig, sig_len), FM_OK);
  CHECK_EQ_INT(fm_rsa_sign_pss(key, FM_HASH_SHA512, msg, 7, 64, sig, sizeof(sig), &sig_len),
               FM_OK);
  const size_t pss_refused[] = {33, 64, 222, 223};
  for (size_t i = 0; i < sizeof(pss_refused) / sizeof(pss_refused[0]); i++) {
    memset(sig, 0xaa, sizeof(sig));
    sig_len = 5;
    CHECK_EQ_INT(fm_rsa_sign_pss(key, FM_HASH_SHA256, msg, 7, pss_refused[i], sig, sizeof(sig),
                                 &sig_len),
                 FM_ERR_LENGTH);
    CHECK(test_is_all_zero(sig, 256) && sig_len == 0);
    CHECK_EQ_INT(fm_rsa_sign_pss_with_salt(key, FM_HASH_SHA256, msg, 7, salt, pss_refused[i],
                                           sig, sizeof(sig), &sig_len),
                 FM_ERR_LENGTH);
  }
  CHECK_EQ_INT(fm_rsa_sign_pss(key, FM_HASH_SHA256, msg, 7, FM_RSA_PSS_SALT_LEN_ANY, sig,
                               sizeof(sig), &sig_len),
               FM_ERR_LENGTH);
  CHECK_EQ_INT(fm_rsa_sign_pss_with_salt(key, FM_HASH_SHA512, msg, 7, salt, 256 - 64 - 1, sig,
                                         sizeof(sig), &sig_len),
               FM_ERR_LENGTH);
  CHECK_EQ_INT(fm_rsa_sign_pss_with_salt(key, FM_HASH_SHA512, msg, 7, NULL, 5, sig, sizeof(sig),
                                         &sig_len),
               FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_rsa_sign_pss_with_salt(key, FM_HASH_SHA512, msg, 7, NULL, 0, sig, sizeof(sig),
                                         &sig_len),
               FM_OK);
  fm_rsa_key_free(pub);
  fm_rsa_key_free(key);
}

static void test_verify_bad_inputs(void) {
  fm_rsa_key *key = load_sp1_key();
  uint8_t sig[FM_RSA_MAX_BYTES + 1];
  size_t sig_len = 0;
  const uint8_t msg[] = "message";
  CHECK_EQ_INT(fm_rsa_sign_pkcs1v15(key, FM_HASH_SHA384, msg, 7, sig, sizeof(sig), &sig_len),
               FM_OK);
  CHECK_EQ_INT(fm_rsa_verify_pkcs1v15(key, FM_HASH_SHA384, msg, 7, sig, sig_len), FM_OK);
  /* Wrong lengths: one byte short, one leading zero byte too many, empty. */
  CHECK_EQ_INT(fm_rsa_verify_pkcs1v15(key, FM_HASH_SHA384, msg, 7, sig, sig_len - 1),
               FM_ERR_VERIFY);
  memmove(sig + 1, sig, sig_len);
  sig[0] = 0;
  CHECK_EQ_INT(fm_rsa_verify_pkcs1v15(key, FM_HASH_SHA384, msg, 7, sig, sig_len + 1),
               FM_ERR_VERIFY);
  CHECK_EQ_INT(fm_rsa_verify_pkcs1v15(key, FM_HASH_SHA384, msg, 7, sig, 0), FM_ERR_VERIFY);
  CHECK_EQ_INT(fm_rsa_verify_pkcs1v15(key, FM_HASH_SHA384, msg, 7, NULL, 0), FM_ERR_VERIFY);
  CHECK_EQ_INT(fm_rsa_verify_pkcs1v15(key, FM_HASH_SHA384, msg, 7, NULL, 5), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_rsa_verify_pkcs1v15(key, FM_HASH_SHA384, NULL, 7, sig, sig_len),
               FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_rsa_verify_pkcs1v15(key, (fm_hash_alg)0, msg, 7, sig, sig_len),
               FM_ERR_UNSUPPORTED);
  CHECK_EQ_INT(fm_rsa_verify_pkcs1v15(NULL, FM_HASH_SHA384, msg, 7, sig, sig_len),
               FM_ERR_BAD_ARGUMENT);
  /* A signature value equal to n is refused before any arithmetic. */
  CHECK_EQ_INT(fm_rsa_verify_pkcs1v15(key, FM_HASH_SHA384, msg, 7, g_sp1.n.b, g_sp1.n.len),
               FM_ERR_VERIFY);
  CHECK_EQ_INT(fm_rsa_verify_pss(key, FM_HASH_SHA384, msg, 7, 0, g_sp1.n.b, g_sp1.n.len),
               FM_ERR_VERIFY);
  /* A salt length that cannot fit. */
  CHECK_EQ_INT(fm_rsa_sign_pss(key, FM_HASH_SHA384, msg, 7, 20, sig, sizeof(sig), &sig_len), FM_OK);
  CHECK_EQ_INT(fm_rsa_verify_pss(key, FM_HASH_SHA384, msg, 7, 1000, sig, sig_len), FM_ERR_VERIFY);
  CHECK_EQ_INT(fm_rsa_verify_pss(key, FM_HASH_SHA384, msg, 7, 20, sig, sig_len), FM_OK);
  fm_rsa_key_free(key);
}

/* ---- One key shared by threads, and across fork ------------------------------------------------ */

/* PKCS#1 v1.5 signing is deterministic, so every thread must produce the reference signature
 * on every call, with no lock on the shared key and no per-thread state. */
typedef struct {
  const fm_rsa_key *key;
  const uint8_t *expected;
  size_t k;
  int mismatches;
} thread_job;

static void *sign_many(void *arg) {
  thread_job *job = arg;
  uint8_t sig[FM_RSA_MAX_BYTES];
  size_t sig_len = 0;
  for (int i = 0; i < 40; i++) {
    if (fm_rsa_sign_pkcs1v15(job->key, FM_HASH_SHA256, (const uint8_t *)"shared", 6, sig,
                             sizeof(sig), &sig_len) != FM_OK ||
        sig_len != job->k || memcmp(sig, job->expected, job->k) != 0)
      job->mismatches++;
  }
  return NULL;
}

static void test_shared_key_threads_and_fork(void) {
  fm_rsa_key *key = load_sp1_key();
  uint8_t ref[FM_RSA_MAX_BYTES];
  size_t k = 0;
  CHECK_EQ_INT(fm_rsa_sign_pkcs1v15(key, FM_HASH_SHA256, (const uint8_t *)"shared", 6, ref,
                                    sizeof(ref), &k),
               FM_OK);
  pthread_t threads[4];
  thread_job jobs[4];
  for (int i = 0; i < 4; i++) {
    jobs[i] = (thread_job){key, ref, k, 0};
    CHECK(pthread_create(&threads[i], NULL, sign_many, &jobs[i]) == 0);
  }
  for (int i = 0; i < 4; i++) {
    pthread_join(threads[i], NULL);
    CHECK_EQ_INT(jobs[i].mismatches, 0);
  }
  /* The main thread's pair crosses fork; the child must still sign correctly (it draws its own
   * pair) and so must the parent afterwards. */
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    thread_job job = {key, ref, k, 0};
    sign_many(&job);
    _exit(job.mismatches == 0 ? 0 : 1);
  }
  int status = 0;
  CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  thread_job job = {key, ref, k, 0};
  sign_many(&job);
  CHECK_EQ_INT(job.mismatches, 0);
  fm_rsa_key_free(key);
}

/* ---- Cleanup while a thread holds a key ------------------------------------------------------- */

typedef struct {
  fm_rsa_key *key;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int stage; /* 1: the thread has signed; 2: main has cleaned up */
  int first, after;
} cleanup_job;

static void *sign_then_wait(void *arg) {
  cleanup_job *j = arg;
  uint8_t sig[FM_RSA_MAX_BYTES];
  size_t sig_len = 0;
  j->first = fm_rsa_sign_pkcs1v15(j->key, FM_HASH_SHA256, (const uint8_t *)"a", 1, sig,
                                  sizeof(sig), &sig_len);
  pthread_mutex_lock(&j->mu);
  j->stage = 1;
  pthread_cond_broadcast(&j->cv);
  while (j->stage != 2) pthread_cond_wait(&j->cv, &j->mu);
  pthread_mutex_unlock(&j->mu);
  j->after = fm_rsa_sign_pkcs1v15(j->key, FM_HASH_SHA256, (const uint8_t *)"a", 1, sig,
                                  sizeof(sig), &sig_len);
  return NULL;
}

/* cleanup_child: a thread signs and stays alive; the main thread signs too, then calls
 * fm_module_cleanup: both threads' next private-key operations are refused, without a hang.
 * Exit status 0 on success. */
static int cleanup_child(void) {
  cleanup_job j = {.key = load_sp1_key(), .stage = 0};
  if (j.key == NULL) return 1;
  pthread_mutex_init(&j.mu, NULL);
  pthread_cond_init(&j.cv, NULL);
  pthread_t t;
  if (pthread_create(&t, NULL, sign_then_wait, &j) != 0) return 2;
  pthread_mutex_lock(&j.mu);
  while (j.stage != 1) pthread_cond_wait(&j.cv, &j.mu);
  pthread_mutex_unlock(&j.mu);
  uint8_t sig[FM_RSA_MAX_BYTES];
  size_t sig_len = 0;
  int bad = 0;
  if (fm_rsa_sign_pkcs1v15(j.key, FM_HASH_SHA256, (const uint8_t *)"b", 1, sig, sizeof(sig),
                           &sig_len) != FM_OK || j.first != FM_OK)
    bad |= 4;
  size_t k = 0;
  if (fm_rsa_key_size(j.key, &k) != FM_OK || k == 0 || k > sizeof sig) bad |= 8;
  fm_module_cleanup();
  memset(sig, 0x5a, sizeof sig);
  static const uint8_t one[1] = {1};
  if (fm_rsa_rsasp1(j.key, one, sizeof one, sig, sizeof(sig), &sig_len) != FM_ERR_NOT_OPERATIONAL ||
      !test_is_all_zero(sig, k))
    bad |= 32;
  pthread_mutex_lock(&j.mu);
  j.stage = 2;
  pthread_cond_broadcast(&j.cv);
  pthread_mutex_unlock(&j.mu);
  pthread_join(t, NULL);
  if (j.after != FM_ERR_NOT_OPERATIONAL) bad |= 64;
  fm_rsa_key_free(j.key);
  return bad;
}

static void test_cleanup_refuses_signing(void) {
  fflush(NULL);
  pid_t pid = fork();
  CHECK(pid >= 0);
  if (pid == 0) {
    alarm(60); /* a hang fails the test instead of stalling it */
    _exit(cleanup_child());
  }
  int status = 0;
  CHECK(waitpid(pid, &status, 0) == pid);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    fprintf(stderr, "cleanup child: status 0x%x\n", status);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* ---- The gate -------------------------------------------------------------------------------- */

/* gate_child runs in a forked child: after a forced ERROR every RSA service must refuse with
 * FM_ERR_NOT_OPERATIONAL and wipe its outputs. Exit status 0 on success. */
static int gate_child(void) {
  fm_rsa_key *key = load_sp1_key(); /* made while the module still works */
  if (key == NULL) return 1;
  fm_module_force_error_for_testing();
  int bad = 0;
#define EXPECT_NOT_OP(call)                                               \
  do {                                                                    \
    int st_ = (call);                                                     \
    if (st_ != FM_ERR_NOT_OPERATIONAL) {                                  \
      fprintf(stderr, "%s:%d: %s returned %d\n", __FILE__, __LINE__, #call, st_); \
      bad++;                                                              \
    }                                                                     \
  } while (0)
  uint8_t out[FM_RSA_MAX_BYTES];
  size_t out_len = 9;
  fm_rsa_key *k2 = (fm_rsa_key *)0x1;
  fm_rsa_private_components c = components_of(&g_sp1);
  EXPECT_NOT_OP(fm_rsa_key_import_private(&c, &k2));
  if (k2 != NULL) bad++;
  k2 = (fm_rsa_key *)0x1;
  EXPECT_NOT_OP(fm_rsa_key_import_private_nd(c.n, c.n_len, c.e, c.e_len, c.d, c.d_len, &k2));
  if (k2 != NULL) bad++;
  k2 = (fm_rsa_key *)0x1;
  EXPECT_NOT_OP(fm_rsa_key_import_public(c.n, c.n_len, c.e, c.e_len, &k2));
  if (k2 != NULL) bad++;
  k2 = (fm_rsa_key *)0x1;
  EXPECT_NOT_OP(fm_rsa_key_generate(2048, &k2));
  if (k2 != NULL) bad++;
  size_t v = 9;
  EXPECT_NOT_OP(fm_rsa_key_bits(key, &v));
  if (v != 0) bad++;
  v = 9;
  EXPECT_NOT_OP(fm_rsa_key_size(key, &v));
  if (v != 0) bad++;
  int priv = 9;
  EXPECT_NOT_OP(fm_rsa_key_is_private(key, &priv));
  if (priv != 0) bad++;
  /* A refusal wipes what the call could have written (the key's 256 bytes), nothing beyond. */
#define EXPECT_WIPED()                                                     \
  do {                                                                     \
    if (!test_is_all_zero(out, 256) || out[256] != 0xaa || out_len != 0) { \
      fprintf(stderr, "%s:%d: output not wiped\n", __FILE__, __LINE__);    \
      bad++;                                                               \
    }                                                                      \
    memset(out, 0xaa, sizeof(out));                                        \
    out_len = 9;                                                           \
  } while (0)
  memset(out, 0xaa, sizeof(out));
  EXPECT_NOT_OP(fm_rsa_key_export(key, FM_RSA_D, out, sizeof(out), &out_len));
  EXPECT_WIPED();
  const uint8_t msg[3] = {1, 2, 3};
  EXPECT_NOT_OP(fm_rsa_sign_pkcs1v15(key, FM_HASH_SHA256, msg, 3, out, sizeof(out), &out_len));
  EXPECT_WIPED();
  EXPECT_NOT_OP(fm_rsa_sign_pss(key, FM_HASH_SHA256, msg, 3, 32, out, sizeof(out), &out_len));
  EXPECT_WIPED();
  EXPECT_NOT_OP(fm_rsa_sign_pss_with_salt(key, FM_HASH_SHA256, msg, 3, msg, 3, out, sizeof(out),
                                          &out_len));
  EXPECT_WIPED();
  EXPECT_NOT_OP(fm_rsa_rsasp1(key, msg, 3, out, sizeof(out), &out_len));
  EXPECT_WIPED();
  EXPECT_NOT_OP(fm_rsa_rsadp(key, msg, 3, out, sizeof(out), &out_len));
  EXPECT_WIPED();
  EXPECT_NOT_OP(fm_rsa_verify_pkcs1v15(key, FM_HASH_SHA256, msg, 3, out, 256));
  EXPECT_NOT_OP(fm_rsa_verify_pss(key, FM_HASH_SHA256, msg, 3, 32, out, 256));
  /* Freeing still works (it only zeroizes). */
  if (fm_rsa_key_free(key) != FM_OK) bad++;
  return bad == 0 ? 0 : 1;
}

static void test_gate_in_error_state(void) {
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) _exit(gate_child());
  CHECK(pid > 0);
  int status = 0;
  CHECK(waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* fm_rsa_key_free zeroizes every byte of the key (private and public values, Montgomery contexts)
 * before it frees the memory: the hook sees the memory between the two. */
static size_t g_freed, g_freed_nonzero;
static void observe_free(const void *key, size_t len) {
  g_freed++;
  if (!test_is_all_zero(key, len)) g_freed_nonzero++;
}

static void test_free_zeroizes_the_key(void) {
  rsa_key_set_free_hook_for_testing(observe_free);
  fm_rsa_key *priv = NULL, *pub = NULL;
  CHECK_EQ_INT(fm_rsa_key_generate(2048, &priv), FM_OK);
  uint8_t n[256], e[8];
  size_t n_len = 0, e_len = 0;
  CHECK_EQ_INT(fm_rsa_key_export(priv, FM_RSA_N, n, sizeof n, &n_len), FM_OK);
  CHECK_EQ_INT(fm_rsa_key_export(priv, FM_RSA_E, e, sizeof e, &e_len), FM_OK);
  CHECK_EQ_INT(fm_rsa_key_import_public(n, n_len, e, e_len, &pub), FM_OK);
  g_freed = g_freed_nonzero = 0;
  CHECK_EQ_INT(fm_rsa_key_free(priv), FM_OK);
  CHECK_EQ_INT(fm_rsa_key_free(pub), FM_OK);
  CHECK_EQ_INT(g_freed, 2);
  CHECK_EQ_INT(g_freed_nonzero, 0);
  rsa_key_set_free_hook_for_testing(NULL);
}

static const test_case cases[] = {
  TEST_CASE(free_zeroizes_the_key),
  TEST_CASE(kat_pkcs1v15_siggen15),
  TEST_CASE(kat_pss_siggenpss),
  TEST_CASE(kat_rsasp1_crt),
  TEST_CASE(round_trips_imported_key),
  TEST_CASE(import_private_pq),
  TEST_CASE(generated_key_2048),
  TEST_CASE(generated_key_mod8),
  TEST_CASE(raw_out_of_range),
  TEST_CASE(sign_bad_inputs),
  TEST_CASE(verify_bad_inputs),
  TEST_CASE(shared_key_threads_and_fork),
  TEST_CASE(gate_in_error_state),
  TEST_CASE(cleanup_refuses_signing),
};

int main(int argc, char **argv) {
  if (fm_module_state() != FM_STATE_OPERATIONAL) {
    fprintf(stderr, "module not operational: %s\n", fm_module_state_name(fm_module_state()));
    return 1;
  }
  fm_rsa_key_free(load_sp1_key()); /* fills g_sp1 with the CRT values */
  return TEST_RUN(argc, argv, "test_rsa_unit", cases);
}
