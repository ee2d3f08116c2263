/* The groups of operations fipsmod-speed runs; each checks the filter itself. */
#ifndef FIPSMOD_BENCH_BENCH_OPS_H
#define FIPSMOD_BENCH_BENCH_OPS_H

/* bench_sym: AES-256-CTR, AES-256-CBC-encrypt, SHA-256, SHA-512, HMAC-SHA-256, then
 * AES-128/256-GCM-seal/open, HKDF and PBKDF2 (10,000 iterations). */
void bench_sym(void);

/* bench_rand: RNG, RNG-u32, RNG-u64, UUIDv4-string, UUIDv7-string. */
void bench_rand(void);

/* bench_rsa: RSA-sign, RSA-verify, RSA-key-import, RSA-keygen. */
void bench_rsa(void);

/* ML-DSA-44/65/87 key generation, signing and verification (bench_mldsa.c). */
void bench_mldsa(void);
/* bench_ec: ECDSA-P<n>-sign, ECDSA-P<n>-verify, ECDH-P<n>, EC-P<n>-keygen (P-256, P-384, P-521). */
void bench_ec(void);
/* bench_mlkem: ML-KEM-512/768/1024-keygen, -encaps, -decaps (and ML-KEM-768-keygen-nopct). */
void bench_mlkem(void);

/* bench_selftest: selftest (module load with and without the power-on self-tests). |self_dir|
 * is the directory of the running fipsmod-speed, where its loader program lives. */
void bench_selftest(const char *self_dir);

/* bench_bn: mont-setup-consttime, modexp-consttime (in fipsmod-speed-bn, which links the
 * module's internal library). */
void bench_bn(void);

#endif
