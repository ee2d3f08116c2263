/* Derive keys with HKDF-SHA-256 (RFC 5869 test case 1). */
#include "example.h"

int main(void) {
  example_require_operational();
  uint8_t ikm[22], salt[13], info[10];
  for (int i = 0; i < 22; i++) ikm[i] = 0x0b;
  for (int i = 0; i < 13; i++) salt[i] = (uint8_t)i;
  for (int i = 0; i < 10; i++) info[i] = (uint8_t)(0xf0 + i);
  static const uint8_t rfc5869_okm[42] = {
      0x3c, 0xb2, 0x5f, 0x25, 0xfa, 0xac, 0xd5, 0x7a, 0x90, 0x43, 0x4f, 0x64, 0xd0, 0x36,
      0x2f, 0x2a, 0x2d, 0x2d, 0x0a, 0x90, 0xcf, 0x1a, 0x5a, 0x4c, 0x5d, 0xb0, 0x2d, 0x56,
      0xec, 0xc4, 0xc5, 0xbf, 0x34, 0x00, 0x72, 0x08, 0xd5, 0xb8, 0x87, 0x18, 0x58, 0x65};
  uint8_t okm[42];
  TRY(fm_hkdf(FM_HASH_SHA256, ikm, sizeof ikm, salt, sizeof salt, info, sizeof info, okm,
              sizeof okm));
  example_print_hex("OKM: ", okm, sizeof okm);
  EXPECT(fm_memeq_consttime(okm, rfc5869_okm, sizeof okm) == FM_OK, "RFC 5869's OKM");
  fm_cleanse(okm, sizeof okm); /* derived keys are secrets */
  return 0;
}
