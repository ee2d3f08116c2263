/* What test_rsa_unit.c and test_rsa_keycheck.c share: the CAVP RSASP1 COUNT = 0 key
 * (rsa_test_vectors.h) with its CRT values as the module computes them (load_sp1_key), the hex
 * helpers, and the sign/verify round trips of a key. */
#ifndef FIPSMOD_TESTS_RSA_UNIT_KEYS_H
#define FIPSMOD_TESTS_RSA_UNIT_KEYS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fipsmod/rsa.h"
#include "rsa_test_vectors.h"
#include "tests/common/test_util.h"

/* A decoded hex value. */
typedef struct {
  uint8_t b[FM_RSA_MAX_BYTES + 8];
  size_t len;
} blob;

static inline blob hex(const char *h) {
  blob x;
  long n = test_hex_decode(h, x.b, sizeof(x.b));
  if (n < 0) {
    fprintf(stderr, "bad hex in test vector\n");
    exit(2);
  }
  x.len = (size_t)n;
  return x;
}

/* The RSASP1 COUNT = 0 key with its CRT values as the module computes them. */
typedef struct {
  blob n, e, d, p, q, dp, dq, qinv;
} key_blobs;

static inline fm_rsa_private_components components_of(const key_blobs *k) {
  fm_rsa_private_components c = {
      .n = k->n.b, .n_len = k->n.len, .e = k->e.b, .e_len = k->e.len,
      .d = k->d.b, .d_len = k->d.len, .p = k->p.b, .p_len = k->p.len,
      .q = k->q.b, .q_len = k->q.len, .dp = k->dp.b, .dp_len = k->dp.len,
      .dq = k->dq.b, .dq_len = k->dq.len, .qinv = k->qinv.b, .qinv_len = k->qinv.len,
  };
  return c;
}

static key_blobs g_sp1; /* filled by load_sp1_key */

static inline fm_rsa_key *load_sp1_key(void) {
  g_sp1.n = hex(kSp1N);
  g_sp1.e = hex(kSp1E);
  g_sp1.d = hex(kSp1D);
  g_sp1.p = hex(kSp1P);
  g_sp1.q = hex(kSp1Q);
  fm_rsa_private_components c = components_of(&g_sp1);
  c.dp = c.dq = c.qinv = NULL;
  c.dp_len = c.dq_len = c.qinv_len = 0;
  fm_rsa_key *key = NULL;
  CHECK_EQ_INT(fm_rsa_key_import_private(&c, &key), FM_OK);
  if (key == NULL) return NULL;
  CHECK_EQ_INT(fm_rsa_key_export(key, FM_RSA_DP, g_sp1.dp.b, sizeof(g_sp1.dp.b), &g_sp1.dp.len),
               FM_OK);
  CHECK_EQ_INT(fm_rsa_key_export(key, FM_RSA_DQ, g_sp1.dq.b, sizeof(g_sp1.dq.b), &g_sp1.dq.len),
               FM_OK);
  CHECK_EQ_INT(
      fm_rsa_key_export(key, FM_RSA_QINV, g_sp1.qinv.b, sizeof(g_sp1.qinv.b), &g_sp1.qinv.len),
      FM_OK);
  return key;
}

/* round_trips signs and verifies with |key|: PKCS#1 v1.5 with each hash (another hash or a
 * flipped signature byte fails), PSS at salt lengths 0, hLen / 2 and hLen (a changed message or
 * the other padding fails), and two salted PSS signatures differ. */
static inline void round_trips(fm_rsa_key *key) {
  static const fm_hash_alg algs[] = {FM_HASH_SHA256, FM_HASH_SHA384, FM_HASH_SHA512};
  uint8_t msg[300], sig[FM_RSA_MAX_BYTES];
  size_t k = 0, sig_len = 0;
  CHECK_EQ_INT(fm_rsa_key_size(key, &k), FM_OK);
  for (size_t i = 0; i < sizeof(msg); i++) msg[i] = (uint8_t)(i * 7 + 3);
  for (size_t a = 0; a < 3; a++) {
    size_t hlen = 0;
    CHECK_EQ_INT(fm_hash_digest_len(algs[a], &hlen), FM_OK);
    for (size_t len = 0; len <= sizeof(msg); len += 150) {
      CHECK_EQ_INT(fm_rsa_sign_pkcs1v15(key, algs[a], msg, len, sig, sizeof(sig), &sig_len), FM_OK);
      CHECK_EQ_INT(sig_len, k);
      CHECK_EQ_INT(fm_rsa_verify_pkcs1v15(key, algs[a], msg, len, sig, sig_len), FM_OK);
      CHECK_EQ_INT(fm_rsa_verify_pkcs1v15(key, algs[(a + 1) % 3], msg, len, sig, sig_len),
                   FM_ERR_VERIFY);
      sig[k / 2] ^= 0x10;
      CHECK_EQ_INT(fm_rsa_verify_pkcs1v15(key, algs[a], msg, len, sig, sig_len), FM_ERR_VERIFY);
    }
    /* PSS at salt lengths 0, hLen / 2 and hLen, the signing maximum (FIPS 186-5 5.4). */
    const size_t salts[] = {0, hlen / 2, hlen};
    for (size_t s = 0; s < 3; s++) {
      CHECK_EQ_INT(fm_rsa_sign_pss(key, algs[a], msg, 100, salts[s], sig, sizeof(sig), &sig_len),
                   FM_OK);
      CHECK_EQ_INT(fm_rsa_verify_pss(key, algs[a], msg, 100, salts[s], sig, sig_len), FM_OK);
      CHECK_EQ_INT(
          fm_rsa_verify_pss(key, algs[a], msg, 100, FM_RSA_PSS_SALT_LEN_ANY, sig, sig_len), FM_OK);
      CHECK_EQ_INT(fm_rsa_verify_pss(key, algs[a], msg, 99, salts[s], sig, sig_len),
                   FM_ERR_VERIFY);
      CHECK_EQ_INT(fm_rsa_verify_pkcs1v15(key, algs[a], msg, 100, sig, sig_len), FM_ERR_VERIFY);
    }
    /* Two PSS signatures with a salt differ (fresh random salts). */
    uint8_t sig2[FM_RSA_MAX_BYTES];
    size_t sig2_len = 0;
    CHECK_EQ_INT(fm_rsa_sign_pss(key, algs[a], msg, 10, hlen, sig, sizeof(sig), &sig_len), FM_OK);
    CHECK_EQ_INT(fm_rsa_sign_pss(key, algs[a], msg, 10, hlen, sig2, sizeof(sig2), &sig2_len),
                 FM_OK);
    CHECK(memcmp(sig, sig2, k) != 0);
  }
}

#endif
