/* Keys from files with fm_key_load_file: one call reads a private or public key of any type the
 * module takes (RSA, EC, ML-KEM, ML-DSA), PEM or DER, and encrypted PKCS#8 with a passphrase,
 * and says what it found. Here: an EC key is written as encrypted PKCS#8 (fm_pkcs8_encrypt, as
 * `openssl genpkey -aes-256-cbc` writes it; `openssl pkey -in FILE` reads it), loaded back with
 * its passphrase, and used to sign; without the passphrase, or with a wrong one, loading fails
 * with a status that says which.
 *
 *   usage: key_file KEYFILE   (the file is written, mode 0600, then read) */
#define _POSIX_C_SOURCE 200809L /* open, O_NOFOLLOW */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "example.h"

static const uint8_t k_pass[] = "correct horse battery staple";
#define PASS_LEN (sizeof k_pass - 1)

/* save_encrypted writes |key| as encrypted PKCS#8 PEM to |path|. */
static void save_encrypted(const fm_ec_key *key, const char *path) {
  uint8_t der[256], pem[1024];
  size_t der_len = 0, pem_len = 0;
  TRY(fm_ec_key_encode(key, FM_KEY_PKCS8_PRIVATE, FM_KEY_DER, der, sizeof der, &der_len));
  /* NULL parameters: PBKDF2-HMAC-SHA256 with FM_PKCS8_DEFAULT_ITERATIONS, AES-256-CBC. A test
   * may lower the cost; a real key should not. */
  fm_pkcs8_params p = {0};
  p.iterations = 10000;
  TRY(fm_pkcs8_encrypt(der, der_len, k_pass, PASS_LEN, &p, FM_KEY_PEM, pem, sizeof pem, &pem_len));
  fm_cleanse(der, sizeof der);
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0600);
  EXPECT(fd >= 0 && write(fd, pem, pem_len) == (ssize_t)pem_len && close(fd) == 0,
         "the key file written");
}

int main(int argc, char **argv) {
  example_require_operational();
  if (argc != 2) {
    fprintf(stderr, "usage: key_file KEYFILE\n");
    return 2;
  }
  fm_ec_key *ec = NULL;
  TRY(fm_ec_key_generate(FM_EC_P384, &ec));
  save_encrypted(ec, argv[1]);
  TRY(fm_ec_key_free(ec));

  fm_key *key = NULL;
  fm_key_type found = FM_KEY_TYPE_NONE;
  EXPECT(fm_key_load_file(argv[1], NULL, 0, &key, &found) == FM_ERR_PASSPHRASE,
         "an encrypted key without a passphrase to be refused as such");
  EXPECT(fm_key_load_file(argv[1], (const uint8_t *)"wrong", 5, &key, &found) == FM_ERR_DECRYPT,
         "a wrong passphrase to be refused");
  TRY(fm_key_load_file(argv[1], k_pass, PASS_LEN, &key, &found));

  fm_key_view v;
  TRY(fm_key_get(key, &v));
  switch (v.type) {
    case FM_KEY_TYPE_EC: {
      fm_ec_curve curve = 0;
      TRY(fm_ec_key_curve(v.ec, &curve));
      printf("%s: a %s EC key (curve %d)\n", argv[1], v.is_private ? "private" : "public",
             (int)curve);
      static const char msg[] = "release 1.2.3";
      uint8_t sig[FM_EC_MAX_SIG_BYTES];
      size_t sig_len = 0;
      TRY(fm_ecdsa_sign(v.ec, FM_HASH_SHA384, (const uint8_t *)msg, strlen(msg), sig, sizeof sig,
                        &sig_len));
      TRY(fm_ecdsa_verify(v.ec, FM_HASH_SHA384, (const uint8_t *)msg, strlen(msg), sig, sig_len));
      printf("signed and verified with the loaded key\n");
      break;
    }
    case FM_KEY_TYPE_RSA: printf("an RSA key\n"); break;
    case FM_KEY_TYPE_MLKEM: printf("an ML-KEM-%d key\n", (int)v.mlkem); break;
    case FM_KEY_TYPE_MLDSA: printf("an ML-DSA-%d key\n", (int)v.mldsa); break;
    default: break;
  }
  EXPECT(v.type == FM_KEY_TYPE_EC && v.is_private, "the private EC key that was written");
  TRY(fm_key_free(key));
  return 0;
}
