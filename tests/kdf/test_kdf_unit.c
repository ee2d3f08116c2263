/* KDF argument handling: the documented statuses for bad hashes, lengths and buffers, which
 * outputs are wiped (only those whose length is valid), the length bounds themselves (HKDF
 * 255 * HashLen, KBKDF 2^r - 1 blocks, PBKDF2 iterations >= 1), and that the counter position
 * of the SP 800-108 KDF matters (before, middle and after give different keys). */
#include <string.h>

#include "fipsmod/kdf.h"
#include "tests/common/test_util.h"

int main(void) {
  uint8_t key[32] = {9}, salt[16] = {1}, info[8] = {2}, out[8200];
  /* HKDF */
  memset(out, 0x5a, sizeof out);
  CHECK_EQ_INT(fm_hkdf(FM_HASH_SHA256, key, 32, salt, 16, info, 8, out, 255 * 32 + 1), FM_ERR_LENGTH);
  CHECK(out[0] == 0x5a); /* an invalid length is never used to wipe */
  CHECK_EQ_INT(fm_hkdf(FM_HASH_SHA256, key, 32, salt, 16, info, 8, out, 255 * 32), FM_OK);
  CHECK_EQ_INT(fm_hkdf(FM_HASH_SHA512, key, 32, salt, 16, info, 8, out, 0), FM_ERR_LENGTH);
  CHECK_EQ_INT(fm_hkdf((fm_hash_alg)99, key, 32, salt, 16, info, 8, out, 16), FM_ERR_UNSUPPORTED);
  CHECK_EQ_INT(fm_hkdf(FM_HASH_SHA256, NULL, 32, salt, 16, info, 8, out, 16), FM_ERR_BAD_ARGUMENT);
  CHECK(test_is_all_zero(out, 16));
  CHECK_EQ_INT(fm_hkdf(FM_HASH_SHA256, key, 32, salt, 16, info, 8, key + 4, 16), FM_ERR_OVERLAP);
  CHECK_EQ_INT(fm_hkdf_extract(FM_HASH_SHA384, salt, 16, key, 32, out, 47), FM_ERR_BUFFER_TOO_SMALL);
  CHECK_EQ_INT(fm_hkdf_extract(FM_HASH_SHA384, salt, 16, key, 32, out, 48), FM_OK);
  CHECK_EQ_INT(fm_hkdf_expand(FM_HASH_SHA384, out, 47, info, 8, out + 100, 10), FM_ERR_LENGTH);
  /* KBKDF */
  CHECK_EQ_INT(fm_kbkdf_ctr_hmac(FM_HASH_SHA256, key, 32, info, 8, 0, 12, out, 16), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_kbkdf_ctr_hmac(FM_HASH_SHA256, key, 32, info, 8, 9, 8, out, 16), FM_ERR_BAD_ARGUMENT);
  memset(out, 0x5a, sizeof out);
  CHECK_EQ_INT(fm_kbkdf_ctr_hmac(FM_HASH_SHA256, key, 32, info, 8, 0, 8, out, 255 * 32 + 1), FM_ERR_LENGTH);
  CHECK(out[0] == 0x5a);
  CHECK_EQ_INT(fm_kbkdf_ctr_hmac(FM_HASH_SHA256, key, 32, info, 8, 0, 8, out, 255 * 32), FM_OK);
  uint8_t a[32], b[32], c[32];
  CHECK_EQ_INT(fm_kbkdf_ctr_hmac(FM_HASH_SHA256, key, 32, info, 8, 0, 32, a, 32), FM_OK);
  CHECK_EQ_INT(fm_kbkdf_ctr_hmac(FM_HASH_SHA256, key, 32, info, 8, 4, 32, b, 32), FM_OK);
  CHECK_EQ_INT(fm_kbkdf_ctr_hmac(FM_HASH_SHA256, key, 32, info, 8, 8, 32, c, 32), FM_OK);
  CHECK(memcmp(a, b, 32) != 0 && memcmp(b, c, 32) != 0 && memcmp(a, c, 32) != 0);
  CHECK_EQ_INT(fm_kbkdf_ctr_hmac(FM_HASH_SHA256, key, 32, NULL, 0, 0, 32, a, 32), FM_OK);
  /* PBKDF2 */
  CHECK_EQ_INT(fm_pbkdf2_hmac(FM_HASH_SHA256, key, 8, salt, 16, 0, out, 32), FM_ERR_BAD_ARGUMENT);
  CHECK(test_is_all_zero(out, 32));
  CHECK_EQ_INT(fm_pbkdf2_hmac(FM_HASH_SHA256, key, 8, salt, 16, 1, out, 0), FM_ERR_LENGTH);
  CHECK_EQ_INT(fm_pbkdf2_hmac(FM_HASH_SHA256, key, 8, salt, 16, 1, salt + 2, 4), FM_ERR_OVERLAP);
  CHECK_EQ_INT(fm_pbkdf2_hmac(FM_HASH_SHA512, NULL, 0, NULL, 0, 2, out, 100), FM_OK);
  return test_main_result("test_kdf_unit");
}
