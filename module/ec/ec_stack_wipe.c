/* The EC unit's stack wipes (module/stack_wipe.h; sizes in internal.h). The unit's functions wipe
 * every named intermediate, but the compiler also spills field elements, carries and masks to
 * frame slots that C cannot name: test_ec_residue found them behind ECDH, ECDSA signing,
 * private-key import and key generation, on both paths. */
#include "module/ec/internal.h"
#include "module/stack_wipe.h"

FM_STACK_WIPE_FN(ec_stack_wipe, EC_STACK_WIPE)
FM_STACK_WIPE_FN(ec_stack_wipe_keygen, EC_STACK_WIPE_KEYGEN)
FM_STACK_WIPE_FN(ec_stack_wipe_ifma, EC_STACK_WIPE_IFMA)
