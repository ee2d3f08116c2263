/* The ACVP reader and responder: the response builders, the progress line, and acvp_respond,
 * which hands a vector set to its binding (bindings.c) and builds the response around it. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "cli/vectors/internal.h"

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

/* ---- the response ------------------------------------------------------------------------- */

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
  vec_call v;
  const vec_binding *b = vec_find_acvp(alg, mode, rev, &v);
  v.set = set;
  if (b != NULL) {
    rc = b->acvp(c, set, groups, &v);
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
