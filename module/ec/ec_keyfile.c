/* EC key files: SEC1 ECPrivateKey (RFC 5915), PKCS#8 PrivateKeyInfo (RFC 5208) and
 * SubjectPublicKeyInfo (RFC 5480), named curves only, in DER and PEM (fipsmod/keyfile.h).
 *
 * Like the RSA codec (module/rsa/rsa_keyfile.c), this sits on the public key interface: decoding
 * parses the structure and hands d and the point to fm_ec_key_import_private / _public, which
 * validate them (d in [1, n-1], the point fully validated and equal to dG); encoding exports them
 * and writes them. The DER reader and writer and PEM are module/der.c.
 *
 * What is public and what is secret: the DER structure (tags, lengths, so the length of d's
 * OCTET STRING, as in the file), the version numbers, the object identifiers and the public key
 * are public, and are declassified where they are branched on; d is secret, and only ever copied
 * (at a public offset) into the buffer handed to the import, which checks it in constant time.
 * DER or PEM is decided by the first byte alone, so a DER private key is never searched for text.
 * Every buffer that held a private encoding or d is zeroized. */
#include <stdlib.h>
#include <string.h>

#include "fipsmod/keyfile.h"
#include "module/der.h"
#include "module/ec/internal.h"
#include "module/internal.h"

/* id-ecPublicKey, 1.2.840.10045.2.1 (RFC 5480 2.1.1). */
static const uint8_t k_oid_ec_public_key[] = {0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01};

/* The named curves (RFC 5480 2.1.1.1), by the contents of their object identifiers. */
typedef struct curve_oid {
  fm_ec_curve id;
  uint8_t len;
  uint8_t oid[8];
} curve_oid;

static const curve_oid k_curves[] = {
    {FM_EC_P224, 5, {0x2b, 0x81, 0x04, 0x00, 0x21}},                   /* 1.3.132.0.33 */
    {FM_EC_P256, 8, {0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07}}, /* 1.2.840.10045.3.1.7 */
    {FM_EC_P384, 5, {0x2b, 0x81, 0x04, 0x00, 0x22}},                   /* 1.3.132.0.34 */
    {FM_EC_P521, 5, {0x2b, 0x81, 0x04, 0x00, 0x23}},                   /* 1.3.132.0.35 */
};
#define CURVE_COUNT (sizeof k_curves / sizeof k_curves[0])

static const curve_oid *curve_oid_of(fm_ec_curve id) {
  for (size_t i = 0; i < CURVE_COUNT; i++)
    if (k_curves[i].id == id) return &k_curves[i];
  return NULL;
}

/* ---- Reading ---------------------------------------------------------------------------------- */

/* get_parameters takes ECParameters (RFC 5480 2.1.1: CHOICE { namedCurve OBJECT IDENTIFIER,
 * implicitCurve NULL, specifiedCurve SpecifiedECDomain }) off |s|. Only the four named curves are
 * taken; the other choices and other curves are FM_ERR_UNSUPPORTED. */
static int get_parameters(der_span *s, fm_ec_curve *curve) {
  der_span v;
  const int tag = der_peek_tag(s);
  if (tag == DER_OID) {
    int st = der_get(s, DER_OID, &v);
    if (st != FM_OK) return st;
    for (size_t i = 0; i < CURVE_COUNT; i++) {
      if (der_equals(v, k_curves[i].oid, k_curves[i].len)) {
        *curve = k_curves[i].id;
        return FM_OK;
      }
    }
    return FM_ERR_UNSUPPORTED; /* another named curve */
  }
  if (tag == DER_SEQUENCE || tag == DER_NULL) {
    /* Explicit domain parameters, or "implicitly CA": not offered. */
    int st = der_get(s, (uint8_t)tag, &v);
    return st == FM_OK ? FM_ERR_UNSUPPORTED : st;
  }
  return FM_ERR_PARSE;
}

/* get_algorithm takes an AlgorithmIdentifier off |s| and accepts id-ecPublicKey with ECParameters
 * (RFC 5480 2.1.1). Another algorithm is FM_ERR_UNSUPPORTED. */
static int get_algorithm(der_span *s, fm_ec_curve *curve) {
  der_span alg, oid;
  int st = der_get(s, DER_SEQUENCE, &alg);
  if (st == FM_OK) st = der_get(&alg, DER_OID, &oid);
  if (st != FM_OK) return st;
  /* The algorithm is public. */
  if (!der_equals(oid, k_oid_ec_public_key, sizeof k_oid_ec_public_key)) return FM_ERR_UNSUPPORTED;
  st = get_parameters(&alg, curve);
  if (st == FM_OK && alg.n != 0) st = FM_ERR_PARSE;
  return st;
}

/* get_point takes a BIT STRING holding a SEC1 point off |s| into |pt| (declassified: a public
 * key). No unused bits (X.690 8.6.2). */
static int get_point(der_span *s, der_span *pt) {
  der_span bits;
  int st = der_get(s, DER_BIT_STRING, &bits);
  if (st != FM_OK) return st;
  fm_declassify(bits.p, bits.n);
  if (bits.n < 2 || bits.p[0] != 0) return FM_ERR_PARSE;
  *pt = (der_span){bits.p + 1, bits.n - 1};
  return FM_OK;
}

/* An ECPrivateKey as read: d (secret, pointing into the input), the curve of its parameters [0],
 * the public key [1]. */
typedef struct sec1_key {
  der_span d;
  bool has_curve;
  fm_ec_curve curve;
  bool has_pub;
  der_span pub;
} sec1_key;

/* parse_sec1 reads ECPrivateKey (RFC 5915 3) from the whole of |der|:
 *   SEQUENCE { version INTEGER 1, privateKey OCTET STRING,
 *              parameters [0] ECParameters OPTIONAL, publicKey [1] BIT STRING OPTIONAL } */
static int parse_sec1(der_span der, sec1_key *k) {
  der_span seq;
  int st = der_get(&der, DER_SEQUENCE, &seq);
  if (st == FM_OK && der.n != 0) st = FM_ERR_PARSE;
  if (st == FM_OK) st = der_get_version(&seq, 1);
  if (st == FM_OK) st = der_get(&seq, DER_OCTET_STRING, &k->d);
  if (st != FM_OK) return st;
  k->has_curve = k->has_pub = false;
  if (der_peek_tag(&seq) == DER_CONTEXT_0) {
    der_span params;
    st = der_get(&seq, DER_CONTEXT_0, &params);
    if (st == FM_OK) st = get_parameters(&params, &k->curve);
    if (st == FM_OK && params.n != 0) st = FM_ERR_PARSE;
    if (st != FM_OK) return st;
    k->has_curve = true;
  }
  if (der_peek_tag(&seq) == DER_CONTEXT_1) {
    der_span pk;
    st = der_get(&seq, DER_CONTEXT_1, &pk);
    if (st == FM_OK) st = get_point(&pk, &k->pub);
    if (st == FM_OK && pk.n != 0) st = FM_ERR_PARSE;
    if (st != FM_OK) return st;
    k->has_pub = true;
  }
  return seq.n == 0 ? FM_OK : FM_ERR_PARSE;
}

/* import_private hands d (left-padded to the curve's length) and the point, if any, to
 * fm_ec_key_import_private, which checks d in [1, n-1] and Q == dG. */
static int import_private(const sec1_key *k, fm_ec_curve curve, fm_ec_key **key) {
  const size_t nb = fm_ec_curve_bytes(curve);
  if (k->d.n == 0 || k->d.n > nb) return FM_ERR_LENGTH;
  uint8_t d[FM_EC_MAX_BYTES] = {0};
  memcpy(d + (nb - k->d.n), k->d.p, k->d.n); /* a public offset: the length is in the file */
  int st = fm_ec_key_import_private(curve, d, nb, k->has_pub ? k->pub.p : NULL,
                                    k->has_pub ? k->pub.n : 0, key);
  fm_zeroize(d, sizeof d);
  return st;
}

/* decode_sec1 reads a lone ECPrivateKey, which must name its curve. */
static int decode_sec1(der_span der, fm_ec_key **key) {
  sec1_key k;
  int st = parse_sec1(der, &k);
  if (st == FM_OK && !k.has_curve) st = FM_ERR_PARSE; /* RFC 5915 3: required here */
  if (st == FM_OK) st = import_private(&k, k.curve, key);
  fm_zeroize(&k, sizeof k);
  return st;
}

/* decode_pkcs8 reads PrivateKeyInfo (RFC 5208 5; version 0, no attributes) with id-ecPublicKey
 * and the ECPrivateKey it carries, whose parameters, if present, must name the same curve. */
static int decode_pkcs8(der_span der, fm_ec_key **key) {
  der_span seq, inner;
  fm_ec_curve curve = (fm_ec_curve)0;
  int st = der_get(&der, DER_SEQUENCE, &seq), version = FM_OK;
  if (st == FM_OK && der.n != 0) st = FM_ERR_PARSE;
  /* A later version (RFC 5958's v2) is FM_ERR_UNSUPPORTED once the fields of v1 are there. */
  if (st == FM_OK && (version = der_get_version(&seq, 0)) == FM_ERR_PARSE) st = version;
  if (st == FM_OK) st = get_algorithm(&seq, &curve);
  if (st == FM_OK) st = der_get(&seq, DER_OCTET_STRING, &inner);
  if (st == FM_OK) st = version;
  /* [0] attributes would follow here; the module takes none. */
  if (st == FM_OK && seq.n != 0)
    st = der_peek_tag(&seq) == DER_CONTEXT_0 ? FM_ERR_UNSUPPORTED : FM_ERR_PARSE;
  if (st != FM_OK) return st;
  sec1_key k;
  st = parse_sec1(inner, &k);
  if (st == FM_OK && k.has_curve && k.curve != curve) st = FM_ERR_BAD_KEY;
  if (st == FM_OK) st = import_private(&k, curve, key);
  fm_zeroize(&k, sizeof k);
  return st;
}

/* decode_spki reads SubjectPublicKeyInfo (RFC 5280 4.1, RFC 5480 2) with id-ecPublicKey. */
static int decode_spki(der_span der, fm_ec_key **key) {
  der_span seq, pt;
  fm_ec_curve curve = (fm_ec_curve)0;
  int st = der_get(&der, DER_SEQUENCE, &seq);
  if (st == FM_OK && der.n != 0) st = FM_ERR_PARSE;
  if (st == FM_OK) st = get_algorithm(&seq, &curve);
  if (st == FM_OK) st = get_point(&seq, &pt);
  if (st == FM_OK && seq.n != 0) st = FM_ERR_PARSE;
  if (st != FM_OK) return st;
  return fm_ec_key_import_public(curve, pt.p, pt.n, key);
}

enum key_kind { KIND_UNKNOWN, KIND_SEC1, KIND_PKCS8, KIND_SPKI, KIND_RSA };

/* der_shape tells the structures apart by their first elements (public structure): SPKI opens
 * with a SEQUENCE; PKCS#8 with an INTEGER and a SEQUENCE; ECPrivateKey with an INTEGER and an
 * OCTET STRING. INTEGERs alone are PKCS#1, an RSA key (FM_ERR_UNSUPPORTED here). */
static enum key_kind der_shape(der_span der) {
  der_span seq, first;
  if (der_get(&der, DER_SEQUENCE, &seq) != FM_OK) return KIND_UNKNOWN;
  if (der_peek_tag(&seq) == DER_SEQUENCE) return KIND_SPKI;
  if (der_get(&seq, DER_INTEGER, &first) != FM_OK) return KIND_UNKNOWN;
  switch (der_peek_tag(&seq)) {
    case DER_SEQUENCE: return KIND_PKCS8;
    case DER_OCTET_STRING: return KIND_SEC1;
    case DER_INTEGER: return KIND_RSA;
    default: return KIND_UNKNOWN;
  }
}

static int decode_der(der_span der, enum key_kind kind, fm_ec_key **key) {
  switch (kind) {
    case KIND_SEC1: return decode_sec1(der, key);
    case KIND_PKCS8: return decode_pkcs8(der, key);
    case KIND_SPKI: return decode_spki(der, key);
    case KIND_RSA: return FM_ERR_UNSUPPORTED;
    case KIND_UNKNOWN: break;
  }
  return FM_ERR_PARSE;
}

/* The PEM labels the decoder takes, and the structure each names. */
static const pem_label k_labels[] = {"EC PRIVATE KEY", "PRIVATE KEY", "PUBLIC KEY"};
static const enum key_kind k_label_kinds[] = {KIND_SEC1, KIND_PKCS8, KIND_SPKI};

static int ec_key_decode_impl(const uint8_t *in, size_t in_len, fm_ec_key **key) {
  int st = fm_service_gate();
  if (st == FM_OK && (key == NULL || (in == NULL && in_len > 0))) st = FM_ERR_BAD_ARGUMENT;
  if (key != NULL) *key = NULL;
  if (st != FM_OK) return fm_refuse(st, NULL, 0);
  /* DER opens with a SEQUENCE; anything else is read as PEM (never a search of DER for text). */
  if (in_len > 0 && pem_public_byte(in, 0) != DER_SEQUENCE) {
    uint8_t *der = NULL;
    size_t der_len = 0, which = 0;
    st = pem_decode(in, in_len, k_labels, sizeof k_labels / sizeof k_labels[0], "EC PARAMETERS",
                    &der, &der_len, &which);
    if (st != FM_OK) return fm_refuse(st, NULL, 0);
    /* The label named the structure; the DER must be that structure. */
    st = decode_der((der_span){der, der_len}, k_label_kinds[which], key);
    fm_zeroize(der, der_len);
    free(der);
  } else {
    if (in_len > DER_MAX_LEN) return fm_refuse(FM_ERR_PARSE, NULL, 0);
    der_span der = {in, in_len};
    st = decode_der(der, der_shape(der), key);
  }
  if (st != FM_OK) {
    *key = NULL; /* the imports leave it NULL on error */
    return fm_refuse(st, NULL, 0);
  }
  return FM_OK;
}

int fm_ec_key_decode(const uint8_t *in, size_t in_len, fm_ec_key **key) {
  const int st = ec_key_decode_impl(in, in_len, key);
  fm_wipe_vector_registers(); /* the key's bytes went through them */
  return st;
}

/* ---- Writing ---------------------------------------------------------------------------------- */

static const uint8_t k_version0[] = {DER_INTEGER, 1, 0};
static const uint8_t k_version1[] = {DER_INTEGER, 1, 1};

/* What a key's encodings are made of: the curve's identifier, d (nb octets, secret; NULL for a
 * public key) and the uncompressed point. */
typedef struct ec_parts {
  const curve_oid *oid;
  const uint8_t *d;
  size_t nb;
  const uint8_t *pt;
  size_t pt_len;
} ec_parts;

static size_t oid_len(const curve_oid *o) { return 2 + o->len; }

/* AlgorithmIdentifier { id-ecPublicKey, namedCurve }: always under 128 bytes. */
static size_t alg_body_len(const ec_parts *k) { return 2 + sizeof k_oid_ec_public_key + oid_len(k->oid); }

static void put_algorithm(der_out *w, const ec_parts *k) {
  der_put_header(w, DER_SEQUENCE, alg_body_len(k));
  der_put_header(w, DER_OID, sizeof k_oid_ec_public_key);
  der_put_bytes(w, k_oid_ec_public_key, sizeof k_oid_ec_public_key);
  der_put_header(w, DER_OID, k->oid->len);
  der_put_bytes(w, k->oid->oid, k->oid->len);
}

/* The BIT STRING of the point, with its "no unused bits" byte. */
static size_t bits_len(const ec_parts *k) { return der_header_len(1 + k->pt_len) + 1 + k->pt_len; }

static void put_bits(der_out *w, const ec_parts *k) {
  der_put_header(w, DER_BIT_STRING, 1 + k->pt_len);
  der_put_byte(w, 0);
  der_put_bytes(w, k->pt, k->pt_len);
}

/* The body of ECPrivateKey, with or without the parameters [0]. */
static size_t sec1_body_len(const ec_parts *k, bool params) {
  size_t n = sizeof k_version1 + der_header_len(k->nb) + k->nb;
  if (params) n += der_header_len(oid_len(k->oid)) + oid_len(k->oid);
  return n + der_header_len(bits_len(k)) + bits_len(k);
}

static void put_sec1(der_out *w, const ec_parts *k, bool params) {
  der_put_header(w, DER_SEQUENCE, sec1_body_len(k, params));
  der_put_bytes(w, k_version1, sizeof k_version1);
  der_put_header(w, DER_OCTET_STRING, k->nb);
  der_put_bytes(w, k->d, k->nb);
  if (params) {
    der_put_header(w, DER_CONTEXT_0, oid_len(k->oid));
    der_put_header(w, DER_OID, k->oid->len);
    der_put_bytes(w, k->oid->oid, k->oid->len);
  }
  der_put_header(w, DER_CONTEXT_1, bits_len(k));
  put_bits(w, k);
}

/* write_key writes |format| of |k| as OpenSSL 3 does (i2d_ECPrivateKey, i2d_PKCS8_PRIV_KEY_INFO,
 * i2d_PUBKEY with named curves and uncompressed points). */
static void write_key(der_out *w, fm_key_format format, const ec_parts *k) {
  const size_t alg = der_header_len(alg_body_len(k)) + alg_body_len(k);
  switch (format) {
    case FM_KEY_SEC1_PRIVATE: put_sec1(w, k, true); break;
    case FM_KEY_PKCS8_PRIVATE: {
      /* OpenSSL leaves the parameters out of the inner key: the algorithm identifier has them. */
      const size_t inner = der_header_len(sec1_body_len(k, false)) + sec1_body_len(k, false);
      der_put_header(w, DER_SEQUENCE, sizeof k_version0 + alg + der_header_len(inner) + inner);
      der_put_bytes(w, k_version0, sizeof k_version0);
      put_algorithm(w, k);
      der_put_header(w, DER_OCTET_STRING, inner);
      put_sec1(w, k, false);
      break;
    }
    default: /* FM_KEY_SPKI_PUBLIC */
      der_put_header(w, DER_SEQUENCE, alg + bits_len(k));
      put_algorithm(w, k);
      put_bits(w, k);
      break;
  }
}

static const char *label_of(fm_key_format format) {
  switch (format) {
    case FM_KEY_SEC1_PRIVATE: return "EC PRIVATE KEY";
    case FM_KEY_PKCS8_PRIVATE: return "PRIVATE KEY";
    default: return "PUBLIC KEY";
  }
}

static int ec_key_encode_impl(const fm_ec_key *key, fm_key_format format, fm_key_encoding encoding,
                              uint8_t *out, size_t out_cap, size_t *out_len) {
  int st = fm_service_gate();
  if (st == FM_OK && (!ec_key_valid(key) || out_len == NULL || (out == NULL && out_cap > 0) ||
                      (format != FM_KEY_SEC1_PRIVATE && format != FM_KEY_PKCS8_PRIVATE &&
                       format != FM_KEY_SPKI_PUBLIC) ||
                      (encoding != FM_KEY_DER && encoding != FM_KEY_PEM)))
    st = FM_ERR_BAD_ARGUMENT;
  const bool priv = format == FM_KEY_SEC1_PRIVATE || format == FM_KEY_PKCS8_PRIVATE;
  if (st == FM_OK && priv && !key->has_private) st = FM_ERR_BAD_KEY;
  if (out_len != NULL) *out_len = 0;
  if (st != FM_OK) return fm_refuse(st, out, out == NULL ? 0 : out_cap);

  uint8_t d[FM_EC_MAX_BYTES], pt[FM_EC_MAX_POINT_BYTES];
  size_t nb = 0, pt_len = 0;
  uint8_t *der = NULL;
  size_t der_cap = 0;
  const curve_oid *oid = curve_oid_of(key->curve->id);
  if (oid == NULL) st = FM_ERR_INTERNAL; /* every curve of the module has its identifier */
  if (st == FM_OK) st = fm_ec_key_export_public(key, 0, pt, sizeof pt, &pt_len);
  if (st == FM_OK && priv) st = fm_ec_key_export_private(key, d, sizeof d, &nb);
  if (st == FM_OK) {
    const ec_parts parts = {oid, priv ? d : NULL, nb, pt, pt_len};
    der_out measure = {NULL, 0};
    write_key(&measure, format, &parts);
    der_cap = measure.len;
    const size_t need = encoding == FM_KEY_DER ? der_cap : pem_len(der_cap, label_of(format));
    *out_len = need;
    if (out == NULL && out_cap == 0) {
      st = FM_OK; /* a length query */
    } else if (out_cap < need) {
      st = FM_ERR_BUFFER_TOO_SMALL;
    } else if (encoding == FM_KEY_DER) {
      der_out w = {out, 0};
      write_key(&w, format, &parts);
    } else {
      der = malloc(der_cap);
      if (der == NULL) {
        st = FM_ERR_NO_MEMORY;
      } else {
        der_out w = {der, 0};
        write_key(&w, format, &parts);
        pem_write(der, der_cap, label_of(format), out);
      }
    }
  }
  if (der != NULL) {
    fm_zeroize(der, der_cap);
    free(der);
  }
  fm_zeroize(d, sizeof d);
  if (st != FM_OK) {
    const size_t keep = st == FM_ERR_BUFFER_TOO_SMALL ? *out_len : 0;
    fm_refuse(st, out, out_cap);
    *out_len = keep;
    return st;
  }
  return FM_OK;
}

int fm_ec_key_encode(const fm_ec_key *key, fm_key_format format, fm_key_encoding encoding,
                     uint8_t *out, size_t out_cap, size_t *out_len) {
  const int st = ec_key_encode_impl(key, format, encoding, out, out_cap, out_len);
  fm_wipe_vector_registers(); /* the key's bytes went through them */
  return st;
}
