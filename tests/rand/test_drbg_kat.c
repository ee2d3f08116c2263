/* CTR_DRBG known-answer tests through the public explicit-state API (drbg.h).
 *
 * Vectors:
 *  - NIST CAVP drbgtestvectors (CAVS 14.3), tests/vectors/cavp/drbg/drbgvectors_no_reseed and
 *    drbgvectors_pr_false CTR_DRBG.rsp: every [AES-256 use df] and [AES-256 no df] case.
 *    no_reseed: instantiate, generate, generate (the second output is ReturnedBits).
 *    pr_false: instantiate, reseed, generate, generate.
 *  - NIST ACVP ctrDRBG-1.0 internalProjection.json (tests/vectors/acvp/ctrDRBG-1.0): every
 *    AES-256 group (4 groups of 15), with and without the df, with prediction resistance (fresh
 *    entropy on every generate) and with a reseed.
 *  - SP 800-90Ar1 limits: lengths, reseed interval, prediction-resistance misuse. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "fipsmod/drbg.h"
#include "module/internal.h"
#include "module/rand/internal.h"
#include "tests/aes/aes_test_paths.h"
#include "tests/common/test_util.h"

#define MAX_FIELD 1024

typedef struct {
  uint8_t entropy[MAX_FIELD], nonce[MAX_FIELD], pers[MAX_FIELD];
  uint8_t entropy_reseed[MAX_FIELD], ai_reseed[MAX_FIELD];
  uint8_t ai[2][MAX_FIELD], entropy_pr[2][MAX_FIELD];
  uint8_t expected[MAX_FIELD];
  long entropy_len, nonce_len, pers_len, entropy_reseed_len, ai_reseed_len;
  long ai_len[2], entropy_pr_len[2], expected_len;
  int n_ai, n_pr;
  int has_reseed;
} cavp_case;

static int g_cases_run;

/* run_cavp_case drives one case and compares the second generate's output. */
static void run_cavp_case(const cavp_case *c, unsigned flags, const char *file, int count) {
  fm_ctr_drbg d;
  uint8_t out[MAX_FIELD];
  int ok = 1;
  ok &= fm_ctr_drbg_instantiate(&d, flags, c->entropy, (size_t)c->entropy_len,
                                c->nonce_len ? c->nonce : NULL, (size_t)c->nonce_len, c->pers,
                                (size_t)c->pers_len) == FM_OK;
  if (c->has_reseed) {
    ok &= fm_ctr_drbg_reseed(&d, c->entropy_reseed, (size_t)c->entropy_reseed_len, c->ai_reseed,
                             (size_t)c->ai_reseed_len) == FM_OK;
  }
  for (int i = 0; i < 2; i++) {
    const uint8_t *pr = c->n_pr > i ? c->entropy_pr[i] : NULL;
    size_t pr_len = c->n_pr > i ? (size_t)c->entropy_pr_len[i] : 0;
    ok &= fm_ctr_drbg_generate(&d, out, (size_t)c->expected_len, pr, pr_len, c->ai[i],
                               (size_t)c->ai_len[i]) == FM_OK;
  }
  if (!ok || memcmp(out, c->expected, (size_t)c->expected_len) != 0) {
    test_failures++;
    fprintf(stderr, "%s: flags %u COUNT = %d failed\n", file, flags, count);
  }
  fm_ctr_drbg_uninstantiate(&d);
  CHECK(test_is_all_zero(&d, sizeof(d)));
  g_cases_run++;
}

static long hex_field(const char *val, uint8_t *out) {
  if (*val == '\0') return 0;
  long n = test_hex_decode(val, out, MAX_FIELD);
  CHECK(n >= 0);
  return n < 0 ? 0 : n;
}

/* run_cavp_file runs every AES-256 case of a CTR_DRBG.rsp file; returns the number run. */
static int run_cavp_file(const char *rel) {
  char path[512];
  snprintf(path, sizeof(path), "%s/%s", FIPSMOD_VECTORS_DIR, rel);
  FILE *f = fopen(path, "r");
  if (f == NULL) {
    fprintf(stderr, "cannot open %s\n", path);
    test_failures++;
    return 0;
  }
  static char line[8192];
  static cavp_case c;
  int in_section = 0, count = -1, run = 0;
  unsigned flags = 0;
  int pr = 0;
  while (fgets(line, sizeof(line), f) != NULL) {
    size_t n = strlen(line);
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' ')) {
      line[--n] = '\0';
    }
    if (line[0] == '[') {
      if (strcmp(line, "[AES-256 use df]") == 0) {
        in_section = 1;
        flags = FM_DRBG_USE_DF;
      } else if (strcmp(line, "[AES-256 no df]") == 0) {
        in_section = 1;
        flags = 0;
      } else if (strncmp(line, "[PredictionResistance = ", 24) == 0) {
        pr = strncmp(line + 24, "True", 4) == 0;
      } else if (strchr(line, '=') == NULL) {
        in_section = 0; /* another mechanism's section: not offered, skipped */
      }
      continue;
    }
    if (!in_section) continue;
    char *eq = strstr(line, " = ");
    if (eq == NULL) {
      /* "Key = " style lines always have the separator; a bare "X =" has an empty value. */
      eq = strstr(line, " =");
      if (eq == NULL) continue;
    }
    *eq = '\0';
    const char *val = eq[1] == '=' && eq[2] == ' ' ? eq + 3 : "";
    if (strcmp(line, "COUNT") == 0) {
      memset(&c, 0, sizeof(c));
      count = atoi(val);
    } else if (strcmp(line, "EntropyInput") == 0) {
      c.entropy_len = hex_field(val, c.entropy);
    } else if (strcmp(line, "Nonce") == 0) {
      c.nonce_len = hex_field(val, c.nonce);
    } else if (strcmp(line, "PersonalizationString") == 0) {
      c.pers_len = hex_field(val, c.pers);
    } else if (strcmp(line, "EntropyInputReseed") == 0) {
      c.entropy_reseed_len = hex_field(val, c.entropy_reseed);
      c.has_reseed = 1;
    } else if (strcmp(line, "AdditionalInputReseed") == 0) {
      c.ai_reseed_len = hex_field(val, c.ai_reseed);
    } else if (strcmp(line, "AdditionalInput") == 0 && c.n_ai < 2) {
      c.ai_len[c.n_ai] = hex_field(val, c.ai[c.n_ai]);
      c.n_ai++;
    } else if (strcmp(line, "EntropyInputPR") == 0 && c.n_pr < 2) {
      c.entropy_pr_len[c.n_pr] = hex_field(val, c.entropy_pr[c.n_pr]);
      c.n_pr++;
    } else if (strcmp(line, "ReturnedBits") == 0) {
      c.expected_len = hex_field(val, c.expected);
      run_cavp_case(&c, flags | (pr ? FM_DRBG_PREDICTION_RESISTANCE : 0), rel, count);
      run++;
    }
  }
  fclose(f);
  return run;
}

/* ---- ACVP ctrDRBG-1.0 --------------------------------------------------------------------- */

static long json_hex(json_t *obj, const char *key, uint8_t *out) {
  const char *s = json_string_value(json_object_get(obj, key));
  if (s == NULL || *s == '\0') return 0;
  long n = test_hex_decode(s, out, MAX_FIELD);
  CHECK(n >= 0);
  return n < 0 ? 0 : n;
}

static int run_acvp(void) {
  const char *path = FIPSMOD_VECTORS_DIR "/acvp/ctrDRBG-1.0/internalProjection.json";
  json_error_t jerr;
  json_t *root = json_load_file(path, 0, &jerr);
  if (root == NULL) {
    fprintf(stderr, "cannot read %s: %s\n", path, jerr.text);
    test_failures++;
    return 0;
  }
  static uint8_t ent[MAX_FIELD], nonce[MAX_FIELD], pers[MAX_FIELD], ai[MAX_FIELD], exp[MAX_FIELD],
      out[MAX_FIELD];
  int run = 0;
  size_t gi;
  json_t *group;
  json_array_foreach(json_object_get(root, "testGroups"), gi, group) {
    if (strcmp(json_string_value(json_object_get(group, "mode")), "AES-256") != 0) continue;
    unsigned flags = (json_is_true(json_object_get(group, "derFunc")) ? FM_DRBG_USE_DF : 0) |
                     (json_is_true(json_object_get(group, "predResistance"))
                          ? FM_DRBG_PREDICTION_RESISTANCE : 0);
    size_t out_len = (size_t)json_integer_value(json_object_get(group, "returnedBitsLen")) / 8;
    size_t ti;
    json_t *t;
    json_array_foreach(json_object_get(group, "tests"), ti, t) {
      fm_ctr_drbg d;
      long el = json_hex(t, "entropyInput", ent), nl = json_hex(t, "nonce", nonce),
           pl = json_hex(t, "persoString", pers);
      long xl = json_hex(t, "returnedBits", exp);
      int ok = fm_ctr_drbg_instantiate(&d, flags, ent, (size_t)el, nl ? nonce : NULL, (size_t)nl,
                                       pers, (size_t)pl) == FM_OK;
      size_t oi;
      json_t *o;
      json_array_foreach(json_object_get(t, "otherInput"), oi, o) {
        const char *use = json_string_value(json_object_get(o, "intendedUse"));
        long al = json_hex(o, "additionalInput", ai), oel = json_hex(o, "entropyInput", ent);
        if (strcmp(use, "reSeed") == 0) {
          ok &= fm_ctr_drbg_reseed(&d, ent, (size_t)oel, ai, (size_t)al) == FM_OK;
        } else {
          ok &= fm_ctr_drbg_generate(&d, out, out_len, oel ? ent : NULL, (size_t)oel, ai,
                                     (size_t)al) == FM_OK;
        }
      }
      if (!ok || (size_t)xl != out_len || memcmp(out, exp, out_len) != 0) {
        test_failures++;
        fprintf(stderr, "ACVP ctrDRBG tcId %lld failed\n",
                (long long)json_integer_value(json_object_get(t, "tcId")));
      }
      fm_ctr_drbg_uninstantiate(&d);
      run++;
    }
  }
  json_decref(root);
  return run;
}

/* ---- Limits (SP 800-90Ar1 10.2.1 Table 3, 9.3.1) ----------------------------------------- */

static void test_limits(void) {
  fm_ctr_drbg d;
  uint8_t e[64] = {1}, n[16] = {2}, big[FM_DRBG_MAX_REQUEST + 1];
  /* No df: entropy exactly 48, no nonce, pers <= 48. */
  CHECK_EQ_INT(fm_ctr_drbg_instantiate(&d, 0, e, 47, NULL, 0, NULL, 0), FM_ERR_LENGTH);
  CHECK_EQ_INT(fm_ctr_drbg_instantiate(&d, 0, e, 49, NULL, 0, NULL, 0), FM_ERR_LENGTH);
  CHECK_EQ_INT(fm_ctr_drbg_instantiate(&d, 0, e, 48, NULL, 0, e, 49), FM_ERR_LENGTH);
  CHECK_EQ_INT(fm_ctr_drbg_instantiate(&d, 0, e, 48, n, 16, NULL, 0), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_ctr_drbg_instantiate(&d, 0, NULL, 48, NULL, 0, NULL, 0), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_ctr_drbg_instantiate(&d, 8, e, 48, NULL, 0, NULL, 0), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_ctr_drbg_instantiate(NULL, 0, e, 48, NULL, 0, NULL, 0), FM_ERR_BAD_ARGUMENT);
  /* df: entropy >= 32, nonce >= 16. */
  CHECK_EQ_INT(fm_ctr_drbg_instantiate(&d, FM_DRBG_USE_DF, e, 31, n, 16, NULL, 0), FM_ERR_LENGTH);
  CHECK_EQ_INT(fm_ctr_drbg_instantiate(&d, FM_DRBG_USE_DF, e, 32, n, 15, NULL, 0), FM_ERR_LENGTH);
  /* Not instantiated (a failed instantiate leaves the state wiped). */
  CHECK_EQ_INT(fm_ctr_drbg_generate(&d, big, 16, NULL, 0, NULL, 0), FM_ERR_STATE);
  CHECK(test_is_all_zero(big, 16));
  CHECK_EQ_INT(fm_ctr_drbg_reseed(&d, e, 48, NULL, 0), FM_ERR_STATE);

  CHECK_EQ_INT(fm_ctr_drbg_instantiate(&d, 0, e, 48, NULL, 0, NULL, 0), FM_OK);
  memset(big, 0xaa, sizeof(big));
  /* An over-long request is refused without touching the buffer: its length is what is wrong,
   * so the call cannot know how much of it the caller really has (the refusal convention). */
  CHECK_EQ_INT(fm_ctr_drbg_generate(&d, big, sizeof(big), NULL, 0, NULL, 0), FM_ERR_LENGTH);
  size_t untouched = 0;
  for (size_t i = 0; i < sizeof(big); i++) untouched += big[i] == 0xaa;
  CHECK_EQ_INT(untouched, sizeof(big));
  CHECK_EQ_INT(fm_ctr_drbg_generate(&d, big, FM_DRBG_MAX_REQUEST, NULL, 0, NULL, 0), FM_OK);
  CHECK_EQ_INT(fm_ctr_drbg_generate(&d, big, 16, NULL, 0, e, 49), FM_ERR_LENGTH);
  CHECK_EQ_INT(fm_ctr_drbg_generate(&d, NULL, 16, NULL, 0, NULL, 0), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_ctr_drbg_generate(&d, big, 16, NULL, 0, NULL, 3), FM_ERR_BAD_ARGUMENT);
  /* Prediction resistance requested from an instance without it. */
  CHECK_EQ_INT(fm_ctr_drbg_generate(&d, big, 16, e, 48, NULL, 0), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_ctr_drbg_reseed(&d, e, 32, NULL, 0), FM_ERR_LENGTH);
  CHECK_EQ_INT(fm_ctr_drbg_reseed(&d, e, 48, e, 49), FM_ERR_LENGTH);

  /* The reseed interval: reseed_counter = interval still generates (10.2.1.5.1 step 1 tests
   * "> reseed_interval"), one more request is refused until a reseed. */
  uint8_t key_before[32], v_before[16], key_after[32], v_after[16];
  CHECK_EQ_INT(fm_ctr_drbg_set_reseed_counter_for_testing(&d, FM_DRBG_RESEED_INTERVAL), FM_OK);
  CHECK_EQ_INT(fm_ctr_drbg_generate(&d, big, 16, NULL, 0, NULL, 0), FM_OK);
  CHECK_EQ_INT(fm_ctr_drbg_state_for_testing(&d, key_before, v_before), FM_OK);
  CHECK_EQ_INT(fm_ctr_drbg_generate(&d, big, 16, NULL, 0, NULL, 0), FM_ERR_RESEED_REQUIRED);
  CHECK(test_is_all_zero(big, 16));
  CHECK_EQ_INT(fm_ctr_drbg_state_for_testing(&d, key_after, v_after), FM_OK);
  CHECK_MEM(key_before, key_after, 32); /* a refused request leaves the state unchanged */
  CHECK_MEM(v_before, v_after, 16);
  CHECK_EQ_INT(fm_ctr_drbg_reseed(&d, e, 48, NULL, 0), FM_OK);
  CHECK_EQ_INT(fm_ctr_drbg_generate(&d, big, 16, NULL, 0, NULL, 0), FM_OK);

  /* A prediction-resistant instance at the interval still generates when given entropy. */
  CHECK_EQ_INT(fm_ctr_drbg_instantiate(&d, FM_DRBG_PREDICTION_RESISTANCE, e, 48, NULL, 0, NULL, 0),
               FM_OK);
  CHECK_EQ_INT(fm_ctr_drbg_set_reseed_counter_for_testing(&d, FM_DRBG_RESEED_INTERVAL + 1), FM_OK);
  CHECK_EQ_INT(fm_ctr_drbg_generate(&d, big, 16, NULL, 0, NULL, 0), FM_ERR_RESEED_REQUIRED);
  CHECK_EQ_INT(fm_ctr_drbg_generate(&d, big, 16, e, 48, NULL, 0), FM_OK);
  CHECK_EQ_INT(fm_ctr_drbg_generate(&d, big, 16, e, 47, NULL, 0), FM_ERR_LENGTH);
  CHECK_EQ_INT(fm_ctr_drbg_uninstantiate(&d), FM_OK);
  CHECK(test_is_all_zero(&d, sizeof(d)));
  CHECK_EQ_INT(fm_ctr_drbg_uninstantiate(NULL), FM_OK);
}

/* Key and V after instantiation without the df and with an all-zero entropy input: Key = 0 and
 * V = 0 first, then the update xors E(0, 1..3) with zero, so Key || V = E_0(1) || E_0(2) ||
 * E_0(3) under the all-zero AES-256 key (values from the AES KAT of FIPS 197's cipher, computed
 * independently with OpenSSL's aes-256-ecb). */
static void test_state_after_zero_seed(void) {
  static const char *expected =
      "530f8afbc74536b9a963b4f1c4cb738bcea7403d4d606b6e074ec5d3baf39d18"
      "726003ca37a62a74d1a2f58e7506358e";
  uint8_t e[48] = {0}, key[32], v[16], want[48];
  fm_ctr_drbg d;
  CHECK_EQ_INT(fm_ctr_drbg_instantiate(&d, 0, e, 48, NULL, 0, NULL, 0), FM_OK);
  CHECK_EQ_INT(fm_ctr_drbg_state_for_testing(&d, key, v), FM_OK);
  CHECK_EQ_INT(test_hex_decode(expected, want, sizeof(want)), 48);
  CHECK_MEM(key, want, 32);
  CHECK_MEM(v, want + 32, 16);
  fm_ctr_drbg_uninstantiate(&d);
}

/* test_kept_schedule: a short generate on AES-NI moves Key past the kept schedule, which is then
 * wiped (it belongs to a former Key) and marked stale; a long generate rebuilds it for the
 * current Key. Without AES-NI the schedule stays current throughout. */
static void test_kept_schedule(void) {
  uint8_t e[48], out[100];
  for (int i = 0; i < 48; i++) e[i] = (uint8_t)(i * 11 + 1);
  fm_ctr_drbg d;
  ctr_drbg_state *st = (ctr_drbg_state *)(void *)&d;
  CHECK_EQ_INT(fm_ctr_drbg_instantiate(&d, 0, e, 48, NULL, 0, NULL, 0), FM_OK);
  CHECK_EQ_INT(st->ks_stale, 0);
  CHECK_EQ_INT(fm_ctr_drbg_generate(&d, out, 16, NULL, 0, NULL, 0), FM_OK);
  if (fm_cpu_use(FM_CPU_AESNI)) {
    CHECK_EQ_INT(st->ks_stale, 1);
    CHECK(test_is_all_zero(&st->ks, sizeof(st->ks)));
  } else {
    CHECK_EQ_INT(st->ks_stale, 0);
  }
  CHECK_EQ_INT(fm_ctr_drbg_generate(&d, out, sizeof(out), NULL, 0, NULL, 0), FM_OK);
  CHECK_EQ_INT(st->ks_stale, 0);
  aes_ks want;
  memset(&want, 0, sizeof(want));
  CHECK_EQ_INT(aes_ks_init_encrypt(&want, st->key, 32), 1);
  CHECK_EQ_INT(st->ks.impl, want.impl);
  /* The round keys (AES-NI: 15 blocks; portable: 15 bitsliced keys of 64 bytes). */
  const size_t used = want.impl == AES_IMPL_AESNI ? 15 * 16 : 15 * 64;
  CHECK_MEM(st->ks.words, want.words, used);
  aes_ks_wipe(&want);
  fm_ctr_drbg_uninstantiate(&d);
}

static void test_vectors_every_path(void) {
  /* Every AES path the CPU has: the short generates take the 128-bit AES-NI fused kernel or the
   * VAES one, the others the bulk CTR code of that width; both kernels leave the kept schedule
   * stale, which the next long request or reseed must notice. */
  int paths[3];
  const int npaths = aes_test_paths(paths);
  for (int p = 0; p < npaths; p++) {
    aes_limit_path_for_testing(paths[p]);
    int n1 = run_cavp_file("cavp/drbg/drbgvectors_no_reseed/CTR_DRBG.rsp");
    int n2 = run_cavp_file("cavp/drbg/drbgvectors_pr_false/CTR_DRBG.rsp");
    fprintf(stderr, "%s: CAVP: %d no_reseed + %d pr_false AES-256 cases\n",
            aes_test_path_name(paths[p]), n1, n2);
    /* 16 AES-256 groups of 15 cases per df setting and file. */
    CHECK_EQ_INT(n1, 480);
    CHECK_EQ_INT(n2, 480);
    int n3 = run_acvp();
    fprintf(stderr, "%s: ACVP: %d AES-256 ctrDRBG cases\n", aes_test_path_name(paths[p]), n3);
    CHECK_EQ_INT(n3, 60);
  }
  aes_limit_path_for_testing(0);
}

static const test_case cases[] = {
  TEST_CASE(vectors_every_path),
  TEST_CASE(limits),
  TEST_CASE(state_after_zero_seed),
  TEST_CASE(kept_schedule),
};

int main(int argc, char **argv) { return TEST_RUN(argc, argv, "test_drbg_kat", cases); }
