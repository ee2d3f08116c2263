/** @file
 * RSA signatures: keys, PKCS#1 v1.5 and PSS signing and verification (FIPS 186-5 section 5,
 * RFC 8017), key generation (FIPS 186-5 A.1.3), and the raw RSASP1 / RSADP primitives for
 * component known-answer tests.
 *
 * Keys are opaque objects that the module allocates. A key is built completely when it is created
 * (every Montgomery context and every fixed-width CRT value) and never changes afterwards, so one
 * key may be used by any number of threads at once with no lock; only fm_rsa_key_free must not
 * race with other uses of the same key. fm_rsa_key_free zeroizes the key. Signing keeps no state
 * between calls: the private-key operation is constant time in its input and in the key, and
 * every result is checked with the public key, so there is no blinding.
 *
 * Sizes: private keys 2048..16384 bits; public keys (verification only) 1024..16384 bits, 1024 to
 * 2047 being the legacy-use range. Generated keys: 2048, 3072 or 4096 bits with e = 65537.
 *
 * Approval (the service indicator; module/approval.c, policy/approval.tsv): signing is approved
 * with 2048-, 3072- and 4096-bit moduli only (other sizes sign, marked not approved);
 * verification with moduli of 2048 bits or more, and for PSS only when the signature's salt is no
 * longer than the hash (FIPS 186-5 5.4 (g)); a longer salt verifies, marked not approved.
 *
 * Every function returns FM_OK or a negative FM_ERR_* (status.h). Outside the OPERATIONAL state
 * every function except fm_rsa_key_free returns FM_ERR_NOT_OPERATIONAL. On any error every output
 * is wiped: key pointers are set to NULL, output buffers are zeroed, lengths are set to 0.
 *
 * Secrets: d, p, q, dp, dq and qinv are secret; so are signing inputs' digests only in the sense
 * that the signature is computed in constant time in them. n and e are public. */
#ifndef FIPSMOD_RSA_H
#define FIPSMOD_RSA_H

#include <stddef.h>
#include <stdint.h>

#include "fipsmod/sha.h"
#include "fipsmod/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FM_RSA_MIN_PRIVATE_BITS 2048
#define FM_RSA_MIN_PUBLIC_BITS 1024
#define FM_RSA_MAX_BITS 16384
#define FM_RSA_MAX_BYTES (FM_RSA_MAX_BITS / 8) /**< largest signature / modulus, 2048 bytes */

/** fm_rsa_verify_pss's salt_len value that accepts a salt of any length (the length is recovered
 * from the encoded message, RFC 8017 9.1.2 with sLen unspecified). Never valid for signing. */
#define FM_RSA_PSS_SALT_LEN_ANY ((size_t)-1)

/** An RSA key: public (n, e) or private (n, e and the private values). Opaque. */
typedef struct fm_rsa_key fm_rsa_key;

/** The components of a private key, each a big-endian unsigned integer (leading zero bytes are
 * allowed). dp, dq and qinv are optional as a group: give all three (d mod (p-1), d mod (q-1),
 * q^-1 mod p) or none (data NULL and len 0 for all three), and the module computes them. */
typedef struct fm_rsa_private_components {
  const uint8_t *n;
  size_t n_len;
  const uint8_t *e;
  size_t e_len;
  const uint8_t *d;
  size_t d_len;
  const uint8_t *p;
  size_t p_len;
  const uint8_t *q;
  size_t q_len;
  const uint8_t *dp;
  size_t dp_len;
  const uint8_t *dq;
  size_t dq_len;
  const uint8_t *qinv;
  size_t qinv_len;
} fm_rsa_private_components;

/** The components that fm_rsa_key_export writes. */
typedef enum {
  FM_RSA_N = 1,
  FM_RSA_E = 2,
  FM_RSA_D = 3,
  FM_RSA_P = 4,
  FM_RSA_Q = 5,
  FM_RSA_DP = 6,
  FM_RSA_DQ = 7,
  FM_RSA_QINV = 8,
} fm_rsa_component;

/* ---- Keys ---------------------------------------------------------------------------------- */

/** fm_rsa_key_import_private builds a private key from its components and validates it as
 * SP 800-56B Rev. 2 6.4.1.2.1 and FIPS 186-5 A.1.1 / B.3.1 require:
 *   FM_ERR_BAD_ARGUMENT  c or key NULL; a component NULL with a non-zero length; n, e, d, p or q
 *                        missing (length 0); dp, dq, qinv neither all given nor all absent.
 *   FM_ERR_KEY_SIZE      n under 2048 or over 16384 bits.
 *   FM_ERR_BAD_KEY       (each case a distinct check) n even; e even, e < 65537 or e >= 2^256
 *                        (FIPS 186-5 5.4); p or q even, or p or q not of exactly half of n's bit
 *                        length (rounded up); p or q below sqrt(2) * 2^(nlen/2 - 1);
 *                        |p - q| <= 2^(nlen/2 - 100); p * q != n; d = 0 or d >= n;
 *                        d <= 2^(nlen/2) (FIPS 186-5 A.1.1); d * e != 1 mod (p-1) or mod (q-1);
 *                        d >= lambda(n) = lcm(p-1, q-1) (so d + lambda(n) is refused); p or q
 *                        composite (Miller-Rabin with the rounds of FIPS 186-5 Table B.1: 5 for
 *                        2048-bit n, 4 for 3072 and above, bases from the module's DRBG);
 *                        dp, dq, qinv not equal to d mod (p-1), d mod (q-1), q^-1 mod p; a
 *                        component wider than n.
 *   FM_ERR_ENTROPY       the DRBG failed while drawing Miller-Rabin bases.
 *   FM_ERR_NO_MEMORY     the key could not be allocated.
 * Cost: the Miller-Rabin tests dominate (each round one exponentiation modulo p and one modulo q,
 * run side by side in the two-lane kernel where the CPU has one, and up to 64 squarings each;
 * a valid key's primes are tested in constant time): about 99% of the import.
 * fm_rsa_key_import_private_consistent leaves them out, and fm_rsa_key_validate runs them
 * later. Import keys once and reuse them.
 * The components are secret (but n and e): the checks run in constant time in them, and only
 * each check's verdict (is the key acceptable) is public. Thread-safe. *key is NULL on error. */
FM_MUST_CHECK
FM_API int fm_rsa_key_import_private(const fm_rsa_private_components *c, fm_rsa_key **key);

/** fm_rsa_key_import_private_consistent builds a private key as fm_rsa_key_import_private does,
 * with every check of that function but the Miller-Rabin tests of p and q: the sizes, the
 * sqrt(2) bound, |p - q|, p * q = n, the bounds on d, e * d = 1 mod (p-1) and mod (q-1),
 * d < lambda(n) and the CRT values. So the key pair is consistent and well formed; that p and q
 * are prime is taken from the key's origin. Same arguments and statuses as
 * fm_rsa_key_import_private (no FM_ERR_ENTROPY: no RBG draw).
 * Approved (the indicator says so on FM_OK, and the key signs under approved indicators) on the
 * security policy's condition: the operator imports this way only keys whose validity it is
 * assured of by their generation (SP 800-89: generated by an approved method, FIPS 186-5 A.1, by
 * the owner or a trusted party: fm_rsa_key_generate, or another validated module), and otherwise
 * calls fm_rsa_key_validate before the key's first use, or imports with fm_rsa_key_import_private.
 * Cost: no exponentiation. fipsmod-speed (RSA-key-import-consistent against RSA-key-import, one
 * run on a shared, loaded machine) did about 44 times as many imports a second as
 * fm_rsa_key_import_private at 2048 bits and 80 times at 4096. Constant time in the secret
 * components, as fm_rsa_key_import_private. */
FM_MUST_CHECK
FM_API int fm_rsa_key_import_private_consistent(const fm_rsa_private_components *c,
                                                fm_rsa_key **key);

/** fm_rsa_key_validate runs on |key| the checks of fm_rsa_key_import_private that
 * fm_rsa_key_import_private_consistent leaves out: p and q are prime (Miller-Rabin, FIPS 186-5
 * B.3.1, with the rounds of Table B.1 and bases from the module's DRBG). The other checks ran
 * when the key was built (keys are never modified), so a key from the consistency import
 * that passes has had the full validation of SP 800-56B Rev. 2 6.4.1.2.1 and FIPS 186-5 A.1.1.
 *   FM_ERR_BAD_ARGUMENT  key NULL or freed.
 *   FM_ERR_UNSUPPORTED   a public key (checked at import), or a key from
 *                        fm_rsa_key_import_private_nd / _pq (no primes to test).
 *   FM_ERR_BAD_KEY       p or q composite.
 *   FM_ERR_ENTROPY       the DRBG failed while drawing Miller-Rabin bases.
 * Approved (key validation). Constant time in p and q for a valid key (rsa_prime.c). The key is
 * only read: thread-safe, also while the key signs elsewhere. */
FM_MUST_CHECK
FM_API int fm_rsa_key_validate(const fm_rsa_key *key);

/** fm_rsa_key_import_private_nd builds a private key from n, e and d only, with no CRT values:
 * FOR COMPONENT KNOWN-ANSWER TESTS (CAVP SigGen files and the RSADP component test give keys in
 * this form). Such a key serves fm_rsa_rsasp1 and fm_rsa_rsadp only (m^d mod n directly,
 * constant time, checked with the public key, about three times slower than with CRT)
 * and verification; every signing service refuses it with FM_ERR_BAD_ARGUMENT, because nothing
 * shows that it meets FIPS 186-5 (its e may be 3, its primes are not known).
 * Checks: n 2048..16384 bits like every private key (FM_ERR_KEY_SIZE: the 1024-bit cases of the
 * CAVP files are refused, as SP 800-131A disallows them for signing), n odd, e odd and
 * 3 <= e < n (component tests use small exponents), 0 < d < n, and
 * (x^e)^d == x mod n for a fixed x (FM_ERR_BAD_KEY); other errors as above. d is secret. */
FM_MUST_CHECK
FM_API int fm_rsa_key_import_private_nd(const uint8_t *n, size_t n_len, const uint8_t *e,
                                        size_t e_len, const uint8_t *d, size_t d_len,
                                        fm_rsa_key **key);

/** fm_rsa_key_import_private_pq builds a private key from e, p and q only, FOR COMPONENT
 * KNOWN-ANSWER TESTS: ACVP gives its CRT-form test keys (signaturePrimitive, decryptionPrimitive,
 * keyGen answers) without d. The module computes n = p q and d = e^-1 mod lcm(p-1, q-1)
 * (FIPS 186-5 5.1) and builds the key as fm_rsa_key_import_private_nd(n, e, d) does, with its
 * checks: the key serves fm_rsa_rsasp1, fm_rsa_rsadp and verification, and fm_rsa_key_export
 * gives n, e and d (from which fm_rsa_key_import_private builds a full key when the key meets
 * FIPS 186-5); every signing service refuses it. p and q are not tested for primality.
 *   FM_ERR_BAD_ARGUMENT  key, e, p or q NULL, or a zero length.
 *   FM_ERR_KEY_SIZE      n under 2048 or over 16384 bits (p or q wider than 8192 bits).
 *   FM_ERR_BAD_KEY       p or q below 3; e even, or with no inverse modulo lcm(p-1, q-1); e
 *                        wider than n; the checks of fm_rsa_key_import_private_nd.
 *   FM_ERR_NO_MEMORY.
 * Not approved. p and q (and the d computed) are secret: the arithmetic runs in constant time
 * in their values; their byte lengths are public. Thread-safe. *key is NULL on error. */
FM_MUST_CHECK
FM_API int fm_rsa_key_import_private_pq(const uint8_t *e, size_t e_len, const uint8_t *p,
                                        size_t p_len, const uint8_t *q, size_t q_len,
                                        fm_rsa_key **key);

/** fm_rsa_key_import_public builds a public key (n, e) for verification.
 *   FM_ERR_BAD_ARGUMENT  NULL pointer or zero length.
 *   FM_ERR_KEY_SIZE      n under 1024 or over 16384 bits.
 *   FM_ERR_BAD_KEY       the partial public-key validation of SP 800-89 5.3.3 fails: n even,
 *                        n prime (2^(n-1) = 1 mod n, which also turns away the rare composite
 *                        base-2 pseudoprime), n a perfect power (p^2, p^3, ...), n with a prime
 *                        factor below 752 (3p, ...); e even, e < 65537 or e >= 2^256.
 *                        These checks cost about one exponentiation mod n with a full-size
 *                        exponent, paid once per import: measured 1.6 ms at 2048 bits, 4.5 ms
 *                        at 4096 and 110 ms at 6144 (this machine, noisy; import keys once).
 *   FM_ERR_NO_MEMORY.    Thread-safe. */
FM_MUST_CHECK
FM_API int fm_rsa_key_import_public(const uint8_t *n, size_t n_len, const uint8_t *e, size_t e_len,
                                    fm_rsa_key **key);

/** fm_rsa_key_generate makes a new private key of |bits| = 2048, 3072 or 4096 bits with e = 65537
 * (FIPS 186-5 A.1.3: probable primes p, q in [sqrt(2) * 2^(nlen/2-1), 2^(nlen/2)) found with
 * trial division and the Miller-Rabin rounds of FIPS 186-5 Table B.1, |p - q| > 2^(nlen/2-100),
 * d = e^-1 mod lcm(p-1, q-1) > 2^(nlen/2)), then runs the pairwise consistency test (sign and
 * verify); its outcome is recorded in the self-test report.
 *   FM_ERR_BAD_ARGUMENT  key NULL.
 *   FM_ERR_KEY_SIZE      another size.
 *   FM_ERR_ENTROPY       the RNG failed.
 *   FM_ERR_KEYGEN        the pairwise consistency test failed (the module is then in ERROR).
 *   FM_ERR_NO_MEMORY.    Thread-safe; slow (tens of milliseconds to seconds). */
FM_MUST_CHECK
FM_API int fm_rsa_key_generate(unsigned bits, fm_rsa_key **key);

/** fm_rsa_key_generate_mod8 is fm_rsa_key_generate with FIPS 186-5 A.1.3's optional inputs a and
 * b: p is congruent to |p_mod8| and q to |q_mod8| modulo 8, each 1, 3, 5 or 7, or 0 for no
 * condition (both 0: fm_rsa_key_generate). Validation labs ask for them (ACVP RSA keyGen pMod8,
 * qMod8).
 *   FM_ERR_BAD_ARGUMENT  key NULL, or a residue other than 0, 1, 3, 5, 7.
 *   Otherwise as fm_rsa_key_generate. */
FM_MUST_CHECK
FM_API int fm_rsa_key_generate_mod8(unsigned bits, unsigned p_mod8, unsigned q_mod8,
                                    fm_rsa_key **key);

/** fm_rsa_key_free zeroizes and frees |key| (NULL is accepted). Works in every state. Returns
 * FM_OK. Must not race with another use of the same key. */
FM_API int fm_rsa_key_free(fm_rsa_key *key);

/** fm_rsa_key_bits sets *bits to the bit length of n. FM_ERR_BAD_ARGUMENT on NULL. */
FM_MUST_CHECK
FM_API int fm_rsa_key_bits(const fm_rsa_key *key, size_t *bits);

/** fm_rsa_key_size sets *bytes to the byte length of n, which is the length of every signature
 * made or accepted with the key. FM_ERR_BAD_ARGUMENT on NULL. */
FM_MUST_CHECK
FM_API int fm_rsa_key_size(const fm_rsa_key *key, size_t *bytes);

/** fm_rsa_key_is_private sets *is_private to 1 for a key that can sign, 0 for a public key. */
FM_MUST_CHECK
FM_API int fm_rsa_key_is_private(const fm_rsa_key *key, int *is_private);

/** fm_rsa_key_export writes one component as a big-endian number of a fixed length that depends
 * only on public sizes: n and d: the byte length of n; e: its minimal length; p, dp, qinv: the
 * byte length of p; q, dq: the byte length of q. *out_len receives that length.
 *   FM_ERR_BAD_ARGUMENT     NULL pointer or unknown component.
 *   FM_ERR_BAD_KEY          a private component of a public key, or p, q, dp, dq, qinv of a key
 *                           imported with fm_rsa_key_import_private_nd.
 *   FM_ERR_BUFFER_TOO_SMALL out_cap below the length.
 * Exported private components are secret; the caller must wipe them. Thread-safe. */
FM_MUST_CHECK
FM_API int fm_rsa_key_export(const fm_rsa_key *key, fm_rsa_component which, uint8_t *out,
                             size_t out_cap, size_t *out_len);

/* ---- Signatures -----------------------------------------------------------------------------
 * Signing hashes |msg| with |hash| (any hash of sha.h: SHA-2 or SHA3-*; MGF1 uses it too), encodes,
 * and computes the signature with CRT, in constant time in the private key and the message; the
 * signature is checked with the public key before it is released (a mismatch, which means a
 * fault, gives FM_ERR_INTERNAL and a wiped output). The signature is exactly the key's byte
 * length (fm_rsa_key_size) and is written to sig[0..*sig_len).
 * Common errors: FM_ERR_BAD_ARGUMENT (key, sig or sig_len NULL, msg NULL with msg_len > 0, a
 * public key or a key from fm_rsa_key_import_private_nd given for signing), FM_ERR_UNSUPPORTED
 * (another hash), FM_ERR_BUFFER_TOO_SMALL (sig_cap below the key's size), FM_ERR_ENTROPY
 * (a PSS salt draw failed), FM_ERR_INTERNAL, FM_ERR_NOT_OPERATIONAL (also when the signing
 * self-test, which runs before the first private-key operation, fails). Checks run in that
 * order: the module state first, then the arguments. A refused call wipes sig[0..min(sig_cap, key size)) (FM_RSA_MAX_BYTES in place
 * of the key size when the key is not valid) and sets *sig_len to 0.
 * All signing and verification functions are thread-safe, also on one shared key. */

/** fm_rsa_sign_pkcs1v15 signs with RSASSA-PKCS1-v1_5 (RFC 8017 8.2.1, EMSA-PKCS1-v1_5 9.2).
 * FM_ERR_KEY_SIZE: the modulus too small for the DigestInfo (never for sizes the module takes). */
FM_MUST_CHECK
FM_API int fm_rsa_sign_pkcs1v15(const fm_rsa_key *key, fm_hash_alg hash, const uint8_t *msg,
                                size_t msg_len, uint8_t *sig, size_t sig_cap, size_t *sig_len);

/** fm_rsa_sign_pss signs with RSASSA-PSS (RFC 8017 8.1.1, EMSA-PSS 9.1.1), MGF1 with the same
 * hash, and a fresh random salt of salt_len bytes, 0 <= salt_len <= hLen (FIPS 186-5 5.4 (g);
 * FM_ERR_LENGTH above that, e.g. 64 bytes with SHA-256). */
FM_MUST_CHECK
FM_API int fm_rsa_sign_pss(const fm_rsa_key *key, fm_hash_alg hash, const uint8_t *msg,
                           size_t msg_len, size_t salt_len, uint8_t *sig, size_t sig_cap,
                           size_t *sig_len);

/** fm_rsa_sign_pss_with_salt is fm_rsa_sign_pss with a caller-given salt: FOR KNOWN-ANSWER TESTS,
 * where the salt is part of the vector (salt NULL only with salt_len 0; salt_len <= hLen). */
FM_MUST_CHECK
FM_API int fm_rsa_sign_pss_with_salt(const fm_rsa_key *key, fm_hash_alg hash, const uint8_t *msg,
                                     size_t msg_len, const uint8_t *salt, size_t salt_len,
                                     uint8_t *sig, size_t sig_cap, size_t *sig_len);

/** fm_rsa_verify_pkcs1v15 verifies a RSASSA-PKCS1-v1_5 signature (RFC 8017 8.2.2) strictly: the
 * whole encoded message must equal the one the module builds (DigestInfo with the NULL
 * parameters). Works with public and private keys.
 *   FM_OK on a valid signature; FM_ERR_VERIFY on any invalid one (wrong length, value >= n, bad
 *   padding, wrong digest); FM_ERR_BAD_ARGUMENT (key NULL, sig NULL with sig_len > 0, msg NULL
 *   with msg_len > 0); FM_ERR_UNSUPPORTED (another hash).
 * FM_OK is 0 and a bad signature is FM_ERR_VERIFY (-5), unlike OpenSSL's 1 = valid: a non-zero
 * result means the signature was REJECTED, so `if (fm_rsa_verify_pkcs1v15(...))` is the failure
 * branch. Compare with FM_OK. */
FM_MUST_CHECK
FM_API int fm_rsa_verify_pkcs1v15(const fm_rsa_key *key, fm_hash_alg hash, const uint8_t *msg,
                                  size_t msg_len, const uint8_t *sig, size_t sig_len);

/** fm_rsa_verify_pss verifies a RSASSA-PSS signature (RFC 8017 8.1.2 / 9.1.2), MGF1 with the same
 * hash, requiring a salt of exactly salt_len bytes, or any length with FM_RSA_PSS_SALT_LEN_ANY.
 * Statuses as fm_rsa_verify_pkcs1v15; a salt_len that cannot fit gives FM_ERR_VERIFY. Salts
 * longer than the hash, which signing refuses, are accepted here as RFC 8017 allows.
 * FM_OK (0) means valid; FM_ERR_VERIFY (-5, non-zero) means invalid, so
 * `if (fm_rsa_verify_pss(...))` is the FAILURE branch: write `!= FM_OK` to reject. */
FM_MUST_CHECK
FM_API int fm_rsa_verify_pss(const fm_rsa_key *key, fm_hash_alg hash, const uint8_t *msg,
                             size_t msg_len, size_t salt_len, const uint8_t *sig, size_t sig_len);

/* ---- Raw primitives (for component known-answer tests) ------------------------------------
 * Both compute x^d mod n with the private key (CRT when the key has CRT values),
 * checked with the public key before release. The input is big-endian, any length (leading zeros
 * allowed); the output is exactly the key's byte length. Errors: FM_ERR_BAD_ARGUMENT (NULLs,
 * empty input, public key), FM_ERR_OUT_OF_RANGE (input out of range, see each), FM_ERR_BUFFER_
 * TOO_SMALL, FM_ERR_INTERNAL. Thread-safe. */

/** fm_rsa_rsasp1 is RSASP1 (RFC 8017 5.2.1): s = m^d mod n for 0 <= m < n. */
FM_MUST_CHECK
FM_API int fm_rsa_rsasp1(const fm_rsa_key *key, const uint8_t *m, size_t m_len, uint8_t *s,
                         size_t s_cap, size_t *s_len);

/** fm_rsa_rsadp is RSADP (SP 800-56B Rev. 2 7.1.2): k = c^d mod n for 1 < c < n - 1 (that section
 * also excludes the fixed points 0, 1 and n - 1). */
FM_MUST_CHECK
FM_API int fm_rsa_rsadp(const fm_rsa_key *key, const uint8_t *c, size_t c_len, uint8_t *k,
                        size_t k_cap, size_t *k_len);

#ifdef __cplusplus
}
#endif
#endif
