/* What the two verification targets share: the fixed key (fuzz_key.h) as a private key, which
 * makes signatures of fuzzed encoded messages with RSASP1, and as a public key, which verifies;
 * and the input layout. Input: a mode byte (bit 0: 0 = the field is the signature, 1 = the field
 * is an encoded message EM that is first signed with RSASP1, so the fuzzer reaches the decoder
 * directly), a hash byte (1, 2, 3: SHA-256/384/512; any other value is passed through as an
 * unknown hash), [PSS only: a salt-length byte, 0xff = FM_RSA_PSS_SALT_LEN_ANY], field(signature
 * or EM), and the message: the rest of the input. */
#ifndef FIPSMOD_TESTS_FUZZ_VERIFY_H
#define FIPSMOD_TESTS_FUZZ_VERIFY_H

#include <string.h>

#include "tests/fuzz/fuzz_key.h"
#include "tests/fuzz/fuzz_util.h"

#define FUZZ_K 256 /* the key's byte length; emBits = 2047 */

static fm_rsa_key *g_private, *g_public;

static void fuzz_verify_init(void) {
  static uint8_t n[256], e[3], d[256], p[128], q[128], dp[128], dq[128], qinv[128];
  fm_rsa_private_components c = {
      .n = n, .n_len = fuzz_hex(kFuzzN, n, sizeof(n)),
      .e = e, .e_len = fuzz_hex(kFuzzE, e, sizeof(e)),
      .d = d, .d_len = fuzz_hex(kFuzzD, d, sizeof(d)),
      .p = p, .p_len = fuzz_hex(kFuzzP, p, sizeof(p)),
      .q = q, .q_len = fuzz_hex(kFuzzQ, q, sizeof(q)),
      .dp = dp, .dp_len = fuzz_hex(kFuzzDp, dp, sizeof(dp)),
      .dq = dq, .dq_len = fuzz_hex(kFuzzDq, dq, sizeof(dq)),
      .qinv = qinv, .qinv_len = fuzz_hex(kFuzzQinv, qinv, sizeof(qinv))};
  fuzz_require_operational();
  FUZZ_ASSERT(fm_rsa_key_import_private(&c, &g_private) == FM_OK);
  FUZZ_ASSERT(fm_rsa_key_import_public(c.n, c.n_len, c.e, c.e_len, &g_public) == FM_OK);
}

/* fuzz_hash maps the hash byte to an algorithm; *ok is 0 for an unknown one. */
static fm_hash_alg fuzz_hash(uint8_t b, int *ok, size_t *hlen) {
  *ok = (b >= 1 && b <= 3);
  *hlen = b == 1 ? 32 : b == 2 ? 48 : 64;
  return (fm_hash_alg)b;
}

/* fuzz_make_signature: in signature mode the field itself; in EM mode RSASP1 of the field into
 * sig (the EM, as a number below n, left-padded to FUZZ_K bytes, goes to em). Returns 0 when the
 * EM is not below n (nothing to verify). */
static int fuzz_make_signature(int em_mode, const uint8_t *f, size_t f_len, uint8_t *sig,
                               const uint8_t **s, size_t *s_len, uint8_t em[FUZZ_K]) {
  if (!em_mode) {
    *s = f;
    *s_len = f_len;
    return 1;
  }
  size_t len = 0;
  int st = fm_rsa_rsasp1(g_private, f, f_len, sig, FUZZ_K, &len);
  if (st != FM_OK) {
    FUZZ_ASSERT(st == FM_ERR_OUT_OF_RANGE || st == FM_ERR_BAD_ARGUMENT);
    return 0;
  }
  FUZZ_ASSERT(len == FUZZ_K);
  while (f_len > 0 && f[0] == 0) {
    f++;
    f_len--;
  }
  FUZZ_ASSERT(f_len <= FUZZ_K);
  memset(em, 0, FUZZ_K - f_len);
  memcpy(em + FUZZ_K - f_len, f, f_len);
  *s = sig;
  *s_len = len;
  return 1;
}

#endif
