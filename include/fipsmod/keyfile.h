/** @file
 * Keys in files.
 *
 * RSA: PKCS#1 RSAPrivateKey and RSAPublicKey (RFC 8017 appendix A.1), PKCS#8 PrivateKeyInfo,
 * unencrypted (RFC 5208), and SubjectPublicKeyInfo (RFC 5280 4.1, RFC 3279 2.3.1).
 * EC (P-224, P-256, P-384, P-521; ec.h): SEC1 ECPrivateKey (RFC 5915), PKCS#8 PrivateKeyInfo with
 * id-ecPublicKey (RFC 5208, RFC 5480 2.1.1), and SubjectPublicKeyInfo (RFC 5480), named curves
 * only. Each in DER or in PEM (RFC 7468), written byte for byte as OpenSSL 3 writes them.
 * ML-KEM (mlkem.h) and ML-DSA (mldsa.h): SubjectPublicKeyInfo and OneAsymmetricKey (PKCS#8,
 * version 0) as the IETF LAMPS documents specify them (draft-ietf-lamps-kyber-certificates;
 * RFC 9881), DER or PEM; these keys are byte strings in caller buffers, as in mlkem.h and mldsa.h.
 *
 * The decoders are strict: DER only (definite, minimal lengths; minimal, non-negative INTEGERs; no
 * trailing data), the expected algorithm identifier (rsaEncryption with NULL parameters;
 * id-ecPublicKey with a namedCurve), two-prime RSA keys (version 0), PKCS#8 (version 0) without
 * attributes, and one PEM block with a known label. Anything else is refused with a status, never
 * a crash: FM_ERR_PARSE for malformed input, FM_ERR_UNSUPPORTED for well-formed keys of another
 * kind (RSASSA-PSS-only keys, multi-prime keys, encrypted PKCS#8, explicit EC parameters, other
 * curves, other algorithms: an EC key given to fm_rsa_key_decode, an RSA key given to
 * fm_ec_key_decode). Encrypted PKCS#8 is read by fm_pkcs8_decrypt (pkcs8.h), or in one step, with
 * the key type found, by fm_key_decode and fm_key_load_file (key.h). A decoded key then passes the same validation as the import functions
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
#include "fipsmod/mldsa.h"
#include "fipsmod/mlkem.h"
#include "fipsmod/rsa.h"
#include "fipsmod/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The structures the fm_*_key_encode functions write (and fm_mlkem_key_decode and
 * fm_mldsa_key_decode report). */
typedef enum {
  FM_KEY_PKCS1_PRIVATE = 1, /**< RSAPrivateKey; PEM label "RSA PRIVATE KEY" (RSA only) */
  /** PrivateKeyInfo; PEM label "PRIVATE KEY" (RSA, EC; for ML-KEM and ML-DSA the seed form) */
  FM_KEY_PKCS8_PRIVATE = 2,
  FM_KEY_PKCS1_PUBLIC = 3,  /**< RSAPublicKey; PEM label "RSA PUBLIC KEY" (RSA only) */
  FM_KEY_SPKI_PUBLIC = 4,   /**< SubjectPublicKeyInfo; PEM label "PUBLIC KEY" (all) */
  FM_KEY_SEC1_PRIVATE = 5,  /**< ECPrivateKey (RFC 5915); PEM label "EC PRIVATE KEY" (EC only) */
  /** OneAsymmetricKey with the expandedKey form; "PRIVATE KEY" (ML-KEM and ML-DSA only) */
  FM_KEY_PKCS8_EXPANDED = 6,
  /** OneAsymmetricKey with the both form, seed and expandedKey; "PRIVATE KEY" (ML-KEM, ML-DSA) */
  FM_KEY_PKCS8_BOTH = 7,
} fm_key_format;

/** How the fm_*_key_encode functions write it. */
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

/** fm_mlkem_key_decode reads one ML-KEM key from |in| (|in_len| bytes), DER or PEM chosen as
 * fm_rsa_key_decode chooses (the first byte alone; PEM labels "PRIVATE KEY" and "PUBLIC KEY"):
 *   - SubjectPublicKeyInfo with id-alg-ml-kem-512, -768 or -1024 (2.16.840.1.101.3.4.4.1, .2,
 *     .3), parameters absent, ek as the BIT STRING's content; ek passes FIPS 203 7.2;
 *   - OneAsymmetricKey version 0 with the same identifier, whose privateKey holds one of
 *       seed [0] IMPLICIT OCTET STRING (64 bytes, d || z): ek and dk are derived
 *         (ML-KEM.KeyGen_internal, fm_mlkem_keygen_from_seed);
 *       expandedKey OCTET STRING (dk): dk passes the check of FIPS 203 7.3 and the ek inside it
 *         that of 7.2;
 *       both SEQUENCE { seed, expandedKey }: dk must equal the dk derived from the seed.
 * *param receives the parameter set and *format the structure read: FM_KEY_SPKI_PUBLIC,
 * FM_KEY_PKCS8_PRIVATE (the seed form), FM_KEY_PKCS8_EXPANDED or FM_KEY_PKCS8_BOTH. Outputs, each
 * optional (NULL with capacity 0) and, when given, at least as long as the parameter set's value:
 * |seed| (64 bytes, written when the file has a seed, else zeroed), |dk| (written for a private
 * key, else zeroed), |ek| (always written). So any of the three private forms gives a usable dk
 * and ek; a caller that wants to write the key again in seed form needs the seed form or both.
 *   FM_ERR_BAD_ARGUMENT     in NULL with in_len > 0; param or format NULL; an output NULL with
 *                           a capacity.
 *   FM_ERR_PARSE            not a well-formed SPKI or OneAsymmetricKey, parameters present,
 *                           trailing data, a private key of another CHOICE alternative.
 *   FM_ERR_UNSUPPORTED      another algorithm (an RSA or EC key, say), a later version,
 *                           attributes, encrypted PKCS#8 or another PEM label.
 *   FM_ERR_LENGTH           a seed, dk or ek of a length other than the parameter set's.
 *   FM_ERR_BUFFER_TOO_SMALL an output shorter than the parameter set's value.
 *   FM_ERR_BAD_KEY          ek fails 7.2, dk fails 7.3, or the two halves of "both" differ.
 *   FM_ERR_OVERLAP          two of the buffers (the input and the outputs) overlap.
 *   FM_ERR_NO_MEMORY.
 * On error every output is wiped (*param and *format 0). The input is secret when it holds a
 * private key: the decoder neither branches on nor indexes memory by the seed or dk, and wipes
 * every copy it made. Approved (the key checks of FIPS 203 7.2 and 7.3 and KeyGen_internal).
 * Thread-safe. */
FM_MUST_CHECK
FM_API int fm_mlkem_key_decode(const uint8_t *in, size_t in_len, fm_mlkem_param *param,
                               fm_key_format *format, uint8_t *seed, size_t seed_cap,
                               uint8_t *dk, size_t dk_cap, uint8_t *ek, size_t ek_cap);

/** fm_mlkem_key_encode writes an ML-KEM key of |param| as |format| in |encoding| to
 * out[0..*out_len). |key| (|key_len| bytes) is, by format:
 *   FM_KEY_SPKI_PUBLIC     ek (checked as FIPS 203 7.2 says);
 *   FM_KEY_PKCS8_PRIVATE   the seed d || z (64 bytes, secret), written in the seed form, the
 *                          form the LAMPS document recommends;
 *   FM_KEY_PKCS8_BOTH      the seed (secret); dk is derived from it and written with it;
 *   FM_KEY_PKCS8_EXPANDED  dk (secret; checked as 7.3 says), written alone.
 * A key made by fm_mlkem_keygen with a seed output is written in seed form from that seed. With
 * out NULL and out_cap 0 it only sets *out_len to the length needed (FM_OK).
 *   FM_ERR_BAD_ARGUMENT     key or out_len NULL, out NULL with out_cap > 0, another format, an
 *                           unknown encoding.
 *   FM_ERR_UNSUPPORTED      not a parameter set.
 *   FM_ERR_LENGTH           key_len is not the length the format needs.
 *   FM_ERR_BAD_KEY          ek fails 7.2 or dk 7.3.
 *   FM_ERR_BUFFER_TOO_SMALL out_cap below the length (*out_len is then the length needed).
 *   FM_ERR_OVERLAP          key and out overlap.
 *   FM_ERR_NO_MEMORY.
 * A private encoding is secret: the caller wipes it. PEM lines are 64 characters, ending "\n".
 * On error out is wiped. Approved. Thread-safe. */
FM_MUST_CHECK
FM_API int fm_mlkem_key_encode(fm_mlkem_param param, fm_key_format format, const uint8_t *key,
                               size_t key_len, fm_key_encoding encoding, uint8_t *out,
                               size_t out_cap, size_t *out_len);

/** fm_mldsa_key_decode reads one ML-DSA key as fm_mlkem_key_decode reads an ML-KEM key, with
 * id-ml-dsa-44, -65 and -87 (2.16.840.1.101.3.4.3.17, .18, .19; RFC 9881) and the private-key
 * CHOICE of RFC 9881: seed [0] (32 bytes, xi; sk and pk derived with
 * fm_mldsa_keygen_from_seed, pairwise test included), expandedKey (sk), or both (sk must equal
 * the sk derived from the seed). An expanded sk is checked as far as its parts allow: s1 and s2
 * in range, and the public key recomputed from it (t = A s1 + s2) must give the sk's t0 and
 * tr = H(pk); pk is that public key (K, 32 free bytes, has nothing to be checked against). A
 * public key (SPKI) is checked for length only (FIPS 204 has no other check).
 * Outputs, each optional (NULL with capacity 0): |seed| (32 bytes), |sk|, |pk|, at least the
 * parameter set's lengths. Statuses as fm_mlkem_key_decode, with FM_ERR_BAD_KEY for an sk that
 * fails its check or a "both" whose halves differ, FM_ERR_KEYGEN when the pairwise test of a
 * derived key fails (the module is then in ERROR). The input is secret when it holds a private
 * key: no branch or memory index depends on the seed or sk. Approved. Thread-safe. */
FM_MUST_CHECK
FM_API int fm_mldsa_key_decode(const uint8_t *in, size_t in_len, fm_mldsa_param *param,
                               fm_key_format *format, uint8_t *seed, size_t seed_cap,
                               uint8_t *sk, size_t sk_cap, uint8_t *pk, size_t pk_cap);

/** fm_mldsa_key_encode writes an ML-DSA key of |param| as fm_mlkem_key_encode writes an ML-KEM
 * key: |key| is pk for FM_KEY_SPKI_PUBLIC, the seed xi (32 bytes, secret) for
 * FM_KEY_PKCS8_PRIVATE (the seed form) and FM_KEY_PKCS8_BOTH (sk derived, pairwise test
 * included), sk (secret; checked as fm_mldsa_key_decode checks it) for FM_KEY_PKCS8_EXPANDED. A
 * key from fm_mldsa_keygen with its |seed| output is written in seed form from that seed.
 * Statuses as fm_mlkem_key_encode, except that a key of the wrong length is FM_ERR_KEY_SIZE (as
 * in mldsa.h) and FM_ERR_KEYGEN as in fm_mldsa_key_decode. On error out is wiped. Approved.
 * Thread-safe. */
FM_MUST_CHECK
FM_API int fm_mldsa_key_encode(fm_mldsa_param param, fm_key_format format, const uint8_t *key,
                               size_t key_len, fm_key_encoding encoding, uint8_t *out,
                               size_t out_cap, size_t *out_len);

#ifdef __cplusplus
}
#endif

#endif
