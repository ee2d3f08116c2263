/* KDF known answers:
 *   - RFC 5869 Appendix A, test cases 1 and 3 (HKDF-SHA-256: PRK and OKM), hard-coded;
 *   - Wycheproof hkdf_sha256_test.json (the "invalid" cases ask for more than 255 * HashLen
 *     bytes and must get FM_ERR_LENGTH);
 *   - Wycheproof pbkdf2_hmacsha256_test.json (PBKDF2-HMAC-SHA-256);
 *   - CAVP KDFCTR_gen.rsp: SP 800-108 counter mode, the HMAC-SHA-256/384/512 sections with the
 *     counter before, after and in the middle of the fixed data, 8- to 32-bit counters (the
 *     CMAC, SHA-1 and SHA-224 sections are skipped: the module does not offer those PRFs).
 * Files in tests/vectors (see tests/vectors/SOURCES.md). */
#define _GNU_SOURCE
#include <jansson.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "fipsmod/kdf.h"
#include "tests/common/test_util.h"

static uint8_t *dup_hex(const char *h, size_t *len) {
  const size_t n = strlen(h);
  uint8_t *b = malloc(n / 2 + 1);
  long got = test_hex_decode(h, b, n / 2 + 1);
  CHECK(got >= 0);
  *len = got < 0 ? 0 : (size_t)got;
  return b;
}

static void test_rfc5869(void) {
  static const struct {
    const char *ikm, *salt, *info, *prk, *okm;
  } v[] = {
      /* A.1 */
      {"0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", "000102030405060708090a0b0c",
       "f0f1f2f3f4f5f6f7f8f9", "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5",
       "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"},
      /* A.3: no salt, no info */
      {"0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", "", "",
       "19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04",
       "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"},
  };
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
    size_t ikm_len, salt_len, info_len, prk_len, okm_len;
    uint8_t *ikm = dup_hex(v[i].ikm, &ikm_len), *salt = dup_hex(v[i].salt, &salt_len),
            *info = dup_hex(v[i].info, &info_len), *prk = dup_hex(v[i].prk, &prk_len),
            *okm = dup_hex(v[i].okm, &okm_len);
    uint8_t got_prk[64], got[128];
    CHECK_EQ_INT(fm_hkdf_extract(FM_HASH_SHA256, salt_len ? salt : NULL, salt_len, ikm, ikm_len,
                                 got_prk, sizeof got_prk),
                 FM_OK);
    CHECK_MEM(got_prk, prk, 32);
    CHECK_EQ_INT(fm_hkdf_expand(FM_HASH_SHA256, got_prk, 32, info_len ? info : NULL, info_len, got,
                                okm_len),
                 FM_OK);
    CHECK_MEM(got, okm, okm_len);
    memset(got, 0, sizeof got);
    CHECK_EQ_INT(fm_hkdf(FM_HASH_SHA256, ikm, ikm_len, salt_len ? salt : NULL, salt_len,
                         info_len ? info : NULL, info_len, got, okm_len),
                 FM_OK);
    CHECK_MEM(got, okm, okm_len);
    free(ikm), free(salt), free(info), free(prk), free(okm);
  }
}

static json_t *load_json(const char *name) {
  char path[512];
  snprintf(path, sizeof path, "%s/wycheproof/%s", FIPSMOD_VECTORS_DIR, name);
  json_error_t err;
  json_t *root = json_load_file(path, 0, &err);
  CHECK(root != NULL);
  return root;
}

static const char *str(json_t *t, const char *k) { return json_string_value(json_object_get(t, k)); }

static void test_wycheproof_hkdf(void) {
  json_t *root = load_json("hkdf_sha256_test.json"), *g, *t;
  if (root == NULL) return;
  size_t gi, ti, n = 0, invalid = 0;
  json_array_foreach(json_object_get(root, "testGroups"), gi, g) {
    json_array_foreach(json_object_get(g, "tests"), ti, t) {
      size_t ikm_len, salt_len, info_len, okm_len;
      uint8_t *ikm = dup_hex(str(t, "ikm"), &ikm_len), *salt = dup_hex(str(t, "salt"), &salt_len),
              *info = dup_hex(str(t, "info"), &info_len), *okm = dup_hex(str(t, "okm"), &okm_len);
      const size_t size = (size_t)json_integer_value(json_object_get(t, "size"));
      const bool valid = strcmp(str(t, "result"), "valid") == 0;
      uint8_t *out = malloc(size + 1);
      memset(out, 0xaa, size + 1);
      const int st = fm_hkdf(FM_HASH_SHA256, ikm, ikm_len, salt, salt_len, info, info_len, out, size);
      if (valid) {
        CHECK_EQ_INT(st, FM_OK);
        CHECK(okm_len == size);
        CHECK_MEM(out, okm, size);
      } else {
        CHECK_EQ_INT(st, FM_ERR_LENGTH);
        invalid++;
      }
      CHECK(out[size] == 0xaa);
      if (test_failures) fprintf(stderr, "  hkdf tcId %lld\n", json_integer_value(json_object_get(t, "tcId")));
      free(ikm), free(salt), free(info), free(okm), free(out);
      n++;
    }
  }
  json_decref(root);
  fprintf(stderr, "hkdf_sha256_test.json: %zu cases, %zu rejected\n", n, invalid);
  CHECK(n >= 80 && invalid >= 3);
}

static void test_wycheproof_pbkdf2(void) {
  json_t *root = load_json("pbkdf2_hmacsha256_test.json"), *g, *t;
  if (root == NULL) return;
  size_t gi, ti, n = 0;
  json_array_foreach(json_object_get(root, "testGroups"), gi, g) {
    json_array_foreach(json_object_get(g, "tests"), ti, t) {
      size_t pw_len, salt_len, dk_len;
      uint8_t *pw = dup_hex(str(t, "password"), &pw_len), *salt = dup_hex(str(t, "salt"), &salt_len),
              *dk = dup_hex(str(t, "dk"), &dk_len);
      const uint64_t iters = (uint64_t)json_integer_value(json_object_get(t, "iterationCount"));
      const size_t size = (size_t)json_integer_value(json_object_get(t, "dkLen"));
      CHECK(strcmp(str(t, "result"), "valid") == 0);
      uint8_t *out = malloc(size + 1);
      memset(out, 0xaa, size + 1);
      CHECK_EQ_INT(fm_pbkdf2_hmac(FM_HASH_SHA256, pw, pw_len, salt, salt_len, iters, out, size),
                   FM_OK);
      CHECK(dk_len == size);
      CHECK_MEM(out, dk, size);
      CHECK(out[size] == 0xaa);
      free(pw), free(salt), free(dk), free(out);
      n++;
    }
  }
  json_decref(root);
  fprintf(stderr, "pbkdf2_hmacsha256_test.json: %zu cases\n", n);
  CHECK(n >= 60);
}

/* ---- CAVP SP 800-108 counter mode --------------------------------------------------------- */

static void test_cavp_kbkdf(void) {
  char path[512];
  snprintf(path, sizeof path, "%s/cavp/kbkdf/CounterMode/KDFCTR_gen.rsp", FIPSMOD_VECTORS_DIR);
  FILE *f = fopen(path, "r");
  CHECK(f != NULL);
  if (f == NULL) return;
  char *line = NULL;
  size_t cap = 0;
  fm_hash_alg alg = 0;
  int loc = 0; /* 1 before, 2 after, 3 middle */
  unsigned rbits = 0;
  size_t lbits = 0, ki_len = 0, before_len = 0, after_len = 0, ko_len = 0;
  uint8_t *ki = NULL, *before = NULL, *after = NULL, *ko = NULL;
  long n = 0, per_loc[4] = {0};
  for (;;) {
    ssize_t r = getline(&line, &cap, f);
    if (r >= 0) {
      while (r > 0 && (line[r - 1] == '\n' || line[r - 1] == '\r')) line[--r] = 0;
    }
    if (r < 0 || strncmp(line, "COUNT=", 6) == 0 || line[0] == '[') {
      if (ki != NULL && ko != NULL && alg != 0) {
        /* The fixed data as one string with the counter at |pos|. */
        uint8_t fixed[1024];
        size_t flen = 0, pos = 0;
        memcpy(fixed, before, before_len);
        flen = before_len;
        if (loc == 3) {
          pos = before_len;
          memcpy(fixed + flen, after, after_len);
          flen += after_len;
        } else {
          pos = loc == 1 ? 0 : flen;
        }
        uint8_t out[256];
        CHECK(lbits % 8 == 0 && lbits / 8 <= sizeof out && ko_len == lbits / 8);
        CHECK_EQ_INT(fm_kbkdf_ctr_hmac(alg, ki, ki_len, fixed, flen, pos, rbits, out, lbits / 8),
                     FM_OK);
        CHECK_MEM(out, ko, lbits / 8);
        n++;
        per_loc[loc]++;
      }
      free(ki), free(before), free(after), free(ko);
      ki = before = after = ko = NULL;
      before_len = after_len = 0;
      if (r < 0) break;
      if (strncmp(line, "[PRF=", 5) == 0) {
        alg = strcmp(line, "[PRF=HMAC_SHA256]") == 0   ? FM_HASH_SHA256
              : strcmp(line, "[PRF=HMAC_SHA384]") == 0 ? FM_HASH_SHA384
              : strcmp(line, "[PRF=HMAC_SHA512]") == 0 ? FM_HASH_SHA512
                                                       : 0;
      } else if (strncmp(line, "[CTRLOCATION=", 13) == 0) {
        loc = strstr(line, "BEFORE") ? 1 : strstr(line, "AFTER") ? 2 : 3;
      } else if (strncmp(line, "[RLEN=", 6) == 0) {
        rbits = (unsigned)atoi(line + 6);
      }
      continue;
    }
    char *eq = strstr(line, " = ");
    if (eq == NULL) continue;
    *eq = 0;
    const char *k = line, *v = eq + 3;
    if (strcmp(k, "L") == 0) lbits = (size_t)atol(v);
    else if (strcmp(k, "KI") == 0) ki = dup_hex(v, &ki_len);
    else if (strcmp(k, "FixedInputData") == 0 || strcmp(k, "DataBeforeCtrData") == 0) before = dup_hex(v, &before_len);
    else if (strcmp(k, "DataAfterCtrData") == 0) after = dup_hex(v, &after_len);
    else if (strcmp(k, "KO") == 0) ko = dup_hex(v, &ko_len);
  }
  free(line);
  fclose(f);
  fprintf(stderr, "KDFCTR_gen.rsp: %ld HMAC-SHA-2 cases (before %ld, after %ld, middle %ld)\n", n,
          per_loc[1], per_loc[2], per_loc[3]);
  CHECK(n == 1440 && per_loc[1] == 480 && per_loc[2] == 480 && per_loc[3] == 480);
}

static const test_case cases[] = {
  TEST_CASE(rfc5869),
  TEST_CASE(wycheproof_hkdf),
  TEST_CASE(wycheproof_pbkdf2),
  TEST_CASE(cavp_kbkdf),
};

int main(int argc, char **argv) {
  return TEST_RUN(argc, argv, "test_kdf_kat", cases);
}
