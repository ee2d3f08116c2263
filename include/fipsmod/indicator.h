/** @file
 * fipsmod service indicator (FIPS 140-3 IG 2.4.C).
 *
 * Every service records, for the calling thread, whether the call it just made was an approved
 * service. A caller asks right after the call:
 *
 *   int st = fm_hmac(FM_HASH_SHA256, key, key_len, msg, msg_len, tag, sizeof tag);
 *   fm_indicator ind;
 *   fm_service_indicator(&ind);   // FM_INDICATOR_APPROVED, or FM_INDICATOR_NOT_APPROVED
 *
 * A call is APPROVED when it returned FM_OK as an approved service with approved parameters (as
 * in BoringSSL and AWS-LC, a signature or tag that does not verify counts as not approved). It
 * is NOT_APPROVED when it returned an error or when its parameters are outside the
 * approved set (an HMAC key under 112 bits, RSA-1024 verification, a key imported for component
 * testing, a caller-chosen IV for encryption, ...). policy/security-policy.md lists, per
 * function, what makes a call approved. Functions that give information only (fm_strerror,
 * fm_module_state, the self-test report, fm_service_indicator itself) leave the indicator as it
 * was. Before a thread's first service the indicator is FM_INDICATOR_NONE.
 *
 * Only libfipsmod.so is the validated form. libfipsmod.a, the same code for static linking,
 * cannot carry the integrity test: every service through it is indicated NOT_APPROVED. */
#ifndef FIPSMOD_INDICATOR_H
#define FIPSMOD_INDICATOR_H

#include "fipsmod/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  FM_INDICATOR_NONE = 0,         /**< this thread has called no service yet */
  FM_INDICATOR_APPROVED = 1,     /**< the last service was approved */
  FM_INDICATOR_NOT_APPROVED = 2, /**< the last service was refused or is not approved */
} fm_indicator;

/** fm_service_indicator writes the calling thread's indicator to |out|. Returns FM_OK, or
 * FM_ERR_BAD_ARGUMENT when out is NULL. Works in every module state. Thread-safe (per thread). */
FM_MUST_CHECK
FM_API int fm_service_indicator(fm_indicator *out);

/** fm_service_indicator_name returns "none", "approved" or "not approved" (never fails). */
FM_API const char *fm_service_indicator_name(fm_indicator ind);

#ifdef __cplusplus
}
#endif

#endif
