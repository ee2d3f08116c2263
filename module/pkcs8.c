/* Encrypted PKCS#8: EncryptedPrivateKeyInfo with PBES2, PBKDF2 and AES-CBC (include/fipsmod/
 * pkcs8.h says what is read, what is written, and what is public and what is secret).
 *
 * The PBKDF2 and AES-CBC steps go through the module's own services (fm_pbkdf2_hmac,
 * fm_aes_key_init, fm_aes_cbc_*), so they run the same code, self-tests and state gate as a
 * direct call; this file only adds the structure, the padding and the checks. */
#include "fipsmod/pkcs8.h"

#include <stdlib.h>
#include <string.h>

#include "fipsmod/aes.h"
#include "fipsmod/kdf.h"
#include "fipsmod/rand.h"
#include "module/approval.h"
#include "module/der.h"
#include "module/internal.h"

/* ---- Object identifiers (contents octets) ------------------------------------------------------ */

/* 1.2.840.113549.1.5 (pkcs-5): .13 id-PBES2, .12 id-PBKDF2; PBES1 are .1, .3, .4, .6, .10, .11. */
static const uint8_t k_pkcs5[8] = {0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x05};
/* 1.2.840.113549.1.12.1 (pkcs-12PbeIds). */
static const uint8_t k_pkcs12_pbe[9] = {0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x0c, 0x01};
/* 1.3.6.1.4.1.11591.4.11 id-scrypt (RFC 7914 7). */
static const uint8_t k_scrypt[9] = {0x2b, 0x06, 0x01, 0x04, 0x01, 0xda, 0x47, 0x04, 0x0b};
/* 1.2.840.113549.2 (digestAlgorithm): hmacWithSHA1 .7, SHA224 .8, SHA256 .9, SHA384 .10,
 * SHA512 .11, SHA512-224 .12, SHA512-256 .13 (RFC 8018 B.1). */
static const uint8_t k_digest_alg[7] = {0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x02};
/* 2.16.840.1.101.3.4.1 (aes): aes128-CBC-PAD .2, aes192-CBC-PAD .22, aes256-CBC-PAD .42. */
static const uint8_t k_aes[8] = {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x01};
/* 1.2.840.113549.3.7 des-ede3-cbc. */
static const uint8_t k_des_ede3_cbc[8] = {0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x03, 0x07};

#define PBES2_ARC 13
#define PBKDF2_ARC 12

/* The PRFs offered, by the last arc of hmacWithSHA*. No pointers: the table stays in .rodata. */
static const struct {
  uint8_t arc;
  fm_hash_alg alg;
} k_prfs[] = {{8, FM_HASH_SHA224},  {9, FM_HASH_SHA256},      {10, FM_HASH_SHA384},
              {11, FM_HASH_SHA512}, {12, FM_HASH_SHA512_224}, {13, FM_HASH_SHA512_256}};

/* is_arc is true when |oid| is |prefix| followed by the one arc |arc| (below 128). */
static bool is_arc(der_span oid, const uint8_t *prefix, size_t n, uint8_t arc) {
  return oid.n == n + 1 && der_equals((der_span){oid.p, n}, prefix, n) && oid.p[n] == arc;
}

/* has_prefix is true when |oid| is |prefix| followed by one arc below 128. */
static bool has_prefix(der_span oid, const uint8_t *prefix, size_t n) {
  return oid.n == n + 1 && der_equals((der_span){oid.p, n}, prefix, n) && oid.p[n] < 0x80;
}

/* ---- The PrivateKeyInfo check ------------------------------------------------------------------
 * Both directions check that the plaintext is one PrivateKeyInfo / OneAsymmetricKey: SEQUENCE {
 * INTEGER version (0 or 1), SEQUENCE algorithm, OCTET STRING privateKey, then the optional
 * [0] attributes and [1] publicKey }, nothing after it. Only tags and lengths are read (public
 * structure); the key decoders do the rest. */
static bool is_private_key_info(const uint8_t *p, size_t n) {
  der_span der = {p, n}, seq, v, alg, priv;
  if (der_get(&der, DER_SEQUENCE, &seq) != FM_OK || der.n != 0) return false;
  if (der_get(&seq, DER_INTEGER, &v) != FM_OK || v.n != 1) return false;
  fm_declassify(v.p, 1); /* the version */
  if (v.p[0] > 1) return false;
  if (der_get(&seq, DER_SEQUENCE, &alg) != FM_OK) return false;
  if (der_get(&seq, DER_OCTET_STRING, &priv) != FM_OK) return false;
  static const uint8_t k_optional[] = {0xa0, 0x81}; /* [0] attributes, [1] publicKey */
  for (size_t i = 0; i < sizeof k_optional && seq.n != 0; i++) {
    der_span skip;
    if (der_peek_tag(&seq) == k_optional[i] && der_get(&seq, k_optional[i], &skip) != FM_OK)
      return false;
  }
  return seq.n == 0;
}

/* ---- Reading the parameters ------------------------------------------------------------------ */

typedef struct epki {
  fm_pkcs8_params found;
  der_span salt, iv, ct;
} epki;

/* get_count takes a positive INTEGER of at most 8 bytes off |s| (public). */
static int get_count(der_span *s, uint64_t *v) {
  der_span u;
  int st = der_get_uint(s, &u);
  if (st != FM_OK) return st;
  if (u.n > 8) return FM_ERR_OUT_OF_RANGE;
  fm_declassify(u.p, u.n);
  uint64_t x = 0;
  for (size_t i = 0; i < u.n; i++) x = (x << 8) | u.p[i];
  *v = x;
  return FM_OK;
}

/* get_null_or_absent accepts what follows an OID in an AlgorithmIdentifier whose parameters are
 * NULL: NULL or nothing. */
static int get_null_or_absent(der_span alg) {
  der_span nul;
  if (alg.n == 0) return FM_OK;
  if (der_get(&alg, DER_NULL, &nul) != FM_OK || nul.n != 0 || alg.n != 0) return FM_ERR_PARSE;
  return FM_OK;
}

/* parse_pbkdf2 reads PBKDF2-params (RFC 8018 A.2). */
static int parse_pbkdf2(der_span params, epki *e) {
  der_span seq, prf_alg, prf_oid;
  uint64_t key_length = 0;
  int st = der_get(&params, DER_SEQUENCE, &seq);
  if (st == FM_OK && params.n != 0) st = FM_ERR_PARSE;
  if (st != FM_OK) return st;
  if (der_peek_tag(&seq) == DER_SEQUENCE) {
    e->found.scheme = FM_PBE_PBES2_OTHER_KDF; /* salt otherSource: reserved, never defined */
    return FM_ERR_UNSUPPORTED;
  }
  if ((st = der_get(&seq, DER_OCTET_STRING, &e->salt)) != FM_OK) return st;
  if ((st = get_count(&seq, &e->found.iterations)) != FM_OK) return st;
  e->found.salt_len = e->salt.n;
  if (der_peek_tag(&seq) == DER_INTEGER && (st = get_count(&seq, &key_length)) != FM_OK) return st;
  if (seq.n == 0) {
    e->found.scheme = FM_PBE_PBES2_PBKDF2_SHA1; /* the DEFAULT algid-hmacWithSHA1 */
    return FM_ERR_UNSUPPORTED;
  }
  if ((st = der_get(&seq, DER_SEQUENCE, &prf_alg)) != FM_OK || seq.n != 0) return FM_ERR_PARSE;
  if ((st = der_get(&prf_alg, DER_OID, &prf_oid)) != FM_OK) return st;
  if (is_arc(prf_oid, k_digest_alg, sizeof k_digest_alg, 7)) {
    e->found.scheme = FM_PBE_PBES2_PBKDF2_SHA1;
    return FM_ERR_UNSUPPORTED;
  }
  size_t i = 0;
  while (i < sizeof k_prfs / sizeof k_prfs[0] &&
         !is_arc(prf_oid, k_digest_alg, sizeof k_digest_alg, k_prfs[i].arc))
    i++;
  if (i == sizeof k_prfs / sizeof k_prfs[0]) {
    e->found.scheme = FM_PBE_PBES2_PBKDF2_OTHER_PRF;
    return FM_ERR_UNSUPPORTED;
  }
  e->found.prf = k_prfs[i].alg;
  if ((st = get_null_or_absent(prf_alg)) != FM_OK) return st;
  /* keyLength, when given, is the cipher's key length (checked once the cipher is known). */
  e->found.aes_key_len = (size_t)key_length;
  return FM_OK;
}

/* parse_cipher reads the encryptionScheme of PBES2: AES-CBC with a 16-byte IV. */
static int parse_cipher(der_span alg, epki *e) {
  der_span oid;
  int st = der_get(&alg, DER_OID, &oid);
  if (st != FM_OK) return st;
  size_t key_len = 0;
  if (is_arc(oid, k_aes, sizeof k_aes, 2)) key_len = 16;
  if (is_arc(oid, k_aes, sizeof k_aes, 22)) key_len = 24;
  if (is_arc(oid, k_aes, sizeof k_aes, 42)) key_len = 32;
  if (key_len == 0) {
    e->found.scheme = der_equals(oid, k_des_ede3_cbc, sizeof k_des_ede3_cbc)
                          ? FM_PBE_PBES2_DES_EDE3_CBC
                          : FM_PBE_PBES2_OTHER_CIPHER;
    return FM_ERR_UNSUPPORTED;
  }
  if ((st = der_get(&alg, DER_OCTET_STRING, &e->iv)) != FM_OK || alg.n != 0) return FM_ERR_PARSE;
  if (e->iv.n != FM_AES_BLOCK_LEN) return FM_ERR_LENGTH;
  if (e->found.aes_key_len != 0 && e->found.aes_key_len != key_len) return FM_ERR_LENGTH;
  e->found.aes_key_len = key_len;
  return FM_OK;
}

/* parse_epki reads EncryptedPrivateKeyInfo (RFC 5958 3) from the whole of |der| (public). It
 * names what it found in e->found.scheme as far as it got. */
static int parse_epki(der_span der, epki *e) {
  der_span seq, alg, oid, params, kdf, kdf_oid, cipher;
  memset(e, 0, sizeof *e);
  int st = der_get(&der, DER_SEQUENCE, &seq);
  if (st == FM_OK && der.n != 0) st = FM_ERR_PARSE;
  if (st == FM_OK) st = der_get(&seq, DER_SEQUENCE, &alg);
  if (st == FM_OK) st = der_get(&seq, DER_OCTET_STRING, &e->ct);
  if (st == FM_OK && seq.n != 0) st = FM_ERR_PARSE;
  if (st == FM_OK) st = der_get(&alg, DER_OID, &oid);
  if (st != FM_OK) return st;
  if (!is_arc(oid, k_pkcs5, sizeof k_pkcs5, PBES2_ARC)) {
    if (has_prefix(oid, k_pkcs5, sizeof k_pkcs5)) {
      e->found.scheme = FM_PBE_PBES1;
    } else if (has_prefix(oid, k_pkcs12_pbe, sizeof k_pkcs12_pbe)) {
      e->found.scheme = FM_PBE_PKCS12;
    } else {
      e->found.scheme = FM_PBE_OTHER;
    }
    return FM_ERR_UNSUPPORTED;
  }
  /* PBES2-params (RFC 8018 A.4). */
  st = der_get(&alg, DER_SEQUENCE, &params);
  if (st == FM_OK && alg.n != 0) st = FM_ERR_PARSE;
  if (st == FM_OK) st = der_get(&params, DER_SEQUENCE, &kdf);
  if (st == FM_OK) st = der_get(&params, DER_SEQUENCE, &cipher);
  if (st == FM_OK && params.n != 0) st = FM_ERR_PARSE;
  if (st == FM_OK) st = der_get(&kdf, DER_OID, &kdf_oid);
  if (st != FM_OK) return st;
  if (!is_arc(kdf_oid, k_pkcs5, sizeof k_pkcs5, PBKDF2_ARC)) {
    e->found.scheme = der_equals(kdf_oid, k_scrypt, sizeof k_scrypt) ? FM_PBE_PBES2_SCRYPT
                                                                     : FM_PBE_PBES2_OTHER_KDF;
    return FM_ERR_UNSUPPORTED;
  }
  if ((st = parse_pbkdf2(kdf, e)) != FM_OK) return st;
  if ((st = parse_cipher(cipher, e)) != FM_OK) return st;
  e->found.scheme = FM_PBE_PBES2_PBKDF2_AES_CBC;
  if (e->found.iterations == 0 || e->found.iterations > FM_PKCS8_MAX_ITERATIONS)
    return FM_ERR_OUT_OF_RANGE;
  if (e->salt.n == 0 || e->salt.n > FM_PKCS8_MAX_SALT_LEN) return FM_ERR_LENGTH;
  return FM_OK;
}

/* ---- The plaintext check (constant time) ------------------------------------------------------ */

/* plaintext_mask checks the decrypted |pt| (|n| bytes; n >= 16, a multiple of 16) without a
 * branch or a memory index that depends on it, and returns all-ones when both hold:
 *   - the padding of RFC 8018 6.1.1 step 4 (RFC 5652 6.3): the last byte is a value k in 1..16
 *     and the last k bytes all equal k;
 *   - pt opens with a DER SEQUENCE header (tag 0x30, a minimal length of at most three bytes)
 *     whose element ends exactly where the padding begins.
 * *len receives n - k (meaningful only when the mask is all-ones). */
static uint64_t plaintext_mask(const uint8_t *pt, size_t n, size_t *len) {
  const uint64_t k = pt[n - 1];
  /* 1 <= k <= 16 */
  uint64_t ok = ~ct_is_zero_u64(k) & ct_lt_u64(k, FM_AES_BLOCK_LEN + 1);
  for (size_t i = 1; i <= FM_AES_BLOCK_LEN; i++) {
    /* Byte n - i is padding when i <= k, and must then equal k: a mask, not a branch. */
    const uint64_t in_pad = ct_lt_u64(i - 1, k);
    ok &= ~in_pad | ct_eq_u64(pt[n - i], k);
  }
  const uint64_t unpadded = (uint64_t)n - (k & ok);
  const uint64_t b1 = pt[1], b2 = pt[2], b3 = pt[3], b4 = pt[4];
  const uint64_t short_form = ct_lt_u64(b1, 0x80);
  const uint64_t long1 = ct_eq_u64(b1, 0x81), long2 = ct_eq_u64(b1, 0x82);
  const uint64_t long3 = ct_eq_u64(b1, 0x83);
  /* DER 10.1: the long form only for lengths of 128 or more, with no leading zero byte. */
  const uint64_t minimal = short_form | (long1 & ~ct_lt_u64(b2, 0x80)) |
                           ((long2 | long3) & ~ct_is_zero_u64(b2));
  const uint64_t total = (short_form & (2 + b1)) | (long1 & (3 + b2)) |
                         (long2 & (4 + ((b2 << 8) | b3))) |
                         (long3 & (5 + ((b2 << 16) | (b3 << 8) | b4)));
  ok &= ct_eq_u64(pt[0], DER_SEQUENCE) & minimal & ct_eq_u64(total, unpadded);
  *len = (size_t)unpadded;
  return ok;
}

/* ---- Decryption ------------------------------------------------------------------------------ */

/* decrypt_epki derives the key, decrypts e->ct into |pt| (e->ct.n bytes) and checks it; *len is
 * the PrivateKeyInfo's length. Every failure after the key derivation is FM_ERR_DECRYPT. */
static int decrypt_epki(const epki *e, const uint8_t *pass, size_t pass_len, uint8_t *pt,
                        size_t *len) {
  uint8_t dk[32], iv[FM_AES_BLOCK_LEN];
  fm_aes_key ks;
  const size_t n = e->ct.n;
  int st = fm_pbkdf2_hmac(e->found.prf, pass, pass_len, e->salt.p, e->salt.n,
                          e->found.iterations, dk, e->found.aes_key_len);
  if (st == FM_OK) st = fm_aes_key_init(&ks, dk, e->found.aes_key_len);
  fm_zeroize(dk, sizeof dk);
  if (st != FM_OK) return st;
  memcpy(iv, e->iv.p, sizeof iv);
  st = fm_aes_cbc_decrypt(&ks, iv, e->ct.p, pt, n);
  (void)fm_aes_key_wipe(&ks);
  if (st != FM_OK) return st;
  size_t l = 0;
  const uint64_t ok = fm_declassify_u64(plaintext_mask(pt, n, &l));
  /* Only the joint verdict is released; then the structure's length, which is public. */
  if (ok == 0) return FM_ERR_DECRYPT;
  fm_declassify(&l, sizeof l);
  if (!is_private_key_info(pt, l)) return FM_ERR_DECRYPT;
  *len = l;
  return FM_OK;
}

static const pem_label k_epki_label[] = {"ENCRYPTED PRIVATE KEY"};

static int pkcs8_decrypt_impl(const uint8_t *in, size_t in_len, const uint8_t *pass,
                              size_t pass_len, uint8_t *out, size_t out_cap, size_t *out_len,
                              fm_pkcs8_params *found) {
  if (found != NULL) memset(found, 0, sizeof *found);
  int st = fm_service_gate();
  if (st != FM_OK) return fm_refuse2(st, out, out_cap, out_len, out_len ? sizeof *out_len : 0);
  const uint64_t epoch = fm_service_epoch();
  if (out_len == NULL || (in == NULL && in_len > 0) || (pass == NULL && pass_len > 0) ||
      (out == NULL && out_cap > 0)) {
    return fm_refuse2(FM_ERR_BAD_ARGUMENT, out, out_cap, out_len, out_len ? sizeof *out_len : 0);
  }
  *out_len = 0;
  if (out != NULL && (fm_buffers_overlap(out, out_cap, in, in_len) ||
                      fm_buffers_overlap(out, out_cap, pass, pass_len))) {
    return fm_refuse(FM_ERR_OVERLAP, out, out_cap);
  }
  uint8_t *der_buf = NULL, *pt = NULL;
  size_t der_len = in_len, which = 0, len = 0;
  const uint8_t *der = in;
  if (in_len == 0) {
    st = FM_ERR_PARSE;
  } else if (pem_public_byte(in, 0) != DER_SEQUENCE) {
    st = pem_decode(in, in_len, k_epki_label, 1, NULL, &der_buf, &der_len, &which);
    der = der_buf;
  }
  epki e;
  memset(&e, 0, sizeof e);
  if (st == FM_OK) st = parse_epki((der_span){der, der_len}, &e);
  if (found != NULL) *found = e.found;
  if (st == FM_OK && (e.ct.n == 0 || e.ct.n % FM_AES_BLOCK_LEN != 0)) st = FM_ERR_DECRYPT;
  if (st == FM_OK && out == NULL && out_cap == 0) {
    *out_len = e.ct.n; /* the size query */
    free(der_buf);     /* public: an EncryptedPrivateKeyInfo */
    return FM_OK;
  }
  if (st == FM_OK && out_cap < e.ct.n) {
    *out_len = e.ct.n;
    free(der_buf);
    return fm_refuse(FM_ERR_BUFFER_TOO_SMALL, out, out_cap);
  }
  if (st == FM_OK && pass == NULL) st = FM_ERR_PASSPHRASE;
  if (st == FM_OK && (pt = malloc(e.ct.n)) == NULL) st = FM_ERR_NO_MEMORY;
  if (st == FM_OK) st = decrypt_epki(&e, pass, pass_len, pt, &len);
  if (st == FM_OK && !fm_service_may_continue(epoch)) st = FM_ERR_NOT_OPERATIONAL;
  if (st == FM_OK) {
    memcpy(out, pt, len);
    *out_len = len;
  }
  if (pt != NULL) {
    fm_zeroize(pt, e.ct.n);
    free(pt);
  }
  free(der_buf);
  if (st != FM_OK) return fm_refuse2(st, out, out_cap, out_len, sizeof *out_len);
  fm_indicator_approved();
  if (!fm_approval_pkcs8(pass_len, e.salt.n, e.found.iterations)) fm_indicator_not_approved();
  return FM_OK;
}

int fm_pkcs8_decrypt(const uint8_t *in, size_t in_len, const uint8_t *pass, size_t pass_len,
                     uint8_t *out, size_t out_cap, size_t *out_len, fm_pkcs8_params *found) {
  const int st = pkcs8_decrypt_impl(in, in_len, pass, pass_len, out, out_cap, out_len, found);
  fm_wipe_vector_registers(); /* the key's bytes went through them */
  return st;
}

/* ---- Encryption ------------------------------------------------------------------------------ */

/* tlv is the length of an element whose contents are |n| bytes long. */
static size_t tlv(size_t n) { return der_header_len(n) + n; }

/* The shape of what fm_pkcs8_encrypt writes (all public). */
typedef struct epki_out {
  uint8_t prf_arc, aes_arc;
  uint8_t iter_be[8];
  der_uint iter;
  const uint8_t *salt;
  size_t salt_len;
  const uint8_t *iv;
  const uint8_t *ct;
  size_t ct_len;
} epki_out;

/* put_epki writes (or measures) EncryptedPrivateKeyInfo as OpenSSL 3 writes it. */
static void put_epki(der_out *w, const epki_out *o) {
  const size_t prf = tlv(sizeof k_digest_alg + 1) + tlv(0);
  const size_t pbkdf2_params = tlv(o->salt_len) + der_uint_len(o->iter) + tlv(prf);
  const size_t kdf = tlv(sizeof k_pkcs5 + 1) + tlv(pbkdf2_params);
  const size_t cipher = tlv(sizeof k_aes + 1) + tlv(FM_AES_BLOCK_LEN);
  const size_t pbes2_params = tlv(kdf) + tlv(cipher);
  const size_t alg = tlv(sizeof k_pkcs5 + 1) + tlv(pbes2_params);
  der_put_header(w, DER_SEQUENCE, tlv(alg) + tlv(o->ct_len));
  der_put_header(w, DER_SEQUENCE, alg);
  der_put_header(w, DER_OID, sizeof k_pkcs5 + 1);
  der_put_bytes(w, k_pkcs5, sizeof k_pkcs5);
  der_put_byte(w, PBES2_ARC);
  der_put_header(w, DER_SEQUENCE, pbes2_params);
  der_put_header(w, DER_SEQUENCE, kdf);
  der_put_header(w, DER_OID, sizeof k_pkcs5 + 1);
  der_put_bytes(w, k_pkcs5, sizeof k_pkcs5);
  der_put_byte(w, PBKDF2_ARC);
  der_put_header(w, DER_SEQUENCE, pbkdf2_params);
  der_put_header(w, DER_OCTET_STRING, o->salt_len);
  der_put_bytes(w, o->salt, o->salt_len);
  der_put_uint(w, o->iter);
  der_put_header(w, DER_SEQUENCE, prf);
  der_put_header(w, DER_OID, sizeof k_digest_alg + 1);
  der_put_bytes(w, k_digest_alg, sizeof k_digest_alg);
  der_put_byte(w, o->prf_arc);
  der_put_header(w, DER_NULL, 0);
  der_put_header(w, DER_SEQUENCE, cipher);
  der_put_header(w, DER_OID, sizeof k_aes + 1);
  der_put_bytes(w, k_aes, sizeof k_aes);
  der_put_byte(w, o->aes_arc);
  der_put_header(w, DER_OCTET_STRING, FM_AES_BLOCK_LEN);
  der_put_bytes(w, o->iv, FM_AES_BLOCK_LEN);
  der_put_header(w, DER_OCTET_STRING, o->ct_len);
  der_put_bytes(w, o->ct, o->ct_len);
}

/* encrypt_key pads |key| (RFC 8018 6.2.1 step 4) into |ct| (ct_len bytes) and encrypts it with
 * the key PBKDF2 derives from |pass|. */
static int encrypt_key(const fm_pkcs8_params *p, const uint8_t *pass, size_t pass_len,
                       const uint8_t *salt, const uint8_t *iv_in, const uint8_t *key,
                       size_t key_len, uint8_t *ct, size_t ct_len) {
  uint8_t dk[32], iv[FM_AES_BLOCK_LEN];
  fm_aes_key ks;
  memcpy(ct, key, key_len);
  memset(ct + key_len, (int)(ct_len - key_len), ct_len - key_len); /* the pad length is public */
  int st = fm_pbkdf2_hmac(p->prf, pass, pass_len, salt, p->salt_len, p->iterations, dk,
                          p->aes_key_len);
  if (st == FM_OK) st = fm_aes_key_init(&ks, dk, p->aes_key_len);
  fm_zeroize(dk, sizeof dk);
  if (st != FM_OK) return st;
  memcpy(iv, iv_in, sizeof iv);
  st = fm_aes_cbc_encrypt(&ks, iv, ct, ct, ct_len);
  (void)fm_aes_key_wipe(&ks);
  return st;
}

/* check_params fills every zero field of |p| with its default and checks the rest. */
static int check_params(fm_pkcs8_params *p, uint8_t *prf_arc, uint8_t *aes_arc) {
  if (p->prf == 0) p->prf = FM_HASH_SHA256;
  if (p->aes_key_len == 0) p->aes_key_len = 32;
  if (p->iterations == 0) p->iterations = FM_PKCS8_DEFAULT_ITERATIONS;
  if (p->salt_len == 0) p->salt_len = FM_PKCS8_DEFAULT_SALT_LEN;
  size_t i = 0;
  while (i < sizeof k_prfs / sizeof k_prfs[0] && k_prfs[i].alg != p->prf) i++;
  if (i == sizeof k_prfs / sizeof k_prfs[0]) return FM_ERR_UNSUPPORTED;
  *prf_arc = k_prfs[i].arc;
  switch (p->aes_key_len) {
    case 16: *aes_arc = 2; break;
    case 24: *aes_arc = 22; break;
    case 32: *aes_arc = 42; break;
    default: return FM_ERR_UNSUPPORTED;
  }
  if (p->iterations > FM_PKCS8_MAX_ITERATIONS) return FM_ERR_OUT_OF_RANGE;
  if (p->salt_len < 8 || p->salt_len > FM_PKCS8_MAX_SALT_LEN) return FM_ERR_LENGTH;
  return FM_OK;
}

static int pkcs8_encrypt_impl(const uint8_t *key, size_t key_len, const uint8_t *pass,
                              size_t pass_len, const fm_pkcs8_params *params,
                              fm_key_encoding encoding, uint8_t *out, size_t out_cap,
                              size_t *out_len) {
  int st = fm_service_gate();
  if (st != FM_OK) return fm_refuse2(st, out, out_cap, out_len, out_len ? sizeof *out_len : 0);
  const uint64_t epoch = fm_service_epoch();
  if (key == NULL || out_len == NULL || (pass == NULL && pass_len > 0) ||
      (out == NULL && out_cap > 0) || (encoding != FM_KEY_DER && encoding != FM_KEY_PEM)) {
    return fm_refuse2(FM_ERR_BAD_ARGUMENT, out, out_cap, out_len, out_len ? sizeof *out_len : 0);
  }
  *out_len = 0;
  if (pass == NULL || pass_len == 0) return fm_refuse(FM_ERR_PASSPHRASE, out, out_cap);
  if (out != NULL && (fm_buffers_overlap(out, out_cap, key, key_len) ||
                      fm_buffers_overlap(out, out_cap, pass, pass_len))) {
    return fm_refuse(FM_ERR_OVERLAP, out, out_cap);
  }
  fm_pkcs8_params p = {0};
  if (params != NULL) p = *params;
  epki_out o;
  memset(&o, 0, sizeof o);
  st = check_params(&p, &o.prf_arc, &o.aes_arc);
  if (st == FM_OK && (key_len == 0 || key_len > DER_MAX_LEN)) st = FM_ERR_LENGTH;
  if (st == FM_OK && !is_private_key_info(key, key_len)) st = FM_ERR_PARSE;
  if (st != FM_OK) return fm_refuse(st, out, out_cap);

  for (size_t i = 0; i < 8; i++) o.iter_be[i] = (uint8_t)(p.iterations >> (56 - 8 * i));
  o.iter = der_uint_of(o.iter_be, sizeof o.iter_be);
  o.salt_len = p.salt_len;
  o.ct_len = (key_len / FM_AES_BLOCK_LEN + 1) * FM_AES_BLOCK_LEN;
  der_out m = {NULL, 0};
  put_epki(&m, &o);
  const size_t der_len = m.len;
  static const char k_label[] = "ENCRYPTED PRIVATE KEY";
  const size_t total = encoding == FM_KEY_PEM ? pem_len(der_len, k_label) : der_len;
  *out_len = total;
  if (out == NULL && out_cap == 0) return FM_OK;
  if (out_cap < total) return fm_refuse(FM_ERR_BUFFER_TOO_SMALL, out, out_cap);

  uint8_t salt[FM_PKCS8_MAX_SALT_LEN], iv[FM_AES_BLOCK_LEN];
  uint8_t *ct = malloc(o.ct_len), *der = encoding == FM_KEY_PEM ? malloc(der_len) : out;
  if (ct == NULL || der == NULL) st = FM_ERR_NO_MEMORY;
  if (st == FM_OK) st = fm_rand_bytes(salt, p.salt_len);
  if (st == FM_OK) st = fm_rand_bytes(iv, sizeof iv);
  if (st == FM_OK)
    st = encrypt_key(&p, pass, pass_len, salt, iv, key, key_len, ct, o.ct_len);
  if (st == FM_OK && !fm_service_may_continue(epoch)) st = FM_ERR_NOT_OPERATIONAL;
  if (st == FM_OK) {
    o.salt = salt;
    o.iv = iv;
    o.ct = ct;
    der_out w = {der, 0};
    put_epki(&w, &o);
    if (encoding == FM_KEY_PEM) pem_write(der, der_len, k_label, out);
  }
  /* ct held the padded plaintext until it was encrypted: wipe it whatever happened. */
  if (ct != NULL) fm_zeroize(ct, o.ct_len);
  free(ct);
  if (der != out && der != NULL) free(der); /* public: the EncryptedPrivateKeyInfo */
  if (st != FM_OK) return fm_refuse2(st, out, out_cap, out_len, sizeof *out_len);
  fm_indicator_approved();
  if (!fm_approval_pkcs8(pass_len, p.salt_len, p.iterations)) fm_indicator_not_approved();
  return FM_OK;
}

int fm_pkcs8_encrypt(const uint8_t *key, size_t key_len, const uint8_t *pass, size_t pass_len,
                     const fm_pkcs8_params *params, fm_key_encoding encoding, uint8_t *out,
                     size_t out_cap, size_t *out_len) {
  const int st =
      pkcs8_encrypt_impl(key, key_len, pass, pass_len, params, encoding, out, out_cap, out_len);
  fm_wipe_vector_registers(); /* the key's bytes went through them */
  return st;
}
