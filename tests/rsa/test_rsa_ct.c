/* Constant-time check of RSA signing, run under valgrind memcheck: every secret of the key (d,
 * p, q, dp, dq, qinv, the Montgomery contexts of p and q) is marked undefined, so any branch or
 * memory index that depends on it is reported ("conditional jump depends on uninitialised
 * value", "use of uninitialised value of size 8"). Signing then runs with PKCS#1 v1.5 and PSS
 * (CRT + blinding + the public-key check, whose one-bit result the module declassifies). The
 * signature is declassified by the module when released and checked here against the known
 * answer, so the test also fails if the marked computation went wrong. Outside valgrind the
 * client requests do nothing and the test is a plain known-answer test. */
#define _GNU_SOURCE
#include <string.h>
#include <valgrind/memcheck.h>

#include "fipsmod/rsa.h"
#include "module/rsa/internal.h"
#include "rsa_test_vectors.h"
#include "tests/common/test_util.h"

static uint8_t g_buf[5][FM_RSA_MAX_BYTES];

static size_t hex_into(const char *h, uint8_t *out) {
  long n = test_hex_decode(h, out, FM_RSA_MAX_BYTES);
  CHECK(n > 0);
  return n > 0 ? (size_t)n : 0;
}

/* mark_key_secret marks every secret of |key| undefined; returns the number of regions. */
static size_t mark_key_secret(const fm_rsa_key *key) {
  const void *ptrs[16];
  size_t lens[16];
  size_t count = rsa_key_secret_regions_for_testing(key, ptrs, lens, 16);
  for (size_t i = 0; i < count; i++) VALGRIND_MAKE_MEM_UNDEFINED(ptrs[i], lens[i]);
  return count;
}

int main(void) {
  /* The RSASP1 COUNT = 0 key (n, e, d, p, q): CRT values derived by the module. */
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
  fm_rsa_key *key = NULL;
  CHECK_EQ_INT(fm_rsa_key_import_private(&c, &key), FM_OK);
  if (key == NULL) return test_main_result("test_rsa_ct");
  CHECK_EQ_INT(mark_key_secret(key), 11);

  /* RSASP1 known answer with the secrets undefined. */
  uint8_t em[FM_RSA_MAX_BYTES], expect[FM_RSA_MAX_BYTES], out[FM_RSA_MAX_BYTES];
  size_t em_len = hex_into(kSp1EM, em), expect_len = hex_into(kSp1S, expect), out_len = 0;
  CHECK_EQ_INT(fm_rsa_rsasp1(key, em, em_len, out, sizeof(out), &out_len), FM_OK);
  CHECK_EQ_INT(out_len, expect_len);
  CHECK_MEM(out, expect, expect_len);

  /* PKCS#1 v1.5 and PSS signing; the verification (public values only) must accept them. */
  const uint8_t msg[] = "constant-time signing under valgrind";
  CHECK_EQ_INT(fm_rsa_sign_pkcs1v15(key, FM_HASH_SHA256, msg, sizeof(msg), out, sizeof(out),
                                    &out_len),
               FM_OK);
  CHECK_EQ_INT(fm_rsa_verify_pkcs1v15(key, FM_HASH_SHA256, msg, sizeof(msg), out, out_len), FM_OK);
  CHECK_EQ_INT(fm_rsa_sign_pss(key, FM_HASH_SHA384, msg, sizeof(msg), 48, out, sizeof(out),
                               &out_len),
               FM_OK);
  CHECK_EQ_INT(fm_rsa_verify_pss(key, FM_HASH_SHA384, msg, sizeof(msg), 48, out, out_len), FM_OK);

  fm_rsa_key_free(key);
  return test_main_result("test_rsa_ct");
}
