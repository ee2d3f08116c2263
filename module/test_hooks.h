/* Test-only entry points. They exist only in the internal test library (FIPSMOD_TEST_HOOKS),
 * never in libfipsmod.so or libfipsmod.a. */
#ifndef FIPSMOD_MODULE_TEST_HOOKS_H
#define FIPSMOD_MODULE_TEST_HOOKS_H

#include "fipsmod/module.h"

#if defined(FIPSMOD_TEST_HOOKS)
/* fm_module_force_error_for_testing moves the module to ERROR as a failed self-test would. */
void fm_module_force_error_for_testing(void);
#endif

#endif
