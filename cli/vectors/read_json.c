/* JSON field readers for ACVP and Wycheproof vector sets (jansson). Every reader names the
 * group and test it was reading when a field is missing or malformed. */
#include <stdio.h>
#include <string.h>

#include "cli/vectors/internal.h"

int kj_str(kat_ctx *c, json_t *obj, const char *field, const char *where, const char **out) {
  json_t *v = json_is_object(obj) ? json_object_get(obj, field) : NULL;
  if (!json_is_string(v)) {
    return kat_error(c, "%s: %s: field \"%s\" is %s", c->path, where, field,
                     v ? "not a string" : "missing");
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
  return kat_error(c, "%s: %s: field \"%s\" is %s", c->path, where, field,
                   v ? "not an integer" : "missing");
}

int kj_bool(kat_ctx *c, json_t *obj, const char *field, const char *where, int *out) {
  json_t *v = json_is_object(obj) ? json_object_get(obj, field) : NULL;
  if (!json_is_boolean(v)) {
    return kat_error(c, "%s: %s: field \"%s\" is %s", c->path, where, field,
                     v ? "not a boolean" : "missing");
  }
  *out = json_is_true(v);
  return 0;
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
    return kat_error(c, "%s: %s: field \"%s\" is %s", c->path, where, field,
                     v ? "not a string" : "missing");
  }
  if (kat_hex_decode(c, json_string_value(v), odd_ok, out) < 0) {
    return kat_error(c, "%s: %s: field \"%s\" is not an even number of hex digits", c->path,
                     where, field);
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
    kat_error(c, "%s: %s: field \"%s\" is %s", c->path, where, field,
              v ? "not an array" : "missing");
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
