/* Constant time: every SHA-2, SHA-3, SHAKE and HMAC service on the portable path, run under valgrind memcheck
 * with the message, the key and the tag to verify marked undefined. memcheck reports any branch
 * or memory index that depends on undefined bytes, and the ctest registration makes any report
 * fail the test. The results are also checked against the same calls on defined copies, so the
 * program asserts correct output even where it runs without valgrind. */
#include <string.h>
#include <valgrind/memcheck.h>

#include "fipsmod/hmac.h"
#include "fipsmod/sha.h"
#include "tests/common/test_util.h"

#define N_ALGS 10
static const fm_hash_alg k_algs[N_ALGS] = {
    FM_HASH_SHA256,     FM_HASH_SHA384,   FM_HASH_SHA512,   FM_HASH_SHA224,   FM_HASH_SHA512_224,
    FM_HASH_SHA512_256, FM_HASH_SHA3_224, FM_HASH_SHA3_256, FM_HASH_SHA3_384, FM_HASH_SHA3_512};

/* secret_copy copies |len| bytes into |dst| and marks them undefined ("secret"). */
static void secret_copy(uint8_t *dst, const uint8_t *src, size_t len) {
  memcpy(dst, src, len);
  VALGRIND_MAKE_MEM_UNDEFINED(dst, len);
}

/* public_status declares a status public (the verdict may be branched on). */
static int public_status(int st) {
  VALGRIND_MAKE_MEM_DEFINED(&st, sizeof st);
  return st;
}

int main(void) {
  uint8_t key[200], msg[300], skey[200], smsg[300];
  test_rng rng;
  test_rng_seed_fixed(&rng, 0xc0ffee);
  test_rng_bytes(&rng, key, sizeof key);
  test_rng_bytes(&rng, msg, sizeof msg);
  secret_copy(skey, key, sizeof key);
  secret_copy(smsg, msg, sizeof msg);

  /* Key lengths around the block sizes (64, 128) and SHA3 rates (72 ... 144), message lengths
   * around their boundaries. */
  const size_t key_lens[] = {0, 17, 64, 65, 128, 129, 136, 137, 200};
  const size_t msg_lens[] = {0, 1, 55, 56, 64, 71, 72, 111, 112, 128, 136, 137, 300};
  for (int a = 0; a < N_ALGS; a++) {
    fm_hash_alg alg = k_algs[a];
    size_t dl = 0;
    CHECK_EQ_INT(fm_hash_digest_len(alg, &dl), FM_OK);
    for (size_t m = 0; m < sizeof msg_lens / sizeof msg_lens[0]; m++) {
      size_t n = msg_lens[m];
      uint8_t want[64], got[64];
      CHECK_EQ_INT(fm_sha_digest(alg, msg, n, want, sizeof want), FM_OK);

      CHECK_EQ_INT(public_status(fm_sha_digest(alg, smsg, n, got, sizeof got)), FM_OK);
      VALGRIND_MAKE_MEM_DEFINED(got, sizeof got);
      CHECK_MEM(got, want, dl);

      fm_sha_ctx sc;
      CHECK_EQ_INT(fm_sha_init(&sc, alg), FM_OK);
      CHECK_EQ_INT(public_status(fm_sha_update(&sc, smsg, n / 3)), FM_OK);
      CHECK_EQ_INT(public_status(fm_sha_update(&sc, smsg + n / 3, n - n / 3)), FM_OK);
      CHECK_EQ_INT(public_status(fm_sha_final(&sc, got, sizeof got)), FM_OK);
      VALGRIND_MAKE_MEM_DEFINED(got, sizeof got);
      CHECK_MEM(got, want, dl);

      for (size_t k = 0; k < sizeof key_lens / sizeof key_lens[0]; k++) {
        size_t kl = key_lens[k];
        CHECK_EQ_INT(fm_hmac(alg, key, kl, msg, n, want, sizeof want), FM_OK);

        CHECK_EQ_INT(public_status(fm_hmac(alg, skey, kl, smsg, n, got, sizeof got)), FM_OK);
        VALGRIND_MAKE_MEM_DEFINED(got, sizeof got);
        CHECK_MEM(got, want, dl);

        fm_hmac_ctx hc;
        CHECK_EQ_INT(public_status(fm_hmac_init(&hc, alg, skey, kl)), FM_OK);
        CHECK_EQ_INT(public_status(fm_hmac_update(&hc, smsg, n / 2)), FM_OK);
        CHECK_EQ_INT(public_status(fm_hmac_update(&hc, smsg + n / 2, n - n / 2)), FM_OK);
        CHECK_EQ_INT(public_status(fm_hmac_final(&hc, got, sizeof got)), FM_OK);
        VALGRIND_MAKE_MEM_DEFINED(got, sizeof got);
        CHECK_MEM(got, want, dl);

        /* Verify with a secret tag, right and wrong (last byte flipped). */
        uint8_t stag[64];
        secret_copy(stag, want, dl);
        CHECK_EQ_INT(public_status(fm_hmac_verify(alg, skey, kl, smsg, n, stag, dl)), FM_OK);
        want[dl - 1] ^= 1;
        secret_copy(stag, want, dl);
        CHECK_EQ_INT(public_status(fm_hmac_verify(alg, skey, kl, smsg, n, stag, dl)),
                     FM_ERR_VERIFY);
      }
    }
  }
  /* SHAKE: one-shot and streaming, output past a rate. */
  for (size_t m = 0; m < sizeof msg_lens / sizeof msg_lens[0]; m++) {
    size_t n = msg_lens[m];
    uint8_t want[400], got[400];
    for (int x = 0; x < 2; x++) {
      int (*oneshot)(const void *, size_t, uint8_t *, size_t) = x ? fm_shake256 : fm_shake128;
      CHECK_EQ_INT(oneshot(msg, n, want, sizeof want), FM_OK);
      CHECK_EQ_INT(public_status(oneshot(smsg, n, got, sizeof got)), FM_OK);
      VALGRIND_MAKE_MEM_DEFINED(got, sizeof got);
      CHECK_MEM(got, want, sizeof want);
      fm_shake_ctx xc;
      CHECK_EQ_INT(fm_shake_init(&xc, x ? FM_XOF_SHAKE256 : FM_XOF_SHAKE128), FM_OK);
      CHECK_EQ_INT(public_status(fm_shake_absorb(&xc, smsg, n / 2)), FM_OK);
      CHECK_EQ_INT(public_status(fm_shake_absorb(&xc, smsg + n / 2, n - n / 2)), FM_OK);
      CHECK_EQ_INT(public_status(fm_shake_squeeze(&xc, got, 7)), FM_OK);
      CHECK_EQ_INT(public_status(fm_shake_squeeze(&xc, got + 7, sizeof got - 7)), FM_OK);
      CHECK_EQ_INT(fm_shake_wipe(&xc), FM_OK);
      VALGRIND_MAKE_MEM_DEFINED(got, sizeof got);
      CHECK_MEM(got, want, sizeof want);
    }
  }
  return test_main_result("test_sha_ct");
}
