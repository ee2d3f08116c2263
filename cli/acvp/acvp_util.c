/* ACVP responder: the envelope, the value readers (numbers and booleans as JSON values or as
 * strings), the response builders, the progress line and the dispatch by algorithm. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "cli/acvp/acvp.h"

json_t *acvp_body(json_t *root) {
  if (json_is_object(root)) return root;
  if (json_is_array(root)) {
    size_t i;
    json_t *v;
    json_array_foreach(root, i, v) {
      if (json_is_object(v) && (json_object_get(v, "testGroups") != NULL ||
                                json_object_get(v, "algorithm") != NULL)) {
        return v;
      }
    }
  }
  return NULL;
}

static int bad(kat_ctx *c, const char *where, const char *field, const char *what) {
  return kat_error(c, "%s: %s: field \"%s\" is %s", c->path, where, field, what);
}

int av_int_opt(kat_ctx *c, json_t *o, const char *field, const char *where, long long *out) {
  json_t *v = json_is_object(o) ? json_object_get(o, field) : NULL;
  if (v == NULL || json_is_null(v)) return 1;
  if (json_is_integer(v)) {
    *out = (long long)json_integer_value(v);
    return 0;
  }
  if (json_is_string(v)) {
    const char *s = json_string_value(v);
    char *end;
    if (*s != '\0') {
      long long x = strtoll(s, &end, 10);
      if (*end == '\0') {
        *out = x;
        return 0;
      }
    }
  }
  return bad(c, where, field, "not an integer");
}

int av_int(kat_ctx *c, json_t *o, const char *field, const char *where, long long *out) {
  int r = av_int_opt(c, o, field, where, out);
  return r == 1 ? bad(c, where, field, "missing") : r;
}

int av_bool_opt(kat_ctx *c, json_t *o, const char *field, const char *where, int *out) {
  json_t *v = json_is_object(o) ? json_object_get(o, field) : NULL;
  if (v == NULL || json_is_null(v)) return 1;
  if (json_is_boolean(v)) {
    *out = json_is_true(v);
    return 0;
  }
  if (json_is_string(v)) {
    const char *s = json_string_value(v);
    if (strcasecmp(s, "true") == 0 || strcmp(s, "1") == 0) {
      *out = 1;
      return 0;
    }
    if (strcasecmp(s, "false") == 0 || strcmp(s, "0") == 0) {
      *out = 0;
      return 0;
    }
  }
  if (json_is_integer(v) && (json_integer_value(v) == 0 || json_integer_value(v) == 1)) {
    *out = (int)json_integer_value(v);
    return 0;
  }
  return bad(c, where, field, "not a boolean");
}

int av_bool(kat_ctx *c, json_t *o, const char *field, const char *where, int *out) {
  int r = av_bool_opt(c, o, field, where, out);
  return r == 1 ? bad(c, where, field, "missing") : r;
}

int av_str_opt(kat_ctx *c, json_t *o, const char *field, const char *where, const char **out) {
  json_t *v = json_is_object(o) ? json_object_get(o, field) : NULL;
  *out = NULL;
  if (v == NULL || json_is_null(v)) return 1;
  if (!json_is_string(v)) return bad(c, where, field, "not a string");
  *out = json_string_value(v);
  return 0;
}

json_t *av_get(json_t *o, const char *const *names, const char **which) {
  if (!json_is_object(o)) return NULL;
  for (; *names != NULL; names++) {
    json_t *v = json_object_get(o, *names);
    if (v != NULL && !json_is_null(v)) {
      if (which) *which = *names;
      return v;
    }
  }
  return NULL;
}

json_t *ar_group(json_t *g) {
  json_t *rg = json_object();
  json_t *id = json_object_get(g, "tgId");
  json_object_set(rg, "tgId", id ? id : json_null());
  json_object_set_new(rg, "tests", json_array());
  return rg;
}

json_t *ar_test(json_t *t) {
  json_t *rt = json_object();
  json_t *id = json_object_get(t, "tcId");
  json_object_set(rt, "tcId", id ? id : json_null());
  return rt;
}

void ar_hex(json_t *o, const char *field, const uint8_t *p, size_t n) {
  static const char digits[] = "0123456789ABCDEF";
  char small[256];
  char *s = 2 * n + 1 <= sizeof(small) ? small : malloc(2 * n + 1);
  if (s == NULL) {
    json_object_set_new(o, field, json_null()); /* out of memory: the check will fail it */
    return;
  }
  for (size_t i = 0; i < n; i++) {
    s[2 * i] = digits[p[i] >> 4];
    s[2 * i + 1] = digits[p[i] & 15];
  }
  s[2 * n] = '\0';
  json_object_set_new(o, field, json_string(s));
  if (s != small) free(s);
}

void ar_add_test(kat_ctx *c, json_t *rg, json_t *rt) {
  json_array_append_new(json_object_get(rg, "tests"), rt);
  c->answered++;
}

void ar_add_group(json_t *groups, json_t *rg) {
  if (json_array_size(json_object_get(rg, "tests")) > 0) {
    json_array_append_new(groups, rg);
  } else {
    json_decref(rg);
  }
}

/* ---- progress ----------------------------------------------------------------------------- */

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void ar_progress_start(kat_ctx *c, const char *what, long total) {
  c->progress = isatty(2);
  c->progress_total = total;
  c->progress_done = 0;
  c->progress_last = 0;
  snprintf(c->progress_what, sizeof(c->progress_what), "%s", what);
}

static void draw(kat_ctx *c, const char *note) {
  double t = now_s();
  if (!c->progress || t - c->progress_last < 0.2) return;
  c->progress_last = t;
  fprintf(stderr, "\r%s: %ld/%ld tests%s%s\033[K", c->progress_what, c->progress_done,
          c->progress_total, note ? ", " : "", note ? note : "");
  fflush(stderr);
}

void ar_progress_tick(kat_ctx *c) {
  c->progress_done++;
  draw(c, NULL);
}

void ar_progress_note(kat_ctx *c, const char *fmt, ...) {
  if (!c->progress) return;
  char note[96];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(note, sizeof(note), fmt, ap);
  va_end(ap);
  draw(c, note);
}

void ar_progress_end(kat_ctx *c) {
  if (c->progress && c->progress_last != 0) {
    fprintf(stderr, "\r\033[K");
    fflush(stderr);
  }
  c->progress = 0;
}

/* ---- dispatch ----------------------------------------------------------------------------- */

/* The hash names of the ACVP specifications (sha/ and sha3/sections/03-supported.adoc). NIST's
 * server looks "algorithm-mode-revision" up whatever its case (ACVP-Server EnumHelpers,
 * StringComparison.OrdinalIgnoreCase), so these are matched likewise. */
static const struct {
  const char *name;
  fm_hash_alg alg;
} hash_names[] = {
    {"SHA2-224", FM_HASH_SHA224},         {"SHA2-256", FM_HASH_SHA256},
    {"SHA2-384", FM_HASH_SHA384},         {"SHA2-512", FM_HASH_SHA512},
    {"SHA2-512/224", FM_HASH_SHA512_224}, {"SHA2-512/256", FM_HASH_SHA512_256},
    {"SHA3-224", FM_HASH_SHA3_224},       {"SHA3-256", FM_HASH_SHA3_256},
    {"SHA3-384", FM_HASH_SHA3_384},       {"SHA3-512", FM_HASH_SHA3_512},
};

int acvp_hash_by_name(const char *name, fm_hash_alg *alg) {
  for (size_t i = 0; i < sizeof(hash_names) / sizeof(hash_names[0]); i++) {
    if (strcasecmp(name, hash_names[i].name) == 0) {
      *alg = hash_names[i].alg;
      return 0;
    }
  }
  return -1;
}

static long count_tests(json_t *set) {
  long n = 0;
  size_t i;
  json_t *g;
  json_array_foreach(json_object_get(set, "testGroups"), i, g) {
    n += (long)json_array_size(json_object_get(g, "tests"));
  }
  return n;
}

int acvp_respond(kat_ctx *c, json_t *set, json_t **out) {
  *out = NULL;
  const char *alg, *mode = NULL, *rev = NULL;
  if (kj_str(c, set, "algorithm", "vector set", &alg) < 0) return -1;
  if (av_str_opt(c, set, "mode", "vector set", &mode) < 0 ||
      av_str_opt(c, set, "revision", "vector set", &rev) < 0) {
    return -1;
  }
  json_t *tg = json_object_get(set, "testGroups");
  if (json_is_object(tg)) {
    /* The signaturePrimitive 2.0 example of the spec writes one group as an object. */
    json_t *a = json_array();
    json_array_append(a, tg);
    json_object_set_new(set, "testGroups", a);
  }
  if (kj_array(c, set, "testGroups", "vector set") == NULL) return -1;
  json_t *resp = json_object();
  json_t *vsid = json_object_get(set, "vsId");
  if (vsid != NULL) {
    json_object_set(resp, "vsId", vsid);
  } else {
    json_object_set_new(resp, "vsId", json_integer(0));
  }
  json_object_set_new(resp, "algorithm", json_string(alg));
  if (mode) json_object_set_new(resp, "mode", json_string(mode));
  if (rev) json_object_set_new(resp, "revision", json_string(rev));
  json_t *isample = json_object_get(set, "isSample");
  if (isample) json_object_set(resp, "isSample", isample);
  json_t *groups = json_array();
  json_object_set_new(resp, "testGroups", groups);
  char what[64];
  snprintf(what, sizeof(what), "%s%s%s", alg, mode ? " " : "", mode ? mode : "");
  long total = count_tests(set);
  ar_progress_start(c, what, total);
  kat_set_kind(c, "ACVP %s%s%s %s", alg, mode ? " " : "", mode ? mode : "", rev ? rev : "");
  int rc;
  fm_hash_alg hash;
  if (acvp_hash_by_name(alg, &hash) == 0) {
    rc = acvp_sha(c, set, groups, hash);
  } else if (strncasecmp(alg, "HMAC-", 5) == 0 && acvp_hash_by_name(alg + 5, &hash) == 0) {
    rc = acvp_hmac(c, set, groups, hash);
  } else if (strcasecmp(alg, "SHAKE-128") == 0) {
    rc = acvp_shake(c, set, groups, FM_XOF_SHAKE128);
  } else if (strcasecmp(alg, "SHAKE-256") == 0) {
    rc = acvp_shake(c, set, groups, FM_XOF_SHAKE256);
  } else if (strcmp(alg, "ACVP-AES-ECB") == 0) {
    rc = acvp_aes(c, set, groups, ACVP_ECB);
  } else if (strcmp(alg, "ACVP-AES-CBC") == 0) {
    rc = acvp_aes(c, set, groups, ACVP_CBC);
  } else if (strcmp(alg, "ACVP-AES-CTR") == 0) {
    rc = acvp_aes(c, set, groups, ACVP_CTR);
  } else if (strcmp(alg, "ctrDRBG") == 0) {
    rc = acvp_drbg(c, set, groups);
  } else if (strcmp(alg, "ACVP-AES-GCM") == 0) {
    rc = acvp_gcm(c, set, groups);
  } else if (strcmp(alg, "KDA") == 0 && mode != NULL && strcasecmp(mode, "HKDF") == 0) {
    rc = acvp_hkdf(c, set, groups, rev ? rev : "");
  } else if (strcmp(alg, "PBKDF") == 0) {
    rc = acvp_pbkdf(c, set, groups);
  } else if ((strcmp(alg, "KDF") == 0 && (mode == NULL || strcasecmp(mode, "KMAC") != 0)) ||
             strcmp(alg, "counterMode") == 0) {
    /* "counterMode": the algorithm name of the KDF 1.0 prompt example
     * (kdf/sections/06-test-vectors.adoc); the registration calls it "KDF". */
    rc = acvp_kbkdf(c, set, groups);
  } else if (strcmp(alg, "ML-DSA") == 0 && mode != NULL) {
    rc = acvp_mldsa(c, set, groups, mode);
  } else if (strcmp(alg, "ML-KEM") == 0 && mode != NULL) {
    rc = acvp_mlkem(c, set, groups, mode);
  } else if ((strcmp(alg, "ECDSA") == 0 || strcmp(alg, "DetECDSA") == 0) && mode != NULL) {
    rc = acvp_ecdsa(c, set, groups, alg, mode, rev ? rev : "");
  } else if (strcmp(alg, "KAS-ECC-SSC") == 0 || strcmp(alg, "KAS-ECC") == 0) {
    rc = acvp_kas_ecc(c, set, groups, alg, mode, rev ? rev : "");
  } else if (strcmp(alg, "RSA") == 0 && mode != NULL) {
    rc = acvp_rsa(c, set, groups, mode, rev ? rev : "");
  } else {
    kat_skip_n(c, total, "algorithm %s%s%s is not offered by the module", alg, mode ? " mode " : "",
               mode ? mode : "");
    rc = 0;
  }
  ar_progress_end(c);
  if (rc < 0) {
    json_decref(resp);
    return -1;
  }
  *out = resp;
  return 0;
}
