/* What the two verification targets share: the fixed key (fuzz_key.h) as a private key, which
 * makes signatures of fuzzed encoded messages with RSASP1, and as a public key, which verifies;
 * and the input layout:
 *   a mode byte, mode % 3:
 *     0  the field is the signature;
 *     1  the field is an encoded message EM, signed with RSASP1 first, so that the fuzzer reaches
 *        the decoder directly;
 *     2  the field is a list of edits (3 bytes each: a 2-byte offset into EM, modulo its length,
 *        and a byte XORed in there) applied to the valid EM that the target builds for the
 *        message with its own encoder, then signed with RSASP1: every input is a near miss;
 *   a hash byte (an fm_hash_alg value; one that fm_hash_digest_len does not know is passed
 *   through as an unknown hash),
 *   [PSS only: a salt-length byte, 0xff = FM_RSA_PSS_SALT_LEN_ANY],
 *   the field (fuzz_util.h: a 2-byte big-endian length, then the bytes),
 *   and the message: the rest of the input. */
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

/* fuzz_hash maps the hash byte to an algorithm; *ok is 0 for one the module does not know (every
 * hash it offers is known, so a hash added to sha.h is fuzzed without a change here). */
static fm_hash_alg fuzz_hash(uint8_t b, int *ok, size_t *hlen) {
  *hlen = 0;
  *ok = fm_hash_digest_len((fm_hash_alg)b, hlen) == FM_OK;
  return (fm_hash_alg)b;
}

/* fuzz_apply_edits XORs the edits of |f| (mode 2) into em. */
static void fuzz_apply_edits(const uint8_t *f, size_t f_len, uint8_t em[FUZZ_K]) {
  for (size_t i = 0; i + 3 <= f_len; i += 3) {
    em[(((size_t)f[i] << 8) | f[i + 1]) % FUZZ_K] ^= f[i + 2];
  }
}

/* fuzz_sign_em signs em (FUZZ_K bytes) with RSASP1 into sig. Returns 0 when em is not below n. */
static int fuzz_sign_em(const uint8_t *em, size_t em_len, uint8_t sig[FUZZ_K]) {
  size_t len = 0;
  int st = fm_rsa_rsasp1(g_private, em, em_len, sig, FUZZ_K, &len);
  if (st != FM_OK) {
    FUZZ_ASSERT(st == FM_ERR_OUT_OF_RANGE || st == FM_ERR_BAD_ARGUMENT);
    return 0;
  }
  FUZZ_ASSERT(len == FUZZ_K);
  return 1;
}

/* fuzz_em_from_field: mode 1's EM, the field as a number left-padded to FUZZ_K bytes. Returns 0
 * when it is wider. */
static int fuzz_em_from_field(const uint8_t *f, size_t f_len, uint8_t em[FUZZ_K]) {
  while (f_len > 0 && f[0] == 0) {
    f++;
    f_len--;
  }
  if (f_len > FUZZ_K) return 0;
  memset(em, 0, FUZZ_K - f_len);
  memcpy(em + FUZZ_K - f_len, f, f_len);
  return 1;
}

#endif
