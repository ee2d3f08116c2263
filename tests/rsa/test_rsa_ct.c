/* Constant-time check of RSA, run under valgrind memcheck against the test-hooks build, where the
 * module declassifies (fm_declassify) exactly the facts it treats as public: each key check's
 * verdict, a Miller-Rabin verdict, a draw's acceptance, the fault check's one bit, a released
 * signature. Every other value computed from a secret stays undefined to memcheck, so any branch
 * or memory index that depends on one is reported ("conditional jump depends on uninitialised
 * value", "use of uninitialised value of size 8") and fails the test.
 *
 * Secret here: every entropy request (fm_entropy_mark_secret_for_testing(1): the DRBG states, so
 * the PSS salts and the Miller-Rabin bases), the private
 * components handed to import, and every secret of the imported key. What runs:
 *   - import from (n, e, d, p, q) with the components undefined: all the validation of
 *     rsa_key_setup_private (sizes, sqrt(2) bound, |p - q|, p * q = n, d bounds, e * d mod p - 1
 *     and q - 1, d < lambda(n), Miller-Rabin of p and q) and the CRT derivation (dp, dq, qinv);
 *   - import from all eight components, undefined (the given CRT values checked instead);
 *   - the consistency-only import from (n, e, d, p, q), undefined, then fm_rsa_key_validate on
 *     the key with its secrets marked;
 *   - RSASP1 (known answer), PKCS#1 v1.5 and PSS signing, with the key's secrets marked;
 *   - with --keygen: 2048-bit key generation (prime search, Miller-Rabin, d, CRT values, the
 *     pairwise test) on secret entropy.
 * Results are compared with known answers after the module (or the test, for exported secrets)
 * has declassified them, so the test also fails if the marked computation went wrong. Outside
 * valgrind the client requests do nothing and the test is a plain known-answer test. */
#define _GNU_SOURCE
#include <string.h>
#include <valgrind/memcheck.h>

#include "fipsmod/rand.h"
#include "fipsmod/rsa.h"
#include "module/rand/internal.h"
#include "module/rsa/internal.h"
#include "rsa_test_vectors.h"
#include "tests/common/test_util.h"

static uint8_t g_buf[8][FM_RSA_MAX_BYTES];

static size_t hex_into(const char *h, uint8_t *out) {
  long n = test_hex_decode(h, out, FM_RSA_MAX_BYTES);
  CHECK(n > 0);
  return n > 0 ? (size_t)n : 0;
}

static void secret(const void *p, size_t len) { (void)VALGRIND_MAKE_MEM_UNDEFINED(p, len); }
static void public(const void *p, size_t len) { (void)VALGRIND_MAKE_MEM_DEFINED(p, len); }

/* mark_key_secret marks every secret of |key| undefined; returns the number of regions. */
static size_t mark_key_secret(const fm_rsa_key *key) {
  const void *ptrs[16];
  size_t lens[16];
  size_t count = rsa_key_secret_regions_for_testing(key, ptrs, lens, 16);
  for (size_t i = 0; i < count; i++) secret(ptrs[i], lens[i]);
  return count;
}

/* The RSASP1 COUNT = 0 key (n, e, d, p, q) with d, p and q undefined. */
static fm_rsa_private_components sp1_components(void) {
  fm_rsa_private_components c = {0};
  c.n_len = hex_into(kSp1N, g_buf[0]);
  c.n = g_buf[0];
  c.e_len = hex_into(kSp1E, g_buf[1]);
  c.e = g_buf[1];
  c.d_len = hex_into(kSp1D, g_buf[2]);
  c.d = g_buf[2];
  c.p_len = hex_into(kSp1P, g_buf[3]);
  c.p = g_buf[3];
  c.q_len = hex_into(kSp1Q, g_buf[4]);
  c.q = g_buf[4];
  secret(c.d, c.d_len);
  secret(c.p, c.p_len);
  secret(c.q, c.q_len);
  return c;
}

/* export_public writes component |which| of |key| into out and declassifies it (the test's own
 * choice: it compares the value). */
static size_t export_public(const fm_rsa_key *key, fm_rsa_component which, uint8_t *out) {
  size_t len = 0;
  CHECK_EQ_INT(fm_rsa_key_export(key, which, out, FM_RSA_MAX_BYTES, &len), FM_OK);
  public(out, len);
  return len;
}

/* Import with secret components, with and without the CRT values. */
static fm_rsa_key *check_import(void) {
  fm_rsa_private_components c = sp1_components();
  fm_rsa_key *key = NULL;
  CHECK_EQ_INT(fm_rsa_key_import_private(&c, &key), FM_OK); /* derives dp, dq, qinv */
  if (key == NULL) return NULL;
  static uint8_t dp[FM_RSA_MAX_BYTES], dq[FM_RSA_MAX_BYTES], qinv[FM_RSA_MAX_BYTES];
  c.dp_len = export_public(key, FM_RSA_DP, dp);
  c.dq_len = export_public(key, FM_RSA_DQ, dq);
  c.qinv_len = export_public(key, FM_RSA_QINV, qinv);
  c.dp = dp;
  c.dq = dq;
  c.qinv = qinv;
  secret(dp, c.dp_len);
  secret(dq, c.dq_len);
  secret(qinv, c.qinv_len);
  secret(c.d, c.d_len);
  secret(c.p, c.p_len);
  secret(c.q, c.q_len);
  fm_rsa_key *again = NULL;
  CHECK_EQ_INT(fm_rsa_key_import_private(&c, &again), FM_OK); /* checks dp, dq, qinv */
  fm_rsa_key_free(again);
  return key;
}

/* The consistency-only import with secret components, then fm_rsa_key_validate (the Miller-Rabin
 * tests of p and q side by side) on the key with every secret marked. */
static void check_consistent_import_and_validate(void) {
  fm_rsa_private_components c = sp1_components();
  fm_rsa_key *key = NULL;
  CHECK_EQ_INT(fm_rsa_key_import_private_consistent(&c, &key), FM_OK);
  if (key == NULL) return;
  CHECK_EQ_INT(mark_key_secret(key), 11);
  CHECK_EQ_INT(fm_rsa_key_validate(key), FM_OK);
  fm_rsa_key_free(key);
}

static void check_signing(fm_rsa_key *key) {
  CHECK_EQ_INT(mark_key_secret(key), 11);
  /* RSASP1 known answer with the secrets undefined. */
  uint8_t em[FM_RSA_MAX_BYTES], expect[FM_RSA_MAX_BYTES], out[FM_RSA_MAX_BYTES];
  size_t em_len = hex_into(kSp1EM, em), expect_len = hex_into(kSp1S, expect), out_len = 0;
  CHECK_EQ_INT(fm_rsa_rsasp1(key, em, em_len, out, sizeof(out), &out_len), FM_OK);
  CHECK_EQ_INT(out_len, expect_len);
  CHECK_MEM(out, expect, expect_len);

  /* PKCS#1 v1.5 and PSS signing, twice (secret salts); the
   * verification (public values only) must accept them. */
  const uint8_t msg[] = "constant-time signing under valgrind";
  for (int i = 0; i < 2; i++) {
    CHECK_EQ_INT(fm_rsa_sign_pkcs1v15(key, FM_HASH_SHA256, msg, sizeof(msg), out, sizeof(out),
                                      &out_len),
                 FM_OK);
    CHECK_EQ_INT(fm_rsa_verify_pkcs1v15(key, FM_HASH_SHA256, msg, sizeof(msg), out, out_len),
                 FM_OK);
    CHECK_EQ_INT(fm_rsa_sign_pss(key, FM_HASH_SHA384, msg, sizeof(msg), 48, out, sizeof(out),
                                 &out_len),
                 FM_OK);
    CHECK_EQ_INT(fm_rsa_verify_pss(key, FM_HASH_SHA384, msg, sizeof(msg), 48, out, out_len),
                 FM_OK);
  }
}

static void check_keygen(void) {
  fm_rsa_key *key = NULL;
  CHECK_EQ_INT(fm_rsa_key_generate(2048, &key), FM_OK);
  if (key == NULL) return;
  const uint8_t msg[] = "generated under valgrind";
  uint8_t sig[FM_RSA_MAX_BYTES];
  size_t sig_len = 0;
  CHECK_EQ_INT(fm_rsa_sign_pkcs1v15(key, FM_HASH_SHA256, msg, sizeof(msg), sig, sizeof(sig),
                                    &sig_len),
               FM_OK);
  CHECK_EQ_INT(fm_rsa_verify_pkcs1v15(key, FM_HASH_SHA256, msg, sizeof(msg), sig, sig_len), FM_OK);
  fm_rsa_key_free(key);
}

int main(int argc, char **argv) {
  /* From here on every entropy request is secret: the DRBG state of this thread, r, r^-1, the
   * salts and the Miller-Rabin bases. */
  fm_entropy_mark_secret_for_testing(1);
  CHECK_EQ_INT(fm_rand_reseed(), FM_OK); /* in case this thread's DRBG was seeded before */
  if (argc > 1 && strcmp(argv[1], "--keygen") == 0) {
    check_keygen();
    return test_main_result("test_rsa_ct --keygen");
  }
  fm_rsa_key *key = check_import();
  if (key != NULL) check_signing(key);
  check_consistent_import_and_validate();
  fm_rsa_key_free(key);
  return test_main_result("test_rsa_ct");
}
