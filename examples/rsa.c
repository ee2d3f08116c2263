/* RSA: generate a 2048-bit key, save it as a PKCS#8 PEM file, load it back, sign a message with
 * PSS (SHA-256, salt = hash length) and verify the signature; a changed message fails.
 *
 *   usage: rsa KEYFILE   (the file is written, mode 0600, then read) */
#define _POSIX_C_SOURCE 200809L /* open, O_NOFOLLOW */
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "example.h"

static void save_private_key(const fm_rsa_key *key, const char *path) {
  size_t len = 0;
  TRY(fm_rsa_key_encode(key, FM_KEY_PKCS8_PRIVATE, FM_KEY_PEM, NULL, 0, &len));
  uint8_t *pem = malloc(len);
  EXPECT(pem != NULL, "memory");
  TRY(fm_rsa_key_encode(key, FM_KEY_PKCS8_PRIVATE, FM_KEY_PEM, pem, len, &len));
  /* A private key file is readable by its owner alone. */
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0600);
  EXPECT(fd >= 0 && write(fd, pem, len) == (ssize_t)len && close(fd) == 0, "the key file written");
  fm_cleanse(pem, len);
  free(pem);
}

static fm_rsa_key *load_key(const char *path) {
  FILE *f = fopen(path, "rb");
  EXPECT(f != NULL, "the key file to open");
  uint8_t buf[8192];
  size_t len = fread(buf, 1, sizeof buf, f);
  fclose(f);
  fm_rsa_key *key = NULL;
  TRY(fm_rsa_key_decode(buf, len, &key)); /* checks the key (SP 800-56B 6.4.1) */
  fm_cleanse(buf, sizeof buf);
  return key;
}

int main(int argc, char **argv) {
  example_require_operational();
  if (argc != 2) {
    fprintf(stderr, "usage: rsa KEYFILE\n");
    return 2;
  }
  fm_rsa_key *key = NULL;
  TRY(fm_rsa_key_generate(2048, &key)); /* FIPS 186-5 A.1.3, with a pairwise consistency test */
  save_private_key(key, argv[1]);
  TRY(fm_rsa_key_free(key));

  key = load_key(argv[1]);
  size_t bits = 0;
  TRY(fm_rsa_key_bits(key, &bits));
  printf("loaded a %zu-bit key from %s\n", bits, argv[1]);

  static const char msg[] = "release 1.2.3";
  uint8_t sig[512];
  size_t sig_len = 0;
  TRY(fm_rsa_sign_pss(key, FM_HASH_SHA256, (const uint8_t *)msg, strlen(msg), FM_SHA256_DIGEST_LEN,
                      sig, sizeof sig, &sig_len));
  printf("PSS signature: %zu bytes\n", sig_len);
  TRY(fm_rsa_verify_pss(key, FM_HASH_SHA256, (const uint8_t *)msg, strlen(msg), FM_SHA256_DIGEST_LEN,
                        sig, sig_len));
  EXPECT(fm_rsa_verify_pss(key, FM_HASH_SHA256, (const uint8_t *)"release 1.2.4", strlen(msg),
                           FM_SHA256_DIGEST_LEN, sig, sig_len) == FM_ERR_VERIFY,
         "another message to fail with FM_ERR_VERIFY");
  printf("verified; another message is rejected\n");
  TRY(fm_rsa_key_free(key)); /* zeroizes the private key */
  return 0;
}
