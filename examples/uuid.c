/* RFC 9562 UUIDs: a random version 4 and a time-ordered version 7, formatted and parsed back. */
#include <string.h>

#include "example.h"

int main(void) {
  example_require_operational();
  char v4[FM_UUID_STRING_LEN + 1], v7a[FM_UUID_STRING_LEN + 1], v7b[FM_UUID_STRING_LEN + 1];
  TRY(fm_uuid_v4_string(v4));
  TRY(fm_uuid_v7_string(v7a));
  TRY(fm_uuid_v7_string(v7b));
  printf("v4: %s\nv7: %s\nv7: %s\n", v4, v7a, v7b);
  EXPECT(strcmp(v7a, v7b) < 0, "later v7 UUIDs to sort after earlier ones");

  uint8_t bin[FM_UUID_LEN];
  int version = 0;
  TRY(fm_uuid_parse(v4, strlen(v4), bin));
  TRY(fm_uuid_version(bin, &version));
  EXPECT(version == 4, "version 4 back from the parsed string");
  EXPECT(fm_uuid_parse("not-a-uuid", 10, bin) == FM_ERR_PARSE, "FM_ERR_PARSE for a bad string");
  return 0;
}
