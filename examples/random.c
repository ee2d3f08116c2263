/* Random bytes, numbers and dice from the module's per-thread SP 800-90A CTR_DRBG. */
#include "example.h"

int main(void) {
  example_require_operational();
  uint8_t bytes[16];
  TRY(fm_rand_bytes(bytes, sizeof bytes));
  example_print_hex("16 random bytes: ", bytes, sizeof bytes);

  uint64_t word;
  TRY(fm_rand_u64(&word));
  printf("a random u64: %llu\n", (unsigned long long)word);

  /* fm_rand_uniform draws without modulo bias. */
  int seen[6] = {0};
  for (int i = 0; i < 600; i++) {
    uint64_t die;
    TRY(fm_rand_uniform(6, &die));
    EXPECT(die < 6, "a value below the bound");
    seen[die]++;
  }
  printf("600 dice:");
  for (int i = 0; i < 6; i++) {
    printf(" %d", seen[i]);
    EXPECT(seen[i] > 0, "every face in 600 rolls");
  }
  printf("\n");
  return 0;
}
