/* A tiny program built against an installed fipsmod: it hashes "abc" and checks the module is
 * OPERATIONAL and the digest is the FIPS 180-4 example value. */
#include <fipsmod/fipsmod.h>
#include <stdio.h>
#include <string.h>

int main(void) {
  static const uint8_t expected[32] = {
      0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40, 0xde, 0x5d, 0xae, 0x22, 0x23,
      0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17, 0x7a, 0x9c, 0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad};
  uint8_t digest[32];
  if (fm_module_state() != FM_STATE_OPERATIONAL) {
    fprintf(stderr, "consumer: module state %s\n", fm_module_state_name(fm_module_state()));
    return 1;
  }
  int st = fm_sha256("abc", 3, digest);
  if (st != FM_OK || memcmp(digest, expected, sizeof digest) != 0) {
    fprintf(stderr, "consumer: sha256 failed: %s\n", fm_strerror(st));
    return 1;
  }
  printf("consumer: %s OPERATIONAL, SHA-256(\"abc\") ok\n", fm_module_version());
  return 0;
}
