/* Constant time: HKDF, PBKDF2 and KBKDF under valgrind memcheck with the secret inputs (IKM,
 * password, key-derivation key) marked undefined, on the portable path and on the fast paths
 * memcheck can run. memcheck reports any branch or memory index that depends on them (and the
 * ctest registration fails the test on a report). PBKDF2 runs its iterations on the direct
 * two-compression path (hmac_ctx_iterate) for every hash; the outputs are also compared with the
 * same calls on defined copies, so the program asserts correct output without valgrind too. */
#include <string.h>
#include <valgrind/memcheck.h>

#include "fipsmod/kdf.h"
#include "tests/common/test_util.h"

static const fm_hash_alg k_algs[3] = {FM_HASH_SHA256, FM_HASH_SHA384, FM_HASH_SHA512};

static void secret_copy(uint8_t *dst, const uint8_t *src, size_t len) {
  memcpy(dst, src, len);
  VALGRIND_MAKE_MEM_UNDEFINED(dst, len);
}

/* public_status declares a status public (the verdict may be branched on). */
static int public_status(int st) {
  VALGRIND_MAKE_MEM_DEFINED(&st, sizeof st);
  return st;
}

/* check_equal declassifies |secret_out| (a released output is public) and compares. */
static void check_equal(uint8_t *secret_out, const uint8_t *want, size_t len) {
  VALGRIND_MAKE_MEM_DEFINED(secret_out, len);
  CHECK_MEM(secret_out, want, len);
}

int main(void) {
  uint8_t key[100], skey[100], salt[40], info[30], fixed[40];
  uint8_t out[150], sout[150];
  test_rng rng;
  test_rng_seed_fixed(&rng, 0x6b6466);
  test_rng_bytes(&rng, key, sizeof key);
  test_rng_bytes(&rng, salt, sizeof salt);
  test_rng_bytes(&rng, info, sizeof info);
  test_rng_bytes(&rng, fixed, sizeof fixed);
  secret_copy(skey, key, sizeof key);
  const size_t key_lens[] = {14, 64, 65, 100};
  for (int a = 0; a < 3; a++) {
    const fm_hash_alg alg = k_algs[a];
    for (size_t k = 0; k < sizeof key_lens / sizeof key_lens[0]; k++) {
      const size_t kl = key_lens[k];
      /* PBKDF2: 1, 2 and 1500 iterations (one direct slice and a part of the next), two
       * output blocks. */
      const uint64_t iters[] = {1, 2, 1500};
      for (size_t i = 0; i < 3; i++) {
        CHECK_EQ_INT(fm_pbkdf2_hmac(alg, key, kl, salt, 16, iters[i], out, 100), FM_OK);
        CHECK_EQ_INT(public_status(fm_pbkdf2_hmac(alg, skey, kl, salt, 16, iters[i], sout, 100)),
                     FM_OK);
        check_equal(sout, out, 100);
      }
      CHECK_EQ_INT(fm_hkdf(alg, key, kl, salt, sizeof salt, info, sizeof info, out, 150), FM_OK);
      CHECK_EQ_INT(
          public_status(fm_hkdf(alg, skey, kl, salt, sizeof salt, info, sizeof info, sout, 150)),
          FM_OK);
      check_equal(sout, out, 150);
      CHECK_EQ_INT(fm_kbkdf_ctr_hmac(alg, key, kl, fixed, sizeof fixed, 0, 32, out, 100), FM_OK);
      CHECK_EQ_INT(public_status(fm_kbkdf_ctr_hmac(alg, skey, kl, fixed, sizeof fixed, 0, 32, sout, 100)),
                   FM_OK);
      check_equal(sout, out, 100);
    }
  }
  return test_main_result("test_kdf_ct");
}
