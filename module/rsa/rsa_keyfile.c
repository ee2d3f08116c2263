/* RSA key files: PKCS#1, PKCS#8 (unencrypted) and SubjectPublicKeyInfo, in DER and PEM
 * (fipsmod/keyfile.h).
 *
 * The codec sits on the public key interface: decoding parses the structure into components and
 * hands them to fm_rsa_key_import_private / _public, which validate the key; encoding exports the
 * components and writes them. So a key read from a file is checked exactly like any other.
 *
 * What is public and what is secret. The DER structure (tags, lengths) is public: it is what a
 * reader walks, and the length of each component is its byte length, as in the file. The contents
 * of private INTEGERs are secret: they are never branched on, except the first byte of each, which
 * the DER rule for minimal INTEGERs looks at (it only says whether the number fills its first
 * byte, which its length nearly says already), and n and e, which are public. Each reader
 * declassifies (fm_declassify) exactly the bytes it branches on: tag and length bytes, those
 * first bytes, n and e, so that a constant-time test can mark a whole file secret.
 *
 * DER or PEM is decided by the first byte alone (DER opens with a SEQUENCE, 0x30), never by
 * searching the input for text: a search would compare every secret DER byte with '-'. The DER
 * reader and writer and PEM (located from the outside in, base64 without tables) are module/der.c,
 * shared with the EC key files. Every buffer that held a private encoding is zeroized before it
 * is freed. */
#include <stdlib.h>

#include "fipsmod/keyfile.h"
#include "module/der.h"
#include "module/internal.h"
#include "module/rsa/internal.h"

/* The rsaEncryption object identifier, 1.2.840.113549.1.1.1 (RFC 8017 appendix C), and
 * id-RSASSA-PSS, 1.2.840.113549.1.1.10, which names keys the module does not take. */
static const uint8_t k_oid_rsa_encryption[] = {0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01};

/* der_get_rsa_algorithm takes an AlgorithmIdentifier off |s| and accepts only rsaEncryption with
 * NULL parameters (RFC 3279 2.3.1). Another well-formed identifier is FM_ERR_UNSUPPORTED. */
static int der_get_rsa_algorithm(der_span *s) {
  der_span alg, oid, null;
  int st = der_get(s, DER_SEQUENCE, &alg);
  if (st == FM_OK) st = der_get(&alg, DER_OID, &oid);
  if (st != FM_OK) return st;
  /* The algorithm is public. */
  if (!der_equals(oid, k_oid_rsa_encryption, sizeof k_oid_rsa_encryption)) return FM_ERR_UNSUPPORTED;
  st = der_get(&alg, DER_NULL, &null);
  if (st != FM_OK) return st;
  return null.n == 0 && alg.n == 0 ? FM_OK : FM_ERR_PARSE;
}

/* ---- The four structures ------------------------------------------------------------------- */

/* parse_pkcs1_private reads RSAPrivateKey (RFC 8017 A.1.2) from the whole of |der| into |c|; the
 * components point into |der|. */
static int parse_pkcs1_private(der_span der, fm_rsa_private_components *c) {
  der_span seq;
  int st = der_get(&der, DER_SEQUENCE, &seq);
  if (st != FM_OK) return st;
  if (der.n != 0) return FM_ERR_PARSE;
  /* version 0 is two-prime; 1 (multi-prime, with otherPrimeInfos) is not offered. */
  st = der_get_version(&seq, 0);
  if (st != FM_OK) return st;
  der_span v[8];
  for (int i = 0; i < 8 && st == FM_OK; i++) st = der_get_uint(&seq, &v[i]);
  if (st != FM_OK) return st;
  if (seq.n != 0) return FM_ERR_PARSE;
  fm_declassify(v[0].p, v[0].n); /* n and e are public */
  fm_declassify(v[1].p, v[1].n);
  *c = (fm_rsa_private_components){v[0].p, v[0].n, v[1].p, v[1].n, v[2].p, v[2].n,
                                   v[3].p, v[3].n, v[4].p, v[4].n, v[5].p, v[5].n,
                                   v[6].p, v[6].n, v[7].p, v[7].n};
  return FM_OK;
}

/* parse_pkcs1_public reads RSAPublicKey (RFC 8017 A.1.1) from the whole of |der|. */
static int parse_pkcs1_public(der_span der, der_span *n, der_span *e) {
  der_span seq;
  int st = der_get(&der, DER_SEQUENCE, &seq);
  if (st == FM_OK && der.n != 0) st = FM_ERR_PARSE;
  if (st == FM_OK) st = der_get_uint(&seq, n);
  if (st == FM_OK) st = der_get_uint(&seq, e);
  if (st == FM_OK && seq.n != 0) st = FM_ERR_PARSE;
  return st;
}

/* parse_pkcs8 reads PrivateKeyInfo (RFC 5208 5; version 0, no attributes) and returns the
 * RSAPrivateKey it carries. */
static int parse_pkcs8(der_span der, der_span *inner) {
  der_span seq;
  int st = der_get(&der, DER_SEQUENCE, &seq);
  if (st == FM_OK && der.n != 0) st = FM_ERR_PARSE;
  if (st == FM_OK) st = der_get_version(&seq, 0);
  if (st == FM_OK) st = der_get_rsa_algorithm(&seq);
  if (st == FM_OK) st = der_get(&seq, DER_OCTET_STRING, inner);
  /* [0] attributes would follow here; the module takes none. */
  if (st == FM_OK && seq.n != 0) st = der_peek_tag(&seq) == 0xa0 ? FM_ERR_UNSUPPORTED : FM_ERR_PARSE;
  return st;
}

/* parse_spki reads SubjectPublicKeyInfo (RFC 5280 4.1) and returns the RSAPublicKey it carries. */
static int parse_spki(der_span der, der_span *inner) {
  der_span seq, bits;
  int st = der_get(&der, DER_SEQUENCE, &seq);
  if (st == FM_OK && der.n != 0) st = FM_ERR_PARSE;
  if (st == FM_OK) st = der_get_rsa_algorithm(&seq);
  if (st == FM_OK) st = der_get(&seq, DER_BIT_STRING, &bits);
  if (st == FM_OK && seq.n != 0) st = FM_ERR_PARSE;
  /* The key is a whole number of bytes: no unused bits (X.690 8.6.2). */
  if (st == FM_OK && bits.n >= 1) fm_declassify(bits.p, 1);
  if (st == FM_OK && (bits.n < 1 || bits.p[0] != 0)) st = FM_ERR_PARSE;
  if (st == FM_OK) *inner = (der_span){bits.p + 1, bits.n - 1};
  return st;
}

enum key_kind {
  KIND_UNKNOWN,
  KIND_PKCS1_PRIVATE,
  KIND_PKCS8,
  KIND_PKCS1_PUBLIC,
  KIND_SPKI,
  KIND_EC_PRIVATE /* SEC1 ECPrivateKey: another algorithm's key (fm_ec_key_decode) */
};

/* der_shape tells the four structures apart by their first elements (all public structure):
 * SPKI opens with a SEQUENCE; PKCS#8 with INTEGER 0 and a SEQUENCE; RSAPrivateKey with INTEGER 0
 * and INTEGERs; RSAPublicKey with exactly two INTEGERs. An INTEGER and an OCTET STRING open an
 * EC private key (RFC 5915). */
static enum key_kind der_shape(der_span der) {
  der_span seq, first;
  if (der_get(&der, DER_SEQUENCE, &seq) != FM_OK) return KIND_UNKNOWN;
  if (der_peek_tag(&seq) == DER_SEQUENCE) return KIND_SPKI;
  if (der_get(&seq, DER_INTEGER, &first) != FM_OK) return KIND_UNKNOWN;
  if (der_peek_tag(&seq) == DER_SEQUENCE) return KIND_PKCS8;
  if (der_peek_tag(&seq) == DER_OCTET_STRING) return KIND_EC_PRIVATE;
  der_span second;
  if (der_get(&seq, DER_INTEGER, &second) != FM_OK) return KIND_UNKNOWN;
  if (seq.n == 0) return KIND_PKCS1_PUBLIC;
  return KIND_PKCS1_PRIVATE;
}

static int import_private(der_span rsa_private_key, int full_check, fm_rsa_key **key) {
  fm_rsa_private_components c;
  int st = parse_pkcs1_private(rsa_private_key, &c);
  if (st == FM_OK && full_check) st = fm_rsa_key_import_private(&c, key);
  if (st == FM_OK && !full_check) st = fm_rsa_key_import_private_consistent(&c, key);
  fm_zeroize(&c, sizeof c);
  return st;
}

static int import_public(der_span rsa_public_key, fm_rsa_key **key) {
  der_span n, e;
  int st = parse_pkcs1_public(rsa_public_key, &n, &e);
  if (st != FM_OK) return st;
  return fm_rsa_key_import_public(n.p, n.n, e.p, e.n, key);
}

/* import_der reads the structure |kind| from the whole of |der|: PKCS#8 carries an RSAPrivateKey
 * in an OCTET STRING, SPKI an RSAPublicKey in a BIT STRING. */
static int import_der(der_span der, enum key_kind kind, int full_check, fm_rsa_key **key) {
  der_span inner;
  int st;
  switch (kind) {
    case KIND_PKCS1_PRIVATE: return import_private(der, full_check, key);
    case KIND_PKCS8:
      st = parse_pkcs8(der, &inner);
      return st == FM_OK ? import_private(inner, full_check, key) : st;
    case KIND_PKCS1_PUBLIC: return import_public(der, key);
    case KIND_SPKI:
      st = parse_spki(der, &inner);
      return st == FM_OK ? import_public(inner, key) : st;
    case KIND_EC_PRIVATE: return FM_ERR_UNSUPPORTED;
    case KIND_UNKNOWN: break;
  }
  return FM_ERR_PARSE;
}

/* The PEM labels, in the order of fm_key_format (module/der.h: rows of characters). */
static const pem_label k_labels[] = {"RSA PRIVATE KEY", "PRIVATE KEY", "RSA PUBLIC KEY",
                                     "PUBLIC KEY"};

int rsa_key_decode(const uint8_t *in, size_t in_len, int full_check, fm_rsa_key **key) {
  int st = fm_service_gate();
  if (st == FM_OK && (key == NULL || (in == NULL && in_len > 0))) st = FM_ERR_BAD_ARGUMENT;
  if (key != NULL) *key = NULL;
  if (st != FM_OK) return fm_refuse(st, NULL, 0);
  /* DER opens with a SEQUENCE; anything else is read as PEM (see the top of this file). */
  if (in_len > 0 && pem_public_byte(in, 0) != DER_SEQUENCE) {
    uint8_t *der = NULL;
    size_t der_len = 0;
    size_t which = 0;
    st = pem_decode(in, in_len, k_labels, 4, NULL, &der, &der_len, &which);
    if (st != FM_OK) return fm_refuse(st, NULL, 0);
    static const enum key_kind kinds[] = {KIND_PKCS1_PRIVATE, KIND_PKCS8, KIND_PKCS1_PUBLIC,
                                          KIND_SPKI};
    const enum key_kind kind = kinds[which];
    /* The label named the structure; the DER must be that structure. */
    st = import_der((der_span){der, der_len}, kind, full_check, key);
    fm_zeroize(der, der_len);
    free(der);
  } else {
    if (in_len > DER_MAX_LEN) return fm_refuse(FM_ERR_PARSE, NULL, 0);
    der_span der = {in, in_len};
    st = import_der(der, der_shape(der), full_check, key);
  }
  if (st != FM_OK) {
    if (key != NULL) *key = NULL;
    return fm_refuse(st, NULL, 0);
  }
  return FM_OK;
}

static int rsa_key_decode_impl(const uint8_t *in, size_t in_len, fm_rsa_key **key) {
  return rsa_key_decode(in, in_len, 1, key);
}

int fm_rsa_key_decode(const uint8_t *in, size_t in_len, fm_rsa_key **key) {
  const int st = rsa_key_decode_impl(in, in_len, key);
  fm_wipe_vector_registers(); /* the key's bytes went through them */
  return st;
}

/* ---- Writing ------------------------------------------------------------------------------ */

/* write_key writes |format| from the components |u| (n, e for public formats; n, e, d, p, q, dp,
 * dq, qinv for private ones). */
static void write_key(der_out *w, fm_key_format format, const der_uint *u) {
  static const uint8_t version0[] = {DER_INTEGER, 1, 0};
  static const uint8_t alg_id[] = {DER_SEQUENCE, 13, DER_OID, 9, 0x2a, 0x86, 0x48, 0x86, 0xf7,
                                   0x0d, 0x01, 0x01, 0x01, DER_NULL, 0};
  const bool priv = format == FM_KEY_PKCS1_PRIVATE || format == FM_KEY_PKCS8_PRIVATE;
  size_t inner_body = priv ? sizeof version0 : 0;
  for (size_t i = 0; i < (priv ? 8u : 2u); i++) inner_body += der_uint_len(u[i]);
  size_t inner = der_header_len(inner_body) + inner_body;
  switch (format) {
    case FM_KEY_PKCS8_PRIVATE: {
      size_t body = sizeof version0 + sizeof alg_id + der_header_len(inner) + inner;
      der_put_header(w, DER_SEQUENCE, body);
      der_put_bytes(w, version0, sizeof version0);
      der_put_bytes(w, alg_id, sizeof alg_id);
      der_put_header(w, DER_OCTET_STRING, inner);
      break;
    }
    case FM_KEY_SPKI_PUBLIC: {
      size_t body = sizeof alg_id + der_header_len(inner + 1) + inner + 1;
      der_put_header(w, DER_SEQUENCE, body);
      der_put_bytes(w, alg_id, sizeof alg_id);
      der_put_header(w, DER_BIT_STRING, inner + 1);
      der_put_byte(w, 0); /* no unused bits */
      break;
    }
    default: break;
  }
  der_put_header(w, DER_SEQUENCE, inner_body);
  if (priv) der_put_bytes(w, version0, sizeof version0);
  for (size_t i = 0; i < (priv ? 8u : 2u); i++) der_put_uint(w, u[i]);
}

static int rsa_key_encode_impl(const fm_rsa_key *key, fm_key_format format,
                               fm_key_encoding encoding, uint8_t *out, size_t out_cap,
                               size_t *out_len) {
  int st = fm_service_gate();
  if (st == FM_OK && (key == NULL || out_len == NULL || (out == NULL && out_cap > 0) ||
                      format < FM_KEY_PKCS1_PRIVATE || format > FM_KEY_SPKI_PUBLIC ||
                      (encoding != FM_KEY_DER && encoding != FM_KEY_PEM)))
    st = FM_ERR_BAD_ARGUMENT;
  if (out_len != NULL) *out_len = 0;
  if (st != FM_OK) return fm_refuse(st, out, out == NULL ? 0 : out_cap);

  const bool priv = format == FM_KEY_PKCS1_PRIVATE || format == FM_KEY_PKCS8_PRIVATE;
  static const fm_rsa_component which[8] = {FM_RSA_N,  FM_RSA_E,  FM_RSA_D,  FM_RSA_P,
                                            FM_RSA_Q,  FM_RSA_DP, FM_RSA_DQ, FM_RSA_QINV};
  size_t k = 0;
  st = fm_rsa_key_size(key, &k);
  if (st != FM_OK) return fm_refuse(st, out, out_cap);
  /* Every component is at most the modulus's length: one buffer of 8 slots of k bytes. */
  const size_t count = priv ? 8 : 2;
  uint8_t *comp = malloc(count * k);
  uint8_t *der = NULL;
  size_t der_cap = 0;
  if (comp == NULL) return fm_refuse(FM_ERR_NO_MEMORY, out, out_cap);
  der_uint u[8];
  for (size_t i = 0; i < count && st == FM_OK; i++) {
    size_t n = 0;
    st = fm_rsa_key_export(key, which[i], comp + i * k, k, &n);
    if (st == FM_OK) u[i] = der_uint_of(comp + i * k, n);
  }
  if (st == FM_OK) {
    der_out measure = {NULL, 0};
    write_key(&measure, format, u);
    der_cap = measure.len;
    size_t need = encoding == FM_KEY_DER ? der_cap : pem_len(der_cap, k_labels[format - 1]);
    *out_len = need;
    if (out == NULL && out_cap == 0) {
      st = FM_OK; /* a length query */
    } else if (out_cap < need) {
      st = FM_ERR_BUFFER_TOO_SMALL;
    } else if (encoding == FM_KEY_DER) {
      der_out w = {out, 0};
      write_key(&w, format, u);
    } else {
      der = malloc(der_cap);
      if (der == NULL) {
        st = FM_ERR_NO_MEMORY;
      } else {
        der_out w = {der, 0};
        write_key(&w, format, u);
        pem_write(der, der_cap, k_labels[format - 1], out);
      }
    }
  }
  if (der != NULL) {
    fm_zeroize(der, der_cap);
    free(der);
  }
  fm_zeroize(comp, count * k);
  free(comp);
  fm_zeroize(u, sizeof u);
  if (st != FM_OK) {
    size_t keep = st == FM_ERR_BUFFER_TOO_SMALL ? *out_len : 0;
    fm_refuse(st, out, out_cap);
    *out_len = keep;
    return st;
  }
  return FM_OK;
}

int fm_rsa_key_encode(const fm_rsa_key *key, fm_key_format format, fm_key_encoding encoding,
                      uint8_t *out, size_t out_cap, size_t *out_len) {
  const int st = rsa_key_encode_impl(key, format, encoding, out, out_cap, out_len);
  fm_wipe_vector_registers(); /* the key's bytes went through them */
  return st;
}
