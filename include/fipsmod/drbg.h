/** @file
 * SP 800-90A Rev.1 CTR_DRBG with AES-256 and an explicit, caller-allocated state.
 *
 * This is the deterministic mechanism on its own: the caller supplies every entropy input, nonce,
 * personalization string and additional input, which is what known-answer and validation testing
 * (CAVP CTR_DRBG.rsp, ACVP ctrDRBG-1.0) need. Applications that want random bytes should use
 * fm_rand_bytes (rand.h), which seeds and reseeds its own DRBGs from the entropy source.
 *
 * Parameters (SP 800-90Ar1 10.2.1, Table 3, AES-256): security strength 256 bits, seedlen 384
 * bits (48 bytes), counter field the whole 128-bit block, at most FM_DRBG_MAX_REQUEST bytes per
 * generate request and at most FM_DRBG_RESEED_INTERVAL requests between (re)seeds.
 *
 * With the derivation function (FM_DRBG_USE_DF) the entropy input is 32..FM_DRBG_MAX_INPUT_LEN
 * bytes, the nonce 16..FM_DRBG_MAX_INPUT_LEN bytes, personalization and additional input
 * 0..FM_DRBG_MAX_INPUT_LEN bytes. Without it the entropy input is exactly FM_DRBG_SEED_LEN (48)
 * bytes of full entropy, the nonce is not used (pass NULL, 0), and personalization and additional
 * input are at most 48 bytes.
 *
 * Prediction resistance (FM_DRBG_PREDICTION_RESISTANCE at instantiation): a generate request that
 * is given entropy input first reseeds with that entropy and the request's additional input
 * (SP 800-90Ar1 9.3.1, step 7), then generates with no additional input. An instance made without
 * the flag refuses entropy input on generate. CAVP and ACVP "PredictionResistance = True" cases
 * pass fresh entropy to every generate.
 *
 * Secret: the state, every entropy input and the output. Nonce, personalization and additional
 * input are treated as public (they may be secret; nothing depends on their values).
 * Thread safety: a state may be used by one thread at a time; distinct states are independent.
 * Every function checks the module's state first (FM_ERR_NOT_OPERATIONAL outside the OPERATIONAL
 * state), then its arguments. On any error the output buffer is wiped and the state is unchanged,
 * except where noted; a refused call wipes only what it could have written: an output length
 * above FM_DRBG_MAX_REQUEST (itself the error) leaves the buffer untouched. */
#ifndef FIPSMOD_DRBG_H
#define FIPSMOD_DRBG_H

#include <stddef.h>
#include <stdint.h>
#include "fipsmod/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FM_DRBG_SEED_LEN 48          /**< seedlen: key (32) + V (16) */
#define FM_DRBG_MAX_REQUEST 65536    /**< bytes per generate request (2^19 bits) */
#define FM_DRBG_MAX_INPUT_LEN 65536  /**< this implementation's cap on each input with the df */
#define FM_DRBG_MIN_ENTROPY_LEN 32   /**< with the df: security strength */
#define FM_DRBG_MIN_NONCE_LEN 16     /**< with the df: half the security strength */
#define FM_DRBG_RESEED_INTERVAL (UINT64_C(1) << 48) /**< generate requests between (re)seeds */

/** Instantiation flags. */
enum {
  FM_DRBG_USE_DF = 1u << 0,                 /**< use the block cipher derivation function */
  FM_DRBG_PREDICTION_RESISTANCE = 1u << 1,  /**< allow prediction-resistant generate requests */
};

/** Opaque, caller-allocated state. Zero-initialize it or leave it uninitialized: it is valid only
 * after fm_ctr_drbg_instantiate returned FM_OK and until fm_ctr_drbg_uninstantiate. */
typedef struct fm_ctr_drbg {
  FM_ALIGNAS(64) uint64_t opaque[160];
} fm_ctr_drbg;

/** fm_ctr_drbg_instantiate (SP 800-90Ar1 10.2.1.3.1 without the df, 10.2.1.3.2 with it) sets up
 * |drbg| from |entropy| (secret), |nonce| and the personalization string |pers|. |flags| is a
 * combination of FM_DRBG_USE_DF and FM_DRBG_PREDICTION_RESISTANCE. Any previous contents of
 * |drbg| are overwritten (wiped first). Returns FM_OK; FM_ERR_BAD_ARGUMENT (NULL drbg, NULL with a
 * non-zero length, unknown flags, a nonce given without the df); FM_ERR_LENGTH (an entropy, nonce
 * or personalization length outside the limits above); FM_ERR_OVERLAP (an input lies inside
 * |drbg|); on error |drbg| is left wiped and not instantiated. */
FM_MUST_CHECK
FM_API int fm_ctr_drbg_instantiate(fm_ctr_drbg *drbg, unsigned flags, const uint8_t *entropy,
                                   size_t entropy_len, const uint8_t *nonce, size_t nonce_len,
                                   const uint8_t *pers, size_t pers_len);

/** fm_ctr_drbg_reseed (SP 800-90Ar1 10.2.1.4.1 / 10.2.1.4.2) mixes fresh |entropy| (secret) and
 * the additional input |ai| into the state and resets the reseed counter. Returns FM_OK;
 * FM_ERR_BAD_ARGUMENT; FM_ERR_STATE (not instantiated); FM_ERR_LENGTH. */
FM_MUST_CHECK
FM_API int fm_ctr_drbg_reseed(fm_ctr_drbg *drbg, const uint8_t *entropy, size_t entropy_len,
                              const uint8_t *ai, size_t ai_len);

/** fm_ctr_drbg_generate (SP 800-90Ar1 10.2.1.5.1 / 10.2.1.5.2, with 9.3.1 for prediction
 * resistance) writes |out_len| (0..FM_DRBG_MAX_REQUEST) pseudorandom bytes to |out| (secret).
 * |entropy| is NULL/0 for an ordinary request; for a prediction-resistant request (instance made
 * with FM_DRBG_PREDICTION_RESISTANCE) it is the fresh entropy input for the reseed that precedes
 * the generation. |ai| is the additional input. Returns FM_OK; FM_ERR_BAD_ARGUMENT (also entropy
 * given to an instance without prediction resistance); FM_ERR_STATE (not instantiated);
 * FM_ERR_LENGTH (out_len > FM_DRBG_MAX_REQUEST: |out| is not touched; bad entropy or ai length);
 * FM_ERR_OVERLAP (|out| overlaps |drbg|: nothing is written, the state is unchanged);
 * FM_ERR_RESEED_REQUIRED (FM_DRBG_RESEED_INTERVAL requests since the last (re)seed and no entropy
 * given: call fm_ctr_drbg_reseed). */
FM_MUST_CHECK
FM_API int fm_ctr_drbg_generate(fm_ctr_drbg *drbg, uint8_t *out, size_t out_len,
                                const uint8_t *entropy, size_t entropy_len, const uint8_t *ai,
                                size_t ai_len);

/** fm_ctr_drbg_uninstantiate (SP 800-90Ar1 9.4) zeroizes |drbg| (NULL is accepted). Returns FM_OK
 * in every module state (wiping is always allowed). */
FM_API int fm_ctr_drbg_uninstantiate(fm_ctr_drbg *drbg);

#ifdef __cplusplus
}
#endif
#endif
