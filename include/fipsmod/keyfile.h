/** @file
 * Keys in files.
 *
 * RSA: PKCS#1 RSAPrivateKey and RSAPublicKey (RFC 8017 appendix A.1), PKCS#8 PrivateKeyInfo,
 * unencrypted (RFC 5208), and SubjectPublicKeyInfo (RFC 5280 4.1, RFC 3279 2.3.1).
 * EC (P-224, P-256, P-384, P-521; ec.h): SEC1 ECPrivateKey (RFC 5915), PKCS#8 PrivateKeyInfo with
 * id-ecPublicKey (RFC 5208, RFC 5480 2.1.1), and SubjectPublicKeyInfo (RFC 5480), named curves
 * only. Each in DER or in PEM (RFC 7468), written byte for byte as OpenSSL 3 writes them.
 *
 * The decoders are strict: DER only (definite, minimal lengths; minimal, non-negative INTEGERs; no
 * trailing data), the expected algorithm identifier (rsaEncryption with NULL parameters;
 * id-ecPublicKey with a namedCurve), two-prime RSA keys (version 0), PKCS#8 (version 0) without
 * attributes, and one PEM block with a known label. Anything else is refused with a status, never
 * a crash: FM_ERR_PARSE for malformed input, FM_ERR_UNSUPPORTED for well-formed keys of another
 * kind (RSASSA-PSS-only keys, multi-prime keys, encrypted PKCS#8, explicit EC parameters, other
 * curves, other algorithms: an EC key given to fm_rsa_key_decode, an RSA key given to
 * fm_ec_key_decode). A decoded key then passes the same validation as the import functions
 * (fm_rsa_key_import_private / _public, rsa.h; fm_ec_key_import_private / _public, ec.h), with the
 * same statuses.
 *
 * Secrets: a private key's encoding is secret. PEM is decoded and encoded without a table lookup
 * by a secret index, DER private keys are never searched for text, and no decision depends on a
 * private component's bytes; every intermediate copy of a private component is zeroized. The
 * structure (lengths, tags) is public, so the byte length of each component is too, as it is in
 * the file.
 *
 * Every function returns FM_OK or a negative FM_ERR_* (status.h); outside the OPERATIONAL state
 * FM_ERR_NOT_OPERATIONAL. On error *key is NULL and outputs are wiped. Thread-safe. */
#ifndef FIPSMOD_KEYFILE_H
#define FIPSMOD_KEYFILE_H

#include <stddef.h>
#include <stdint.h>

#include "fipsmod/ec.h"
#include "fipsmod/rsa.h"
#include "fipsmod/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The structures fm_rsa_key_encode and fm_ec_key_encode write. */
typedef enum {
  FM_KEY_PKCS1_PRIVATE = 1, /**< RSAPrivateKey; PEM label "RSA PRIVATE KEY" (RSA only) */
  FM_KEY_PKCS8_PRIVATE = 2, /**< PrivateKeyInfo; PEM label "PRIVATE KEY" (RSA and EC) */
  FM_KEY_PKCS1_PUBLIC = 3,  /**< RSAPublicKey; PEM label "RSA PUBLIC KEY" (RSA only) */
  FM_KEY_SPKI_PUBLIC = 4,   /**< SubjectPublicKeyInfo; PEM label "PUBLIC KEY" (RSA and EC) */
  FM_KEY_SEC1_PRIVATE = 5,  /**< ECPrivateKey (RFC 5915); PEM label "EC PRIVATE KEY" (EC only) */
} fm_key_format;

/** How fm_rsa_key_encode and fm_ec_key_encode write it. */
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
 *                           encoding, FM_KEY_SEC1_PRIVATE (an EC format).
 *   FM_ERR_BAD_KEY          a private format for a public key, or for a key without CRT values
 *                           (fm_rsa_key_import_private_nd).
 *   FM_ERR_BUFFER_TOO_SMALL out_cap below the length (*out_len is then the length needed).
 * A private encoding is secret: the caller wipes it. PEM lines are 64 characters, ending "\n". */
FM_MUST_CHECK
FM_API int fm_rsa_key_encode(const fm_rsa_key *key, fm_key_format format, fm_key_encoding encoding,
                             uint8_t *out, size_t out_cap, size_t *out_len);

/** fm_ec_key_decode reads one EC key, private or public, from |in| (|in_len| bytes), DER or PEM
 * chosen as fm_rsa_key_decode chooses (the first byte alone), the structure recognised from the
 * PEM label ("EC PRIVATE KEY", "PRIVATE KEY", "PUBLIC KEY") or, for DER, from its shape. One
 * "EC PARAMETERS" block before the key, which `openssl ecparam -genkey` writes, is skipped. The
 * curve is a namedCurve object identifier: P-224 1.3.132.0.33, P-256 1.2.840.10045.3.1.7,
 * P-384 1.3.132.0.34, P-521 1.3.132.0.35.
 *   - ECPrivateKey: version 1; privateKey d, big-endian, of at most fm_ec_curve_bytes octets (a
 *     shorter one, as OpenSSL 1.0 wrote, is read with leading zeros); parameters [0] (required
 *     unless the key is inside PKCS#8, where they must then name the outer curve); publicKey [1]
 *     optional. A private key is checked as fm_ec_key_import_private checks it: d in [1, n-1],
 *     and Q == d*G when the file carries Q (Q is computed when it does not).
 *   - PrivateKeyInfo: version 0, id-ecPublicKey with the curve, an ECPrivateKey.
 *   - SubjectPublicKeyInfo: id-ecPublicKey with the curve, the point uncompressed (04 || X || Y)
 *     or compressed (02/03 || X; not on P-224), fully validated as fm_ec_key_import_public does.
 * *key receives a new key (free it with fm_ec_key_free).
 *   FM_ERR_BAD_ARGUMENT  in NULL with in_len > 0, or key NULL.
 *   FM_ERR_PARSE         not a well-formed key in any of the three structures; an ECPrivateKey
 *                        alone without parameters.
 *   FM_ERR_UNSUPPORTED   explicit (specifiedCurve) or implicit parameters, another named curve,
 *                        another algorithm, encrypted PKCS#8, PKCS#8 attributes, a later version,
 *                        a compressed P-224 point.
 *   FM_ERR_LENGTH        d longer than fm_ec_curve_bytes, or empty; a point of a length no point
 *                        of the curve has.
 *   FM_ERR_OUT_OF_RANGE  d = 0 or d >= n.
 *   FM_ERR_BAD_KEY       the point fails validation (not on the curve, a coordinate >= p, a bad
 *                        prefix), Q != d*G, or PKCS#8 parameters of two different curves.
 *   FM_ERR_NO_MEMORY.
 * The input is secret when it holds a private key: the decoder neither branches on nor indexes
 * memory by d. */
FM_MUST_CHECK
FM_API int fm_ec_key_decode(const uint8_t *in, size_t in_len, fm_ec_key **key);

/** fm_ec_key_encode writes |key| as |format| (FM_KEY_SEC1_PRIVATE, FM_KEY_PKCS8_PRIVATE or
 * FM_KEY_SPKI_PUBLIC) in |encoding| to out[0..*out_len), as OpenSSL 3 writes it: d as exactly
 * fm_ec_curve_bytes octets; the point uncompressed; ECPrivateKey with the named curve [0] and the
 * public key [1]; PKCS#8 with the curve in the algorithm identifier and an ECPrivateKey without
 * [0] inside. With out NULL and out_cap 0 it only sets *out_len to the length needed (FM_OK).
 *   FM_ERR_BAD_ARGUMENT     key or out_len NULL, out NULL with out_cap > 0, a format that is not
 *                           one of the three, an unknown encoding.
 *   FM_ERR_BAD_KEY          a private format for a public key.
 *   FM_ERR_BUFFER_TOO_SMALL out_cap below the length (*out_len is then the length needed).
 * A private encoding is secret: the caller wipes it. PEM lines are 64 characters, ending "\n". */
FM_MUST_CHECK
FM_API int fm_ec_key_encode(const fm_ec_key *key, fm_key_format format, fm_key_encoding encoding,
                            uint8_t *out, size_t out_cap, size_t *out_len);

#ifdef __cplusplus
}
#endif

#endif
