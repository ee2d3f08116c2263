/* What the files of module/kdf/ share with the rest of the module. */
#ifndef FIPSMOD_MODULE_KDF_INTERNAL_H
#define FIPSMOD_MODULE_KDF_INTERNAL_H

#include "module/internal.h"

/* kdf_cast runs this unit's CAST |id| (kdf_cast.c: FM_ST_HKDF_SHA256_KAT,
 * FM_ST_KBKDF_HMAC_SHA256_KAT, FM_ST_PBKDF2_HMAC_SHA256_KAT) through the public services;
 * selftest/ calls it. FM_OK, FM_ERR_SELFTEST for a wrong answer, the failing call's status, or
 * FM_ERR_INTERNAL for an id that is not this unit's. */
int kdf_cast(fm_selftest_id id);

#endif
