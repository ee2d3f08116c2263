/** @file
 * ML-DSA signatures (FIPS 204): ML-DSA-44, ML-DSA-65 and ML-DSA-87, key generation, signing
 * (hedged by default, deterministic on request) and verification, in the pure form with a
 * context string (FIPS 204 Algorithms 2 and 3), the pre-hash form HashML-DSA (Algorithms 4 and
 * 5), and the internal interface (Algorithms 6 to 8, with M' or with an externally computed mu)
 * that ACVP tests and HSM-style callers use.
 *
 * Keys and signatures are byte strings in FIPS 204's encodings (pkEncode, skEncode, sigEncode).
 * Every length is exact: FM_MLDSA_PUBLIC_KEY_LEN(n) and so on, or the fm_mldsa_*_len functions.
 * Nothing keeps state between calls; every function is thread-safe. Key files
 * (SubjectPublicKeyInfo, PKCS#8 in the seed, expanded or both form): keyfile.h,
 * fm_mldsa_key_decode and fm_mldsa_key_encode.
 *
 * Approval (the service indicator): every parameter set is approved in every interface (FIPS 204;
 * policy/services.tsv). The internal interface is approved for testing (ACVP) and for the
 * external-mu use that SP 800-227-style HSM callers make of Sign_internal with mu computed
 * elsewhere; it performs no domain separation of its own.
 *
 * Errors (status.h): FM_ERR_UNSUPPORTED for a parameter set other than 44, 65, 87 or a pre-hash
 * the module does not offer; FM_ERR_KEY_SIZE for a key of the wrong length; FM_ERR_BAD_KEY for a
 * private key whose s1 or s2 is out of range; FM_ERR_LENGTH for a context longer than 255 bytes
 * or a signature of the wrong length (verification); FM_ERR_BUFFER_TOO_SMALL for an output
 * buffer shorter than the output; FM_ERR_BAD_ARGUMENT for NULL with a non-zero length;
 * FM_ERR_OVERLAP when an output overlaps an input; FM_ERR_VERIFY for a signature that does not
 * verify; FM_ERR_NO_MEMORY when signing cannot allocate its workspace; FM_ERR_ENTROPY when the
 * DRBG fails; FM_ERR_KEYGEN when a generated key fails its pairwise consistency test;
 * FM_ERR_NOT_OPERATIONAL outside OPERATIONAL. On any error every output is wiped.
 *
 * Secrets: the seed xi, the private key, rnd and mu's inputs are secret; the public key, the
 * message, the context and the signature are public. Signing and key generation are constant
 * time in their secrets except for what FIPS 204 treats as public (the number of iterations of
 * the signing loop; module/mldsa/mldsa.c lists every declassified value). Verification handles
 * public values only.
 *
 * Memory: signing allocates one workspace (at most 114 KiB, for ML-DSA-87), wiped and freed
 * before it returns; its stack use is under 8 KiB. Key generation and verification use at most
 * 24 KiB of stack and no heap. */
#ifndef FIPSMOD_MLDSA_H
#define FIPSMOD_MLDSA_H

#include <stddef.h>
#include <stdint.h>

#include "fipsmod/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The parameter sets, named by their FIPS 204 numbers. */
typedef enum fm_mldsa_param {
  FM_MLDSA_44 = 44,
  FM_MLDSA_65 = 65,
  FM_MLDSA_87 = 87,
} fm_mldsa_param;

#define FM_MLDSA_SEED_LEN 32 /**< xi, the key-generation seed */
#define FM_MLDSA_RND_LEN 32  /**< rnd, the signing randomness */
#define FM_MLDSA_MU_LEN 64   /**< mu, the message representative */
#define FM_MLDSA_MAX_CONTEXT_LEN 255

#define FM_MLDSA_44_PUBLIC_KEY_LEN 1312
#define FM_MLDSA_44_PRIVATE_KEY_LEN 2560
#define FM_MLDSA_44_SIGNATURE_LEN 2420
#define FM_MLDSA_65_PUBLIC_KEY_LEN 1952
#define FM_MLDSA_65_PRIVATE_KEY_LEN 4032
#define FM_MLDSA_65_SIGNATURE_LEN 3309
#define FM_MLDSA_87_PUBLIC_KEY_LEN 2592
#define FM_MLDSA_87_PRIVATE_KEY_LEN 4896
#define FM_MLDSA_87_SIGNATURE_LEN 4627
#define FM_MLDSA_MAX_SIGNATURE_LEN FM_MLDSA_87_SIGNATURE_LEN

/** fm_mldsa_sign's flags. */
#define FM_MLDSA_SIGN_HEDGED 0u
#define FM_MLDSA_SIGN_DETERMINISTIC 1u /**< rnd = 0^32 (FIPS 204 section 3.4) */

/** The pre-hash functions of HashML-DSA that the module offers (FIPS 204 section 5.4). */
typedef enum fm_mldsa_prehash {
  FM_MLDSA_PH_NONE = 0, /**< no pre-hash: pure ML-DSA (fm_mldsa_sign_with_rnd only) */
  FM_MLDSA_PH_SHA256 = 1,
  FM_MLDSA_PH_SHA384 = 2,
  FM_MLDSA_PH_SHA512 = 3,
  FM_MLDSA_PH_SHA3_224 = 4,
  FM_MLDSA_PH_SHA3_256 = 5,
  FM_MLDSA_PH_SHA3_384 = 6,
  FM_MLDSA_PH_SHA3_512 = 7,
  FM_MLDSA_PH_SHAKE128 = 8, /**< 256-bit output */
  FM_MLDSA_PH_SHAKE256 = 9, /**< 512-bit output */
  FM_MLDSA_PH_SHA224 = 10,
  FM_MLDSA_PH_SHA512_224 = 11,
  FM_MLDSA_PH_SHA512_256 = 12,
} fm_mldsa_prehash;

/** fm_mldsa_public_key_len, fm_mldsa_private_key_len and fm_mldsa_signature_len return the sizes
 * of |param|, or 0 for a value that is not a parameter set. No state check. */
FM_API size_t fm_mldsa_public_key_len(fm_mldsa_param param);
FM_API size_t fm_mldsa_private_key_len(fm_mldsa_param param);
FM_API size_t fm_mldsa_signature_len(fm_mldsa_param param);

/** fm_mldsa_keygen generates a key pair (FIPS 204 Algorithm 1) from a seed xi drawn from the
 * DRBG, and checks it with a pairwise consistency test (a signature made and verified). Writes
 * pk (exactly pk_len = the public key length) and sk (sk_len = the private key length); when
 * |seed| is not NULL it also receives xi (FM_MLDSA_SEED_LEN bytes, secret), from which
 * fm_mldsa_keygen_from_seed rebuilds the same pair. */
FM_MUST_CHECK
FM_API int fm_mldsa_keygen(fm_mldsa_param param, uint8_t *pk, size_t pk_len, uint8_t *sk,
                           size_t sk_len, uint8_t *seed);

/** fm_mldsa_keygen_from_seed is ML-DSA.KeyGen_internal (Algorithm 6) on the given 32-byte xi,
 * followed by the same pairwise consistency test. */
FM_MUST_CHECK
FM_API int fm_mldsa_keygen_from_seed(fm_mldsa_param param, const uint8_t *seed, uint8_t *pk,
                                     size_t pk_len, uint8_t *sk, size_t sk_len);

/** fm_mldsa_sign signs |msg| under the context |ctx| (0..255 bytes; NULL when ctx_len is 0)
 * (ML-DSA.Sign, Algorithm 2): hedged (rnd from the DRBG) unless |flags| has
 * FM_MLDSA_SIGN_DETERMINISTIC. Writes the signature's length of bytes to |sig| (sig_cap at
 * least that) and the length to *sig_len. */
FM_MUST_CHECK
FM_API int fm_mldsa_sign(fm_mldsa_param param, const uint8_t *sk, size_t sk_len,
                         const uint8_t *msg, size_t msg_len, const uint8_t *ctx, size_t ctx_len,
                         unsigned flags, uint8_t *sig, size_t sig_cap, size_t *sig_len);

/** fm_mldsa_verify checks |sig| on |msg| under |ctx| (ML-DSA.Verify, Algorithm 3): FM_OK, or
 * FM_ERR_VERIFY (any other status also means the signature is not accepted). */
FM_MUST_CHECK
FM_API int fm_mldsa_verify(fm_mldsa_param param, const uint8_t *pk, size_t pk_len,
                           const uint8_t *msg, size_t msg_len, const uint8_t *ctx, size_t ctx_len,
                           const uint8_t *sig, size_t sig_len);

/** fm_mldsa_hash_sign and fm_mldsa_hash_verify are HashML-DSA (Algorithms 4 and 5): the message
 * is hashed with |ph| inside the call, and the hash function's OID is signed with the digest. */
FM_MUST_CHECK
FM_API int fm_mldsa_hash_sign(fm_mldsa_param param, const uint8_t *sk, size_t sk_len,
                              fm_mldsa_prehash ph, const uint8_t *msg, size_t msg_len,
                              const uint8_t *ctx, size_t ctx_len, unsigned flags, uint8_t *sig,
                              size_t sig_cap, size_t *sig_len);
FM_MUST_CHECK
FM_API int fm_mldsa_hash_verify(fm_mldsa_param param, const uint8_t *pk, size_t pk_len,
                                fm_mldsa_prehash ph, const uint8_t *msg, size_t msg_len,
                                const uint8_t *ctx, size_t ctx_len, const uint8_t *sig,
                                size_t sig_len);

/** fm_mldsa_sign_with_rnd signs as fm_mldsa_sign (|ph| FM_MLDSA_PH_NONE) or fm_mldsa_hash_sign
 * (|ph| a pre-hash) would, with the caller's 32-byte |rnd| in place of one drawn from the DRBG
 * (NULL: rnd = 0^32, the deterministic variant). It is the entry point for known-answer tests
 * of the hedged variant (ACVP's hedged sigGen groups give rnd); applications use fm_mldsa_sign
 * or fm_mldsa_hash_sign, which draw rnd themselves. */
FM_MUST_CHECK
FM_API int fm_mldsa_sign_with_rnd(fm_mldsa_param param, const uint8_t *sk, size_t sk_len,
                                  fm_mldsa_prehash ph, const uint8_t *msg, size_t msg_len,
                                  const uint8_t *ctx, size_t ctx_len, const uint8_t *rnd,
                                  uint8_t *sig, size_t sig_cap, size_t *sig_len);

/** The internal interface (FIPS 204 section 6). fm_mldsa_sign_internal is ML-DSA.Sign_internal
 * on the formatted message M' (any bytes) with the given 32-byte rnd (NULL: rnd = 0^32);
 * fm_mldsa_sign_mu starts from a 64-byte mu = H(tr || M', 64) computed by the caller ("external
 * mu"). fm_mldsa_verify_internal and fm_mldsa_verify_mu are Verify_internal likewise. */
FM_MUST_CHECK
FM_API int fm_mldsa_sign_internal(fm_mldsa_param param, const uint8_t *sk, size_t sk_len,
                                  const uint8_t *mprime, size_t mprime_len, const uint8_t *rnd,
                                  uint8_t *sig, size_t sig_cap, size_t *sig_len);
FM_MUST_CHECK
FM_API int fm_mldsa_sign_mu(fm_mldsa_param param, const uint8_t *sk, size_t sk_len,
                            const uint8_t *mu, const uint8_t *rnd, uint8_t *sig, size_t sig_cap,
                            size_t *sig_len);
FM_MUST_CHECK
FM_API int fm_mldsa_verify_internal(fm_mldsa_param param, const uint8_t *pk, size_t pk_len,
                                    const uint8_t *mprime, size_t mprime_len, const uint8_t *sig,
                                    size_t sig_len);
FM_MUST_CHECK
FM_API int fm_mldsa_verify_mu(fm_mldsa_param param, const uint8_t *pk, size_t pk_len,
                              const uint8_t *mu, const uint8_t *sig, size_t sig_len);

#ifdef __cplusplus
}
#endif

#endif
