/* Constant-time checks of the RNG under valgrind memcheck (ctest label ct).
 * Secret bytes are marked undefined, so any branch or memory index that depends on them is a
 * "use of uninitialised value" and --error-exitcode=1 fails the test. Outputs handed to the
 * caller are marked defined here, at the API boundary, before the test looks at them.
 *
 *   test_rand_ct drbg     The explicit CTR_DRBG with and without the derivation function:
 *                         instantiate (10.2.1.3.2 df), reseed (10.2.1.4.2 df), generate with and
 *                         without additional input and prediction resistance, over lengths that
 *                         take the fused short kernel and the general path. Entropy input is
 *                         secret; each run is repeated with public inputs and must give the same
 *                         bytes (a kernel that computes nothing would not). Run also with
 *                         FIPSMOD_CPU=portable (the portable AES under the DRBG).
 *   test_rand_ct process  The process RNG with the entropy source's output marked secret
 *                         (fm_entropy_mark_secret_for_testing, after the health tests), so every
 *                         thread's DRBG state is secret: fm_rand_bytes of many lengths (first
 *                         draw, reseeds, batch refills), fm_rand_bytes_with_input, fm_rand_u32,
 *                         fm_rand_u64, fm_rand_uniform (its rejection test is a declassified
 *                         public comparison), UUIDs v4 and v7 in both forms.
 * Outside valgrind the client requests do nothing and the functional checks still run. */
#include <string.h>
#include <valgrind/memcheck.h>

#include "fipsmod/fipsmod.h"
#include "module/internal.h"
#include "module/rand/internal.h"
#include "tests/common/test_util.h"

static void public(const void *p, size_t len) { (void)VALGRIND_MAKE_MEM_DEFINED(p, len); }
static void secret(const void *p, size_t len) { (void)VALGRIND_MAKE_MEM_UNDEFINED(p, len); }

/* drbg_run drives one explicit DRBG through instantiate, generates, reseed and more generates,
 * writing every output to |out| (declassified). |secret_inputs| marks the entropy secret. */
static size_t drbg_run(unsigned flags, int secret_inputs, uint8_t *out, size_t cap) {
  uint8_t entropy[64], nonce[16], pers[24], ai[40], pr_entropy[48];
  for (size_t i = 0; i < sizeof(entropy); i++) entropy[i] = (uint8_t)(31 * i + flags + 7);
  for (size_t i = 0; i < sizeof(nonce); i++) nonce[i] = (uint8_t)(5 * i + 1);
  for (size_t i = 0; i < sizeof(pers); i++) pers[i] = (uint8_t)(3 * i + 2);
  for (size_t i = 0; i < sizeof(ai); i++) ai[i] = (uint8_t)(11 * i + 9);
  for (size_t i = 0; i < sizeof(pr_entropy); i++) pr_entropy[i] = (uint8_t)(13 * i + 4);
  const size_t elen = (flags & FM_DRBG_USE_DF) ? 40 : 48;
  if (secret_inputs) {
    secret(entropy, sizeof(entropy));
    secret(pr_entropy, sizeof(pr_entropy));
  }
  fm_ctr_drbg d;
  size_t used = 0;
  CHECK_EQ_INT(fm_ctr_drbg_instantiate(&d, flags, entropy, elen,
                                       (flags & FM_DRBG_USE_DF) ? nonce : NULL,
                                       (flags & FM_DRBG_USE_DF) ? sizeof(nonce) : 0, pers,
                                       sizeof(pers)),
               FM_OK);
  static const size_t lens[] = {1, 16, 33, 64, 65, 100, 256, 1000};
  for (size_t k = 0; k < sizeof(lens) / sizeof(lens[0]); k++) {
    for (int with_ai = 0; with_ai <= 1; with_ai++) {
      size_t n = lens[k];
      if (used + n > cap) break;
      int pr = (flags & FM_DRBG_PREDICTION_RESISTANCE) && k % 2 == 1;
      CHECK_EQ_INT(fm_ctr_drbg_generate(&d, out + used, n, pr ? pr_entropy : NULL,
                                        pr ? elen : 0, with_ai ? ai : NULL,
                                        with_ai ? ((flags & FM_DRBG_USE_DF) ? sizeof(ai) : 30) : 0),
                   FM_OK);
      public(out + used, n); /* released to the caller */
      used += n;
    }
    if (k == 3) {
      CHECK_EQ_INT(fm_ctr_drbg_reseed(&d, entropy, elen, ai, 17),
                   FM_OK);
    }
  }
  CHECK_EQ_INT(fm_ctr_drbg_uninstantiate(&d), FM_OK);
  return used;
}

static void test_drbg(void) {
  static uint8_t a[8192], b[8192];
  const unsigned variants[] = {0, FM_DRBG_USE_DF, FM_DRBG_PREDICTION_RESISTANCE,
                               FM_DRBG_USE_DF | FM_DRBG_PREDICTION_RESISTANCE};
  for (size_t v = 0; v < 4; v++) {
    size_t na = drbg_run(variants[v], 1, a, sizeof(a));
    size_t nb = drbg_run(variants[v], 0, b, sizeof(b));
    CHECK_EQ_INT(na, nb);
    CHECK(na > 0 && memcmp(a, b, na) == 0);
  }
}

/* distinct_words returns 1 when the |n| words differ from one another (a broken RNG would repeat
 * them; 2^-50-ish false alarms are not a concern for a few hundred 64-bit words). */
static int distinct_words(const uint64_t *w, size_t n) {
  for (size_t i = 0; i < n; i++) {
    for (size_t j = i + 1; j < n; j++) {
      if (w[i] == w[j]) return 0;
    }
  }
  return 1;
}

static void test_process(void) {
  fm_entropy_mark_secret_for_testing(1);
  CHECK_EQ_INT(fm_rand_reseed(), FM_OK); /* the thread's state is now from secret entropy */
  static uint8_t buf[70000];
  static const size_t lens[] = {1, 7, 16, 32, 48, 64, 65, 200, 4096, 65537};
  for (size_t k = 0; k < sizeof(lens) / sizeof(lens[0]); k++) {
    CHECK_EQ_INT(fm_rand_bytes(buf, lens[k]), FM_OK);
    public(buf, lens[k]);
  }
  uint8_t ai[20] = {1, 2, 3};
  CHECK_EQ_INT(fm_rand_bytes_with_input(buf, 100, ai, sizeof(ai)), FM_OK);
  public(buf, 100);
  /* Word draws over more than one batch, and a reseed in between. */
  static uint64_t words[1200];
  for (size_t i = 0; i < 1200; i++) {
    if (i == 600) CHECK_EQ_INT(fm_rand_reseed(), FM_OK);
    if (i % 2) {
      CHECK_EQ_INT(fm_rand_u64(&words[i]), FM_OK);
    } else {
      uint32_t x;
      CHECK_EQ_INT(fm_rand_u32(&x), FM_OK);
      words[i] = x;
    }
    public(&words[i], sizeof(words[i]));
  }
  CHECK(distinct_words(words + 1, 300));
  static const uint64_t bounds[] = {1, 2, 3, 10, 1000, (UINT64_C(1) << 63) + 1, UINT64_MAX};
  for (size_t k = 0; k < sizeof(bounds) / sizeof(bounds[0]); k++) {
    for (int r = 0; r < 20; r++) {
      uint64_t v;
      CHECK_EQ_INT(fm_rand_uniform(bounds[k], &v), FM_OK);
      public(&v, sizeof(v));
      CHECK(v < bounds[k]);
    }
  }
  for (int r = 0; r < 300; r++) {
    uint8_t u4[FM_UUID_LEN], u7[FM_UUID_LEN];
    char s4[FM_UUID_STRING_LEN + 1], s7[FM_UUID_STRING_LEN + 1];
    CHECK_EQ_INT(fm_uuid_v4(u4), FM_OK);
    CHECK_EQ_INT(fm_uuid_v7(u7), FM_OK);
    CHECK_EQ_INT(fm_uuid_v4_string(s4), FM_OK);
    CHECK_EQ_INT(fm_uuid_v7_string(s7), FM_OK);
    public(u4, sizeof(u4));
    public(u7, sizeof(u7));
    public(s4, sizeof(s4));
    public(s7, sizeof(s7));
    CHECK(u4[6] >> 4 == 4 && u7[6] >> 4 == 7 && s4[14] == '4' && s7[14] == '7');
    CHECK(strlen(s4) == FM_UUID_STRING_LEN && strlen(s7) == FM_UUID_STRING_LEN);
  }
  fm_entropy_mark_secret_for_testing(0);
}

int main(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "drbg") == 0) {
    test_drbg();
  } else if (argc == 2 && strcmp(argv[1], "process") == 0) {
    test_process();
  } else {
    fprintf(stderr, "usage: %s drbg|process\n", argv[0]);
    return 2;
  }
  fprintf(stderr, "running on valgrind: %s\n", RUNNING_ON_VALGRIND ? "yes" : "no");
  return test_main_result("test_rand_ct");
}
