/* AES-128 and AES-256 (FIPS 197) in ECB, CBC (SP 800-38A) and CTR (SP 800-38A) modes.
 *
 * The key and the key schedule are secret. A key schedule is caller-allocated; fm_aes_key_wipe
 * zeroizes it. A schedule may be shared read-only between threads. The fast path (AES-NI/VAES)
 * is chosen at load; the portable path (FIPSMOD_CPU=portable or no AES-NI) is constant time and
 * uses no table indexed by key or data. Input and output may be the same buffer (in place); any
 * other overlap is FM_ERR_OVERLAP. Every function returns FM_OK or a negative FM_ERR_*; on error
 * the output is wiped. Outside the OPERATIONAL state every function returns
 * FM_ERR_NOT_OPERATIONAL. */
#ifndef FIPSMOD_AES_H
#define FIPSMOD_AES_H

#include <stddef.h>
#include <stdint.h>
#include "fipsmod/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FM_AES_BLOCK_LEN 16

/* Opaque, caller-allocated key schedule (encryption and decryption). */
typedef struct fm_aes_key {
  _Alignas(64) uint64_t opaque[160];
} fm_aes_key;

/* Counter widths for CTR mode: FM_AES_CTR32 increments only the last 32 bits of the counter
 * block (big-endian, wrapping mod 2^32, as GCM's inc32); FM_AES_CTR128 increments the whole
 * 128-bit block (big-endian, wrapping mod 2^128). */
typedef enum {
  FM_AES_CTR32 = 32,
  FM_AES_CTR128 = 128,
} fm_aes_ctr_width;

/* fm_aes_key_init expands |key| (16 or 32 bytes; secret) into |ks|.
 * FM_ERR_BAD_ARGUMENT: NULL; FM_ERR_KEY_SIZE: any other length (AES-192 is not offered). */
FM_API int fm_aes_key_init(fm_aes_key *ks, const uint8_t *key, size_t key_len);

/* fm_aes_key_wipe zeroizes |ks| (NULL is accepted). Returns FM_OK. */
FM_API int fm_aes_key_wipe(fm_aes_key *ks);

/* ECB: |len| must be a multiple of 16 (0 is allowed and does nothing).
 * FM_ERR_BAD_ARGUMENT, FM_ERR_STATE (schedule not initialized), FM_ERR_LENGTH, FM_ERR_OVERLAP. */
FM_API int fm_aes_ecb_encrypt(const fm_aes_key *ks, const uint8_t *in, uint8_t *out, size_t len);
FM_API int fm_aes_ecb_decrypt(const fm_aes_key *ks, const uint8_t *in, uint8_t *out, size_t len);

/* CBC: |len| must be a multiple of 16. |iv| is updated to the last ciphertext block, so that
 * consecutive calls continue one message. No padding is applied. */
FM_API int fm_aes_cbc_encrypt(const fm_aes_key *ks, uint8_t iv[FM_AES_BLOCK_LEN],
                              const uint8_t *in, uint8_t *out, size_t len);
FM_API int fm_aes_cbc_decrypt(const fm_aes_key *ks, uint8_t iv[FM_AES_BLOCK_LEN],
                              const uint8_t *in, uint8_t *out, size_t len);

/* fm_aes_ctr_stream XORs |len| bytes (any length) of key stream into |out|. |counter| is the next
 * counter block, |keystream| and |*ks_used| (0..16 bytes of it already used) carry the unused bytes of the last key-stream block between calls, so that any split of
 * a message gives the same output. Start a message with *ks_used = 16 (no buffered key stream).
 * FM_ERR_BAD_ARGUMENT (also *ks_used > 16 or a bad width), FM_ERR_STATE, FM_ERR_OVERLAP. */
FM_API int fm_aes_ctr_stream(const fm_aes_key *ks, fm_aes_ctr_width width,
                             uint8_t counter[FM_AES_BLOCK_LEN],
                             uint8_t keystream[FM_AES_BLOCK_LEN], unsigned *ks_used,
                             const uint8_t *in, uint8_t *out, size_t len);

/* fm_aes_ctr encrypts or decrypts |len| bytes (any length) starting at counter block |counter|,
 * which is advanced by the number of blocks used (a trailing partial block counts as one). */
FM_API int fm_aes_ctr(const fm_aes_key *ks, fm_aes_ctr_width width,
                      uint8_t counter[FM_AES_BLOCK_LEN], const uint8_t *in, uint8_t *out,
                      size_t len);

#ifdef __cplusplus
}
#endif
#endif
