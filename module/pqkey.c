/* Key files for the lattice schemes: the structure (module/pqkey.h says what is public and what
 * is secret). */
#include "module/pqkey.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "module/internal.h"

/* The tag of the seed alternative: [0] IMPLICIT OCTET STRING, context-specific, primitive. */
#define TAG_SEED 0x80

/* ---- Reading ---------------------------------------------------------------------------------- */

/* get_algorithm takes AlgorithmIdentifier { OID } (parameters ABSENT) off |s| and finds the
 * OID among |shapes|: FM_ERR_UNSUPPORTED for another algorithm, FM_ERR_PARSE for parameters. */
static int get_algorithm(der_span *s, const pqkey_shape *shapes, size_t count, size_t *which) {
  der_span alg, oid;
  int st = der_get(s, DER_SEQUENCE, &alg);
  if (st == FM_OK) st = der_get(&alg, DER_OID, &oid);
  if (st != FM_OK) return st;
  size_t i = 0;
  /* The algorithm is public. */
  while (i < count && !der_equals(oid, shapes[i].oid, shapes[i].oid_len)) i++;
  if (i == count) return FM_ERR_UNSUPPORTED;
  if (alg.n != 0) return FM_ERR_PARSE; /* the documents: parameters ABSENT */
  *which = i;
  return FM_OK;
}

/* get_sized takes an element with |tag| off |s| whose contents must be |len| bytes long. */
static int get_sized(der_span *s, uint8_t tag, size_t len, der_span *body) {
  int st = der_get(s, tag, body);
  if (st == FM_OK && body->n != len) st = FM_ERR_LENGTH;
  return st;
}

/* parse_private reads the private-key CHOICE from the whole of |der| (the content of
 * OneAsymmetricKey's privateKey). The alternative is chosen by its tag (public). */
static int parse_private(der_span der, const pqkey_shape *sh, pqkey_parts *parts) {
  int st;
  switch (der_peek_tag(&der)) {
    case TAG_SEED:
      parts->format = FM_KEY_PKCS8_PRIVATE;
      st = get_sized(&der, TAG_SEED, sh->seed_len, &parts->seed);
      break;
    case DER_OCTET_STRING:
      parts->format = FM_KEY_PKCS8_EXPANDED;
      st = get_sized(&der, DER_OCTET_STRING, sh->expanded_len, &parts->expanded);
      break;
    case DER_SEQUENCE: {
      der_span both;
      parts->format = FM_KEY_PKCS8_BOTH;
      st = der_get(&der, DER_SEQUENCE, &both);
      if (st == FM_OK) st = get_sized(&both, DER_OCTET_STRING, sh->seed_len, &parts->seed);
      if (st == FM_OK)
        st = get_sized(&both, DER_OCTET_STRING, sh->expanded_len, &parts->expanded);
      if (st == FM_OK && both.n != 0) st = FM_ERR_PARSE;
      break;
    }
    default: return FM_ERR_PARSE;
  }
  if (st == FM_OK && der.n != 0) st = FM_ERR_PARSE;
  return st;
}

/* decode_pkcs8 reads OneAsymmetricKey version 0 (RFC 5958 2) without attributes. */
static int decode_pkcs8(der_span der, const pqkey_shape *shapes, size_t count, size_t *which,
                        pqkey_parts *parts) {
  der_span seq, inner;
  int st = der_get(&der, DER_SEQUENCE, &seq), version = FM_OK;
  if (st == FM_OK && der.n != 0) st = FM_ERR_PARSE;
  /* A later version (v2, with a publicKey) is FM_ERR_UNSUPPORTED once the v1 fields are there. */
  if (st == FM_OK && (version = der_get_version(&seq, 0)) == FM_ERR_PARSE) st = version;
  if (st == FM_OK) st = get_algorithm(&seq, shapes, count, which);
  if (st == FM_OK) st = der_get(&seq, DER_OCTET_STRING, &inner);
  if (st == FM_OK) st = version;
  /* [0] attributes would follow here; the module takes none. */
  if (st == FM_OK && seq.n != 0)
    st = der_peek_tag(&seq) == DER_CONTEXT_0 ? FM_ERR_UNSUPPORTED : FM_ERR_PARSE;
  if (st == FM_OK) st = parse_private(inner, &shapes[*which], parts);
  return st;
}

/* decode_spki reads SubjectPublicKeyInfo with the public key as the BIT STRING's content (no
 * unused bits, X.690 8.6.2). */
static int decode_spki(der_span der, const pqkey_shape *shapes, size_t count, size_t *which,
                       pqkey_parts *parts) {
  der_span seq, bits;
  int st = der_get(&der, DER_SEQUENCE, &seq);
  if (st == FM_OK && der.n != 0) st = FM_ERR_PARSE;
  if (st == FM_OK) st = get_algorithm(&seq, shapes, count, which);
  if (st == FM_OK) st = der_get(&seq, DER_BIT_STRING, &bits);
  if (st == FM_OK && seq.n != 0) st = FM_ERR_PARSE;
  if (st != FM_OK) return st;
  fm_declassify(bits.p, bits.n); /* a public key */
  if (bits.n < 1 || bits.p[0] != 0) return FM_ERR_PARSE;
  if (bits.n - 1 != shapes[*which].public_len) return FM_ERR_LENGTH;
  parts->format = FM_KEY_SPKI_PUBLIC;
  parts->pub = (der_span){bits.p + 1, bits.n - 1};
  return FM_OK;
}

enum key_kind { KIND_UNKNOWN, KIND_PKCS8, KIND_SPKI };

/* der_shape tells the two structures apart by their first element (public structure): SPKI
 * opens with a SEQUENCE, OneAsymmetricKey with an INTEGER. */
static enum key_kind der_shape(der_span der) {
  der_span seq;
  if (der_get(&der, DER_SEQUENCE, &seq) != FM_OK) return KIND_UNKNOWN;
  switch (der_peek_tag(&seq)) {
    case DER_SEQUENCE: return KIND_SPKI;
    case DER_INTEGER: return KIND_PKCS8;
    default: return KIND_UNKNOWN;
  }
}

static int decode_der(der_span der, enum key_kind kind, const pqkey_shape *shapes, size_t count,
                      size_t *which, pqkey_parts *parts) {
  switch (kind) {
    case KIND_PKCS8: return decode_pkcs8(der, shapes, count, which, parts);
    case KIND_SPKI: return decode_spki(der, shapes, count, which, parts);
    case KIND_UNKNOWN: break;
  }
  return FM_ERR_PARSE;
}

static const pem_label k_labels[] = {"PRIVATE KEY", "PUBLIC KEY"};
static const enum key_kind k_label_kinds[] = {KIND_PKCS8, KIND_SPKI};

int pqkey_decode(const uint8_t *in, size_t in_len, const pqkey_shape *shapes, size_t count,
                 size_t *which, pqkey_parts *parts, uint8_t **buf, size_t *buf_len) {
  int st;
  memset(parts, 0, sizeof *parts);
  *buf = NULL;
  *buf_len = 0;
  /* DER opens with a SEQUENCE; anything else is read as PEM (never a search of DER for text). */
  if (in_len > 0 && pem_public_byte(in, 0) != DER_SEQUENCE) {
    uint8_t *der = NULL;
    size_t der_len = 0, label = 0;
    st = pem_decode(in, in_len, k_labels, sizeof k_labels / sizeof k_labels[0], NULL, &der,
                    &der_len, &label);
    if (st != FM_OK) return st;
    /* The label named the structure; the DER must be that structure. */
    st = decode_der((der_span){der, der_len}, k_label_kinds[label], shapes, count, which, parts);
    if (st != FM_OK) {
      fm_zeroize(der, der_len);
      free(der);
      memset(parts, 0, sizeof *parts);
      return st;
    }
    *buf = der;
    *buf_len = der_len;
    return FM_OK;
  }
  if (in_len > DER_MAX_LEN) return FM_ERR_PARSE;
  const der_span der = {in, in_len};
  st = decode_der(der, der_shape(der), shapes, count, which, parts);
  if (st != FM_OK) memset(parts, 0, sizeof *parts);
  return st;
}

/* ---- Writing ---------------------------------------------------------------------------------- */

static const uint8_t k_version0[] = {DER_INTEGER, 1, 0};

static size_t element_len(size_t body) { return der_header_len(body) + body; }

/* AlgorithmIdentifier { OID }: under 128 bytes. */
static size_t alg_len(const pqkey_shape *sh) { return element_len(element_len(sh->oid_len)); }

static void put_algorithm(der_out *w, const pqkey_shape *sh) {
  der_put_header(w, DER_SEQUENCE, element_len(sh->oid_len));
  der_put_header(w, DER_OID, sh->oid_len);
  der_put_bytes(w, sh->oid, sh->oid_len);
}

/* The private-key CHOICE of |format|. */
static size_t choice_len(const pqkey_shape *sh, fm_key_format format) {
  switch (format) {
    case FM_KEY_PKCS8_PRIVATE: return element_len(sh->seed_len);
    case FM_KEY_PKCS8_EXPANDED: return element_len(sh->expanded_len);
    default: /* FM_KEY_PKCS8_BOTH */
      return element_len(element_len(sh->seed_len) + element_len(sh->expanded_len));
  }
}

static void put_choice(der_out *w, const pqkey_shape *sh, fm_key_format format,
                       const uint8_t *seed, const uint8_t *expanded) {
  switch (format) {
    case FM_KEY_PKCS8_PRIVATE:
      der_put_header(w, TAG_SEED, sh->seed_len);
      der_put_bytes(w, seed, sh->seed_len);
      break;
    case FM_KEY_PKCS8_EXPANDED:
      der_put_header(w, DER_OCTET_STRING, sh->expanded_len);
      der_put_bytes(w, expanded, sh->expanded_len);
      break;
    default: /* FM_KEY_PKCS8_BOTH */
      der_put_header(w, DER_SEQUENCE, element_len(sh->seed_len) + element_len(sh->expanded_len));
      der_put_header(w, DER_OCTET_STRING, sh->seed_len);
      der_put_bytes(w, seed, sh->seed_len);
      der_put_header(w, DER_OCTET_STRING, sh->expanded_len);
      der_put_bytes(w, expanded, sh->expanded_len);
      break;
  }
}

static void write_key(der_out *w, const pqkey_shape *sh, fm_key_format format,
                      const uint8_t *seed, const uint8_t *expanded, const uint8_t *pub) {
  if (format == FM_KEY_SPKI_PUBLIC) {
    der_put_header(w, DER_SEQUENCE, alg_len(sh) + element_len(1 + (size_t)sh->public_len));
    put_algorithm(w, sh);
    der_put_header(w, DER_BIT_STRING, 1 + (size_t)sh->public_len);
    der_put_byte(w, 0); /* no unused bits */
    der_put_bytes(w, pub, sh->public_len);
    return;
  }
  const size_t choice = choice_len(sh, format);
  der_put_header(w, DER_SEQUENCE, sizeof k_version0 + alg_len(sh) + element_len(choice));
  der_put_bytes(w, k_version0, sizeof k_version0);
  put_algorithm(w, sh);
  der_put_header(w, DER_OCTET_STRING, choice);
  put_choice(w, sh, format, seed, expanded);
}

int pqkey_encode(const pqkey_shape *shape, fm_key_format format, const uint8_t *seed,
                 const uint8_t *expanded, const uint8_t *pub, fm_key_encoding encoding,
                 uint8_t *out, size_t out_cap, size_t *out_len) {
  const char *label = format == FM_KEY_SPKI_PUBLIC ? "PUBLIC KEY" : "PRIVATE KEY";
  der_out measure = {NULL, 0};
  write_key(&measure, shape, format, seed, expanded, pub);
  const size_t der_len = measure.len;
  const size_t need = encoding == FM_KEY_DER ? der_len : pem_len(der_len, label);
  *out_len = need;
  if (out == NULL && out_cap == 0) return FM_OK; /* a length query */
  if (out_cap < need) return FM_ERR_BUFFER_TOO_SMALL;
  if (encoding == FM_KEY_DER) {
    der_out w = {out, 0};
    write_key(&w, shape, format, seed, expanded, pub);
    return FM_OK;
  }
  uint8_t *der = malloc(der_len);
  if (der == NULL) return FM_ERR_NO_MEMORY;
  der_out w = {der, 0};
  write_key(&w, shape, format, seed, expanded, pub);
  pem_write(der, der_len, label, out);
  fm_zeroize(der, der_len);
  free(der);
  return FM_OK;
}

/* ---- The services' common part ----------------------------------------------------------------
 * fm_mlkem_key_decode/_encode and fm_mldsa_key_decode/_encode differ only in their parameter
 * tables and in how they derive and check key material; the argument checks, the buffers, the
 * wiping and the refusals are here, once. */

static int pqkey_decode_service_impl(const uint8_t *in, size_t in_len, const pqkey_shape *shapes,
                                     size_t count, pqkey_derive_fn derive, bool param_given,
                                     size_t *which, fm_key_format *format, uint8_t *seed,
                                     size_t seed_cap, uint8_t *expanded, size_t expanded_cap,
                                     uint8_t *pub, size_t pub_cap) {
  int st = fm_service_gate();
  if (st == FM_OK && (!param_given || format == NULL || (in == NULL && in_len > 0) ||
                      (seed == NULL && seed_cap > 0) ||
                      (expanded == NULL && expanded_cap > 0) || (pub == NULL && pub_cap > 0)))
    st = FM_ERR_BAD_ARGUMENT;
  if (st == FM_OK && (fm_buffers_overlap(in, in_len, seed, seed_cap) ||
                      fm_buffers_overlap(in, in_len, expanded, expanded_cap) ||
                      fm_buffers_overlap(in, in_len, pub, pub_cap) ||
                      fm_buffers_overlap(seed, seed_cap, expanded, expanded_cap) ||
                      fm_buffers_overlap(seed, seed_cap, pub, pub_cap) ||
                      fm_buffers_overlap(expanded, expanded_cap, pub, pub_cap)))
    st = FM_ERR_OVERLAP;
  if (format != NULL) *format = (fm_key_format)0;

  size_t buf_len = 0;
  uint8_t *buf = NULL;
  pqkey_parts parts;
  memset(&parts, 0, sizeof parts);
  *which = 0;
  if (st == FM_OK) st = pqkey_decode(in, in_len, shapes, count, which, &parts, &buf, &buf_len);
  const pqkey_shape *sh = &shapes[*which];
  if (st == FM_OK && ((seed != NULL && seed_cap < sh->seed_len) ||
                      (expanded != NULL && expanded_cap < sh->expanded_len) ||
                      (pub != NULL && pub_cap < sh->public_len)))
    st = FM_ERR_BUFFER_TOO_SMALL;

  uint8_t pub_buf[PQKEY_MAX_PUBLIC], expanded_buf[PQKEY_MAX_EXPANDED];
  if (st == FM_OK) st = derive(*which, &parts, pub_buf, expanded_buf);
  if (st == FM_OK) {
    const bool priv = parts.format != FM_KEY_SPKI_PUBLIC;
    const bool has_seed = parts.format == FM_KEY_PKCS8_PRIVATE || parts.format == FM_KEY_PKCS8_BOTH;
    if (seed != NULL) fm_zeroize(seed, seed_cap);
    if (expanded != NULL) fm_zeroize(expanded, expanded_cap);
    if (seed != NULL && has_seed) memcpy(seed, parts.seed.p, sh->seed_len);
    if (expanded != NULL && priv) memcpy(expanded, expanded_buf, sh->expanded_len);
    if (pub != NULL) memcpy(pub, pub_buf, sh->public_len);
    *format = parts.format;
  }
  fm_zeroize(expanded_buf, sizeof expanded_buf);
  fm_zeroize(&parts, sizeof parts);
  if (buf != NULL) {
    fm_zeroize(buf, buf_len);
    free(buf);
  }
  if (st != FM_OK) {
    if (format != NULL) *format = (fm_key_format)0;
    if (seed != NULL) fm_zeroize(seed, seed_cap);
    if (expanded != NULL) fm_zeroize(expanded, expanded_cap);
    return fm_refuse(st, pub, pub_cap);
  }
  fm_indicator_approved();
  return FM_OK;
}

int pqkey_decode_service(const uint8_t *in, size_t in_len, const pqkey_shape *shapes,
                         size_t count, pqkey_derive_fn derive, bool param_given, size_t *which,
                         fm_key_format *format, uint8_t *seed, size_t seed_cap,
                         uint8_t *expanded, size_t expanded_cap, uint8_t *pub, size_t pub_cap) {
  const int st =
      pqkey_decode_service_impl(in, in_len, shapes, count, derive, param_given, which, format, seed,
                                seed_cap, expanded, expanded_cap, pub, pub_cap);
  fm_wipe_vector_registers(); /* the key's bytes went through them */
  return st;
}

static int pqkey_encode_service_impl(const pqkey_shape *shapes, size_t count, size_t which,
                                     pqkey_prepare_fn prepare, int bad_length, fm_key_format format,
                                     const uint8_t *key, size_t key_len, fm_key_encoding encoding,
                                     uint8_t *out, size_t out_cap, size_t *out_len) {
  int st = fm_service_gate();
  if (st == FM_OK &&
      (key == NULL || out_len == NULL || (out == NULL && out_cap > 0) ||
       (format != FM_KEY_SPKI_PUBLIC && format != FM_KEY_PKCS8_PRIVATE &&
        format != FM_KEY_PKCS8_EXPANDED && format != FM_KEY_PKCS8_BOTH) ||
       (encoding != FM_KEY_DER && encoding != FM_KEY_PEM)))
    st = FM_ERR_BAD_ARGUMENT;
  if (out_len != NULL) *out_len = 0;
  if (st == FM_OK && which >= count) st = FM_ERR_UNSUPPORTED;
  if (st == FM_OK && fm_buffers_overlap(key, key_len, out, out_cap)) st = FM_ERR_OVERLAP;
  if (st != FM_OK) return fm_refuse(st, out, out == NULL ? 0 : out_cap);

  const pqkey_shape *sh = &shapes[which];
  const size_t want = format == FM_KEY_SPKI_PUBLIC      ? sh->public_len
                      : format == FM_KEY_PKCS8_EXPANDED ? sh->expanded_len
                                                        : sh->seed_len;
  if (key_len != want) st = bad_length;
  uint8_t expanded_buf[PQKEY_MAX_EXPANDED];
  if (st == FM_OK) st = prepare(which, format, key, key_len, expanded_buf);
  if (st == FM_OK) {
    const uint8_t *seed = format == FM_KEY_PKCS8_PRIVATE || format == FM_KEY_PKCS8_BOTH ? key
                                                                                          : NULL;
    const uint8_t *expanded = format == FM_KEY_PKCS8_BOTH       ? expanded_buf
                              : format == FM_KEY_PKCS8_EXPANDED ? key
                                                                : NULL;
    st = pqkey_encode(sh, format, seed, expanded, key, encoding, out, out_cap, out_len);
  }
  fm_zeroize(expanded_buf, sizeof expanded_buf);
  if (st != FM_OK) {
    const size_t keep = st == FM_ERR_BUFFER_TOO_SMALL ? *out_len : 0;
    fm_refuse(st, out, out == NULL ? 0 : out_cap);
    *out_len = keep;
    return st;
  }
  fm_indicator_approved();
  return FM_OK;
}

int pqkey_encode_service(const pqkey_shape *shapes, size_t count, size_t which,
                         pqkey_prepare_fn prepare, int bad_length, fm_key_format format,
                         const uint8_t *key, size_t key_len, fm_key_encoding encoding,
                         uint8_t *out, size_t out_cap, size_t *out_len) {
  const int st = pqkey_encode_service_impl(shapes, count, which, prepare, bad_length, format, key,
                                           key_len, encoding, out, out_cap, out_len);
  fm_wipe_vector_registers(); /* the key's bytes went through them */
  return st;
}
