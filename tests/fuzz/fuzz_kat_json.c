/* libFuzzer target: the KAT runner's JSON reader (ACVP vector sets, Wycheproof files) on fuzzed
 * vector files, seeded with cases cut from tests/vectors (see fuzz_kat.h). */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include "tests/fuzz/fuzz_kat.h"

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  fuzz_kat_init("vectors.json");
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_kat_run(data, size);
  return 0;
}
