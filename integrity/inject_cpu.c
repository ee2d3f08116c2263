/* The CPU path word of the SHA-2 core, for the injector alone (the module's is in module/cpu.c,
 * set by its CPU detection). Zero: the injector hashes with the portable compression functions,
 * which give the same MAC as any other path, and needs none of the module's CPU detection.
 * Likewise the vector-register wipe that the HMAC code ends with: the injector's HMAC key is the
 * public integrity key, so there is nothing to clear. */
#include "module/internal.h"

uint32_t fm_g_cpu_in_use = 0;

void fm_wipe_vector_registers(void) {}
