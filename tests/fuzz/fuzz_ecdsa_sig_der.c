/* libFuzzer target: fm_ecdsa_sig_from_der on arbitrary bytes, on the curve the first byte names
 * (P-224, P-256, P-384, P-521). Properties: the status is FM_OK, FM_ERR_PARSE or
 * FM_ERR_OUT_OF_RANGE, and the output is wiped on error; what converts is canonical DER, so
 * fm_ecdsa_sig_to_der gives back exactly the input (the decoder accepts nothing else). */
#include <string.h>

#include "tests/fuzz/fuzz_util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  fuzz_require_operational();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const fm_ec_curve curves[] = {FM_EC_P224, FM_EC_P256, FM_EC_P384, FM_EC_P521};
  fuzz_input in = {data, size};
  const fm_ec_curve curve = curves[fuzz_byte(&in) & 3];
  uint8_t sig[FM_EC_MAX_SIG_BYTES], der[FM_EC_MAX_DER_SIG_BYTES];
  size_t sl = 99, dl = 0;
  memset(sig, 0xa5, sizeof sig);
  int st = fm_ecdsa_sig_from_der(curve, in.p, in.n, sig, sizeof sig, &sl);
  FUZZ_ASSERT(st == FM_OK || st == FM_ERR_PARSE || st == FM_ERR_OUT_OF_RANGE);
  if (st != FM_OK) {
    FUZZ_ASSERT(sl == 0);
    for (size_t i = 0; i < sizeof sig; i++) FUZZ_ASSERT(sig[i] == 0);
  } else {
    FUZZ_ASSERT(sl == 2 * fm_ec_curve_bytes(curve));
    FUZZ_ASSERT(fm_ecdsa_sig_to_der(curve, sig, sl, der, sizeof der, &dl) == FM_OK);
    FUZZ_ASSERT(dl == in.n && memcmp(der, in.p, dl) == 0);
  }
  fuzz_require_operational();
  return 0;
}
