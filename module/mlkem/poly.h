/* The polynomial helpers of module/mlkem shared by its own files (mlkem_poly.c defines them).
 * Coefficient bounds: "normalized" is [0, q); "reduced" is [-(q-1)/2, (q-1)/2]. Every function
 * is constant time in the coefficients. */
#ifndef FIPSMOD_MODULE_MLKEM_POLY_H
#define FIPSMOD_MODULE_MLKEM_POLY_H

#include "module/mlkem/internal.h"

/* mlkem_zetas: 17^BitRev7(i) * 2^16 mod q, centred. */
extern const int16_t mlkem_zetas[128];

/* mlkem_barrett_reduce returns the reduced representative of a. */
int16_t mlkem_barrett_reduce(int16_t a);

/* mlkem_compress is Compress_d (x in [0, q), d in 1..11); mlkem_decompress is Decompress_d. */
uint16_t mlkem_compress(uint16_t x, unsigned d);
uint16_t mlkem_decompress(uint16_t y, unsigned d);

/* mlkem_encode / mlkem_decode: ByteEncode_d / ByteDecode_d of 256 d-bit values (d <= 12, 32 d
 * bytes), without reduction. */
void mlkem_encode(uint8_t *out, const uint16_t v[MLKEM_N], unsigned d);
void mlkem_decode(uint16_t v[MLKEM_N], const uint8_t *in, unsigned d);

/* mlkem_below_q returns 1 when every 12-bit value of ByteDecode_12 over the |len| bytes at in (a
 * multiple of 384) is below q, 0 otherwise. The bytes are public (an encapsulation key). */
int mlkem_below_q(const uint8_t *in, size_t len);

/* r += a; r = a - b (no reduction: the caller keeps the bounds). */
void mlkem_poly_add(mlkem_poly *r, const mlkem_poly *a);
void mlkem_poly_sub(mlkem_poly *r, const mlkem_poly *a, const mlkem_poly *b);

/* mlkem_poly_normalize maps |c| < 2^15 - q to [0, q). */
void mlkem_poly_normalize(mlkem_poly *r);

/* mlkem_poly_tomont multiplies by 2^16 (Montgomery factor), output |c| < q. */
void mlkem_poly_tomont(mlkem_poly *r);

/* ByteEncode_12 of a normalized polynomial; ByteDecode_12 reduced mod q (normalized). */
void mlkem_poly_tobytes(uint8_t out[MLKEM_POLY_BYTES], const mlkem_poly *a);
void mlkem_poly_frombytes(mlkem_poly *r, const uint8_t in[MLKEM_POLY_BYTES]);

/* ByteEncode_d(Compress_d(a)) of a normalized polynomial, and its inverse Decompress_d(
 * ByteDecode_d(in)) (normalized). 32 d bytes. */
void mlkem_poly_compress(uint8_t *out, const mlkem_poly *a, unsigned d);
void mlkem_poly_decompress(mlkem_poly *r, const uint8_t *in, unsigned d);

/* The message: Decompress_1(ByteDecode_1(m)) and ByteEncode_1(Compress_1(a)) (normalized a). */
void mlkem_poly_frommsg(mlkem_poly *r, const uint8_t m[MLKEM_SYM_BYTES]);
void mlkem_poly_tomsg(uint8_t m[MLKEM_SYM_BYTES], const mlkem_poly *a);

/* mlkem_poly_cbd is SamplePolyCBD_eta (Algorithm 8) of 64 eta bytes, eta 2 or 3: |c| <= eta. */
void mlkem_poly_cbd(mlkem_poly *r, const uint8_t *buf, unsigned eta);

/* mlkem_sample_matrix writes A-hat (FIPS 203 Algorithm 13, steps 3-7): a[i k + j] = SampleNTT(
 * rho || j || i), or its transpose (SampleNTT(rho || i || j)) when |transposed|. Normalized
 * coefficients. rho and A-hat are public. */
void mlkem_sample_matrix(mlkem_poly *a, const uint8_t rho[MLKEM_SYM_BYTES], unsigned k,
                         int transposed);

/* mlkem_sample_matrix_hash is mlkem_sample_matrix that also runs the |nmsg| one-shot sponges of
 * rate 136 (SHA3-256, or SHAKE256 of any out_len) described by msg (module/sha3/internal.h) in
 * the same permutations; k = 0 runs the sponges alone. The sponges' inputs and outputs are
 * treated as secret. */
struct keccak_msg;
void mlkem_sample_matrix_hash(mlkem_poly *a, const uint8_t rho[MLKEM_SYM_BYTES], unsigned k,
                              int transposed, const struct keccak_msg *msg, unsigned nmsg);

/* mlkem_prf_x4 squeezes |nblocks| (1 or 2) blocks of SHAKE256(key || nonce[s]) for four nonces
 * at once (PRF_eta of FIPS 203 4.1, whose 64 eta bytes are a prefix), on keccak_f1600_x4. key
 * and the output are secret. */
#define MLKEM_PRF_X4_BYTES (2 * 136)
void mlkem_prf_x4(uint8_t out[4][MLKEM_PRF_X4_BYTES], const uint8_t key[MLKEM_SYM_BYTES],
                  const uint8_t nonce[4], unsigned nblocks);

#endif
