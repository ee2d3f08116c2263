/* The unkeyed hashes, the XOFs, HMAC and AES in CTR and CBC modes: fipsmod's public API
 * (libfipsmod.so) against OpenSSL 3 in the same run, one row per entry of k_ops below.
 *
 * What one operation is, for each side:
 * - AES-{128,256}-CTR: fipsmod fm_aes_ctr (128-bit counter) on a key schedule expanded once;
 *   OpenSSL EVP_EncryptUpdate on an EVP_aes_*_ctr context set up once. Both continue one key
 *   stream across calls.
 * - AES-{128,256}-CBC-encrypt: fipsmod fm_aes_cbc_encrypt (chaining IV carried across calls) on
 *   a schedule expanded once; OpenSSL EVP_EncryptUpdate on an EVP_aes_*_cbc context set up once
 *   with padding off. CBC takes whole blocks only, so the 1350-byte size runs at 1344 bytes.
 * - AES-{128,256}-CBC-decrypt: the same with fm_aes_cbc_decrypt and EVP_DecryptUpdate.
 * - SHA-224, SHA-256, SHA-384, SHA-512, SHA-512/256, SHA3-224, SHA3-256, SHA3-384, SHA3-512: the
 *   one-shot fm_sha* function against one-shot EVP_Digest with an EVP_MD fetched once
 *   (EVP_Digest still creates and frees its context in every call: that is the cost of
 *   OpenSSL's one-shot).
 * - SHAKE-128/SHAKE-256: one-shot fm_shake128/fm_shake256 with 32 bytes of output against
 *   EVP_DigestInit_ex, EVP_DigestUpdate and EVP_DigestFinalXOF (32 bytes) on a context made once.
 * - HMAC-SHA-256, HMAC-SHA-384, HMAC-SHA-512, HMAC-SHA3-256: one-shot fm_hmac with a 32-byte key
 *   (keying, message, full tag in one call) against EVP_MAC: a context of the HMAC MAC fetched
 *   once with its digest set once, then per operation EVP_MAC_init with the key, EVP_MAC_update
 *   and EVP_MAC_final (the same work: the key is set up in every operation on both sides). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>

#include "bench/bench.h"
#include "bench/bench_ops.h"
#include "fipsmod/aes.h"
#include "fipsmod/gcm.h"
#include "fipsmod/kdf.h"
#include "fipsmod/hmac.h"
#include "fipsmod/sha.h"

enum sym_kind { SYM_CTR, SYM_CBC, SYM_CBC_DEC, SYM_HASH, SYM_XOF, SYM_HMAC };

/* One row: its name, what it is, and what each side calls. */
typedef struct {
  const char *name;
  enum sym_kind kind;
  size_t key_len;                                        /* AES: 16 or 32 bytes */
  int (*digest)(const void *, size_t, uint8_t *);        /* SYM_HASH: the one-shot */
  int (*xof)(const void *, size_t, uint8_t *, size_t);   /* SYM_XOF: the one-shot */
  fm_hash_alg hmac_alg;                                  /* SYM_HMAC */
  size_t out_len;                                        /* SYM_HMAC: the tag; SYM_XOF: 32 */
  const char *ossl;                                      /* OpenSSL's digest name */
} sym_op;

static const sym_op k_ops[] = {
    {"AES-128-CTR", SYM_CTR, 16, NULL, NULL, 0, 0, NULL},
    {"AES-256-CTR", SYM_CTR, 32, NULL, NULL, 0, 0, NULL},
    {"AES-128-CBC-encrypt", SYM_CBC, 16, NULL, NULL, 0, 0, NULL},
    {"AES-128-CBC-decrypt", SYM_CBC_DEC, 16, NULL, NULL, 0, 0, NULL},
    {"AES-256-CBC-encrypt", SYM_CBC, 32, NULL, NULL, 0, 0, NULL},
    {"AES-256-CBC-decrypt", SYM_CBC_DEC, 32, NULL, NULL, 0, 0, NULL},
    {"SHA-224", SYM_HASH, 0, fm_sha224, NULL, 0, 0, "SHA224"},
    {"SHA-256", SYM_HASH, 0, fm_sha256, NULL, 0, 0, "SHA256"},
    {"SHA-384", SYM_HASH, 0, fm_sha384, NULL, 0, 0, "SHA384"},
    {"SHA-512", SYM_HASH, 0, fm_sha512, NULL, 0, 0, "SHA512"},
    {"SHA-512/256", SYM_HASH, 0, fm_sha512_256, NULL, 0, 0, "SHA512-256"},
    {"SHA3-224", SYM_HASH, 0, fm_sha3_224, NULL, 0, 0, "SHA3-224"},
    {"SHA3-256", SYM_HASH, 0, fm_sha3_256, NULL, 0, 0, "SHA3-256"},
    {"SHA3-384", SYM_HASH, 0, fm_sha3_384, NULL, 0, 0, "SHA3-384"},
    {"SHA3-512", SYM_HASH, 0, fm_sha3_512, NULL, 0, 0, "SHA3-512"},
    {"SHAKE-128", SYM_XOF, 0, NULL, fm_shake128, 0, 32, "SHAKE128"},
    {"SHAKE-256", SYM_XOF, 0, NULL, fm_shake256, 0, 32, "SHAKE256"},
    {"HMAC-SHA-256", SYM_HMAC, 0, NULL, NULL, FM_HASH_SHA256, 32, "SHA256"},
    {"HMAC-SHA-384", SYM_HMAC, 0, NULL, NULL, FM_HASH_SHA384, 48, "SHA384"},
    {"HMAC-SHA-512", SYM_HMAC, 0, NULL, NULL, FM_HASH_SHA512, 64, "SHA512"},
    {"HMAC-SHA3-256", SYM_HMAC, 0, NULL, NULL, FM_HASH_SHA3_256, 32, "SHA3-256"},
};

static bool sym_is_aes(const sym_op *op) {
  return op->kind == SYM_CTR || op->kind == SYM_CBC || op->kind == SYM_CBC_DEC;
}

static void bench_aead_kdf(void);

typedef struct {
  const sym_op *op;
  uint8_t *in, *out;
  uint8_t key[32];
  uint8_t iv[16];
  fm_aes_key ks;
  EVP_CIPHER_CTX *cctx;
  const EVP_MD *md;
  EVP_MD *fetched_md;
  EVP_MAC *mac;
  EVP_MAC_CTX *mctx;
  EVP_MD_CTX *xof_ctx;
  OSSL_PARAM mac_params[2];
} sym_state;

static void sym_fini(void *p) {
  sym_state *s = p;
  if (s == NULL) return;
  fm_aes_key_wipe(&s->ks);
  EVP_CIPHER_CTX_free(s->cctx);
  EVP_MD_free(s->fetched_md);
  EVP_MAC_CTX_free(s->mctx);
  EVP_MAC_free(s->mac);
  EVP_MD_CTX_free(s->xof_ctx);
  free(s->in);
  free(s->out);
  free(s);
}

static sym_state *sym_alloc(const void *param, size_t size) {
  sym_state *s = calloc(1, sizeof(*s));
  if (s == NULL) return NULL;
  s->op = param;
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
  if (sym_is_aes(s->op)) {
    int st = fm_aes_key_init(&s->ks, s->key, s->op->key_len);
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
  const sym_op *op = s->op;
  int st = FM_OK;
  switch (op->kind) {
    case SYM_CTR:
      for (uint64_t i = 0; i < n && st == FM_OK; i++)
        st = fm_aes_ctr(&s->ks, FM_AES_CTR128, s->iv, s->in, s->out, size);
      break;
    case SYM_CBC:
      for (uint64_t i = 0; i < n && st == FM_OK; i++)
        st = fm_aes_cbc_encrypt(&s->ks, s->iv, s->in, s->out, size);
      break;
    case SYM_CBC_DEC:
      for (uint64_t i = 0; i < n && st == FM_OK; i++)
        st = fm_aes_cbc_decrypt(&s->ks, s->iv, s->in, s->out, size);
      break;
    case SYM_HASH:
      for (uint64_t i = 0; i < n && st == FM_OK; i++) st = op->digest(s->in, size, s->out);
      break;
    case SYM_XOF:
      for (uint64_t i = 0; i < n && st == FM_OK; i++) st = op->xof(s->in, size, s->out, op->out_len);
      break;
    case SYM_HMAC:
      for (uint64_t i = 0; i < n && st == FM_OK; i++)
        st = fm_hmac(op->hmac_alg, s->key, sizeof(s->key), s->in, size, s->out, op->out_len);
      break;
  }
  return st != FM_OK;
}

static const EVP_CIPHER *ossl_cipher(const sym_op *op) {
  if (op->kind == SYM_CTR) return op->key_len == 16 ? EVP_aes_128_ctr() : EVP_aes_256_ctr();
  return op->key_len == 16 ? EVP_aes_128_cbc() : EVP_aes_256_cbc();
}

static void *ossl_sym_init(const void *param, size_t size, char *why, size_t why_len) {
  sym_state *s = sym_alloc(param, size);
  if (s == NULL) return NULL;
  const sym_op *op = s->op;
  int ok = 1;
  switch (op->kind) {
    case SYM_CTR:
    case SYM_CBC:
    case SYM_CBC_DEC:
      s->cctx = EVP_CIPHER_CTX_new();
      ok = s->cctx != NULL &&
           (op->kind == SYM_CBC_DEC
                ? EVP_DecryptInit_ex(s->cctx, ossl_cipher(op), NULL, s->key, s->iv)
                : EVP_EncryptInit_ex(s->cctx, ossl_cipher(op), NULL, s->key, s->iv)) == 1 &&
           EVP_CIPHER_CTX_set_padding(s->cctx, 0) == 1;
      break;
    case SYM_HASH:
    case SYM_XOF:
      s->fetched_md = EVP_MD_fetch(NULL, op->ossl, NULL);
      s->md = s->fetched_md;
      ok = s->md != NULL;
      if (ok && op->kind == SYM_XOF) {
        s->xof_ctx = EVP_MD_CTX_new();
        ok = s->xof_ctx != NULL;
      }
      break;
    case SYM_HMAC:
      s->mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
      s->mctx = s->mac ? EVP_MAC_CTX_new(s->mac) : NULL;
      s->mac_params[0] =
          OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)op->ossl, 0);
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
  switch (s->op->kind) {
    case SYM_CTR:
    case SYM_CBC:
      for (uint64_t i = 0; i < n && ok; i++) {
        int outl = 0;
        ok = EVP_EncryptUpdate(s->cctx, s->out, &outl, s->in, (int)size) == 1 &&
             (size_t)outl == size;
      }
      break;
    case SYM_CBC_DEC:
      for (uint64_t i = 0; i < n && ok; i++) {
        int outl = 0;
        ok = EVP_DecryptUpdate(s->cctx, s->out, &outl, s->in, (int)size) == 1 &&
             (size_t)outl == size;
      }
      break;
    case SYM_HASH:
      for (uint64_t i = 0; i < n && ok; i++)
        ok = EVP_Digest(s->in, size, s->out, NULL, s->md, NULL) == 1;
      break;
    case SYM_XOF:
      for (uint64_t i = 0; i < n && ok; i++) {
        ok = EVP_DigestInit_ex(s->xof_ctx, s->md, NULL) == 1 &&
             EVP_DigestUpdate(s->xof_ctx, s->in, size) == 1 &&
             EVP_DigestFinalXOF(s->xof_ctx, s->out, s->op->out_len) == 1;
      }
      break;
    case SYM_HMAC:
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

void bench_sym(void) {
  static const size_t k_sizes[] = {16, 64, 256, 1350, 8192, 16384};
  size_t n_sizes;
  const size_t *sizes = bench_sizes(k_sizes, sizeof(k_sizes) / sizeof(k_sizes[0]), &n_sizes);
  for (size_t o = 0; o < sizeof(k_ops) / sizeof(k_ops[0]); o++) {
    const sym_op *op = &k_ops[o];
    if (!bench_wants(op->name)) continue;
    bench_impl impls[2] = {
        {"fipsmod", fm_sym_init, fm_sym_run, sym_fini, op},
        {"openssl", ossl_sym_init, ossl_sym_run, sym_fini, op},
    };
    for (size_t i = 0; i < n_sizes; i++) {
      size_t size = sizes[i];
      if ((op->kind == SYM_CBC || op->kind == SYM_CBC_DEC) && size % 16 != 0) {
        size -= size % 16;
        printf("%s: %zu bytes is not a whole number of blocks; timing %zu bytes\n", op->name,
               sizes[i], size);
      }
      bench_measure(op->name, size, BENCH_BYTES, impls, 2, false);
    }
  }
  bench_aead_kdf();
}

/* ---- AES-GCM, HKDF, PBKDF2 ------------------------------------------------------------------
 * - AES-{128,256}-GCM-seal: fipsmod fm_gcm_seal, the approved one-shot seal (the module draws
 *   a fresh 96-bit IV from its DRBG in every call) with a 13-byte AAD (a TLS record header) and
 *   a 16-byte tag, on a key set up once; OpenSSL: an EVP_aes_*_gcm context keyed once, then per
 *   operation EVP_EncryptInit_ex with the IV only, the AAD, EVP_EncryptUpdate, EVP_EncryptFinal_ex
 *   and EVP_CTRL_GCM_GET_TAG (OpenSSL is handed a fixed IV: it does strictly less work).
 * - AES-256-GCM-seal-with-iv: fipsmod fm_gcm_seal_with_iv with the caller's 96-bit IV (not
 *   approved: the like-for-like of OpenSSL's and AWS-LC's seal, which take the caller's nonce);
 *   OpenSSL as for AES-256-GCM-seal.
 * - AES-{128,256}-GCM-open: fipsmod fm_gcm_open of a valid message (the whole tag checked);
 *   OpenSSL EVP_DecryptInit_ex with the IV, AAD, update, EVP_CTRL_GCM_SET_TAG, EVP_DecryptFinal_ex.
 * - HKDF: extract-and-expand with HMAC-SHA-256, 32-byte IKM and salt, 16-byte info, 32 bytes out
 *   (the size column); OpenSSL EVP_KDF "HKDF" with its parameters set once.
 * - PBKDF2: HMAC-SHA-256, 10,000 iterations, 16-byte salt, 12-byte password, 32 bytes out;
 *   OpenSSL EVP_KDF "PBKDF2" with its parameters set once. */

enum ak_op {
  AK_GCM128_SEAL,
  AK_GCM128_OPEN,
  AK_GCM256_SEAL,
  AK_GCM256_OPEN,
  AK_GCM256_SEAL_IV,
  AK_HKDF,
  AK_PBKDF2
};

#define AK_AAD_LEN 13
#define AK_PBKDF2_ITER 10000

typedef struct {
  enum ak_op op;
  uint8_t *in, *out, *ct;
  uint8_t key[32], iv[12], aad[AK_AAD_LEN], tag[16], salt[32], info[16];
  fm_gcm_key gk;
  EVP_CIPHER_CTX *cctx;
  EVP_KDF *kdf;
  EVP_KDF_CTX *kctx;
} ak_state;

static const enum ak_op k_ak_ops[] = {AK_GCM128_SEAL, AK_GCM128_OPEN,    AK_GCM256_SEAL,
                                      AK_GCM256_OPEN, AK_GCM256_SEAL_IV, AK_HKDF,
                                      AK_PBKDF2};

static size_t ak_klen(enum ak_op op) {
  return op == AK_GCM128_SEAL || op == AK_GCM128_OPEN ? 16 : 32;
}
static bool ak_is_open(enum ak_op op) { return op == AK_GCM128_OPEN || op == AK_GCM256_OPEN; }
static bool ak_is_gcm(enum ak_op op) { return op <= AK_GCM256_SEAL_IV; }

static void ak_fini(void *p) {
  ak_state *s = p;
  if (s == NULL) return;
  fm_gcm_key_wipe(&s->gk);
  EVP_CIPHER_CTX_free(s->cctx);
  EVP_KDF_CTX_free(s->kctx);
  EVP_KDF_free(s->kdf);
  free(s->in);
  free(s->out);
  free(s->ct);
  free(s);
}

static ak_state *ak_alloc(const void *param, size_t size) {
  /* fm_gcm_key asks for 64-byte alignment, more than malloc promises. */
  const size_t bytes = (sizeof(ak_state) + 63) / 64 * 64;
  ak_state *s = aligned_alloc(64, bytes);
  if (s == NULL) return NULL;
  memset(s, 0, bytes);
  s->op = *(const enum ak_op *)param;
  s->in = malloc(size + 1);
  s->out = malloc(size + 64);
  s->ct = malloc(size + 1);
  if (s->in == NULL || s->out == NULL || s->ct == NULL) {
    ak_fini(s);
    return NULL;
  }
  bench_fill(s->in, size, 7);
  bench_fill(s->key, sizeof(s->key), 99);
  bench_fill(s->iv, sizeof(s->iv), 3);
  bench_fill(s->aad, sizeof(s->aad), 5);
  bench_fill(s->salt, sizeof(s->salt), 11);
  bench_fill(s->info, sizeof(s->info), 13);
  return s;
}

static void *fm_ak_init(const void *param, size_t size, char *why, size_t why_len) {
  ak_state *s = ak_alloc(param, size);
  if (s == NULL) return NULL;
  if (ak_is_gcm(s->op)) {
    int st = fm_gcm_key_init(&s->gk, s->key, ak_klen(s->op));
    /* The message that open checks, sealed once. */
    if (st == FM_OK && ak_is_open(s->op)) {
      st = fm_gcm_seal(&s->gk, s->iv, s->aad, AK_AAD_LEN, s->in, size, s->ct, s->tag, 16);
    }
    if (st != FM_OK) {
      snprintf(why, why_len, "fm_gcm: %s", fm_strerror(st));
      ak_fini(s);
      return NULL;
    }
  }
  return s;
}

static int fm_ak_run(void *p, size_t size, uint64_t n) {
  ak_state *s = p;
  int st = FM_OK;
  switch (s->op) {
    case AK_GCM128_SEAL:
    case AK_GCM256_SEAL:
      for (uint64_t i = 0; i < n && st == FM_OK; i++)
        st = fm_gcm_seal(&s->gk, s->iv, s->aad, AK_AAD_LEN, s->in, size, s->out, s->tag, 16);
      break;
    case AK_GCM256_SEAL_IV:
      for (uint64_t i = 0; i < n && st == FM_OK; i++)
        st = fm_gcm_seal_with_iv(&s->gk, s->iv, 12, s->aad, AK_AAD_LEN, s->in, size, s->out,
                                 s->tag, 16);
      break;
    case AK_GCM128_OPEN:
    case AK_GCM256_OPEN:
      for (uint64_t i = 0; i < n && st == FM_OK; i++)
        st = fm_gcm_open(&s->gk, s->iv, 12, s->aad, AK_AAD_LEN, s->ct, size, s->tag, 16, s->out);
      break;
    case AK_HKDF:
      for (uint64_t i = 0; i < n && st == FM_OK; i++)
        st = fm_hkdf(FM_HASH_SHA256, s->key, 32, s->salt, 32, s->info, 16, s->out, size);
      break;
    case AK_PBKDF2:
      for (uint64_t i = 0; i < n && st == FM_OK; i++)
        st = fm_pbkdf2_hmac(FM_HASH_SHA256, s->key, 12, s->salt, 16, AK_PBKDF2_ITER, s->out, size);
      break;
  }
  return st != FM_OK;
}

static const EVP_CIPHER *ak_cipher(enum ak_op op) {
  return ak_klen(op) == 16 ? EVP_aes_128_gcm() : EVP_aes_256_gcm();
}

static int ossl_gcm_seal_one(ak_state *s, size_t size, uint8_t *ct, uint8_t tag[16]) {
  int outl = 0;
  return EVP_EncryptInit_ex(s->cctx, NULL, NULL, NULL, s->iv) == 1 &&
         EVP_EncryptUpdate(s->cctx, NULL, &outl, s->aad, AK_AAD_LEN) == 1 &&
         EVP_EncryptUpdate(s->cctx, ct, &outl, s->in, (int)size) == 1 &&
         EVP_EncryptFinal_ex(s->cctx, ct + size, &outl) == 1 &&
         EVP_CIPHER_CTX_ctrl(s->cctx, EVP_CTRL_GCM_GET_TAG, 16, tag) == 1;
}

static void *ossl_ak_init(const void *param, size_t size, char *why, size_t why_len) {
  ak_state *s = ak_alloc(param, size);
  if (s == NULL) return NULL;
  int ok = 1;
  if (ak_is_gcm(s->op)) {
    s->cctx = EVP_CIPHER_CTX_new();
    ok = s->cctx != NULL &&
         (ak_is_open(s->op) ? EVP_DecryptInit_ex(s->cctx, ak_cipher(s->op), NULL, s->key, NULL)
                            : EVP_EncryptInit_ex(s->cctx, ak_cipher(s->op), NULL, s->key, NULL)) == 1;
    if (ok && ak_is_open(s->op)) {
      /* Seal the message to open with a second context. */
      EVP_CIPHER_CTX *enc = s->cctx;
      s->cctx = EVP_CIPHER_CTX_new();
      ok = s->cctx != NULL &&
           EVP_EncryptInit_ex(s->cctx, ak_cipher(s->op), NULL, s->key, NULL) == 1 &&
           ossl_gcm_seal_one(s, size, s->ct, s->tag);
      EVP_CIPHER_CTX_free(s->cctx);
      s->cctx = enc;
    }
  } else {
    s->kdf = EVP_KDF_fetch(NULL, s->op == AK_HKDF ? "HKDF" : "PBKDF2", NULL);
    s->kctx = s->kdf ? EVP_KDF_CTX_new(s->kdf) : NULL;
    OSSL_PARAM prm[5];
    uint64_t iter = AK_PBKDF2_ITER;
    prm[0] = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, "SHA256", 0);
    if (s->op == AK_HKDF) {
      prm[1] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, s->key, 32);
      prm[2] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, s->salt, 32);
      prm[3] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, s->info, 16);
    } else {
      prm[1] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_PASSWORD, s->key, 12);
      prm[2] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, s->salt, 16);
      prm[3] = OSSL_PARAM_construct_uint64(OSSL_KDF_PARAM_ITER, &iter);
    }
    prm[4] = OSSL_PARAM_construct_end();
    ok = s->kctx != NULL && EVP_KDF_CTX_set_params(s->kctx, prm) == 1;
  }
  if (!ok) {
    snprintf(why, why_len, "OpenSSL setup failed");
    ak_fini(s);
    return NULL;
  }
  return s;
}

static int ossl_ak_run(void *p, size_t size, uint64_t n) {
  ak_state *s = p;
  int ok = 1;
  uint8_t tag[16];
  switch (s->op) {
    case AK_GCM128_SEAL:
    case AK_GCM256_SEAL:
    case AK_GCM256_SEAL_IV:
      for (uint64_t i = 0; i < n && ok; i++) ok = ossl_gcm_seal_one(s, size, s->out, tag);
      break;
    case AK_GCM128_OPEN:
    case AK_GCM256_OPEN:
      for (uint64_t i = 0; i < n && ok; i++) {
        int outl = 0;
        ok = EVP_DecryptInit_ex(s->cctx, NULL, NULL, NULL, s->iv) == 1 &&
             EVP_DecryptUpdate(s->cctx, NULL, &outl, s->aad, AK_AAD_LEN) == 1 &&
             EVP_DecryptUpdate(s->cctx, s->out, &outl, s->ct, (int)size) == 1 &&
             EVP_CIPHER_CTX_ctrl(s->cctx, EVP_CTRL_GCM_SET_TAG, 16, s->tag) == 1 &&
             EVP_DecryptFinal_ex(s->cctx, s->out + size, &outl) == 1;
      }
      break;
    case AK_HKDF:
    case AK_PBKDF2:
      for (uint64_t i = 0; i < n && ok; i++) ok = EVP_KDF_derive(s->kctx, s->out, size, NULL) == 1;
      break;
  }
  return !ok;
}

static const char *ak_name(enum ak_op op) {
  switch (op) {
    case AK_GCM128_SEAL: return "AES-128-GCM-seal";
    case AK_GCM128_OPEN: return "AES-128-GCM-open";
    case AK_GCM256_SEAL: return "AES-256-GCM-seal";
    case AK_GCM256_OPEN: return "AES-256-GCM-open";
    case AK_GCM256_SEAL_IV: return "AES-256-GCM-seal-with-iv";
    case AK_HKDF: return "HKDF";
    case AK_PBKDF2: return "PBKDF2";
  }
  return "?";
}

static void bench_aead_kdf(void) {
  static const size_t k_sizes[] = {16, 64, 256, 1350, 8192, 16384};
  size_t n_sizes;
  const size_t *sizes = bench_sizes(k_sizes, sizeof(k_sizes) / sizeof(k_sizes[0]), &n_sizes);
  for (size_t o = 0; o < sizeof(k_ak_ops) / sizeof(k_ak_ops[0]); o++) {
    const char *name = ak_name(k_ak_ops[o]);
    if (!bench_wants(name)) continue;
    bench_impl impls[2] = {
        {"fipsmod", fm_ak_init, fm_ak_run, ak_fini, &k_ak_ops[o]},
        {"openssl", ossl_ak_init, ossl_ak_run, ak_fini, &k_ak_ops[o]},
    };
    if (!ak_is_gcm(k_ak_ops[o])) {
      bench_measure(name, 32, BENCH_BYTES, impls, 2, false);
      continue;
    }
    for (size_t i = 0; i < n_sizes; i++) {
      bench_measure(name, sizes[i], BENCH_BYTES, impls, 2, false);
    }
  }
}
