/* Seal and open a message with AES-256-GCM. The approved seal makes the IV itself (a 96-bit IV
 * from the module's DRBG, SP 800-38D 8.2.2) and hands it back: send it with the ciphertext and
 * tag. Opening checks the tag first and releases no plaintext when it fails. */
#include <string.h>

#include "example.h"

int main(void) {
  example_require_operational();
  uint8_t key_bytes[32];
  TRY(fm_rand_bytes(key_bytes, sizeof key_bytes));

  static fm_gcm_key key; /* holds the expanded key: wipe it when done */
  TRY(fm_gcm_key_init(&key, key_bytes, sizeof key_bytes));
  fm_cleanse(key_bytes, sizeof key_bytes);

  static const char aad[] = "header: v1";
  static const char msg[] = "attack at dawn";
  uint8_t iv[FM_GCM_IV_LEN], ct[sizeof msg], tag[FM_GCM_TAG_LEN], pt[sizeof msg];
  TRY(fm_gcm_seal(&key, iv, (const uint8_t *)aad, strlen(aad), (const uint8_t *)msg, sizeof msg,
                  ct, tag, sizeof tag));
  example_print_hex("iv:  ", iv, sizeof iv);
  example_print_hex("ct:  ", ct, sizeof ct);
  example_print_hex("tag: ", tag, sizeof tag);

  TRY(fm_gcm_open(&key, iv, sizeof iv, (const uint8_t *)aad, strlen(aad), ct, sizeof ct, tag,
                  sizeof tag, pt));
  EXPECT(memcmp(pt, msg, sizeof msg) == 0, "the plaintext back");
  printf("opened: %s\n", (const char *)pt);

  ct[3] ^= 0x80; /* one bit changed in transit */
  memset(pt, 0x55, sizeof pt);
  EXPECT(fm_gcm_open(&key, iv, sizeof iv, (const uint8_t *)aad, strlen(aad), ct, sizeof ct, tag,
                     sizeof tag, pt) == FM_ERR_VERIFY,
         "a changed ciphertext to fail with FM_ERR_VERIFY");
  static const uint8_t zeros[sizeof msg];
  EXPECT(memcmp(pt, zeros, sizeof pt) == 0, "no plaintext released on failure (wiped)");
  printf("a changed ciphertext is rejected and the output is wiped\n");

  TRY(fm_gcm_key_wipe(&key));
  return 0;
}
