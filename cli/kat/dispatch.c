/* kat_run_file: recognise a vector file by its content (JSON or CAVP text; then the fields or
 * keys it holds) and hand it to the runner for its algorithm. File names are not used, except
 * to find the expectedResults.json that goes with an ACVP prompt.json. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

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
  } else if (rsp_has_key(&f, "KEY") &&
             (rsp_has_key(&f, "PLAINTEXT") || rsp_has_key(&f, "CIPHERTEXT"))) {
    rc = kat_cavp_aes(c, &f);
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
  } else if (has_section_containing(&f, "ENCRYPT") || has_section_containing(&f, "DECRYPT")) {
    rc = kat_error(c, "%s: AES-style file without KEY/PLAINTEXT/CIPHERTEXT lines", c->path);
  } else {
    rc = kat_error(c, "%s: not a CAVP file of an algorithm the runner knows (SHA-2, HMAC, AES, "
                   "CTR_DRBG, RSA)", c->path);
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
    if (strcmp(alg, "HMACSHA256") == 0) return kat_wp_hmac(c, root, 256);
    if (strcmp(alg, "HMACSHA384") == 0) return kat_wp_hmac(c, root, 384);
    if (strcmp(alg, "HMACSHA512") == 0) return kat_wp_hmac(c, root, 512);
  }
  if (starts_with(schema, "rsassa_pkcs1_verify_schema")) {
    return kat_wp_rsa_sig(c, root, WP_RSA_PKCS1_VERIFY);
  }
  if (starts_with(schema, "rsassa_pkcs1_generate_schema")) {
    return kat_wp_rsa_sig(c, root, WP_RSA_PKCS1_SIGN);
  }
  if (starts_with(schema, "rsassa_pss_verify_schema")) {
    return kat_wp_rsa_sig(c, root, WP_RSA_PSS_VERIFY);
  }
  return kat_error(c, "%s: Wycheproof schema \"%s\" / algorithm \"%s\": not offered by the module "
                   "or not known to the runner", c->path, schema, alg);
}

static int run_acvp(kat_ctx *c, json_t *root) {
  const char *alg, *mode = NULL;
  if (kj_str(c, root, "algorithm", "vector set", &alg) < 0) return -1;
  json_t *m = json_object_get(root, "mode");
  if (json_is_string(m)) mode = json_string_value(m);
  if (strcmp(alg, "SHA2-256") == 0) return kat_acvp_sha2(c, root, 256);
  if (strcmp(alg, "SHA2-384") == 0) return kat_acvp_sha2(c, root, 384);
  if (strcmp(alg, "SHA2-512") == 0) return kat_acvp_sha2(c, root, 512);
  if (strcmp(alg, "HMAC-SHA2-256") == 0) return kat_acvp_hmac(c, root, 256);
  if (strcmp(alg, "HMAC-SHA2-384") == 0) return kat_acvp_hmac(c, root, 384);
  if (strcmp(alg, "HMAC-SHA2-512") == 0) return kat_acvp_hmac(c, root, 512);
  if (strcmp(alg, "ACVP-AES-ECB") == 0) return kat_acvp_aes(c, root, 0);
  if (strcmp(alg, "ACVP-AES-CBC") == 0) return kat_acvp_aes(c, root, 1);
  if (strcmp(alg, "ctrDRBG") == 0) return kat_acvp_drbg(c, root);
  if (strcmp(alg, "RSA") == 0 && mode != NULL) return kat_acvp_rsa(c, root, mode);
  return kat_error(c, "%s: ACVP algorithm \"%s\"%s%s: not offered by the module or not known to "
                   "the runner", c->path, alg, mode ? " mode " : "", mode ? mode : "");
}

/* merge_expected copies every field of the expectedResults tests (and groups) into the
 * matching prompt tests, by tgId and tcId. */
static int merge_expected(kat_ctx *c, json_t *prompt, json_t *expected, const char *epath) {
  json_t *pg = json_object_get(prompt, "testGroups"), *eg = json_object_get(expected, "testGroups");
  if (!json_is_array(pg) || !json_is_array(eg)) {
    return kat_error(c, "%s / %s: no testGroups to pair", c->path, epath);
  }
  size_t i, j, k, l;
  json_t *g, *e, *t, *et;
  json_array_foreach(eg, i, e) {
    json_t *eid = json_object_get(e, "tgId");
    json_t *match = NULL;
    json_array_foreach(pg, j, g) {
      if (json_equal(json_object_get(g, "tgId"), eid)) match = g;
    }
    if (match == NULL) return kat_error(c, "%s: expected group without a prompt group", epath);
    json_t *ptests = json_object_get(match, "tests"), *etests = json_object_get(e, "tests");
    if (!json_is_array(ptests) || !json_is_array(etests)) {
      return kat_error(c, "%s: group without tests", epath);
    }
    json_array_foreach(etests, k, et) {
      json_t *tid = json_object_get(et, "tcId");
      json_t *pt = NULL;
      json_array_foreach(ptests, l, t) {
        if (json_equal(json_object_get(t, "tcId"), tid)) pt = t;
      }
      if (pt == NULL || !json_is_object(et)) {
        return kat_error(c, "%s: expected result without a prompt test", epath);
      }
      json_object_update_missing(pt, et);
    }
  }
  return 0;
}

/* acvp_body returns the vector-set object of an ACVP file: the object itself, or in the
 * server's [{"acvVersion": ...}, {vector set}] form the element that has testGroups. */
static json_t *acvp_body(json_t *root) {
  if (json_is_object(root)) return root;
  if (json_is_array(root)) {
    size_t i;
    json_t *v;
    json_array_foreach(root, i, v) {
      if (json_is_object(v) && json_object_get(v, "testGroups") != NULL) return v;
    }
  }
  return NULL;
}

static json_t *load_json(kat_ctx *c, const char *path) {
  json_error_t err;
  json_t *root = json_load_file(path, JSON_DECODE_ANY, &err);
  if (root == NULL) {
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

static int run_json_file(kat_ctx *c) {
  json_t *root = load_json(c, c->path);
  if (root == NULL) return -1;
  int rc;
  json_t *body = acvp_body(root);
  json_t *schema = body ? json_object_get(body, "schema") : NULL;
  if (body != NULL && json_is_string(schema)) {
    rc = run_wycheproof(c, body, json_string_value(schema));
  } else if (body != NULL && json_is_string(json_object_get(body, "algorithm"))) {
    /* An ACVP prompt carries no answers: pair it with expectedResults.json beside it (and an
     * expectedResults file with its prompt). */
    const char *bn = base_name(c->path);
    int is_prompt = strcmp(bn, "prompt.json") == 0;
    int is_expected = strcmp(bn, "expectedResults.json") == 0;
    rc = 0;
    if (is_prompt || is_expected) {
      char other[1024];
      pair_path(c->path, is_prompt ? "expectedResults.json" : "prompt.json", other, sizeof(other));
      json_t *oroot = load_json(c, other);
      json_t *obody = oroot ? acvp_body(oroot) : NULL;
      if (obody == NULL) {
        if (oroot) kat_error(c, "%s: no vector set in %s", c->path, other);
        rc = -1;
      } else if (is_prompt) {
        rc = merge_expected(c, body, obody, other);
      } else {
        /* Run the prompt's set (now with the answers); the prompt's root owns it. */
        rc = merge_expected(c, obody, body, c->path);
        body = obody;
        json_decref(root);
        root = oroot;
        oroot = NULL;
      }
      if (oroot) json_decref(oroot);
    }
    if (rc == 0) rc = run_acvp(c, body);
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

int kat_run_file(const char *path, const kat_options *opt, kat_report *r) {
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
      rc = run_json_file(&c);
    } else {
      rc = kat_run_cavp(&c);
    }
  }
  kat_arena_reset(&c);
  free(c.arena);
  if (r->error) rc = -1;
  return rc;
}
