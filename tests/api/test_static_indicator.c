/* The static archive, libfipsmod.a, is not the validated form (it cannot carry the integrity
 * test; policy, section 2): its services work, but none is indicated as approved, and its report
 * says the integrity test does not apply. Linked with libfipsmod.a itself, as a user would. The
 * same calls through libfipsmod.so are approved (test_indicator). */
#include <stdio.h>

#include "fipsmod/fipsmod.h"

static int failures;
#define EXPECT(cond)                                                   \
  do {                                                                 \
    if (!(cond)) {                                                     \
      fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond); \
      failures++;                                                      \
    }                                                                  \
  } while (0)

int main(void) {
  fm_selftest_summary s;
  EXPECT(fm_selftest_get_summary(&s) == FM_OK);
  EXPECT(s.state == FM_STATE_OPERATIONAL);
  EXPECT(s.integrity == FM_SELFTEST_NOT_APPLICABLE);

  uint8_t d[FM_SHA256_DIGEST_LEN];
  fm_indicator ind = FM_INDICATOR_NONE;
  EXPECT(fm_sha256("abc", 3, d) == FM_OK);
  EXPECT(d[0] == 0xba && d[31] == 0xad); /* FIPS 180-4's "abc" example: the service works */
  EXPECT(fm_service_indicator(&ind) == FM_OK);
  EXPECT(ind == FM_INDICATOR_NOT_APPROVED);

  uint8_t r[16];
  EXPECT(fm_rand_bytes(r, sizeof r) == FM_OK);
  EXPECT(fm_service_indicator(&ind) == FM_OK && ind == FM_INDICATOR_NOT_APPROVED);

  printf("%d passed, %d failed\n", failures ? 0 : 1, failures ? 1 : 0);
  return failures ? 1 : 0;
}
