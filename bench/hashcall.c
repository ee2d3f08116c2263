/* fipsmod-bench-hashcall: N calls of one hash, HMAC or KDF service after a 100-call warm-up, for
 * counting instructions per call under valgrind (bench/callgrind-hash.sh): the difference of two
 * runs with different N is the steady-state cost of the extra calls.
 *
 * usage: fipsmod-bench-hashcall OP N [SIZE]
 *   sha256, sha512        fm_sha256 / fm_sha512 of SIZE bytes (default 16)
 *   hmac256, hmac512      fm_hmac, 32-byte key, SIZE-byte message
 *   hkdf                  fm_hkdf HMAC-SHA-256: 32-byte IKM and salt, 16-byte info, SIZE bytes out
 *   pbkdf2, pbkdf2-512    fm_pbkdf2_hmac with HMAC-SHA-256 / -512: 12-byte password, 16-byte
 *                         salt, SIZE iterations, one digest length out
 *   pbkdf2x64             the same with HMAC-SHA-256 and 64 bytes out (two blocks) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fipsmod/hmac.h"
#include "fipsmod/kdf.h"
#include "fipsmod/sha.h"

static volatile unsigned char g_sink;

static int run_one(const char *op, size_t size, const uint8_t *in, const uint8_t *key,
                   const uint8_t *salt, const uint8_t *info, uint8_t *out) {
  if (strcmp(op, "sha256") == 0) return fm_sha256(in, size, out);
  if (strcmp(op, "sha512") == 0) return fm_sha512(in, size, out);
  if (strcmp(op, "hmac256") == 0) return fm_hmac(FM_HASH_SHA256, key, 32, in, size, out, 32);
  if (strcmp(op, "hmac512") == 0) return fm_hmac(FM_HASH_SHA512, key, 32, in, size, out, 64);
  if (strcmp(op, "hkdf") == 0) {
    return fm_hkdf(FM_HASH_SHA256, key, 32, salt, 32, info, 16, out, size);
  }
  if (strcmp(op, "pbkdf2") == 0) {
    return fm_pbkdf2_hmac(FM_HASH_SHA256, key, 12, salt, 16, size, out, 32);
  }
  if (strcmp(op, "pbkdf2-512") == 0) {
    return fm_pbkdf2_hmac(FM_HASH_SHA512, key, 12, salt, 16, size, out, 64);
  }
  if (strcmp(op, "pbkdf2x64") == 0) {
    return fm_pbkdf2_hmac(FM_HASH_SHA256, key, 12, salt, 16, size, out, 64);
  }
  return -1;
}

int main(int argc, char **argv) {
  if (argc < 3 || argc > 4) {
    fprintf(stderr, "usage: %s OP N [SIZE]\n", argv[0]);
    return 2;
  }
  const long n = strtol(argv[2], NULL, 10);
  const size_t size = argc == 4 ? strtoul(argv[3], NULL, 10) : 16;
  static uint8_t in[16384], key[32], salt[32], info[16], out[8160];
  if (size > sizeof in) {
    fprintf(stderr, "SIZE at most %zu\n", sizeof in);
    return 2;
  }
  memset(in, 0x5a, sizeof in);
  memset(key, 1, sizeof key);
  memset(salt, 2, sizeof salt);
  memset(info, 3, sizeof info);
  for (long i = 0; i < 100 + n; i++) {
    const int st = run_one(argv[1], size, in, key, salt, info, out);
    if (st != 0) {
      fprintf(stderr, "%s: %s\n", argv[1], st < 0 ? "unknown operation" : "call failed");
      return 1;
    }
    g_sink ^= out[0];
  }
  return 0;
}
