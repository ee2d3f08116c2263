/** @file
 * AES-128/192/256-GCM (SP 800-38D): authenticated encryption with associated data.
 *
 * Keys. A GCM key (fm_gcm_key) is caller-allocated, built by fm_gcm_key_init (IVs from the
 * module's DRBG) or fm_gcm_key_init_counter_iv (IVs from a per-key counter), zeroized by
 * fm_gcm_key_wipe. It holds the AES schedule, the GHASH subkey and its powers (all secret), and
 * the state of the key's IV generation and invocation count. A key that was never initialized,
 * failed initialization or was wiped is refused with FM_ERR_STATE. Copying a key or a streaming
 * context is not supported (the copy would generate the same IVs, split the invocation count, or
 * encrypt two messages under one IV): each is bound to the address it was initialized at, and a
 * copy (memcpy, a struct assignment, a key moved in memory) is refused with FM_ERR_STATE.
 *
 * IVs (SP 800-38D 8.2). The approved way to encrypt is fm_gcm_seal / fm_gcm_encrypt_init, which
 * build a 96-bit IV inside the module and return it to the caller (who sends it with the
 * ciphertext; the IV is not secret):
 *   - fm_gcm_key_init: the RBG-based construction (8.2.2): all 96 bits from the module's DRBG
 *     (the calling thread's instance, taken from its batch as fm_rand_u64's draws are).
 *   - fm_gcm_key_init_counter_iv: the deterministic construction (8.2.1): a 32-bit fixed field
 *     that the caller chooses (it must differ between every device or context that uses the
 *     same key) followed by a 64-bit invocation field, a counter kept in the key. Each key
 *     instance starts its invocation field at a value drawn from the module's DRBG when the key
 *     is built, so that building the key again (same key, same fixed field, in this process or
 *     another) does not restart at the IVs already used: two instances share an IV only if their
 *     ranges of invocation fields overlap, with probability at most (n1 + n2) / 2^64 for n1 and n2
 *     encryptions. Within one instance the IVs are distinct by construction.
 *   - Fork: a counter key belongs to the process that built it. In a child of fork() (detected
 *     by the RNG's fork generation, or the process id where the RNG has no fork detection) every
 *     encryption that would generate an IV with the inherited key fails with FM_ERR_STATE, so the
 *     child never produces the IVs the parent goes on producing; the child builds its own key
 *     (with a fixed field of its own). A child made by a raw clone() system call (not through
 *     fork()) is detected where the RNG uses MADV_WIPEONFORK or the process id, not where it
 *     relies on pthread_atfork alone. RBG keys go on working in a child: its DRBG is reseeded
 *     there, so its IVs are fresh (but the child and the parent each count invocations from the
 *     count at fork()). A streaming encryption started in one process cannot be continued in
 *     another (FM_ERR_STATE).
 * A caller-given IV (fm_gcm_seal_with_iv, fm_gcm_encrypt_init_with_iv) is NOT an approved way
 * to encrypt: the module cannot know that the IV is unique. It is offered for protocols that
 * fix the IV and for validation testing; the service indicator reports it as non-approved.
 * Decryption always takes the caller's IV (any length from 1 byte; 12 bytes is the recommended
 * length).
 *
 * Limits (SP 800-38D 8.3 and 5.2.1.1), enforced per key and per message:
 *   - invocations of authenticated encryption with one key: at most 2^32 for an RBG key
 *     (counting caller-IV encryptions too); at most 2^64 - 1 for a counter key (the invocation
 *     field must not wrap). Past the limit every encryption returns FM_ERR_STATE: replace the key.
 *   - plaintext (and ciphertext) per message: at most 2^39 - 256 bits (2^36 - 32 bytes).
 *   - AAD per message: at most 2^61 - 1 bytes (2^64 - 1 bits, rounded down to bytes); IV at most
 *     2^61 - 1 bytes.
 *   Longer inputs give FM_ERR_LENGTH.
 *
 * Tags. tag_len 16, 15, 14, 13 or 12 bytes (128, 120, 112, 104, 96 bits) is approved. 8 and 4
 * bytes (64 and 32 bits) are accepted but NOT approved here (SP 800-38D Appendix C allows them
 * only under message length and invocation limits that this module does not track); any other
 * length is FM_ERR_LENGTH. Opening compares the tag in constant time.
 *
 * Buffers. Ciphertext and plaintext have the same length; input and output may be the same
 * buffer (in place); any other overlap between them, or between the tag or IV and the data, is
 * FM_ERR_OVERLAP. NULL buffers are accepted with length 0.
 *
 * Errors. Every function returns FM_OK or a negative FM_ERR_* (status.h). The module state is
 * checked first (FM_ERR_NOT_OPERATIONAL), then the arguments. On any error the outputs whose
 * length the call accepted are zeroed (ciphertext/plaintext, tag, generated IV) and no partial
 * result is released; in particular fm_gcm_open wipes the whole plaintext when the tag is wrong
 * (FM_ERR_VERIFY).
 *
 * FM_OK is 0 and a wrong tag is FM_ERR_VERIFY (-5, non-zero), unlike OpenSSL's 1 = success:
 * `if (fm_gcm_open(...))` and `if (fm_gcm_decrypt_final(...))` are the FAILURE branch. Compare
 * with FM_OK, and use the plaintext only when the call returned FM_OK.
 *
 * Threads. A key may be used by any number of threads at once, encryption included (the IV
 * counter and invocation count are atomic). A streaming context (fm_gcm_ctx) belongs to one
 * thread at a time. */
#ifndef FIPSMOD_GCM_H
#define FIPSMOD_GCM_H

#include <stddef.h>
#include <stdint.h>
#include "fipsmod/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FM_GCM_IV_LEN 12      /**< the IV the module generates (96 bits) */
#define FM_GCM_TAG_LEN 16     /**< the full tag */
#define FM_GCM_FIXED_LEN 4    /**< the fixed field of a counter-IV key (32 bits) */
/** The longest plaintext per message, 2^39 - 256 bits (SP 800-38D 5.2.1.1). */
#define FM_GCM_MAX_TEXT_LEN ((((uint64_t)1) << 36) - 32)

/** Opaque, caller-allocated GCM key. Do not copy (see above). It asks for 64-byte alignment:
 * declare it, or allocate it with aligned_alloc(64, ...). The module needs at least 16 (what
 * malloc promises) and refuses a key at a lower alignment with FM_ERR_BAD_ARGUMENT at
 * initialization (never a fault); a key moved elsewhere afterwards is a copy (FM_ERR_STATE). */
typedef struct fm_gcm_key {
  FM_ALIGNAS(64) uint64_t opaque[200];
} fm_gcm_key;

/** Opaque, caller-allocated streaming context. It points at its key: the key must stay
 * initialized and in place until the context is finished or wiped. Do not copy (see above); any
 * alignment of the type's own (16) or lower works. */
typedef struct fm_gcm_ctx {
  FM_ALIGNAS(16) uint64_t opaque[24];
} fm_gcm_ctx;

/** fm_gcm_key_init builds a GCM key from |key| (16, 24 or 32 bytes: AES-128, AES-192, AES-256;
 * secret) whose encryptions take RBG-based IVs (SP 800-38D 8.2.2). Thread-safe for distinct keys.
 * FM_ERR_BAD_ARGUMENT: k or key NULL, or k under 16-byte alignment. FM_ERR_KEY_SIZE: key_len not
 * 16, 24 or 32. FM_ERR_OVERLAP: key lies inside k. On any error |k| is zeroed. */
FM_MUST_CHECK
FM_API int fm_gcm_key_init(fm_gcm_key *k, const uint8_t *key, size_t key_len);

/** fm_gcm_key_init_counter_iv builds a GCM key whose encryptions take deterministic IVs
 * (SP 800-38D 8.2.1): fixed[0..4) || invocation counter (64 bits, big-endian, from 0). |fixed|
 * is public. Errors as fm_gcm_key_init, FM_ERR_BAD_ARGUMENT for a NULL fixed, and FM_ERR_ENTROPY
 * when the DRBG cannot give the instance's first invocation field (see above). */
FM_MUST_CHECK
FM_API int fm_gcm_key_init_counter_iv(fm_gcm_key *k, const uint8_t *key, size_t key_len,
                                      const uint8_t fixed[FM_GCM_FIXED_LEN]);

/** fm_gcm_key_wipe zeroizes |k| (NULL accepted). It always wipes; returns FM_OK, or
 * FM_ERR_NOT_OPERATIONAL (after wiping) outside OPERATIONAL. */
FM_API int fm_gcm_key_wipe(fm_gcm_key *k);

/** fm_gcm_seal encrypts |len| bytes of |pt| into |ct| and writes a |tag_len|-byte tag over the
 * |aad_len| bytes of |aad| and the ciphertext (SP 800-38D 7.1) under a 96-bit IV that the module
 * generates as the key says, and writes the IV to |iv| (12 bytes). The approved encryption.
 * Secret: k, pt, ct. Thread-safe.
 * FM_ERR_BAD_ARGUMENT: k, iv or tag NULL, or aad/pt/ct NULL with a non-zero length. FM_ERR_STATE:
 * k not initialized, a copy, its invocation limit reached, or a counter key in a child of
 * fork(). FM_ERR_LENGTH: tag_len not allowed, len over FM_GCM_MAX_TEXT_LEN or aad_len over the
 * limit. FM_ERR_OVERLAP. FM_ERR_ENTROPY (RBG key: the DRBG failed). On error ct (len bytes), tag
 * (tag_len bytes, when tag_len is allowed) and iv are zeroed. */
FM_MUST_CHECK
FM_API int fm_gcm_seal(fm_gcm_key *k, uint8_t iv[FM_GCM_IV_LEN], const uint8_t *aad,
                       size_t aad_len, const uint8_t *pt, size_t len, uint8_t *ct, uint8_t *tag,
                       size_t tag_len);

/** fm_gcm_seal_with_iv is fm_gcm_seal under the caller's IV (|iv_len| >= 1 bytes, public). NOT
 * approved (see above); it counts towards the key's invocation limit. Errors as fm_gcm_seal, and
 * FM_ERR_LENGTH for iv_len 0 or over the limit; iv is only read. */
FM_MUST_CHECK
FM_API int fm_gcm_seal_with_iv(fm_gcm_key *k, const uint8_t *iv, size_t iv_len,
                               const uint8_t *aad, size_t aad_len, const uint8_t *pt, size_t len,
                               uint8_t *ct, uint8_t *tag, size_t tag_len);

/** fm_gcm_open checks the |tag_len|-byte |tag| over |aad| and |ct| and decrypts |len| bytes of
 * |ct| into |pt| (SP 800-38D 7.2). FM_ERR_VERIFY when the tag is wrong: then all len bytes of
 * pt are zeroed. Secret: k, pt. Thread-safe. Other errors as fm_gcm_seal_with_iv (no
 * FM_ERR_ENTROPY; FM_ERR_STATE only for an unusable key); pt is zeroed on every error. */
FM_MUST_CHECK
FM_API int fm_gcm_open(const fm_gcm_key *k, const uint8_t *iv, size_t iv_len, const uint8_t *aad,
                       size_t aad_len, const uint8_t *ct, size_t len, const uint8_t *tag,
                       size_t tag_len, uint8_t *pt);

/* Streaming. A message is: one init, then any number of fm_gcm_aad calls, then any number of
 * fm_gcm_update calls (no AAD after the first update), then one final. Any split of the AAD and
 * of the text gives the same result as one call. A context that failed, was finished or was
 * wiped gives FM_ERR_STATE until it is initialized again; every error wipes the context.
 *
 * Decryption releases plaintext before the tag is checked: a caller that streams decryption
 * must hold back (or discard) everything fm_gcm_update wrote until fm_gcm_decrypt_final
 * returns FM_OK. Use fm_gcm_open when the message fits in memory. */

/** fm_gcm_encrypt_init starts an encryption under a module-generated 96-bit IV, written to |iv|
 * (approved, as fm_gcm_seal). FM_ERR_BAD_ARGUMENT: c, k or iv NULL. FM_ERR_STATE, FM_ERR_ENTROPY
 * as fm_gcm_seal. On error iv is zeroed. */
FM_MUST_CHECK
FM_API int fm_gcm_encrypt_init(fm_gcm_ctx *c, fm_gcm_key *k, uint8_t iv[FM_GCM_IV_LEN]);

/** fm_gcm_encrypt_init_with_iv starts an encryption under the caller's IV (NOT approved). */
FM_MUST_CHECK
FM_API int fm_gcm_encrypt_init_with_iv(fm_gcm_ctx *c, fm_gcm_key *k, const uint8_t *iv,
                                       size_t iv_len);

/** fm_gcm_decrypt_init starts a decryption under |iv| (iv_len >= 1). */
FM_MUST_CHECK
FM_API int fm_gcm_decrypt_init(fm_gcm_ctx *c, const fm_gcm_key *k, const uint8_t *iv,
                               size_t iv_len);

/** fm_gcm_aad absorbs |len| bytes of associated data. FM_ERR_STATE after the first update, or on
 * an unusable context; FM_ERR_LENGTH past the AAD limit; FM_ERR_BAD_ARGUMENT. */
FM_MUST_CHECK
FM_API int fm_gcm_aad(fm_gcm_ctx *c, const uint8_t *aad, size_t len);

/** fm_gcm_update encrypts or decrypts (as the context was started) |len| bytes of |in| into
 * |out|. FM_ERR_LENGTH past FM_GCM_MAX_TEXT_LEN in total; FM_ERR_OVERLAP; FM_ERR_STATE;
 * FM_ERR_BAD_ARGUMENT. On error out (len bytes) is zeroed. */
FM_MUST_CHECK
FM_API int fm_gcm_update(fm_gcm_ctx *c, const uint8_t *in, uint8_t *out, size_t len);

/** fm_gcm_encrypt_final writes the |tag_len|-byte tag and wipes the context. FM_ERR_STATE (not an
 * encryption context); FM_ERR_LENGTH (tag_len not allowed); on error tag is zeroed. */
FM_MUST_CHECK
FM_API int fm_gcm_encrypt_final(fm_gcm_ctx *c, uint8_t *tag, size_t tag_len);

/** fm_gcm_decrypt_final compares |tag| with the computed tag in constant time and wipes the
 * context: FM_OK (0), or FM_ERR_VERIFY (non-zero: the tag is wrong, and the plaintext already
 * released must be discarded). */
FM_MUST_CHECK
FM_API int fm_gcm_decrypt_final(fm_gcm_ctx *c, const uint8_t *tag, size_t tag_len);

/** fm_gcm_ctx_wipe zeroizes |c| (NULL accepted); FM_OK or FM_ERR_NOT_OPERATIONAL (after wiping). */
FM_API int fm_gcm_ctx_wipe(fm_gcm_ctx *c);

#ifdef __cplusplus
}
#endif
#endif
