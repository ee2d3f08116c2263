/* libFuzzer target: fm_rsa_key_decode on arbitrary bytes (PEM or DER; PKCS#1, PKCS#8, SPKI).
 * Properties: the status is FM_OK or one of the statuses keyfile.h lists, and *key is NULL on
 * error; a decoded key encodes again; for DER input, the input is exactly one of the key's
 * encodings (DER is canonical, and the decoder accepts nothing else); for PEM input, the
 * re-encoded key decodes to the same modulus. */
#define _GNU_SOURCE /* memmem */
#include <string.h>

#include "tests/fuzz/fuzz_util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  fuzz_require_operational();
  return 0;
}

static uint8_t g_out[64 * 1024], g_n1[FM_RSA_MAX_BYTES], g_n2[FM_RSA_MAX_BYTES];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fm_rsa_key *key = (fm_rsa_key *)&size; /* must be overwritten, also on error */
  int st = fm_rsa_key_decode(data, size, &key);
  FUZZ_ASSERT(st == FM_OK || st == FM_ERR_PARSE || st == FM_ERR_UNSUPPORTED ||
              st == FM_ERR_BAD_KEY || st == FM_ERR_KEY_SIZE || st == FM_ERR_NO_MEMORY ||
              st == FM_ERR_ENTROPY);
  if (st != FM_OK) {
    FUZZ_ASSERT(key == NULL);
    fuzz_require_operational();
    return 0;
  }
  int is_private = -1;
  FUZZ_ASSERT(fm_rsa_key_is_private(key, &is_private) == FM_OK);
  size_t n1_len = 0;
  FUZZ_ASSERT(fm_rsa_key_export(key, FM_RSA_N, g_n1, sizeof g_n1, &n1_len) == FM_OK);

  int pem = size >= 11 && memmem(data, size, "-----BEGIN ", 11) != NULL;
  int matched = 0;
  for (int f = FM_KEY_PKCS1_PRIVATE; f <= FM_KEY_SPKI_PUBLIC; f++) {
    int priv_format = f == FM_KEY_PKCS1_PRIVATE || f == FM_KEY_PKCS8_PRIVATE;
    size_t len = 0;
    int est = fm_rsa_key_encode(key, (fm_key_format)f, pem ? FM_KEY_PEM : FM_KEY_DER, g_out,
                                sizeof g_out, &len);
    if (priv_format && !is_private) {
      FUZZ_ASSERT(est == FM_ERR_BAD_KEY);
      continue;
    }
    FUZZ_ASSERT(est == FM_OK);
    if (!pem && len == size && memcmp(g_out, data, size) == 0) matched = 1;
    if (pem) {
      fm_rsa_key *back = NULL;
      FUZZ_ASSERT(fm_rsa_key_decode(g_out, len, &back) == FM_OK);
      size_t n2_len = 0;
      FUZZ_ASSERT(fm_rsa_key_export(back, FM_RSA_N, g_n2, sizeof g_n2, &n2_len) == FM_OK);
      FUZZ_ASSERT(n1_len == n2_len && memcmp(g_n1, g_n2, n1_len) == 0);
      FUZZ_ASSERT(fm_rsa_key_free(back) == FM_OK);
    }
  }
  if (!pem) FUZZ_ASSERT(matched);
  (void)fm_cleanse(g_out, sizeof g_out);
  FUZZ_ASSERT(fm_rsa_key_free(key) == FM_OK);
  fuzz_require_operational();
  return 0;
}
