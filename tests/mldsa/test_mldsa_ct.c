/* Constant-time check of ML-DSA, run under valgrind memcheck against the test-hooks build, where
 * the module declassifies (fm_declassify) exactly what module/mldsa/mldsa.c lists under "What
 * signing reveals": rho, t1 and the keep/reject outcome of each RejBoundedPoly half-byte in key
 * generation; rho of the private key, each iteration's ctilde and its one reject bit, and the
 * released signature in signing. Everything else computed from a secret stays undefined to
 * memcheck, so a branch or memory index on it fails the test.
 *
 * What runs, for ML-DSA-44, -65 and -87:
 *   - KeyGen_internal with the seed xi undefined, alone and with the pairwise consistency test;
 *   - Sign (from mu, hedged: rnd undefined too; and deterministic) with the whole private key
 *     undefined, and mu undefined;
 * The outputs are then made defined and checked: the public key against a run on defined
 * inputs, the signature with Verify, so that the marked computation is also a correct one. */
#include <string.h>
#include <valgrind/memcheck.h>

#include "module/mldsa/internal.h"
#include "tests/common/test_util.h"

static void secret(const void *p, size_t len) { (void)VALGRIND_MAKE_MEM_UNDEFINED(p, len); }
static void public(const void *p, size_t len) { (void)VALGRIND_MAKE_MEM_DEFINED(p, len); }

static void run_level(int level) {
  const mldsa_params *p = mldsa_params_get(level);
  static uint8_t pk[MLDSA_MAX_PUBLIC_KEY_BYTES], sk[MLDSA_MAX_PRIVATE_KEY_BYTES];
  static uint8_t pk_ref[MLDSA_MAX_PUBLIC_KEY_BYTES], sk_ref[MLDSA_MAX_PRIVATE_KEY_BYTES];
  static uint8_t sig[MLDSA_MAX_SIGNATURE_BYTES];
  uint8_t xi[32], mu[64], rnd[32];
  for (size_t i = 0; i < 32; i++) xi[i] = (uint8_t)(level + i);
  mldsa_keygen_internal(p, pk_ref, sk_ref, xi);

  secret(xi, sizeof xi);
  mldsa_keygen_internal(p, pk, sk, xi);
  public(pk, p->pk_len);
  public(sk, p->sk_len);
  CHECK_MEM(pk, pk_ref, p->pk_len);
  CHECK_MEM(sk, sk_ref, p->sk_len);

  /* Key generation with its pairwise consistency test (a signature and its verification on
   * key generation's own A-hat, s1, s2 and t0), xi undefined. */
  static const uint8_t kMsg[] = "ct pairwise test";
  secret(xi, sizeof xi);
  const int pct = mldsa_keygen_pct(p, pk, sk, xi, kMsg, sizeof kMsg - 1);
  public(&pct, sizeof pct);
  public(pk, p->pk_len);
  public(sk, p->sk_len);
  CHECK_EQ_INT(pct, FM_OK);
  CHECK_MEM(pk, pk_ref, p->pk_len);
  CHECK_MEM(sk, sk_ref, p->sk_len);

  for (int hedged = 0; hedged < 2; hedged++) {
    for (size_t i = 0; i < 64; i++) mu[i] = (uint8_t)(3 * i + hedged);
    memset(rnd, hedged ? 0x5c : 0, sizeof rnd);
    secret(sk, p->sk_len);
    secret(mu, sizeof mu);
    secret(rnd, sizeof rnd);
    const int st = mldsa_sign_mu(p, sig, sk, mu, rnd);
    public(&st, sizeof st);
    public(sk, p->sk_len);
    public(mu, sizeof mu);
    public(sig, p->sig_len);
    CHECK_EQ_INT(st, FM_OK);
    CHECK_EQ_INT(mldsa_verify_mu(p, pk, mu, sig), FM_OK);
  }
}

static void test_keygen_and_sign(void) {
  run_level(44);
  run_level(65);
  run_level(87);
}

static const test_case cases[] = {TEST_CASE(keygen_and_sign)};

int main(int argc, char **argv) { return TEST_RUN(argc, argv, "test_mldsa_ct", cases); }
