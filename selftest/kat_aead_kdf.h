/* The known-answer tests of AES-GCM and the KDFs (kat_aead_kdf.c), for the self-test table.
 * Each runs one test through the public API on the self-test thread and returns FM_OK, the
 * failing call's status, or FM_ERR_SELFTEST for a wrong answer (through selftest_expect, so that
 * FIPSMOD_BREAK_TEST can break each one in test builds). Inputs are published constants. */
#ifndef FIPSMOD_SELFTEST_KAT_AEAD_KDF_H
#define FIPSMOD_SELFTEST_KAT_AEAD_KDF_H

/* The GCM tests: key size and direction; AES-192's one test runs both directions (its
 * encryption test, then its decryption test). */
enum selftest_gcm_kat {
  SELFTEST_GCM_AES128_ENCRYPT = 0,
  SELFTEST_GCM_AES128_DECRYPT = 1,
  SELFTEST_GCM_AES256_ENCRYPT = 2,
  SELFTEST_GCM_AES256_DECRYPT = 3,
  SELFTEST_GCM_AES192_BOTH = 4,
};

/* selftest_kat_gcm runs GCM test |which| (enum selftest_gcm_kat): a 519-byte message with
 * 260 bytes of AAD under a 96-bit IV, long enough that the widest AES-CTR and GHASH kernels the
 * CPU uses run (16 blocks per pass), and their tails and partial blocks too. Encryption checks ciphertext and tag; decryption checks the
 * plaintext and that a tag with one bit changed is refused (FM_ERR_VERIFY). Another |which| is
 * FM_ERR_BAD_ARGUMENT. */
int selftest_kat_gcm(int which);

/* selftest_kat_hkdf: HKDF-SHA-256 (extract and expand), 42 bytes out. */
int selftest_kat_hkdf(void);

/* selftest_kat_kbkdf: SP 800-108 counter mode, HMAC-SHA-256, 32-bit counter in the middle of the
 * fixed data, 40 bytes out (two PRF blocks). */
int selftest_kat_kbkdf(void);

/* selftest_kat_pbkdf2: PBKDF2-HMAC-SHA-256, 2 iterations, 40 bytes out (two blocks). */
int selftest_kat_pbkdf2(void);

#endif
