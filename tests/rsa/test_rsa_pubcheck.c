/* Partial public-key validation at import (SP 800-89 5.3.3; rsa.h fm_rsa_key_import_public, and
 * SubjectPublicKeyInfo files through fm_rsa_key_decode): a modulus that is prime, a perfect power
 * (p^2, p^3) or has a prime factor below 752 (3p, 751p) is refused with FM_ERR_BAD_KEY; 757p (no
 * factor below 752, composite, no power) and a real key are accepted. Moduli:
 * rsa_pubcheck_vectors.h (how they were made is noted there); the real key is
 * tests/vectors/keys/rsa2048-spki.der. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fipsmod/fipsmod.h"
#include "rsa_pubcheck_vectors.h"
#include "tests/common/test_util.h"

static const uint8_t k_e[3] = {1, 0, 1};

static int import_hex(const char *hex) {
  uint8_t n[512];
  const long len = test_hex_decode(hex, n, sizeof n);
  CHECK(len > 0);
  fm_rsa_key *key = (fm_rsa_key *)(uintptr_t)1;
  const int st = fm_rsa_key_import_public(n, (size_t)len, k_e, sizeof k_e, &key);
  if (st == FM_OK) {
    CHECK_EQ_INT(fm_rsa_key_free(key), FM_OK);
  } else {
    CHECK(key == NULL);
  }
  return st;
}

static void test_prime_modulus_refused(void) { CHECK_EQ_INT(import_hex(k_n_prime), FM_ERR_BAD_KEY); }

static void test_small_factor_refused(void) {
  CHECK_EQ_INT(import_hex(k_n_three_p), FM_ERR_BAD_KEY);
  CHECK_EQ_INT(import_hex(k_n_p751), FM_ERR_BAD_KEY);
  CHECK_EQ_INT(import_hex(k_n_p757), FM_OK); /* 757 is above the bound */
}

static void test_perfect_power_refused(void) {
  CHECK_EQ_INT(import_hex(k_n_p_squared), FM_ERR_BAD_KEY);
  CHECK_EQ_INT(import_hex(k_n_p_cubed), FM_ERR_BAD_KEY);
}

/* The same moduli in SubjectPublicKeyInfo files: the codec imports through the same checks. A
 * real key still decodes. */
static void test_spki_files(void) {
  FILE *f = fopen(FIPSMOD_VECTORS_DIR "/keys/rsa2048-spki.der", "rb");
  CHECK(f != NULL);
  if (f == NULL) return;
  uint8_t der[512];
  const size_t n = fread(der, 1, sizeof der, f);
  fclose(f);
  fm_rsa_key *key = NULL;
  CHECK_EQ_INT(fm_rsa_key_decode(der, n, &key), FM_OK);
  /* Put p^2 (2048 bits, 256 bytes, top bit set) in place of n: the SPKI header of a 2048-bit key
   * holds the 257-byte INTEGER (a sign byte, then n) at the same offset. */
  uint8_t sq[256];
  CHECK_EQ_INT(test_hex_decode(k_n_p_squared, sq, sizeof sq), 256);
  size_t at = 0;
  uint8_t nbuf[256];
  size_t nlen = 0;
  CHECK_EQ_INT(fm_rsa_key_export(key, FM_RSA_N, nbuf, sizeof nbuf, &nlen), FM_OK);
  for (size_t i = 0; i + 256 <= n; i++) {
    if (memcmp(der + i, nbuf, 256) == 0) at = i;
  }
  CHECK(at != 0 && (sq[0] & 0x80) != 0);
  CHECK_EQ_INT(fm_rsa_key_free(key), FM_OK);
  memcpy(der + at, sq, 256);
  key = (fm_rsa_key *)(uintptr_t)1;
  CHECK_EQ_INT(fm_rsa_key_decode(der, n, &key), FM_ERR_BAD_KEY);
  CHECK(key == NULL);
}

static const test_case cases[] = {
  TEST_CASE(prime_modulus_refused),
  TEST_CASE(small_factor_refused),
  TEST_CASE(perfect_power_refused),
  TEST_CASE(spki_files),
};

int main(int argc, char **argv) {
  return TEST_RUN(argc, argv, "test_rsa_pubcheck", cases);
}
