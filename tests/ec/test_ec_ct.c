/* Constant-time check of the EC code, run under valgrind memcheck against the test-hooks build,
 * where the module declassifies (fm_declassify) exactly what it treats as public: whether a
 * private scalar is in range, whether a random candidate was rejected, whether a product is the
 * point at infinity, the public key Q = dG once computed, and a released signature. Every other
 * value computed from a secret stays undefined to memcheck, so a branch or memory index that
 * depends on one fails the test.
 *
 * Secret here: every entropy request (fm_entropy_mark_secret_for_testing(1): the DRBG states, so
 * each k and each generated d), and the private scalars handed to import. What runs, on every
 * curve: private-key import (d's range check, Q = dG), signing with random k, signing with a
 * given secret k (compared with the CAVP answer on P-256), key generation with its pairwise test,
 * ECDH (compared with the CAVP Z on P-256), and deterministic signing (RFC 6979 nonces) with d and
 * the digest secret. The P-256 known answers, P-256 and P-384's generate-sign-ECDH round and
 * P-521's field run a second time with the ADX assembly turned on (valgrind's CPUID hides ADX,
 * though it runs the instructions). Outside valgrind the client requests do nothing and the test
 * is a plain known-answer test. */
#include <stdio.h>
#include <string.h>
#include <valgrind/memcheck.h>

#include "fipsmod/ec.h"
#include "module/ec/ec_kat_vectors.h"
#include "module/ec/ec_p521.h"
#include "module/ec/internal.h"
#include "module/rand/internal.h"
#include "tests/common/test_util.h"

static void secret(const void *p, size_t len) { (void)VALGRIND_MAKE_MEM_UNDEFINED(p, len); }
static void public(const void *p, size_t len) { (void)VALGRIND_MAKE_MEM_DEFINED(p, len); }

static const fm_ec_curve k_curves[] = {FM_EC_P224, FM_EC_P256, FM_EC_P384, FM_EC_P521};

static int host_has_adx(void);

/* Known answers on P-256 with d, k and the ECDH scalar undefined. */
static void known_answers_p256(void) {
  uint8_t d[32], k[32], sig[64], z[32];
  size_t z_len = 0;
  memcpy(d, kat_ecdsa_p256_d, sizeof d);
  memcpy(k, kat_ecdsa_p256_k, sizeof k);
  secret(d, sizeof d);
  secret(k, sizeof k);
  fm_ec_key *key = NULL;
  CHECK_EQ_INT(fm_ec_key_import_private(FM_EC_P256, d, sizeof d, kat_ecdsa_p256_q,
                                        sizeof kat_ecdsa_p256_q, &key),
               FM_OK);
  if (key != NULL) {
    CHECK_EQ_INT(fm_ecdsa_sign_digest_with_k_for_testing(key, kat_ecdsa_p256_digest,
                                                         sizeof kat_ecdsa_p256_digest, k,
                                                         sizeof k, sig, sizeof sig),
                 FM_OK);
    CHECK_MEM(sig, kat_ecdsa_p256_sig, sizeof sig);
  }
  fm_ec_key_free(key);
  key = NULL;
  memcpy(d, kat_ecdh_p256_d, sizeof d);
  secret(d, sizeof d);
  CHECK_EQ_INT(fm_ec_key_import_private(FM_EC_P256, d, sizeof d, NULL, 0, &key), FM_OK);
  CHECK_EQ_INT(fm_ecdh(key, kat_ecdh_p256_peer, sizeof kat_ecdh_p256_peer, z, sizeof z, &z_len),
               FM_OK);
  public(z, sizeof z); /* the test's own choice: it compares Z */
  CHECK_MEM(z, kat_ecdh_p256_z, sizeof z);
  fm_ec_key_free(key);
}

/* The P-256 known answers, then, where the CPU has BMI2 and ADX and the module uses BMI2 (not
 * FIPSMOD_CPU=portable), again with the module's ADX paths turned on: the assembly products and
 * the assembly doubling and mixed addition (ec_p256_jac_adx.c) of the scalar multiplications. */
static void test_known_answers_with_secret_scalars(void) {
  const uint32_t saved = fm_g_cpu_in_use;
  const int passes = FM_HAVE_X86_64_PATHS && (saved & FM_CPU_BMI2) && host_has_adx() ? 2 : 1;
  for (int pass = 0; pass < passes; pass++) {
    if (pass == 1) fm_g_cpu_in_use = saved | FM_CPU_BMI2 | FM_CPU_ADX;
    known_answers_p256();
  }
  fm_g_cpu_in_use = saved;
  if (passes == 1) printf("test_ec_ct.known_answers_with_secret_scalars: no ADX pass here\n");
}

/* Every curve: generate (secret entropy), sign, import the exported d as a secret, ECDH. Where
 * the CPU has BMI2 and ADX and the module uses BMI2, P-256, P-384 and P-521 run again with the
 * ADX paths turned on (P-256's and P-384's assembly doubling and mixed addition, P-521's assembly
 * product and square). */
static void every_curve(int adx_pass);
static void test_every_curve(void) {
  const uint32_t saved = fm_g_cpu_in_use;
  every_curve(0);
  if (FM_HAVE_X86_64_PATHS && (saved & FM_CPU_BMI2) && host_has_adx()) {
    fm_g_cpu_in_use = saved | FM_CPU_BMI2 | FM_CPU_ADX;
    every_curve(1);
    fm_g_cpu_in_use = saved;
  }
}
static void every_curve(int adx_pass) {
  for (size_t i = 0; i < sizeof k_curves / sizeof k_curves[0]; i++) {
    if (adx_pass && k_curves[i] == FM_EC_P224) continue;
    fm_ec_key *a = NULL, *b = NULL;
    CHECK_EQ_INT(fm_ec_key_generate(k_curves[i], &a), FM_OK);
    if (a == NULL) continue;
    uint8_t sig[FM_EC_MAX_SIG_BYTES], d[FM_EC_MAX_BYTES], pt[FM_EC_MAX_POINT_BYTES];
    uint8_t z1[FM_EC_MAX_BYTES], z2[FM_EC_MAX_BYTES];
    size_t sl = 0, dl = 0, pl = 0, zl = 0;
    const uint8_t msg[] = "message";
    CHECK_EQ_INT(fm_ecdsa_sign(a, FM_HASH_SHA384, msg, sizeof msg, sig, sizeof sig, &sl), FM_OK);
    CHECK_EQ_INT(fm_ecdsa_verify(a, FM_HASH_SHA384, msg, sizeof msg, sig, sl), FM_OK);
    CHECK_EQ_INT(fm_ec_key_export_private(a, d, sizeof d, &dl), FM_OK);
    CHECK_EQ_INT(fm_ec_key_export_public(a, 0, pt, sizeof pt, &pl), FM_OK);
    secret(d, dl);
    CHECK_EQ_INT(fm_ec_key_import_private(k_curves[i], d, dl, pt, pl, &b), FM_OK);
    CHECK_EQ_INT(fm_ecdh(a, pt, pl, z1, sizeof z1, &zl), FM_OK);
    CHECK_EQ_INT(fm_ecdh(b, pt, pl, z2, sizeof z2, &zl), FM_OK);
    public(z1, zl);
    public(z2, zl);
    CHECK_MEM(z1, z2, zl);
    fm_ec_key_free(a);
    fm_ec_key_free(b);
  }
}

/* Deterministic ECDSA on every curve with d and the digest undefined: the HMAC_DRBG nonce
 * derivation, the candidate checks and the signing core must not branch on them. The signature
 * is compared with the one the same call makes on public inputs. */
static void test_deterministic_signing(void) {
  static const fm_hash_alg hashes[] = {FM_HASH_SHA256, FM_HASH_SHA3_384, FM_HASH_SHA512};
  for (size_t i = 0; i < sizeof k_curves / sizeof k_curves[0]; i++) {
    fm_ec_key *a = NULL, *b = NULL;
    CHECK_EQ_INT(fm_ec_key_generate(k_curves[i], &a), FM_OK);
    if (a == NULL) continue;
    uint8_t d[FM_EC_MAX_BYTES], s1[FM_EC_MAX_SIG_BYTES], s2[FM_EC_MAX_SIG_BYTES];
    uint8_t digest[64];
    size_t dl = 0, l1 = 0, l2 = 0;
    CHECK_EQ_INT(fm_ec_key_export_private(a, d, sizeof d, &dl), FM_OK);
    secret(d, dl);
    CHECK_EQ_INT(fm_ec_key_import_private(k_curves[i], d, dl, NULL, 0, &b), FM_OK);
    for (size_t h = 0; b != NULL && h < sizeof hashes / sizeof hashes[0]; h++) {
      size_t hl = 0;
      CHECK_EQ_INT(fm_hash_digest_len(hashes[h], &hl), FM_OK);
      memset(digest, (int)(0x31 + h), sizeof digest);
      secret(digest, hl);
      CHECK_EQ_INT(fm_ecdsa_sign_deterministic_digest(b, hashes[h], digest, hl, s1, sizeof s1, &l1),
                   FM_OK);
      public(digest, hl);
      CHECK_EQ_INT(fm_ecdsa_sign_deterministic_digest(a, hashes[h], digest, hl, s2, sizeof s2, &l2),
                   FM_OK);
      CHECK(l1 == l2);
      CHECK_MEM(s1, s2, l1);
      const uint8_t msg[] = "message";
      CHECK_EQ_INT(fm_ecdsa_sign_deterministic(b, hashes[h], msg, sizeof msg, s1, sizeof s1, &l1),
                   FM_OK);
      CHECK_EQ_INT(fm_ecdsa_verify(a, hashes[h], msg, sizeof msg, s1, l1), FM_OK);
    }
    fm_ec_key_free(a);
    fm_ec_key_free(b);
  }
}

/* host_has_adx says whether the kernel lists BMI2 and ADX for this CPU. Valgrind's CPUID hides
 * ADX, so under valgrind the module does not choose its ADX paths, though valgrind runs the
 * instructions; the kernel's list is the machine's own. */
static int host_has_adx(void) {
  FILE *f = fopen("/proc/cpuinfo", "r");
  char line[8192];
  int found = 0;
  if (f == NULL) return 0;
  while (!found && fgets(line, sizeof line, f) != NULL)
    if (strncmp(line, "flags", 5) == 0)
      found = strstr(line, " adx") != NULL && strstr(line, " bmi2") != NULL;
  fclose(f);
  return found;
}

/* P-521's field product, square and fixed-base row selection (module/ec/ec_p521.c) on undefined
 * inputs, the edge values among them (0, p - 1, and products that reduce to p, which the final
 * mask turns into 0), and every digit of the selection undefined. Where the CPU has BMI2 and
 * ADX and the module uses BMI2 (not FIPSMOD_CPU=portable), the product and square run a second
 * time with the module's ADX paths turned on. */
static void test_p521_field(void) {
  const ec_curve *c = ec_curve_get(FM_EC_P521);
  uint64_t v[4][EC_MAX_LIMBS] = {{0}}, r[EC_MAX_LIMBS], x[EC_MAX_LIMBS], y[EC_MAX_LIMBS];
  memcpy(v[1], c->p.m, sizeof v[1]);
  v[1][0] -= 1; /* p - 1 */
  memcpy(v[2], c->gx, sizeof v[2]);
  memcpy(v[3], c->p.one, sizeof v[3]);
  const uint32_t saved = fm_g_cpu_in_use;
  const int passes = FM_HAVE_X86_64_PATHS && (saved & FM_CPU_BMI2) && host_has_adx() ? 2 : 1;
  for (int pass = 0; pass < passes; pass++) {
    if (pass == 1) fm_g_cpu_in_use = saved | FM_CPU_BMI2 | FM_CPU_ADX;
    for (unsigned i = 0; i < 4; i++)
      for (unsigned j = 0; j < 4; j++) {
        uint64_t a[EC_MAX_LIMBS], b[EC_MAX_LIMBS];
        memcpy(a, v[i], sizeof a);
        memcpy(b, v[j], sizeof b);
        secret(a, sizeof a);
        secret(b, sizeof b);
        ec_p521_mul(r, a, b);
        ec_p521_sqr(a, a);
        public(r, sizeof r);
        public(a, sizeof a);
        uint64_t want[EC_MAX_LIMBS];
        const ec_mod m = c->p; /* a copy: the generic product */
        ec_mod_mul(c, &m, want, v[i], v[j]);
        CHECK_MEM(r, want, sizeof r);
        ec_mod_mul(c, &m, want, v[i], v[i]);
        CHECK_MEM(a, want, sizeof a);
      }
  }
  fm_g_cpu_in_use = saved;
  uint64_t row[16 * 2 * 9];
  for (unsigned i = 0; i < sizeof row / sizeof row[0]; i++) row[i] = i;
  for (uint64_t d = 0; d <= 16; d++) {
    uint64_t sd = d;
    secret(&sd, sizeof sd);
    ec_p521_row_select(x, y, row, sd);
    public(x, 9 * sizeof x[0]);
    CHECK(d == 0 ? x[0] == 0 : x[0] == 2 * (d - 1) * 9);
  }
}

static const test_case cases[] = {
    TEST_CASE(known_answers_with_secret_scalars),
    TEST_CASE(p521_field),
    TEST_CASE(every_curve),
    TEST_CASE(deterministic_signing),
};

int main(int argc, char **argv) {
  fm_entropy_mark_secret_for_testing(1);
  return TEST_RUN(argc, argv, "test_ec_ct", cases);
}
