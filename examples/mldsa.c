/* ML-DSA (FIPS 204): generate an ML-DSA-65 key pair, sign a message under a context string
 * (hedged: fresh randomness from the DRBG), and verify; the same signature fails under another
 * context or for a changed message. A context binds a signature to its use ("which protocol,
 * which purpose"), so a signature made for one cannot be replayed as another. */
#include <string.h>

#include "example.h"

int main(void) {
  example_require_operational();
  static uint8_t pk[FM_MLDSA_65_PUBLIC_KEY_LEN], sk[FM_MLDSA_65_PRIVATE_KEY_LEN];
  static uint8_t sig[FM_MLDSA_65_SIGNATURE_LEN];
  size_t sig_len = 0;
  TRY(fm_mldsa_keygen(FM_MLDSA_65, pk, sizeof pk, sk, sizeof sk, NULL)); /* pairwise-tested */

  static const char msg[] = "release 1.2.3";
  static const char ctx[] = "example.org release signing v1";
  TRY(fm_mldsa_sign(FM_MLDSA_65, sk, sizeof sk, (const uint8_t *)msg, strlen(msg),
                    (const uint8_t *)ctx, strlen(ctx), FM_MLDSA_SIGN_HEDGED, sig, sizeof sig,
                    &sig_len));
  TRY(fm_mldsa_verify(FM_MLDSA_65, pk, sizeof pk, (const uint8_t *)msg, strlen(msg),
                      (const uint8_t *)ctx, strlen(ctx), sig, sig_len));
  printf("ML-DSA-65: public key %zu bytes, signature %zu bytes, context \"%s\"\n", sizeof pk,
         sig_len, ctx);

  static const char other_ctx[] = "example.org code signing v1";
  EXPECT(fm_mldsa_verify(FM_MLDSA_65, pk, sizeof pk, (const uint8_t *)msg, strlen(msg),
                         (const uint8_t *)other_ctx, strlen(other_ctx), sig,
                         sig_len) == FM_ERR_VERIFY,
         "another context to fail verification");
  static const char other[] = "release 1.2.4";
  EXPECT(fm_mldsa_verify(FM_MLDSA_65, pk, sizeof pk, (const uint8_t *)other, strlen(other),
                         (const uint8_t *)ctx, strlen(ctx), sig, sig_len) == FM_ERR_VERIFY,
         "a changed message to fail verification");
  fm_cleanse(sk, sizeof sk);
  return 0;
}
