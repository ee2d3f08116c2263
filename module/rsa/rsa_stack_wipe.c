/* The RSA unit's stack wipe (module/stack_wipe.h; its size in internal.h). The unit's functions
 * wipe every named intermediate, but the compiler also spills limbs, carries and masks of the
 * exponentiations to frame slots that C cannot name. */
#include "module/rsa/internal.h"

FM_STACK_WIPE_FN(rsa_stack_wipe, RSA_STACK_WIPE)
