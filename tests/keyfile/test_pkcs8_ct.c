/* Constant-time check of encrypted PKCS#8 (fm_pkcs8_decrypt, fm_pkcs8_encrypt, fm_key_decode),
 * run under valgrind memcheck against the test-hooks build: the passphrase is marked secret
 * (undefined), so the derived AES key and the whole decrypted plaintext are secret too. The
 * module may release only the joint verdict of the padding and SEQUENCE-header check, then the
 * structure (tags and lengths) of the PrivateKeyInfo, as pkcs8.h says; a branch or memory index
 * on a padding byte or on any other plaintext byte fails the test. A wrong passphrase runs the
 * same check on garbage. For encryption the key to encrypt is marked secret as well. Files:
 * tests/vectors/keys (OpenSSL 3.0, passphrase "test"). Outside valgrind it is a plain test. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fipsmod/fipsmod.h"
#include "module/internal.h"
#include "tests/common/test_util.h"

static uint8_t *load(const char *name, size_t *n) {
  char rel[256];
  snprintf(rel, sizeof rel, "keys/%s", name);
  return test_read_vector_file(rel, n);
}

static void decrypt_secret(const char *name, const char *pass, int want) {
  size_t n = 0, m = 0;
  uint8_t *in = load(name, &n), out[4096], pw[16];
  if (in == NULL) return;
  const size_t pl = strlen(pass);
  memcpy(pw, pass, pl);
  fm_mark_secret_for_testing(pw, pl);
  CHECK_EQ_INT(fm_pkcs8_decrypt(in, n, pw, pl, out, sizeof out, &m, NULL), want);
  fm_key *key = NULL;
  CHECK_EQ_INT(fm_key_decode(in, n, pw, pl, &key, NULL), want);
  (void)fm_key_free(key);
  free(in);
}

static void encrypt_secret(const char *name) {
  size_t n = 0, e = 0, m = 0;
  uint8_t *key = load(name, &n), enc[4096], back[4096], pw[8] = "abcdefgh";
  if (key == NULL) return;
  fm_mark_secret_for_testing(key, n);
  fm_mark_secret_for_testing(pw, sizeof pw);
  fm_pkcs8_params p = {FM_PBE_NONE, FM_HASH_SHA384, 24, 1000, 16};
  CHECK_EQ_INT(fm_pkcs8_encrypt(key, n, pw, sizeof pw, &p, FM_KEY_PEM, enc, sizeof enc, &e), FM_OK);
  CHECK_EQ_INT(fm_pkcs8_decrypt(enc, e, pw, sizeof pw, back, sizeof back, &m, NULL), FM_OK);
  CHECK_EQ_INT(m, n);
  fm_declassify(back, m);
  fm_declassify(key, n);
  CHECK(memcmp(back, key, n) == 0);
  free(key);
}

int main(void) {
  decrypt_secret("ec-p521-encrypted-aes256-sha224.pem", "test", FM_OK);
  decrypt_secret("ec-p521-encrypted-aes256-sha224.pem", "tesT", FM_ERR_DECRYPT);
  decrypt_secret("ec-p384-encrypted-aes192-sha384.der", "test", FM_OK);
  encrypt_secret("ec-p256-pkcs8.der");
  encrypt_secret("mlkem768-pkcs8.der");
  return test_main_result("test_pkcs8_ct");
}
