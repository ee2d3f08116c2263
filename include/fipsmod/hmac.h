/** @file
 * HMAC (FIPS 198-1) with every hash of sha.h: SHA-2 (SHA-224 ... SHA-512/256) and SHA3-*.
 *
 * Keys may have any length (keys longer than the hash's block are hashed first, FIPS 198-1
 * step 2) and are secret; so are messages, tags and everything a context holds. Key and message
 * lengths are public. Contexts are caller-allocated; fm_hmac_final (whatever its outcome) and
 * fm_hmac_wipe zeroize them. A context is not thread-safe; the one-shot functions are.
 *
 * Every function returns FM_OK or a negative FM_ERR_*. Each checks the module state first, then
 * its arguments. On error no tag is released: the bytes the call could have written are wiped,
 * that is min(out_len, digest length) bytes when the digest length is known (from alg, or from a
 * live context), and nothing else. A call whose tag length is unknown (a NULL or dead context, an
 * unknown alg) wrote nothing and touches no output byte, so a claimed out_len larger than the
 * real buffer never makes the module write past the tag length. Nothing is ever written past
 * out_len. Outside the OPERATIONAL state every function returns FM_ERR_NOT_OPERATIONAL and
 * wipes its outputs (as above), contexts included. No key-derived state is left on the stack
 * or in vector registers after a call returns. Length limit: keys and messages of at most 2^61 - 1 bytes (a little less for
 * messages: the inner hash also reads one key block) -> FM_ERR_LENGTH. */
#ifndef FIPSMOD_HMAC_H
#define FIPSMOD_HMAC_H

#include <stddef.h>
#include <stdint.h>
#include "fipsmod/sha.h"
#include "fipsmod/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Opaque, caller-allocated incremental HMAC context (holds key-derived secrets; the key itself
 * is not kept). A zeroed context is "not initialized": update and final give FM_ERR_STATE. */
typedef struct fm_hmac_ctx {
  FM_ALIGNAS(16) uint64_t opaque[72];
} fm_hmac_ctx;

/** fm_hmac_init keys |ctx| for |alg| with |key_len| bytes at |key| (secret; NULL only when key_len
 * is 0; an empty key is valid). FM_ERR_BAD_ARGUMENT: ctx NULL, or key NULL with key_len > 0;
 * FM_ERR_UNSUPPORTED: unknown alg; FM_ERR_LENGTH: key too long. On error ctx is wiped. */
FM_MUST_CHECK
FM_API int fm_hmac_init(fm_hmac_ctx *ctx, fm_hash_alg alg, const uint8_t *key, size_t key_len);

/** fm_hmac_update absorbs |len| message bytes at |data| (NULL only when len is 0); any split gives
 * the same tag. FM_ERR_BAD_ARGUMENT: ctx NULL, or data NULL with len > 0; FM_ERR_STATE: not
 * initialized, wiped or finalized; FM_ERR_LENGTH: message too long. A call that fails with
 * BAD_ARGUMENT or LENGTH absorbs nothing and leaves ctx usable. */
FM_MUST_CHECK
FM_API int fm_hmac_update(fm_hmac_ctx *ctx, const void *data, size_t len);

/** fm_hmac_final writes the full tag (the digest length of alg; secret) to |out|, |out_len| >= that
 * length (only that much is written), and wipes |ctx| on success and on every error alike.
 * FM_ERR_BAD_ARGUMENT: ctx or out NULL; FM_ERR_STATE: not initialized or finalized;
 * FM_ERR_BUFFER_TOO_SMALL. On error out is wiped as above (not at all when ctx is NULL or not
 * keyed). */
FM_MUST_CHECK
FM_API int fm_hmac_final(fm_hmac_ctx *ctx, uint8_t *out, size_t out_len);

/** fm_hmac_wipe zeroizes |ctx| (NULL is accepted). The zeroization happens in every module state;
 * returns FM_OK, or FM_ERR_NOT_OPERATIONAL (after wiping) outside OPERATIONAL. */
FM_API int fm_hmac_wipe(fm_hmac_ctx *ctx);

/** fm_hmac computes the full tag of |len| bytes at |data| under |key| in one call and writes it
 * to |out| (out_len >= the digest length; only that much is written). The message is read in
 * place, never copied whole. FM_ERR_BAD_ARGUMENT: out NULL, or key/data NULL with a non-zero
 * length; FM_ERR_UNSUPPORTED; FM_ERR_BUFFER_TOO_SMALL; FM_ERR_LENGTH. Thread-safe. */
FM_MUST_CHECK
FM_API int fm_hmac(fm_hash_alg alg, const uint8_t *key, size_t key_len, const void *data,
                   size_t len, uint8_t *out, size_t out_len);

/** fm_hmac_verify recomputes the tag of |data| and compares its first |tag_len| bytes with |tag|
 * in constant time (time depends on tag_len only). |tag_len| must be from 4 (32 bits,
 * SP 800-107r1 5.3.3) up to the digest length: a truncated tag is the leftmost tag_len bytes.
 * FM_OK when they match, FM_ERR_VERIFY when not; FM_ERR_BAD_ARGUMENT: tag NULL, or key/data NULL
 * with a non-zero length; FM_ERR_UNSUPPORTED: unknown alg; FM_ERR_LENGTH: bad tag_len, or key or
 * message too long. The computed tag never leaves the module. Thread-safe.
 * FM_OK is 0 and a wrong tag is FM_ERR_VERIFY (-5, non-zero): `if (fm_hmac_verify(...))` is the
 * FAILURE branch. Compare with FM_OK. */
FM_MUST_CHECK
FM_API int fm_hmac_verify(fm_hash_alg alg, const uint8_t *key, size_t key_len, const void *data,
                          size_t len, const uint8_t *tag, size_t tag_len);

#ifdef __cplusplus
}
#endif
#endif
