// A C++17 consumer of an installed fipsmod, built with -Wall -Wextra -Werror -pedantic: the
// public headers compile as C++ and link with C linkage. It checks the headers and the library
// agree on the version, then SHA-256("abc") (FIPS 180-4 example) and HMAC-SHA-256 (RFC 4231
// test case 2) against their known answers.
#include <fipsmod/fipsmod.h>

#include <array>
#include <cstdio>
#include <cstring>
#include <string>

int main() {
  if (fm_version_check(FIPSMOD_VERSION_MAJOR, FIPSMOD_VERSION_MINOR, FIPSMOD_VERSION_PATCH) != FM_OK) {
    std::fprintf(stderr, "consumer-cxx: headers %s, library %s\n", FIPSMOD_VERSION_STRING,
                 fm_module_version());
    return 1;
  }
  static const std::array<std::uint8_t, 32> sha_expected = {
      0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40, 0xde, 0x5d, 0xae, 0x22, 0x23,
      0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17, 0x7a, 0x9c, 0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad};
  static const std::array<std::uint8_t, 32> hmac_expected = {
      0x5b, 0xdc, 0xc1, 0x46, 0xbf, 0x60, 0x75, 0x4e, 0x6a, 0x04, 0x24, 0x26, 0x08, 0x95, 0x75, 0xc7,
      0x5a, 0x00, 0x3f, 0x08, 0x9d, 0x27, 0x39, 0x83, 0x9d, 0xec, 0x58, 0xb9, 0x64, 0xec, 0x38, 0x43};
  std::array<std::uint8_t, 32> out{};
  const std::string msg = "abc";
  int st = fm_sha256(msg.data(), msg.size(), out.data());
  if (st != FM_OK || out != sha_expected) {
    std::fprintf(stderr, "consumer-cxx: sha256: %s\n", fm_strerror(st));
    return 1;
  }
  const std::string key = "Jefe";
  const std::string data = "what do ya want for nothing?";
  st = fm_hmac(FM_HASH_SHA256, reinterpret_cast<const std::uint8_t *>(key.data()), key.size(),
               data.data(), data.size(), out.data(), out.size());
  if (st != FM_OK || out != hmac_expected) {
    std::fprintf(stderr, "consumer-cxx: hmac: %s\n", fm_strerror(st));
    return 1;
  }
  // The status convention: FM_OK is 0, every error negative; a wrong tag must not be FM_OK.
  out[0] ^= 1;
  if (fm_hmac_verify(FM_HASH_SHA256, reinterpret_cast<const std::uint8_t *>(key.data()),
                     key.size(), data.data(), data.size(), out.data(), out.size()) != FM_ERR_VERIFY) {
    std::fprintf(stderr, "consumer-cxx: a wrong tag was not refused with FM_ERR_VERIFY\n");
    return 1;
  }
  std::printf("consumer-cxx: %s, SHA-256 and HMAC-SHA-256 ok\n", fm_module_version());
  return 0;
}
