/* A program that defines its own functions with the names of fipsmod internals (bn_add,
 * sha256_blocks, hmac_ctx_init) and links libfipsmod.a statically. The archive keeps its
 * internals local, so the link succeeds (no "multiple definition"), the program's calls reach the
 * program's functions, and the module's SHA-256 and HMAC (which use its own sha256_blocks and
 * hmac_ctx_init) still give the known answers: FIPS 180-4 "abc" and RFC 4231 test case 2. */
#include <fipsmod/fipsmod.h>
#include <stdio.h>
#include <string.h>

/* Deliberately unrelated signatures: nothing of the module may bind to these. */
int bn_add(int a, int b);
int sha256_blocks(const char *s);
int hmac_ctx_init(void);
int bn_add(int a, int b) { return a + b + 1000; }
int sha256_blocks(const char *s) { return (int)strlen(s) + 2000; }
int hmac_ctx_init(void) { return 3000; }

int main(void) {
  static const uint8_t sha_expected[32] = {
      0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40, 0xde, 0x5d, 0xae, 0x22, 0x23,
      0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17, 0x7a, 0x9c, 0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad};
  static const uint8_t hmac_expected[32] = {
      0x5b, 0xdc, 0xc1, 0x46, 0xbf, 0x60, 0x75, 0x4e, 0x6a, 0x04, 0x24, 0x26, 0x08, 0x95, 0x75, 0xc7,
      0x5a, 0x00, 0x3f, 0x08, 0x9d, 0x27, 0x39, 0x83, 0x9d, 0xec, 0x58, 0xb9, 0x64, 0xec, 0x38, 0x43};
  uint8_t out[32];
  if (bn_add(1, 2) != 1003 || sha256_blocks("ab") != 2002 || hmac_ctx_init() != 3000) {
    fprintf(stderr, "consumer-clash: the program's own functions were not called\n");
    return 1;
  }
  int st = fm_sha256("abc", 3, out);
  if (st != FM_OK || memcmp(out, sha_expected, sizeof out) != 0) {
    fprintf(stderr, "consumer-clash: sha256: %s\n", fm_strerror(st));
    return 1;
  }
  st = fm_hmac(FM_HASH_SHA256, (const uint8_t *)"Jefe", 4, "what do ya want for nothing?", 28, out,
               sizeof out);
  if (st != FM_OK || memcmp(out, hmac_expected, sizeof out) != 0) {
    fprintf(stderr, "consumer-clash: hmac: %s\n", fm_strerror(st));
    return 1;
  }
  printf("consumer-clash: own bn_add/sha256_blocks/hmac_ctx_init beside libfipsmod.a, fipsmod ok\n");
  return 0;
}
