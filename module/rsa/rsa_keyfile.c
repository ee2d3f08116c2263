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
 * searching the input for text: a search would compare every secret DER byte with '-'. In PEM,
 * the armour is located from the outside in: the "-----BEGIN " line by a forward scan over the
 * explanatory text before it (public), the "-----END " line by a backward scan from the end over
 * trailing white space and the label (public); the base64 body between them is only ever read by
 * the decoder, which computes each character's value and validity with range masks (no table
 * indexed by a secret, no branch on it) and declassifies only which characters are white space
 * or padding (the line structure) and, at the end, whether the whole body was well formed. Every
 * buffer that held a private encoding is zeroized before it is freed. */
#include <stdlib.h>

#include "fipsmod/keyfile.h"
#include "module/internal.h"

/* ---- DER reading ------------------------------------------------------------------------------
 * A der_span is the unread part of a DER encoding. Each reader takes one element off its front. */

typedef struct der_span {
  const uint8_t *p;
  size_t n;
} der_span;

enum {
  DER_INTEGER = 0x02,
  DER_BIT_STRING = 0x03,
  DER_OCTET_STRING = 0x04,
  DER_NULL = 0x05,
  DER_OID = 0x06,
  DER_SEQUENCE = 0x30,
};

/* Lengths beyond this are refused: the largest key the module takes (16384 bits) encodes in
 * about 20 KiB. Bounds every allocation the decoder makes. */
#define KEYFILE_MAX_DER (64u * 1024u)

/* der_peek_tag returns the tag of the next element, or -1 at the end. */
static int der_peek_tag(const der_span *s) {
  if (s->n == 0) return -1;
  fm_declassify(s->p, 1); /* structure */
  return s->p[0];
}

/* der_get takes an element with tag |tag| off |s| and returns its contents in |body| (X.690
 * 8.1.3: definite lengths only, in the fewest bytes; DER 10.1). */
static int der_get(der_span *s, uint8_t tag, der_span *body) {
  if (s->n < 2) return FM_ERR_PARSE;
  fm_declassify(s->p, s->n < 5 ? s->n : 5); /* the tag and length bytes: structure */
  if (s->p[0] != tag) return FM_ERR_PARSE;
  size_t len, hdr;
  uint8_t b = s->p[1];
  if (b < 0x80) {
    len = b;
    hdr = 2;
  } else {
    size_t nb = b & 0x7fu;
    /* 0x80 is the indefinite form (BER only); over 3 bytes of length exceeds KEYFILE_MAX_DER. */
    if (nb == 0 || nb > 3 || s->n < 2 + nb || s->p[2] == 0) return FM_ERR_PARSE;
    len = 0;
    for (size_t i = 0; i < nb; i++) len = (len << 8) | s->p[2 + i];
    if (len < 0x80) return FM_ERR_PARSE; /* the short form was required */
    hdr = 2 + nb;
  }
  if (len > s->n - hdr) return FM_ERR_PARSE;
  body->p = s->p + hdr;
  body->n = len;
  s->p += hdr + len;
  s->n -= hdr + len;
  return FM_OK;
}

/* der_get_uint takes a non-negative INTEGER off |s| and returns its big-endian magnitude (without
 * the sign byte) in |out|. X.690 8.3.2: the first nine bits are not all equal. */
static int der_get_uint(der_span *s, der_span *out) {
  der_span v;
  int st = der_get(s, DER_INTEGER, &v);
  if (st != FM_OK) return st;
  if (v.n == 0) return FM_ERR_PARSE;
  fm_declassify(v.p, v.n < 2 ? v.n : 2); /* the first byte (and the one after a sign byte) */
  if ((v.p[0] & 0x80) != 0) return FM_ERR_PARSE; /* negative */
  if (v.n > 1 && v.p[0] == 0) {
    if ((v.p[1] & 0x80) == 0) return FM_ERR_PARSE; /* a leading zero that is not a sign byte */
    v.p++;
    v.n--;
  }
  *out = v;
  return FM_OK;
}

/* der_get_version takes an INTEGER that must equal |want| (a version number) off |s|. */
static int der_get_version(der_span *s, uint8_t want) {
  der_span v;
  int st = der_get(s, DER_INTEGER, &v);
  if (st != FM_OK) return st;
  if (v.n != 1) return FM_ERR_PARSE;
  fm_declassify(v.p, 1);
  return v.p[0] == want ? FM_OK : FM_ERR_UNSUPPORTED;
}

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
  fm_declassify(oid.p, oid.n); /* the algorithm is public */
  if (oid.n != sizeof k_oid_rsa_encryption ||
      fm_ct_memeq(oid.p, k_oid_rsa_encryption, oid.n) == 0)
    return FM_ERR_UNSUPPORTED;
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

enum key_kind { KIND_UNKNOWN, KIND_PKCS1_PRIVATE, KIND_PKCS8, KIND_PKCS1_PUBLIC, KIND_SPKI };

/* der_shape tells the four structures apart by their first elements (all public structure):
 * SPKI opens with a SEQUENCE; PKCS#8 with INTEGER 0 and a SEQUENCE; RSAPrivateKey with INTEGER 0
 * and INTEGERs; RSAPublicKey with exactly two INTEGERs. */
static enum key_kind der_shape(der_span der) {
  der_span seq, first;
  if (der_get(&der, DER_SEQUENCE, &seq) != FM_OK) return KIND_UNKNOWN;
  if (der_peek_tag(&seq) == DER_SEQUENCE) return KIND_SPKI;
  if (der_get(&seq, DER_INTEGER, &first) != FM_OK) return KIND_UNKNOWN;
  if (der_peek_tag(&seq) == DER_SEQUENCE) return KIND_PKCS8;
  der_span second;
  if (der_get(&seq, DER_INTEGER, &second) != FM_OK) return KIND_UNKNOWN;
  if (seq.n == 0) return KIND_PKCS1_PUBLIC;
  return KIND_PKCS1_PRIVATE;
}

static int import_private(der_span rsa_private_key, fm_rsa_key **key) {
  fm_rsa_private_components c;
  int st = parse_pkcs1_private(rsa_private_key, &c);
  if (st == FM_OK) st = fm_rsa_key_import_private(&c, key);
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
static int import_der(der_span der, enum key_kind kind, fm_rsa_key **key) {
  der_span inner;
  int st;
  switch (kind) {
    case KIND_PKCS1_PRIVATE: return import_private(der, key);
    case KIND_PKCS8:
      st = parse_pkcs8(der, &inner);
      return st == FM_OK ? import_private(inner, key) : st;
    case KIND_PKCS1_PUBLIC: return import_public(der, key);
    case KIND_SPKI:
      st = parse_spki(der, &inner);
      return st == FM_OK ? import_public(inner, key) : st;
    case KIND_UNKNOWN: break;
  }
  return FM_ERR_PARSE;
}

/* ---- PEM (RFC 7468) ---------------------------------------------------------------------------
 * Base64 (RFC 4648 4) without tables: a character's 6-bit value, and whether it is one, come from
 * range masks, so a private key's text never indexes memory. */

/* b64_value returns the value of |c| (0..63) and sets *valid to all-ones when c is a base64
 * character, else 0. Branch-free in c. */
static uint32_t b64_value(uint8_t c, uint32_t *valid) {
  uint32_t x = c;
  /* in_range is all-ones when lo <= x <= hi: two borrows, no compare. */
#define IN_RANGE(lo, hi) \
  ((uint32_t)ct_lt_u64((uint64_t)x, (uint64_t)(hi) + 1) & ~(uint32_t)ct_lt_u64((uint64_t)x, (lo)))
  uint32_t upper = IN_RANGE('A', 'Z'), lower = IN_RANGE('a', 'z'), digit = IN_RANGE('0', '9');
  uint32_t plus = ct_eq_u32(x, '+'), slash = ct_eq_u32(x, '/');
#undef IN_RANGE
  *valid = upper | lower | digit | plus | slash;
  return (upper & (x - 'A')) | (lower & (x - 'a' + 26)) | (digit & (x - '0' + 52)) | (plus & 62u) |
         (slash & 63u);
}

/* b64_char returns the base64 character of the 6-bit value v, branch-free in v. */
static uint8_t b64_char(uint32_t v) {
  uint32_t lt26 = (uint32_t)ct_lt_u64(v, 26), lt52 = (uint32_t)ct_lt_u64(v, 52);
  uint32_t lt62 = (uint32_t)ct_lt_u64(v, 62), is62 = ct_eq_u32(v, 62), is63 = ct_eq_u32(v, 63);
  uint32_t c = (lt26 & (v + 'A')) | (~lt26 & lt52 & (v - 26 + 'a')) |
               (~lt52 & lt62 & (v - 52 + '0')) | (is62 & '+') | (is63 & '/');
  return (uint8_t)c;
}

static bool is_space(uint8_t c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

/* public_byte returns in[i], declassified: the armour scans read only bytes of the armour and of
 * the text around it, which are public. */
static uint8_t public_byte(const uint8_t *in, size_t i) {
  fm_declassify(in + i, 1);
  return in[i];
}

/* at returns true when |s| (nlen bytes) is at in[i..), reading (and declassifying) the input only
 * up to the first difference. */
static bool at(const uint8_t *in, size_t len, size_t i, const char *s, size_t nlen) {
  if (i > len || len - i < nlen) return false;
  for (size_t k = 0; k < nlen; k++)
    if (public_byte(in, i + k) != (uint8_t)s[k]) return false;
  return true;
}

static bool text_eq(const uint8_t *p, size_t n, const char *s) {
  size_t i = 0;
  for (; i < n && s[i] != '\0'; i++)
    if (p[i] != (uint8_t)s[i]) return false;
  return i == n && s[i] == '\0';
}

/* The PEM labels, in the order of fm_key_format: rows of characters, not pointers, so that the
 * table is constant data in .rodata. */
static const char k_labels[][16] = {"RSA PRIVATE KEY", "PRIVATE KEY", "RSA PUBLIC KEY",
                                    "PUBLIC KEY"};

/* pem_decode finds the one PEM block of |in|, checks its label, and decodes its base64 body into
 * a new buffer (*der, *der_len; the caller zeroizes and frees it). *kind says which structure the
 * label names. The armour is found from the outside in (see the top of this file). */
static int pem_decode(const uint8_t *in, size_t len, uint8_t **der, size_t *der_len,
                      enum key_kind *kind) {
  static const char begin[] = "-----BEGIN ", end[] = "-----END ", dashes[] = "-----";
  /* The BEGIN line: the first "-----BEGIN " (RFC 7468 2: text before it is ignored). */
  size_t b = 0;
  while (b + sizeof begin - 1 <= len && !at(in, len, b, begin, sizeof begin - 1)) b++;
  if (b + sizeof begin - 1 > len) return FM_ERR_PARSE;
  const size_t label = b + sizeof begin - 1;
  size_t le = label;
  while (le < len && le - label <= 64 && public_byte(in, le) != '-') le++;
  if (!at(in, len, le, dashes, sizeof dashes - 1)) return FM_ERR_PARSE;
  const size_t label_len = le - label;
  int which = -1;
  for (int i = 0; i < 4; i++)
    if (text_eq(in + label, label_len, k_labels[i])) which = i;
  if (which < 0) {
    /* Well-formed PEM of something else (a certificate, an encrypted key, another algorithm). */
    return FM_ERR_UNSUPPORTED;
  }
  const size_t body = le + sizeof dashes - 1;
  /* The END line, from the end: white space, "-----", the label, "-----END ". */
  size_t t = len;
  while (t > body && is_space(public_byte(in, t - 1))) t--;
  const size_t end_len = sizeof end - 1 + label_len + sizeof dashes - 1;
  if (t - body < end_len) return FM_ERR_PARSE;
  const size_t e = t - end_len;
  if (!at(in, len, e, end, sizeof end - 1) ||
      !at(in, len, e + sizeof end - 1, k_labels[which], label_len) ||
      !at(in, len, t - (sizeof dashes - 1), dashes, sizeof dashes - 1)) {
    return FM_ERR_PARSE;
  }
  /* Legacy OpenSSL encryption (RFC 1421 headers, "Proc-Type: 4,ENCRYPTED") is not offered. The
   * first bytes of the body are compared in constant time: in a key they are base64 of its DER
   * header, but only the verdict is released. */
  {
    static const char proc[] = "Proc-Type:";
    size_t h = body;
    while (h < e && is_space(public_byte(in, h))) h++;
    if (e - h >= sizeof proc - 1 &&
        fm_declassify_u64((uint64_t)fm_ct_memeq(in + h, proc, sizeof proc - 1)) != 0) {
      return FM_ERR_UNSUPPORTED;
    }
  }

  const size_t text_len = e - body;
  if (text_len / 4 * 3 > KEYFILE_MAX_DER) return FM_ERR_PARSE;
  uint8_t *out = malloc(text_len / 4 * 3 + 3);
  if (out == NULL) return FM_ERR_NO_MEMORY;
  uint32_t bad = 0, acc = 0;
  size_t nchars = 0, npad = 0, o = 0;
  for (size_t i = body; i < e; i++) {
    uint8_t c = in[i];
    /* Line structure is public: which bytes are white space or padding is declassified. */
    uint32_t space = ct_eq_u32(c, ' ') | ct_eq_u32(c, '\t') | ct_eq_u32(c, '\r') | ct_eq_u32(c, '\n');
    uint32_t pad = ct_eq_u32(c, '=');
    fm_declassify(&space, sizeof space);
    fm_declassify(&pad, sizeof pad);
    if (space) continue;
    if (pad) {
      npad++;
      continue;
    }
    uint32_t valid;
    uint32_t v = b64_value(c, &valid);
    bad |= ~valid;
    bad |= (uint32_t)(npad != 0); /* data after padding */
    acc = (acc << 6) | (v & 63u);
    nchars++;
    if (nchars % 4 == 0) {
      out[o++] = (uint8_t)(acc >> 16);
      out[o++] = (uint8_t)(acc >> 8);
      out[o++] = (uint8_t)acc;
      acc = 0;
    }
  }
  /* RFC 4648 3.5: the final quantum is 2 or 3 characters with 2 or 1 '=', or none. */
  size_t rem = nchars % 4;
  if ((rem == 0 && npad != 0) || rem == 1 || (rem == 2 && npad != 2) || (rem == 3 && npad != 1))
    bad = 1;
  if (rem == 2) {
    out[o++] = (uint8_t)(acc >> 4);
    bad |= acc & 0xfu; /* the unused bits must be zero (canonical encoding) */
  } else if (rem == 3) {
    out[o++] = (uint8_t)(acc >> 10);
    out[o++] = (uint8_t)(acc >> 2);
    bad |= acc & 0x3u;
  }
  acc = 0;
  fm_declassify(&bad, sizeof bad); /* whether the text is well-formed is public */
  if (bad != 0 || o == 0) {
    fm_zeroize(out, text_len / 4 * 3 + 3);
    free(out);
    return FM_ERR_PARSE;
  }
  static const enum key_kind kinds[] = {KIND_PKCS1_PRIVATE, KIND_PKCS8, KIND_PKCS1_PUBLIC,
                                        KIND_SPKI};
  *kind = kinds[which];
  *der = out;
  *der_len = o;
  return FM_OK;
}

int fm_rsa_key_decode(const uint8_t *in, size_t in_len, fm_rsa_key **key) {
  int st = fm_service_gate();
  if (st == FM_OK && (key == NULL || (in == NULL && in_len > 0))) st = FM_ERR_BAD_ARGUMENT;
  if (key != NULL) *key = NULL;
  if (st != FM_OK) return fm_refuse(st, NULL, 0);
  /* DER opens with a SEQUENCE; anything else is read as PEM (see the top of this file). */
  if (in_len > 0 && public_byte(in, 0) != DER_SEQUENCE) {
    uint8_t *der = NULL;
    size_t der_len = 0;
    enum key_kind kind = KIND_UNKNOWN;
    st = pem_decode(in, in_len, &der, &der_len, &kind);
    if (st != FM_OK) return fm_refuse(st, NULL, 0);
    /* The label named the structure; the DER must be that structure. */
    st = import_der((der_span){der, der_len}, kind, key);
    fm_zeroize(der, der_len);
    free(der);
  } else {
    if (in_len > KEYFILE_MAX_DER) return fm_refuse(FM_ERR_PARSE, NULL, 0);
    der_span der = {in, in_len};
    st = import_der(der, der_shape(der), key);
  }
  if (st != FM_OK) {
    if (key != NULL) *key = NULL;
    return fm_refuse(st, NULL, 0);
  }
  return FM_OK;
}

/* ---- DER writing --------------------------------------------------------------------------
 * The writer runs twice over the same calls: once with out NULL to measure, once to write. */

typedef struct der_out {
  uint8_t *p;  /* NULL while measuring */
  size_t len;  /* bytes written (or measured) so far */
} der_out;

static void put_byte(der_out *w, uint8_t b) {
  if (w->p) w->p[w->len] = b;
  w->len++;
}

static void put_bytes(der_out *w, const uint8_t *b, size_t n) {
  if (w->p)
    for (size_t i = 0; i < n; i++) w->p[w->len + i] = b[i];
  w->len += n;
}

/* put_header writes a tag and a DER length. */
static void put_header(der_out *w, uint8_t tag, size_t len) {
  put_byte(w, tag);
  if (len < 0x80) {
    put_byte(w, (uint8_t)len);
  } else if (len < 0x100) {
    put_byte(w, 0x81);
    put_byte(w, (uint8_t)len);
  } else if (len < 0x10000) {
    put_byte(w, 0x82);
    put_byte(w, (uint8_t)(len >> 8));
    put_byte(w, (uint8_t)len);
  } else {
    put_byte(w, 0x83);
    put_byte(w, (uint8_t)(len >> 16));
    put_byte(w, (uint8_t)(len >> 8));
    put_byte(w, (uint8_t)len);
  }
}

static size_t header_len(size_t len) { return len < 0x80 ? 2 : len < 0x100 ? 3 : len < 0x10000 ? 4 : 5; }

/* A component as exported (fixed length) and the shape of its minimal INTEGER encoding. */
typedef struct der_uint {
  const uint8_t *p; /* the magnitude's first significant byte */
  size_t n;         /* its length (at least 1) */
  bool sign_byte;   /* a 0x00 goes first (the top bit is set) */
} der_uint;

/* der_uint_of finds the minimal INTEGER of the big-endian number at |p| (|len| bytes): the count
 * of leading zero bytes is computed in constant time over the whole buffer, then released, since
 * the encoding states it. */
static der_uint der_uint_of(const uint8_t *p, size_t len) {
  uint64_t seen = 0, zeros = 0;
  for (size_t i = 0; i + 1 < len; i++) {
    seen |= ~ct_is_zero_u64(p[i]);
    zeros += 1 & ~seen;
  }
  fm_declassify(&zeros, sizeof zeros);
  der_uint u = {p + zeros, len - (size_t)zeros, false};
  uint64_t top = (uint64_t)(u.p[0] >> 7);
  fm_declassify(&top, sizeof top);
  u.sign_byte = top != 0;
  return u;
}

static size_t uint_body_len(der_uint u) { return u.n + (u.sign_byte ? 1 : 0); }

static void put_uint(der_out *w, der_uint u) {
  put_header(w, DER_INTEGER, uint_body_len(u));
  if (u.sign_byte) put_byte(w, 0);
  put_bytes(w, u.p, u.n);
}

static size_t uints_len(const der_uint *u, size_t count) {
  size_t total = 0;
  for (size_t i = 0; i < count; i++) total += header_len(uint_body_len(u[i])) + uint_body_len(u[i]);
  return total;
}

/* write_key writes |format| from the components |u| (n, e for public formats; n, e, d, p, q, dp,
 * dq, qinv for private ones). */
static void write_key(der_out *w, fm_key_format format, const der_uint *u) {
  static const uint8_t version0[] = {DER_INTEGER, 1, 0};
  static const uint8_t alg_id[] = {DER_SEQUENCE, 13, DER_OID, 9, 0x2a, 0x86, 0x48, 0x86, 0xf7,
                                   0x0d, 0x01, 0x01, 0x01, DER_NULL, 0};
  const bool priv = format == FM_KEY_PKCS1_PRIVATE || format == FM_KEY_PKCS8_PRIVATE;
  size_t inner_body = priv ? sizeof version0 + uints_len(u, 8) : uints_len(u, 2);
  size_t inner = header_len(inner_body) + inner_body;
  switch (format) {
    case FM_KEY_PKCS8_PRIVATE: {
      size_t body = sizeof version0 + sizeof alg_id + header_len(inner) + inner;
      put_header(w, DER_SEQUENCE, body);
      put_bytes(w, version0, sizeof version0);
      put_bytes(w, alg_id, sizeof alg_id);
      put_header(w, DER_OCTET_STRING, inner);
      break;
    }
    case FM_KEY_SPKI_PUBLIC: {
      size_t body = sizeof alg_id + header_len(inner + 1) + inner + 1;
      put_header(w, DER_SEQUENCE, body);
      put_bytes(w, alg_id, sizeof alg_id);
      put_header(w, DER_BIT_STRING, inner + 1);
      put_byte(w, 0); /* no unused bits */
      break;
    }
    default: break;
  }
  put_header(w, DER_SEQUENCE, inner_body);
  if (priv) put_bytes(w, version0, sizeof version0);
  for (size_t i = 0; i < (priv ? 8u : 2u); i++) put_uint(w, u[i]);
}

/* pem_len is the length of |der_len| bytes as PEM with |label|. */
static size_t pem_len(size_t der_len, const char *label) {
  size_t chars = (der_len + 2) / 3 * 4, lines = (chars + 63) / 64;
  size_t l = 0;
  while (label[l] != '\0') l++;
  return (11 + l + 6) + chars + lines + (9 + l + 6);
}

static void put_text(uint8_t *out, size_t *o, const char *s) {
  for (size_t i = 0; s[i] != '\0'; i++) out[(*o)++] = (uint8_t)s[i];
}

/* pem_write writes |der| as PEM with |label| to |out| (pem_len bytes). */
static void pem_write(const uint8_t *der, size_t der_len, const char *label, uint8_t *out) {
  size_t o = 0, col = 0;
  put_text(out, &o, "-----BEGIN ");
  put_text(out, &o, label);
  put_text(out, &o, "-----\n");
  for (size_t i = 0; i < der_len; i += 3) {
    uint32_t b0 = der[i], b1 = i + 1 < der_len ? der[i + 1] : 0, b2 = i + 2 < der_len ? der[i + 2] : 0;
    uint32_t v = (b0 << 16) | (b1 << 8) | b2;
    uint8_t c[4] = {b64_char(v >> 18), b64_char((v >> 12) & 63u), b64_char((v >> 6) & 63u),
                    b64_char(v & 63u)};
    if (i + 1 >= der_len) c[2] = '=';
    if (i + 2 >= der_len) c[3] = '=';
    for (int k = 0; k < 4; k++) {
      out[o++] = c[k];
      if (++col == 64) {
        out[o++] = '\n';
        col = 0;
      }
    }
    v = b0 = b1 = b2 = 0;
  }
  if (col != 0) out[o++] = '\n';
  put_text(out, &o, "-----END ");
  put_text(out, &o, label);
  put_text(out, &o, "-----\n");
}

int fm_rsa_key_encode(const fm_rsa_key *key, fm_key_format format, fm_key_encoding encoding,
                      uint8_t *out, size_t out_cap, size_t *out_len) {
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
