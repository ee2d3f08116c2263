/** @file
 * Encrypted private keys: PKCS#8 EncryptedPrivateKeyInfo (RFC 5958 3) with PBES2 (RFC 8018 6.2),
 * PBKDF2 (RFC 8018 5.2; SP 800-132) and AES-CBC (SP 800-38A 6.2, RFC 8018 B.2.5 padding), the
 * form `openssl genpkey -aes-256-cbc` and `openssl pkcs8 -topk8 -v2 aes-256-cbc` write:
 *
 *     EncryptedPrivateKeyInfo ::= SEQUENCE { encryptionAlgorithm AlgorithmIdentifier,
 *                                            encryptedData OCTET STRING }
 *     encryptionAlgorithm = id-PBES2 { keyDerivationFunc id-PBKDF2 { salt OCTET STRING,
 *         iterationCount INTEGER, keyLength INTEGER OPTIONAL, prf hmacWithSHA-2 },
 *         encryptionScheme aes{128,192,256}-CBC { iv OCTET STRING (16 bytes) } }
 *
 * The plaintext is a PrivateKeyInfo / OneAsymmetricKey (RFC 5958 2) as fm_rsa_key_encode,
 * fm_ec_key_encode, fm_mlkem_key_encode and fm_mldsa_key_encode write with FM_KEY_PKCS8_* in DER,
 * and as the fm_*_key_decode functions read; fm_key_decode (key.h) does both steps.
 * PEM uses the label "ENCRYPTED PRIVATE KEY" (RFC 7468 11).
 *
 * The PRF is HMAC with SHA-224, SHA-256, SHA-384, SHA-512, SHA-512/224 or SHA-512/256
 * (hmacWithSHA224 .. hmacWithSHA512-256, RFC 8018 B.1.2). Everything else is refused with
 * FM_ERR_UNSUPPORTED and named in fm_pkcs8_params.scheme: PBES1, the PKCS#12 schemes, scrypt,
 * PBKDF2 with hmacWithSHA1 (also the PRF when none is named: RFC 8018's default), Triple-DES and
 * other ciphers.
 *
 * Wrong passphrase and corrupt ciphertext. PBES2 has no integrity check: a wrong passphrase is
 * seen only in what the decryption gives. The padding check (every byte of the last block, with
 * masks) and the check that the plaintext is one DER SEQUENCE exactly as long as the unpadded
 * plaintext (its tag and length bytes, with masks) are computed together in constant time and
 * only their joint verdict is released; a plaintext that passes goes through a structural check
 * of PrivateKeyInfo (version, algorithm identifier, private key), whose failure gives the same
 * status. So a wrong passphrase, a corrupt ciphertext, bad padding and a malformed plaintext all
 * give FM_ERR_DECRYPT, with no other output, and the padding's validity is not observable apart
 * from the structure's (no padding oracle). Each attempt costs one PBKDF2 run first, which
 * dwarfs any time the checks take. A wrong passphrase passes both checks with a probability of
 * about 2^-24; the key decoders' own checks then refuse the key.
 *
 * Secrets: the passphrase, the derived key, the AES key schedule and the plaintext are secret and
 * wiped before the call returns. The EncryptedPrivateKeyInfo (parameters, ciphertext) is public.
 * Every function returns FM_OK or a negative FM_ERR_* (status.h); outside the OPERATIONAL state
 * FM_ERR_NOT_OPERATIONAL. Thread-safe. */
#ifndef FIPSMOD_PKCS8_H
#define FIPSMOD_PKCS8_H

#include <stddef.h>
#include <stdint.h>

#include "fipsmod/keyfile.h"
#include "fipsmod/sha.h"
#include "fipsmod/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The iteration count fm_pkcs8_encrypt uses when none is given: 600000. SP 800-132 5.2 asks
 * for at least 1000 and as many as the application tolerates; 600000 is what OWASP's 2023 password
 * storage guidance gives for PBKDF2-HMAC-SHA256 (OpenSSL 3 writes 2048). */
#define FM_PKCS8_DEFAULT_ITERATIONS 600000u

/** The largest iteration count fm_pkcs8_decrypt accepts (10 000 000): a file cannot make the
 * module spend more than some seconds of work on one try. */
#define FM_PKCS8_MAX_ITERATIONS 10000000u

/** The salt length fm_pkcs8_encrypt uses when none is given (SP 800-132 5.1: at least 128
 * bits), and the longest salt either direction takes. */
#define FM_PKCS8_DEFAULT_SALT_LEN 16u
#define FM_PKCS8_MAX_SALT_LEN 64u

/** The password-based encryption schemes an EncryptedPrivateKeyInfo may name. */
typedef enum {
  FM_PBE_NONE = 0,                 /**< not read (or not an EncryptedPrivateKeyInfo) */
  FM_PBE_PBES2_PBKDF2_AES_CBC = 1, /**< PBES2, PBKDF2 with HMAC-SHA-2, AES-CBC: the one offered */
  FM_PBE_PBES1 = 2,                /**< PBES1 (pbeWithMD5AndDES-CBC, pbeWithSHA1AndDES-CBC, ...) */
  FM_PBE_PKCS12 = 3,               /**< a PKCS#12 scheme (pbeWithSHAAnd3-KeyTripleDES-CBC, ...) */
  FM_PBE_PBES2_SCRYPT = 4,         /**< PBES2 with scrypt (RFC 7914) */
  FM_PBE_PBES2_OTHER_KDF = 5,      /**< PBES2 with another key derivation function */
  FM_PBE_PBES2_PBKDF2_SHA1 = 6,    /**< PBKDF2 with hmacWithSHA1 (named, or by default) */
  FM_PBE_PBES2_PBKDF2_OTHER_PRF = 7, /**< PBKDF2 with another PRF (hmacWithSHA3-256, ...) */
  FM_PBE_PBES2_DES_EDE3_CBC = 8,   /**< PBES2 with Triple-DES (des-ede3-cbc) */
  FM_PBE_PBES2_OTHER_CIPHER = 9,   /**< PBES2 with another cipher (AES-GCM, Camellia, ...) */
  FM_PBE_OTHER = 10,               /**< another encryption algorithm */
} fm_pbe_scheme;

/** The parameters of PBES2 with PBKDF2 and AES-CBC. fm_pkcs8_encrypt reads them (a zero field
 * takes its default); fm_pkcs8_decrypt writes what the file names. */
typedef struct fm_pkcs8_params {
  fm_pbe_scheme scheme; /**< decrypt: what was found; encrypt: ignored */
  fm_hash_alg prf;      /**< PBKDF2's HMAC hash (SHA-2 only); default FM_HASH_SHA256 */
  size_t aes_key_len;   /**< 16, 24 or 32 (AES-128/192/256-CBC); default 32 */
  uint64_t iterations;  /**< PBKDF2 iteration count; default FM_PKCS8_DEFAULT_ITERATIONS */
  size_t salt_len;      /**< 8 .. FM_PKCS8_MAX_SALT_LEN on write; default 16 */
} fm_pkcs8_params;

/** fm_pkcs8_encrypt encrypts the PrivateKeyInfo / OneAsymmetricKey |key| (DER, |key_len| bytes,
 * secret) with |pass| (|pass_len| bytes, secret) and writes the EncryptedPrivateKeyInfo in
 * |encoding| (DER, or PEM "ENCRYPTED PRIVATE KEY") to out[0..*out_len). |params| may be NULL
 * (every default: PBKDF2-HMAC-SHA256, FM_PKCS8_DEFAULT_ITERATIONS iterations, a 16-byte salt,
 * AES-256-CBC). The salt and the IV come from the module's DRBG. The structure is written as
 * OpenSSL 3 writes it (keyLength left out, the PRF with NULL parameters). With out NULL and
 * out_cap 0 it only sets *out_len to the length needed (FM_OK).
 *   FM_ERR_BAD_ARGUMENT     key or out_len NULL; pass NULL with pass_len > 0; out NULL with
 *                           out_cap > 0; an unknown encoding.
 *   FM_ERR_PASSPHRASE       pass NULL, or pass_len 0 (an empty passphrase protects nothing).
 *   FM_ERR_PARSE            |key| is not one DER PrivateKeyInfo (version, algorithm, privateKey).
 *   FM_ERR_UNSUPPORTED      a PRF other than SHA-2, an AES key length other than 16, 24 or 32.
 *   FM_ERR_OUT_OF_RANGE     iterations above FM_PKCS8_MAX_ITERATIONS.
 *   FM_ERR_LENGTH           salt_len under 8 or over FM_PKCS8_MAX_SALT_LEN; key_len 0 or over
 *                           64 KiB.
 *   FM_ERR_BUFFER_TOO_SMALL out_cap below the length (*out_len is then the length needed).
 *   FM_ERR_OVERLAP          out overlaps key or pass.
 *   FM_ERR_ENTROPY, FM_ERR_NO_MEMORY.
 * On error out is wiped. Approved when pass_len >= 8, salt_len >= 16 and iterations >= 1000 (the
 * PBKDF2 rules of the policy); otherwise FM_OK with the indicator not approved. */
FM_MUST_CHECK
FM_API int fm_pkcs8_encrypt(const uint8_t *key, size_t key_len, const uint8_t *pass,
                            size_t pass_len, const fm_pkcs8_params *params,
                            fm_key_encoding encoding, uint8_t *out, size_t out_cap,
                            size_t *out_len);

/** fm_pkcs8_decrypt reads one EncryptedPrivateKeyInfo from |in| (|in_len| bytes: DER when the
 * first byte is 0x30, else PEM labelled "ENCRYPTED PRIVATE KEY"), decrypts it with |pass| (secret;
 * an empty passphrase is pass non-NULL with pass_len 0) and writes the PrivateKeyInfo DER (secret)
 * to out[0..*out_len). |out_cap| must be at least the ciphertext's length, which is the longest
 * plaintext there can be: with out NULL and out_cap 0 the call only parses the structure and sets
 * *out_len to that length (FM_OK). |found|, optional, receives the parameters the file names, also
 * when the call fails (they are public), so that a caller can say what a refused file holds.
 *   FM_ERR_BAD_ARGUMENT     in NULL with in_len > 0; out_len NULL; pass NULL with pass_len > 0;
 *                           out NULL with out_cap > 0.
 *   FM_ERR_PARSE            not a well-formed EncryptedPrivateKeyInfo (or its PEM).
 *   FM_ERR_UNSUPPORTED      another PEM label (an unencrypted key, a certificate), or a scheme
 *                           the module does not offer (found->scheme names it).
 *   FM_ERR_OUT_OF_RANGE     an iteration count of 0 or above FM_PKCS8_MAX_ITERATIONS.
 *   FM_ERR_LENGTH           a salt of 0 or more than FM_PKCS8_MAX_SALT_LEN bytes, an IV other
 *                           than 16 bytes, a keyLength other than the cipher's.
 *   FM_ERR_PASSPHRASE       pass NULL (the structure is read first, so an unsupported scheme is
 *                           reported as such).
 *   FM_ERR_DECRYPT          a wrong passphrase or a corrupt ciphertext, including a ciphertext
 *                           that is empty or not a multiple of 16 bytes (see above).
 *   FM_ERR_BUFFER_TOO_SMALL out_cap below the ciphertext's length (*out_len is then that length).
 *   FM_ERR_OVERLAP          out overlaps in or pass.
 *   FM_ERR_NO_MEMORY.
 * On error out is wiped and *out_len is 0 (but for FM_ERR_BUFFER_TOO_SMALL). Approved when
 * pass_len >= 8, the salt is at least 16 bytes and iterations >= 1000; a file with weaker
 * parameters is read with the indicator not approved. */
FM_MUST_CHECK
FM_API int fm_pkcs8_decrypt(const uint8_t *in, size_t in_len, const uint8_t *pass,
                            size_t pass_len, uint8_t *out, size_t out_cap, size_t *out_len,
                            fm_pkcs8_params *found);

#ifdef __cplusplus
}
#endif

#endif
