/* EC: generate a P-256 key, sign a message with ECDSA (SHA-256) and verify it, write the
 * signature in DER (as openssl dgst -sign does), and agree on a shared secret with a second key
 * by ECDH: both sides compute the same Z. A changed message fails verification. */
#include <string.h>

#include "example.h"

int main(void) {
  example_require_operational();
  fm_ec_key *alice = NULL, *bob = NULL;
  TRY(fm_ec_key_generate(FM_EC_P256, &alice)); /* FIPS 186-5 A.2.2, pairwise-tested */
  TRY(fm_ec_key_generate(FM_EC_P256, &bob));

  static const char msg[] = "release 1.2.3";
  uint8_t sig[FM_EC_MAX_SIG_BYTES], der[FM_EC_MAX_DER_SIG_BYTES];
  size_t sig_len = 0, der_len = 0;
  TRY(fm_ecdsa_sign(alice, FM_HASH_SHA256, (const uint8_t *)msg, strlen(msg), sig, sizeof sig,
                    &sig_len));
  TRY(fm_ecdsa_verify(alice, FM_HASH_SHA256, (const uint8_t *)msg, strlen(msg), sig, sig_len));
  TRY(fm_ecdsa_sig_to_der(FM_EC_P256, sig, sig_len, der, sizeof der, &der_len));
  printf("ECDSA P-256 signature: r || s %zu bytes, DER %zu bytes\n", sig_len, der_len);
  static const char other[] = "release 1.2.4";
  EXPECT(fm_ecdsa_verify(alice, FM_HASH_SHA256, (const uint8_t *)other, strlen(other), sig,
                         sig_len) == FM_ERR_VERIFY,
         "a changed message to fail verification");

  /* ECDH: each side sends its public point (uncompressed) and derives Z from the other's. */
  uint8_t pa[FM_EC_MAX_POINT_BYTES], pb[FM_EC_MAX_POINT_BYTES];
  uint8_t za[FM_EC_MAX_BYTES], zb[FM_EC_MAX_BYTES];
  size_t pa_len = 0, pb_len = 0, za_len = 0, zb_len = 0;
  TRY(fm_ec_key_export_public(alice, 0, pa, sizeof pa, &pa_len));
  TRY(fm_ec_key_export_public(bob, 0, pb, sizeof pb, &pb_len));
  TRY(fm_ecdh(alice, pb, pb_len, za, sizeof za, &za_len)); /* the peer point is validated */
  TRY(fm_ecdh(bob, pa, pa_len, zb, sizeof zb, &zb_len));
  EXPECT(za_len == 32 && zb_len == za_len && memcmp(za, zb, za_len) == 0, "the same shared Z");
  printf("ECDH: both sides derived the same %zu-byte Z (feed it to a KDF, never use it raw)\n",
         za_len);
  fm_cleanse(za, sizeof za);
  fm_cleanse(zb, sizeof zb);
  TRY(fm_ec_key_free(alice));
  TRY(fm_ec_key_free(bob));
  return 0;
}
