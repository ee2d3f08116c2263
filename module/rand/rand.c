/* Placeholder until the RNG issue (#3) lands: replaced by the process RNG. */
#include "module/internal.h"

void fm_rand_module_cleanup(void) {}
