/* Failure injection: every self-test name, broken in turn with FIPSMOD_BREAK_TEST in a child
 * process that loads libfipsmod_testhooks.so, must leave that test marked failed in the report,
 * the module in ERROR, and every service refusing with FM_ERR_NOT_OPERATIONAL and its outputs
 * wiped. A power-on test breaks at load; a test that runs before first use breaks at the first
 * use of its algorithm, which the child makes (use_every_algorithm: one call of each family, a
 * reseed, an RSA signature, an RSA key generation), and it must not have run before. Two
 * controls: a name that matches no test breaks nothing (and no test that runs before first use
 * has run at load), and FIPSMOD_SKIP_SELFTEST=1 (test builds only) skips every test. */
#define _GNU_SOURCE
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fipsmod/drbg.h"
#include "fipsmod/mlkem.h"
#include "fipsmod/fipsmod.h"
#include "fipsmod/rand.h"
#include "fipsmod/rsa.h"
#include "fipsmod/ec.h"
#include "fipsmod/selftest.h"
#include "fipsmod/uuid.h"
#include "tests/common/test_util.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-const-variable"
#include "module/rsa/rsa_kat_vectors.h"
#pragma GCC diagnostic pop

extern char **environ;

static int child_failures;
#define EXPECT(cond)                                                          \
  do {                                                                        \
    if (!(cond)) {                                                            \
      child_failures++;                                                       \
      fprintf(stderr, "  [%s] %s:%d: %s\n", g_name, __FILE__, __LINE__, #cond); \
    }                                                                         \
  } while (0)
static const char *g_name = "";

static const fm_rsa_private_components k_rsa = {
    kat_rsa2048_n,  sizeof kat_rsa2048_n,  kat_rsa2048_e,  sizeof kat_rsa2048_e,
    kat_rsa2048_d,  sizeof kat_rsa2048_d,  kat_rsa2048_p,  sizeof kat_rsa2048_p,
    kat_rsa2048_q,  sizeof kat_rsa2048_q,  kat_rsa2048_dp, sizeof kat_rsa2048_dp,
    kat_rsa2048_dq, sizeof kat_rsa2048_dq, kat_rsa2048_qinv, sizeof kat_rsa2048_qinv};

/* find returns the report entry named |name|, copied into |out|; 0 when absent. */
static int find(const char *name, fm_selftest_entry *out) {
  fm_selftest_entry e[FM_SELFTEST_MAX_ENTRIES];
  size_t n = 0;
  if (fm_selftest_report(e, FM_SELFTEST_MAX_ENTRIES, &n) != FM_OK) return 0;
  for (size_t i = 0; i < n; i++)
    if (strcmp(e[i].name, name) == 0) {
      *out = e[i];
      return 1;
    }
  return 0;
}

/* times_of returns when the test named |name| ran ("not yet run" when it is not listed). */
static fm_selftest_times times_of(const char *name) {
  fm_selftest_times t[FM_SELFTEST_MAX_ENTRIES];
  size_t n = 0;
  fm_selftest_times none = {0};
  if (fm_selftest_report_times(t, FM_SELFTEST_MAX_ENTRIES, &n) != FM_OK) return none;
  for (size_t i = 0; i < n; i++)
    if (strcmp(t[i].name, name) == 0) return t[i];
  return none;
}

/* check_refusals: every service refuses and wipes what it was given to write. */
static void check_refusals(const fm_rsa_key *key_made_before) {
  uint8_t buf[64], key16[16] = {1}, in[16] = {2}, ctr[16] = {0};
  memset(buf, 0xaa, sizeof buf);
  EXPECT(fm_rand_bytes(buf, sizeof buf) == FM_ERR_NOT_OPERATIONAL);
  EXPECT(test_is_all_zero(buf, sizeof buf));

  uint32_t u32 = 0xdeadbeef;
  EXPECT(fm_rand_u32(&u32) == FM_ERR_NOT_OPERATIONAL);
  EXPECT(u32 == 0);
  uint64_t u64 = 77;
  EXPECT(fm_rand_u64(&u64) == FM_ERR_NOT_OPERATIONAL);
  EXPECT(u64 == 0);

  uint8_t uuid[FM_UUID_LEN];
  memset(uuid, 0x55, sizeof uuid);
  EXPECT(fm_uuid_v4(uuid) == FM_ERR_NOT_OPERATIONAL);
  EXPECT(test_is_all_zero(uuid, sizeof uuid));
  char uuid_s[FM_UUID_STRING_LEN + 1];
  memset(uuid_s, 'x', sizeof uuid_s);
  EXPECT(fm_uuid_v4_string(uuid_s) == FM_ERR_NOT_OPERATIONAL);
  EXPECT(test_is_all_zero(uuid_s, sizeof uuid_s));

  fm_aes_key ks;
  memset(&ks, 0x11, sizeof ks);
  EXPECT(fm_aes_key_init(&ks, key16, sizeof key16) == FM_ERR_NOT_OPERATIONAL);
  EXPECT(test_is_all_zero(&ks, sizeof ks));
  memset(buf, 0xaa, 16);
  EXPECT(fm_aes_ecb_encrypt(&ks, in, buf, 16) == FM_ERR_NOT_OPERATIONAL);
  EXPECT(test_is_all_zero(buf, 16));
  memset(buf, 0xaa, 16);
  EXPECT(fm_aes_ctr(&ks, FM_AES_CTR128, ctr, in, buf, 16) == FM_ERR_NOT_OPERATIONAL);
  EXPECT(test_is_all_zero(buf, 16));

  memset(buf, 0xaa, sizeof buf);
  EXPECT(fm_sha256("abc", 3, buf) == FM_ERR_NOT_OPERATIONAL);
  EXPECT(test_is_all_zero(buf, 32));
  memset(buf, 0xaa, sizeof buf);
  EXPECT(fm_sha512("abc", 3, buf) == FM_ERR_NOT_OPERATIONAL);
  EXPECT(test_is_all_zero(buf, 64));

  memset(buf, 0xaa, sizeof buf);
  EXPECT(fm_hmac(FM_HASH_SHA256, key16, sizeof key16, "abc", 3, buf, 32) ==
         FM_ERR_NOT_OPERATIONAL);
  EXPECT(test_is_all_zero(buf, 32));

  fm_ctr_drbg d;
  uint8_t ent[48] = {3};
  EXPECT(fm_ctr_drbg_instantiate(&d, 0, ent, sizeof ent, NULL, 0, NULL, 0) ==
         FM_ERR_NOT_OPERATIONAL);

  fm_rsa_key *key = (fm_rsa_key *)&d; /* any non-NULL value: it must come back NULL */
  EXPECT(fm_rsa_key_import_private(&k_rsa, &key) == FM_ERR_NOT_OPERATIONAL);
  EXPECT(key == NULL);
  uint8_t sig[256];
  size_t sig_len = 99;
  memset(sig, 0xaa, sizeof sig);
  EXPECT(fm_rsa_sign_pkcs1v15(key_made_before, FM_HASH_SHA256, in, sizeof in, sig, sizeof sig,
                              &sig_len) == FM_ERR_NOT_OPERATIONAL);
  EXPECT(test_is_all_zero(sig, sizeof sig));
  EXPECT(sig_len == 0);

  EXPECT(fm_selftest_run() == FM_ERR_NOT_OPERATIONAL);
}

/* use_every_algorithm makes the first use of each algorithm family whose CAST runs before first
 * use, while the module is OPERATIONAL; a family that fails its CAST stops it (ERROR). A new
 * family's CAST needs a call here, or breaking it fails this test. */
static void use_every_algorithm(void) {
  static const uint8_t key[32] = {7}, salt[16] = {8};
  uint8_t out[64];
  const fm_hash_alg hashes[] = {FM_HASH_SHA256,     FM_HASH_SHA384,     FM_HASH_SHA512,
                                FM_HASH_SHA224,     FM_HASH_SHA512_224, FM_HASH_SHA512_256,
                                FM_HASH_SHA3_224,   FM_HASH_SHA3_256,   FM_HASH_SHA3_384,
                                FM_HASH_SHA3_512};
  for (size_t i = 0; i < sizeof hashes / sizeof hashes[0]; i++) {
    if (fm_module_state() != FM_STATE_OPERATIONAL) return;
    (void)!fm_sha_digest(hashes[i], "abc", 3, out, sizeof out);
    if (fm_module_state() != FM_STATE_OPERATIONAL) return;
    (void)!fm_hmac(hashes[i], key, sizeof key, "abc", 3, out, sizeof out);
  }
  if (fm_module_state() != FM_STATE_OPERATIONAL) return;
  (void)!fm_shake128("abc", 3, out, sizeof out);
  if (fm_module_state() != FM_STATE_OPERATIONAL) return;
  fm_aes_key ks;
  (void)!fm_aes_key_init(&ks, key, 16);
  (void)!fm_aes_key_wipe(&ks);
  if (fm_module_state() != FM_STATE_OPERATIONAL) return;
  fm_gcm_key gk;
  (void)!fm_gcm_key_init(&gk, key, 16);
  (void)!fm_gcm_key_wipe(&gk);
  if (fm_module_state() != FM_STATE_OPERATIONAL) return;
  (void)!fm_hkdf(FM_HASH_SHA256, key, sizeof key, salt, sizeof salt, NULL, 0, out, 32);
  if (fm_module_state() != FM_STATE_OPERATIONAL) return;
  (void)!fm_kbkdf_ctr_hmac(FM_HASH_SHA256, key, sizeof key, salt, sizeof salt, 0, 32, out, 32);
  if (fm_module_state() != FM_STATE_OPERATIONAL) return;
  (void)!fm_pbkdf2_hmac(FM_HASH_SHA256, key, sizeof key, salt, sizeof salt, 1000, out, 32);
  if (fm_module_state() != FM_STATE_OPERATIONAL) return;
  fm_rsa_key *pub = NULL;
  uint8_t sig[256] = {0};
  if (fm_rsa_key_import_public(kat_rsa2048_n, sizeof kat_rsa2048_n, kat_rsa2048_e,
                               sizeof kat_rsa2048_e, &pub) == FM_OK)
    (void)!fm_rsa_verify_pkcs1v15(pub, FM_HASH_SHA256, (const uint8_t *)"x", 1, sig, sizeof sig);
  fm_rsa_key_free(pub);
  if (fm_module_state() != FM_STATE_OPERATIONAL) return;
  fm_rsa_key *priv = NULL;
  size_t sig_len = 0;
  if (fm_rsa_key_import_private(&k_rsa, &priv) == FM_OK)
    (void)!fm_rsa_sign_pkcs1v15(priv, FM_HASH_SHA256, (const uint8_t *)"x", 1, sig, sizeof sig,
                                &sig_len);
  fm_rsa_key_free(priv);
  /* ML-DSA key generation runs the key generation, signing and verification CASTs and the
   * pairwise test. */
  if (fm_module_state() != FM_STATE_OPERATIONAL) return;
  static uint8_t mldsa_pk[FM_MLDSA_44_PUBLIC_KEY_LEN], mldsa_sk[FM_MLDSA_44_PRIVATE_KEY_LEN];
  (void)!fm_mldsa_keygen(FM_MLDSA_44, mldsa_pk, sizeof mldsa_pk, mldsa_sk, sizeof mldsa_sk, NULL);
  /* ECDSA signing and verification, ECDH, and EC key generation (its pairwise test). */
  static const uint8_t ec_d[32] = {1, 2, 3};
  uint8_t ec_pub[65], ec_z[32];
  size_t ec_len = 0;
  fm_ec_key *ec = NULL;
  if (fm_ec_key_import_private(FM_EC_P256, ec_d, sizeof ec_d, NULL, 0, &ec) == FM_OK &&
      fm_ec_key_export_public(ec, 0, ec_pub, sizeof ec_pub, &ec_len) == FM_OK) {
    (void)!fm_ecdsa_sign(ec, FM_HASH_SHA256, (const uint8_t *)"x", 1, sig, sizeof sig, &sig_len);
    (void)!fm_ecdsa_verify(ec, FM_HASH_SHA256, (const uint8_t *)"x", 1, sig, 64);
    (void)!fm_ecdh(ec, ec_pub, ec_len, ec_z, sizeof ec_z, &ec_len);
  }
  fm_ec_key_free(ec);
  ec = NULL;
  if (fm_module_state() != FM_STATE_OPERATIONAL) return;
  if (fm_ec_key_generate(FM_EC_P256, &ec) == FM_OK) fm_ec_key_free(ec);
  /* ML-KEM: the CAST, then key generation's pairwise test. */
  static uint8_t ek[FM_MLKEM512_EK_LEN], dk[FM_MLKEM512_DK_LEN];
  (void)!fm_mlkem_keygen(FM_MLKEM_512, ek, sizeof ek, dk, sizeof dk, NULL, 0);
}

/* run_child: the module was loaded with FIPSMOD_BREAK_TEST=name. */
static int run_child(const char *name) {
  g_name = name;
  fm_rsa_key *key = NULL;
  fm_selftest_entry at_load;
  /* A test that runs before first use has not run yet; a power-on test failed at load. */
  EXPECT(find(name, &at_load));
  if (find(name, &at_load) && at_load.when == FM_SELFTEST_BEFORE_FIRST_USE) {
    EXPECT(at_load.result == FM_SELFTEST_NOT_RUN);
    EXPECT(times_of(name).first_trigger == FM_SELFTEST_RAN_NOT_YET);
    EXPECT(fm_module_state() == FM_STATE_OPERATIONAL);
  }
  if (find(name, &at_load) && at_load.when == FM_SELFTEST_AT_POWER_ON)
    EXPECT(fm_module_state() == FM_STATE_ERROR);
  use_every_algorithm();
  /* Tests that do not run at load: draw fresh entropy (the entropy health tests), use an RSA
   * private key (the signing test before first use), generate a key (the pairwise test). */
  if (fm_module_state() == FM_STATE_OPERATIONAL) {
    /* Import draws its Miller-Rabin bases from the RNG: a broken entropy health test fails it. */
    const int imported = fm_rsa_key_import_private(&k_rsa, &key);
    EXPECT(imported == FM_OK || imported == FM_ERR_ENTROPY);
    (void)!fm_rand_reseed(); /* fails when a health test is broken: the state is checked below */
  }
  if (fm_module_state() == FM_STATE_OPERATIONAL) {
    uint8_t sig[256];
    size_t sig_len;
    (void)!fm_rsa_sign_pkcs1v15(key, FM_HASH_SHA256, (const uint8_t *)"x", 1, sig, sizeof sig,
                                &sig_len);
  }
  if (fm_module_state() == FM_STATE_OPERATIONAL) {
    fm_rsa_key *gen = (fm_rsa_key *)&key;
    int st = fm_rsa_key_generate(2048, &gen);
    /* A key whose pairwise test failed must not be handed out. */
    EXPECT(st != FM_OK);
    EXPECT(gen == NULL);
    if (st == FM_OK) fm_rsa_key_free(gen);
  }
  EXPECT(fm_module_state() == FM_STATE_ERROR);
  fm_selftest_entry e;
  EXPECT(find(name, &e));
  if (find(name, &e)) {
    EXPECT(e.result == FM_SELFTEST_FAILED);
    EXPECT(e.failures >= 1);
    EXPECT(e.status != FM_OK);
    /* It failed when it was meant to run: at load, or at its algorithm's first use. */
    if (e.when == FM_SELFTEST_AT_POWER_ON)
      EXPECT(times_of(name).first_trigger == FM_SELFTEST_RAN_AT_POWER_ON);
    if (e.when == FM_SELFTEST_BEFORE_FIRST_USE)
      EXPECT(times_of(name).first_trigger == FM_SELFTEST_RAN_AT_FIRST_USE);
  }
  /* Exactly one test failed: the broken one. */
  fm_selftest_summary s;
  EXPECT(fm_selftest_get_summary(&s) == FM_OK && s.failed == 1);
  /* The reason the module gives for ERROR is the failing test's name. */
  EXPECT(s.error_reason != NULL && strcmp(s.error_reason, name) == 0);
  check_refusals(key);
  fm_rsa_key_free(key);
  return child_failures == 0 ? 0 : 1;
}

/* run_control: the module was loaded with a break name that matches nothing, or with
 * FIPSMOD_SKIP_SELFTEST=1; it must be OPERATIONAL. With |skipped|, no test ran. */
static int run_control(int skipped) {
  g_name = skipped ? "(skip)" : "(no match)";
  EXPECT(fm_module_state() == FM_STATE_OPERATIONAL);
  fm_selftest_summary s;
  EXPECT(fm_selftest_get_summary(&s) == FM_OK);
  EXPECT(s.failed == 0);
  if (skipped) EXPECT(s.passed == 0 && s.integrity == FM_SELFTEST_NOT_RUN);
  else EXPECT(s.passed >= 8 && s.integrity == FM_SELFTEST_PASSED);
  fm_selftest_entry e[FM_SELFTEST_MAX_ENTRIES];
  size_t n = 0;
  EXPECT(fm_selftest_report(e, FM_SELFTEST_MAX_ENTRIES, &n) == FM_OK);
  size_t deferred = 0;
  for (size_t i = 0; i < n; i++) {
    if (e[i].when != FM_SELFTEST_BEFORE_FIRST_USE) continue;
    deferred++;
    EXPECT(e[i].result == FM_SELFTEST_NOT_RUN); /* nothing used yet */
  }
  EXPECT(deferred >= 20);
  uint8_t d[32];
  EXPECT(fm_sha256("abc", 3, d) == FM_OK);
  /* Every first use passes (or, skipped, runs nothing). */
  use_every_algorithm();
  EXPECT(fm_module_state() == FM_STATE_OPERATIONAL);
  EXPECT(fm_selftest_report(e, FM_SELFTEST_MAX_ENTRIES, &n) == FM_OK);
  for (size_t i = 0; i < n; i++) {
    if (e[i].when != FM_SELFTEST_BEFORE_FIRST_USE) continue;
    if (skipped) EXPECT(e[i].result == FM_SELFTEST_NOT_RUN);
    else
      EXPECT(e[i].result == FM_SELFTEST_PASSED &&
             times_of(e[i].name).first_trigger == FM_SELFTEST_RAN_AT_FIRST_USE);
  }
  return child_failures == 0 ? 0 : 1;
}

/* spawn_self runs this program with |arg| and |name| in an environment with |var| added;
 * returns the child's exit status, or -1. */
static int spawn_self(const char *self, const char *arg, const char *name, const char *var) {
  size_t n = 0;
  while (environ[n]) n++;
  char **env = calloc(n + 2, sizeof *env);
  if (!env) return -1;
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (strncmp(environ[i], "FIPSMOD_BREAK_TEST=", 19) != 0 &&
        strncmp(environ[i], "FIPSMOD_SKIP_SELFTEST=", 22) != 0)
      env[k++] = environ[i];
  env[k++] = (char *)var;
  char *argv[] = {(char *)self, (char *)arg, (char *)name, NULL};
  pid_t pid;
  int rc = posix_spawn(&pid, self, NULL, NULL, argv, env);
  free(env);
  if (rc != 0) return -1;
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return -1;
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "--child") == 0) return run_child(argv[2]);
  if (argc == 3 && strcmp(argv[1], "--control") == 0)
    return run_control(strcmp(argv[2], "skip") == 0);

  CHECK_EQ_INT(fm_module_state(), FM_STATE_OPERATIONAL);
  fm_selftest_entry e[FM_SELFTEST_MAX_ENTRIES];
  size_t n = 0;
  CHECK_EQ_INT(fm_selftest_report(e, FM_SELFTEST_MAX_ENTRIES, &n), FM_OK);
  CHECK(n >= 27);
  int broken = 0;
  for (size_t i = 0; i < n; i++) {
    char var[128];
    snprintf(var, sizeof var, "FIPSMOD_BREAK_TEST=%s", e[i].name);
    int rc = spawn_self(argv[0], "--child", e[i].name, var);
    if (rc == 0) broken++;
    else fprintf(stderr, "breaking %s (%s): child exit %d\n", e[i].name,
                 fm_selftest_kind_name(e[i].kind), rc);
    CHECK_EQ_INT(rc, 0);
  }
  fprintf(stderr, "%d of %zu test names broke cleanly\n", broken, n);
  CHECK_EQ_INT(spawn_self(argv[0], "--control", "none", "FIPSMOD_BREAK_TEST=no-such-test"), 0);
  CHECK_EQ_INT(spawn_self(argv[0], "--control", "skip", "FIPSMOD_SKIP_SELFTEST=1"), 0);
  return test_main_result("test_selftest_break");
}
