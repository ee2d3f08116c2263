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

#include "cli/kat/kat_internal.h"
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

int kat_wp_mlkem(kat_ctx *c, json_t *root, const char *schema) {
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
