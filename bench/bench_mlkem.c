/* ML-KEM: ML-KEM-512/768/1024-keygen, -encaps and -decaps, single-thread ops/sec.
 *
 * fipsmod: fm_mlkem_keygen (seeds from the DRBG, expansion, the pairwise consistency test),
 * fm_mlkem_encaps (m from the DRBG, the ek checks of FIPS 203 7.2) and fm_mlkem_decaps (the dk
 * checks of 7.3, re-encryption, implicit rejection). ML-KEM-<set>-keygen-nopct is key generation
 * from a seed (fm_mlkem_keygen_from_seed), without the DRBG draw and the pairwise test, so that
 * the test's cost shows beside it.
 * openssl: the same operations through EVP by name (EVP_PKEY_CTX_new_from_name "ML-KEM-768",
 * EVP_PKEY_keygen, EVP_PKEY_encapsulate, EVP_PKEY_decapsulate), which OpenSSL 3.5 and later
 * provide; with an older libcrypto the peer is reported absent. The key, ciphertext and
 * contexts are set up once per thread. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "bench/bench.h"
#include "bench/bench_ops.h"
#include "fipsmod/mlkem.h"
#include "fipsmod/util.h"

typedef struct {
  fm_mlkem_param param;
  size_t ek_len, dk_len, ct_len;
  uint8_t ek[FM_MLKEM_MAX_EK_LEN], dk[FM_MLKEM_MAX_DK_LEN], ct[FM_MLKEM_MAX_CT_LEN];
  uint8_t seed[FM_MLKEM_SEED_LEN];
} fm_fixture;

static void *fm_init(const void *param, size_t size, char *why, size_t why_len) {
  (void)param;
  fm_fixture *f = calloc(1, sizeof *f);
  if (f == NULL) return NULL;
  f->param = (fm_mlkem_param)size;
  if (fm_mlkem_sizes(f->param, &f->ek_len, &f->dk_len, &f->ct_len) != FM_OK ||
      fm_mlkem_keygen(f->param, f->ek, f->ek_len, f->dk, f->dk_len, f->seed, sizeof f->seed) !=
          FM_OK) {
    snprintf(why, why_len, "fipsmod key generation failed");
    free(f);
    return NULL;
  }
  uint8_t ss[32];
  if (fm_mlkem_encaps(f->param, f->ek, f->ek_len, f->ct, f->ct_len, ss, sizeof ss) != FM_OK) {
    snprintf(why, why_len, "fipsmod encapsulation failed");
    free(f);
    return NULL;
  }
  return f;
}

static void fm_fini(void *p) {
  fm_fixture *f = p;
  if (f) fm_cleanse(f, sizeof *f);
  free(f);
}

static int fm_keygen_run(void *p, size_t size, uint64_t n) {
  (void)size;
  fm_fixture *f = p;
  for (uint64_t i = 0; i < n; i++)
    if (fm_mlkem_keygen(f->param, f->ek, f->ek_len, f->dk, f->dk_len, NULL, 0) != FM_OK) return 1;
  return 0;
}

static int fm_keygen_nopct_run(void *p, size_t size, uint64_t n) {
  (void)size;
  fm_fixture *f = p;
  for (uint64_t i = 0; i < n; i++) {
    f->seed[0] = (uint8_t)i;
    if (fm_mlkem_keygen_from_seed(f->param, f->seed, sizeof f->seed, f->ek, f->ek_len, f->dk,
                                  f->dk_len) != FM_OK)
      return 1;
  }
  return 0;
}

static int fm_encaps_run(void *p, size_t size, uint64_t n) {
  (void)size;
  fm_fixture *f = p;
  uint8_t ss[32];
  for (uint64_t i = 0; i < n; i++)
    if (fm_mlkem_encaps(f->param, f->ek, f->ek_len, f->ct, f->ct_len, ss, sizeof ss) != FM_OK)
      return 1;
  return 0;
}

static int fm_decaps_run(void *p, size_t size, uint64_t n) {
  (void)size;
  fm_fixture *f = p;
  uint8_t ss[32];
  for (uint64_t i = 0; i < n; i++)
    if (fm_mlkem_decaps(f->param, f->dk, f->dk_len, f->ct, f->ct_len, ss, sizeof ss) != FM_OK)
      return 1;
  return 0;
}

/* ---- OpenSSL (3.5 and later) ------------------------------------------------------------ */

typedef struct {
  EVP_PKEY_CTX *gen;
  EVP_PKEY *key;
  EVP_PKEY_CTX *enc, *dec;
  uint8_t ct[FM_MLKEM_MAX_CT_LEN];
  size_t ct_len;
} ossl_fixture;

static void ossl_fini(void *p) {
  ossl_fixture *o = p;
  if (o == NULL) return;
  EVP_PKEY_CTX_free(o->gen);
  EVP_PKEY_CTX_free(o->enc);
  EVP_PKEY_CTX_free(o->dec);
  EVP_PKEY_free(o->key);
  free(o);
}

static void *ossl_init(const void *param, size_t size, char *why, size_t why_len) {
  (void)param;
  char name[16];
  snprintf(name, sizeof name, "ML-KEM-%zu", size);
  ossl_fixture *o = calloc(1, sizeof *o);
  if (o == NULL) return NULL;
  o->gen = EVP_PKEY_CTX_new_from_name(NULL, name, NULL);
  if (o->gen == NULL || EVP_PKEY_keygen_init(o->gen) != 1) {
    snprintf(why, why_len, "absent: this libcrypto (%s) has no %s (OpenSSL 3.5 or later)",
             OpenSSL_version(OPENSSL_VERSION), name);
    ossl_fini(o);
    return NULL;
  }
  uint8_t ss[64];
  size_t ss_len = sizeof ss;
  o->ct_len = sizeof o->ct;
  if (EVP_PKEY_keygen(o->gen, &o->key) != 1 ||
      (o->enc = EVP_PKEY_CTX_new_from_pkey(NULL, o->key, NULL)) == NULL ||
      (o->dec = EVP_PKEY_CTX_new_from_pkey(NULL, o->key, NULL)) == NULL ||
      EVP_PKEY_encapsulate_init(o->enc, NULL) != 1 || EVP_PKEY_decapsulate_init(o->dec, NULL) != 1 ||
      EVP_PKEY_encapsulate(o->enc, o->ct, &o->ct_len, ss, &ss_len) != 1) {
    snprintf(why, why_len, "OpenSSL %s setup failed", name);
    ossl_fini(o);
    return NULL;
  }
  return o;
}

static int ossl_keygen_run(void *p, size_t size, uint64_t n) {
  (void)size;
  ossl_fixture *o = p;
  for (uint64_t i = 0; i < n; i++) {
    EVP_PKEY *k = NULL;
    if (EVP_PKEY_keygen(o->gen, &k) != 1) return 1;
    EVP_PKEY_free(k);
  }
  return 0;
}

static int ossl_encaps_run(void *p, size_t size, uint64_t n) {
  (void)size;
  ossl_fixture *o = p;
  uint8_t ct[FM_MLKEM_MAX_CT_LEN], ss[64];
  for (uint64_t i = 0; i < n; i++) {
    size_t ct_len = sizeof ct, ss_len = sizeof ss;
    if (EVP_PKEY_encapsulate(o->enc, ct, &ct_len, ss, &ss_len) != 1) return 1;
  }
  return 0;
}

static int ossl_decaps_run(void *p, size_t size, uint64_t n) {
  (void)size;
  ossl_fixture *o = p;
  uint8_t ss[64];
  for (uint64_t i = 0; i < n; i++) {
    size_t ss_len = sizeof ss;
    if (EVP_PKEY_decapsulate(o->dec, ss, &ss_len, o->ct, o->ct_len) != 1) return 1;
  }
  return 0;
}

void bench_mlkem(void) {
  static const unsigned sets[] = {512, 768, 1024};
  for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
    char op[40];
    const bench_impl keygen[] = {{"fipsmod", fm_init, fm_keygen_run, fm_fini, NULL},
                                 {"openssl", ossl_init, ossl_keygen_run, ossl_fini, NULL}};
    const bench_impl encaps[] = {{"fipsmod", fm_init, fm_encaps_run, fm_fini, NULL},
                                 {"openssl", ossl_init, ossl_encaps_run, ossl_fini, NULL}};
    const bench_impl decaps[] = {{"fipsmod", fm_init, fm_decaps_run, fm_fini, NULL},
                                 {"openssl", ossl_init, ossl_decaps_run, ossl_fini, NULL}};
    snprintf(op, sizeof op, "ML-KEM-%u-keygen", sets[i]);
    bench_measure(op, sets[i], BENCH_BITS, keygen, 2, false);
    {
      const bench_impl nopct[] = {{"fipsmod", fm_init, fm_keygen_nopct_run, fm_fini, NULL}};
      snprintf(op, sizeof op, "ML-KEM-%u-keygen-nopct", sets[i]);
      bench_measure(op, sets[i], BENCH_BITS, nopct, 1, false);
    }
    snprintf(op, sizeof op, "ML-KEM-%u-encaps", sets[i]);
    bench_measure(op, sets[i], BENCH_BITS, encaps, 2, false);
    snprintf(op, sizeof op, "ML-KEM-%u-decaps", sets[i]);
    bench_measure(op, sets[i], BENCH_BITS, decaps, 2, false);
  }
}
