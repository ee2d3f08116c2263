/* AES-256-CTR, AES-256-CBC-encrypt, SHA-256, SHA-512 and HMAC-SHA-256: fipsmod's public API
 * (libfipsmod.so) against OpenSSL 3 in the same run.
 *
 * What one operation is, for each side:
 * - AES-256-CTR: fipsmod fm_aes_ctr (128-bit counter) on a key schedule expanded once;
 *   OpenSSL EVP_EncryptUpdate on an EVP_aes_256_ctr context set up once. Both continue one
 *   key stream across calls.
 * - AES-256-CBC-encrypt: fipsmod fm_aes_cbc_encrypt (chaining IV carried across calls) on a
 *   schedule expanded once; OpenSSL EVP_EncryptUpdate on an EVP_aes_256_cbc context set up once
 *   with padding off. CBC takes whole blocks only, so the 1350-byte size runs at 1344 bytes.
 * - SHA-256/SHA-512: one-shot fm_sha256/fm_sha512 against one-shot EVP_Digest with an EVP_MD
 *   fetched once (EVP_Digest still creates and frees its context in every call: that is the
 *   cost of OpenSSL's one-shot).
 * - HMAC-SHA-256: one-shot fm_hmac with a 32-byte key (keying, message, tag in one call) against
 *   EVP_MAC: a context of the HMAC MAC fetched once with its digest set once, then per operation
 *   EVP_MAC_init with the key, EVP_MAC_update and EVP_MAC_final (the same work: the key is set
 *   up in every operation on both sides). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "bench/bench.h"
#include "bench/bench_ops.h"
#include "fipsmod/aes.h"
#include "fipsmod/hmac.h"
#include "fipsmod/sha.h"

enum sym_op { OP_CTR, OP_CBC, OP_SHA256, OP_SHA512, OP_HMAC256 };

typedef struct {
  enum sym_op op;
  uint8_t *in, *out;
  uint8_t key[32];
  uint8_t iv[16];
  fm_aes_key ks;
  EVP_CIPHER_CTX *cctx;
  const EVP_MD *md;
  EVP_MD *fetched_md;
  EVP_MAC *mac;
  EVP_MAC_CTX *mctx;
  OSSL_PARAM mac_params[2];
} sym_state;

static const enum sym_op k_ops[] = {OP_CTR, OP_CBC, OP_SHA256, OP_SHA512, OP_HMAC256};

static void sym_fini(void *p) {
  sym_state *s = p;
  if (s == NULL) return;
  fm_aes_key_wipe(&s->ks);
  EVP_CIPHER_CTX_free(s->cctx);
  EVP_MD_free(s->fetched_md);
  EVP_MAC_CTX_free(s->mctx);
  EVP_MAC_free(s->mac);
  free(s->in);
  free(s->out);
  free(s);
}

static sym_state *sym_alloc(const void *param, size_t size) {
  sym_state *s = calloc(1, sizeof(*s));
  if (s == NULL) return NULL;
  s->op = *(const enum sym_op *)param;
  s->in = malloc(size ? size : 1);
  s->out = malloc(size + 64);
  if (s->in == NULL || s->out == NULL) {
    sym_fini(s);
    return NULL;
  }
  bench_fill(s->in, size, 7);
  bench_fill(s->key, sizeof(s->key), 99);
  bench_fill(s->iv, sizeof(s->iv), 3);
  return s;
}

static void *fm_sym_init(const void *param, size_t size, char *why, size_t why_len) {
  sym_state *s = sym_alloc(param, size);
  if (s == NULL) return NULL;
  if (s->op == OP_CTR || s->op == OP_CBC) {
    int st = fm_aes_key_init(&s->ks, s->key, sizeof(s->key));
    if (st != FM_OK) {
      snprintf(why, why_len, "fm_aes_key_init: %s", fm_strerror(st));
      sym_fini(s);
      return NULL;
    }
  }
  return s;
}

static int fm_sym_run(void *p, size_t size, uint64_t n) {
  sym_state *s = p;
  int st = FM_OK;
  switch (s->op) {
    case OP_CTR:
      for (uint64_t i = 0; i < n && st == FM_OK; i++)
        st = fm_aes_ctr(&s->ks, FM_AES_CTR128, s->iv, s->in, s->out, size);
      break;
    case OP_CBC:
      for (uint64_t i = 0; i < n && st == FM_OK; i++)
        st = fm_aes_cbc_encrypt(&s->ks, s->iv, s->in, s->out, size);
      break;
    case OP_SHA256:
      for (uint64_t i = 0; i < n && st == FM_OK; i++) st = fm_sha256(s->in, size, s->out);
      break;
    case OP_SHA512:
      for (uint64_t i = 0; i < n && st == FM_OK; i++) st = fm_sha512(s->in, size, s->out);
      break;
    case OP_HMAC256:
      for (uint64_t i = 0; i < n && st == FM_OK; i++)
        st = fm_hmac(FM_HASH_SHA256, s->key, sizeof(s->key), s->in, size, s->out, 32);
      break;
  }
  return st != FM_OK;
}

static void *ossl_sym_init(const void *param, size_t size, char *why, size_t why_len) {
  sym_state *s = sym_alloc(param, size);
  if (s == NULL) return NULL;
  int ok = 1;
  switch (s->op) {
    case OP_CTR:
    case OP_CBC:
      s->cctx = EVP_CIPHER_CTX_new();
      ok = s->cctx != NULL &&
           EVP_EncryptInit_ex(s->cctx, s->op == OP_CTR ? EVP_aes_256_ctr() : EVP_aes_256_cbc(),
                              NULL, s->key, s->iv) == 1 &&
           EVP_CIPHER_CTX_set_padding(s->cctx, 0) == 1;
      break;
    case OP_SHA256:
    case OP_SHA512:
      s->fetched_md = EVP_MD_fetch(NULL, s->op == OP_SHA256 ? "SHA256" : "SHA512", NULL);
      s->md = s->fetched_md;
      ok = s->md != NULL;
      break;
    case OP_HMAC256:
      s->mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
      s->mctx = s->mac ? EVP_MAC_CTX_new(s->mac) : NULL;
      s->mac_params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, "SHA256", 0);
      s->mac_params[1] = OSSL_PARAM_construct_end();
      /* The digest is set once here; each operation then only re-keys (EVP_MAC_init with no
       * parameters), OpenSSL's cheapest way to MAC one message under a given key. */
      ok = s->mctx != NULL && EVP_MAC_CTX_set_params(s->mctx, s->mac_params) == 1;
      break;
  }
  if (!ok) {
    snprintf(why, why_len, "OpenSSL setup failed");
    sym_fini(s);
    return NULL;
  }
  return s;
}

static int ossl_sym_run(void *p, size_t size, uint64_t n) {
  sym_state *s = p;
  int ok = 1;
  switch (s->op) {
    case OP_CTR:
    case OP_CBC:
      for (uint64_t i = 0; i < n && ok; i++) {
        int outl = 0;
        ok = EVP_EncryptUpdate(s->cctx, s->out, &outl, s->in, (int)size) == 1 &&
             (size_t)outl == size;
      }
      break;
    case OP_SHA256:
    case OP_SHA512:
      for (uint64_t i = 0; i < n && ok; i++)
        ok = EVP_Digest(s->in, size, s->out, NULL, s->md, NULL) == 1;
      break;
    case OP_HMAC256:
      for (uint64_t i = 0; i < n && ok; i++) {
        size_t outl = 0;
        ok = EVP_MAC_init(s->mctx, s->key, sizeof(s->key), NULL) == 1 &&
             EVP_MAC_update(s->mctx, s->in, size) == 1 &&
             EVP_MAC_final(s->mctx, s->out, &outl, 64) == 1;
      }
      break;
  }
  return !ok;
}

static const char *op_name(enum sym_op op) {
  switch (op) {
    case OP_CTR: return "AES-256-CTR";
    case OP_CBC: return "AES-256-CBC-encrypt";
    case OP_SHA256: return "SHA-256";
    case OP_SHA512: return "SHA-512";
    case OP_HMAC256: return "HMAC-SHA-256";
  }
  return "?";
}

void bench_sym(void) {
  static const size_t sizes[] = {16, 64, 256, 1350, 8192, 16384};
  for (size_t o = 0; o < sizeof(k_ops) / sizeof(k_ops[0]); o++) {
    const char *name = op_name(k_ops[o]);
    if (!bench_wants(name)) continue;
    bench_impl impls[2] = {
        {"fipsmod", fm_sym_init, fm_sym_run, sym_fini, &k_ops[o]},
        {"openssl", ossl_sym_init, ossl_sym_run, sym_fini, &k_ops[o]},
    };
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
      size_t size = sizes[i];
      if (k_ops[o] == OP_CBC && size % 16 != 0) {
        size -= size % 16;
        printf("%s: %zu bytes is not a whole number of blocks; timing %zu bytes\n", name,
               sizes[i], size);
      }
      bench_measure(name, size, BENCH_BYTES, impls, 2, false);
    }
  }
}
