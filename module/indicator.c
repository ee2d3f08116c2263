/* The service indicator (FIPS 140-3 IG 2.4.C): one byte per thread.
 *
 * The byte is written by the gate every service opens with (fm_service_gate: approved so far),
 * by every refusal (fm_refuse: not approved, nothing was delivered) and by the places where a
 * service runs with parameters outside the approved set (fm_indicator_not_approved). Only its own
 * thread reads or writes it, so it needs no atomics. initial-exec TLS, so that the store on the
 * services' fast paths is one instruction, not a call to __tls_get_addr. */
#include "fipsmod/indicator.h"
#include "module/internal.h"

__thread uint8_t fm_tl_indicator __attribute__((tls_model("initial-exec"))) = FM_INDICATOR_NONE;

/* Written once at power-on (fm_indicator_set_form), before any service runs; read by every gate.
 * In .bss: no value comes from the file. */
FM_INTERNAL uint8_t fm_g_indicator_approved;

void fm_indicator_set_form(bool integrity_applies) {
#if defined(FIPSMOD_TEST_HOOKS)
  (void)integrity_applies;
  fm_g_indicator_approved = FM_INDICATOR_APPROVED;
#else
  fm_g_indicator_approved = integrity_applies ? FM_INDICATOR_APPROVED : FM_INDICATOR_NOT_APPROVED;
#endif
}

int fm_service_indicator(fm_indicator *out) {
  if (out == NULL) return FM_ERR_BAD_ARGUMENT;
  *out = (fm_indicator)fm_tl_indicator;
  return FM_OK;
}

const char *fm_service_indicator_name(fm_indicator ind) {
  switch (ind) {
    case FM_INDICATOR_NONE: return "none";
    case FM_INDICATOR_APPROVED: return "approved";
    case FM_INDICATOR_NOT_APPROVED: return "not approved";
  }
  return "unknown";
}
