/* The JSON readers of every JSON format (ACVP, Wycheproof; jansson): the vector-set body of an
 * ACVP file, and the field readers. Every reader names the group and test it was reading when
 * a field is missing or malformed, in one form: "<file>: <where>: field "<name>" is <what>".
 * kj_*: fields of one JSON type; av_*: numbers and booleans also written as strings, as ACVP
 * servers write them, and absent or null fields told apart from malformed ones. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/vectors/internal.h"

static int bad(kat_ctx *c, const char *where, const char *field, const char *what) {
  return kat_error(c, "%s: %s: field \"%s\" is %s", c->path, where, field, what);
}

int kj_str(kat_ctx *c, json_t *obj, const char *field, const char *where, const char **out) {
  json_t *v = json_is_object(obj) ? json_object_get(obj, field) : NULL;
  if (!json_is_string(v)) {
    return bad(c, where, field, v ? "not a string" : "missing");
  }
  *out = json_string_value(v);
  return 0;
}

int kj_int(kat_ctx *c, json_t *obj, const char *field, const char *where, long *out) {
  json_t *v = json_is_object(obj) ? json_object_get(obj, field) : NULL;
  if (json_is_integer(v)) {
    *out = (long)json_integer_value(v);
    return 0;
  }
  /* Some sets write numbers as strings ("digestSize": "256"). */
  if (json_is_string(v) && kat_parse_long(json_string_value(v), out) == 0) return 0;
  return bad(c, where, field, v ? "not an integer" : "missing");
}

static int kj_hex_impl(kat_ctx *c, json_t *obj, const char *field, const char *where,
                       kat_bytes *out, int optional, int odd_ok) {
  json_t *v = json_is_object(obj) ? json_object_get(obj, field) : NULL;
  if (v == NULL && optional) {
    out->p = kat_alloc(c, 1);
    out->n = 0;
    return out->p ? 0 : -1;
  }
  if (!json_is_string(v)) {
    return bad(c, where, field, v ? "not a string" : "missing");
  }
  if (kat_hex_decode(c, json_string_value(v), odd_ok, out) < 0) {
    return bad(c, where, field, "not an even number of hex digits");
  }
  return 0;
}

int kj_hex(kat_ctx *c, json_t *obj, const char *field, const char *where, kat_bytes *out) {
  return kj_hex_impl(c, obj, field, where, out, 0, 0);
}

int kj_num(kat_ctx *c, json_t *obj, const char *field, const char *where, kat_bytes *out) {
  return kj_hex_impl(c, obj, field, where, out, 0, 1);
}

int kj_num_opt(kat_ctx *c, json_t *obj, const char *field, const char *where, kat_bytes *out) {
  return kj_hex_impl(c, obj, field, where, out, 1, 1);
}

int kj_hex_opt(kat_ctx *c, json_t *obj, const char *field, const char *where, kat_bytes *out) {
  return kj_hex_impl(c, obj, field, where, out, 1, 0);
}

json_t *kj_array(kat_ctx *c, json_t *obj, const char *field, const char *where) {
  json_t *v = json_is_object(obj) ? json_object_get(obj, field) : NULL;
  if (!json_is_array(v)) {
    bad(c, where, field, v ? "not an array" : "missing");
    return NULL;
  }
  return v;
}

static void id_part(json_t *v, char *out, size_t cap) {
  if (json_is_integer(v)) {
    snprintf(out, cap, "%lld", (long long)json_integer_value(v));
  } else if (json_is_string(v)) {
    snprintf(out, cap, "%.20s", json_string_value(v));
  } else {
    snprintf(out, cap, "?");
  }
}

void kj_test_id(json_t *group, json_t *test, char *out, size_t cap) {
  char tc[32], tg[32];
  id_part(json_object_get(test, "tcId"), tc, sizeof(tc));
  json_t *g = json_object_get(group, "tgId");
  if (g != NULL) {
    id_part(g, tg, sizeof(tg));
    snprintf(out, cap, "tgId %s tcId %s", tg, tc);
  } else {
    snprintf(out, cap, "tcId %s", tc);
  }
}

int kj_result(kat_ctx *c, json_t *test, const char *where) {
  const char *r;
  if (kj_str(c, test, "result", where, &r) < 0) return -1;
  if (strcmp(r, "valid") == 0) return KJ_VALID;
  if (strcmp(r, "invalid") == 0) return KJ_INVALID;
  if (strcmp(r, "acceptable") == 0) return KJ_ACCEPTABLE;
  return kat_error(c, "%s: %s: \"result\" is \"%s\", not valid, invalid or acceptable", c->path,
                   where, r);
}

void kj_flags(json_t *test, char *out, size_t cap) {
  size_t i, o = 0;
  json_t *f;
  out[0] = '\0';
  json_array_foreach(json_object_get(test, "flags"), i, f) {
    if (!json_is_string(f) || o + 1 >= cap) continue;
    int n = snprintf(out + o, cap - o, "%s%s", o ? ", " : "", json_string_value(f));
    o = n < 0 || (size_t)n >= cap - o ? cap - 1 : o + (size_t)n;
  }
  if (o == 0) snprintf(out, cap, "no flags");
}

/* ---- ACVP values ---------------------------------------------------------------------------- */

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
