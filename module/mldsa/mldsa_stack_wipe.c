/* The ML-DSA unit's stack wipe (module/stack_wipe.h; its size in internal.h). The unit's
 * functions wipe every named intermediate, but the compiler also spills coefficients, hash
 * states and masks to frame slots that C cannot name. */
#include "module/mldsa/internal.h"

FM_STACK_WIPE_FN(mldsa_stack_wipe, MLDSA_STACK_WIPE)
FM_STACK_WIPE_FN(mldsa_stack_wipe_keygen, MLDSA_STACK_WIPE_KEYGEN)
