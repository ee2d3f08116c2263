/* Key files for the lattice schemes (ML-KEM, module/mlkem/mlkem_keyfile.c; ML-DSA,
 * module/mldsa/mldsa_keyfile.c): SubjectPublicKeyInfo (RFC 5280 4.1) and OneAsymmetricKey
 * version 0 (RFC 5958 2, PKCS#8) as the IETF LAMPS documents for ML-KEM (draft-ietf-lamps-kyber-
 * certificates) and ML-DSA (RFC 9881) specify them, in DER or PEM (module/der.h):
 *
 *   SubjectPublicKeyInfo ::= SEQUENCE { algorithm SEQUENCE { OID }, subjectPublicKey BIT STRING }
 *     the parameters are ABSENT; the BIT STRING's content is the public key (ek or pk).
 *   OneAsymmetricKey ::= SEQUENCE { version INTEGER 0, algorithm SEQUENCE { OID },
 *                                   privateKey OCTET STRING }
 *     whose privateKey holds the DER of the CHOICE
 *       seed        [0] IMPLICIT OCTET STRING  (tag 0x80)
 *       expandedKey OCTET STRING               (dk, or sk)
 *       both        SEQUENCE { seed OCTET STRING, expandedKey OCTET STRING }
 *
 * This layer knows the structure only: each algorithm passes a table of its parameter sets
 * (object identifier and lengths), and itself derives, checks and compares the key material.
 *
 * What is public and what is secret: tags, lengths, the version, the object identifier and the
 * public key are public; the seed and the expanded key are secret and are only located here
 * (spans at public offsets), never read. Which CHOICE alternative a file holds is public (its
 * tag). */
#ifndef FIPSMOD_MODULE_PQKEY_H
#define FIPSMOD_MODULE_PQKEY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fipsmod/keyfile.h"
#include "module/der.h"

/* One parameter set: the contents of its object identifier and the lengths of its seed, its
 * expanded private key and its public key. No pointers: the tables stay in .rodata. */
typedef struct pqkey_shape {
  uint8_t oid_len;
  uint8_t oid[9];
  uint16_t seed_len;
  uint16_t expanded_len;
  uint16_t public_len;
} pqkey_shape;

/* A key file as read: |format| is FM_KEY_SPKI_PUBLIC (pub set), FM_KEY_PKCS8_PRIVATE (the seed
 * form: seed set), FM_KEY_PKCS8_EXPANDED (expanded set) or FM_KEY_PKCS8_BOTH (seed and expanded
 * set). The spans point into the input or into the buffer pqkey_decode returns; each has the
 * parameter set's length. */
typedef struct pqkey_parts {
  fm_key_format format;
  der_span seed, expanded, pub;
} pqkey_parts;

/* pqkey_decode reads one key from |in| (DER when the first byte is a SEQUENCE, else PEM labelled
 * "PRIVATE KEY" or "PUBLIC KEY") whose algorithm is one of shapes[0..count); *which is its index.
 * For PEM, *buf receives the decoded DER (the caller zeroizes and frees it, *buf_len bytes;
 * NULL for DER input). Statuses: FM_ERR_PARSE (malformed; parameters present; a CHOICE
 * alternative of another tag; trailing data), FM_ERR_UNSUPPORTED (another algorithm, a later
 * version, attributes, an unknown PEM label), FM_ERR_LENGTH (a seed, expanded key or public key
 * of a length other than the parameter set's), FM_ERR_NO_MEMORY. On error *buf is NULL. */
int pqkey_decode(const uint8_t *in, size_t in_len, const pqkey_shape *shapes, size_t count,
                 size_t *which, pqkey_parts *parts, uint8_t **buf, size_t *buf_len);

/* pqkey_encode writes |format| of a key of |shape| in |encoding| to out[0..*out_len): the SPKI
 * of |pub|, or OneAsymmetricKey with the seed form (|seed|), the expanded form (|expanded|) or
 * both. The caller has checked the arguments and the key material; out NULL with out_cap 0 is a
 * length query. FM_OK, FM_ERR_BUFFER_TOO_SMALL (*out_len then the length needed) or
 * FM_ERR_NO_MEMORY; out is not wiped here. Branch-free in the secret bytes. */
int pqkey_encode(const pqkey_shape *shape, fm_key_format format, const uint8_t *seed,
                 const uint8_t *expanded, const uint8_t *pub, fm_key_encoding encoding,
                 uint8_t *out, size_t out_cap, size_t *out_len);

/* The largest expanded private key and public key of any parameter set (ML-DSA-87's sk and pk;
 * ML-KEM-1024's dk and ek are smaller): the services' buffers. Each algorithm's file pins its
 * own lengths below these with static_assert. */
#define PQKEY_MAX_EXPANDED 4896
#define PQKEY_MAX_PUBLIC 2592

/* pqkey_derive_fn fills |pub| and |expanded| (the lengths of shapes[which]) from the parts of a
 * key file, with every check of its algorithm: FM_OK, FM_ERR_BAD_KEY, or a status of the
 * services it calls. |expanded| is secret. */
typedef int (*pqkey_derive_fn)(size_t which, const pqkey_parts *parts, uint8_t *pub,
                               uint8_t *expanded);

/* pqkey_decode_service is the body of fm_mlkem_key_decode and fm_mldsa_key_decode (keyfile.h
 * says what they do and return): the gate, the argument and overlap checks (|param_given|: the
 * caller's param pointer is not NULL), pqkey_decode, |derive|, the copies to the outputs and,
 * on any error, the wiping of every output. *which is the parameter set read (valid on FM_OK);
 * the caller writes its own param from it. */
int pqkey_decode_service(const uint8_t *in, size_t in_len, const pqkey_shape *shapes,
                         size_t count, pqkey_derive_fn derive, bool param_given, size_t *which,
                         fm_key_format *format, uint8_t *seed, size_t seed_cap,
                         uint8_t *expanded, size_t expanded_cap, uint8_t *pub, size_t pub_cap);

/* pqkey_prepare_fn checks |key| (the length of |format| for shapes[which]) as its algorithm
 * requires before it is written, and for FM_KEY_PKCS8_BOTH derives the expanded key from the
 * seed |key| into |expanded| (secret): FM_OK or the status of the check. */
typedef int (*pqkey_prepare_fn)(size_t which, fm_key_format format, const uint8_t *key,
                                size_t key_len, uint8_t *expanded);

/* pqkey_encode_service is the body of fm_mlkem_key_encode and fm_mldsa_key_encode: the gate,
 * the argument checks, FM_ERR_UNSUPPORTED when |which| is not below |count| (an unknown
 * parameter set), |bad_length| when key_len is not the format's, |prepare|, pqkey_encode and the
 * refusals (on FM_ERR_BUFFER_TOO_SMALL *out_len keeps the length needed). */
int pqkey_encode_service(const pqkey_shape *shapes, size_t count, size_t which,
                         pqkey_prepare_fn prepare, int bad_length, fm_key_format format,
                         const uint8_t *key, size_t key_len, fm_key_encoding encoding,
                         uint8_t *out, size_t out_cap, size_t *out_len);

#endif
