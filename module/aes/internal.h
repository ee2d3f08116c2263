/* What module/aes offers the rest of the module (the DRBG uses these directly, without the
 * public API's gate and argument checks). Keys, schedules and outputs are secret. */
#ifndef FIPSMOD_MODULE_AES_INTERNAL_H
#define FIPSMOD_MODULE_AES_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

/* aes_ks is an AES encryption key schedule for the path chosen at load (AES-NI round keys, or
 * the portable bitsliced schedule). Its layout is private to module/aes. */
typedef struct aes_ks {
  _Alignas(64) uint64_t words[128];
  uint32_t rounds; /* 10 or 14 */
  uint32_t impl;   /* which path built it */
} aes_ks;

/* aes_ks_init_encrypt builds an encryption-only schedule from a 16- or 32-byte |key|.
 * Returns 1 on success, 0 for another length. */
int aes_ks_init_encrypt(aes_ks *ks, const uint8_t *key, size_t key_len);

/* aes_encrypt_block encrypts one block (in and out may alias). */
void aes_encrypt_block(const aes_ks *ks, const uint8_t in[16], uint8_t out[16]);

/* aes_ctr128_blocks computes out[i] = in[i] ^ E(ctr + i) for |nblocks| blocks, the counter being
 * the whole 128-bit big-endian block; in == NULL writes the key stream itself. On return |ctr| is
 * one past the last counter used. in and out may alias exactly. */
void aes_ctr128_blocks(const aes_ks *ks, uint8_t ctr[16], const uint8_t *in, uint8_t *out,
                       size_t nblocks);

/* aes_ks_wipe zeroizes |ks|. */
void aes_ks_wipe(aes_ks *ks);

#endif
