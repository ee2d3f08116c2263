/* RSA: RSA-sign, RSA-verify, RSA-key-import and RSA-key-import-consistent at 2048, 3072 and 4096
 * bits, RSA-keygen at 2048.
 *
 * One key per size is generated with OpenSSL at start-up and imported into fipsmod from its
 * components, so both sides use the same key. What one operation is:
 * - RSA-sign: PKCS#1 v1.5 with SHA-256 over a 32-byte message, hashing included on both sides.
 *   fipsmod: fm_rsa_sign_pkcs1v15 (hash, encode, CRT, check with the public key).
 *   openssl: EVP_Digest (SHA-256) + EVP_PKEY_sign on an EVP_PKEY_CTX set up once (padding and
 *   digest set once: OpenSSL's fastest path; it blinds and checks the CRT result too).
 * - RSA-verify: the same signature checked; fipsmod fm_rsa_verify_pkcs1v15 on a public key,
 *   openssl EVP_Digest + EVP_PKEY_verify on a context set up once.
 * - RSA-key-import: a private key from n, e, d, p, q, dp, dq, qinv (big-endian), fully
 *   validated, and freed. fipsmod: fm_rsa_key_import_private (SP 800-56B Rev. 2 6.4.1.2.1: the
 *   consistency checks, Miller-Rabin on p and q with FIPS 186-5 Table B.1's rounds; every
 *   Montgomery context built eagerly). openssl-check: EVP_PKEY_fromdata from an OSSL_PARAM array
 *   built once, then EVP_PKEY_pairwise_check on a context made for the key (OpenSSL 3's default
 *   provider: RSA_check_key's checks, BN_check_prime on p and q with its own, larger, round
 *   counts).
 * - RSA-key-import-consistent: the same key with every check but the primality of p and q.
 *   fipsmod: fm_rsa_key_import_private_consistent. openssl: EVP_PKEY_fromdata alone, which
 *   checks nothing and defers its Montgomery contexts to first use (OpenSSL has no check without
 *   the primality tests); AWS-LC's private-key parse (RSA_check_key's consistency checks, no
 *   primality) is the like-for-like peer, through bench/compare_awslc.py.
 * - RSA-keygen (2048, e = 65537): fm_rsa_key_generate (with its pairwise test) against
 *   EVP_RSA_gen. Few iterations fit in a run; the figure is noisy by nature. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/rsa.h>

#include "bench/bench.h"
#include "bench/bench_ops.h"
#include "fipsmod/rsa.h"

enum { COMP_N, COMP_E, COMP_D, COMP_P, COMP_Q, COMP_DP, COMP_DQ, COMP_QINV, N_COMPS };
static const char *const k_param_names[N_COMPS] = {
    OSSL_PKEY_PARAM_RSA_N,         OSSL_PKEY_PARAM_RSA_E,         OSSL_PKEY_PARAM_RSA_D,
    OSSL_PKEY_PARAM_RSA_FACTOR1,   OSSL_PKEY_PARAM_RSA_FACTOR2,   OSSL_PKEY_PARAM_RSA_EXPONENT1,
    OSSL_PKEY_PARAM_RSA_EXPONENT2, OSSL_PKEY_PARAM_RSA_COEFFICIENT1,
};

typedef struct {
  unsigned bits;
  EVP_PKEY *pkey;
  EVP_PKEY_CTX *sign_ctx, *verify_ctx, *fromdata_ctx;
  OSSL_PARAM *params;
  uint8_t *comp[N_COMPS];
  size_t comp_len[N_COMPS];
  fm_rsa_private_components fc;
  fm_rsa_key *fm_priv, *fm_pub;
  uint8_t msg[32];
  uint8_t sig[FM_RSA_MAX_BYTES];
  size_t sig_len;
} rsa_fixture;

static void fixture_free(rsa_fixture *f) {
  fm_rsa_key_free(f->fm_priv);
  fm_rsa_key_free(f->fm_pub);
  EVP_PKEY_CTX_free(f->sign_ctx);
  EVP_PKEY_CTX_free(f->verify_ctx);
  EVP_PKEY_CTX_free(f->fromdata_ctx);
  OSSL_PARAM_free(f->params);
  EVP_PKEY_free(f->pkey);
  for (int i = 0; i < N_COMPS; i++) {
    if (f->comp[i]) OPENSSL_cleanse(f->comp[i], f->comp_len[i]);
    free(f->comp[i]);
  }
  memset(f, 0, sizeof(*f));
}

/* open_contexts sets up OpenSSL's contexts for PKCS#1 v1.5 SHA-256 signing and verification
 * and for EVP_PKEY_fromdata. Returns 0 or -1. */
static int open_contexts(EVP_PKEY *pkey, EVP_PKEY_CTX **sign, EVP_PKEY_CTX **verify,
                         EVP_PKEY_CTX **fromdata) {
  *sign = EVP_PKEY_CTX_new_from_pkey(NULL, pkey, NULL);
  *verify = EVP_PKEY_CTX_new_from_pkey(NULL, pkey, NULL);
  *fromdata = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
  int ok = *sign && *verify && *fromdata && EVP_PKEY_sign_init(*sign) == 1 &&
           EVP_PKEY_CTX_set_rsa_padding(*sign, RSA_PKCS1_PADDING) == 1 &&
           EVP_PKEY_CTX_set_signature_md(*sign, EVP_sha256()) == 1 &&
           EVP_PKEY_verify_init(*verify) == 1 &&
           EVP_PKEY_CTX_set_rsa_padding(*verify, RSA_PKCS1_PADDING) == 1 &&
           EVP_PKEY_CTX_set_signature_md(*verify, EVP_sha256()) == 1 &&
           EVP_PKEY_fromdata_init(*fromdata) == 1;
  return ok ? 0 : -1;
}

/* fixture_init makes the shared key; returns 0, or -1 after printing a note. */
static int fixture_init(rsa_fixture *f, unsigned bits) {
  memset(f, 0, sizeof(*f));
  f->bits = bits;
  bench_fill(f->msg, sizeof(f->msg), 42);
  f->pkey = EVP_RSA_gen(bits);
  if (f->pkey == NULL) {
    bench_note("RSA-%u: OpenSSL key generation failed", bits);
    return -1;
  }
  OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
  int ok = bld != NULL;
  BIGNUM *bn[N_COMPS] = {NULL};
  for (int i = 0; ok && i < N_COMPS; i++) {
    ok = EVP_PKEY_get_bn_param(f->pkey, k_param_names[i], &bn[i]) == 1;
    if (!ok) break;
    f->comp_len[i] = (size_t)BN_num_bytes(bn[i]);
    f->comp[i] = malloc(f->comp_len[i] ? f->comp_len[i] : 1);
    ok = f->comp[i] != NULL && BN_bn2bin(bn[i], f->comp[i]) == (int)f->comp_len[i] &&
         OSSL_PARAM_BLD_push_BN(bld, k_param_names[i], bn[i]) == 1;
  }
  if (ok) ok = (f->params = OSSL_PARAM_BLD_to_param(bld)) != NULL;
  OSSL_PARAM_BLD_free(bld);
  for (int i = 0; i < N_COMPS; i++) BN_clear_free(bn[i]);
  if (!ok) {
    bench_note("RSA-%u: could not read the key's components from OpenSSL", bits);
    return -1;
  }
  f->fc = (fm_rsa_private_components){
      .n = f->comp[COMP_N],    .n_len = f->comp_len[COMP_N],
      .e = f->comp[COMP_E],    .e_len = f->comp_len[COMP_E],
      .d = f->comp[COMP_D],    .d_len = f->comp_len[COMP_D],
      .p = f->comp[COMP_P],    .p_len = f->comp_len[COMP_P],
      .q = f->comp[COMP_Q],    .q_len = f->comp_len[COMP_Q],
      .dp = f->comp[COMP_DP],  .dp_len = f->comp_len[COMP_DP],
      .dq = f->comp[COMP_DQ],  .dq_len = f->comp_len[COMP_DQ],
      .qinv = f->comp[COMP_QINV], .qinv_len = f->comp_len[COMP_QINV],
  };
  int st = fm_rsa_key_import_private(&f->fc, &f->fm_priv);
  if (st == FM_OK)
    st = fm_rsa_key_import_public(f->fc.n, f->fc.n_len, f->fc.e, f->fc.e_len, &f->fm_pub);
  if (st != FM_OK) {
    bench_note("RSA-%u: fipsmod rejected OpenSSL's key: %s", bits, fm_strerror(st));
    /* OpenSSL's side still runs. */
  }
  ok = open_contexts(f->pkey, &f->sign_ctx, &f->verify_ctx, &f->fromdata_ctx) == 0;
  if (!ok) {
    bench_note("RSA-%u: OpenSSL context setup failed", bits);
    return -1;
  }
  /* The signature both sides verify; OpenSSL's, so that the verify benchmark does not depend on
   * fipsmod's signing. The two must agree (PKCS#1 v1.5 is deterministic). */
  uint8_t md[32];
  size_t len = sizeof(f->sig);
  if (EVP_Digest(f->msg, sizeof(f->msg), md, NULL, EVP_sha256(), NULL) != 1 ||
      EVP_PKEY_sign(f->sign_ctx, f->sig, &len, md, sizeof(md)) != 1) {
    bench_note("RSA-%u: OpenSSL signing failed", bits);
    return -1;
  }
  f->sig_len = len;
  if (f->fm_priv != NULL) {
    uint8_t fsig[FM_RSA_MAX_BYTES];
    size_t flen = 0;
    st = fm_rsa_sign_pkcs1v15(f->fm_priv, FM_HASH_SHA256, f->msg, sizeof(f->msg), fsig,
                              sizeof(fsig), &flen);
    if (st != FM_OK) bench_note("RSA-%u: fipsmod signing failed: %s", bits, fm_strerror(st));
    else if (flen != len || memcmp(fsig, f->sig, len) != 0)
      bench_note("RSA-%u: fipsmod's signature differs from OpenSSL's!", bits);
  }
  return 0;
}

/* ---- The implementations (the state is the shared fixture: every call is thread-safe) --- */

static void *fm_need_key(const void *param, size_t size, char *why, size_t why_len) {
  (void)size;
  const rsa_fixture *f = param;
  if (f->fm_priv == NULL || f->fm_pub == NULL) {
    snprintf(why, why_len, "no fipsmod key");
    return NULL;
  }
  return (void *)f;
}

static int fm_sign_run(void *p, size_t size, uint64_t n) {
  (void)size;
  rsa_fixture *f = p;
  uint8_t sig[FM_RSA_MAX_BYTES];
  size_t len;
  for (uint64_t i = 0; i < n; i++)
    if (fm_rsa_sign_pkcs1v15(f->fm_priv, FM_HASH_SHA256, f->msg, sizeof(f->msg), sig,
                             sizeof(sig), &len) != FM_OK)
      return 1;
  return 0;
}

/* OpenSSL's EVP_PKEY_CTX is not thread-safe: each measuring thread sets up its own. */
typedef struct {
  const rsa_fixture *f;
  EVP_PKEY_CTX *sign_ctx, *verify_ctx, *fromdata_ctx;
} ossl_thread;

static void ossl_thread_free(void *p) {
  ossl_thread *t = p;
  if (t == NULL) return;
  EVP_PKEY_CTX_free(t->sign_ctx);
  EVP_PKEY_CTX_free(t->verify_ctx);
  EVP_PKEY_CTX_free(t->fromdata_ctx);
  free(t);
}

static void *ossl_thread_new(const void *param, size_t size, char *why, size_t why_len) {
  (void)size;
  ossl_thread *t = calloc(1, sizeof(*t));
  if (t == NULL) return NULL;
  t->f = param;
  if (open_contexts(t->f->pkey, &t->sign_ctx, &t->verify_ctx, &t->fromdata_ctx) != 0) {
    snprintf(why, why_len, "OpenSSL context setup failed");
    ossl_thread_free(t);
    return NULL;
  }
  return t;
}

static int ossl_sign_run(void *p, size_t size, uint64_t n) {
  (void)size;
  ossl_thread *t = p;
  const rsa_fixture *f = t->f;
  uint8_t sig[FM_RSA_MAX_BYTES], md[32];
  for (uint64_t i = 0; i < n; i++) {
    size_t len = sizeof(sig);
    if (EVP_Digest(f->msg, sizeof(f->msg), md, NULL, EVP_sha256(), NULL) != 1 ||
        EVP_PKEY_sign(t->sign_ctx, sig, &len, md, sizeof(md)) != 1)
      return 1;
  }
  return 0;
}

static int fm_verify_run(void *p, size_t size, uint64_t n) {
  (void)size;
  rsa_fixture *f = p;
  for (uint64_t i = 0; i < n; i++)
    if (fm_rsa_verify_pkcs1v15(f->fm_pub, FM_HASH_SHA256, f->msg, sizeof(f->msg), f->sig,
                               f->sig_len) != FM_OK)
      return 1;
  return 0;
}

static int ossl_verify_run(void *p, size_t size, uint64_t n) {
  (void)size;
  ossl_thread *t = p;
  const rsa_fixture *f = t->f;
  uint8_t md[32];
  for (uint64_t i = 0; i < n; i++)
    if (EVP_Digest(f->msg, sizeof(f->msg), md, NULL, EVP_sha256(), NULL) != 1 ||
        EVP_PKEY_verify(t->verify_ctx, f->sig, f->sig_len, md, sizeof(md)) != 1)
      return 1;
  return 0;
}

static int fm_import_run(void *p, size_t size, uint64_t n) {
  (void)size;
  rsa_fixture *f = p;
  for (uint64_t i = 0; i < n; i++) {
    fm_rsa_key *k = NULL;
    if (fm_rsa_key_import_private(&f->fc, &k) != FM_OK) return 1;
    fm_rsa_key_free(k);
  }
  return 0;
}

static int fm_import_consistent_run(void *p, size_t size, uint64_t n) {
  (void)size;
  rsa_fixture *f = p;
  for (uint64_t i = 0; i < n; i++) {
    fm_rsa_key *k = NULL;
    if (fm_rsa_key_import_private_consistent(&f->fc, &k) != FM_OK) return 1;
    fm_rsa_key_free(k);
  }
  return 0;
}

static int ossl_import_run(void *p, size_t size, uint64_t n) {
  (void)size;
  ossl_thread *t = p;
  const rsa_fixture *f = t->f;
  for (uint64_t i = 0; i < n; i++) {
    EVP_PKEY *k = NULL;
    if (EVP_PKEY_fromdata(t->fromdata_ctx, &k, EVP_PKEY_KEYPAIR, f->params) != 1) return 1;
    EVP_PKEY_free(k);
  }
  return 0;
}

static int ossl_import_check_run(void *p, size_t size, uint64_t n) {
  (void)size;
  ossl_thread *t = p;
  const rsa_fixture *f = t->f;
  for (uint64_t i = 0; i < n; i++) {
    EVP_PKEY *k = NULL;
    if (EVP_PKEY_fromdata(t->fromdata_ctx, &k, EVP_PKEY_KEYPAIR, f->params) != 1) return 1;
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(NULL, k, NULL);
    const int ok = c != NULL && EVP_PKEY_pairwise_check(c) == 1;
    EVP_PKEY_CTX_free(c);
    EVP_PKEY_free(k);
    if (!ok) return 1;
  }
  return 0;
}

static int fm_keygen_run(void *p, size_t size, uint64_t n) {
  (void)p;
  for (uint64_t i = 0; i < n; i++) {
    fm_rsa_key *k = NULL;
    if (fm_rsa_key_generate((unsigned)size, &k) != FM_OK) return 1;
    fm_rsa_key_free(k);
  }
  return 0;
}

static int ossl_keygen_run(void *p, size_t size, uint64_t n) {
  (void)p;
  for (uint64_t i = 0; i < n; i++) {
    EVP_PKEY *k = EVP_RSA_gen((unsigned)size);
    if (k == NULL) return 1;
    EVP_PKEY_free(k);
  }
  return 0;
}

void bench_rsa(void) {
  static const unsigned sizes[] = {2048, 3072, 4096};
  if (bench_wants("RSA-sign") || bench_wants("RSA-verify") || bench_wants("RSA-key-import") ||
      bench_wants("RSA-key-import-consistent")) {
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
      rsa_fixture *f = calloc(1, sizeof(*f));
      if (f == NULL) return;
      if (fixture_init(f, sizes[i]) == 0) {
        const bench_impl sign[] = {{"fipsmod", fm_need_key, fm_sign_run, NULL, f},
                                   {"openssl", ossl_thread_new, ossl_sign_run, ossl_thread_free, f}};
        const bench_impl verify[] = {{"fipsmod", fm_need_key, fm_verify_run, NULL, f},
                                     {"openssl", ossl_thread_new, ossl_verify_run, ossl_thread_free, f}};
        const bench_impl import[] = {
            {"fipsmod", fm_need_key, fm_import_run, NULL, f},
            {"openssl-check", ossl_thread_new, ossl_import_check_run, ossl_thread_free, f}};
        const bench_impl consistent[] = {
            {"fipsmod", fm_need_key, fm_import_consistent_run, NULL, f},
            {"openssl", ossl_thread_new, ossl_import_run, ossl_thread_free, f}};
        bench_measure("RSA-sign", sizes[i], BENCH_BITS, sign, 2, false);
        bench_measure("RSA-verify", sizes[i], BENCH_BITS, verify, 2, false);
        bench_measure("RSA-key-import", sizes[i], BENCH_BITS, import, 2, false);
        bench_measure("RSA-key-import-consistent", sizes[i], BENCH_BITS, consistent, 2, false);
      }
      fixture_free(f);
      free(f);
    }
  }
  const bench_impl keygen[] = {{"fipsmod", NULL, fm_keygen_run, NULL, NULL},
                               {"openssl", NULL, ossl_keygen_run, NULL, NULL}};
  bench_measure("RSA-keygen", 2048, BENCH_BITS, keygen, 2, false);
}
