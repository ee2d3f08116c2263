/** @file
 * AES-128, AES-192 and AES-256 (FIPS 197) in ECB, CBC (SP 800-38A 6.1, 6.2) and CTR
 * (SP 800-38A 6.5) modes.
 *
 * Key schedules. A schedule (fm_aes_key) is caller-allocated, built by fm_aes_key_init and
 * zeroized by fm_aes_key_wipe; it serves both encryption and decryption. A schedule that was
 * never initialized, failed initialization or was wiped is refused with FM_ERR_STATE. The key and
 * the schedule are secret.
 *
 * Paths. The fast path (AES-NI, with VAES on 256- or 512-bit registers where present) is chosen
 * at load; the portable path (FIPSMOD_CPU=portable, or no AES-NI) is a bitsliced implementation
 * that is constant time and uses no table indexed by key or data. Both give the same results.
 *
 * Buffers. Input and output may be the same buffer (in place); any other overlap between them
 * is FM_ERR_OVERLAP, and so is an IV, counter or key-stream buffer that overlaps the input, the
 * output or (key stream) the counter. A length of
 * 0 is valid and does nothing (NULL buffers are then accepted).
 *
 * Errors. Every function returns FM_OK or a negative FM_ERR_* (status.h), checking the module
 * state first, then its arguments in the order listed below. On error no partial result is
 * released, IVs and counters are left unchanged, and |out| is zeroed (all |len| bytes, when out is
 * not NULL) provided |len| is valid in itself. A length that is not (not whole blocks for ECB and
 * CBC, a range from |in| or |out| past the end of the address space, more CTR32 counter blocks than
 * the counter has left) is never used to touch memory: |out| is then left as it was, whatever the
 * status (such a call fails with FM_ERR_LENGTH once the checks before the length pass). Outside
 * the OPERATIONAL state every function returns FM_ERR_NOT_OPERATIONAL after zeroing its outputs
 * in the same way.
 *
 * Threads. A schedule may be used by any number of threads at once (the functions only read
 * it). An IV, counter or key-stream buffer is updated in place and must not be shared between
 * concurrent calls. */
#ifndef FIPSMOD_AES_H
#define FIPSMOD_AES_H

#include <stddef.h>
#include <stdint.h>
#include "fipsmod/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FM_AES_BLOCK_LEN 16

/** Opaque, caller-allocated key schedule (encryption and decryption). Copying one is allowed
 * (it stays usable); wipe every copy. Alignment: the type asks for 64 bytes; the module needs at
 * least 16 (what malloc gives) and refuses a schedule at a lower alignment with
 * FM_ERR_BAD_ARGUMENT (in fm_aes_key_init and in every call that uses it), never a fault. */
typedef struct fm_aes_key {
  FM_ALIGNAS(64) uint64_t opaque[160];
} fm_aes_key;

/** Counter widths for CTR mode: FM_AES_CTR32 increments only the last 32 bits of the counter
 * block (big-endian, as GCM's inc32; the first 96 bits never change) and never wraps them: a call
 * whose blocks would take those bits past 0xfffffffe, so that the counter it hands back would wrap
 * to 0 and the next call would repeat a counter block and its key stream, fails with
 * FM_ERR_LENGTH before writing anything. The last block of a message may use 0xfffffffe; the
 * counter is then left at 0xffffffff, from which every call that needs a new block fails: the
 * message's counter space is spent. Counter block 0xffffffff is never used. FM_AES_CTR128
 * increments the whole 128-bit block (big-endian, wrapping mod 2^128). */
typedef enum {
  FM_AES_CTR32 = 32,
  FM_AES_CTR128 = 128,
} fm_aes_ctr_width;

/** fm_aes_key_init expands |key| (16, 24 or 32 bytes: AES-128, AES-192, AES-256) into |ks|
 * (FIPS 197 5.2), for both directions. Secret: key, ks. Thread-safe for distinct |ks|.
 * FM_ERR_BAD_ARGUMENT: ks or key is NULL, or ks under 16-byte alignment. FM_ERR_KEY_SIZE: key_len
 * other than 16, 24 or 32. FM_ERR_OVERLAP: key lies inside ks. On any error |ks| is zeroed (so an
 * older schedule in it is gone). */
FM_MUST_CHECK
FM_API int fm_aes_key_init(fm_aes_key *ks, const uint8_t *key, size_t key_len);

/** fm_aes_key_wipe zeroizes |ks| (NULL is accepted and does nothing). It always wipes, even
 * outside OPERATIONAL; it returns FM_OK, or FM_ERR_NOT_OPERATIONAL (after wiping) outside
 * OPERATIONAL. */
FM_API int fm_aes_key_wipe(fm_aes_key *ks);

/** fm_aes_ecb_encrypt / fm_aes_ecb_decrypt apply the cipher / inverse cipher to each 16-byte
 * block of |in| (SP 800-38A 6.1). |len| must be a multiple of 16. Secret: ks, in, out.
 * FM_ERR_BAD_ARGUMENT: ks NULL or under 16-byte alignment, or in/out NULL with len != 0.
 * FM_ERR_STATE: ks not initialized
 * or wiped. FM_ERR_LENGTH: len not a multiple of 16, or a range from in or out past the end of the
 * address space. FM_ERR_OVERLAP: in and out partly overlap. */
FM_MUST_CHECK
FM_API int fm_aes_ecb_encrypt(const fm_aes_key *ks, const uint8_t *in, uint8_t *out, size_t len);
FM_MUST_CHECK
FM_API int fm_aes_ecb_decrypt(const fm_aes_key *ks, const uint8_t *in, uint8_t *out, size_t len);

/** fm_aes_cbc_encrypt / fm_aes_cbc_decrypt: CBC mode (SP 800-38A 6.2) without padding. |len|
 * must be a multiple of 16. On success |iv| is replaced by the last ciphertext block, so that
 * consecutive calls continue one message (any split at block boundaries gives the same result).
 * Secret: ks, in, out (the IV is not secret, but is treated as such).
 * Errors as for ECB, and FM_ERR_BAD_ARGUMENT for a NULL iv (checked first), FM_ERR_OVERLAP when
 * iv overlaps in or out.
 * On error |iv| is unchanged. */
FM_MUST_CHECK
FM_API int fm_aes_cbc_encrypt(const fm_aes_key *ks, uint8_t iv[FM_AES_BLOCK_LEN], const uint8_t *in,
                              uint8_t *out, size_t len);
FM_MUST_CHECK
FM_API int fm_aes_cbc_decrypt(const fm_aes_key *ks, uint8_t iv[FM_AES_BLOCK_LEN], const uint8_t *in,
                              uint8_t *out, size_t len);

/** fm_aes_ctr_stream XORs |len| bytes (any length) of CTR key stream (SP 800-38A 6.5) into
 * |out| = |in| ^ key stream, for messages processed in pieces. |counter| is the next counter
 * block; |keystream| and |*ks_used| carry the unused bytes of the last key-stream block between
 * calls (keystream[*ks_used..16) are still unused), so that any split of a message gives the
 * same output as one call. Start a message with *ks_used = 16 (nothing buffered). Used key-stream
 * bytes are zeroed as they are consumed. Encryption and decryption are the same operation.
 * Secret: ks, in, out, keystream; the counter is treated as secret (no branch on its value).
 * FM_ERR_BAD_ARGUMENT: keystream or ks_used NULL, *ks_used > 16, ks or counter NULL (or ks
 * under 16-byte alignment), a width
 * other than FM_AES_CTR32/FM_AES_CTR128, or in/out NULL with len != 0. FM_ERR_STATE: ks not
 * usable. FM_ERR_LENGTH: with FM_AES_CTR32, more new key-stream blocks (after the 16 - *ks_used
 * buffered bytes) than the counter has left (the last may use 0xfffffffe), or a range past the end
 * of the address space. FM_ERR_OVERLAP: in/out partly overlap, or counter or keystream overlaps in,
 * out or each other. On any error |out| is zeroed (unless |len| is the invalid argument, see
 * Errors above), |keystream| is zeroed and *ks_used is set to 16; |counter| is unchanged. */
FM_MUST_CHECK
FM_API int fm_aes_ctr_stream(const fm_aes_key *ks, fm_aes_ctr_width width,
                             uint8_t counter[FM_AES_BLOCK_LEN], uint8_t keystream[FM_AES_BLOCK_LEN],
                             unsigned *ks_used, const uint8_t *in, uint8_t *out, size_t len);

/** fm_aes_ctr encrypts or decrypts |len| bytes (any length) in CTR mode starting at counter
 * block |counter|, which is advanced by the number of blocks used (a trailing partial block
 * counts as one; its unused key stream is discarded). Secret: ks, in, out.
 * FM_ERR_BAD_ARGUMENT: ks or counter NULL, ks under 16-byte alignment, bad width, in/out NULL
 * with len != 0. FM_ERR_STATE:
 * ks not usable. FM_ERR_LENGTH: with FM_AES_CTR32, more blocks (ceil(len / 16)) than the counter
 * has left: the last block may use 0xfffffffe, no later one; or a range past the end of the
 * address space. FM_ERR_OVERLAP: in/out partly overlap, or counter overlaps in or out. */
FM_MUST_CHECK
FM_API int fm_aes_ctr(const fm_aes_key *ks, fm_aes_ctr_width width,
                      uint8_t counter[FM_AES_BLOCK_LEN], const uint8_t *in, uint8_t *out,
                      size_t len);

#ifdef __cplusplus
}
#endif
#endif
