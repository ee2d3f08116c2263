/** @file
 * fipsmod status codes.
 *
 * !!! FM_OK IS 0 AND EVERY ERROR IS NEGATIVE: THE OPPOSITE OF OPENSSL'S "1 = SUCCESS". !!!
 *
 *     if (fm_rsa_verify_pss(...)) accept();           WRONG: true when the signature is BAD
 *     if (fm_rsa_verify_pss(...) != FM_OK) reject();  right: anything but FM_OK rejects
 *
 * Always compare a status with FM_OK; never use it as a truth value.
 *
 * Every public function returns an int status: FM_OK (0) on success or one of the negative
 * FM_ERR_* codes below. On any error, every output buffer the call was given has been wiped
 * (set to zeros) and no partial output is released.
 *
 * This is NOT OpenSSL's "1 = success" convention: 0 is success and every failure is non-zero.
 * A signature or tag that does not verify returns FM_ERR_VERIFY (-5), which is true in C, so
 * `if (fm_rsa_verify_pss(...))` means the check FAILED. Always compare with FM_OK:
 *   if (fm_rsa_verify_pss(...) != FM_OK) reject();
 * Every status-returning function is declared FM_MUST_CHECK, so a dropped status warns. */
#ifndef FIPSMOD_STATUS_H
#define FIPSMOD_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

#if defined(FIPSMOD_BUILDING_MODULE)
#define FM_API __attribute__((visibility("default")))
#else
#define FM_API
#endif

/* FM_ALIGNAS(n) aligns a member of a public structure in C (C11 _Alignas) and C++ (alignas). */
#if defined(__cplusplus)
#define FM_ALIGNAS(n) alignas(n)
#else
#define FM_ALIGNAS(n) _Alignas(n)
#endif

/* FM_MUST_CHECK marks every function that returns a status, so that a caller who drops the
 * status gets a compiler warning: [[nodiscard]] in C++17 and later, warn_unused_result in GNU C
 * and C++ (gcc and clang), nothing elsewhere. gcc does not take a (void) cast as a use: a status
 * that is deliberately ignored is written `(void)!fm_x(...)`. The destructors (fm_*_free,
 * fm_*_wipe, fm_ctr_drbg_uninstantiate, fm_module_cleanup, fm_cleanse) are not marked: they always
 * do their job (wiping happens in every state), so there is nothing a caller must act on. */
#if defined(__cplusplus) && __cplusplus >= 201703L
#define FM_MUST_CHECK [[nodiscard]]
#elif defined(__GNUC__) || defined(__clang__)
#define FM_MUST_CHECK __attribute__((warn_unused_result))
#else
#define FM_MUST_CHECK
#endif

enum {
  FM_OK = 0,
  FM_ERR_BAD_ARGUMENT = -1,     /**< NULL pointer with non-zero length, bad enum value, ... */
  FM_ERR_NOT_OPERATIONAL = -2,  /**< the module is not in the OPERATIONAL state */
  FM_ERR_ENTROPY = -3,          /**< the entropy source failed or its health tests failed */
  FM_ERR_BAD_KEY = -4,          /**< a key is malformed or inconsistent */
  FM_ERR_VERIFY = -5,           /**< a signature or tag did not verify */
  FM_ERR_NO_MEMORY = -6,        /**< an allocation failed */
  FM_ERR_KEY_SIZE = -7,         /**< a key has a size the algorithm does not take */
  FM_ERR_BUFFER_TOO_SMALL = -8, /**< an output buffer is too small */
  FM_ERR_OVERLAP = -9,          /**< input and output overlap where that is not allowed */
  FM_ERR_STATE = -10,           /**< a context is used out of order (update after final, ...) */
  FM_ERR_LENGTH = -11,          /**< an input length is invalid (not a block multiple, too long) */
  FM_ERR_RESEED_REQUIRED = -12, /**< a DRBG reached its reseed limit */
  FM_ERR_UNSUPPORTED = -13,     /**< a parameter the module does not offer (hash, mode, size) */
  FM_ERR_PARSE = -14,           /**< a textual input (UUID string, ...) is malformed */
  FM_ERR_OUT_OF_RANGE = -15,    /**< a number is out of range (message >= modulus, bound 0, ...) */
  FM_ERR_SELFTEST = -16,        /**< a self-test failed */
  FM_ERR_KEYGEN = -17,          /**< key generation or its pairwise consistency test failed */
  FM_ERR_INTERNAL = -18,        /**< an internal consistency check failed (fault detected) */
  FM_ERR_DECRYPT = -19,    /**< decryption failed: a wrong passphrase or a corrupt ciphertext */
  FM_ERR_PASSPHRASE = -20, /**< an encrypted key was given without a passphrase */
  FM_ERR_IO = -21,         /**< a file could not be read (errno says why) */
};

/** fm_strerror returns a constant, human-readable name for |status| ("FM_ERR_VERIFY: ...").
 * Unknown codes give "unknown status". Thread-safe; never fails. */
FM_API const char *fm_strerror(int status);

#ifdef __cplusplus
}
#endif
#endif
