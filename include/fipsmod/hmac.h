/* HMAC (FIPS 198-1) with SHA-256, SHA-384 and SHA-512.
 *
 * Keys may have any length (longer than a block are hashed first) and are secret. Contexts are
 * caller-allocated; fm_hmac_final and fm_hmac_wipe zeroize them. A context is not thread-safe.
 * Every function returns FM_OK or a negative FM_ERR_*; on error the output is wiped. Outside the
 * OPERATIONAL state every function returns FM_ERR_NOT_OPERATIONAL. */
#ifndef FIPSMOD_HMAC_H
#define FIPSMOD_HMAC_H

#include <stddef.h>
#include <stdint.h>
#include "fipsmod/sha.h"
#include "fipsmod/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Opaque, caller-allocated incremental HMAC context (holds key-derived secrets). */
typedef struct fm_hmac_ctx {
  _Alignas(16) uint64_t opaque[72];
} fm_hmac_ctx;

/* fm_hmac_init keys |ctx| for |alg| with |key_len| bytes at |key| (key may be NULL only when
 * key_len is 0). FM_ERR_BAD_ARGUMENT, FM_ERR_UNSUPPORTED. */
FM_API int fm_hmac_init(fm_hmac_ctx *ctx, fm_hash_alg alg, const uint8_t *key, size_t key_len);

/* fm_hmac_update absorbs message bytes; any split gives the same tag.
 * FM_ERR_BAD_ARGUMENT, FM_ERR_STATE (not initialized or finalized). */
FM_API int fm_hmac_update(fm_hmac_ctx *ctx, const void *data, size_t len);

/* fm_hmac_final writes the full tag (the digest length of alg) to |out|, |out_len| >= that
 * length, and wipes |ctx|. FM_ERR_BAD_ARGUMENT, FM_ERR_STATE, FM_ERR_BUFFER_TOO_SMALL. */
FM_API int fm_hmac_final(fm_hmac_ctx *ctx, uint8_t *out, size_t out_len);

/* fm_hmac_wipe zeroizes |ctx| (NULL is accepted). Returns FM_OK. */
FM_API int fm_hmac_wipe(fm_hmac_ctx *ctx);

/* fm_hmac computes the full tag of |data| in one call. */
FM_API int fm_hmac(fm_hash_alg alg, const uint8_t *key, size_t key_len, const void *data,
                   size_t len, uint8_t *out, size_t out_len);

/* fm_hmac_verify recomputes the tag of |data| and compares its first |tag_len| bytes with |tag|
 * in constant time. |tag_len| must be from 4 (32 bits, SP 800-107) up to the digest length.
 * FM_OK when they match, FM_ERR_VERIFY when not; FM_ERR_LENGTH for a bad tag_len. */
FM_API int fm_hmac_verify(fm_hash_alg alg, const uint8_t *key, size_t key_len, const void *data,
                          size_t len, const uint8_t *tag, size_t tag_len);

#ifdef __cplusplus
}
#endif
#endif
