/* Constant-time check of key-file decoding (fm_rsa_key_decode, fm_ec_key_decode), run under
 * valgrind memcheck against the test-hooks build: the whole input file is marked secret
 * (undefined), and the module declassifies exactly what its secrecy model calls public
 * (module/der.h, module/rsa/rsa_keyfile.c, module/ec/ec_keyfile.c: DER tags and lengths, the
 * first byte of each INTEGER, n and e, versions, object identifiers, the EC public point, the PEM
 * armour and line structure, whether the base64 was well formed; then the import's verdicts).
 * Any branch or memory index on any other byte of the file (a search of a DER key for
 * "-----BEGIN ", a table lookup of a base64 character, a test of d) is reported and fails the
 * test. Keys: tests/vectors/keys (README there): RSA PKCS#8 and PKCS#1 private keys in DER and
 * PEM; EC SEC1 and PKCS#8 private keys in DER and PEM on each curve, one with an EC PARAMETERS
 * block first and one without its public key. Outside valgrind it is a plain decoding test. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fipsmod/fipsmod.h"
#include "module/internal.h"
#include "tests/common/test_util.h"

static void decode_secret(const char *name) {
  char rel[256];
  snprintf(rel, sizeof rel, "keys/%s", name);
  size_t n;
  uint8_t *buf = test_read_vector_file(rel, &n);
  if (buf == NULL) return;
  fm_mark_secret_for_testing(buf, n);
  fm_rsa_key *key = NULL;
  const int st = fm_rsa_key_decode(buf, n, &key);
  if (st != FM_OK) fprintf(stderr, "%s: %s\n", name, fm_strerror(st));
  CHECK_EQ_INT(st, FM_OK);
  size_t bits = 0;
  CHECK_EQ_INT(fm_rsa_key_bits(key, &bits), FM_OK);
  CHECK_EQ_INT(bits, 2048);
  CHECK_EQ_INT(fm_rsa_key_free(key), FM_OK);
  free(buf);
}

static void decode_secret_ec(const char *name, fm_ec_curve want) {
  char rel[256];
  snprintf(rel, sizeof rel, "keys/%s", name);
  size_t n;
  uint8_t *buf = test_read_vector_file(rel, &n);
  if (buf == NULL) return;
  fm_mark_secret_for_testing(buf, n);
  fm_ec_key *key = NULL;
  const int st = fm_ec_key_decode(buf, n, &key);
  if (st != FM_OK) fprintf(stderr, "%s: %s\n", name, fm_strerror(st));
  CHECK_EQ_INT(st, FM_OK);
  fm_ec_curve curve = (fm_ec_curve)0;
  CHECK_EQ_INT(fm_ec_key_curve(key, &curve), FM_OK);
  CHECK_EQ_INT(curve, want);
  CHECK_EQ_INT(fm_ec_key_free(key), FM_OK);
  free(buf);
}

int main(void) {
  decode_secret("rsa2048-pkcs8.der");
  decode_secret("rsa2048-pkcs1.der");
  decode_secret("rsa2048-pkcs8.pem");
  decode_secret("rsa2048-pkcs1.pem");
  decode_secret_ec("ec-p256-sec1.der", FM_EC_P256);
  decode_secret_ec("ec-p256-pkcs8.der", FM_EC_P256);
  decode_secret_ec("ec-p256-sec1.pem", FM_EC_P256);
  decode_secret_ec("ec-p256-pkcs8.pem", FM_EC_P256);
  decode_secret_ec("ec-p224-sec1.der", FM_EC_P224);
  decode_secret_ec("ec-p384-pkcs8.pem", FM_EC_P384);
  decode_secret_ec("ec-p521-sec1.pem", FM_EC_P521);
  decode_secret_ec("ec-p256-ecparam.pem", FM_EC_P256);
  decode_secret_ec("ec-p256-sec1-nopub.pem", FM_EC_P256);
  return test_main_result("test_keyfile_ct");
}
