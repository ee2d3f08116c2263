/* The known-answer self-tests (CASTs, FIPS 140-3 IG 10.3.A) of RSA-2048 RSASSA-PKCS1-v1_5 with
 * SHA-256, signing and verification, run before the first use of RSA. The key, messages and
 * signatures (rsa_kat_vectors.h) come from gen_rsa_kat.py: a fixed public test key
 * (rsa_kat_key.pem) and signatures made by pyca/cryptography. */
#include <string.h>

#include "fipsmod/rsa.h"
#include "module/internal.h"
#include "module/rsa/internal.h"
#include "module/rsa/rsa_kat_vectors.h"

/* CALL turns a failed call into the test's failure status (the call's own status, so the
 * report says why, e.g. FM_ERR_NOT_OPERATIONAL or FM_ERR_KEY_SIZE) and jumps to the wipe. */
#define CALL(expr)              \
  do {                          \
    int call_st_ = (expr);      \
    if (call_st_ != FM_OK) {    \
      st = call_st_;            \
      goto done;                \
    }                           \
  } while (0)

/* V(x) passes a vector and its length. */
#define V(x) x, sizeof x

/* run_rsa_sign: RSASSA-PKCS1-v1_5 with SHA-256 is deterministic, so the signature itself is the
 * known answer (FIPS 140-3 IG 10.3.A: a signature KAT). The components are filled in by code, so
 * their addresses never sit in data. */
static int run_rsa_sign(void) {
  fm_rsa_private_components c;
  c.n = kat_rsa2048_n;
  c.n_len = sizeof kat_rsa2048_n;
  c.e = kat_rsa2048_e;
  c.e_len = sizeof kat_rsa2048_e;
  c.d = kat_rsa2048_d;
  c.d_len = sizeof kat_rsa2048_d;
  c.p = kat_rsa2048_p;
  c.p_len = sizeof kat_rsa2048_p;
  c.q = kat_rsa2048_q;
  c.q_len = sizeof kat_rsa2048_q;
  c.dp = kat_rsa2048_dp;
  c.dp_len = sizeof kat_rsa2048_dp;
  c.dq = kat_rsa2048_dq;
  c.dq_len = sizeof kat_rsa2048_dq;
  c.qinv = kat_rsa2048_qinv;
  c.qinv_len = sizeof kat_rsa2048_qinv;
  fm_rsa_key *key = NULL;
  uint8_t sig[256];
  size_t sig_len = 0;
  int st = FM_OK;
  CALL(rsa_key_import_selftest_private(&c, &key)); /* module/rsa/internal.h: no MR on a constant */
  CALL(fm_rsa_sign_pkcs1v15(key, FM_HASH_SHA256, V(kat_rsa2048_sign_msg), sig, sizeof sig,
                            &sig_len));
  st = sig_len == sizeof sig ? fm_selftest_expect(sig, kat_rsa2048_sign_sig, sizeof sig)
                             : FM_ERR_SELFTEST;
done:
  fm_rsa_key_free(key);
  fm_zeroize(sig, sizeof sig);
  fm_zeroize(&c, sizeof c);
  return st;
}

/* run_rsa_verify: a known-good signature on a different message must verify with the public
 * key, and the same signature must be rejected for the signing test's message. */
static int run_rsa_verify(void) {
  fm_rsa_key *key = NULL;
  uint8_t sig[256];
  int st = FM_OK, wrong;
  fm_selftest_expected_copy(sig, kat_rsa2048_verify_sig, sizeof sig);
  CALL(fm_rsa_key_import_public(V(kat_rsa2048_n), V(kat_rsa2048_e), &key));
  CALL(fm_rsa_verify_pkcs1v15(key, FM_HASH_SHA256, V(kat_rsa2048_verify_msg), sig, sizeof sig));
  wrong = fm_rsa_verify_pkcs1v15(key, FM_HASH_SHA256, V(kat_rsa2048_sign_msg), sig, sizeof sig);
  /* Accepting it is a wrong answer; any other refusal (the module switched off meanwhile) is
   * that call's status. */
  if (wrong != FM_ERR_VERIFY) st = wrong == FM_OK ? FM_ERR_SELFTEST : wrong;
done:
  fm_rsa_key_free(key);
  fm_zeroize(sig, sizeof sig);
  return st;
}

int rsa_cast(fm_selftest_id id) {
  switch (id) {
    case FM_ST_RSA_VERIFY_KAT: return run_rsa_verify();
    case FM_ST_RSA_SIGN_KAT: return run_rsa_sign();
    default: return FM_ERR_INTERNAL;
  }
}
