/* Constant-time check of the portable GCM path (bitsliced AES and the portable GHASH), run
 * under valgrind memcheck (ctest label ct, FIPSMOD_CPU=portable): the key, the IV, the AAD, the
 * plaintext and the tag are marked undefined, so any branch or memory index that depends on
 * them is reported as a use of an undefined value and --error-exitcode=1 fails the test. The
 * one result that is public by design, whether the tag matched, goes through fm_declassify in
 * the module. Results are marked defined again and compared with a run on defined inputs (a
 * program that computed nothing would not match). Outside valgrind the requests do nothing. */
#include <string.h>
#include <valgrind/memcheck.h>

#include "fipsmod/gcm.h"
#include "module/aes/internal.h"
#include "module/internal.h"
#include "tests/common/test_util.h"

enum { LEN = 16 * 9 + 7, ALEN = 16 * 2 + 5, OUT = 4 * LEN + 4 * 16 };

/* run_all seals and opens (one-shot and streaming, 96-bit and 20-byte IVs, a counter-IV key)
 * and writes every output to |out| (OUT bytes). */
static void run_all(const uint8_t *key, size_t klen, const uint8_t *iv, const uint8_t *aad,
                    const uint8_t *pt, uint8_t *out) {
  fm_gcm_key k;
  fm_gcm_ctx c;
  uint8_t *o = out;
  CHECK_EQ_INT(fm_gcm_key_init(&k, key, klen), FM_OK);
  CHECK_EQ_INT(fm_gcm_seal_with_iv(&k, iv, 12, aad, ALEN, pt, LEN, o, o + LEN, 16), FM_OK);
  CHECK_EQ_INT(fm_gcm_open(&k, iv, 12, aad, ALEN, o, LEN, o + LEN, 16, o + LEN + 16), FM_OK);
  o += 2 * LEN + 16;
  CHECK_EQ_INT(fm_gcm_seal_with_iv(&k, iv, 20, aad, ALEN, pt, LEN, o, o + LEN, 16), FM_OK);
  o += LEN + 16;
  /* Streaming, with splits inside blocks. */
  CHECK_EQ_INT(fm_gcm_encrypt_init_with_iv(&c, &k, iv, 12), FM_OK);
  CHECK_EQ_INT(fm_gcm_aad(&c, aad, 5), FM_OK);
  CHECK_EQ_INT(fm_gcm_aad(&c, aad + 5, ALEN - 5), FM_OK);
  CHECK_EQ_INT(fm_gcm_update(&c, pt, o, 3), FM_OK);
  CHECK_EQ_INT(fm_gcm_update(&c, pt + 3, o + 3, LEN - 3), FM_OK);
  CHECK_EQ_INT(fm_gcm_encrypt_final(&c, o + LEN, 16), FM_OK);
  CHECK_EQ_INT(fm_gcm_key_wipe(&k), FM_OK);
  /* A counter-IV key: the generated IV is public, the rest secret. Each key instance starts its
   * invocation field at a value from the DRBG, so the IV (and the ciphertext) differ from run to
   * run: what is kept for the comparison is the plaintext recovered under the generated IV. */
  static const uint8_t fixed[4] = {1, 2, 3, 4};
  uint8_t civ[12], cct[16], ctag[16];
  CHECK_EQ_INT(fm_gcm_key_init_counter_iv(&k, key, klen, fixed), FM_OK);
  CHECK_EQ_INT(fm_gcm_seal(&k, civ, aad, ALEN, pt, 16, cct, ctag, 16), FM_OK);
  CHECK_EQ_INT(fm_gcm_open(&k, civ, 12, aad, ALEN, cct, 16, ctag, 16, out + OUT - 32), FM_OK);
  CHECK_EQ_INT(fm_gcm_key_wipe(&k), FM_OK);
}

int main(void) {
  if (fm_cpu_use(FM_CPU_AESNI) || fm_cpu_use(FM_CPU_PCLMULQDQ)) {
    fprintf(stderr, "test_gcm_ct: the module runs a fast path; set FIPSMOD_CPU=portable\n");
    return 1;
  }
  static uint8_t key[32], iv[20], aad[ALEN], pt[LEN], secret_out[OUT], public_out[OUT];
  test_rng r;
  test_rng_seed(&r, "test_gcm_ct");
  for (size_t klen = 16; klen <= 32; klen += 8) {
    test_rng_bytes(&r, key, sizeof key);
    test_rng_bytes(&r, iv, sizeof iv);
    test_rng_bytes(&r, aad, sizeof aad);
    test_rng_bytes(&r, pt, sizeof pt);
    memset(public_out, 0, sizeof public_out);
    memset(secret_out, 0, sizeof secret_out);
    run_all(key, klen, iv, aad, pt, public_out);

    VALGRIND_MAKE_MEM_UNDEFINED(key, sizeof key);
    VALGRIND_MAKE_MEM_UNDEFINED(iv, sizeof iv);
    VALGRIND_MAKE_MEM_UNDEFINED(aad, sizeof aad);
    VALGRIND_MAKE_MEM_UNDEFINED(pt, sizeof pt);
    run_all(key, klen, iv, aad, pt, secret_out);
    VALGRIND_MAKE_MEM_DEFINED(secret_out, sizeof secret_out);
    VALGRIND_MAKE_MEM_DEFINED(key, sizeof key);
    VALGRIND_MAKE_MEM_DEFINED(iv, sizeof iv);
    VALGRIND_MAKE_MEM_DEFINED(aad, sizeof aad);
    VALGRIND_MAKE_MEM_DEFINED(pt, sizeof pt);

    CHECK_MEM(secret_out, public_out, sizeof public_out);
    CHECK(!test_is_all_zero(public_out, sizeof public_out));
  }
  return test_main_result("test_gcm_ct");
}
