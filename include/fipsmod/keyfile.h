/** @file
 * RSA keys in files: PKCS#1 RSAPrivateKey and RSAPublicKey (RFC 8017 appendix A.1), PKCS#8
 * PrivateKeyInfo, unencrypted (RFC 5208), and SubjectPublicKeyInfo (RFC 5280 4.1, RFC 3279
 * 2.3.1), each in DER or in PEM (RFC 7468).
 *
 * The decoder is strict: DER only (definite, minimal lengths; minimal, non-negative INTEGERs; no
 * trailing data), the rsaEncryption algorithm identifier with NULL parameters, two-prime keys
 * (version 0), PKCS#8 without attributes, and one PEM block with a known label. Anything else is
 * refused with a status, never a crash: FM_ERR_PARSE for malformed input, FM_ERR_UNSUPPORTED for
 * well-formed keys of another kind (RSASSA-PSS-only keys, multi-prime keys, encrypted PKCS#8,
 * other algorithms). A decoded key then passes the same validation as fm_rsa_key_import_private
 * or fm_rsa_key_import_public (rsa.h), with the same statuses (FM_ERR_BAD_KEY, FM_ERR_KEY_SIZE).
 *
 * Secrets: a private key's encoding is secret. PEM is decoded and encoded without a table lookup
 * by a secret index; every intermediate copy of a private component is zeroized. The structure
 * (lengths, tags) is public, so the byte length of each component is too, as it is in the file.
 *
 * Every function returns FM_OK or a negative FM_ERR_* (status.h); outside the OPERATIONAL state
 * FM_ERR_NOT_OPERATIONAL. On error *key is NULL and outputs are wiped. Thread-safe. */
#ifndef FIPSMOD_KEYFILE_H
#define FIPSMOD_KEYFILE_H

#include <stddef.h>
#include <stdint.h>

#include "fipsmod/rsa.h"
#include "fipsmod/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The structures fm_rsa_key_encode writes. */
typedef enum {
  FM_KEY_PKCS1_PRIVATE = 1, /**< RSAPrivateKey; PEM label "RSA PRIVATE KEY" */
  FM_KEY_PKCS8_PRIVATE = 2, /**< PrivateKeyInfo; PEM label "PRIVATE KEY" */
  FM_KEY_PKCS1_PUBLIC = 3,  /**< RSAPublicKey; PEM label "RSA PUBLIC KEY" */
  FM_KEY_SPKI_PUBLIC = 4,   /**< SubjectPublicKeyInfo; PEM label "PUBLIC KEY" */
} fm_key_format;

/** How fm_rsa_key_encode writes it. */
typedef enum {
  FM_KEY_DER = 1,
  FM_KEY_PEM = 2,
} fm_key_encoding;

/** fm_rsa_key_decode reads one RSA key, private or public, from |in| (|in_len| bytes): DER when
 * the first byte is 0x30 (a SEQUENCE), else PEM, whose "-----BEGIN " line may follow explanatory
 * text (ignored, as RFC 7468 allows; such text must not start with '0', 0x30) and whose END line
 * may be followed only by white space. The choice looks at the first byte alone, so a DER private
 * key is never searched for text (its bytes are secret). The structure is recognised from the PEM
 * label or, for DER, from its shape. A legacy OpenSSL-encrypted PEM key ("Proc-Type: 4,ENCRYPTED"
 * headers) is FM_ERR_UNSUPPORTED, like PKCS#8 encryption. *key receives a new key (free it with
 * fm_rsa_key_free).
 *   FM_ERR_BAD_ARGUMENT  in NULL with in_len > 0, or key NULL.
 *   FM_ERR_PARSE         not a well-formed key in any of the four structures.
 *   FM_ERR_UNSUPPORTED   a well-formed key the module does not take (see above).
 *   FM_ERR_BAD_KEY, FM_ERR_KEY_SIZE, FM_ERR_NO_MEMORY  as fm_rsa_key_import_private/_public.
 * The input is secret when it holds a private key. */
FM_MUST_CHECK
FM_API int fm_rsa_key_decode(const uint8_t *in, size_t in_len, fm_rsa_key **key);

/** fm_rsa_key_encode writes |key| as |format| in |encoding| to out[0..*out_len). With out NULL
 * and out_cap 0 it only sets *out_len to the length needed (FM_OK).
 *   FM_ERR_BAD_ARGUMENT     key or out_len NULL, out NULL with out_cap > 0, unknown format or
 *                           encoding.
 *   FM_ERR_BAD_KEY          a private format for a public key, or for a key without CRT values
 *                           (fm_rsa_key_import_private_nd).
 *   FM_ERR_BUFFER_TOO_SMALL out_cap below the length (*out_len is then the length needed).
 * A private encoding is secret: the caller wipes it. PEM lines are 64 characters, ending "\n". */
FM_MUST_CHECK
FM_API int fm_rsa_key_encode(const fm_rsa_key *key, fm_key_format format, fm_key_encoding encoding,
                             uint8_t *out, size_t out_cap, size_t *out_len);

#ifdef __cplusplus
}
#endif

#endif
