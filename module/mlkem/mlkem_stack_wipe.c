/* mlkem_stack_wipe: the stack wipe the ML-KEM services run after computing (internal.h;
 * module/stack_wipe.h). The functions of the unit wipe every named intermediate, but the
 * compiler also spills coefficients, hash states and masks to frame slots that C cannot name. */
#include "module/mlkem/internal.h"
#include "module/stack_wipe.h"

FM_STACK_WIPE_FN(mlkem_stack_wipe, MLKEM_STACK_WIPE)
