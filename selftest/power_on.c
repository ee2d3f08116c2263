/* Placeholder until the self-test issue (#5) lands: replaced by the power-on runner. */
#include "module/internal.h"

int fm_selftest_power_on(void) { return FM_OK; }

void fm_selftest_record_conditional(const char *name, const char *algorithm, const char *kind,
                                    int status) {
  (void)algorithm;
  (void)kind;
  if (status != FM_OK) fm_module_enter_error(name);
}
