/* Wycheproof ML-KEM files (FIPS 203): the four schemas of C2SP's testvectors_v1.
 *   mlkem_test_schema: a seed (d || z) gives ek, and decapsulating c with the key gives K; an
 *     invalid case has a seed or ciphertext of the wrong length (FM_ERR_LENGTH, outputs wiped);
 *     modified ciphertexts are valid cases whose K is the implicit-rejection key.
 *   mlkem_keygen_seed_test_schema: seed -> ek and dk.
 *   mlkem_encaps_test_schema: Encaps_internal(ek, m) -> c, K; an invalid ek (wrong length, or a
 *     coefficient not reduced mod q) must fail the checks of FIPS 203 7.2.
 *   mlkem_semi_expanded_decaps_test_schema: Decaps(dk, c) -> K; wrong lengths and a dk whose
 *     hash check (7.3) fails must be refused.
 * Every refusal must leave the outputs zeroed. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cli/vectors/internal.h"
#include "fipsmod/mlkem.h"

enum { WP_MLKEM = 1, WP_MLKEM_KEYGEN, WP_MLKEM_ENCAPS, WP_MLKEM_DECAPS };

static int param_of(const char *name, fm_mlkem_param *p) {
  if (strcmp(name, "ML-KEM-512") == 0) *p = FM_MLKEM_512;
  else if (strcmp(name, "ML-KEM-768") == 0) *p = FM_MLKEM_768;
  else if (strcmp(name, "ML-KEM-1024") == 0) *p = FM_MLKEM_1024;
  else return -1;
  return 0;
}

static int all_zero(const uint8_t *p, size_t n) {
  uint8_t acc = 0;
  for (size_t i = 0; i < n; i++) acc |= p[i];
  return acc == 0;
}

/* same: 1 when got equals want; otherwise records the case's failure (no pass either way, so a
 * case with several outputs counts once). */
static int same(kat_ctx *c, const char *id, const char *what, const uint8_t *got, size_t got_len,
                const kat_bytes *want) {
  if (got_len == want->n && memcmp(got, want->p, got_len) == 0) return 1;
  char g[100], w[100];
  kat_hex_string(got, got_len, g, sizeof(g));
  kat_hex_string(want->p, want->n, w, sizeof(w));
  kat_fail(c, id, "%s mismatch: expected %s (%zu bytes), got %s (%zu bytes)", what, w, want->n, g,
           got_len);
  return 0;
}

/* refused: an invalid case's call must fail with a length or key status and write nothing. */
static void check_refused(kat_ctx *c, const char *id, const char *what, int st, const uint8_t *out,
                          size_t out_len) {
  if (st != FM_ERR_LENGTH && st != FM_ERR_BAD_KEY) {
    kat_fail(c, id, "%s: invalid input gave %s", what, fm_strerror(st));
  } else if (!all_zero(out, out_len)) {
    kat_fail(c, id, "%s: refused, but the output was not wiped", what);
  } else {
    kat_pass(c);
  }
}

static void run_case(kat_ctx *c, int kind, fm_mlkem_param p, json_t *t, const char *id, int valid) {
  size_t ek_n, dk_n, ct_n;
  (void)!fm_mlkem_sizes(p, &ek_n, &dk_n, &ct_n);
  uint8_t ek[FM_MLKEM_MAX_EK_LEN], dk[FM_MLKEM_MAX_DK_LEN], ct[FM_MLKEM_MAX_CT_LEN], k[32];
  memset(k, 0xee, sizeof k);
  kat_bytes seed, wek, wdk, wc, wk, m;
  if (kind == WP_MLKEM || kind == WP_MLKEM_KEYGEN) {
    if (kj_hex(c, t, "seed", id, &seed) < 0) return;
    memset(ek, 0xee, sizeof ek);
    memset(dk, 0xee, sizeof dk);
    int st = fm_mlkem_keygen_from_seed(p, seed.p, seed.n, ek, ek_n, dk, dk_n);
    if (!valid && seed.n != FM_MLKEM_SEED_LEN) {
      check_refused(c, id, "keygen_from_seed", st, ek, ek_n);
      return;
    }
    if (st != FM_OK) {
      kat_fail(c, id, "fm_mlkem_keygen_from_seed: %s", fm_strerror(st));
      return;
    }
    if (kj_hex(c, t, "ek", id, &wek) < 0) return;
    if (!same(c, id, "ek", ek, ek_n, &wek)) return;
    if (kind == WP_MLKEM_KEYGEN) {
      if (kj_hex(c, t, "dk", id, &wdk) < 0) return;
      if (!same(c, id, "dk", dk, dk_n, &wdk)) return;
      kat_pass(c);
      return;
    }
    if (kj_hex(c, t, "c", id, &wc) < 0) return;
    st = fm_mlkem_decaps(p, dk, dk_n, wc.p, wc.n, k, sizeof k);
    if (!valid) {
      check_refused(c, id, "decaps", st, k, sizeof k);
      return;
    }
    if (st != FM_OK) {
      kat_fail(c, id, "fm_mlkem_decaps: %s", fm_strerror(st));
      return;
    }
    if (kj_hex(c, t, "K", id, &wk) < 0) return;
    if (same(c, id, "K", k, sizeof k, &wk)) kat_pass(c);
    return;
  }
  if (kind == WP_MLKEM_ENCAPS) {
    if (kj_hex(c, t, "ek", id, &wek) < 0 || kj_hex(c, t, "m", id, &m) < 0) return;
    memset(ct, 0xee, sizeof ct);
    int st = fm_mlkem_encaps_internal(p, wek.p, wek.n, m.p, m.n, ct, ct_n, k, sizeof k);
    if (!valid) {
      int chk = fm_mlkem_check_ek(p, wek.p, wek.n);
      if (chk == FM_OK) kat_fail(c, id, "fm_mlkem_check_ek accepted an invalid key");
      else check_refused(c, id, "encaps_internal", st, k, sizeof k);
      return;
    }
    if (st != FM_OK) {
      kat_fail(c, id, "fm_mlkem_encaps_internal: %s", fm_strerror(st));
      return;
    }
    if (kj_hex(c, t, "c", id, &wc) < 0 || kj_hex(c, t, "K", id, &wk) < 0) return;
    if (same(c, id, "c", ct, ct_n, &wc) && same(c, id, "K", k, sizeof k, &wk))
      kat_pass(c);
    return;
  }
  /* WP_MLKEM_DECAPS */
  if (kj_hex(c, t, "dk", id, &wdk) < 0 || kj_hex(c, t, "c", id, &wc) < 0) return;
  int st = fm_mlkem_decaps(p, wdk.p, wdk.n, wc.p, wc.n, k, sizeof k);
  if (!valid) {
    check_refused(c, id, "decaps", st, k, sizeof k);
    return;
  }
  if (st != FM_OK) {
    kat_fail(c, id, "fm_mlkem_decaps: %s", fm_strerror(st));
    return;
  }
  if (kj_hex(c, t, "K", id, &wk) < 0) return;
  if (same(c, id, "K", k, sizeof k, &wk)) kat_pass(c);
}

int kat_wp_mlkem(kat_ctx *c, json_t *root, const vec_call *v) {
  const char *schema = v->schema;
  int kind;
  if (strncmp(schema, "mlkem_test_schema", 17) == 0) kind = WP_MLKEM;
  else if (strncmp(schema, "mlkem_keygen_seed_test_schema", 29) == 0) kind = WP_MLKEM_KEYGEN;
  else if (strncmp(schema, "mlkem_encaps_test_schema", 24) == 0) kind = WP_MLKEM_ENCAPS;
  else if (strncmp(schema, "mlkem_semi_expanded_decaps_test_schema", 38) == 0) kind = WP_MLKEM_DECAPS;
  else return kat_error(c, "%s: ML-KEM schema \"%s\" not known", c->path, schema);
  kat_set_kind(c, "Wycheproof ML-KEM (%s)", schema);
  json_t *groups = kj_array(c, root, "testGroups", "file");
  if (groups == NULL) return -1;
  size_t gi, ti;
  json_t *g, *t;
  json_array_foreach(groups, gi, g) {
    char where[64], id[96];
    snprintf(where, sizeof(where), "testGroups[%zu]", gi);
    const char *pname;
    fm_mlkem_param p;
    if (kj_str(c, g, "parameterSet", where, &pname) < 0) return -1;
    json_t *tests = kj_array(c, g, "tests", where);
    if (tests == NULL) return -1;
    if (param_of(pname, &p) < 0) {
      kat_skip_n(c, (long)json_array_size(tests), "parameter set %s not offered", pname);
      continue;
    }
    json_array_foreach(tests, ti, t) {
      kj_test_id(NULL, t, id, sizeof(id));
      const int r = kj_result(c, t, id);
      if (r < 0) return -1;
      run_case(c, kind, p, t, id, r == KJ_VALID);
      kat_arena_reset(c);
      if (c->report->error) return -1;
    }
  }
  return 0;
}

/* ---- ACVP -------------------------------------------------------------------------------- */

/* ACVP ML-KEM (draft-celi-acvp-ml-kem, ../shared/specs/acvp/ml-kem/): keyGen (FIPS203; AFT: d and
 * z -> ek and dk) and encapDecap (FIPS203 and FIPS203-tr1):
 *   - "encapsulation" (AFT): ek and m -> c and k (Encaps_internal);
 *   - "decapsulation" (AFT or VAL): dk (keyFormat "expanded", the default) or seed (keyFormat
 *     "seed", expanded with KeyGen_internal), and c -> k (implicit rejection included);
 *   - "encapsulationKeyCheck" / "decapsulationKeyCheck" (VAL): ek / dk -> testPassed, the checks
 *     of FIPS 203 7.2 and 7.3.
 * A key or seed may sit in the test or, as older sets have it, in its group. */
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

int acvp_mlkem(kat_ctx *c, json_t *set, json_t *groups, const vec_call *v) {
  const char *mode = v->mode;
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
