/* The ACVP responder and checker on damaged vector sets. Byte garbling (test_kat_fuzz) mostly
 * breaks the JSON itself; this test changes the parsed sets instead, so that every responder sees
 * well-formed JSON with wrong values: a field of another type, removed, emptied, with one hex
 * digit more or less, a number off by one, zero, negative or huge, an array emptied or with an
 * element twice, or a value copied from another field. Either the prompt, its answers or both
 * are changed, written back out and run as `fipsmod kat` runs a pair.
 *
 * Whatever the change, the runner must return (no crash, no hang; ASan/UBSan builds check
 * memory) with a consistent report: an error exactly when it returns -1, naming the file.
 * A .json file named instead of a set directory (a Wycheproof file) is changed and run alone.
 * Usage: test_acvp_fuzz <vectors dir> <work dir> <set dir or .json file>... (a set directory
 * holds prompt.json and expectedResults.json; paths are relative to the vectors dir);
 * FIPSMOD_ACVP_FUZZ_ITERS sets the damaged copies per set (30 by default). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/kat/kat_fuzz_check.h"

/* A slot is where a value sits: a member of an object or an element of an array. */
typedef struct slot {
  json_t *parent;
  const char *key; /* NULL for an array element */
  size_t index;
} slot;

typedef struct slots {
  slot *v;
  size_t n, cap;
} slots;

static void collect(slots *s, json_t *node) {
  const char *key;
  json_t *val;
  size_t i;
  if (json_is_object(node)) {
    json_object_foreach(node, key, val) {
      if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 256;
        s->v = realloc(s->v, s->cap * sizeof(*s->v));
      }
      s->v[s->n++] = (slot){node, key, 0};
      collect(s, val);
    }
  } else if (json_is_array(node)) {
    json_array_foreach(node, i, val) {
      if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 256;
        s->v = realloc(s->v, s->cap * sizeof(*s->v));
      }
      s->v[s->n++] = (slot){node, NULL, i};
      collect(s, val);
    }
  }
}

static json_t *slot_get(const slot *s) {
  return s->key ? json_object_get(s->parent, s->key) : json_array_get(s->parent, s->index);
}

/* slot_set puts |v| (a new reference, taken) in the slot. */
static void slot_set(const slot *s, json_t *v) {
  if (s->key) {
    json_object_set_new(s->parent, s->key, v);
  } else {
    json_array_set_new(s->parent, s->index, v);
  }
}

static int is_hex(const char *p) {
  if (*p == '\0') return 0;
  for (; *p; p++) {
    if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') || (*p >= 'A' && *p <= 'F'))) {
      return 0;
    }
  }
  return 1;
}

/* A hex string changed: one digit more, one less, a digit changed, doubled, emptied, a non-hex
 * digit, or 64 KiB of zeros. */
static json_t *mutate_hex(test_rng *r, const char *p) {
  size_t n = strlen(p);
  char *b = malloc(2 * n + 65538);
  switch (test_rng_below(r, 7)) {
    case 0:
      memcpy(b, p, n);
      b[n] = "0f"[test_rng_below(r, 2)];
      b[n + 1] = '\0';
      break;
    case 1:
      memcpy(b, p, n - 1);
      b[n - 1] = '\0';
      break;
    case 2:
      memcpy(b, p, n + 1);
      b[test_rng_below(r, n)] = "0123456789ABCDEF"[test_rng_below(r, 16)];
      break;
    case 3:
      memcpy(b, p, n);
      memcpy(b + n, p, n + 1);
      break;
    case 4:
      b[0] = '\0';
      break;
    case 5:
      memcpy(b, p, n + 1);
      b[test_rng_below(r, n)] = "gZ -x"[test_rng_below(r, 5)];
      break;
    default:
      memset(b, '0', 65536);
      b[65536] = '\0';
      break;
  }
  json_t *v = json_string(b);
  free(b);
  return v;
}

static json_t *mutate_int(test_rng *r, json_int_t x) {
  static const json_int_t odd[] = {0, -1, 1, 7, 8, 65, 1024, 1LL << 31, 1LL << 40, INT64_MAX,
                                   INT64_MIN};
  switch (test_rng_below(r, 4)) {
    case 0: /* wraps at the ends (unsigned arithmetic: no overflow) */
      return json_integer((json_int_t)((uint64_t)x + 1));
    case 1:
      return json_integer((json_int_t)((uint64_t)x - 1));
    case 2:
      return json_integer(x > (1LL << 40) ? x : 2 * x);
    default:
      return json_integer(odd[test_rng_below(r, sizeof(odd) / sizeof(odd[0]))]);
  }
}

/* A value of any type in place of the old one. */
static json_t *other_value(test_rng *r) {
  switch (test_rng_below(r, 10)) {
    case 0:
      return json_null();
    case 1:
      return json_true();
    case 2:
      return json_false();
    case 3:
      return json_integer(0);
    case 4:
      return json_integer(-5);
    case 5:
      return json_real(1e300);
    case 6:
      return json_string("");
    case 7:
      return json_string("ABC");
    case 8:
      return json_array();
    default:
      return json_object();
  }
}

/* mutate_once makes one change somewhere in |root|. */
static void mutate_once(test_rng *r, json_t *root) {
  slots s = {0};
  collect(&s, root);
  if (s.n == 0) {
    free(s.v);
    return;
  }
  const slot *at = &s.v[test_rng_below(r, s.n)];
  json_t *old = slot_get(at);
  uint64_t op = test_rng_below(r, 10);
  if (op == 0) { /* remove it */
    if (at->key) {
      json_object_del(at->parent, at->key);
    } else {
      json_array_remove(at->parent, at->index);
    }
  } else if (op == 1) { /* another type */
    slot_set(at, other_value(r));
  } else if (op == 2) { /* a value copied from elsewhere (a plausible value in the wrong place) */
    const slot *from = &s.v[test_rng_below(r, s.n)];
    json_t *src = slot_get(from);
    if (src != old) slot_set(at, json_deep_copy(src));
  } else if (json_is_string(old) && is_hex(json_string_value(old))) {
    slot_set(at, mutate_hex(r, json_string_value(old)));
  } else if (json_is_string(old) && op < 6) { /* a string changed as a whole */
    static const char *const words[] = {"", "AFT", "MCT", "LDT", "VAL", "decrypt", "encrypt",
                                        "SHA2-256", "SHA2-1024", "true", "-1", "4096", "huge"};
    slot_set(at, json_string(words[test_rng_below(r, sizeof(words) / sizeof(words[0]))]));
  } else if (json_is_integer(old)) {
    slot_set(at, mutate_int(r, json_integer_value(old)));
  } else if (json_is_array(old) && json_array_size(old) > 0) {
    if (test_rng_below(r, 2)) {
      json_array_clear(old);
    } else {
      size_t k = test_rng_below(r, json_array_size(old));
      json_array_append_new(old, json_deep_copy(json_array_get(old, k)));
    }
  } else if (json_is_boolean(old)) {
    slot_set(at, json_boolean(!json_is_true(old)));
  } else {
    slot_set(at, other_value(r));
  }
  free(s.v);
}

static void mutate(test_rng *r, json_t *root) {
  int rounds = 1 + (int)test_rng_below(r, 3);
  for (int k = 0; k < rounds; k++) mutate_once(r, root);
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: test_acvp_fuzz <vectors dir> <work dir> <set dir>...\n");
    return 2;
  }
  test_rng rng;
  test_rng_seed(&rng, "test_acvp_fuzz");
  long iters = fuzz_iters("FIPSMOD_ACVP_FUZZ_ITERS", 30);
  mkdir(argv[2], 0755);
  kat_report *rep = malloc(sizeof(*rep));
  kat_options opt = {0};
  long runs = 0, malformed = 0, failing = 0, passing = 0;
  for (int si = 3; si < argc; si++) {
    /* A set: prompt and answers; a .json file: that file alone (expected stays NULL). */
    const char *arg = argv[si];
    size_t alen = strlen(arg);
    int single = alen > 5 && strcmp(arg + alen - 5, ".json") == 0;
    char src_p[1024], src_e[1024], dir[1024], dst_p[1100], dst_e[1100];
    snprintf(src_p, sizeof(src_p), "%s/%s%s", argv[1], arg, single ? "" : "/prompt.json");
    snprintf(src_e, sizeof(src_e), "%s/%s/expectedResults.json", argv[1], arg);
    /* The work copy of a/b is a-b, beside the others. */
    snprintf(dir, sizeof(dir), "%s/%s", argv[2], arg);
    for (char *q = dir + strlen(argv[2]) + 1; *q; q++) {
      if (*q == '/' || *q == '.') *q = '-';
    }
    mkdir(dir, 0755);
    snprintf(dst_p, sizeof(dst_p), "%s/%s", dir, single ? "vectors.json" : "prompt.json");
    snprintf(dst_e, sizeof(dst_e), "%s/expectedResults.json", dir);
    json_error_t err;
    json_t *prompt = json_load_file(src_p, JSON_DECODE_ANY, &err);
    json_t *expected = single ? NULL : json_load_file(src_e, JSON_DECODE_ANY, &err);
    CHECK(prompt != NULL && (single || expected != NULL));
    if (prompt == NULL || (!single && expected == NULL)) {
      fprintf(stderr, "test_acvp_fuzz: cannot read %s/%s\n", argv[1], arg);
      json_decref(prompt);
      json_decref(expected);
      continue;
    }
    for (long it = 0; it < iters; it++) {
      json_t *p = json_deep_copy(prompt), *e = single ? NULL : json_deep_copy(expected);
      uint64_t which = single ? 0 : test_rng_below(&rng, 3);
      if (which != 1) mutate(&rng, p);
      if (which != 0) mutate(&rng, e);
      CHECK(json_dump_file(p, dst_p, JSON_COMPACT) == 0);
      CHECK(single || json_dump_file(e, dst_e, JSON_COMPACT) == 0);
      json_decref(p);
      json_decref(e);
      int rc = single ? kat_run_file(dst_p, &opt, rep) : kat_run_pair(dst_p, dst_e, &opt, rep);
      runs++;
      malformed += fuzz_check_report("test_acvp_fuzz", rc, rep, dir);
      if (rc == 0 && rep->fail > 0) failing++;
      if (rc == 0 && rep->fail == 0 && rep->pass > 0) passing++;
    }
    json_decref(prompt);
    json_decref(expected);
  }
  free(rep);
  printf("test_acvp_fuzz: %ld damaged sets: %ld malformed, %ld with failing cases, %ld passing\n",
         runs, malformed, failing, passing);
  /* The changes must have produced both malformed sets and wrong answers, or this test proves
   * nothing. */
  CHECK(malformed > 0);
  CHECK(failing > 0);
  return test_main_result("test_acvp_fuzz");
}
