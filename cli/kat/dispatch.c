/* kat_run_file: recognise a vector file by its content (JSON or CAVP text; then the fields or
 * keys it holds; the NIST toolkit's worked examples by their banner) and hand it to the runner
 * for its algorithm. File names are not used, except to find the expectedResults.json that goes
 * with an ACVP prompt.json. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cli/acvp/acvp.h"
#include "cli/kat/kat_internal.h"

/* ---- CAVP text files -------------------------------------------------------------------- */

static int has_section_containing(const rsp_file *f, const char *text) {
  for (size_t i = 0; i < f->n; i++) {
    if (f->lines[i].type == RSP_SECTION && strstr(f->lines[i].key, text) != NULL) return 1;
  }
  return 0;
}

int kat_run_cavp(kat_ctx *c) {
  rsp_file f;
  int rc;
  if (rsp_parse(c, c->path, &f) < 0) {
    rsp_free(&f);
    return -1;
  }
  if (rsp_has_key(&f, "ReturnedBits")) {
    rc = kat_cavp_drbg(c, &f);
  } else if (rsp_has_key(&f, "Seed") && rsp_has_key(&f, "MD")) {
    rc = kat_cavp_sha_monte(c, &f);
  } else if (rsp_has_key(&f, "MD") && rsp_has_key(&f, "Len")) {
    rc = kat_cavp_sha(c, &f);
  } else if (rsp_has_key(&f, "Mac") && rsp_has_key(&f, "Tlen")) {
    rc = kat_cavp_hmac(c, &f);
  } else if (rsp_has_key(&f, "AAD") && ((rsp_has_key(&f, "Tag") && rsp_has_key(&f, "IV")) ||
                                         has_section_containing(&f, "Taglen"))) {
    /* GCMVS files; the internal-IV request has no IV or Tag, only its [Taglen] sections. */
    rc = kat_cavp_gcm(c, &f);
  } else if (rsp_has_key(&f, "KI") && rsp_has_key(&f, "KO")) {
    rc = kat_cavp_kbkdf(c, &f);
  } else if (rsp_has_key(&f, "KEY") &&
             (rsp_has_key(&f, "PLAINTEXT") || rsp_has_key(&f, "CIPHERTEXT"))) {
    rc = kat_cavp_aes(c, &f);
  } else if (rsp_has_key(&f, "SHAAlg") && rsp_has_key(&f, "S") &&
             (rsp_comment_has(&f, "X9.31") || rsp_comment_has(&f, "X9_31"))) {
    rc = kat_cavp_rsa_x931(c, &f);
  } else if (rsp_has_key(&f, "SHAAlg") && rsp_has_key(&f, "S")) {
    int pss = rsp_has_key(&f, "SaltVal") || rsp_comment_has(&f, "PSS");
    if (rsp_has_key(&f, "Result")) {
      rc = kat_cavp_rsa_sigver(c, &f, pss);
    } else {
      rc = kat_cavp_rsa_siggen(c, &f, pss);
    }
  } else if (rsp_has_key(&f, "EM") && rsp_has_key(&f, "S") && rsp_has_key(&f, "n")) {
    rc = kat_cavp_rsa_sp1(c, &f);
  } else if (rsp_has_key(&f, "c") && rsp_has_key(&f, "n") && rsp_has_key(&f, "Result")) {
    rc = kat_cavp_rsa_dp(c, &f);
  } else if (rsp_has_key(&f, "e") && (rsp_has_key(&f, "prandom") || rsp_has_key(&f, "xp1") ||
                                       rsp_has_key(&f, "Xp") || rsp_has_key(&f, "bitlen1"))) {
    rc = kat_cavp_rsa_keygen(c, &f);
  } else if (rsp_has_key(&f, "Qx") || rsp_has_key(&f, "QCAVSx")) {
    rc = kat_cavp_ec(c, &f);
  } else if (has_section_containing(&f, "ENCRYPT") || has_section_containing(&f, "DECRYPT")) {
    rc = kat_error(c, "%s: AES-style file without KEY/PLAINTEXT/CIPHERTEXT lines", c->path);
  } else {
    rc = kat_error(c, "%s: not a CAVP file of an algorithm the runner knows (SHA-2, HMAC, AES, "
                   "CTR_DRBG, RSA, AES-GCM, KBKDF, ECDSA, ECC CDH)", c->path);
  }
  rsp_free(&f);
  kat_arena_reset(c);
  return rc;
}

/* ---- JSON files ------------------------------------------------------------------------- */

static int starts_with(const char *s, const char *prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

static int run_wycheproof(kat_ctx *c, json_t *root, const char *schema) {
  const char *alg = "";
  json_t *a = json_object_get(root, "algorithm");
  if (json_is_string(a)) alg = json_string_value(a);
  if (starts_with(schema, "ind_cpa_test_schema") && strcmp(alg, "AES-CBC-PKCS5") == 0) {
    return kat_wp_aes_cbc_pkcs5(c, root);
  }
  if (starts_with(schema, "mac_test_schema")) {
    static const struct {
      const char *name;
      fm_hash_alg alg;
    } macs[] = {{"HMACSHA224", FM_HASH_SHA224},         {"HMACSHA256", FM_HASH_SHA256},
                {"HMACSHA384", FM_HASH_SHA384},         {"HMACSHA512", FM_HASH_SHA512},
                {"HMACSHA512/224", FM_HASH_SHA512_224}, {"HMACSHA512/256", FM_HASH_SHA512_256},
                {"HMACSHA3-224", FM_HASH_SHA3_224},     {"HMACSHA3-256", FM_HASH_SHA3_256},
                {"HMACSHA3-384", FM_HASH_SHA3_384},     {"HMACSHA3-512", FM_HASH_SHA3_512}};
    for (size_t i = 0; i < sizeof macs / sizeof macs[0]; i++) {
      if (strcmp(alg, macs[i].name) == 0) return kat_wp_hmac(c, root, macs[i].alg, alg);
    }
  }
  if (starts_with(schema, "aead_test_schema") && strcmp(alg, "AES-GCM") == 0) {
    return kat_wp_aes_gcm(c, root);
  }
  if (starts_with(schema, "hkdf_test_schema")) return kat_wp_hkdf(c, root, alg);
  if (starts_with(schema, "pbkdf_test_schema")) return kat_wp_pbkdf2(c, root, alg);
  if (starts_with(schema, "rsassa_pkcs1_verify_schema")) {
    return kat_wp_rsa_sig(c, root, WP_RSA_PKCS1_VERIFY);
  }
  if (starts_with(schema, "rsassa_pkcs1_generate_schema")) {
    return kat_wp_rsa_sig(c, root, WP_RSA_PKCS1_SIGN);
  }
  if (starts_with(schema, "mlkem_")) return kat_wp_mlkem(c, root, schema);
  if (starts_with(schema, "rsassa_pss_verify_schema")) {
    return kat_wp_rsa_sig(c, root, WP_RSA_PSS_VERIFY);
  }
  if (starts_with(schema, "mldsa_verify_schema")) return kat_wp_mldsa_verify(c, root, alg);
  if (starts_with(schema, "ecdsa_verify_schema")) return kat_wp_ecdsa(c, root, 0);
  if (starts_with(schema, "ecdsa_p1363_verify_schema")) return kat_wp_ecdsa(c, root, 1);
  if (starts_with(schema, "ecdh_test_schema")) return kat_wp_ecdh(c, root, 0);
  if (starts_with(schema, "ecdh_ecpoint_test_schema")) return kat_wp_ecdh(c, root, 1);
  if (starts_with(schema, "mldsa_sign_seed_schema")) return kat_wp_mldsa_sign(c, root, alg, 1);
  if (starts_with(schema, "mldsa_sign_noseed_schema")) return kat_wp_mldsa_sign(c, root, alg, 0);
  /* A well-formed file of an algorithm the module does not offer (AES-GCM-SIV, AES-GMAC, ECDSA,
   * ...): every test is a skip with the reason, not a malformed file. */
  json_t *groups = json_object_get(root, "testGroups");
  if (json_is_array(groups) && json_array_size(groups) > 0) {
    long total = 0;
    size_t gi;
    json_t *g;
    json_array_foreach(groups, gi, g) {
      json_t *tests = json_object_get(g, "tests");
      if (!json_is_array(tests)) {
        return kat_error(c, "%s: Wycheproof group %zu has no tests array", c->path, gi);
      }
      total += (long)json_array_size(tests);
    }
    kat_set_kind(c, "Wycheproof %s", alg[0] ? alg : schema);
    kat_skip_n(c, total, "Wycheproof %s (schema %s) is not offered by the module", alg[0] ? alg : "?",
               schema);
    return 0;
  }
  return kat_error(c, "%s: Wycheproof schema \"%s\" / algorithm \"%s\" without test groups", c->path,
                   schema, alg);
}

static json_t *load_json(kat_ctx *c, const char *path) {
  json_error_t err;
  json_t *root = json_load_file(path, JSON_DECODE_ANY, &err);
  if (root == NULL && err.line < 0) {
    kat_error(c, "%s: cannot open or read (%s)", path, err.text);
  } else if (root == NULL) {
    kat_error(c, "%s:%d:%d: malformed JSON: %s", path, err.line, err.column, err.text);
  }
  return root;
}

/* pair_path writes the sibling |name| of |path| (same directory) into out. */
static void pair_path(const char *path, const char *name, char *out, size_t cap) {
  const char *slash = strrchr(path, '/');
  size_t dir = slash ? (size_t)(slash - path + 1) : 0;
  snprintf(out, cap, "%.*s%s", (int)dir, path, name);
}

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

/* run_acvp_checked answers |set| with the ACVP responder and checks the response against
 * |expected| (the set itself for an internalProjection). */
static int run_acvp_checked(kat_ctx *c, json_t *set, json_t *expected) {
  json_t *resp = NULL;
  c->run_ldt = c->opt->large;
  if (acvp_respond(c, set, &resp) < 0) return -1;
  int rc = acvp_check(c, set, resp, expected);
  json_decref(resp);
  return rc;
}

/* run_acvp_file: an ACVP set. One with answers (internalProjection) is checked against
 * itself; a prompt against |answers_path| or the expectedResults.json beside it; an
 * expectedResults.json against the prompt.json beside it. */
static int run_acvp_file(kat_ctx *c, json_t *body, const char *answers_path) {
  const char *bn = base_name(c->path);
  int is_expected = answers_path == NULL && strcmp(bn, "expectedResults.json") == 0;
  size_t gi, ntests = 0;
  json_t *g;
  json_array_foreach(json_object_get(body, "testGroups"), gi, g) {
    ntests += json_array_size(json_object_get(g, "tests"));
  }
  /* With answers (or with no test at all) the set is its own reference. */
  if (answers_path == NULL && !is_expected && (ntests == 0 || acvp_has_answers(body))) {
    return run_acvp_checked(c, body, body);
  }
  char other[1024];
  if (answers_path != NULL) {
    snprintf(other, sizeof(other), "%s", answers_path);
  } else {
    pair_path(c->path, is_expected ? "prompt.json" : "expectedResults.json", other, sizeof(other));
  }
  json_t *oroot = load_json(c, other);
  if (oroot == NULL) {
    /* load_json recorded why, naming |other|; the report must name the file that was run too. */
    char why[sizeof c->report->errmsg];
    snprintf(why, sizeof why, "%s", c->report->errmsg);
    c->report->error = 0;
    return kat_error(c, "%s: its answers: %s", c->path, why);
  }
  json_t *obody = acvp_body(oroot);
  int rc;
  if (obody == NULL) {
    rc = kat_error(c, "%s: no vector set in %s", c->path, other);
  } else if (is_expected) {
    rc = run_acvp_checked(c, obody, body);
  } else {
    rc = run_acvp_checked(c, body, obody);
  }
  json_decref(oroot);
  return rc;
}

static int run_json_file(kat_ctx *c, const char *answers_path) {
  json_t *root = load_json(c, c->path);
  if (root == NULL) return -1;
  int rc;
  json_t *body = acvp_body(root);
  json_t *schema = body ? json_object_get(body, "schema") : NULL;
  if (body != NULL && json_is_string(schema) && answers_path == NULL) {
    rc = run_wycheproof(c, body, json_string_value(schema));
  } else if (body != NULL && json_is_string(json_object_get(body, "algorithm"))) {
    rc = run_acvp_file(c, body, answers_path);
  } else {
    rc = kat_error(c, "%s: JSON file is neither an ACVP vector set (no \"algorithm\") nor a "
                   "Wycheproof file (no \"schema\")", c->path);
  }
  json_decref(root);
  kat_arena_reset(c);
  return rc;
}

/* looks_like_json decides from the first bytes: '{' is JSON; '[' is JSON unless its line is a
 * CAVP section header such as "[ENCRYPT]" or "[L = 32]" (no quotes or braces, closed on the
 * same line). */
static int looks_like_json(const char *head, size_t n) {
  size_t i = 0;
  if (n >= 3 && (unsigned char)head[0] == 0xEF && (unsigned char)head[1] == 0xBB &&
      (unsigned char)head[2] == 0xBF) {
    i = 3; /* UTF-8 byte order mark */
  }
  while (i < n && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' || head[i] == '\n')) i++;
  if (i == n) return 0;
  if (head[i] == '{') return 1;
  if (head[i] != '[') return 0;
  size_t e = i;
  while (e < n && head[e] != '\n') e++;
  while (e > i && (head[e - 1] == '\r' || head[e - 1] == ' ' || head[e - 1] == '\t' ||
                   head[e - 1] == '\n')) {
    e--;
  }
  if (e - i < 3 || head[e - 1] != ']') return 1;
  for (size_t k = i; k < e; k++) {
    if (head[k] == '"' || head[k] == '{' || head[k] == ',') return 1;
  }
  return 0;
}

static int run_file(const char *path, const char *answers_path, const kat_options *opt,
                    kat_report *r) {
  static const kat_options defaults = {0};
  memset(r, 0, sizeof(*r));
  snprintf(r->path, sizeof(r->path), "%s", path);
  kat_ctx c = {.report = r, .opt = opt ? opt : &defaults, .path = path};
  struct stat st;
  FILE *fp = NULL;
  int rc;
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
    rc = kat_error(&c, "%s: is a directory, not a vector file", path);
  } else if ((fp = fopen(path, "rb")) == NULL) {
    rc = kat_error(&c, "%s: cannot open", path);
  } else {
    char head[4096];
    size_t n = fread(head, 1, sizeof(head), fp);
    fclose(fp);
    if (n == 0) {
      rc = kat_error(&c, "%s: empty file", path);
    } else if (looks_like_json(head, n)) {
      rc = run_json_file(&c, answers_path);
    } else if (kat_toolkit_detect(head, n)) {
      rc = kat_run_toolkit(&c);
    } else {
      rc = kat_run_cavp(&c);
    }
  }
  /* Every reader that gives up records why; should one not, the report is still an error. */
  if (rc < 0 && !r->error) {
    r->no_reason = 1;
    kat_error(&c, "%s: the reader stopped without recording why (a defect of the runner)", path);
  }
  kat_arena_reset(&c);
  free(c.arena);
  if (r->error) rc = -1;
  return rc;
}

int kat_run_file(const char *path, const kat_options *opt, kat_report *r) {
  return run_file(path, NULL, opt, r);
}

int kat_run_pair(const char *prompt, const char *expected, const kat_options *opt, kat_report *r) {
  return run_file(prompt, expected, opt, r);
}

int kat_is_answer_file_for(const char *prompt, const char *expected) {
  json_error_t err;
  json_t *a = json_load_file(prompt, JSON_DECODE_ANY, &err);
  json_t *b = a ? json_load_file(expected, JSON_DECODE_ANY, &err) : NULL;
  json_t *pa = a ? acvp_body(a) : NULL, *pb = b ? acvp_body(b) : NULL;
  /* An expectedResults file carries answers, or at least groups without the prompt's
   * testType (its groups hold tgId and tests only). */
  int answers = 0;
  if (pb != NULL) {
    answers = acvp_has_answers(pb);
    size_t gi;
    json_t *g;
    int typed = 0;
    json_array_foreach(json_object_get(pb, "testGroups"), gi, g) {
      typed |= json_object_get(g, "testType") != NULL;
    }
    answers |= !typed && json_array_size(json_object_get(pb, "testGroups")) > 0;
  }
  /* Wycheproof files (they carry a "schema") are never ACVP prompts or answers. */
  int wycheproof = (pa && json_object_get(pa, "schema")) || (pb && json_object_get(pb, "schema"));
  int yes = pa != NULL && pb != NULL && !wycheproof && !acvp_has_answers(pa) && answers &&
            json_equal(json_object_get(pa, "algorithm"), json_object_get(pb, "algorithm")) &&
            (json_object_get(pa, "vsId") == NULL || json_object_get(pb, "vsId") == NULL ||
             json_equal(json_object_get(pa, "vsId"), json_object_get(pb, "vsId")));
  json_decref(a);
  json_decref(b);
  return yes;
}
