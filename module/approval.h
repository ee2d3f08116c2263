/* The approval rules of the services: one function per service (or family of services that the
 * policy states one rule for), each true when the call's public parameters lie inside the
 * approved set, written as the security policy states it. Every service that runs outside its
 * approved set calls its rule here after doing the work and, when it returns false, marks the
 * call not approved (fm_indicator_not_approved). Nothing else in the module decides approval by
 * parameters.
 *
 * policy/approval.tsv lists the rules parameter by parameter with the function that holds each;
 * policy/services.tsv names this place; the policy ctest (policy/check_policy.py) checks that
 * every function here has its rows and runs the indicator probe (tests/api/test_indicator
 * --rules), which calls each service on both sides of every bound the policy names. All
 * arguments are public (lengths, sizes, counts). */
#ifndef FIPSMOD_MODULE_APPROVAL_H
#define FIPSMOD_MODULE_APPROVAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* HMAC (fm_hmac*, SP 800-131Ar2 table 9, SP 800-107r1 5.3.4): keys of 112 bits or more. */
bool fm_approval_hmac(size_t key_len);

/* AES-GCM seal, open and the streaming finals (SP 800-38D 5.2.1.2): tags of 96 to 128 bits. */
bool fm_approval_gcm(size_t tag_len);

/* HKDF extract (SP 800-56C Rev. 2 4.1 and 5.1; SP 800-133 Rev. 2 6.3): an input key (IKM) of at
 * least 112 bits. The IKM is the secret the derived key's strength rests on; under 112 bits it
 * cannot support the weakest approved security strength (SP 800-131Ar2), so the module does not
 * call that use approved, whatever the salt. */
bool fm_approval_hkdf_extract(size_t ikm_len);

/* HKDF expand (SP 800-56C Rev. 2 5.1, SP 800-108r1): derived keys of at least 112 bits. */
bool fm_approval_hkdf_expand(size_t out_len);

/* HKDF extract-and-expand: both rules above. */
bool fm_approval_hkdf(size_t ikm_len, size_t out_len);

/* KBKDF counter mode (SP 800-108r1): a key derivation key and derived keys of 112 bits or more. */
bool fm_approval_kbkdf(size_t key_len, size_t out_len);

/* PBKDF2 (SP 800-132 5.1-5.3 and the module's policy): a password of at least 8 bytes (the
 * module's minimum, kdf.h), a salt of at least 128 bits, at least 1000 iterations, derived keys
 * of at least 112 bits. */
bool fm_approval_pbkdf2(size_t password_len, size_t salt_len, uint64_t iterations,
                        size_t out_len);

/* Encrypted PKCS#8 (fm_pkcs8_encrypt, fm_pkcs8_decrypt; SP 800-132 as for PBKDF2): a passphrase
 * of 8 bytes or more, a salt of 128 bits or more, 1000 iterations or more (the AES key is always
 * 128 bits or more). */
bool fm_approval_pkcs8(size_t pass_len, size_t salt_len, uint64_t iterations);

/* RSA signature generation, PKCS#1 v1.5 and PSS (FIPS 186-5 5.4; policy/algorithms.tsv): moduli
 * of 2048, 3072 or 4096 bits. (PSS salts are bounded by the hash before signing, 5.4 (g).) */
bool fm_approval_rsa_sign(size_t n_bits);

/* RSA PKCS#1 v1.5 signature verification (FIPS 186-5, SP 800-131Ar2 table 3): moduli of 2048 bits
 * or more (the import bounds them by 16384); 1024 to 2047 bits are legacy use. */
bool fm_approval_rsa_verify_pkcs1v15(size_t n_bits);

/* RSA public-key import (fm_rsa_key_import_public, and SubjectPublicKeyInfo files): moduli of
 * 2048 bits or more; 1024 to 2047 bits are imported for legacy verification only. */
bool fm_approval_rsa_public_key(size_t n_bits);

/* RSA PSS verification: as PKCS#1 v1.5, and a salt no longer than the hash (FIPS 186-5 5.4 (g):
 * 0 <= sLen <= hLen); |salt_len| is the length the signature carries. */
bool fm_approval_rsa_verify_pss(size_t n_bits, size_t hash_len, size_t salt_len);

#endif
