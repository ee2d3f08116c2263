/* SHA-2: SHA-256, SHA-384 and SHA-512 (FIPS 180-4).
 *
 * Contexts are caller-allocated and need no free, but fm_sha_final wipes them and fm_sha_wipe
 * may be called to wipe one that is abandoned. A context is not thread-safe; distinct contexts
 * may be used from distinct threads. Every function returns FM_OK or a negative FM_ERR_*; on
 * error the output is wiped. Outside the OPERATIONAL state every function returns
 * FM_ERR_NOT_OPERATIONAL. */
#ifndef FIPSMOD_SHA_H
#define FIPSMOD_SHA_H

#include <stddef.h>
#include <stdint.h>
#include "fipsmod/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  FM_HASH_SHA256 = 1,
  FM_HASH_SHA384 = 2,
  FM_HASH_SHA512 = 3,
} fm_hash_alg;

#define FM_SHA256_DIGEST_LEN 32
#define FM_SHA384_DIGEST_LEN 48
#define FM_SHA512_DIGEST_LEN 64
#define FM_MAX_DIGEST_LEN 64

/* Opaque, caller-allocated incremental hashing context. */
typedef struct fm_sha_ctx {
  _Alignas(16) uint64_t opaque[32];
} fm_sha_ctx;

/* fm_hash_digest_len sets |*len| to the digest length of |alg|.
 * FM_ERR_BAD_ARGUMENT: len NULL; FM_ERR_UNSUPPORTED: unknown alg. Works in every state. */
FM_API int fm_hash_digest_len(fm_hash_alg alg, size_t *len);

/* fm_sha_init starts a hash of |alg| in |ctx|.
 * FM_ERR_BAD_ARGUMENT: ctx NULL; FM_ERR_UNSUPPORTED: unknown alg. */
FM_API int fm_sha_init(fm_sha_ctx *ctx, fm_hash_alg alg);

/* fm_sha_update absorbs |len| bytes at |data| (data may be NULL only when len is 0). Any split of
 * the input across calls gives the same digest.
 * FM_ERR_BAD_ARGUMENT: ctx NULL, or data NULL with len > 0; FM_ERR_STATE: ctx not initialized or
 * already finalized; FM_ERR_LENGTH: total input beyond the algorithm's limit. */
FM_API int fm_sha_update(fm_sha_ctx *ctx, const void *data, size_t len);

/* fm_sha_final writes the digest to |out| (|out_len| must be at least the digest length; only the
 * digest length is written) and wipes |ctx|; a finalized context must be re-initialized.
 * FM_ERR_BAD_ARGUMENT, FM_ERR_STATE, FM_ERR_BUFFER_TOO_SMALL. */
FM_API int fm_sha_final(fm_sha_ctx *ctx, uint8_t *out, size_t out_len);

/* fm_sha_wipe zeroizes |ctx| (NULL is accepted). Returns FM_OK. */
FM_API int fm_sha_wipe(fm_sha_ctx *ctx);

/* fm_sha_digest hashes |len| bytes at |data| in one call (same rules as above). */
FM_API int fm_sha_digest(fm_hash_alg alg, const void *data, size_t len, uint8_t *out,
                         size_t out_len);

/* One-shot shorthands writing exactly the digest length. */
FM_API int fm_sha256(const void *data, size_t len, uint8_t out[FM_SHA256_DIGEST_LEN]);
FM_API int fm_sha384(const void *data, size_t len, uint8_t out[FM_SHA384_DIGEST_LEN]);
FM_API int fm_sha512(const void *data, size_t len, uint8_t out[FM_SHA512_DIGEST_LEN]);

#ifdef __cplusplus
}
#endif
#endif
