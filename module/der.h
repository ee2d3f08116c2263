/* DER and PEM for the key-file codecs (module/rsa/rsa_keyfile.c, module/ec/ec_keyfile.c) and the
 * DER ECDSA signatures (module/ec/ecdsa_der.c): a strict DER reader, a two-pass DER writer, and
 * PEM (RFC 7468) with base64 (RFC 4648 4) computed without tables.
 *
 * What is public and what is secret. A DER structure (tags, lengths) is public: it is what a
 * reader walks, and the length of each element is as in the file. Contents are secret unless the
 * caller says otherwise: the readers declassify (fm_declassify) exactly the bytes they branch on
 * (tag and length bytes; the first two bytes of an INTEGER, which the minimal-encoding rule looks
 * at; a version number), so that a constant-time test can mark a whole file secret. A caller that
 * branches on contents (an object identifier, a public key) declassifies them first.
 *
 * PEM is located from the outside in (pem_decode): the "-----BEGIN " line by a forward scan over
 * the explanatory text before it (public), the "-----END " line by a backward scan from the end
 * over trailing white space and the label (public); the base64 body between them is read only by
 * the decoder, which computes each character's value and validity with range masks (no table
 * indexed by a secret, no branch on it) and declassifies only which characters are white space
 * or padding (the line structure) and, at the end, whether the whole body was well formed. The
 * encoder (pem_write) is branch-free in the bytes it encodes. */
#ifndef FIPSMOD_MODULE_DER_H
#define FIPSMOD_MODULE_DER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- Reading ----------------------------------------------------------------------------------
 * A der_span is the unread part of a DER encoding. Each reader takes one element off its front
 * and returns FM_OK or FM_ERR_PARSE (FM_ERR_UNSUPPORTED where it says so). */

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
  DER_CONTEXT_0 = 0xa0, /* [0], constructed (EXPLICIT) */
  DER_CONTEXT_1 = 0xa1, /* [1], constructed (EXPLICIT) */
};

/* Lengths beyond this are refused: the largest key the module takes (RSA, 16384 bits) encodes in
 * about 20 KiB. Bounds every allocation a decoder makes. */
#define DER_MAX_LEN (64u * 1024u)

/* der_peek_tag returns the tag of the next element (declassified), or -1 at the end. */
int der_peek_tag(const der_span *s);

/* der_get takes an element with tag |tag| off |s| and returns its contents in |body| (X.690
 * 8.1.3: definite lengths only, in the fewest bytes; DER 10.1). Declassifies the tag and length
 * bytes only. */
int der_get(der_span *s, uint8_t tag, der_span *body);

/* der_get_uint takes a non-negative INTEGER off |s| and returns its big-endian magnitude (without
 * the sign byte) in |out|. X.690 8.3.2: the first nine bits are not all equal. A negative INTEGER
 * is FM_ERR_PARSE. Declassifies the first byte (and the one after a sign byte). */
int der_get_uint(der_span *s, der_span *out);

/* der_get_version takes an INTEGER that must equal |want| (a version number) off |s|: another
 * one-byte value is FM_ERR_UNSUPPORTED (a later version of the structure). */
int der_get_version(der_span *s, uint8_t want);

/* der_equals is true when |s| holds exactly the |n| bytes at |want| (an object identifier, say).
 * It declassifies |s|: the caller says its contents are public. */
bool der_equals(der_span s, const uint8_t *want, size_t n);

/* ---- Writing -----------------------------------------------------------------------------------
 * A writer runs twice over the same calls: once with p NULL to measure, once to write. */

typedef struct der_out {
  uint8_t *p; /* NULL while measuring */
  size_t len; /* bytes written (or measured) so far */
} der_out;

void der_put_byte(der_out *w, uint8_t b);
void der_put_bytes(der_out *w, const uint8_t *b, size_t n);
/* der_put_header writes a tag and a DER length (below 2^24). */
void der_put_header(der_out *w, uint8_t tag, size_t len);
/* der_header_len is the length of a tag and the DER length |len|. */
size_t der_header_len(size_t len);

/* A big-endian number and the shape of its minimal INTEGER encoding. */
typedef struct der_uint {
  const uint8_t *p; /* the magnitude's first significant byte */
  size_t n;         /* its length (at least 1) */
  bool sign_byte;   /* a 0x00 goes first (the top bit is set) */
} der_uint;

/* der_uint_of finds the minimal INTEGER of the big-endian number at |p| (|len| >= 1 bytes): the
 * count of leading zero bytes is computed in constant time over the whole buffer, then released
 * (declassified), since the encoding states it, as is whether the top bit is set. */
der_uint der_uint_of(const uint8_t *p, size_t len);
/* der_uint_len is the length of the whole INTEGER element (header included). */
size_t der_uint_len(der_uint u);
void der_put_uint(der_out *w, der_uint u);

/* ---- PEM ------------------------------------------------------------------------------------- */

/* A PEM label, as a row of characters (so that a table of labels is constant data, with no
 * pointer to relocate). */
typedef char pem_label[24];

/* pem_public_byte returns in[i], declassified: the armour scans read only bytes of the armour and
 * of the text around it, which are public. */
uint8_t pem_public_byte(const uint8_t *in, size_t i);

/* pem_decode finds the one PEM block of |in| (|len| bytes), checks that its label is one of
 * labels[0..count), and decodes its base64 body into a new buffer (*der, *der_len; the caller
 * zeroizes and frees it); *which is the index of the label. Explanatory text before the BEGIN line
 * is ignored (RFC 7468 2), and so is one whole block labelled |skip| before the key (NULL: none;
 * "EC PARAMETERS", which `openssl ecparam -genkey` writes before the key). Only white space may
 * follow the END line. A well-formed block with another label, or with legacy OpenSSL encryption
 * headers ("Proc-Type:"), is FM_ERR_UNSUPPORTED; malformed armour or base64 FM_ERR_PARSE; and
 * FM_ERR_NO_MEMORY. */
int pem_decode(const uint8_t *in, size_t len, const pem_label *labels, size_t count,
               const char *skip, uint8_t **der, size_t *der_len, size_t *which);

/* pem_len is the length of |der_len| bytes as PEM with |label|: 64-character lines, each ending
 * "\n". */
size_t pem_len(size_t der_len, const char *label);

/* pem_write writes |der| as PEM with |label| to |out| (pem_len bytes). Branch-free in |der|. */
void pem_write(const uint8_t *der, size_t der_len, const char *label, uint8_t *out);

#endif
