/* Compiled, never run, by expect_unused_result.cmake. Without FM_DROP it uses every status (and
 * ignores one on purpose with the documented (void)! idiom) and must compile cleanly; with FM_DROP
 * it drops the status of fm_rsa_verify_pss, the mistake FM_MUST_CHECK exists to catch, and must
 * be rejected under -Werror=unused-result. The same file is compiled as C and as C++. */
#include <fipsmod/fipsmod.h>

int check_signature(const fm_rsa_key *key, const uint8_t *msg, size_t len, const uint8_t *sig,
                    size_t sig_len);

int check_signature(const fm_rsa_key *key, const uint8_t *msg, size_t len, const uint8_t *sig,
                    size_t sig_len) {
#ifdef FM_DROP
  fm_rsa_verify_pss(key, FM_HASH_SHA256, msg, len, 32, sig, sig_len);
  return 0;
#else
  (void)!fm_selftest_run();
  return fm_rsa_verify_pss(key, FM_HASH_SHA256, msg, len, 32, sig, sig_len) == FM_OK ? 0 : 1;
#endif
}
