/* Compute and verify an HMAC-SHA-256 tag (RFC 4231 test case 2: key "Jefe"). fm_hmac_verify
 * compares in constant time: never compare tags with memcmp. */
#include <string.h>

#include "example.h"

int main(void) {
  example_require_operational();
  static const uint8_t key[] = "Jefe";
  static const char msg[] = "what do ya want for nothing?";
  static const uint8_t rfc4231_tag[32] = {
      0x5b, 0xdc, 0xc1, 0x46, 0xbf, 0x60, 0x75, 0x4e, 0x6a, 0x04, 0x24, 0x26, 0x08, 0x95, 0x75, 0xc7,
      0x5a, 0x00, 0x3f, 0x08, 0x9d, 0x27, 0x39, 0x83, 0x9d, 0xec, 0x58, 0xb9, 0x64, 0xec, 0x38, 0x43};
  uint8_t tag[FM_SHA256_DIGEST_LEN];

  TRY(fm_hmac(FM_HASH_SHA256, key, 4, msg, strlen(msg), tag, sizeof tag));
  example_print_hex("HMAC-SHA-256: ", tag, sizeof tag);
  EXPECT(fm_memeq_consttime(tag, rfc4231_tag, sizeof tag) == FM_OK, "RFC 4231's tag");

  TRY(fm_hmac_verify(FM_HASH_SHA256, key, 4, msg, strlen(msg), tag, sizeof tag));
  tag[0] ^= 1;
  EXPECT(fm_hmac_verify(FM_HASH_SHA256, key, 4, msg, strlen(msg), tag, sizeof tag) == FM_ERR_VERIFY,
         "a changed tag to fail with FM_ERR_VERIFY");
  printf("verify: a changed tag is rejected\n");
  return 0;
}
