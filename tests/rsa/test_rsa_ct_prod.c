/* Constant-time check of RSA signing in the production library: this program links
 * libfipsmod.so itself (not the test-hooks build, whose fm_declassify tells memcheck what the
 * module treats as public and could so hide a branch), and runs under valgrind memcheck.
 *
 * What is secret: the message. It is marked undefined with VALGRIND_MAKE_MEM_UNDEFINED before
 * each signature, so everything computed from it is undefined to memcheck: the SHA-2 digest,
 * the EMSA-PKCS1-v1_5 and EMSA-PSS encodings (MGF1 over a secret H), both CRT exponentiations
 * (secret base, the encoded message itself: there is no blinding; in the MULX or portable
 * kernels, valgrind offering no AVX-512), the recombination and the signature itself. The key is
 * not secret to memcheck here (a program cannot reach inside the opaque key; the test-hooks ct
 * test, test_rsa_ct, marks it), so this covers the message path only.
 *
 * What memcheck may report: exactly the public branches the module documents on that path, and
 * in the production build nothing declassifies them. There is one: the fault check after the
 * exponentiation (rsa_private_op: "does the result verify with the public key", a fact about a
 * fault, not about the message), listed in rsa_ct_prod.supp. Any other report fails the test.
 * ctest runs the program twice: with the suppression file (must pass) and without it (must
 * fail: test_rsa_ct_prod_sees_fault_check), which shows that memcheck does follow the message
 * into the production code down to that branch.
 *
 * The signatures are declassified by the program (released values are public) and checked: the
 * two PKCS#1 v1.5 signatures of the same message must be equal, and every signature must verify. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <valgrind/memcheck.h>

#include "fipsmod/module.h"
#include "fipsmod/rsa.h"
#include "rsa_test_vectors.h"
#include "tests/common/test_util.h"

static uint8_t g_buf[5][FM_RSA_MAX_BYTES];

static size_t hex_into(const char *h, uint8_t *out) {
  long n = test_hex_decode(h, out, FM_RSA_MAX_BYTES);
  CHECK(n > 0);
  return n > 0 ? (size_t)n : 0;
}

int main(void) {
  fprintf(stderr, "module %s, paths %s, under valgrind: %s\n",
          fm_module_state_name(fm_module_state()), fm_module_cpu_paths(),
          RUNNING_ON_VALGRIND ? "yes" : "no");
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
  if (key == NULL) return test_main_result("test_rsa_ct_prod");

  /* PKCS#1 v1.5 is deterministic: the secret message signed twice must give the same signature,
   * and it must verify. */
  uint8_t msg[64], sig[FM_RSA_MAX_BYTES], sig2[FM_RSA_MAX_BYTES];
  size_t sig_len = 0, sig2_len = 0;
  for (size_t i = 0; i < sizeof(msg); i++) msg[i] = (uint8_t)(i * 7 + 1);
  for (int round = 0; round < 2; round++) {
    VALGRIND_MAKE_MEM_UNDEFINED(msg, sizeof(msg));
    uint8_t *out = round ? sig2 : sig;
    size_t *out_len = round ? &sig2_len : &sig_len;
    CHECK_EQ_INT(fm_rsa_sign_pkcs1v15(key, FM_HASH_SHA256, msg, sizeof(msg), out, sizeof(sig),
                                      out_len),
                 FM_OK);
  }
  VALGRIND_MAKE_MEM_DEFINED(msg, sizeof(msg));
  VALGRIND_MAKE_MEM_DEFINED(sig, sizeof(sig));
  VALGRIND_MAKE_MEM_DEFINED(sig2, sizeof(sig2));
  CHECK_EQ_INT(sig_len, 256);
  CHECK_EQ_INT(sig2_len, 256);
  CHECK_MEM(sig, sig2, 256);
  CHECK_EQ_INT(fm_rsa_verify_pkcs1v15(key, FM_HASH_SHA256, msg, sizeof(msg), sig, sig_len), FM_OK);

  /* PSS with SHA-384 and a 48-byte salt over the secret message. */
  VALGRIND_MAKE_MEM_UNDEFINED(msg, sizeof(msg));
  CHECK_EQ_INT(fm_rsa_sign_pss(key, FM_HASH_SHA384, msg, sizeof(msg), 48, sig, sizeof(sig),
                               &sig_len),
               FM_OK);
  VALGRIND_MAKE_MEM_DEFINED(msg, sizeof(msg));
  VALGRIND_MAKE_MEM_DEFINED(sig, sizeof(sig));
  CHECK_EQ_INT(fm_rsa_verify_pss(key, FM_HASH_SHA384, msg, sizeof(msg), 48, sig, sig_len), FM_OK);
  fm_rsa_key_free(key);
  return test_main_result("test_rsa_ct_prod");
}
