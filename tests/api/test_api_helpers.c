/* The public helpers of version.h and util.h: the version check, the constant-time comparison and
 * the cleanse. */
#include <string.h>

#include "fipsmod/fipsmod.h"
#include "tests/common/test_util.h"

static void test_version_macros_match_the_library(void) {
  CHECK_EQ_INT(fm_version_check(FIPSMOD_VERSION_MAJOR, FIPSMOD_VERSION_MINOR, FIPSMOD_VERSION_PATCH),
               FM_OK);
  /* fm_module_version() is "fipsmod " followed by the same version string. */
  CHECK(strcmp(fm_module_version() + strlen("fipsmod "), FIPSMOD_VERSION_STRING) == 0);
}

static void test_version_check_refuses_other_majors_and_newer_minors(void) {
  CHECK_EQ_INT(fm_version_check(FIPSMOD_VERSION_MAJOR + 1, 0, 0), FM_ERR_UNSUPPORTED);
  CHECK_EQ_INT(fm_version_check(FIPSMOD_VERSION_MAJOR, FIPSMOD_VERSION_MINOR + 1, 0),
               FM_ERR_UNSUPPORTED);
  CHECK_EQ_INT(fm_version_check(FIPSMOD_VERSION_MAJOR, FIPSMOD_VERSION_MINOR, 99), FM_OK);
}

static void test_memeq_consttime(void) {
  uint8_t a[64], b[64];
  for (size_t i = 0; i < sizeof a; i++) a[i] = b[i] = (uint8_t)(i * 7);
  CHECK_EQ_INT(fm_memeq_consttime(a, b, sizeof a), FM_OK);
  for (size_t i = 0; i < sizeof a; i++) {
    b[i] ^= 0x80;
    CHECK_EQ_INT(fm_memeq_consttime(a, b, sizeof a), FM_ERR_VERIFY);
    b[i] ^= 0x80;
  }
  CHECK_EQ_INT(fm_memeq_consttime(NULL, NULL, 0), FM_OK);
  CHECK_EQ_INT(fm_memeq_consttime(NULL, b, 1), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_memeq_consttime(a, NULL, 1), FM_ERR_BAD_ARGUMENT);
}

static void test_cleanse(void) {
  uint8_t buf[33];
  memset(buf, 0xa5, sizeof buf);
  CHECK_EQ_INT(fm_cleanse(buf, sizeof buf - 1), FM_OK);
  CHECK(test_is_all_zero(buf, sizeof buf - 1));
  CHECK_EQ_INT(buf[sizeof buf - 1], 0xa5); /* nothing past len */
  CHECK_EQ_INT(fm_cleanse(NULL, 0), FM_OK);
  CHECK_EQ_INT(fm_cleanse(NULL, 1), FM_ERR_BAD_ARGUMENT);
}

static const test_case cases[] = {
  TEST_CASE(version_macros_match_the_library),
  TEST_CASE(version_check_refuses_other_majors_and_newer_minors),
  TEST_CASE(memeq_consttime),
  TEST_CASE(cleanse),
};

int main(int argc, char **argv) {
  return TEST_RUN(argc, argv, "test_api_helpers", cases);
}
