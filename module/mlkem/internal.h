/* What module/mlkem offers the rest of the module: ML-KEM (FIPS 203) without the public API's
 * service gate, argument checks and indicator, the polynomial kernels (portable and AVX2, for the
 * differential tests) and the unit's self-test.
 *
 * Secrets: the seeds d and z, the message m, the decapsulation key's s-hat and z, the PKE
 * randomness r, every noise polynomial and the shared secrets K and K-bar. The encapsulation key,
 * the matrix A-hat (from rho) and the ciphertext are public. No branch, memory index or division
 * depends on a secret; the one value computed from secrets that may drive a branch is none: the
 * rejection sampler's loop counts depend on rho alone. Every intermediate is wiped before a
 * function returns. Nothing here takes a lock or allocates. */
#ifndef FIPSMOD_MODULE_MLKEM_INTERNAL_H
#define FIPSMOD_MODULE_MLKEM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

/* MLKEM_HAVE_AVX2: the AVX2 kernels are built (x86-64). */
#if defined(__x86_64__)
#define MLKEM_HAVE_AVX2 1
#else
#define MLKEM_HAVE_AVX2 0
#endif

#define MLKEM_N 256
#define MLKEM_Q 3329
#define MLKEM_MAX_K 4
#define MLKEM_SYM_BYTES 32          /* seeds, hashes, m and K */
#define MLKEM_POLY_BYTES 384        /* ByteEncode_12 of one polynomial */

/* One parameter set (FIPS 203 section 8, Table 2). Public. */
typedef struct mlkem_params {
  unsigned k;
  unsigned eta1;
  unsigned eta2;
  unsigned du;
  unsigned dv;
  size_t ek_len; /* 384k + 32 */
  size_t dk_len; /* 768k + 96 */
  size_t ct_len; /* 32(du k + dv) */
} mlkem_params;

/* mlkem_params_get returns the parameter set of ML-KEM-512, -768 or -1024 (bits 512, 768, 1024),
 * or NULL for any other value. */
const mlkem_params *mlkem_params_get(unsigned bits);

/* A polynomial of R_q or T_q: 256 coefficients, each a signed representative of its class mod q
 * whose bound the function that wrote it states. Aligned for the AVX2 kernels. */
typedef struct mlkem_poly {
  _Alignas(32) int16_t c[MLKEM_N];
} mlkem_poly;

/* ---- ML-KEM (FIPS 203 section 6) ------------------------------------------------------------
 * Lengths are the parameter set's; the caller checked them. */

/* mlkem_keygen_internal is ML-KEM.KeyGen_internal (Algorithm 16): ek and dk from d and z
 * (secret). */
void mlkem_keygen_internal(const mlkem_params *p, const uint8_t d[32], const uint8_t z[32],
                           uint8_t *ek, uint8_t *dk);

/* mlkem_encaps_internal is ML-KEM.Encaps_internal (Algorithm 17): the ciphertext |ct| and the
 * shared secret K (secret) for the key |ek| and the message m (secret). ek has passed
 * mlkem_check_ek. */
void mlkem_encaps_internal(const mlkem_params *p, const uint8_t *ek, const uint8_t m[32],
                           uint8_t *ct, uint8_t k_out[32]);

/* mlkem_decaps_internal is ML-KEM.Decaps_internal (Algorithm 18) with implicit rejection: K when
 * re-encryption gives |ct| back, K-bar = J(z || c) otherwise, chosen in constant time. dk
 * (secret) has passed mlkem_check_dk. */
void mlkem_decaps_internal(const mlkem_params *p, const uint8_t *dk, const uint8_t *ct,
                           uint8_t k_out[32]);

/* mlkem_decaps_checked is the hash check of FIPS 203 7.3 (step 3) followed, when it passes, by
 * mlkem_decaps_internal: H(ek) and J(z || c) are computed in lanes of the permutations that
 * sample A-hat (mlkem_sample_matrix_hash). Returns 1 with K in k_out, or 0 (a public verdict)
 * with k_out untouched. */
int mlkem_decaps_checked(const mlkem_params *p, const uint8_t *dk, const uint8_t *ct,
                         uint8_t k_out[32]);

/* mlkem_keygen_pct is mlkem_keygen_internal followed by the pairwise consistency test (FIPS
 * 140-3 IG 10.3.A): Encaps_internal to the new ek with the message m (secret), Decaps with the new
 * dk, reusing the matrix, t-hat, s-hat and H(ek) that key generation computed. 1 when both sides agree (a
 * public verdict), 0 otherwise; ek and dk are written either way. */
int mlkem_keygen_pct(const mlkem_params *p, const uint8_t d[32], const uint8_t z[32],
                     const uint8_t m[32], uint8_t *ek, uint8_t *dk);

/* mlkem_check_ek is the encapsulation key's modulus check (FIPS 203 section 7.2, step 2): 1 when
 * every 12-bit value of ByteDecode_12 is below q, 0 otherwise. ek is public. */
int mlkem_check_ek(const mlkem_params *p, const uint8_t *ek);

/* mlkem_check_dk is the decapsulation key's hash check (FIPS 203 section 7.3, step 3): 1 when
 * H(dk[384k : 768k + 32]) equals dk[768k + 32 : 768k + 64], 0 otherwise. The hash is computed
 * over public bytes (the embedded ek); the comparison is constant time anyway. */
int mlkem_check_dk(const mlkem_params *p, const uint8_t *dk);

/* ---- Polynomial kernels ---------------------------------------------------------------------
 * Each has a portable constant-time C form (*_portable) and, where the CPU has AVX2, an AVX2 form
 * (*_avx2) with the same output bit for bit; the plain name dispatches on fm_cpu_use. */

/* mlkem_ntt: the NTT (Algorithm 9) in place. Input |c| < q; output Barrett-reduced
 * (|c| <= (q - 1) / 2). */
void mlkem_ntt(mlkem_poly *a);
void mlkem_ntt_portable(mlkem_poly *a);

/* mlkem_invntt: the inverse NTT (Algorithm 10) in place, multiplied by the Montgomery factor
 * 2^16 (the factor 2^-16 the base multiplication leaves is taken out). Input |c| < 4q (a few
 * accumulated products), output |c| < q. */
void mlkem_invntt(mlkem_poly *a);
void mlkem_invntt_portable(mlkem_poly *a);

/* mlkem_basemul_acc: r = sum over i < k of a[i] x b[i] in T_q (MultiplyNTTs, Algorithm 11, and
 * the sum), times 2^-16. Inputs |c| <= q, output |c| < q (Barrett-reduced). */
void mlkem_basemul_acc(mlkem_poly *r, const mlkem_poly *a, const mlkem_poly *b, unsigned k);
void mlkem_basemul_acc_portable(mlkem_poly *r, const mlkem_poly *a, const mlkem_poly *b,
                                unsigned k);

/* mlkem_rej_uniform: SampleNTT's rejection step (Algorithm 7, steps 5-14) over |len| bytes of
 * XOF output (a multiple of 3): appends accepted values to r[*n..256) and updates *n. Public
 * data (the AVX2 form indexes a table by the acceptance mask). */
void mlkem_rej_uniform(int16_t r[MLKEM_N], unsigned *n, const uint8_t *buf, size_t len);
void mlkem_rej_uniform_portable(int16_t r[MLKEM_N], unsigned *n, const uint8_t *buf, size_t len);

/* mlkem_poly_frombytes, mlkem_poly_decompress, mlkem_poly_compress, mlkem_poly_tomsg and
 * mlkem_poly_frommsg, mlkem_poly_normalize, mlkem_poly_tomont and mlkem_poly_tobytes (poly.h)
 * have these twins too; the AVX2 compression and decompression take
 * d = 4, 5, 10 and 11. */
void mlkem_poly_frombytes_portable(mlkem_poly *r, const uint8_t in[384]);
void mlkem_poly_decompress_portable(mlkem_poly *r, const uint8_t *in, unsigned d);
void mlkem_poly_compress_portable(uint8_t *out, const mlkem_poly *a, unsigned d);
void mlkem_poly_tomsg_portable(uint8_t m[MLKEM_SYM_BYTES], const mlkem_poly *a);
void mlkem_poly_frommsg_portable(mlkem_poly *r, const uint8_t m[MLKEM_SYM_BYTES]);
int mlkem_below_q_portable(const uint8_t *in, size_t len);
void mlkem_poly_normalize_portable(mlkem_poly *r);
void mlkem_poly_tomont_portable(mlkem_poly *r);
void mlkem_poly_tobytes_portable(uint8_t out[MLKEM_POLY_BYTES], const mlkem_poly *a);
/* SamplePolyCBD_eta (poly.h: mlkem_poly_cbd), eta 2 or 3. */
void mlkem_poly_cbd_portable(mlkem_poly *r, const uint8_t *buf, unsigned eta);

#if MLKEM_HAVE_AVX2
void mlkem_poly_frombytes_avx2(mlkem_poly *r, const uint8_t in[384]);
void mlkem_poly_decompress_avx2(mlkem_poly *r, const uint8_t *in, unsigned d);
void mlkem_poly_compress_avx2(uint8_t *out, const mlkem_poly *a, unsigned d);
void mlkem_poly_tomsg_avx2(uint8_t m[MLKEM_SYM_BYTES], const mlkem_poly *a);
void mlkem_poly_frommsg_avx2(mlkem_poly *r, const uint8_t m[MLKEM_SYM_BYTES]);
int mlkem_below_q_avx2(const uint8_t *in, size_t len);
void mlkem_poly_normalize_avx2(mlkem_poly *r);
void mlkem_poly_tomont_avx2(mlkem_poly *r);
void mlkem_poly_tobytes_avx2(uint8_t out[MLKEM_POLY_BYTES], const mlkem_poly *a);
void mlkem_poly_cbd2_avx2(mlkem_poly *r, const uint8_t buf[128]);
void mlkem_poly_cbd3_avx2(mlkem_poly *r, const uint8_t buf[192]);
void mlkem_ntt_avx2(mlkem_poly *a);
void mlkem_invntt_avx2(mlkem_poly *a);
void mlkem_basemul_acc_avx2(mlkem_poly *r, const mlkem_poly *a, const mlkem_poly *b, unsigned k);
void mlkem_rej_uniform_avx2(int16_t r[MLKEM_N], unsigned *n, const uint8_t *buf, size_t len);
#endif

/* mlkem_path_name (module/internal.h) names the kernels the CPU path selects. */

/* ---- Stack wipe ---------------------------------------------------------------------------- */

/* MLKEM_STACK_WIPE is how many bytes mlkem_stack_wipe zeroizes below its caller's frame: the
 * deepest computation, ML-KEM-1024 decapsulation, reaches about 24 KiB below the service (gcc 12
 * -O2, measured by test_mlkem_stack, which fails when a secret is left above the wipe). */
#define MLKEM_STACK_WIPE (40 * 1024)

/* mlkem_stack_wipe zeroizes MLKEM_STACK_WIPE bytes of stack just below its caller's frame; each
 * service that computed on secrets calls it before returning (mlkem_stack_wipe.c). */
void mlkem_stack_wipe(void);

/* ---- Self-test ------------------------------------------------------------------------------ */

/* mlkem_selftest_kat is the CAST of the unit (FIPS 140-3 IG 10.3.A), run by selftest/ before the
 * first use of ML-KEM: ML-KEM-768 KeyGen_internal, Encaps_internal, Decaps of the ciphertext and
 * Decaps of a modified ciphertext (the implicit-rejection key), each compared with known values
 * (mlkem_known_values.h) through the public services. FM_OK or FM_ERR_SELFTEST. */
int mlkem_selftest_kat(void);

#endif
