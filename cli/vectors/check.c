/* `fipsmod kat` on ACVP files: the response that `fipsmod acvp` would send is checked against
 * the answers the file carries (internalProjection) or its expectedResults. Answers that the
 * server computed from its inputs are compared field by field; answers the module chose itself
 * (generated keys, signatures under its own key, IVs it drew) cannot equal the server's, so
 * they are checked by their properties, by the check_group / check_test functions of the set's
 * binding (bindings.c). Tests are paired through a hash table keyed by tgId and tcId: linear in
 * the size of the files. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cli/vectors/internal.h"

static void id_key(json_t *tg, json_t *tc, char *out, size_t cap) {
  char a[40], b[40];
  json_t *v[2] = {tg, tc};
  char *o[2] = {a, b};
  for (int i = 0; i < 2; i++) {
    if (json_is_integer(v[i])) {
      snprintf(o[i], 40, "%lld", (long long)json_integer_value(v[i]));
    } else if (json_is_string(v[i])) {
      snprintf(o[i], 40, "%s", json_string_value(v[i]));
    } else {
      snprintf(o[i], 40, "?");
    }
  }
  snprintf(out, cap, "%s/%s", a, b);
}

static int has_any(json_t *t, const char *const *names) { return av_get(t, names, NULL) != NULL; }

int acvp_has_answers(json_t *set) {
  static const char *const answers[] = {"testPassed", "md",       "mac",
                                        "returnedBits", "derivedKey", "keyOut", NULL};
  const char *mode = json_string_value(json_object_get(set, "mode"));
  if (acvp_ec_has_answers(set)) return 1;
  size_t gi, ti, ri;
  json_t *g, *t, *r;
  json_array_foreach(json_object_get(set, "testGroups"), gi, g) {
    json_array_foreach(json_object_get(g, "tests"), ti, t) {
      if (has_any(t, answers)) return 1;
      /* KDA: dkm (dkms, multi-expansion) is an answer in AFT groups; a VAL prompt carries it
       * as its input. */
      const char *type = json_string_value(json_object_get(g, "testType"));
      if (type && strcmp(type, "AFT") == 0 && (json_object_get(t, "dkm") || json_object_get(t, "dkms"))) {
        return 1;
      }
      if (json_object_get(t, "pt") && json_object_get(t, "ct")) return 1;
      if (json_object_get(t, "tag") && (json_object_get(t, "pt") || json_object_get(t, "ct")) &&
          (json_object_get(t, "plainText") || json_object_get(t, "cipherText"))) {
        return 1; /* GCM: the prompt's field name and the answer's */
      }
      if (mode && strcasecmp(mode, "sigGen") == 0 && json_object_get(t, "signature")) return 1;
      if (mode && strcasecmp(mode, "keyGen") == 0 && json_object_get(t, "n")) return 1;
      if (mode && strcasecmp(mode, "keyGen") == 0 && json_object_get(t, "pk")) return 1; /* ML-DSA */
      /* ML-KEM: keyGen answers ek (its prompt has d and z), encapDecap answers k. */
      if (mode && strcasecmp(mode, "keyGen") == 0 && json_object_get(t, "ek") &&
          json_object_get(t, "d"))
        return 1;
      if (mode && strcasecmp(mode, "encapDecap") == 0 && json_object_get(t, "k")) return 1;
      json_array_foreach(json_object_get(t, "resultsArray"), ri, r) {
        if (has_any(r, answers) || json_object_get(r, "plainText") ||
            (json_object_get(r, "pt") && json_object_get(r, "ct"))) {
          return 1;
        }
      }
    }
  }
  return 0;
}

/* numeric fields: a big-endian number whose leading zeros a server may drop */
static int numeric_field(const char *f) {
  return strcmp(f, "signature") == 0 || strcmp(f, "pt") == 0 || strcmp(f, "plainText") == 0;
}

static const char *skip_zeros(const char *s) {
  while (s[0] == '0' && s[1] != '\0') s++;
  return s;
}

/* values_equal: hex strings without regard to case, booleans and numbers also as strings,
 * arrays and objects element by element (each of the response's fields). */
static int values_equal(const char *field, json_t *got, json_t *want, char *why, size_t cap) {
  if (json_is_string(got) && json_is_string(want)) {
    const char *a = json_string_value(got), *b = json_string_value(want);
    if (strcasecmp(a, b) == 0) return 1;
    if (numeric_field(field) && strcasecmp(skip_zeros(a), skip_zeros(b)) == 0) return 1;
    snprintf(why, cap, "%s mismatch: expected %.60s%s, got %.60s%s", field, b,
             strlen(b) > 60 ? "..." : "", a, strlen(a) > 60 ? "..." : "");
    return 0;
  }
  if (json_is_boolean(got)) {
    int w;
    if (json_is_boolean(want)) {
      w = json_is_true(want);
    } else if (json_is_string(want)) {
      w = strcasecmp(json_string_value(want), "true") == 0;
    } else {
      w = -1;
    }
    if (w == json_is_true(got)) return 1;
    snprintf(why, cap, "%s mismatch: expected %s, got %s", field,
             w < 0 ? "a non-boolean" : w ? "true" : "false", json_is_true(got) ? "true" : "false");
    return 0;
  }
  if (json_is_array(got) && json_is_array(want)) {
    if (json_array_size(got) != json_array_size(want)) {
      snprintf(why, cap, "%s has %zu entries, expected %zu", field, json_array_size(got),
               json_array_size(want));
      return 0;
    }
    size_t i;
    json_t *v;
    json_array_foreach(got, i, v) {
      char sub[64];
      snprintf(sub, sizeof(sub), "%s[%zu]", field, i);
      if (!values_equal(sub, v, json_array_get(want, i), why, cap)) return 0;
    }
    return 1;
  }
  if (json_is_object(got) && json_is_object(want)) {
    const char *k;
    json_t *v;
    json_object_foreach(got, k, v) {
      char sub[96];
      snprintf(sub, sizeof(sub), "%s.%s", field, k);
      json_t *w = json_object_get(want, k);
      if (w == NULL) {
        snprintf(why, cap, "%s is not in the expected answers", sub);
        return 0;
      }
      if (!values_equal(sub, v, w, why, cap)) return 0;
    }
    return 1;
  }
  if (json_equal(got, want)) return 1;
  snprintf(why, cap, "%s mismatch (type or value)", field);
  return 0;
}

int acvp_check(kat_ctx *c, json_t *set, json_t *resp, json_t *expected) {
  const char *alg = json_string_value(json_object_get(set, "algorithm"));
  const char *mode = json_string_value(json_object_get(set, "mode"));
  const char *rev = json_string_value(json_object_get(set, "revision"));
  vec_call v;
  const vec_binding *b = alg ? vec_find_acvp(alg, mode, rev ? rev : "", &v) : NULL;
  v.set = set;
  /* index the expected groups and tests */
  json_t *egroups = json_object(), *etests = json_object(), *ptests = json_object();
  size_t gi, ti;
  json_t *g, *t;
  char key[96], id[96];
  json_t *eg_arr = json_object_get(expected, "testGroups");
  if (!json_is_array(eg_arr)) {
    json_decref(egroups);
    json_decref(etests);
    json_decref(ptests);
    return kat_error(c, "%s: the expected answers have no testGroups", c->path);
  }
  json_array_foreach(eg_arr, gi, g) {
    id_key(json_object_get(g, "tgId"), NULL, key, sizeof(key));
    json_object_set(egroups, key, g);
    json_array_foreach(json_object_get(g, "tests"), ti, t) {
      id_key(json_object_get(g, "tgId"), json_object_get(t, "tcId"), key, sizeof(key));
      json_object_set(etests, key, t);
    }
  }
  json_t *pgroups = json_object();
  json_array_foreach(json_object_get(set, "testGroups"), gi, g) {
    id_key(json_object_get(g, "tgId"), NULL, key, sizeof(key));
    json_object_set(pgroups, key, g);
    json_array_foreach(json_object_get(g, "tests"), ti, t) {
      id_key(json_object_get(g, "tgId"), json_object_get(t, "tcId"), key, sizeof(key));
      json_object_set(ptests, key, t);
    }
  }
  int rc = 0;
  json_array_foreach(json_object_get(resp, "testGroups"), gi, g) {
    json_t *tgid = json_object_get(g, "tgId");
    id_key(tgid, NULL, key, sizeof(key));
    json_t *eg = json_object_get(egroups, key), *pg = json_object_get(pgroups, key);
    if (b != NULL && b->check_group != NULL) {
      char where[128];
      snprintf(where, sizeof(where), "tgId %s", key);
      int h = b->check_group(c, &v, pg, g, eg, where);
      if (h != 0) {
        if (h < 0) rc = -1;
        kat_arena_reset(c);
        if (rc < 0) break;
        continue;
      }
    }
    json_array_foreach(json_object_get(g, "tests"), ti, t) {
      json_t *tcid = json_object_get(t, "tcId");
      id_key(tgid, tcid, key, sizeof(key));
      kj_test_id(g, t, id, sizeof(id));
      json_t *et = json_object_get(etests, key), *pt = json_object_get(ptests, key);
      if (b != NULL && b->check_test != NULL) {
        int h = b->check_test(c, &v, pg, pt, et, t, id);
        if (h < 0) {
          rc = -1;
          break;
        }
        if (h > 0) {
          kat_arena_reset(c);
          continue;
        }
      }
      if (et == NULL) {
        kat_fail(c, id, "no expected answer for this test");
        continue;
      }
      const char *f;
      json_t *val;
      char why[320] = "";
      int ok = 1, compared = 0;
      json_object_foreach(t, f, val) {
        if (strcmp(f, "tcId") == 0) continue;
        json_t *w = json_object_get(et, f);
        if (w == NULL) {
          /* signaturePrimitive / decryptionPrimitive: no output is expected for a failing
           * input; the testPassed comparison decides. */
          continue;
        }
        compared++;
        if (!values_equal(f, val, w, why, sizeof(why))) {
          ok = 0;
          break;
        }
      }
      if (ok && compared == 0) {
        ok = 0;
        snprintf(why, sizeof(why), "the expected test carries none of the answered fields");
      }
      if (ok) {
        kat_pass(c);
      } else {
        kat_fail(c, id, "%s", why);
      }
    }
    if (rc < 0) break;
  }
  json_decref(egroups);
  json_decref(etests);
  json_decref(pgroups);
  json_decref(ptests);
  return rc;
}
