/** @file
 * SHA-2 (FIPS 180-4: SHA-224, SHA-256, SHA-384, SHA-512, SHA-512/224, SHA-512/256), SHA-3
 * (FIPS 202: SHA3-224, SHA3-256, SHA3-384, SHA3-512) and the SHAKE128/SHAKE256 XOFs (FIPS 202).
 *
 * Contexts are caller-allocated and need no free. fm_sha_final wipes its context whatever the
 * outcome, and fm_sha_wipe wipes one that is abandoned. A context is not thread-safe; distinct
 * contexts may be used from distinct threads at once, and the one-shot functions are
 * thread-safe.
 *
 * Every function returns FM_OK or a negative FM_ERR_*. Each checks the module state first, then
 * its arguments. On error no digest is released: the bytes the call could have written are wiped,
 * that is min(out_len, digest length) bytes when the digest length is known (from alg, or from a
 * live context), and nothing else. A call whose digest length is unknown (a NULL or dead context,
 * an unknown alg) wrote nothing and touches no output byte, so a claimed out_len larger than the
 * real buffer never makes the module write past the digest length. Nothing is ever written past
 * out_len. Outside the OPERATIONAL state every function except fm_hash_digest_len returns
 * FM_ERR_NOT_OPERATIONAL and wipes its outputs (as above), contexts included.
 *
 * Secrets: message bytes and digests are treated as secret (the code's time and memory accesses
 * do not depend on them); lengths and the algorithm are public.
 * Length limit: at most 2^61 - 1 bytes per message for SHA-2 (FIPS 180-4 allows 2^64 - 1 bits for
 * SHA-256, more for SHA-384/512; the module caps all at the smaller bound). SHA-3 and SHAKE have
 * no length limit. */
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
  FM_HASH_SHA224 = 4,
  FM_HASH_SHA512_224 = 5,
  FM_HASH_SHA512_256 = 6,
  FM_HASH_SHA3_224 = 7,
  FM_HASH_SHA3_256 = 8,
  FM_HASH_SHA3_384 = 9,
  FM_HASH_SHA3_512 = 10,
} fm_hash_alg;

#define FM_SHA224_DIGEST_LEN 28
#define FM_SHA256_DIGEST_LEN 32
#define FM_SHA384_DIGEST_LEN 48
#define FM_SHA512_DIGEST_LEN 64
#define FM_SHA512_224_DIGEST_LEN 28
#define FM_SHA512_256_DIGEST_LEN 32
#define FM_SHA3_224_DIGEST_LEN 28
#define FM_SHA3_256_DIGEST_LEN 32
#define FM_SHA3_384_DIGEST_LEN 48
#define FM_SHA3_512_DIGEST_LEN 64
#define FM_MAX_DIGEST_LEN 64

/** Opaque, caller-allocated incremental hashing context. A zeroed context is "not initialized":
 * update and final on it return FM_ERR_STATE. */
typedef struct fm_sha_ctx {
  FM_ALIGNAS(16) uint64_t opaque[32];
} fm_sha_ctx;

/** fm_hash_digest_len sets |*len| to the digest length of |alg| (0 for an unknown alg).
 * FM_ERR_BAD_ARGUMENT: len NULL; FM_ERR_UNSUPPORTED: unknown alg. Not a cryptographic service: it
 * works in every module state. Thread-safe. */
FM_MUST_CHECK
FM_API int fm_hash_digest_len(fm_hash_alg alg, size_t *len);

/** fm_sha_init starts a hash of |alg| in |ctx| (a live context is simply restarted).
 * FM_ERR_BAD_ARGUMENT: ctx NULL; FM_ERR_UNSUPPORTED: unknown alg (ctx wiped). */
FM_MUST_CHECK
FM_API int fm_sha_init(fm_sha_ctx *ctx, fm_hash_alg alg);

/** fm_sha_update absorbs |len| bytes at |data| (secret; data may be NULL only when len is 0). Any
 * split of the input across calls gives the same digest.
 * FM_ERR_BAD_ARGUMENT: ctx NULL, or data NULL with len > 0; FM_ERR_STATE: ctx not initialized
 * (zeroed), wiped or already finalized; FM_ERR_LENGTH: total input beyond 2^61 - 1 bytes. A call
 * that fails with BAD_ARGUMENT or LENGTH absorbs nothing and leaves ctx usable. */
FM_MUST_CHECK
FM_API int fm_sha_update(fm_sha_ctx *ctx, const void *data, size_t len);

/** fm_sha_final writes the digest to |out| (|out_len| must be at least the digest length; only the
 * digest length is written) and wipes |ctx|, on success and on every error alike; a finalized
 * context must be re-initialized.
 * FM_ERR_BAD_ARGUMENT: ctx or out NULL; FM_ERR_STATE: ctx not initialized or already finalized;
 * FM_ERR_BUFFER_TOO_SMALL: out_len below the digest length. On error out is wiped as above (not
 * at all when ctx is NULL or not live). */
FM_MUST_CHECK
FM_API int fm_sha_final(fm_sha_ctx *ctx, uint8_t *out, size_t out_len);

/** fm_sha_wipe zeroizes |ctx| (NULL is accepted). The zeroization happens in every module state;
 * returns FM_OK, or FM_ERR_NOT_OPERATIONAL (after wiping) outside OPERATIONAL. */
FM_API int fm_sha_wipe(fm_sha_ctx *ctx);

/** fm_sha_digest hashes |len| bytes at |data| (secret; NULL only when len is 0) in one call and
 * writes the digest of |alg| to |out| (out_len >= the digest length; only that much is written).
 * FM_ERR_BAD_ARGUMENT: out NULL, or data NULL with len > 0; FM_ERR_UNSUPPORTED: unknown alg;
 * FM_ERR_BUFFER_TOO_SMALL; FM_ERR_LENGTH: len beyond 2^61 - 1. Thread-safe. */
FM_MUST_CHECK
FM_API int fm_sha_digest(fm_hash_alg alg, const void *data, size_t len, uint8_t *out,
                         size_t out_len);

/** One-shot shorthands writing exactly the digest length to |out|.
 * FM_ERR_BAD_ARGUMENT: out NULL, or data NULL with len > 0; FM_ERR_LENGTH. Thread-safe. */
FM_MUST_CHECK
FM_API int fm_sha256(const void *data, size_t len, uint8_t out[FM_SHA256_DIGEST_LEN]);
FM_MUST_CHECK
FM_API int fm_sha384(const void *data, size_t len, uint8_t out[FM_SHA384_DIGEST_LEN]);
FM_MUST_CHECK
FM_API int fm_sha512(const void *data, size_t len, uint8_t out[FM_SHA512_DIGEST_LEN]);
FM_MUST_CHECK
FM_API int fm_sha224(const void *data, size_t len, uint8_t out[FM_SHA224_DIGEST_LEN]);
FM_MUST_CHECK
FM_API int fm_sha512_224(const void *data, size_t len, uint8_t out[FM_SHA512_224_DIGEST_LEN]);
FM_MUST_CHECK
FM_API int fm_sha512_256(const void *data, size_t len, uint8_t out[FM_SHA512_256_DIGEST_LEN]);
FM_MUST_CHECK
FM_API int fm_sha3_224(const void *data, size_t len, uint8_t out[FM_SHA3_224_DIGEST_LEN]);
FM_MUST_CHECK
FM_API int fm_sha3_256(const void *data, size_t len, uint8_t out[FM_SHA3_256_DIGEST_LEN]);
FM_MUST_CHECK
FM_API int fm_sha3_384(const void *data, size_t len, uint8_t out[FM_SHA3_384_DIGEST_LEN]);
FM_MUST_CHECK
FM_API int fm_sha3_512(const void *data, size_t len, uint8_t out[FM_SHA3_512_DIGEST_LEN]);

/* ---- SHAKE128 and SHAKE256 (FIPS 202 section 6.2) ------------------------------------------
 * Extendable-output functions: any output length, and any split of the output across squeeze
 * calls gives the same stream. Input and output bytes are secret; lengths are public. A SHAKE is
 * not a hash id: fm_hmac, the KDFs and RSA do not take it. */

typedef enum {
  FM_XOF_SHAKE128 = 1,
  FM_XOF_SHAKE256 = 2,
} fm_xof_alg;

/** Opaque, caller-allocated SHAKE context. A zeroed context is "not initialized": absorb and
 * squeeze on it return FM_ERR_STATE. Not thread-safe; distinct contexts may be used at once. */
typedef struct fm_shake_ctx {
  FM_ALIGNAS(16) uint64_t opaque[32];
} fm_shake_ctx;

/** fm_shake_init starts |alg| in |ctx|. FM_ERR_BAD_ARGUMENT: ctx NULL; FM_ERR_UNSUPPORTED: unknown
 * alg (ctx wiped). */
FM_MUST_CHECK
FM_API int fm_shake_init(fm_shake_ctx *ctx, fm_xof_alg alg);

/** fm_shake_absorb absorbs |len| bytes at |data| (NULL only when len is 0). FM_ERR_BAD_ARGUMENT:
 * ctx NULL, or data NULL with len > 0 (nothing absorbed, ctx usable); FM_ERR_STATE: ctx not
 * initialized, wiped, or already squeezing (absorbing after the first squeeze is refused and
 * leaves ctx as it was). */
FM_MUST_CHECK
FM_API int fm_shake_absorb(fm_shake_ctx *ctx, const void *data, size_t len);

/** fm_shake_squeeze writes the next |len| bytes of output to |out| (the first call ends the
 * input). FM_ERR_BAD_ARGUMENT: ctx NULL, or out NULL with len > 0 (ctx usable); FM_ERR_STATE:
 * ctx not initialized or wiped (the |len| bytes at out are wiped). */
FM_MUST_CHECK
FM_API int fm_shake_squeeze(fm_shake_ctx *ctx, uint8_t *out, size_t len);

/** fm_shake_wipe zeroizes |ctx| (NULL is accepted), in every module state; FM_OK, or
 * FM_ERR_NOT_OPERATIONAL (after wiping) outside OPERATIONAL. */
FM_API int fm_shake_wipe(fm_shake_ctx *ctx);

/** fm_shake128 and fm_shake256 write |out_len| bytes of SHAKE output over |len| bytes at |data|
 * (NULL only when len is 0) to |out| (NULL only when out_len is 0). FM_ERR_BAD_ARGUMENT as
 * above (out wiped when not NULL). Thread-safe. */
FM_MUST_CHECK
FM_API int fm_shake128(const void *data, size_t len, uint8_t *out, size_t out_len);
FM_MUST_CHECK
FM_API int fm_shake256(const void *data, size_t len, uint8_t *out, size_t out_len);

#ifdef __cplusplus
}
#endif
#endif
