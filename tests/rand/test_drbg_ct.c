/* Constant-time check of the CTR_DRBG's fused short generate on AES-NI (aes_ni_drbg_generate_small,
 * with the on-the-fly key expansion of drbg_expand.h), run under valgrind memcheck (ctest label
 * ct): Key, V and the provided data are marked undefined, so any branch or memory index that
 * depends on them is reported as a use of an undefined value, and --error-exitcode=1 fails the
 * test. Every length 0..64 runs, with and without provided data. The results are then marked
 * defined and compared with the same generate computed block by block through the module's
 * plain AES (aes_ks_init_encrypt, aes_encrypt_block), which catches a kernel that "passes" by
 * computing nothing. valgrind emulates no VAES, so the 256-bit kernel cannot run here; it shares
 * the expansion's text (drbg_expand.h) with this one. Outside valgrind the client requests do
 * nothing and the comparison still runs. */
#include <string.h>
#include <valgrind/memcheck.h>

#include "module/aes/internal.h"
#include "module/internal.h"
#include "tests/common/test_util.h"

/* reference computes the generate of |len| bytes from (key, v, provided) block by block. */
static void reference(const uint8_t key[32], const uint8_t v[16], const uint8_t *provided,
                      size_t len, uint8_t *out, uint8_t new_key[32], uint8_t new_v[16]) {
  aes_ks ks;
  uint8_t ctr[16], blocks[7 * 16];
  const size_t n = (len + 15) / 16;
  CHECK_EQ_INT(aes_ks_init_encrypt(&ks, key, 32), 1);
  memcpy(ctr, v, 16);
  for (size_t b = 0; b < n + 3; b++) {
    for (int i = 15; i >= 0; i--) {
      if (++ctr[i] != 0) break; /* V + 1 mod 2^128 (test code: public data) */
    }
    aes_encrypt_block(&ks, ctr, blocks + 16 * b);
  }
  memcpy(out, blocks, len);
  for (size_t i = 0; i < 48; i++) blocks[16 * n + i] ^= provided != NULL ? provided[i] : 0;
  memcpy(new_key, blocks + 16 * n, 32);
  memcpy(new_v, blocks + 16 * n + 32, 16);
  aes_ks_wipe(&ks);
}

int main(void) {
  if (!fm_cpu_use(FM_CPU_AESNI)) {
    fprintf(stderr, "no AES-NI in use: the fused kernel is not reachable, nothing to check\n");
    return test_main_result("test_drbg_ct");
  }
  uint8_t key[32], v[16], provided[48], out[64];
  uint8_t ref_out[64], ref_key[32], ref_v[16];
  int runs = 0;
  for (size_t len = 0; len <= 64; len++) {
    for (int p = 0; p <= 1; p++) {
      for (size_t i = 0; i < 32; i++) key[i] = (uint8_t)(7 * len + 13 * i + p);
      for (size_t i = 0; i < 16; i++) v[i] = (uint8_t)(len == 64 ? 0xff : 3 * i + len);
      for (size_t i = 0; i < 48; i++) provided[i] = (uint8_t)(5 * i + len);
      reference(key, v, p ? provided : NULL, len, ref_out, ref_key, ref_v);
      VALGRIND_MAKE_MEM_UNDEFINED(key, sizeof(key));
      VALGRIND_MAKE_MEM_UNDEFINED(v, sizeof(v));
      VALGRIND_MAKE_MEM_UNDEFINED(provided, sizeof(provided));
      aes_ni_drbg_generate_small(v, key, out, len, p ? provided : NULL);
      VALGRIND_MAKE_MEM_DEFINED(out, sizeof(out));
      VALGRIND_MAKE_MEM_DEFINED(key, sizeof(key));
      VALGRIND_MAKE_MEM_DEFINED(v, sizeof(v));
      VALGRIND_MAKE_MEM_DEFINED(provided, sizeof(provided));
      CHECK_MEM(out, ref_out, len);
      CHECK_MEM(key, ref_key, 32);
      CHECK_MEM(v, ref_v, 16);
      runs++;
    }
  }
  fprintf(stderr, "%d generates checked\n", runs);
  CHECK_EQ_INT(runs, 130);
  return test_main_result("test_drbg_ct");
}
