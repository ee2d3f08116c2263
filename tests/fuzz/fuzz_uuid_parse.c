/* libFuzzer target: fm_uuid_parse on any bytes. The input is the string (any length, any bytes).
 * Properties: fm_uuid_parse accepts exactly what uuid.h describes (36 characters, hex digits in
 * either case, hyphens at offsets 8, 13, 18 and 23), checked against a reference written here;
 * on success the bytes format back to the input in lower case; on failure the output is wiped;
 * validating only (out NULL) gives the same status. */
#include <ctype.h>
#include <string.h>

#include "tests/fuzz/fuzz_util.h"

static int reference_accepts(const uint8_t *s, size_t n) {
  if (n != FM_UUID_STRING_LEN) return 0;
  for (size_t i = 0; i < n; i++) {
    int hyphen_here = (i == 8 || i == 13 || i == 18 || i == 23);
    if (hyphen_here ? s[i] != '-' : !isxdigit(s[i])) return 0;
  }
  return 1;
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  fuzz_require_operational();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  uint8_t out[FM_UUID_LEN];
  memset(out, 0xa5, sizeof(out));
  const char *str = size > 0 ? (const char *)data : ""; /* never NULL, also when empty */
  int st = fm_uuid_parse(str, size, out);
  int expect_ok = reference_accepts(data, size);
  FUZZ_ASSERT(st == FM_OK || st == FM_ERR_PARSE);
  FUZZ_ASSERT((st == FM_OK) == expect_ok);
  FUZZ_ASSERT(fm_uuid_parse(str, size, NULL) == st);
  if (st == FM_OK) {
    char back[FM_UUID_STRING_LEN + 1];
    FUZZ_ASSERT(fm_uuid_format(out, back) == FM_OK);
    for (size_t i = 0; i < FM_UUID_STRING_LEN; i++) {
      FUZZ_ASSERT(back[i] == (char)tolower(data[i]));
    }
    FUZZ_ASSERT(back[FM_UUID_STRING_LEN] == '\0');
  } else {
    static const uint8_t zero[FM_UUID_LEN];
    FUZZ_ASSERT(memcmp(out, zero, sizeof(out)) == 0);
  }
  fuzz_require_operational();
  return 0;
}
