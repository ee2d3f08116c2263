/* The version check and the public zeroization and comparison helpers (fipsmod/version.h,
 * fipsmod/util.h). None is a cryptographic service: each works in every state. */
#include "fipsmod/util.h"
#include "fipsmod/version.h"
#include "module/internal.h"

int fm_version_check(int major, int minor, int patch) {
  (void)patch; /* a patch release changes no interface */
  if (major != FIPSMOD_VERSION_MAJOR || minor < 0 || minor > FIPSMOD_VERSION_MINOR)
    return FM_ERR_UNSUPPORTED;
  return FM_OK;
}

int fm_memeq_consttime(const void *a, const void *b, size_t len) {
  if (len == 0) return FM_OK;
  if (a == NULL || b == NULL) return FM_ERR_BAD_ARGUMENT;
  return fm_ct_memeq(a, b, len) ? FM_OK : FM_ERR_VERIFY;
}

int fm_cleanse(void *p, size_t len) {
  if (len == 0) return FM_OK;
  if (p == NULL) return FM_ERR_BAD_ARGUMENT;
  fm_zeroize(p, len);
  return FM_OK;
}
