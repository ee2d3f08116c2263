/* libFuzzer target: RSA private-key import on fuzzed components.
 * Input: a mode byte, then fields (fuzz_util.h: a 2-byte big-endian length, then the bytes):
 *   mode % 3 == 0  fm_rsa_key_import_private with n e d p q dp dq qinv;
 *   mode % 3 == 1  fm_rsa_key_import_private with n e d p q, the module derives dp dq qinv;
 *   mode % 3 == 2  fm_rsa_key_import_private_nd with n e d.
 * Properties: the status is FM_OK or one of the statuses rsa.h lists for bad input, and *key is
 * NULL on error; an imported key is private, has 2048..16384 bits, exports n (and p, q) as given
 * less leading zeros, and works: a CRT key signs (PKCS#1 v1.5) and its signature verifies, an
 * (n, e, d) key computes RSASP1. */
#include <string.h>

#include "tests/fuzz/fuzz_util.h"

static void strip(const uint8_t **p, size_t *n) {
  while (*n > 0 && (*p)[0] == 0) {
    (*p)++;
    (*n)--;
  }
}

/* export_matches: component |which| of |key| equals the big-endian number p[0..n). */
static int export_matches(const fm_rsa_key *key, fm_rsa_component which, const uint8_t *p,
                          size_t n) {
  static uint8_t buf[FM_RSA_MAX_BYTES];
  size_t len = 0;
  if (fm_rsa_key_export(key, which, buf, sizeof(buf), &len) != FM_OK) return 0;
  const uint8_t *got = buf;
  strip(&got, &len);
  strip(&p, &n);
  return len == n && memcmp(got, p, n) == 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  fuzz_require_operational();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in = {data, size};
  int mode = fuzz_byte(&in) % 3;
  fm_rsa_private_components c;
  memset(&c, 0, sizeof(c));
  fuzz_field(&in, &c.n, &c.n_len);
  fuzz_field(&in, &c.e, &c.e_len);
  fuzz_field(&in, &c.d, &c.d_len);

  fm_rsa_key *key = (fm_rsa_key *)&in; /* must be overwritten, also on error */
  int st;
  if (mode == 2) {
    st = fm_rsa_key_import_private_nd(c.n, c.n_len, c.e, c.e_len, c.d, c.d_len, &key);
  } else {
    fuzz_field(&in, &c.p, &c.p_len);
    fuzz_field(&in, &c.q, &c.q_len);
    if (mode == 0) {
      fuzz_field(&in, &c.dp, &c.dp_len);
      fuzz_field(&in, &c.dq, &c.dq_len);
      fuzz_field(&in, &c.qinv, &c.qinv_len);
    }
    st = fm_rsa_key_import_private(&c, &key);
  }
  FUZZ_ASSERT(st == FM_OK || st == FM_ERR_BAD_ARGUMENT || st == FM_ERR_KEY_SIZE ||
              st == FM_ERR_BAD_KEY || st == FM_ERR_NO_MEMORY);
  if (st != FM_OK) {
    FUZZ_ASSERT(key == NULL);
    fuzz_require_operational();
    return 0;
  }
  FUZZ_ASSERT(key != NULL);

  size_t bits = 0, bytes = 0;
  int is_private = 0;
  FUZZ_ASSERT(fm_rsa_key_bits(key, &bits) == FM_OK);
  FUZZ_ASSERT(bits >= FM_RSA_MIN_PRIVATE_BITS && bits <= FM_RSA_MAX_BITS);
  FUZZ_ASSERT(fm_rsa_key_size(key, &bytes) == FM_OK && bytes == (bits + 7) / 8);
  FUZZ_ASSERT(fm_rsa_key_is_private(key, &is_private) == FM_OK && is_private == 1);
  FUZZ_ASSERT(export_matches(key, FM_RSA_N, c.n, c.n_len));
  if (mode != 2) {
    FUZZ_ASSERT(export_matches(key, FM_RSA_P, c.p, c.p_len));
    FUZZ_ASSERT(export_matches(key, FM_RSA_Q, c.q, c.q_len));
  }

  static uint8_t sig[FM_RSA_MAX_BYTES];
  size_t sig_len = 0;
  if (mode == 2) {
    const uint8_t m[] = {2};
    FUZZ_ASSERT(fm_rsa_rsasp1(key, m, sizeof(m), sig, sizeof(sig), &sig_len) == FM_OK);
    FUZZ_ASSERT(sig_len == bytes);
  } else {
    const uint8_t msg[] = "an imported key signs";
    FUZZ_ASSERT(fm_rsa_sign_pkcs1v15(key, FM_HASH_SHA256, msg, sizeof(msg), sig, sizeof(sig),
                                     &sig_len) == FM_OK);
    FUZZ_ASSERT(sig_len == bytes);
    FUZZ_ASSERT(fm_rsa_verify_pkcs1v15(key, FM_HASH_SHA256, msg, sizeof(msg), sig, sig_len) ==
                FM_OK);
  }
  FUZZ_ASSERT(fm_rsa_key_free(key) == FM_OK);
  fuzz_require_operational();
  return 0;
}
