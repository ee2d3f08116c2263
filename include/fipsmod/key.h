/** @file
 * A key of any type the module takes, from bytes or from a file: RSA, EC, ML-KEM or ML-DSA,
 * private or public, in any structure the fm_*_key_decode functions read (keyfile.h), DER or PEM,
 * and encrypted PKCS#8 (pkcs8.h) when a passphrase is given. One call replaces the reader every
 * caller would otherwise write:
 *
 *     fm_key *key = NULL;
 *     fm_key_type found = FM_KEY_TYPE_NONE;
 *     int st = fm_key_load_file("key.pem", pass, pass_len, &key, &found);
 *     if (st != FM_OK) { ... fm_strerror(st), and |found| says what the file held ... }
 *     fm_key_view v;
 *     if (fm_key_get(key, &v) == FM_OK && v.type == FM_KEY_TYPE_EC) fm_ecdsa_sign(v.ec, ...);
 *     fm_key_free(key);
 *
 * Every function returns FM_OK or a negative FM_ERR_* (status.h); outside the OPERATIONAL state
 * FM_ERR_NOT_OPERATIONAL. Thread-safe (a handle may be read from several threads at once). */
#ifndef FIPSMOD_KEY_H
#define FIPSMOD_KEY_H

#include <stddef.h>
#include <stdint.h>

#include "fipsmod/ec.h"
#include "fipsmod/keyfile.h"
#include "fipsmod/mldsa.h"
#include "fipsmod/mlkem.h"
#include "fipsmod/pkcs8.h"
#include "fipsmod/rsa.h"
#include "fipsmod/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The algorithm of a key: the four the module takes, then (reported by fm_key_decode and
 * fm_key_load_file with FM_ERR_UNSUPPORTED) well-formed keys of algorithms it does not take. */
typedef enum {
  FM_KEY_TYPE_NONE = 0,     /**< nothing recognised (not a key, or encrypted and not read) */
  FM_KEY_TYPE_RSA = 1,      /**< rsaEncryption */
  FM_KEY_TYPE_EC = 2,       /**< id-ecPublicKey */
  FM_KEY_TYPE_MLKEM = 3,    /**< id-alg-ml-kem-512/768/1024 */
  FM_KEY_TYPE_MLDSA = 4,    /**< id-ml-dsa-44/65/87 */
  FM_KEY_TYPE_RSA_PSS = 16, /**< id-RSASSA-PSS (an RSA key restricted to PSS) */
  FM_KEY_TYPE_ED25519 = 17, /**< id-Ed25519 (RFC 8410) */
  FM_KEY_TYPE_ED448 = 18,   /**< id-Ed448 */
  FM_KEY_TYPE_X25519 = 19,  /**< id-X25519 */
  FM_KEY_TYPE_X448 = 20,    /**< id-X448 */
  FM_KEY_TYPE_DSA = 21,     /**< id-dsa (FIPS 186-5 no longer approves DSA signing) */
  FM_KEY_TYPE_DH = 22,      /**< dhKeyAgreement or dhpublicnumber */
  FM_KEY_TYPE_OTHER = 31,   /**< a PKCS#8 or SubjectPublicKeyInfo of another algorithm */
} fm_key_type;

/** A decoded key (opaque): free it with fm_key_free. */
typedef struct fm_key fm_key;

/** What fm_key_get shows of a key. The pointers borrow the handle's storage: valid until
 * fm_key_free, never to be freed or written by the caller. */
typedef struct fm_key_view {
  fm_key_type type;      /**< FM_KEY_TYPE_RSA, _EC, _MLKEM or _MLDSA */
  int is_private;        /**< 1 for a private key, 0 for a public key */
  const fm_rsa_key *rsa; /**< FM_KEY_TYPE_RSA: the key (rsa.h), else NULL */
  const fm_ec_key *ec;   /**< FM_KEY_TYPE_EC: the key (ec.h), else NULL */
  fm_mlkem_param mlkem;  /**< FM_KEY_TYPE_MLKEM: the parameter set, else 0 */
  fm_mldsa_param mldsa;  /**< FM_KEY_TYPE_MLDSA: the parameter set, else 0 */
  const uint8_t *priv;   /**< ML-KEM dk or ML-DSA sk (secret); NULL for a public key */
  size_t priv_len;
  const uint8_t *pub;    /**< ML-KEM ek or ML-DSA pk */
  size_t pub_len;
} fm_key_view;

/** fm_key_decode reads one key from |in| (|in_len| bytes; secret when it holds a private key),
 * trying each decoder in turn (fm_rsa_key_decode, fm_ec_key_decode, fm_mlkem_key_decode,
 * fm_mldsa_key_decode; each refuses another algorithm's key). An EncryptedPrivateKeyInfo (DER,
 * or PEM "ENCRYPTED PRIVATE KEY") is first decrypted with |pass| (|pass_len| bytes, secret) by
 * fm_pkcs8_decrypt; for other input |pass| is ignored, and may be NULL. *key receives a new key.
 * |found|, optional, receives the key's algorithm, also on failure when the input was a
 * recognisable key (an EC key on a curve the module lacks is FM_KEY_TYPE_EC with
 * FM_ERR_UNSUPPORTED; an Ed25519 key is FM_KEY_TYPE_ED25519).
 *   FM_ERR_BAD_ARGUMENT  in NULL with in_len > 0; key NULL; pass NULL with pass_len > 0.
 *   FM_ERR_PASSPHRASE    an encrypted PKCS#8 key and pass NULL.
 *   FM_ERR_DECRYPT       an encrypted key with a wrong passphrase or a corrupt ciphertext.
 *   FM_ERR_PARSE         not a key in any structure the module reads.
 *   FM_ERR_UNSUPPORTED   a key of an algorithm or form the module does not take (|found| names
 *                        the algorithm when it is known), a legacy OpenSSL-encrypted PEM key
 *                        ("Proc-Type: 4,ENCRYPTED"), or an encryption scheme other than PBES2
 *                        with PBKDF2 and AES-CBC (fm_pkcs8_decrypt names it).
 *   Otherwise the status of the decoder that recognised the key (FM_ERR_BAD_KEY,
 *   FM_ERR_KEY_SIZE, FM_ERR_LENGTH, FM_ERR_OUT_OF_RANGE, FM_ERR_KEYGEN, ...) or of
 *   fm_pkcs8_decrypt, and FM_ERR_NO_MEMORY.
 * On error *key is NULL. Every decrypted or decoded copy of a private key is wiped. The service
 * indicator is that of the decoder, and not approved when the decryption's parameters were
 * outside the approved set (pkcs8.h). */
FM_MUST_CHECK
FM_API int fm_key_decode(const uint8_t *in, size_t in_len, const uint8_t *pass, size_t pass_len,
                         fm_key **key, fm_key_type *found);

/** Flags of fm_key_decode_ex. FM_KEY_DECODE_RSA_CONSISTENCY_ONLY: an RSA private key is built by
 * fm_rsa_key_import_private_consistent (every check but the Miller-Rabin tests of p and q; see
 * rsa.h for when such a key's use is approved, and fm_rsa_key_validate) instead of
 * fm_rsa_key_import_private. */
#define FM_KEY_DECODE_RSA_CONSISTENCY_ONLY 0x1u

/** fm_key_decode_ex is fm_key_decode with |flags| (0 or FM_KEY_DECODE_RSA_CONSISTENCY_ONLY;
 * another bit is FM_ERR_BAD_ARGUMENT). fm_key_decode is fm_key_decode_ex with flags 0. */
FM_MUST_CHECK
FM_API int fm_key_decode_ex(const uint8_t *in, size_t in_len, const uint8_t *pass,
                            size_t pass_len, unsigned flags, fm_key **key, fm_key_type *found);

/** fm_key_load_file reads the file |path| (at most 1 MiB) and decodes it as fm_key_decode does.
 * Statuses as fm_key_decode, and FM_ERR_BAD_ARGUMENT for path NULL, FM_ERR_IO when the file
 * cannot be opened or read (errno says why), FM_ERR_LENGTH for a file over 1 MiB. The module's
 * copy of the file is wiped. */
FM_MUST_CHECK
FM_API int fm_key_load_file(const char *path, const uint8_t *pass, size_t pass_len, fm_key **key,
                            fm_key_type *found);

/** fm_key_get describes |key| in |view|. FM_ERR_BAD_ARGUMENT: key or view NULL (view is then
 * zeroed when given). Informational: the service indicator is left as it was. */
FM_MUST_CHECK
FM_API int fm_key_get(const fm_key *key, fm_key_view *view);

/** fm_key_free wipes and frees |key| and the keys it holds (NULL is accepted). Zeroization: it
 * works in every state and returns FM_OK. */
FM_API int fm_key_free(fm_key *key);

#ifdef __cplusplus
}
#endif

#endif
