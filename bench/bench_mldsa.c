/* ML-DSA: ML-DSA-44/65/87-keygen, -sign and -verify (a 32-byte message, empty context).
 *
 * fipsmod: fm_mldsa_keygen (a DRBG seed, KeyGen, and the pairwise consistency test: one
 * signature and one verification), fm_mldsa_sign (hedged: rnd from the DRBG) and
 * fm_mldsa_verify, on byte-string keys. openssl: the EVP names "ML-DSA-44" etc. (OpenSSL 3.5 and
 * later; an older libcrypto has no such name and the peer is left out with a note):
 * EVP_PKEY_Q_keygen, and EVP_DigestSign / EVP_DigestVerify on one-shot contexts made per call.
 * ML-DSA-<set>-keygen+pct times the same fipsmod keygen against OpenSSL doing the work its FIPS
 * provider does for a key pair (ml_dsa_gen's pairwise test under FIPS_MODULE): EVP_PKEY_Q_keygen,
 * then a signature of the 32-byte message with the new key and its verification. The default
 * provider measured here runs no such test, so the plain keygen row compares unequal work.
 * AWS-LC is measured by its own tool (`aws-lc-bssl speed -filter MLDSA`, bench/README.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "bench/bench.h"
#include "bench/bench_ops.h"
#include "fipsmod/mldsa.h"

typedef struct {
  fm_mldsa_param param;
  char evp_name[16];
  uint8_t pk[FM_MLDSA_87_PUBLIC_KEY_LEN], sk[FM_MLDSA_87_PRIVATE_KEY_LEN];
  uint8_t sig[FM_MLDSA_MAX_SIGNATURE_LEN];
  size_t pk_len, sk_len, sig_len;
  uint8_t msg[32];
  EVP_PKEY *pkey;
  uint8_t ossl_sig[FM_MLDSA_MAX_SIGNATURE_LEN];
  size_t ossl_sig_len;
} mldsa_fixture;

static int fm_keygen_run(void *p, size_t size, uint64_t n) {
  (void)size;
  mldsa_fixture *f = p;
  uint8_t pk[FM_MLDSA_87_PUBLIC_KEY_LEN], sk[FM_MLDSA_87_PRIVATE_KEY_LEN];
  for (uint64_t i = 0; i < n; i++)
    if (fm_mldsa_keygen(f->param, pk, f->pk_len, sk, f->sk_len, NULL) != FM_OK) return 1;
  return 0;
}

static int fm_sign_run(void *p, size_t size, uint64_t n) {
  (void)size;
  mldsa_fixture *f = p;
  uint8_t sig[FM_MLDSA_MAX_SIGNATURE_LEN];
  size_t len = 0;
  for (uint64_t i = 0; i < n; i++)
    if (fm_mldsa_sign(f->param, f->sk, f->sk_len, f->msg, sizeof f->msg, NULL, 0, 0, sig,
                      sizeof sig, &len) != FM_OK)
      return 1;
  return 0;
}

static int fm_verify_run(void *p, size_t size, uint64_t n) {
  (void)size;
  mldsa_fixture *f = p;
  for (uint64_t i = 0; i < n; i++)
    if (fm_mldsa_verify(f->param, f->pk, f->pk_len, f->msg, sizeof f->msg, NULL, 0, f->sig,
                        f->sig_len) != FM_OK)
      return 1;
  return 0;
}

static void *ossl_need(const void *param, size_t size, char *why, size_t why_len) {
  (void)size;
  const mldsa_fixture *f = param;
  if (f->pkey == NULL) {
    snprintf(why, why_len, "this libcrypto has no %s (OpenSSL 3.5 or later has)", f->evp_name);
    return NULL;
  }
  return (void *)f;
}

static int ossl_keygen_run(void *p, size_t size, uint64_t n) {
  (void)size;
  mldsa_fixture *f = p;
  for (uint64_t i = 0; i < n; i++) {
    EVP_PKEY *k = EVP_PKEY_Q_keygen(NULL, NULL, f->evp_name);
    if (k == NULL) return 1;
    EVP_PKEY_free(k);
  }
  return 0;
}

/* One signature of f->msg under |k| and its verification, on one-shot contexts. */
static int ossl_sign_verify(mldsa_fixture *f, EVP_PKEY *k) {
  uint8_t sig[FM_MLDSA_MAX_SIGNATURE_LEN];
  size_t len = sizeof sig;
  EVP_MD_CTX *s = EVP_MD_CTX_new(), *v = EVP_MD_CTX_new();
  int ok = s != NULL && v != NULL &&
           EVP_DigestSignInit_ex(s, NULL, NULL, NULL, NULL, k, NULL) == 1 &&
           EVP_DigestSign(s, sig, &len, f->msg, sizeof f->msg) == 1 &&
           EVP_DigestVerifyInit_ex(v, NULL, NULL, NULL, NULL, k, NULL) == 1 &&
           EVP_DigestVerify(v, sig, len, f->msg, sizeof f->msg) == 1;
  EVP_MD_CTX_free(s);
  EVP_MD_CTX_free(v);
  return ok;
}

static int ossl_keygen_pct_run(void *p, size_t size, uint64_t n) {
  (void)size;
  mldsa_fixture *f = p;
  for (uint64_t i = 0; i < n; i++) {
    EVP_PKEY *k = EVP_PKEY_Q_keygen(NULL, NULL, f->evp_name);
    int ok = k != NULL && ossl_sign_verify(f, k);
    EVP_PKEY_free(k);
    if (!ok) return 1;
  }
  return 0;
}

static int ossl_sign_run(void *p, size_t size, uint64_t n) {
  (void)size;
  mldsa_fixture *f = p;
  for (uint64_t i = 0; i < n; i++) {
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    size_t len = sizeof f->ossl_sig;
    int ok = ctx != NULL && EVP_DigestSignInit_ex(ctx, NULL, NULL, NULL, NULL, f->pkey, NULL) == 1 &&
             EVP_DigestSign(ctx, f->ossl_sig, &len, f->msg, sizeof f->msg) == 1;
    EVP_MD_CTX_free(ctx);
    if (!ok) return 1;
    f->ossl_sig_len = len;
  }
  return 0;
}

static int ossl_verify_run(void *p, size_t size, uint64_t n) {
  (void)size;
  mldsa_fixture *f = p;
  for (uint64_t i = 0; i < n; i++) {
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    int ok = ctx != NULL &&
             EVP_DigestVerifyInit_ex(ctx, NULL, NULL, NULL, NULL, f->pkey, NULL) == 1 &&
             EVP_DigestVerify(ctx, f->ossl_sig, f->ossl_sig_len, f->msg, sizeof f->msg) == 1;
    EVP_MD_CTX_free(ctx);
    if (!ok) return 1;
  }
  return 0;
}

void bench_mldsa(void) {
  static const fm_mldsa_param sets[] = {FM_MLDSA_44, FM_MLDSA_65, FM_MLDSA_87};
  for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
    char op_keygen[32], op_pct[32], op_sign[32], op_verify[32];
    snprintf(op_keygen, sizeof op_keygen, "ML-DSA-%d-keygen", (int)sets[i]);
    snprintf(op_pct, sizeof op_pct, "ML-DSA-%d-keygen+pct", (int)sets[i]);
    snprintf(op_sign, sizeof op_sign, "ML-DSA-%d-sign", (int)sets[i]);
    snprintf(op_verify, sizeof op_verify, "ML-DSA-%d-verify", (int)sets[i]);
    if (!bench_wants(op_keygen) && !bench_wants(op_pct) && !bench_wants(op_sign) &&
        !bench_wants(op_verify))
      continue;
    mldsa_fixture *f = calloc(1, sizeof *f);
    if (f == NULL) return;
    f->param = sets[i];
    snprintf(f->evp_name, sizeof f->evp_name, "ML-DSA-%d", (int)sets[i]);
    f->pk_len = fm_mldsa_public_key_len(f->param);
    f->sk_len = fm_mldsa_private_key_len(f->param);
    bench_fill(f->msg, sizeof f->msg, 7);
    int st = fm_mldsa_keygen(f->param, f->pk, f->pk_len, f->sk, f->sk_len, NULL);
    if (st == FM_OK)
      st = fm_mldsa_sign(f->param, f->sk, f->sk_len, f->msg, sizeof f->msg, NULL, 0, 0, f->sig,
                         sizeof f->sig, &f->sig_len);
    if (st != FM_OK) {
      bench_note("%s: fipsmod set-up failed: %s", f->evp_name, fm_strerror(st));
      free(f);
      continue;
    }
    f->pkey = EVP_PKEY_Q_keygen(NULL, NULL, f->evp_name);
    if (f->pkey != NULL && ossl_sign_run(f, 0, 1) != 0) {
      EVP_PKEY_free(f->pkey);
      f->pkey = NULL;
    }
    const bench_impl keygen[] = {{"fipsmod", NULL, fm_keygen_run, NULL, f},
                                 {"openssl", ossl_need, ossl_keygen_run, NULL, f}};
    const bench_impl keygen_pct[] = {{"fipsmod", NULL, fm_keygen_run, NULL, f},
                                     {"openssl", ossl_need, ossl_keygen_pct_run, NULL, f}};
    const bench_impl sign[] = {{"fipsmod", NULL, fm_sign_run, NULL, f},
                               {"openssl", ossl_need, ossl_sign_run, NULL, f}};
    const bench_impl verify[] = {{"fipsmod", NULL, fm_verify_run, NULL, f},
                                 {"openssl", ossl_need, ossl_verify_run, NULL, f}};
    bench_measure(op_keygen, 32, BENCH_BYTES, keygen, 2, false);
    bench_measure(op_pct, 32, BENCH_BYTES, keygen_pct, 2, false);
    bench_measure(op_sign, 32, BENCH_BYTES, sign, 2, false);
    bench_measure(op_verify, 32, BENCH_BYTES, verify, 2, false);
    EVP_PKEY_free(f->pkey);
    memset(f->sk, 0, sizeof f->sk);
    free(f);
  }
}
