/* The public SHA-224, SHA-512/t, SHA3-* and SHAKE services, and HMAC and the KDFs over the new
 * hashes: known answers (FIPS 180-4 and FIPS 202 "abc" examples as published by NIST's example
 * pages, the other values computed with python3 hashlib, hmac and pyca/cryptography), streaming
 * equals one-shot, the service indicator, and SHAKE's context rules. */
#include <string.h>

#include "fipsmod/hmac.h"
#include "fipsmod/indicator.h"
#include "fipsmod/kdf.h"
#include "fipsmod/sha.h"
#include "tests/common/test_util.h"

static int approved(void) {
  fm_indicator ind;
  return fm_service_indicator(&ind) == FM_OK && ind == FM_INDICATOR_APPROVED;
}

static void check_hex(const uint8_t *got, const char *hex) {
  uint8_t want[256];
  long n = test_hex_decode(hex, want, sizeof want);
  CHECK(n > 0);
  if (n > 0) CHECK_MEM(got, want, (size_t)n);
}

static const struct {
  fm_hash_alg alg;
  size_t len;
  const char *abc;
} k_hashes[] = {
    {FM_HASH_SHA224, 28, "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7"},
    {FM_HASH_SHA512_224, 28, "4634270f707b6a54daae7530460842e20e37ed265ceee9a43e8924aa"},
    {FM_HASH_SHA512_256, 32, "53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23"},
    {FM_HASH_SHA3_224, 28, "e642824c3f8cf24ad09234ee7d3c766fc9a3a5168d0c94ad73b46fdf"},
    {FM_HASH_SHA3_256, 32, "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"},
    {FM_HASH_SHA3_384, 48,
     "ec01498288516fc926459f58e2c6ad8df9b473cb0fc08c2596da7cf0e49be4b298d88cea927ac7f539f1edf2283"
     "76d25"},
    {FM_HASH_SHA3_512, 64,
     "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e10e116e9192af3c91a7ec57647e"
     "3934057340b4cf408d5a56592f8274eec53f0"},
};

/* Each new hash: the "abc" answer through fm_sha_digest, the shorthand and a context fed byte by
 * byte; the digest length; approved. */
static void test_abc(void) {
  for (size_t i = 0; i < sizeof k_hashes / sizeof k_hashes[0]; i++) {
    uint8_t out[64];
    size_t dl = 0;
    CHECK(fm_hash_digest_len(k_hashes[i].alg, &dl) == FM_OK && dl == k_hashes[i].len);
    memset(out, 0xee, sizeof out);
    CHECK(fm_sha_digest(k_hashes[i].alg, "abc", 3, out, sizeof out) == FM_OK);
    CHECK(approved());
    check_hex(out, k_hashes[i].abc);
    CHECK(k_hashes[i].len == 64 || out[k_hashes[i].len] == 0xee); /* nothing past the digest */
    fm_sha_ctx ctx;
    CHECK(fm_sha_init(&ctx, k_hashes[i].alg) == FM_OK);
    for (int j = 0; j < 3; j++) CHECK(fm_sha_update(&ctx, &"abc"[j], 1) == FM_OK);
    memset(out, 0, sizeof out);
    CHECK(fm_sha_final(&ctx, out, k_hashes[i].len) == FM_OK);
    check_hex(out, k_hashes[i].abc);
    CHECK(fm_sha_final(&ctx, out, sizeof out) == FM_ERR_STATE);
  }
  uint8_t out[64];
  CHECK(fm_sha224("abc", 3, out) == FM_OK);
  check_hex(out, k_hashes[0].abc);
  CHECK(fm_sha512_224("abc", 3, out) == FM_OK);
  check_hex(out, k_hashes[1].abc);
  CHECK(fm_sha512_256("abc", 3, out) == FM_OK);
  check_hex(out, k_hashes[2].abc);
  CHECK(fm_sha3_224("abc", 3, out) == FM_OK);
  check_hex(out, k_hashes[3].abc);
  CHECK(fm_sha3_256("abc", 3, out) == FM_OK);
  check_hex(out, k_hashes[4].abc);
  CHECK(fm_sha3_384("abc", 3, out) == FM_OK);
  check_hex(out, k_hashes[5].abc);
  CHECK(fm_sha3_512("abc", 3, out) == FM_OK);
  check_hex(out, k_hashes[6].abc);
  CHECK(fm_sha3_256(NULL, 1, out) == FM_ERR_BAD_ARGUMENT);
  CHECK(fm_sha_digest(FM_HASH_SHA3_256, "abc", 3, out, 31) == FM_ERR_BUFFER_TOO_SMALL);
  CHECK(fm_sha_digest((fm_hash_alg)11, "abc", 3, out, 64) == FM_ERR_UNSUPPORTED);
}

/* SHAKE: the "abc" answers, a squeeze cut in odd pieces equals one squeeze, absorbing after the
 * first squeeze is refused, a zeroed context is not live. */
static void test_shake(void) {
  static const char *k128 = "5881092dd818bf5cf8a3ddb793fbcba74097d5c526a6d35f97b83351940f2cc844c50af32acd3f2c";
  static const char *k256 = "483366601360a8771c6863080cc4114d8db44530f8f1e1ee4f94ea37e78b5739d5a15bef186a5386";
  uint8_t out[40], big[500], pieces[500];
  CHECK(fm_shake128("abc", 3, out, sizeof out) == FM_OK);
  CHECK(approved());
  check_hex(out, k128);
  CHECK(fm_shake256("abc", 3, out, sizeof out) == FM_OK);
  check_hex(out, k256);
  CHECK(fm_shake128(NULL, 0, NULL, 0) == FM_OK);
  CHECK(fm_shake128(NULL, 1, out, sizeof out) == FM_ERR_BAD_ARGUMENT);

  fm_shake_ctx ctx;
  for (int alg = FM_XOF_SHAKE128; alg <= FM_XOF_SHAKE256; alg++) {
    CHECK((alg == FM_XOF_SHAKE128 ? fm_shake128 : fm_shake256)("abcdefgh", 8, big, sizeof big) ==
          FM_OK);
    CHECK(fm_shake_init(&ctx, (fm_xof_alg)alg) == FM_OK);
    CHECK(fm_shake_absorb(&ctx, "abc", 3) == FM_OK);
    CHECK(fm_shake_absorb(&ctx, "", 0) == FM_OK);
    CHECK(fm_shake_absorb(&ctx, "defgh", 5) == FM_OK);
    size_t at = 0;
    for (size_t step = 1; at < sizeof pieces; step = step * 3 + 1) {
      size_t n = step < sizeof pieces - at ? step : sizeof pieces - at;
      CHECK(fm_shake_squeeze(&ctx, pieces + at, n) == FM_OK);
      at += n;
    }
    CHECK_MEM(pieces, big, sizeof big);
    CHECK(fm_shake_absorb(&ctx, "x", 1) == FM_ERR_STATE);
    CHECK(fm_shake_wipe(&ctx) == FM_OK);
    CHECK(fm_shake_squeeze(&ctx, out, sizeof out) == FM_ERR_STATE);
  }
  CHECK(fm_shake_init(&ctx, (fm_xof_alg)3) == FM_ERR_UNSUPPORTED);
  CHECK(fm_shake_init(NULL, FM_XOF_SHAKE128) == FM_ERR_BAD_ARGUMENT);
}

/* HMAC and the KDFs over the new hashes. */
static void test_mac_kdf(void) {
  static const char fox[] = "The quick brown fox jumps over the lazy dog";
  uint8_t out[80];
  CHECK(fm_hmac(FM_HASH_SHA3_256, (const uint8_t *)"key", 3, fox, strlen(fox), out, sizeof out) ==
        FM_OK);
  check_hex(out, "8c6e0683409427f8931711b10ca92a506eb1fafa48fadd66d76126f47ac2c333");
  CHECK(fm_hmac(FM_HASH_SHA512_224, (const uint8_t *)"key", 3, fox, strlen(fox), out,
                sizeof out) == FM_OK);
  check_hex(out, "a1afb4f708cb63570639195121785ada3dc615989cc3c73f38e306a3");
  CHECK(fm_hkdf(FM_HASH_SHA3_256, (const uint8_t *)"input keying material 16", 24,
                (const uint8_t *)"salt-salt", 9, (const uint8_t *)"info", 4, out, 42) == FM_OK);
  check_hex(out, "8dc9c7d57a646a61147707e906aab07ccb019c1f40060e134561acefb68eaa47f2a9d76caa11abbf"
                 "bd17");
  CHECK(fm_pbkdf2_hmac(FM_HASH_SHA224, (const uint8_t *)"password", 8,
                       (const uint8_t *)"saltSALTsaltSALT", 16, 1000, out, 40) == FM_OK);
  check_hex(out, "16eced1f96f453c16c0d31bdb6a4d9e78c42da0e8ab403ec2f7dbb036129b51de5f1def68879d7b7");
  CHECK(fm_pbkdf2_hmac(FM_HASH_SHA3_512, (const uint8_t *)"password", 8,
                       (const uint8_t *)"saltSALTsaltSALT", 16, 100, out, 70) == FM_OK);
  check_hex(out, "317d4341322a4bf82e95b358b36c4e5a1d3cdda941e26a6bc4b3fc5cab63fde4b7f0eb47154a9a00"
                 "15effa02ded5651ba7d826e74c656f369cea07c8fd35b0ece3c87ddf710d");
}

int main(int argc, char **argv) {
  static const test_case cases[] = {TEST_CASE(abc), TEST_CASE(shake), TEST_CASE(mac_kdf)};
  return TEST_RUN(argc, argv, "test_sha3_api", cases);
}
