/* libFuzzer target: fm_ec_key_decode on arbitrary bytes (PEM or DER; SEC1, PKCS#8, SPKI).
 * Properties: the status is FM_OK or one of the statuses keyfile.h lists, and *key is NULL on
 * error; a decoded key encodes in every form it has (a public key: FM_ERR_BAD_KEY for the private
 * forms), and each encoding decodes to the same key (the same point, and the same d). DER input
 * is not always one of the key's encodings (the reader also takes compressed points, keys without
 * their public key, short d and repeated parameters, as OpenSSL writes them), so that property
 * is left to the unit tests. */
#include <string.h>

#include "tests/fuzz/fuzz_util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  fuzz_require_operational();
  return 0;
}

static uint8_t g_out[4096];

static void export_key(const fm_ec_key *k, int priv, uint8_t *q, size_t *ql, uint8_t *d, size_t *dl) {
  FUZZ_ASSERT(fm_ec_key_export_public(k, 0, q, FM_EC_MAX_POINT_BYTES, ql) == FM_OK);
  *dl = 0;
  if (priv) FUZZ_ASSERT(fm_ec_key_export_private(k, d, FM_EC_MAX_BYTES, dl) == FM_OK);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fm_ec_key *key = (fm_ec_key *)&size; /* must be overwritten, also on error */
  int st = fm_ec_key_decode(data, size, &key);
  FUZZ_ASSERT(st == FM_OK || st == FM_ERR_PARSE || st == FM_ERR_UNSUPPORTED ||
              st == FM_ERR_BAD_KEY || st == FM_ERR_LENGTH || st == FM_ERR_OUT_OF_RANGE ||
              st == FM_ERR_NO_MEMORY);
  if (st != FM_OK) {
    FUZZ_ASSERT(key == NULL);
    fuzz_require_operational();
    return 0;
  }
  uint8_t d[FM_EC_MAX_BYTES];
  size_t dl = 0;
  const int priv = fm_ec_key_export_private(key, d, sizeof d, &dl) == FM_OK;
  uint8_t q1[FM_EC_MAX_POINT_BYTES], d1[FM_EC_MAX_BYTES], q2[FM_EC_MAX_POINT_BYTES],
      d2[FM_EC_MAX_BYTES];
  size_t q1l, d1l, q2l, d2l;
  export_key(key, priv, q1, &q1l, d1, &d1l);
  static const fm_key_format formats[] = {FM_KEY_SEC1_PRIVATE, FM_KEY_PKCS8_PRIVATE,
                                          FM_KEY_SPKI_PUBLIC};
  for (size_t f = 0; f < 3; f++) {
    for (int enc = FM_KEY_DER; enc <= FM_KEY_PEM; enc++) {
      size_t len = 0;
      int est = fm_ec_key_encode(key, formats[f], (fm_key_encoding)enc, g_out, sizeof g_out, &len);
      if (formats[f] != FM_KEY_SPKI_PUBLIC && !priv) {
        FUZZ_ASSERT(est == FM_ERR_BAD_KEY);
        continue;
      }
      FUZZ_ASSERT(est == FM_OK);
      fm_ec_key *back = NULL;
      FUZZ_ASSERT(fm_ec_key_decode(g_out, len, &back) == FM_OK);
      const int back_priv = formats[f] != FM_KEY_SPKI_PUBLIC;
      export_key(back, back_priv, q2, &q2l, d2, &d2l);
      FUZZ_ASSERT(q1l == q2l && memcmp(q1, q2, q1l) == 0);
      if (back_priv) FUZZ_ASSERT(d1l == d2l && memcmp(d1, d2, d1l) == 0);
      FUZZ_ASSERT(fm_ec_key_free(back) == FM_OK);
    }
  }
  (void)fm_cleanse(g_out, sizeof g_out);
  (void)fm_cleanse(d, sizeof d);
  (void)fm_cleanse(d1, sizeof d1);
  (void)fm_cleanse(d2, sizeof d2);
  FUZZ_ASSERT(fm_ec_key_free(key) == FM_OK);
  fuzz_require_operational();
  return 0;
}
