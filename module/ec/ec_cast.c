/* The EC known-answer self-tests (FIPS 140-3 IG 10.3.A), run before the first use of ECDSA or
 * ECDH: ECDSA P-256/SHA-256 signing with the CAVP case's k (the signature is the known answer)
 * and deterministic signing (RFC 6979 A.2.5, P-256, SHA-256, message "sample"),
 * verification of that signature (and refusal of a corrupted one), and the ECC CDH primitive's Z
 * on P-256; where the AVX-512 IFMA code runs, P-384's and P-521's verification (CAVP
 * P-384/SHA-384 and P-521/SHA-512 signatures) and ECC CDH too. The vectors (ec_kat_vectors.h)
 * come from NIST CAVP files through gen_ec_kat.py. */
#include <stdint.h>
#include <string.h>

#include "module/ec/ec_kat_vectors.h"
#include "module/ec/internal.h"
#include "module/internal.h"

/* RFC 6979 (T. Pornin, 2013) appendix A.2.5: the P-256 private key x, SHA-256("sample"), and the
 * deterministic signature (r, s) the appendix gives for it. */
static const uint8_t kat_det_p256_d[32] = {
    0xc9, 0xaf, 0xa9, 0xd8, 0x45, 0xba, 0x75, 0x16, 0x6b, 0x5c, 0x21, 0x57, 0x67, 0xb1, 0xd6, 0x93,
    0x4e, 0x50, 0xc3, 0xdb, 0x36, 0xe8, 0x9b, 0x12, 0x7b, 0x8a, 0x62, 0x2b, 0x12, 0x0f, 0x67, 0x21};
static const uint8_t kat_det_p256_digest[32] = {
    0xaf, 0x2b, 0xdb, 0xe1, 0xaa, 0x9b, 0x6e, 0xc1, 0xe2, 0xad, 0xe1, 0xd6, 0x94, 0xf4, 0x1f, 0xc7,
    0x1a, 0x83, 0x1d, 0x02, 0x68, 0xe9, 0x89, 0x15, 0x62, 0x11, 0x3d, 0x8a, 0x62, 0xad, 0xd1, 0xbf};
static const uint8_t kat_det_p256_sig[64] = {
    0xef, 0xd4, 0x8b, 0x2a, 0xac, 0xb6, 0xa8, 0xfd, 0x11, 0x40, 0xdd, 0x9c, 0xd4, 0x5e, 0x81, 0xd6,
    0x9d, 0x2c, 0x87, 0x7b, 0x56, 0xaa, 0xf9, 0x91, 0xc3, 0x4d, 0x0e, 0xa8, 0x4e, 0xaf, 0x37, 0x16,
    0xf7, 0xcb, 0x1c, 0x94, 0x2d, 0x65, 0x7c, 0x41, 0xd4, 0x36, 0xc7, 0xa1, 0xb6, 0xe2, 0x9f, 0x65,
    0xf3, 0xe9, 0x00, 0xdb, 0xb9, 0xaf, 0xf4, 0x06, 0x4d, 0xc4, 0xab, 0x2f, 0x84, 0x3a, 0xcd, 0xa8};

static int ec_selftest_ecdsa_sign_deterministic(void) {
  fm_ec_key *key = NULL;
  uint8_t sig[sizeof kat_det_p256_sig];
  int st = fm_ec_key_import_private(FM_EC_P256, kat_det_p256_d, sizeof kat_det_p256_d, NULL, 0,
                                    &key);
  if (st == FM_OK)
    st = ecdsa_sign_digest_deterministic(key, FM_HASH_SHA256, kat_det_p256_digest,
                                         sizeof kat_det_p256_digest, sig);
  if (st == FM_OK) st = fm_selftest_expect(sig, kat_det_p256_sig, sizeof sig);
  fm_ec_key_free(key);
  fm_zeroize(sig, sizeof sig);
  return st;
}

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
  if (st == FM_OK) st = ec_selftest_ecdsa_sign_deterministic();
  return st;
}

/* verify_kat checks that the signature sig (r then s, 2 * bytes) of digest verifies under the
 * public key q and that the same signature of another digest (the first byte changed) is refused.
 * sig and digest are at most P-521's. */
static int verify_kat(fm_ec_curve curve, const uint8_t *q, size_t q_len, const uint8_t *expected,
                      size_t sig_len, const uint8_t *kat_digest, size_t digest_len) {
  fm_ec_key *key = NULL;
  uint8_t sig[132], digest[64];
  fm_selftest_expected_copy(sig, expected, sig_len);
  int st = fm_ec_key_import_public(curve, q, q_len, &key);
  if (st == FM_OK) st = fm_ecdsa_verify_digest(key, kat_digest, digest_len, sig, sig_len);
  if (st == FM_OK) {
    memcpy(digest, kat_digest, digest_len);
    digest[0] ^= 1;
    const int wrong = fm_ecdsa_verify_digest(key, digest, digest_len, sig, sig_len);
    if (wrong != FM_ERR_VERIFY) st = wrong == FM_OK ? FM_ERR_SELFTEST : wrong;
  }
  fm_ec_key_free(key);
  return st;
}

/* P-256's known answer, and P-384's and P-521's where their verification has a path of its own,
 * the AVX-512 IFMA digit loop (ec_p384_ifma.c, ec_p521_ifma.c; the CPU's features are public). */
int ec_selftest_ecdsa_verify(void) {
  int st = verify_kat(FM_EC_P256, kat_ecdsa_p256_q, sizeof kat_ecdsa_p256_q, kat_ecdsa_p256_sig,
                      sizeof kat_ecdsa_p256_sig, kat_ecdsa_p256_digest,
                      sizeof kat_ecdsa_p256_digest);
  if (st == FM_OK && ec_ifma_in_use())
    st = verify_kat(FM_EC_P384, kat_ecdsa_p384_q, sizeof kat_ecdsa_p384_q, kat_ecdsa_p384_sig,
                    sizeof kat_ecdsa_p384_sig, kat_ecdsa_p384_digest,
                    sizeof kat_ecdsa_p384_digest);
  if (st == FM_OK && ec_ifma_in_use())
    st = verify_kat(FM_EC_P521, kat_ecdsa_p521_q, sizeof kat_ecdsa_p521_q, kat_ecdsa_p521_sig,
                    sizeof kat_ecdsa_p521_sig, kat_ecdsa_p521_digest,
                    sizeof kat_ecdsa_p521_digest);
  return st;
}

/* ecdh_kat runs one ECDH known answer: the private key d, the peer's point, the expected Z
 * (z_len bytes, at most 66). */
static int ecdh_kat(fm_ec_curve curve, const uint8_t *d, size_t d_len, const uint8_t *peer,
                    size_t peer_len, const uint8_t *expected, size_t z_len) {
  fm_ec_key *key = NULL;
  uint8_t z[66];
  size_t got = 0;
  int st = fm_ec_key_import_private(curve, d, d_len, NULL, 0, &key);
  if (st == FM_OK) st = fm_ecdh(key, peer, peer_len, z, sizeof z, &got);
  if (st == FM_OK) st = got == z_len ? fm_selftest_expect(z, expected, z_len) : FM_ERR_SELFTEST;
  fm_ec_key_free(key);
  fm_zeroize(z, sizeof z);
  return st;
}

/* P-256's known answer, and P-384's and P-521's where their variable-base multiplication has a
 * path of its own, the AVX-512 IFMA ladders (ec_p384_ifma.c, ec_p521_ifma.c; the CPU's features
 * are public). */
int ec_selftest_ecdh(void) {
  int st = ecdh_kat(FM_EC_P256, kat_ecdh_p256_d, sizeof kat_ecdh_p256_d, kat_ecdh_p256_peer,
                    sizeof kat_ecdh_p256_peer, kat_ecdh_p256_z, sizeof kat_ecdh_p256_z);
  if (st == FM_OK && ec_ifma_in_use())
    st = ecdh_kat(FM_EC_P384, kat_ecdh_p384_d, sizeof kat_ecdh_p384_d, kat_ecdh_p384_peer,
                  sizeof kat_ecdh_p384_peer, kat_ecdh_p384_z, sizeof kat_ecdh_p384_z);
  if (st == FM_OK && ec_ifma_in_use())
    st = ecdh_kat(FM_EC_P521, kat_ecdh_p521_d, sizeof kat_ecdh_p521_d, kat_ecdh_p521_peer,
                  sizeof kat_ecdh_p521_peer, kat_ecdh_p521_z, sizeof kat_ecdh_p521_z);
  return st;
}
