/* The service indicator (FIPS 140-3 IG 2.4.C; include/fipsmod/indicator.h), checked for every
 * exported function: policy/services.tsv names each export and what its indicator must say, and
 * this test has one case per row (it fails when a row has none). Each case makes one approved
 * call and one call that is not approved or fails, and checks the indicator after each;
 * informational functions must leave whatever value the indicator had, both APPROVED and
 * NOT_APPROVED. This file holds the runner, the shared keys and the module's own cases; the other
 * families' cases are in indicator_sym.c, indicator_rng_rsa.c and indicator_ec_pq.c
 * (indicator_test.h). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/api/indicator_test.h"

fm_indicator indicator(void) {
  fm_indicator ind = FM_INDICATOR_NONE;
  if (fm_service_indicator(&ind) != FM_OK) return (fm_indicator)99;
  return ind;
}

void set_indicator(fm_indicator want) {
  uint8_t d[FM_SHA256_DIGEST_LEN];
  if (want == FM_INDICATOR_APPROVED) {
    CHECK_EQ_INT(fm_sha256("x", 1, d), FM_OK);
  } else {
    CHECK_EQ_INT(fm_sha256(NULL, 1, d), FM_ERR_BAD_ARGUMENT);
  }
  CHECK_EQ_INT(indicator(), want);
}

/* A 1024-bit RSA key (legacy size) and a PKCS#1 v1.5 SHA-256 signature of "abc" under it,
 * made with python3 cryptography for this test. */
static const char k1024_n[] =
  "c562aa6ca2d2648008e7c995ca991230d884f047d5d61f7f74184b090d521358fc613d8a888dbcfb53a5151106042ff3"
  "0f0003e8177e5eafa7886bde0e24247d7c3e900a8a1dafe68dd62d825e05d35b4f74ee594f1bda493c4439ab9e4037e5"
  "ebf3e1a54c238f54d3b9ab834126d5c3b8c769e5101e0209937fb649b6888d13"
  ;
static const char k1024_sig_abc[] =
  "3e2fa23d030d12bc95aa30639e72accd03986c5458fad24e3b73300f1a40075424018001527fc3114f72d3f7a0913071"
  "74f7d0b5554a64017fd6b59270a6357d98e003348bcd814f6abae70154e74a774624e004d931c850cbb9dc9b7a195aeb"
  "c20f992e9433fe8e9948bc8a16f5f938a76aa6adeb9ea10153a9b2f6de535027"
  ;

const uint8_t key32[32] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                           17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32};
const uint8_t e65537[3] = {1, 0, 1};
const uint8_t msg[3] = {'a', 'b', 'c'};

/* Shared keys, made once by main (indicator_test.h). */
fm_aes_key aes;
fm_gcm_key gk;
fm_rsa_key *rsa2048;    /* generated private key */
fm_rsa_key *rsa1024pub; /* the 1024-bit public key above */
uint8_t n1024[128], sig1024[128];
uint8_t n2048[256], d2048[256], p2048[128], q2048[128];
size_t n2048_len, d2048_len, p2048_len, q2048_len;

static void make_keys(void) {
  CHECK(test_hex_decode(k1024_n, n1024, sizeof n1024) == 128);
  CHECK(test_hex_decode(k1024_sig_abc, sig1024, sizeof sig1024) == 128);
  CHECK_EQ_INT(fm_rsa_key_generate(2048, &rsa2048), FM_OK);
  CHECK_EQ_INT(fm_rsa_key_import_public(n1024, sizeof n1024, e65537, sizeof e65537, &rsa1024pub),
               FM_OK);
  CHECK_EQ_INT(fm_rsa_key_export(rsa2048, FM_RSA_N, n2048, sizeof n2048, &n2048_len), FM_OK);
  CHECK_EQ_INT(fm_rsa_key_export(rsa2048, FM_RSA_D, d2048, sizeof d2048, &d2048_len), FM_OK);
  CHECK_EQ_INT(fm_rsa_key_export(rsa2048, FM_RSA_P, p2048, sizeof p2048, &p2048_len), FM_OK);
  CHECK_EQ_INT(fm_rsa_key_export(rsa2048, FM_RSA_Q, q2048, sizeof q2048, &q2048_len), FM_OK);
}

static void selftest_cb(fm_selftest_event event, const fm_selftest_entry *entry, void *arg) {
  (void)event, (void)entry, (void)arg;
}

/* ---- Module, status, helpers: informational ------------------------------------------------- */

static void case_fm_module_state(void) { UNCHANGED(fm_module_state()); }
static void case_fm_module_state_name(void) { UNCHANGED(fm_module_state_name(FM_STATE_OPERATIONAL)); }
static void case_fm_module_version(void) { UNCHANGED(fm_module_version()); }
static void case_fm_module_cpu_features(void) {
  uint32_t det, use;
  UNCHANGED(fm_module_cpu_features(&det, &use));
  UNCHANGED(fm_module_cpu_features(NULL, NULL));
}
static void case_fm_module_cpu_feature_name(void) { UNCHANGED(fm_module_cpu_feature_name(1)); }
static void case_fm_module_cpu_paths(void) { UNCHANGED(fm_module_cpu_paths()); }
static void case_fm_strerror(void) { UNCHANGED(fm_strerror(FM_ERR_VERIFY)); }
static void case_fm_version_check(void) {
  UNCHANGED(fm_version_check(FIPSMOD_VERSION_MAJOR, FIPSMOD_VERSION_MINOR, 0));
  UNCHANGED(fm_version_check(FIPSMOD_VERSION_MAJOR + 1, 0, 0));
}
static void case_fm_memeq_consttime(void) {
  UNCHANGED(fm_memeq_consttime(key32, key32, 32));
  UNCHANGED(fm_memeq_consttime(key32, msg, 3));
  UNCHANGED(fm_memeq_consttime(NULL, msg, 3));
}
static void case_fm_cleanse(void) {
  uint8_t b[8] = {1};
  UNCHANGED(fm_cleanse(b, sizeof b));
  UNCHANGED(fm_cleanse(NULL, 1));
}
static void case_fm_service_indicator(void) {
  fm_indicator i;
  UNCHANGED(fm_service_indicator(&i));
  UNCHANGED(fm_service_indicator(NULL));
}
static void case_fm_service_indicator_name(void) {
  UNCHANGED(fm_service_indicator_name(FM_INDICATOR_APPROVED));
}
static void case_fm_hash_digest_len(void) {
  size_t len;
  UNCHANGED(fm_hash_digest_len(FM_HASH_SHA256, &len));
  UNCHANGED(fm_hash_digest_len((fm_hash_alg)77, &len));
}

/* ---- Self-tests -------------------------------------------------------------------------------- */

static void case_fm_selftest_run(void) { UNCHANGED(fm_selftest_run()); }
static void case_fm_selftest_report(void) {
  fm_selftest_entry e[4];
  size_t count;
  UNCHANGED(fm_selftest_report(e, 4, &count));
  UNCHANGED(fm_selftest_report(NULL, 4, &count));
}
static void case_fm_selftest_get_summary(void) {
  fm_selftest_summary s;
  UNCHANGED(fm_selftest_get_summary(&s));
  UNCHANGED(fm_selftest_get_summary(NULL));
}
static void case_fm_selftest_kind_name(void) { UNCHANGED(fm_selftest_kind_name((fm_selftest_kind)0)); }
static void case_fm_selftest_result_name(void) {
  UNCHANGED(fm_selftest_result_name((fm_selftest_result)0));
}
static void case_fm_selftest_when_name(void) { UNCHANGED(fm_selftest_when_name((fm_selftest_when)0)); }
static void case_fm_selftest_report_times(void) {
  size_t n = 0;
  UNCHANGED(fm_selftest_report_times(NULL, 0, &n));
}
static void case_fm_selftest_trigger_name(void) {
  UNCHANGED(fm_selftest_trigger_name((fm_selftest_trigger)0));
}
static void case_fm_set_selftest_callback(void) {
  UNCHANGED(fm_set_selftest_callback(selftest_cb, NULL));
  UNCHANGED(fm_set_selftest_callback(NULL, NULL));
}

/* fm_module_cleanup is last: it ends the module. It gives no information and delivers no
 * cryptographic output, so it leaves the indicator as it was; after it every service is refused
 * (NOT_APPROVED), including the fast paths. */
static void case_fm_module_cleanup(void) {
  uint32_t v;
  fm_sha_ctx c;
  set_indicator(FM_INDICATOR_APPROVED);
  CHECK_EQ_INT(fm_module_cleanup(), FM_OK);
  CHECK_EQ_INT(indicator(), FM_INDICATOR_APPROVED);
  /* The fast path of the word draws is refused too. */
  CHECK_EQ_INT(fm_rand_u32(&v), FM_ERR_NOT_OPERATIONAL);
  CHECK_EQ_INT(indicator(), FM_INDICATOR_NOT_APPROVED);
  /* Zeroization is approved in every state. */
  CHECK_EQ_INT(fm_rsa_key_free(NULL), FM_OK);
  CHECK_EQ_INT(indicator(), FM_INDICATOR_APPROVED);
  CHECK_EQ_INT(fm_sha_wipe(&c), FM_ERR_NOT_OPERATIONAL);
  CHECK_EQ_INT(indicator(), FM_INDICATOR_NOT_APPROVED);
}

/* ---- One case per row of policy/services.tsv ---------------------------------------------- */

/* The cases of this file; the others' tables are in indicator_test.h. */
static service_case cases[] = {
    CASE(fm_module_state),
    CASE(fm_module_state_name),
    CASE(fm_module_version),
    CASE(fm_module_cpu_features),
    CASE(fm_module_cpu_feature_name),
    CASE(fm_module_cpu_paths),
    CASE(fm_strerror),
    CASE(fm_version_check),
    CASE(fm_memeq_consttime),
    CASE(fm_cleanse),
    CASE(fm_service_indicator),
    CASE(fm_service_indicator_name),
    CASE(fm_hash_digest_len),
    CASE(fm_selftest_run),
    CASE(fm_selftest_report),
    CASE(fm_selftest_get_summary),
    CASE(fm_selftest_kind_name),
    CASE(fm_selftest_result_name),
    CASE(fm_selftest_when_name),
    CASE(fm_selftest_trigger_name),
    CASE(fm_selftest_report_times),
    CASE(fm_set_selftest_callback),
    CASE(fm_module_cleanup),
    {NULL, NULL, false},
};

/* The tables of every file; each ends with a row whose symbol is NULL. */
static service_case *const tables[] = {cases, indicator_cases_sym, indicator_cases_rng_rsa,
                                       indicator_cases_ec_pq};
#define N_TABLES (sizeof tables / sizeof tables[0])

/* find_case returns the case for |symbol|, or NULL. */
static service_case *find_case(const char *symbol) {
  for (size_t t = 0; t < N_TABLES; t++) {
    for (service_case *c = tables[t]; c->symbol != NULL; c++) {
      if (strcmp(c->symbol, symbol) == 0) return c;
    }
  }
  return NULL;
}

/* run_services_table runs the case of every row of services.tsv, in the file's order except
 * fm_module_cleanup (last). A row without a case is a failure. */
static void run_services_table(void) {
  FILE *f = fopen(FIPSMOD_POLICY_DIR "/services.tsv", "r");
  CHECK(f != NULL);
  if (f == NULL) return;
  char line[1024];
  size_t rows = 0;
  bool header = true;
  while (fgets(line, sizeof line, f) != NULL) {
    if (line[0] == '#' || line[0] == '\n') continue;
    if (header) { /* the column names */
      header = false;
      continue;
    }
    line[strcspn(line, "\t\n")] = '\0';
    rows++;
    service_case *c = find_case(line);
    if (c == NULL) {
      fprintf(stderr, "services.tsv row %s has no indicator test case\n", line);
      test_failures++;
      continue;
    }
    if (strcmp(line, "fm_module_cleanup") != 0) {
      c->run();
      c->ran = true;
    }
  }
  fclose(f);
  size_t ncases = 0;
  for (size_t t = 0; t < N_TABLES; t++) {
    for (const service_case *c = tables[t]; c->symbol != NULL; c++) {
      ncases++;
      if (!c->ran && strcmp(c->symbol, "fm_module_cleanup") != 0) {
        fprintf(stderr, "case %s has no row in services.tsv\n", c->symbol);
        test_failures++;
      }
    }
  }
  CHECK(rows >= ncases);
}

int main(void) {
  /* Before the thread's first service the indicator is NONE. */
  CHECK_EQ_INT(indicator(), FM_INDICATOR_NONE);
  make_keys();
  CHECK_EQ_INT(fm_aes_key_init(&aes, key32, 32), FM_OK);
  CHECK_EQ_INT(fm_gcm_key_init(&gk, key32, 32), FM_OK);
  run_services_table();
  fm_rsa_key_free(rsa2048);
  fm_rsa_key_free(rsa1024pub);
  case_fm_module_cleanup();
  return test_main_result("test_indicator");
}
