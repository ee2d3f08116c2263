/* Constant-time check of the portable AES path, run under valgrind memcheck (ctest label ct,
 * FIPSMOD_CPU=portable): the key, the IV/counter and the plaintext are marked undefined, so any
 * branch or memory index that depends on them is reported by memcheck as a use of an undefined
 * value, and --error-exitcode=1 fails the test. Results are marked defined again before they
 * are compared with a second computation on defined inputs (which catches a program that
 * "passes" by computing nothing). Run outside valgrind, the client requests do nothing. */
#include <string.h>
#include <valgrind/memcheck.h>

#include "fipsmod/aes.h"
#include "module/aes/internal.h"
#include "module/internal.h"
#include "tests/common/test_util.h"

enum { LEN = 16 * 11 }; /* 11 blocks: two 4-block groups and a 3-block tail */

/* run_all computes every mode's output for (key, iv, pt) into |out| (6 * LEN bytes). */
static void run_all(const uint8_t *key, size_t klen, const uint8_t iv[16], const uint8_t *pt,
                    uint8_t *out) {
  fm_aes_key k;
  uint8_t chain[16];
  CHECK_EQ_INT(fm_aes_key_init(&k, key, klen), FM_OK);
  CHECK_EQ_INT(fm_aes_ecb_encrypt(&k, pt, out, LEN), FM_OK);
  CHECK_EQ_INT(fm_aes_ecb_decrypt(&k, pt, out + LEN, LEN), FM_OK);
  memcpy(chain, iv, 16);
  CHECK_EQ_INT(fm_aes_cbc_encrypt(&k, chain, pt, out + 2 * LEN, LEN), FM_OK);
  memcpy(chain, iv, 16);
  CHECK_EQ_INT(fm_aes_cbc_decrypt(&k, chain, pt, out + 3 * LEN, LEN), FM_OK);
  memcpy(chain, iv, 16);
  CHECK_EQ_INT(fm_aes_ctr(&k, FM_AES_CTR128, chain, pt, out + 4 * LEN, LEN - 5), FM_OK);
  /* CTR32 from a counter with room for the message (the 0xff bytes that exercise the CTR128
   * carry can leave too few blocks before 0xffffffff): its top bit cleared. */
  memcpy(chain, iv, 16);
  chain[12] &= 0x7f;
  CHECK_EQ_INT(fm_aes_ctr(&k, FM_AES_CTR32, chain, pt, out + 5 * LEN, LEN), FM_OK);
  CHECK_EQ_INT(fm_aes_key_wipe(&k), FM_OK);

  /* The module-internal entry points the DRBG uses. */
  aes_ks ks;
  uint8_t block[16];
  CHECK_EQ_INT(aes_ks_init_encrypt(&ks, key, klen), 1);
  aes_encrypt_block(&ks, pt, block);
  for (int i = 0; i < 16; i++) out[6 * LEN + i] = block[i];
  memcpy(chain, iv, 16);
  aes_ctr128_blocks(&ks, chain, NULL, out + 6 * LEN + 16, 3);
  aes_ks_wipe(&ks);
}

int main(void) {
  if (fm_cpu_use(FM_CPU_AESNI)) {
    fprintf(stderr, "test_aes_ct: the module runs AES-NI; set FIPSMOD_CPU=portable\n");
    return 1;
  }
  static uint8_t key[32], iv[16], pt[LEN], secret_out[7 * LEN], public_out[7 * LEN];
  test_rng r;
  test_rng_seed(&r, "test_aes_ct");
  for (size_t klen = 16; klen <= 32; klen += 8) {
    test_rng_bytes(&r, key, sizeof key);
    test_rng_bytes(&r, iv, sizeof iv);
    test_rng_bytes(&r, pt, sizeof pt);
    memset(iv + 8, 0xff, 7); /* the CTR128 carry is exercised too */

    run_all(key, klen, iv, pt, public_out);

    VALGRIND_MAKE_MEM_UNDEFINED(key, sizeof key);
    VALGRIND_MAKE_MEM_UNDEFINED(iv, sizeof iv);
    VALGRIND_MAKE_MEM_UNDEFINED(pt, sizeof pt);
    run_all(key, klen, iv, pt, secret_out);
    VALGRIND_MAKE_MEM_DEFINED(secret_out, sizeof secret_out);
    VALGRIND_MAKE_MEM_DEFINED(key, sizeof key);
    VALGRIND_MAKE_MEM_DEFINED(iv, sizeof iv);
    VALGRIND_MAKE_MEM_DEFINED(pt, sizeof pt);

    CHECK_MEM(secret_out, public_out, sizeof public_out);
    CHECK(!test_is_all_zero(public_out, sizeof public_out));
  }
  return test_main_result("test_aes_ct");
}
