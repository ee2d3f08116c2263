/** @file
 * Key derivation on HMAC-SHA-256/384/512: HKDF (RFC 5869; SP 800-56C Rev. 2 two-step), the
 * SP 800-108r1 counter-mode KDF (KBKDF), and PBKDF2 (SP 800-132).
 *
 * All inputs that are keys (IKM, PRK, KBKDF key, password) and every output are secret; salts,
 * info, fixed data, lengths and iteration counts are public. No function keeps state: all are
 * thread-safe. Every function returns FM_OK or a negative FM_ERR_*; the module state is checked
 * first (FM_ERR_NOT_OPERATIONAL), then the arguments. On any error the output is zeroed (its
 * |out_len| bytes, when that length is itself valid) and nothing else is written. |alg| is
 * any hash of sha.h, SHA-2 or SHA3-* (else FM_ERR_UNSUPPORTED); hLen below is its digest length
 * (28 to 64).
 *
 * Approved parameters (the security policy's; calls outside them work, and the service
 * indicator reports them as not approved; the rules live in module/approval.c and are listed in
 * policy/approval.tsv):
 *   - HKDF (SP 800-56C Rev. 2, two-step with HMAC): the IKM is a shared secret Z from an approved
 *     key establishment scheme, of at least 112 bits (14 bytes: an IKM that short cannot support
 *     the weakest approved security strength, SP 800-131Ar2, SP 800-133 Rev. 2 6.3), for
 *     fm_hkdf_extract and fm_hkdf alike; salt any length (an all-zero salt of hLen bytes when
 *     empty, as RFC 5869 says); the derived key at least 112 bits (14 bytes).
 *   - KBKDF (SP 800-108r1 counter mode, HMAC PRF): key derivation key at least 112 bits
 *     (14 bytes); counter 8, 16, 24 or 32 bits; output at most (2^r - 1) * hLen bytes for an
 *     r-bit counter; derived keys of at least 112 bits.
 *   - PBKDF2 (SP 800-132): only for deriving keys for storage applications; salt at least
 *     128 bits (16 bytes) of which at least 128 bits are random; iteration count at least 1000
 *     (and as large as the application tolerates); derived key (mk) at least 112 bits (14 bytes);
 *     a password of at least 8 bytes (the module's policy: SP 800-132 sets no minimum, but the
 *     password's entropy bounds the derived key's strength). */
#ifndef FIPSMOD_KDF_H
#define FIPSMOD_KDF_H

#include <stddef.h>
#include <stdint.h>
#include "fipsmod/sha.h"
#include "fipsmod/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** fm_hkdf_extract writes PRK = HMAC-Hash(salt, IKM) (RFC 5869 2.2; SP 800-56C Rev. 2 5.1,
 * randomness extraction) to |prk|, |prk_len| >= hLen (hLen bytes are written). An empty salt
 * (NULL with salt_len 0) means hLen zero bytes. FM_ERR_BAD_ARGUMENT: prk NULL, or salt/ikm NULL
 * with a non-zero length. FM_ERR_UNSUPPORTED. FM_ERR_BUFFER_TOO_SMALL. FM_ERR_LENGTH (an input
 * over HMAC's limit). */
FM_MUST_CHECK
FM_API int fm_hkdf_extract(fm_hash_alg alg, const uint8_t *salt, size_t salt_len,
                           const uint8_t *ikm, size_t ikm_len, uint8_t *prk, size_t prk_len);

/** fm_hkdf_expand writes |out_len| bytes of OKM = T(1) || T(2) || ... (RFC 5869 2.3; SP 800-56C
 * Rev. 2 5.2 with the feedback-mode KDF of SP 800-108 as RFC 5869 defines it) to |out|.
 * |prk_len| must be at least hLen; out_len 1 .. 255 * hLen. FM_ERR_BAD_ARGUMENT: prk or out
 * NULL, info NULL with info_len > 0. FM_ERR_LENGTH: out_len 0 or over 255 * hLen, prk_len under
 * hLen. FM_ERR_OVERLAP: out overlaps prk or info. */
FM_MUST_CHECK
FM_API int fm_hkdf_expand(fm_hash_alg alg, const uint8_t *prk, size_t prk_len, const uint8_t *info,
                          size_t info_len, uint8_t *out, size_t out_len);

/** fm_hkdf is extract then expand in one call (the PRK is wiped). Errors as the two above;
 * FM_ERR_OVERLAP when out overlaps ikm, salt or info. */
FM_MUST_CHECK
FM_API int fm_hkdf(fm_hash_alg alg, const uint8_t *ikm, size_t ikm_len, const uint8_t *salt,
                   size_t salt_len, const uint8_t *info, size_t info_len, uint8_t *out,
                   size_t out_len);

/** fm_kbkdf_ctr_hmac derives |out_len| bytes with the SP 800-108r1 KDF in counter mode (4.1) and
 * PRF = HMAC-Hash keyed with |key|: K(i) = PRF(key, fixed[0..ctr_pos) || [i]_r ||
 * fixed[ctr_pos..fixed_len)) for i = 1..n, n = ceil(out_len / hLen), the output the first
 * out_len bytes of K(1) || K(2) || .... |ctr_pos| places the counter: 0 before the fixed data,
 * fixed_len after it, anything between in the middle (as ACVP tests it). The fixed data is the
 * caller's encoding of Label || 0x00 || Context || [L]_2 (or whatever the application fixes);
 * the module does not add [L]_2 itself. |ctr_bits| is r: 8, 16, 24 or 32.
 * FM_ERR_BAD_ARGUMENT: out NULL, key or fixed NULL with a non-zero length, ctr_pos > fixed_len,
 * ctr_bits not one of the four. FM_ERR_UNSUPPORTED. FM_ERR_LENGTH: out_len 0, or n > 2^r - 1.
 * FM_ERR_OVERLAP: out overlaps key or fixed. */
FM_MUST_CHECK
FM_API int fm_kbkdf_ctr_hmac(fm_hash_alg alg, const uint8_t *key, size_t key_len,
                             const uint8_t *fixed, size_t fixed_len, size_t ctr_pos,
                             unsigned ctr_bits, uint8_t *out, size_t out_len);

/** fm_pbkdf2_hmac derives |out_len| bytes from |password| and |salt| with PBKDF2 (SP 800-132 5.3;
 * RFC 8018 5.2) and PRF = HMAC-Hash, |iterations| rounds (C >= 1). The cost grows with
 * iterations * ceil(out_len / hLen) HMAC computations; the time depends only on the lengths
 * and the count.
 * FM_ERR_BAD_ARGUMENT: out NULL, password or salt NULL with a non-zero length, iterations 0.
 * FM_ERR_UNSUPPORTED. FM_ERR_LENGTH: out_len 0 or over (2^32 - 1) * hLen. FM_ERR_OVERLAP: out
 * overlaps password or salt. */
FM_MUST_CHECK
FM_API int fm_pbkdf2_hmac(fm_hash_alg alg, const uint8_t *password, size_t password_len,
                          const uint8_t *salt, size_t salt_len, uint64_t iterations, uint8_t *out,
                          size_t out_len);

#ifdef __cplusplus
}
#endif
#endif
