/* libFuzzer target: fm_pkcs8_decrypt and fm_key_decode on arbitrary bytes (PEM or DER
 * EncryptedPrivateKeyInfo, or anything else), with the passphrase "test" of the seed files
 * (tests/vectors/keys, README there). Properties:
 *   - the status is FM_OK or one pkcs8.h lists; on error the output is wiped and *out_len 0;
 *   - the size query (no passphrase work) agrees with the full call on every structural verdict,
 *     and FM_OK means the scheme found is PBES2 with PBKDF2 and AES-CBC;
 *   - a decrypted key is at most as long as the ciphertext, and fm_pkcs8_encrypt of it decrypts
 *     to the same bytes;
 *   - fm_key_decode with the same passphrase fails where fm_pkcs8_decrypt does, with the same
 *     status, and leaves no key.
 * The full decryption runs only for iteration counts up to 4096 (the seeds use 1000 and 2048), so
 * that an input is a few milliseconds; the parser sees every count. */
#include <string.h>

#include "tests/fuzz/fuzz_util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  fuzz_require_operational();
  return 0;
}

static const uint8_t k_pass[] = "test";
static uint8_t g_out[70000], g_enc[100000], g_back[70000];

static int all_zero(const uint8_t *p, size_t n) {
  uint8_t acc = 0;
  for (size_t i = 0; i < n; i++) acc |= p[i];
  return acc == 0;
}

static int listed(int st) {
  return st == FM_OK || st == FM_ERR_PARSE || st == FM_ERR_UNSUPPORTED ||
         st == FM_ERR_OUT_OF_RANGE || st == FM_ERR_LENGTH || st == FM_ERR_DECRYPT ||
         st == FM_ERR_NO_MEMORY;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fm_pkcs8_params found;
  size_t need = 7;
  const int q = fm_pkcs8_decrypt(data, size, NULL, 0, NULL, 0, &need, &found);
  FUZZ_ASSERT(listed(q));
  FUZZ_ASSERT(q != FM_OK || found.scheme == FM_PBE_PBES2_PBKDF2_AES_CBC);
  FUZZ_ASSERT(q == FM_OK || need == 0);
  if (q != FM_OK) {
    /* Without a passphrase the full call says the same (the structure is read first). */
    size_t n = 7;
    FUZZ_ASSERT(fm_pkcs8_decrypt(data, size, NULL, 0, g_out, sizeof g_out, &n, NULL) == q);
    fuzz_require_operational();
    return 0;
  }
  FUZZ_ASSERT(need > 0 && need % 16 == 0 && need <= size);
  if (found.iterations > 4096 || need > sizeof g_out) {
    fuzz_require_operational();
    return 0;
  }
  memset(g_out, 0xa5, sizeof g_out);
  size_t n = 7;
  const int st = fm_pkcs8_decrypt(data, size, k_pass, 4, g_out, sizeof g_out, &n, NULL);
  FUZZ_ASSERT(st == FM_OK || st == FM_ERR_DECRYPT || st == FM_ERR_NO_MEMORY);
  fm_key *key = (fm_key *)(uintptr_t)1;
  const int kst = fm_key_decode(data, size, k_pass, 4, &key, NULL);
  if (st != FM_OK) {
    FUZZ_ASSERT(n == 0 && all_zero(g_out, sizeof g_out));
    FUZZ_ASSERT(kst == st && key == NULL);
    fuzz_require_operational();
    return 0;
  }
  FUZZ_ASSERT(n > 0 && n < need + 1);
  FUZZ_ASSERT(kst != FM_OK || key != NULL);
  FUZZ_ASSERT(kst == FM_OK || key == NULL);
  (void)fm_key_free(key == (fm_key *)(uintptr_t)1 ? NULL : key);
  /* Encrypt what came out and read it back. */
  fm_pkcs8_params p = {FM_PBE_NONE, found.prf, found.aes_key_len, 1, 16};
  size_t e = 0, m = 0;
  FUZZ_ASSERT(fm_pkcs8_encrypt(g_out, n, k_pass, 4, &p, FM_KEY_DER, g_enc, sizeof g_enc, &e) ==
              FM_OK);
  FUZZ_ASSERT(fm_pkcs8_decrypt(g_enc, e, k_pass, 4, g_back, sizeof g_back, &m, NULL) == FM_OK);
  FUZZ_ASSERT(m == n && memcmp(g_back, g_out, n) == 0);
  fuzz_require_operational();
  return 0;
}
