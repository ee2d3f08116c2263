/* libFuzzer target: fm_rsa_key_import_public on fuzzed components.
 * Input: field(n) field(e) (fuzz_util.h: a 2-byte big-endian length, then the bytes).
 * Properties: the status is FM_OK or one of the statuses rsa.h lists for bad input, and *key is
 * NULL on error; an imported key has 1024..16384 bits, exports n and e as given (less leading
 * zeros), refuses private exports and signing, and rejects a signature of zeros. */
#include <string.h>

#include "tests/fuzz/fuzz_util.h"

/* strip drops leading zero bytes. */
static void strip(const uint8_t **p, size_t *n) {
  while (*n > 0 && (*p)[0] == 0) {
    (*p)++;
    (*n)--;
  }
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  fuzz_require_operational();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in = {data, size};
  const uint8_t *n, *e;
  size_t n_len, e_len;
  fuzz_field(&in, &n, &n_len);
  fuzz_field(&in, &e, &e_len);

  fm_rsa_key *key = (fm_rsa_key *)&in; /* must be overwritten, also on error */
  int st = fm_rsa_key_import_public(n, n_len, e, e_len, &key);
  FUZZ_ASSERT(st == FM_OK || st == FM_ERR_BAD_ARGUMENT || st == FM_ERR_KEY_SIZE ||
              st == FM_ERR_BAD_KEY || st == FM_ERR_NO_MEMORY);
  if (st != FM_OK) {
    FUZZ_ASSERT(key == NULL);
    fuzz_require_operational();
    return 0;
  }
  FUZZ_ASSERT(key != NULL);

  size_t bits = 0, bytes = 0;
  FUZZ_ASSERT(fm_rsa_key_bits(key, &bits) == FM_OK);
  FUZZ_ASSERT(bits >= FM_RSA_MIN_PUBLIC_BITS && bits <= FM_RSA_MAX_BITS);
  FUZZ_ASSERT(fm_rsa_key_size(key, &bytes) == FM_OK && bytes == (bits + 7) / 8);
  int is_private = -1;
  FUZZ_ASSERT(fm_rsa_key_is_private(key, &is_private) == FM_OK && is_private == 0);

  static uint8_t buf[FM_RSA_MAX_BYTES];
  size_t len = 0;
  FUZZ_ASSERT(fm_rsa_key_export(key, FM_RSA_N, buf, sizeof(buf), &len) == FM_OK);
  const uint8_t *got = buf;
  strip(&got, &len);
  strip(&n, &n_len);
  FUZZ_ASSERT(len == n_len && memcmp(got, n, n_len) == 0);
  FUZZ_ASSERT(fm_rsa_key_export(key, FM_RSA_E, buf, sizeof(buf), &len) == FM_OK);
  got = buf;
  strip(&got, &len);
  strip(&e, &e_len);
  FUZZ_ASSERT(len == e_len && memcmp(got, e, e_len) == 0);
  FUZZ_ASSERT(fm_rsa_key_export(key, FM_RSA_D, buf, sizeof(buf), &len) == FM_ERR_BAD_KEY);

  const uint8_t msg[] = "fuzz";
  FUZZ_ASSERT(fm_rsa_sign_pkcs1v15(key, FM_HASH_SHA256, msg, sizeof(msg), buf, sizeof(buf),
                                   &len) == FM_ERR_BAD_ARGUMENT);
  memset(buf, 0, bytes);
  FUZZ_ASSERT(fm_rsa_verify_pkcs1v15(key, FM_HASH_SHA256, msg, sizeof(msg), buf, bytes) ==
              FM_ERR_VERIFY);
  FUZZ_ASSERT(fm_rsa_key_free(key) == FM_OK);
  fuzz_require_operational();
  return 0;
}
