// Every public header, included from C++: the declarations must be valid C++11 to C++20 and have C
// linkage. The structure sizes must match C's (the opaque contexts are allocated by callers).
#include <fipsmod/fipsmod.h>

static_assert(alignof(fm_aes_key) == 64, "fm_aes_key keeps its C alignment in C++");
static_assert(alignof(fm_sha_ctx) == 16, "fm_sha_ctx keeps its C alignment in C++");

int main() {
  fm_indicator ind = FM_INDICATOR_NONE;
  return fm_service_indicator(&ind) == FM_OK ? 0 : 1;
}
