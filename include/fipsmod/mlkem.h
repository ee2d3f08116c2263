/** @file
 * ML-KEM (FIPS 203): key encapsulation with ML-KEM-512, ML-KEM-768 and ML-KEM-1024.
 *
 * Keys and ciphertexts are byte strings in caller-owned buffers, in the encodings of FIPS 203
 * (ek: 384k + 32 bytes; dk: 768k + 96 bytes, the "expanded" form; ct: 32(du k + dv) bytes); the
 * module keeps nothing between calls, so every function is thread-safe and reentrant. The seed
 * form of a private key is the 64 bytes d || z (fm_mlkem_keygen_from_seed expands it). Key files
 * (SubjectPublicKeyInfo, PKCS#8 in the seed, expanded or both form): keyfile.h,
 * fm_mlkem_key_decode and fm_mlkem_key_encode.
 *
 * Each call checks its inputs as FIPS 203 section 7 requires before it computes:
 *   - a buffer of the wrong length for the parameter set: FM_ERR_LENGTH;
 *   - an encapsulation key that fails the modulus check (7.2): FM_ERR_BAD_KEY;
 *   - a decapsulation key whose embedded H(ek) does not match (7.3): FM_ERR_BAD_KEY;
 *   - a parameter set other than 512, 768 or 1024: FM_ERR_UNSUPPORTED;
 *   - NULL where a buffer is needed: FM_ERR_BAD_ARGUMENT.
 * Outside the OPERATIONAL state every function returns FM_ERR_NOT_OPERATIONAL. On any error every
 * output buffer is wiped (as far as its length was valid) and nothing is released. A ciphertext
 * that does not decapsulate is not an error: Decaps returns the implicit-rejection key J(z || c)
 * (FIPS 203 Algorithm 18), in the same time as a valid one.
 *
 * Secrets: d, z, m, dk, the shared secret. Public: ek and ct. Every computation on secrets is
 * constant time (no secret-dependent branch, memory index or division).
 *
 * Approval (service indicator): all three parameter sets are approved for key generation,
 * encapsulation and decapsulation; key generation runs a pairwise consistency test (FIPS 140-3
 * IG 10.3.A), whose failure puts the module in ERROR and returns FM_ERR_KEYGEN.
 * fm_mlkem_encaps_internal, whose m the caller chooses, is for validation testing and is not
 * approved. */
#ifndef FIPSMOD_MLKEM_H
#define FIPSMOD_MLKEM_H

#include <stddef.h>
#include <stdint.h>

#include "fipsmod/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The parameter sets, named by their values. */
typedef enum fm_mlkem_param {
  FM_MLKEM_512 = 512,
  FM_MLKEM_768 = 768,
  FM_MLKEM_1024 = 1024,
} fm_mlkem_param;

#define FM_MLKEM_SEED_LEN 64         /**< d || z */
#define FM_MLKEM_MESSAGE_LEN 32      /**< m of Encaps_internal */
#define FM_MLKEM_SHARED_SECRET_LEN 32

#define FM_MLKEM512_EK_LEN 800
#define FM_MLKEM512_DK_LEN 1632
#define FM_MLKEM512_CT_LEN 768
#define FM_MLKEM768_EK_LEN 1184
#define FM_MLKEM768_DK_LEN 2400
#define FM_MLKEM768_CT_LEN 1088
#define FM_MLKEM1024_EK_LEN 1568
#define FM_MLKEM1024_DK_LEN 3168
#define FM_MLKEM1024_CT_LEN 1568
#define FM_MLKEM_MAX_EK_LEN FM_MLKEM1024_EK_LEN
#define FM_MLKEM_MAX_DK_LEN FM_MLKEM1024_DK_LEN
#define FM_MLKEM_MAX_CT_LEN FM_MLKEM1024_CT_LEN

/** fm_mlkem_sizes writes the lengths of ek, dk and ct for |param| (any pointer may be NULL).
 * FM_OK or FM_ERR_UNSUPPORTED (the lengths then 0). Informational: works in every state and
 * leaves the service indicator unchanged. */
FM_API FM_MUST_CHECK int fm_mlkem_sizes(fm_mlkem_param param, size_t *ek_len, size_t *dk_len,
                                        size_t *ct_len);

/** fm_mlkem_keygen is ML-KEM.KeyGen (FIPS 203 Algorithm 19): d and z from the module's DRBG, then
 * ek and dk. With |seed_out| non-NULL the 64-byte seed d || z is written there too (a key in
 * seed form); seed_len must then be 64. The pairwise consistency test (encapsulate to ek,
 * decapsulate with dk, compare) runs on every key. FM_ERR_ENTROPY when the DRBG fails;
 * FM_ERR_KEYGEN when the test fails. */
FM_API FM_MUST_CHECK int fm_mlkem_keygen(fm_mlkem_param param, uint8_t *ek, size_t ek_len,
                                         uint8_t *dk, size_t dk_len, uint8_t *seed_out,
                                         size_t seed_len);

/** fm_mlkem_keygen_from_seed is ML-KEM.KeyGen_internal (Algorithm 16) on the seed d || z (64
 * bytes, secret): the deterministic key generation that expands a key stored in seed form, and
 * the ACVP keyGen test. Approved. */
FM_API FM_MUST_CHECK int fm_mlkem_keygen_from_seed(fm_mlkem_param param, const uint8_t *seed,
                                                   size_t seed_len, uint8_t *ek, size_t ek_len,
                                                   uint8_t *dk, size_t dk_len);

/** fm_mlkem_encaps is ML-KEM.Encaps (Algorithm 20): m from the DRBG, then the ciphertext |ct| and
 * the shared secret |ss| (32 bytes, secret). ek passes the checks of 7.2 first. */
FM_API FM_MUST_CHECK int fm_mlkem_encaps(fm_mlkem_param param, const uint8_t *ek, size_t ek_len,
                                         uint8_t *ct, size_t ct_len, uint8_t *ss, size_t ss_len);

/** fm_mlkem_encaps_internal is ML-KEM.Encaps_internal (Algorithm 17) with the caller's m (32
 * bytes): for validation testing (ACVP encapDecap), not approved. */
FM_API FM_MUST_CHECK int fm_mlkem_encaps_internal(fm_mlkem_param param, const uint8_t *ek,
                                                  size_t ek_len, const uint8_t *m, size_t m_len,
                                                  uint8_t *ct, size_t ct_len, uint8_t *ss,
                                                  size_t ss_len);

/** fm_mlkem_decaps is ML-KEM.Decaps (Algorithm 21): the shared secret for |ct| under |dk|
 * (secret), after the checks of 7.3. A ciphertext that does not re-encrypt gives the
 * implicit-rejection key (FM_OK). */
FM_API FM_MUST_CHECK int fm_mlkem_decaps(fm_mlkem_param param, const uint8_t *dk, size_t dk_len,
                                         const uint8_t *ct, size_t ct_len, uint8_t *ss,
                                         size_t ss_len);

/** fm_mlkem_check_ek is the encapsulation key check of FIPS 203 7.2 alone (length, modulus):
 * FM_OK, FM_ERR_LENGTH or FM_ERR_BAD_KEY. fm_mlkem_check_dk is the decapsulation key check of
 * 7.3 (length, hash). Both approved; they output nothing. */
FM_API FM_MUST_CHECK int fm_mlkem_check_ek(fm_mlkem_param param, const uint8_t *ek, size_t ek_len);
FM_API FM_MUST_CHECK int fm_mlkem_check_dk(fm_mlkem_param param, const uint8_t *dk, size_t dk_len);

#ifdef __cplusplus
}
#endif

#endif
