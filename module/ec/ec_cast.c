/* The EC known-answer self-tests (FIPS 140-3 IG 10.3.A), run before the first use of ECDSA or
 * ECDH: ECDSA P-256/SHA-256 signing with the CAVP case's k (the signature is the known answer),
 * verification of that signature (and refusal of a corrupted one), and the ECC CDH primitive's Z.
 * The vectors (ec_kat_vectors.h) come from NIST CAVP files through gen_ec_kat.py. */
#include <stdint.h>
#include <string.h>

#include "module/ec/ec_kat_vectors.h"
#include "module/ec/internal.h"
#include "module/internal.h"

int ec_selftest_ecdsa_sign(void) {
  fm_ec_key *key = NULL;
  uint8_t sig[sizeof kat_ecdsa_p256_sig];
  uint64_t k[EC_MAX_LIMBS];
  int st = fm_ec_key_import_private(FM_EC_P256, kat_ecdsa_p256_d, sizeof kat_ecdsa_p256_d,
                                    kat_ecdsa_p256_q, sizeof kat_ecdsa_p256_q, &key);
  if (st == FM_OK) {
    ec_limbs_from_be(key->curve->limbs, k, kat_ecdsa_p256_k, sizeof kat_ecdsa_p256_k);
    st = ecdsa_sign_digest_with_k(key, kat_ecdsa_p256_digest, sizeof kat_ecdsa_p256_digest, k,
                                  sig);
    if (st == FM_OK) st = fm_selftest_expect(sig, kat_ecdsa_p256_sig, sizeof sig);
  }
  fm_ec_key_free(key);
  fm_zeroize(k, sizeof k);
  fm_zeroize(sig, sizeof sig);
  return st;
}

int ec_selftest_ecdsa_verify(void) {
  fm_ec_key *key = NULL;
  uint8_t sig[sizeof kat_ecdsa_p256_sig], digest[sizeof kat_ecdsa_p256_digest];
  fm_selftest_expected_copy(sig, kat_ecdsa_p256_sig, sizeof sig);
  int st = fm_ec_key_import_public(FM_EC_P256, kat_ecdsa_p256_q, sizeof kat_ecdsa_p256_q, &key);
  if (st == FM_OK)
    st = fm_ecdsa_verify_digest(key, kat_ecdsa_p256_digest, sizeof digest, sig, sizeof sig);
  if (st == FM_OK) {
    /* The same signature on another digest must be refused. */
    memcpy(digest, kat_ecdsa_p256_digest, sizeof digest);
    digest[0] ^= 1;
    const int wrong = fm_ecdsa_verify_digest(key, digest, sizeof digest, sig, sizeof sig);
    if (wrong != FM_ERR_VERIFY) st = wrong == FM_OK ? FM_ERR_SELFTEST : wrong;
  }
  fm_ec_key_free(key);
  return st;
}

int ec_selftest_ecdh(void) {
  fm_ec_key *key = NULL;
  uint8_t z[sizeof kat_ecdh_p256_z];
  size_t z_len = 0;
  int st = fm_ec_key_import_private(FM_EC_P256, kat_ecdh_p256_d, sizeof kat_ecdh_p256_d, NULL, 0,
                                    &key);
  if (st == FM_OK)
    st = fm_ecdh(key, kat_ecdh_p256_peer, sizeof kat_ecdh_p256_peer, z, sizeof z, &z_len);
  if (st == FM_OK)
    st = z_len == sizeof z ? fm_selftest_expect(z, kat_ecdh_p256_z, sizeof z) : FM_ERR_SELFTEST;
  fm_ec_key_free(key);
  fm_zeroize(z, sizeof z);
  return st;
}
