/* AES-GCM known answers on every (AES, GHASH) path this machine has (gcm_test_paths.h):
 *   - NIST CAVP gcmEncryptExtIV128.rsp / gcmEncryptExtIV256.rsp (encryption with external IVs
 *     of many lengths, all tag lengths) and gcmDecrypt128.rsp (its FAIL cases must be
 *     rejected with FM_ERR_VERIFY and a wiped plaintext);
 *   - the SP 800-38D worked examples (NIST toolkit AES_GCM.txt, AES-128, AES-192 and AES-256:
 *     the test cases of the GCM specification);
 *   - Wycheproof aes_gcm_test.json (valid and invalid cases, every key size; a zero-length IV
 *     must be refused with FM_ERR_LENGTH).
 * Every valid case runs one-shot and streaming (AAD and text split at several points). The
 * files are in tests/vectors (see tests/vectors/SOURCES.md). */
#define _GNU_SOURCE
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "fipsmod/gcm.h"
#include "tests/common/test_util.h"
#include "tests/gcm/gcm_test_paths.h"

static gcm_path g_paths[12];
static int g_npaths;
static long g_cases, g_rejected;

typedef struct gcm_case {
  uint8_t *key, *iv, *aad, *pt, *ct, *tag;
  size_t klen, ivlen, alen, plen, taglen;
  bool valid;
  const char *where;
  long id;
} gcm_case;

/* streaming runs the case through the streaming API with the AAD split at |as| and the text at
 * |s1| and |s2| (clamped to the lengths). */
static void streaming(fm_gcm_key *k, const gcm_case *c, size_t as, size_t s1, size_t s2,
                      uint8_t *out) {
  fm_gcm_ctx ctx;
  uint8_t tag[16];
  if (as > c->alen) as = c->alen;
  if (s1 > c->plen) s1 = c->plen;
  if (s2 > c->plen - s1) s2 = c->plen - s1;
  const size_t splits[3] = {s1, s2, c->plen - s1 - s2};
  for (int dec = 0; dec < 2; dec++) {
    if (dec && !c->valid) {
      CHECK_EQ_INT(fm_gcm_decrypt_init(&ctx, k, c->iv, c->ivlen), FM_OK);
    } else if (dec) {
      CHECK_EQ_INT(fm_gcm_decrypt_init(&ctx, k, c->iv, c->ivlen), FM_OK);
    } else {
      if (!c->valid) continue;
      CHECK_EQ_INT(fm_gcm_encrypt_init_with_iv(&ctx, k, c->iv, c->ivlen), FM_OK);
    }
    CHECK_EQ_INT(fm_gcm_aad(&ctx, c->aad, as), FM_OK);
    CHECK_EQ_INT(fm_gcm_aad(&ctx, c->aad + as, c->alen - as), FM_OK);
    const uint8_t *in = dec ? c->ct : c->pt;
    size_t off = 0;
    for (int i = 0; i < 3; i++) {
      CHECK_EQ_INT(fm_gcm_update(&ctx, in + off, out + off, splits[i]), FM_OK);
      off += splits[i];
    }
    if (dec) {
      CHECK_EQ_INT(fm_gcm_decrypt_final(&ctx, c->tag, c->taglen), c->valid ? FM_OK : FM_ERR_VERIFY);
      if (c->valid) CHECK_MEM(out, c->pt, c->plen);
    } else {
      CHECK_EQ_INT(fm_gcm_encrypt_final(&ctx, tag, c->taglen), FM_OK);
      CHECK_MEM(out, c->ct, c->plen);
      CHECK_MEM(tag, c->tag, c->taglen);
    }
  }
}

static void run_case(const gcm_case *c) {
  g_cases++;
  const int before = test_failures;
  fm_gcm_key k;
  if (c->klen != 16 && c->klen != 24 && c->klen != 32) {
    CHECK_EQ_INT(fm_gcm_key_init(&k, c->key, c->klen), FM_ERR_KEY_SIZE);
    g_rejected++;
    return;
  }
  uint8_t *out = malloc(c->plen + 1);
  uint8_t tag[16];
  for (int p = 0; p < g_npaths; p++) {
    gcm_use_path(g_paths[p]);
    CHECK_EQ_INT(fm_gcm_key_init(&k, c->key, c->klen), FM_OK);
    if (c->ivlen == 0) {
      /* SP 800-38D 5.2.1.1: len(IV) >= 1. */
      CHECK_EQ_INT(fm_gcm_open(&k, c->iv, 0, c->aad, c->alen, c->ct, c->plen, c->tag, c->taglen,
                               out),
                   FM_ERR_LENGTH);
      CHECK_EQ_INT(fm_gcm_seal_with_iv(&k, c->iv, 0, c->aad, c->alen, c->pt, c->plen, out, tag,
                                       c->taglen),
                   FM_ERR_LENGTH);
      if (p == 0) g_rejected++;
      continue;
    }
    if (c->valid) {
      memset(out, 0xaa, c->plen + 1);
      CHECK_EQ_INT(fm_gcm_seal_with_iv(&k, c->iv, c->ivlen, c->aad, c->alen, c->pt, c->plen, out,
                                       tag, c->taglen),
                   FM_OK);
      CHECK_MEM(out, c->ct, c->plen);
      CHECK_MEM(tag, c->tag, c->taglen);
      CHECK(out[c->plen] == 0xaa); /* nothing past the output */
    }
    memset(out, 0xaa, c->plen + 1);
    const int st = fm_gcm_open(&k, c->iv, c->ivlen, c->aad, c->alen, c->ct, c->plen, c->tag,
                               c->taglen, out);
    if (c->valid) {
      CHECK_EQ_INT(st, FM_OK);
      CHECK_MEM(out, c->pt, c->plen);
    } else {
      CHECK_EQ_INT(st, FM_ERR_VERIFY);
      CHECK(test_is_all_zero(out, c->plen)); /* the whole plaintext taken back */
      if (p == 0) g_rejected++;
    }
    CHECK(out[c->plen] == 0xaa);
    streaming(&k, c, c->alen / 2, 1, 17, out);
    streaming(&k, c, 0, c->plen / 3, 16, out);
    CHECK_EQ_INT(fm_gcm_key_wipe(&k), FM_OK);
  }
  gcm_use_all_paths();
  free(out);
  if (test_failures != before) {
    fprintf(stderr, "  in %s case %ld\n", c->where, c->id);
  }
}

/* ---- Hex fields --------------------------------------------------------------------------- */

static uint8_t *dup_hex(const char *h, size_t *len) {
  const size_t n = strlen(h);
  uint8_t *b = malloc(n / 2 + 1);
  long got = test_hex_decode(h, b, n / 2 + 1);
  CHECK(got >= 0);
  *len = got < 0 ? 0 : (size_t)got;
  return b;
}

static void free_case(gcm_case *c) {
  free(c->key);
  free(c->iv);
  free(c->aad);
  free(c->pt);
  free(c->ct);
  free(c->tag);
  memset(c, 0, sizeof *c);
}

/* ---- CAVP .rsp ---------------------------------------------------------------------------- */

static void run_rsp(const char *name) {
  char path[512];
  snprintf(path, sizeof path, "%s/cavp/mac/gcmtestvectors/%s", FIPSMOD_VECTORS_DIR, name);
  FILE *f = fopen(path, "r");
  CHECK(f != NULL);
  if (f == NULL) return;
  char *line = NULL;
  size_t cap = 0;
  gcm_case c = {0};
  bool have = false, is_decrypt = strstr(name, "Decrypt") != NULL;
  long n = 0;
  for (;;) {
    ssize_t r = getline(&line, &cap, f);
    if (r >= 0) {
      while (r > 0 && (line[r - 1] == '\n' || line[r - 1] == '\r')) line[--r] = 0;
    }
    if (r < 0 || r == 0) {
      if (have && c.key != NULL && c.tag != NULL) {
        if (c.pt == NULL) c.pt = malloc(1), c.plen = 0;
        if (c.ct == NULL) c.ct = malloc(1);
        if (c.aad == NULL) c.aad = malloc(1);
        if (!is_decrypt) c.valid = true;
        c.where = name;
        c.id = n++;
        run_case(&c);
      }
      free_case(&c);
      have = false;
      if (r < 0) break;
      continue;
    }
    char *eq = strstr(line, " = ");
    if (strcmp(line, "FAIL") == 0) {
      c.valid = false;
      continue;
    }
    if (line[0] == '[' || line[0] == '#' || eq == NULL) {
      /* "Key = " etc. with an empty value also ends in " =" */
      size_t l = strlen(line);
      if (l >= 2 && line[l - 1] == '=' && line[l - 2] == ' ') {
        line[l - 2] = 0;
        eq = line + l - 2;
        *eq = 0;
        const char *k = line;
        size_t dummy;
        uint8_t *e = dup_hex("", &dummy);
        if (strcmp(k, "AAD") == 0) c.aad = e, c.alen = 0;
        else if (strcmp(k, "PT") == 0) c.pt = e, c.plen = 0, c.valid = true;
        else if (strcmp(k, "CT") == 0) c.ct = e;
        else free(e);
      }
      continue;
    }
    *eq = 0;
    const char *k = line, *v = eq + 3;
    size_t len;
    if (strcmp(k, "Count") == 0) {
      have = true;
      continue;
    }
    uint8_t *b = dup_hex(v, &len);
    if (strcmp(k, "Key") == 0) c.key = b, c.klen = len;
    else if (strcmp(k, "IV") == 0) c.iv = b, c.ivlen = len;
    else if (strcmp(k, "PT") == 0) c.pt = b, c.plen = len, c.valid = true;
    else if (strcmp(k, "AAD") == 0) c.aad = b, c.alen = len;
    else if (strcmp(k, "CT") == 0) c.ct = b, c.plen = len;
    else if (strcmp(k, "Tag") == 0) c.tag = b, c.taglen = len;
    else free(b);
  }
  free(line);
  fclose(f);
  fprintf(stderr, "%s: %ld cases\n", name, n);
  CHECK(n > 1000);
}

/* ---- SP 800-38D worked examples (NIST toolkit AES_GCM.txt) --------------------------------- */

/* The file prints each value under a "X is" line as groups of hex digits over one or more
 * lines, or "<empty>". Only the Encrypt-Generate half of each example is read (its P, C and
 * Tag); the decrypt half repeats them. */
static void run_toolkit(void) {
  char path[512];
  snprintf(path, sizeof path, "%s/nist-toolkit-examples/AES_GCM.txt", FIPSMOD_VECTORS_DIR);
  FILE *f = fopen(path, "r");
  CHECK(f != NULL);
  if (f == NULL) return;
  char *line = NULL;
  size_t cap = 0;
  char field[16] = "", hex[8192] = "";
  char vals[6][8192];
  const char *names[6] = {"K", "IV", "A", "P", "C", "Tag"};
  bool seen[6] = {0};
  int keybits = 0, examples = 0;
  bool in_decrypt = false;
  for (;;) {
    ssize_t r = getline(&line, &cap, f);
    if (r >= 0) {
      while (r > 0 && (line[r - 1] == '\n' || line[r - 1] == '\r' || line[r - 1] == ' ')) line[--r] = 0;
    }
    bool is_hex = r > 0;
    for (ssize_t i = 0; i < r; i++) {
      char ch = line[i];
      if (!((ch >= '0' && ch <= '9') || (ch >= 'A' && ch <= 'F') || (ch >= 'a' && ch <= 'f') ||
            ch == ' ')) {
        is_hex = false;
      }
    }
    if (r > 0 && (is_hex || strcmp(line, "<empty>") == 0) && field[0] != 0) {
      if (is_hex) {
        for (ssize_t i = 0; i < r; i++) {
          if (line[i] != ' ') strncat(hex, line + i, 1);
        }
      }
      continue;
    }
    if (r == 0 && field[0] != 0 && hex[0] == 0) continue; /* blank lines inside the counter blocks */
    /* The end of a value. */
    if (field[0] != 0) {
      for (int i = 0; i < 6; i++) {
        if (strcmp(field, names[i]) == 0 && !seen[i] && !in_decrypt) {
          strcpy(vals[i], hex);
          seen[i] = true;
        }
      }
      field[0] = 0;
      hex[0] = 0;
    }
    if (r < 0 || strncmp(line, "Example #", 9) == 0 || strncmp(line, "GCM-AES", 7) == 0 ||
        strncmp(line, "=====", 5) == 0) {
      bool all = true;
      for (int i = 0; i < 6; i++) all = all && seen[i];
      if (all) {
        gcm_case c = {0};
        c.key = dup_hex(vals[0], &c.klen);
        c.iv = dup_hex(vals[1], &c.ivlen);
        c.aad = dup_hex(vals[2], &c.alen);
        c.pt = dup_hex(vals[3], &c.plen);
        size_t clen;
        c.ct = dup_hex(vals[4], &clen);
        c.tag = dup_hex(vals[5], &c.taglen);
        CHECK(clen == c.plen);
        CHECK((int)c.klen * 8 == keybits);
        c.valid = true;
        c.where = "AES_GCM.txt";
        c.id = examples++;
        run_case(&c);
        free_case(&c);
      }
      memset(seen, 0, sizeof seen);
      in_decrypt = false;
      if (r < 0) break;
      if (strncmp(line, "GCM-AES", 7) == 0) keybits = atoi(line + 7);
      continue;
    }
    if (strcmp(line, "Decrypt-Verify") == 0) in_decrypt = true;
    size_t l = strlen(line);
    if (l > 3 && strcmp(line + l - 3, " is") == 0 && l - 3 < sizeof field) {
      memcpy(field, line, l - 3);
      field[l - 3] = 0;
    }
  }
  free(line);
  fclose(f);
  fprintf(stderr, "AES_GCM.txt: %d examples (AES-128, AES-192, AES-256)\n", examples);
  CHECK(examples >= 18);
}

/* ---- Wycheproof --------------------------------------------------------------------------- */

static void run_wycheproof(void) {
  char path[512];
  snprintf(path, sizeof path, "%s/wycheproof/aes_gcm_test.json", FIPSMOD_VECTORS_DIR);
  json_error_t err;
  json_t *root = json_load_file(path, 0, &err);
  CHECK(root != NULL);
  if (root == NULL) return;
  json_t *groups = json_object_get(root, "testGroups"), *g;
  size_t gi, n = 0;
  json_array_foreach(groups, gi, g) {
    json_t *tests = json_object_get(g, "tests"), *t;
    size_t ti;
    json_array_foreach(tests, ti, t) {
      gcm_case c = {0};
      size_t clen;
      c.key = dup_hex(json_string_value(json_object_get(t, "key")), &c.klen);
      c.iv = dup_hex(json_string_value(json_object_get(t, "iv")), &c.ivlen);
      c.aad = dup_hex(json_string_value(json_object_get(t, "aad")), &c.alen);
      c.pt = dup_hex(json_string_value(json_object_get(t, "msg")), &c.plen);
      c.ct = dup_hex(json_string_value(json_object_get(t, "ct")), &clen);
      c.tag = dup_hex(json_string_value(json_object_get(t, "tag")), &c.taglen);
      c.valid = strcmp(json_string_value(json_object_get(t, "result")), "valid") == 0;
      c.where = "aes_gcm_test.json";
      c.id = (long)json_integer_value(json_object_get(t, "tcId"));
      CHECK(clen == c.plen);
      run_case(&c);
      free_case(&c);
      n++;
    }
  }
  json_decref(root);
  fprintf(stderr, "aes_gcm_test.json: %zu cases\n", n);
  CHECK(n > 200);
}

static void test_nist_toolkit(void) { run_toolkit(); }
static void test_cavp_encrypt_128(void) { run_rsp("gcmEncryptExtIV128.rsp"); }
static void test_cavp_encrypt_256(void) { run_rsp("gcmEncryptExtIV256.rsp"); }
static void test_cavp_decrypt_128(void) { run_rsp("gcmDecrypt128.rsp"); }
static void test_wycheproof(void) { run_wycheproof(); }

static const test_case cases[] = {
  TEST_CASE(nist_toolkit),
  TEST_CASE(cavp_encrypt_128),
  TEST_CASE(cavp_encrypt_256),
  TEST_CASE(cavp_decrypt_128),
  TEST_CASE(wycheproof),
};

int main(int argc, char **argv) {
  g_npaths = gcm_test_paths(g_paths);
  for (int p = 0; p < g_npaths; p++) {
    fprintf(stderr, "path: aes=%s ghash=%s\n", aes_test_path_name(g_paths[p].aes),
            ghash_test_path_name(g_paths[p].ghash));
  }
  const int rc = TEST_RUN(argc, argv, "test_gcm_kat", cases);
  fprintf(stderr, "%ld cases, %ld rejected as they must be\n", g_cases, g_rejected);
  return rc;
}
