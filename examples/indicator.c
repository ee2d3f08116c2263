/* The service indicator: after each call, the calling thread can ask whether that call was an
 * approved service. A refused call (here, a bad argument) is never approved. */
#include "example.h"

static fm_indicator last(void) {
  fm_indicator ind = FM_INDICATOR_NONE;
  TRY(fm_service_indicator(&ind));
  return ind;
}

int main(void) {
  example_require_operational();
  uint8_t digest[FM_SHA256_DIGEST_LEN];
  TRY(fm_sha256("abc", 3, digest));
  printf("SHA-256: %s\n", fm_service_indicator_name(last()));
  EXPECT(last() == FM_INDICATOR_APPROVED, "SHA-256 to be approved");

  EXPECT(fm_sha256(NULL, 3, digest) == FM_ERR_BAD_ARGUMENT, "a NULL message to be refused");
  printf("refused call: %s\n", fm_service_indicator_name(last()));
  EXPECT(last() == FM_INDICATOR_NOT_APPROVED, "a refused call to be not approved");
  return 0;
}
