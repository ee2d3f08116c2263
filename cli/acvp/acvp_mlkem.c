/* ACVP ML-KEM (draft-celi-acvp-ml-kem, ../shared/specs/acvp/ml-kem/): keyGen (FIPS203; AFT: d and
 * z -> ek and dk) and encapDecap (FIPS203 and FIPS203-tr1):
 *   - "encapsulation" (AFT): ek and m -> c and k (Encaps_internal);
 *   - "decapsulation" (AFT or VAL): dk (keyFormat "expanded", the default) or seed (keyFormat
 *     "seed", expanded with KeyGen_internal), and c -> k (implicit rejection included);
 *   - "encapsulationKeyCheck" / "decapsulationKeyCheck" (VAL): ek / dk -> testPassed, the checks
 *     of FIPS 203 7.2 and 7.3.
 * A key or seed may sit in the test or, as older sets have it, in its group. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cli/acvp/acvp.h"
#include "fipsmod/mlkem.h"

static int param_of(const char *name, fm_mlkem_param *p) {
  if (strcmp(name, "ML-KEM-512") == 0) *p = FM_MLKEM_512;
  else if (strcmp(name, "ML-KEM-768") == 0) *p = FM_MLKEM_768;
  else if (strcmp(name, "ML-KEM-1024") == 0) *p = FM_MLKEM_1024;
  else return -1;
  return 0;
}

/* hex_in: |field| of the test, else of the group. */
static int hex_in(kat_ctx *c, json_t *g, json_t *t, const char *field, const char *id,
                  kat_bytes *out) {
  if (json_object_get(t, field) != NULL || json_object_get(g, field) == NULL)
    return kj_hex(c, t, field, id, out);
  return kj_hex(c, g, field, id, out);
}

enum { F_KEYGEN, F_ENCAPS, F_DECAPS, F_EK_CHECK, F_DK_CHECK };

/* answer: one test; 1 answered (rt filled), 0 failed (recorded), -1 malformed. */
static int answer(kat_ctx *c, int fn, int seed_form, fm_mlkem_param p, json_t *g, json_t *t,
                  const char *id, json_t *rt) {
  size_t ek_n, dk_n, ct_n;
  (void)!fm_mlkem_sizes(p, &ek_n, &dk_n, &ct_n);
  uint8_t ek[FM_MLKEM_MAX_EK_LEN], dk[FM_MLKEM_MAX_DK_LEN], ct[FM_MLKEM_MAX_CT_LEN], k[32];
  kat_bytes a, b;
  int st;
  switch (fn) {
    case F_KEYGEN: {
      uint8_t seed[FM_MLKEM_SEED_LEN];
      if (hex_in(c, g, t, "d", id, &a) < 0 || hex_in(c, g, t, "z", id, &b) < 0) return -1;
      if (a.n != 32 || b.n != 32) return kat_error(c, "%s: %s: d and z are 32 bytes", c->path, id);
      memcpy(seed, a.p, 32);
      memcpy(seed + 32, b.p, 32);
      st = fm_mlkem_keygen_from_seed(p, seed, sizeof seed, ek, ek_n, dk, dk_n);
      if (st != FM_OK) break;
      ar_hex(rt, "ek", ek, ek_n);
      ar_hex(rt, "dk", dk, dk_n);
      return 1;
    }
    case F_ENCAPS:
      if (hex_in(c, g, t, "ek", id, &a) < 0 || hex_in(c, g, t, "m", id, &b) < 0) return -1;
      st = fm_mlkem_encaps_internal(p, a.p, a.n, b.p, b.n, ct, ct_n, k, sizeof k);
      if (st != FM_OK) break;
      ar_hex(rt, "c", ct, ct_n);
      ar_hex(rt, "k", k, sizeof k);
      return 1;
    case F_DECAPS:
      if (seed_form) {
        if (hex_in(c, g, t, "seed", id, &a) < 0) return -1;
        st = fm_mlkem_keygen_from_seed(p, a.p, a.n, ek, ek_n, dk, dk_n);
        if (st != FM_OK) break;
        a.p = dk;
        a.n = dk_n;
      } else if (hex_in(c, g, t, "dk", id, &a) < 0) {
        return -1;
      }
      if (hex_in(c, g, t, "c", id, &b) < 0) return -1;
      st = fm_mlkem_decaps(p, a.p, a.n, b.p, b.n, k, sizeof k);
      if (st != FM_OK) break;
      ar_hex(rt, "k", k, sizeof k);
      return 1;
    case F_EK_CHECK:
    case F_DK_CHECK:
      if (hex_in(c, g, t, fn == F_EK_CHECK ? "ek" : "dk", id, &a) < 0) return -1;
      st = fn == F_EK_CHECK ? fm_mlkem_check_ek(p, a.p, a.n) : fm_mlkem_check_dk(p, a.p, a.n);
      if (st != FM_OK && st != FM_ERR_BAD_KEY && st != FM_ERR_LENGTH) break;
      json_object_set_new(rt, "testPassed", json_boolean(st == FM_OK));
      return 1;
    default:
      return kat_error(c, "%s: %s: unknown function", c->path, id);
  }
  kat_fail(c, id, "ML-KEM %s returned %s", fn == F_KEYGEN ? "keyGen" : "encapDecap",
           fm_strerror(st));
  return 0;
}

int acvp_mlkem(kat_ctx *c, json_t *set, json_t *groups, const char *mode) {
  const int keygen = strcasecmp(mode, "keyGen") == 0;
  if (!keygen && strcasecmp(mode, "encapDecap") != 0) {
    return kat_error(c, "%s: ML-KEM mode \"%s\" is not known", c->path, mode);
  }
  size_t gi, ti;
  json_t *g, *t;
  json_array_foreach(json_object_get(set, "testGroups"), gi, g) {
    char where[64], id[96];
    snprintf(where, sizeof(where), "testGroups[%zu]", gi);
    const char *pname, *func = NULL, *format = NULL;
    fm_mlkem_param p;
    if (kj_str(c, g, "parameterSet", where, &pname) < 0 ||
        av_str_opt(c, g, "function", where, &func) < 0 ||
        av_str_opt(c, g, "keyFormat", where, &format) < 0)
      return -1;
    json_t *tests = kj_array(c, g, "tests", where);
    if (tests == NULL) return -1;
    const long n = (long)json_array_size(tests);
    if (param_of(pname, &p) < 0) {
      kat_skip_n(c, n, "ML-KEM parameter set %s is not offered", pname);
      continue;
    }
    int fn;
    if (keygen) fn = F_KEYGEN;
    else if (func == NULL) return kat_error(c, "%s: %s: no function", c->path, where);
    else if (strcmp(func, "encapsulation") == 0) fn = F_ENCAPS;
    else if (strcmp(func, "decapsulation") == 0) fn = F_DECAPS;
    else if (strcmp(func, "encapsulationKeyCheck") == 0) fn = F_EK_CHECK;
    else if (strcmp(func, "decapsulationKeyCheck") == 0) fn = F_DK_CHECK;
    else return kat_error(c, "%s: %s: unknown function \"%s\"", c->path, where, func);
    const int seed_form = format != NULL && strcmp(format, "seed") == 0;
    if (format != NULL && !seed_form && strcmp(format, "expanded") != 0)
      return kat_error(c, "%s: %s: unknown keyFormat \"%s\"", c->path, where, format);
    json_t *rg = ar_group(g);
    json_array_foreach(tests, ti, t) {
      kj_test_id(g, t, id, sizeof(id));
      json_t *rt = ar_test(t);
      const int r = answer(c, fn, seed_form, p, g, t, id, rt);
      if (r < 0) {
        json_decref(rt);
        json_decref(rg);
        return -1;
      }
      if (r == 1) ar_add_test(c, rg, rt);
      else json_decref(rt);
      ar_progress_tick(c);
      kat_arena_reset(c);
    }
    ar_add_group(groups, rg);
  }
  return 0;
}
