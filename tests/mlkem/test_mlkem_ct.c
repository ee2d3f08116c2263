/* Constant-time check of ML-KEM, run under valgrind memcheck against the test-hooks build (on the
 * CPU's fast path and, registered again, with FIPSMOD_CPU=portable). Secret, marked undefined:
 *   - the seed d || z of KeyGen_internal (the module declassifies rho = G(d || k)[0:32], which ek
 *     publishes, and nothing else);
 *   - the message m of Encaps_internal;
 *   - the secret parts of dk in Decaps: dk_pke (s-hat) and z. The embedded ek and H(ek) are the
 *     public key and its hash; the hash check's verdict is declassified by the module. Decaps
 *     runs on a valid ciphertext and on a modified one, so both sides of the implicit rejection
 *     (the comparison of c with c' and the selection of K' or K-bar) run on secrets;
 *   - every entropy request (fm_entropy_mark_secret_for_testing(1)), for fm_mlkem_keygen (with
 *     its pairwise test) and fm_mlkem_encaps.
 * All three parameter sets. A branch or memory index on a secret is a memcheck error and fails
 * the test. Results are compared with unmarked runs, after being marked defined. */
#include <string.h>
#include <valgrind/memcheck.h>

#include "fipsmod/mlkem.h"
#include "module/rand/internal.h"
#include "tests/common/test_util.h"

static void secret(const void *p, size_t len) { (void)VALGRIND_MAKE_MEM_UNDEFINED(p, len); }
static void public(const void *p, size_t len) { (void)VALGRIND_MAKE_MEM_DEFINED(p, len); }

static void run_set(fm_mlkem_param p) {
  size_t ek_n, dk_n, ct_n;
  CHECK(fm_mlkem_sizes(p, &ek_n, &dk_n, &ct_n) == FM_OK);
  static uint8_t ek[FM_MLKEM_MAX_EK_LEN], dk[FM_MLKEM_MAX_DK_LEN], ct[FM_MLKEM_MAX_CT_LEN];
  static uint8_t ek_ref[FM_MLKEM_MAX_EK_LEN], dk_ref[FM_MLKEM_MAX_DK_LEN];
  static uint8_t ct_ref[FM_MLKEM_MAX_CT_LEN];
  uint8_t seed[64], m[32], k[32], k_ref[32];
  for (int i = 0; i < 64; i++) seed[i] = (uint8_t)(i * 7 + p);
  for (int i = 0; i < 32; i++) m[i] = (uint8_t)(i * 13 + 1);

  /* References, with nothing marked. */
  CHECK(fm_mlkem_keygen_from_seed(p, seed, 64, ek_ref, ek_n, dk_ref, dk_n) == FM_OK);
  CHECK(fm_mlkem_encaps_internal(p, ek_ref, ek_n, m, 32, ct_ref, ct_n, k_ref, 32) == FM_OK);

  /* KeyGen_internal on a secret seed. */
  secret(seed, sizeof seed);
  CHECK(fm_mlkem_keygen_from_seed(p, seed, 64, ek, ek_n, dk, dk_n) == FM_OK);
  public(ek, ek_n);
  public(dk, dk_n);
  CHECK_MEM(ek, ek_ref, ek_n);
  CHECK_MEM(dk, dk_ref, dk_n);

  /* Encaps_internal on a secret m. */
  secret(m, sizeof m);
  CHECK(fm_mlkem_encaps_internal(p, ek, ek_n, m, 32, ct, ct_n, k, 32) == FM_OK);
  public(ct, ct_n);
  public(k, 32);
  CHECK_MEM(ct, ct_ref, ct_n);
  CHECK_MEM(k, k_ref, 32);

  /* Decaps with dk_pke and z secret: a valid ciphertext, then a modified one. */
  const size_t pke = dk_n - ek_n - 64;
  for (int modified = 0; modified < 2; modified++) {
    if (modified) ct[ct_n / 2] ^= 4;
    secret(dk, pke);
    secret(dk + dk_n - 32, 32);
    CHECK(fm_mlkem_decaps(p, dk, dk_n, ct, ct_n, k, 32) == FM_OK);
    public(k, 32);
    public(dk, dk_n);
    CHECK(modified ? memcmp(k, k_ref, 32) != 0 : memcmp(k, k_ref, 32) == 0);
  }

  /* The services that draw: the DRBG's output is secret. */
  fm_entropy_mark_secret_for_testing(1);
  CHECK(fm_mlkem_keygen(p, ek, ek_n, dk, dk_n, NULL, 0) == FM_OK);
  public(ek, ek_n);
  CHECK(fm_mlkem_encaps(p, ek, ek_n, ct, ct_n, k, 32) == FM_OK);
  public(ct, ct_n);
  CHECK(fm_mlkem_decaps(p, dk, dk_n, ct, ct_n, k_ref, 32) == FM_OK);
  public(k, 32);
  public(k_ref, 32);
  CHECK_MEM(k, k_ref, 32);
  fm_entropy_mark_secret_for_testing(0);
}

static void test_mlkem512(void) { run_set(FM_MLKEM_512); }
static void test_mlkem768(void) { run_set(FM_MLKEM_768); }
static void test_mlkem1024(void) { run_set(FM_MLKEM_1024); }

static const test_case cases[] = {TEST_CASE(mlkem512), TEST_CASE(mlkem768), TEST_CASE(mlkem1024)};

int main(int argc, char **argv) { return TEST_RUN(argc, argv, "test_mlkem_ct", cases); }
