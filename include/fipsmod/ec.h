/** @file
 * Elliptic curves: ECDSA (FIPS 186-5 section 6) and the ECC CDH primitive (SP 800-56A Rev. 3
 * 5.7.1.2) on the NIST curves P-224, P-256, P-384 and P-521 (SP 800-186 3.2.1).
 *
 * Keys are opaque objects that the module allocates. A key never changes after it is created, so
 * one key may be used by any number of threads at once with no lock; only fm_ec_key_free must not
 * race with other uses of the same key. fm_ec_key_free zeroizes the key.
 *
 * Points are SEC1 octet strings (SEC 1 v2 2.3.3): uncompressed 04 || X || Y, or compressed
 * 02/03 || X (P-256, P-384 and P-521). Scalars and coordinates are big-endian, exactly
 * fm_ec_curve_bytes() octets. Every public key the module takes, from an import or a peer, passes
 * the SP 800-56A 5.6.2.3.3 full public-key validation (not the point at infinity, coordinates in
 * [0, p-1], on the curve; the curves have cofactor 1, so nQ = O follows).
 *
 * Signatures are r || s, each fm_ec_curve_bytes() octets (IEEE P1363). s is returned as computed:
 * it may be "high" (s > n/2: no low-s normalization, as in OpenSSL), and verification accepts
 * both. fm_ecdsa_sig_to_der and fm_ecdsa_sig_from_der convert to and from the DER
 * ECDSA-Sig-Value of X9.62 / RFC 3279 2.2.3 (what OpenSSL and X.509 use), changing neither value.
 * Signing draws a fresh per-message secret k from the module's DRBG by FIPS 186-5 A.3.2
 * (rejection sampling), or, in deterministic ECDSA, derives it from d and the digest (A.3.3,
 * RFC 6979); the same rejection sampling (A.2.2) makes private keys.
 *
 * Approval (the service indicator): every operation on the four curves is approved, with
 * SHA-256, SHA-384 or SHA-512 (all of at least 112 bits of security). fm_ecdsa_sign_digest
 * refuses a digest shorter than 28 bytes (SHA-224's), so every signature it makes is approved;
 * fm_ecdsa_verify_digest takes digests of 1..64 bytes (legacy SHA-1 verification included).
 *
 * Every function returns FM_OK or a negative FM_ERR_* (status.h). Outside the OPERATIONAL state
 * every function except fm_ec_key_free returns FM_ERR_NOT_OPERATIONAL. On any error every output
 * is wiped: key pointers are set to NULL, output buffers are zeroed, lengths are set to 0.
 *
 * Secrets: the private scalar d, and the shared secret Z that fm_ecdh writes. Signing, key
 * generation, private-key import and ECDH are constant time in them. Verification is variable
 * time: its inputs are public. */
#ifndef FIPSMOD_EC_H
#define FIPSMOD_EC_H

#include <stddef.h>
#include <stdint.h>

#include "fipsmod/sha.h"
#include "fipsmod/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum fm_ec_curve {
  FM_EC_P224 = 1,
  FM_EC_P256 = 2,
  FM_EC_P384 = 3,
  FM_EC_P521 = 4,
} fm_ec_curve;

/** The largest scalar or coordinate (P-521), uncompressed point and signature, in bytes. */
#define FM_EC_MAX_BYTES 66
#define FM_EC_MAX_POINT_BYTES (1 + 2 * FM_EC_MAX_BYTES)
#define FM_EC_MAX_SIG_BYTES (2 * FM_EC_MAX_BYTES)
/** The longest DER ECDSA-Sig-Value (P-521: a 3-byte SEQUENCE header and two INTEGERs of 2 + 66
 * bytes). */
#define FM_EC_MAX_DER_SIG_BYTES 139

/** An EC key: public (Q) or private (d and Q = dG). Opaque. */
typedef struct fm_ec_key fm_ec_key;

/** fm_ec_curve_bytes returns the length of a scalar or coordinate of |curve| (28, 32, 48, 66), or
 * 0 for an unknown curve. Informational: no state check, thread-safe. */
FM_API size_t fm_ec_curve_bytes(fm_ec_curve curve);

/** fm_ec_key_generate makes a key pair on |curve| (FIPS 186-5 A.2.2, d from the module's DRBG)
 * and runs the pairwise consistency test on it. FM_ERR_UNSUPPORTED (unknown curve),
 * FM_ERR_BAD_ARGUMENT (NULL), FM_ERR_ENTROPY, FM_ERR_KEYGEN (the consistency test failed: the
 * module is then in ERROR), FM_ERR_NO_MEMORY. Thread-safe. */
FM_MUST_CHECK
FM_API int fm_ec_key_generate(fm_ec_curve curve, fm_ec_key **key);

/** fm_ec_key_import_private makes a key from the scalar d (exactly fm_ec_curve_bytes octets) and,
 * optionally, its public point (pub NULL and pub_len 0 to let the module compute Q = dG).
 * d must be in [1, n-1]; a given point must pass validation and equal dG.
 * FM_ERR_LENGTH (d's length), FM_ERR_OUT_OF_RANGE (d), FM_ERR_BAD_KEY (the point), as well as
 * the errors of fm_ec_key_generate. d is secret: the checks on it are constant time. */
FM_MUST_CHECK
FM_API int fm_ec_key_import_private(fm_ec_curve curve, const uint8_t *d,
                                    size_t d_len, const uint8_t *pub,
                                    size_t pub_len, fm_ec_key **key);

/** fm_ec_key_import_public makes a public key from a SEC1 point, after full validation.
 * FM_ERR_LENGTH (a length no point of the curve has), FM_ERR_BAD_KEY (bad prefix, infinity,
 * coordinate >= p, not on the curve), FM_ERR_UNSUPPORTED (a compressed P-224 point). */
FM_MUST_CHECK
FM_API int fm_ec_key_import_public(fm_ec_curve curve, const uint8_t *pub,
                                   size_t pub_len, fm_ec_key **key);

/** fm_ec_key_export_public writes Q as a SEC1 point, compressed when |compressed| is non-zero,
 * to out[0..cap) and its length to *out_len. FM_ERR_BUFFER_TOO_SMALL, FM_ERR_BAD_ARGUMENT. */
FM_MUST_CHECK
FM_API int fm_ec_key_export_public(const fm_ec_key *key, int compressed,
                                   uint8_t *out, size_t cap, size_t *out_len);

/** fm_ec_key_export_private writes d (fm_ec_curve_bytes octets, secret) to out[0..cap).
 * FM_ERR_BAD_ARGUMENT (a public key), FM_ERR_BUFFER_TOO_SMALL. */
FM_MUST_CHECK
FM_API int fm_ec_key_export_private(const fm_ec_key *key, uint8_t *out, size_t cap,
                                    size_t *out_len);

/** fm_ec_key_curve writes the key's curve to *curve. FM_ERR_BAD_ARGUMENT. */
FM_MUST_CHECK
FM_API int fm_ec_key_curve(const fm_ec_key *key, fm_ec_curve *curve);

/** fm_ec_key_free zeroizes and frees |key| (NULL is fine). Returns FM_OK in every state. */
FM_API int fm_ec_key_free(fm_ec_key *key);

/** fm_ecdsa_sign hashes msg with |hash| (SHA-256, SHA-384 or SHA-512) and signs it (FIPS 186-5
 * 6.4.1) with a private key, writing r || s (2 * fm_ec_curve_bytes octets) to sig[0..cap) and its
 * length to *sig_len. FM_ERR_BAD_ARGUMENT (NULL, a public key), FM_ERR_UNSUPPORTED (hash),
 * FM_ERR_BUFFER_TOO_SMALL, FM_ERR_ENTROPY. Thread-safe. */
FM_MUST_CHECK
FM_API int fm_ecdsa_sign(const fm_ec_key *key, fm_hash_alg hash, const uint8_t *msg,
                         size_t msg_len, uint8_t *sig, size_t cap, size_t *sig_len);

/** fm_ecdsa_sign_digest signs a digest the caller computed (prehashed input; the leftmost bits of
 * the digest as FIPS 186-5 6.4.1 step 2 takes them). digest_len is 28..64. Errors as
 * fm_ecdsa_sign, and FM_ERR_LENGTH for the digest length. */
FM_MUST_CHECK
FM_API int fm_ecdsa_sign_digest(const fm_ec_key *key, const uint8_t *digest,
                                size_t digest_len, uint8_t *sig, size_t cap,
                                size_t *sig_len);

/** fm_ecdsa_sign_deterministic signs msg hashed with |hash| by deterministic ECDSA (FIPS 186-5
 * 6.3.2 and 6.4.1; the per-message secret k of RFC 6979 3.2 from an HMAC_DRBG over |hash| seeded
 * with d and the digest): the same key, hash and message give the same signature. |hash| is any
 * SHA-2 or SHA-3 hash of fipsmod/sha.h. Output and errors as fm_ecdsa_sign, without
 * FM_ERR_ENTROPY (no randomness is drawn). Constant time in d, k and the digest. Thread-safe. */
FM_MUST_CHECK
FM_API int fm_ecdsa_sign_deterministic(const fm_ec_key *key, fm_hash_alg hash,
                                       const uint8_t *msg, size_t msg_len, uint8_t *sig,
                                       size_t cap, size_t *sig_len);

/** fm_ecdsa_sign_deterministic_digest is fm_ecdsa_sign_deterministic on a digest the caller
 * computed with |hash| (prehashed input): digest_len must be that hash's output length
 * (FM_ERR_LENGTH otherwise), and the HMAC_DRBG of RFC 6979 runs over |hash|. */
FM_MUST_CHECK
FM_API int fm_ecdsa_sign_deterministic_digest(const fm_ec_key *key, fm_hash_alg hash,
                                              const uint8_t *digest, size_t digest_len,
                                              uint8_t *sig, size_t cap, size_t *sig_len);

/** fm_ecdsa_verify checks the r || s signature over msg hashed with |hash| (FIPS 186-5 6.4.2).
 * FM_OK; FM_ERR_VERIFY (a bad signature, r or s out of [1, n-1], a wrong length);
 * FM_ERR_BAD_ARGUMENT; FM_ERR_UNSUPPORTED (hash). */
FM_MUST_CHECK
FM_API int fm_ecdsa_verify(const fm_ec_key *key, fm_hash_alg hash,
                           const uint8_t *msg, size_t msg_len, const uint8_t *sig,
                           size_t sig_len);

/** fm_ecdsa_verify_digest is fm_ecdsa_verify on a digest the caller computed (1..64 bytes). */
FM_MUST_CHECK
FM_API int fm_ecdsa_verify_digest(const fm_ec_key *key, const uint8_t *digest,
                                  size_t digest_len, const uint8_t *sig,
                                  size_t sig_len);

/** fm_ecdsa_sig_to_der converts the r || s signature |sig| (2 * fm_ec_curve_bytes(curve) octets,
 * as fm_ecdsa_sign writes it) to the DER ECDSA-Sig-Value SEQUENCE { r INTEGER, s INTEGER }
 * (RFC 3279 2.2.3), minimal, byte for byte as OpenSSL writes it, at most FM_EC_MAX_DER_SIG_BYTES
 * octets, to der[0..cap) and its length to *der_len. s is kept as it is (not normalized to low-s).
 * With der NULL and cap 0 it only sets *der_len to the length needed (FM_OK).
 *   FM_ERR_BAD_ARGUMENT     sig or der_len NULL, der NULL with cap > 0.
 *   FM_ERR_UNSUPPORTED      an unknown curve.
 *   FM_ERR_LENGTH           sig_len is not 2 * fm_ec_curve_bytes(curve).
 *   FM_ERR_OUT_OF_RANGE     r or s is not in [1, n-1].
 *   FM_ERR_BUFFER_TOO_SMALL cap below the length (*der_len is then the length needed).
 * A format conversion of public values, not a security service: it leaves the service indicator
 * as it was. Thread-safe. */
FM_MUST_CHECK
FM_API int fm_ecdsa_sig_to_der(fm_ec_curve curve, const uint8_t *sig, size_t sig_len,
                               uint8_t *der, size_t cap, size_t *der_len);

/** fm_ecdsa_sig_from_der converts the DER ECDSA-Sig-Value |der| (|der_len| bytes) to r || s
 * (2 * fm_ec_curve_bytes(curve) octets, for fm_ecdsa_verify) at sig[0..cap), its length to
 * *sig_len. Strict DER: one SEQUENCE of exactly two INTEGERs, definite minimal lengths, no leading
 * zero byte beyond a sign byte, nothing after the SEQUENCE. s is kept as it is (high s too).
 *   FM_ERR_BAD_ARGUMENT     sig or sig_len NULL, der NULL with der_len > 0.
 *   FM_ERR_UNSUPPORTED      an unknown curve.
 *   FM_ERR_BUFFER_TOO_SMALL cap below 2 * fm_ec_curve_bytes(curve).
 *   FM_ERR_PARSE            not that DER (BER lengths, non-minimal INTEGERs, other tags,
 *                           truncated, trailing data, a missing or extra element).
 *   FM_ERR_OUT_OF_RANGE     r or s is negative, zero, or not below n (the curve's order).
 * A format conversion of public values, not a security service: it leaves the service indicator
 * as it was. Thread-safe. */
FM_MUST_CHECK
FM_API int fm_ecdsa_sig_from_der(fm_ec_curve curve, const uint8_t *der, size_t der_len,
                                 uint8_t *sig, size_t cap, size_t *sig_len);

/** fm_ecdh computes the SP 800-56A 5.7.1.2 ECC CDH primitive: Z = x(d * Q_peer) with the private
 * key and the peer's SEC1 point (fully validated first, on the key's curve), written as
 * fm_ec_curve_bytes octets to z[0..cap), its length to *z_len. Z is secret. FM_ERR_BAD_KEY (the
 * peer point fails validation; nothing is computed), FM_ERR_LENGTH, FM_ERR_BAD_ARGUMENT (a public
 * key), FM_ERR_BUFFER_TOO_SMALL, FM_ERR_VERIFY (the product is the point at infinity: no shared
 * secret). Constant time in d and Z. */
FM_MUST_CHECK
FM_API int fm_ecdh(const fm_ec_key *key, const uint8_t *peer, size_t peer_len,
                   uint8_t *z, size_t cap, size_t *z_len);

#ifdef __cplusplus
}
#endif

#endif
