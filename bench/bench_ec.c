/* Elliptic curves: ECDSA-P<n>-sign, ECDSA-P<n>-verify, ECDH-P<n> and EC-P<n>-keygen for P-256,
 * P-384 and P-521, each side by side with OpenSSL (libcrypto's EVP interface).
 * - sign: SHA-256 (P-256), SHA-384 (P-384) or SHA-512 (P-521) of a 32-byte message, hashing
 *   included on both sides; fipsmod fm_ecdsa_sign (random k from the DRBG), OpenSSL
 *   EVP_DigestSign.
 * - verify: OpenSSL's signature of that message, checked by both (fipsmod gets it as r || s).
 * - ECDH: the shared x-coordinate with a fixed peer, the peer point validated by both sides on
 *   every call (fipsmod fm_ecdh on the SEC1 point; OpenSSL EVP_PKEY_derive on a parsed peer).
 * - keygen: fm_ec_key_generate (with its pairwise test) against EVP_EC_gen.
 * - keygen+pct: the same fipsmod keygen against OpenSSL doing the work its FIPS provider does for
 *   a key pair (ecdsa_keygen_pairwise_test under FIPS_MODULE): EVP_EC_gen, then an ECDSA
 *   signature of the 32-byte message with the new key (the row's hash) and its verification.
 *   The default provider measured here runs no such test, so the keygen row compares unequal
 *   work. */
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/bench_ops.h"
#include "fipsmod/ec.h"
#include "fipsmod/sha.h"

typedef struct ec_fixture {
  fm_ec_curve curve;
  const char *group;  /* OpenSSL's name */
  fm_hash_alg hash;
  const EVP_MD *md;
  size_t nb;
  EVP_PKEY *pkey, *peer;
  fm_ec_key *fm_priv, *fm_pub;
  uint8_t msg[32];
  uint8_t der_sig[160];
  size_t der_len;
  uint8_t raw_sig[FM_EC_MAX_SIG_BYTES];
  uint8_t peer_pt[FM_EC_MAX_POINT_BYTES];
  size_t peer_len;
} ec_fixture;

static void fixture_free(ec_fixture *f) {
  fm_ec_key_free(f->fm_priv);
  fm_ec_key_free(f->fm_pub);
  EVP_PKEY_free(f->pkey);
  EVP_PKEY_free(f->peer);
}

/* der_to_raw turns OpenSSL's DER signature into r || s. */
static int der_to_raw(const uint8_t *der, size_t der_len, size_t nb, uint8_t *raw) {
  const unsigned char *p = der;
  ECDSA_SIG *s = d2i_ECDSA_SIG(NULL, &p, (long)der_len);
  if (s == NULL) return -1;
  int ok = BN_bn2binpad(ECDSA_SIG_get0_r(s), raw, (int)nb) == (int)nb &&
           BN_bn2binpad(ECDSA_SIG_get0_s(s), raw + nb, (int)nb) == (int)nb;
  ECDSA_SIG_free(s);
  return ok ? 0 : -1;
}

static int fixture_init(ec_fixture *f) {
  memset(f->msg, 0x5a, sizeof f->msg);
  f->nb = fm_ec_curve_bytes(f->curve);
  f->pkey = EVP_EC_gen(f->group);
  f->peer = EVP_EC_gen(f->group);
  if (f->pkey == NULL || f->peer == NULL) return -1;
  uint8_t d[FM_EC_MAX_BYTES], pt[FM_EC_MAX_POINT_BYTES];
  size_t pt_len = 0;
  BIGNUM *bd = NULL;
  if (EVP_PKEY_get_bn_param(f->pkey, "priv", &bd) != 1 ||
      BN_bn2binpad(bd, d, (int)f->nb) != (int)f->nb ||
      EVP_PKEY_get_octet_string_param(f->pkey, "encoded-pub-key", pt, sizeof pt, &pt_len) != 1 ||
      EVP_PKEY_get_octet_string_param(f->peer, "encoded-pub-key", f->peer_pt, sizeof f->peer_pt,
                                      &f->peer_len) != 1) {
    BN_free(bd);
    return -1;
  }
  BN_clear_free(bd);
  int st = fm_ec_key_import_private(f->curve, d, f->nb, pt, pt_len, &f->fm_priv);
  if (st == FM_OK) st = fm_ec_key_import_public(f->curve, pt, pt_len, &f->fm_pub);
  if (st != FM_OK) bench_note("%s: fipsmod rejected OpenSSL's key: %s", f->group, fm_strerror(st));
  EVP_MD_CTX *c = EVP_MD_CTX_new();
  size_t len = sizeof f->der_sig;
  int ok = c != NULL && EVP_DigestSignInit(c, NULL, f->md, NULL, f->pkey) == 1 &&
           EVP_DigestSign(c, f->der_sig, &len, f->msg, sizeof f->msg) == 1;
  EVP_MD_CTX_free(c);
  if (!ok || der_to_raw(f->der_sig, len, f->nb, f->raw_sig) != 0) return -1;
  f->der_len = len;
  if (f->fm_pub != NULL &&
      fm_ecdsa_verify(f->fm_pub, f->hash, f->msg, sizeof f->msg, f->raw_sig, 2 * f->nb) != FM_OK)
    bench_note("%s: fipsmod does not verify OpenSSL's signature!", f->group);
  return 0;
}

static void *fm_need_key(const void *param, size_t size, char *why, size_t why_len) {
  (void)size;
  const ec_fixture *f = param;
  if (f->fm_priv == NULL || f->fm_pub == NULL) {
    snprintf(why, why_len, "no fipsmod key");
    return NULL;
  }
  return (void *)f;
}

static void *ossl_param(const void *param, size_t size, char *why, size_t why_len) {
  (void)size;
  (void)why;
  (void)why_len;
  return (void *)param;
}

static int fm_sign_run(void *p, size_t size, uint64_t n) {
  (void)size;
  ec_fixture *f = p;
  uint8_t sig[FM_EC_MAX_SIG_BYTES];
  size_t len;
  for (uint64_t i = 0; i < n; i++)
    if (fm_ecdsa_sign(f->fm_priv, f->hash, f->msg, sizeof f->msg, sig, sizeof sig, &len) != FM_OK)
      return 1;
  return 0;
}

/* ossl_sign signs f->msg under |k| with the row's hash into |sig| (160 bytes); 1 on success. */
static int ossl_sign(ec_fixture *f, EVP_MD_CTX *c, EVP_PKEY *k, uint8_t sig[160], size_t *len) {
  *len = 160;
  return EVP_DigestSignInit(c, NULL, f->md, NULL, k) == 1 &&
         EVP_DigestSign(c, sig, len, f->msg, sizeof f->msg) == 1;
}

static int ossl_sign_run(void *p, size_t size, uint64_t n) {
  (void)size;
  ec_fixture *f = p;
  uint8_t sig[160];
  EVP_MD_CTX *c = EVP_MD_CTX_new();
  int bad = c == NULL;
  for (uint64_t i = 0; i < n && !bad; i++) {
    size_t len;
    bad = !ossl_sign(f, c, f->pkey, sig, &len);
  }
  EVP_MD_CTX_free(c);
  return bad;
}

static int fm_verify_run(void *p, size_t size, uint64_t n) {
  (void)size;
  ec_fixture *f = p;
  for (uint64_t i = 0; i < n; i++)
    if (fm_ecdsa_verify(f->fm_pub, f->hash, f->msg, sizeof f->msg, f->raw_sig, 2 * f->nb) != FM_OK)
      return 1;
  return 0;
}

static int ossl_verify_run(void *p, size_t size, uint64_t n) {
  (void)size;
  ec_fixture *f = p;
  EVP_MD_CTX *c = EVP_MD_CTX_new();
  int bad = c == NULL;
  for (uint64_t i = 0; i < n && !bad; i++)
    bad = EVP_DigestVerifyInit(c, NULL, f->md, NULL, f->pkey) != 1 ||
          EVP_DigestVerify(c, f->der_sig, f->der_len, f->msg, sizeof f->msg) != 1;
  EVP_MD_CTX_free(c);
  return bad;
}

static int fm_ecdh_run(void *p, size_t size, uint64_t n) {
  (void)size;
  ec_fixture *f = p;
  uint8_t z[FM_EC_MAX_BYTES];
  size_t len;
  for (uint64_t i = 0; i < n; i++)
    if (fm_ecdh(f->fm_priv, f->peer_pt, f->peer_len, z, sizeof z, &len) != FM_OK) return 1;
  return 0;
}

static int ossl_ecdh_run(void *p, size_t size, uint64_t n) {
  (void)size;
  ec_fixture *f = p;
  uint8_t z[FM_EC_MAX_BYTES];
  int bad = 0;
  for (uint64_t i = 0; i < n && !bad; i++) {
    /* The peer point parsed and checked on each call, as fm_ecdh does. */
    EVP_PKEY *peer = NULL;
    EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    OSSL_PARAM params[3];
    params[0] = OSSL_PARAM_construct_utf8_string("group", (char *)f->group, 0);
    params[1] = OSSL_PARAM_construct_octet_string("pub", f->peer_pt, f->peer_len);
    params[2] = OSSL_PARAM_construct_end();
    EVP_PKEY_CTX *dc = NULL;
    size_t len = sizeof z;
    bad = pc == NULL || EVP_PKEY_fromdata_init(pc) != 1 ||
          EVP_PKEY_fromdata(pc, &peer, EVP_PKEY_PUBLIC_KEY, params) != 1 ||
          (dc = EVP_PKEY_CTX_new(f->pkey, NULL)) == NULL || EVP_PKEY_derive_init(dc) != 1 ||
          EVP_PKEY_derive_set_peer(dc, peer) != 1 || EVP_PKEY_derive(dc, z, &len) != 1;
    EVP_PKEY_CTX_free(dc);
    EVP_PKEY_CTX_free(pc);
    EVP_PKEY_free(peer);
  }
  return bad;
}

static int fm_keygen_run(void *p, size_t size, uint64_t n) {
  (void)size;
  ec_fixture *f = p;
  for (uint64_t i = 0; i < n; i++) {
    fm_ec_key *k = NULL;
    if (fm_ec_key_generate(f->curve, &k) != FM_OK) return 1;
    fm_ec_key_free(k);
  }
  return 0;
}

static int ossl_keygen_run(void *p, size_t size, uint64_t n) {
  (void)size;
  ec_fixture *f = p;
  for (uint64_t i = 0; i < n; i++) {
    EVP_PKEY *k = EVP_EC_gen(f->group);
    if (k == NULL) return 1;
    EVP_PKEY_free(k);
  }
  return 0;
}

static int ossl_keygen_pct_run(void *p, size_t size, uint64_t n) {
  (void)size;
  ec_fixture *f = p;
  uint8_t sig[160];
  EVP_MD_CTX *c = EVP_MD_CTX_new();
  int bad = c == NULL;
  for (uint64_t i = 0; i < n && !bad; i++) {
    EVP_PKEY *k = EVP_EC_gen(f->group);
    size_t len;
    bad = k == NULL || !ossl_sign(f, c, k, sig, &len) ||
          EVP_DigestVerifyInit(c, NULL, f->md, NULL, k) != 1 ||
          EVP_DigestVerify(c, sig, len, f->msg, sizeof f->msg) != 1;
    EVP_PKEY_free(k);
  }
  EVP_MD_CTX_free(c);
  return bad;
}

void bench_ec(void) {
  ec_fixture fx[] = {
      {.curve = FM_EC_P256, .group = "P-256", .hash = FM_HASH_SHA256},
      {.curve = FM_EC_P384, .group = "P-384", .hash = FM_HASH_SHA384},
      {.curve = FM_EC_P521, .group = "P-521", .hash = FM_HASH_SHA512},
  };
  for (size_t i = 0; i < sizeof fx / sizeof fx[0]; i++) {
    ec_fixture *f = &fx[i];
    f->md = f->hash == FM_HASH_SHA256 ? EVP_sha256() : f->hash == FM_HASH_SHA384 ? EVP_sha384()
                                                                                 : EVP_sha512();
    const unsigned bits = f->curve == FM_EC_P256 ? 256 : f->curve == FM_EC_P384 ? 384 : 521;
    char name[5][32];
    snprintf(name[0], sizeof name[0], "ECDSA-P%u-sign", bits);
    snprintf(name[1], sizeof name[1], "ECDSA-P%u-verify", bits);
    snprintf(name[2], sizeof name[2], "ECDH-P%u", bits);
    snprintf(name[3], sizeof name[3], "EC-P%u-keygen", bits);
    snprintf(name[4], sizeof name[4], "EC-P%u-keygen+pct", bits);
    if (!bench_wants(name[0]) && !bench_wants(name[1]) && !bench_wants(name[2]) &&
        !bench_wants(name[3]) && !bench_wants(name[4]))
      continue;
    if (fixture_init(f) == 0) {
      const bench_impl sign[] = {{"fipsmod", fm_need_key, fm_sign_run, NULL, f},
                                 {"openssl", ossl_param, ossl_sign_run, NULL, f}};
      const bench_impl verify[] = {{"fipsmod", fm_need_key, fm_verify_run, NULL, f},
                                   {"openssl", ossl_param, ossl_verify_run, NULL, f}};
      const bench_impl ecdh[] = {{"fipsmod", fm_need_key, fm_ecdh_run, NULL, f},
                                 {"openssl", ossl_param, ossl_ecdh_run, NULL, f}};
      const bench_impl keygen[] = {{"fipsmod", ossl_param, fm_keygen_run, NULL, f},
                                   {"openssl", ossl_param, ossl_keygen_run, NULL, f}};
      const bench_impl keygen_pct[] = {{"fipsmod", ossl_param, fm_keygen_run, NULL, f},
                                       {"openssl", ossl_param, ossl_keygen_pct_run, NULL, f}};
      bench_measure(name[0], bits, BENCH_BITS, sign, 2, false);
      bench_measure(name[1], bits, BENCH_BITS, verify, 2, false);
      bench_measure(name[2], bits, BENCH_BITS, ecdh, 2, false);
      bench_measure(name[3], bits, BENCH_BITS, keygen, 2, false);
      bench_measure(name[4], bits, BENCH_BITS, keygen_pct, 2, false);
    } else {
      bench_note("%s: OpenSSL fixture setup failed", f->group);
    }
    fixture_free(f);
  }
}
