/* ACVP ctrDRBG 1.0 and SP800-90Ar1 (draft-vassilev-acvp-drbg): AES-256 with and without the
 * derivation function, with and without prediction resistance and reseed. Each test
 * instantiates, then runs its otherInput steps in order (drbg/sections/06-test-vectors.adoc,
 * tests_table): "reSeed" reseeds with its entropy and additional input; "generate" generates
 * returnedBitsLen bits (with prediction resistance, after reseeding with its entropy input).
 * The response's returnedBits are the last generate's output. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cli/vectors/internal.h"
#include "fipsmod/drbg.h"

static const uint8_t *ptr(const kat_bytes *b) { return b->n ? b->p : NULL; }

int acvp_drbg(kat_ctx *c, json_t *set, json_t *groups, const vec_call *v) {
  (void)v;
  size_t gi, ti, oi;
  json_t *g, *t, *o;
  json_array_foreach(json_object_get(set, "testGroups"), gi, g) {
    char where[64], id[96];
    snprintf(where, sizeof(where), "testGroups[%zu]", gi);
    const char *mode, *type = NULL;
    int df, pr;
    long long rbits, ctr_len = 128;
    if (kj_str(c, g, "mode", where, &mode) < 0 || av_bool(c, g, "derFunc", where, &df) < 0 ||
        av_bool(c, g, "predResistance", where, &pr) < 0 ||
        av_int(c, g, "returnedBitsLen", where, &rbits) < 0 ||
        av_int_opt(c, g, "counterFieldLen", where, &ctr_len) < 0 ||
        av_str_opt(c, g, "testType", where, &type) < 0) {
      return -1;
    }
    json_t *tests = kj_array(c, g, "tests", where);
    if (tests == NULL) return -1;
    long n = (long)json_array_size(tests);
    if (strcmp(mode, "AES-256") != 0) {
      kat_skip_n(c, n, "ctrDRBG %s is not offered (AES-256 only)", mode);
      continue;
    }
    if (type != NULL && strcmp(type, "AFT") != 0) {
      kat_skip_n(c, n, "ctrDRBG test type \"%s\" is not known", type);
      continue;
    }
    if (ctr_len != 128) {
      kat_skip_n(c, n, "ctrDRBG counterFieldLen %lld is not offered (the whole 128-bit block)",
                 ctr_len);
      continue;
    }
    if (rbits <= 0) return kat_error(c, "%s: %s: returnedBitsLen %lld", c->path, where, rbits);
    if (rbits % 8 != 0 || rbits / 8 > FM_DRBG_MAX_REQUEST) {
      kat_skip_n(c, n, "ctrDRBG returnedBitsLen %lld is not offered (whole bytes, at most %d per "
                 "request)", rbits, FM_DRBG_MAX_REQUEST);
      continue;
    }
    size_t out_len = (size_t)(rbits / 8);
    unsigned flags = (df ? FM_DRBG_USE_DF : 0) | (pr ? FM_DRBG_PREDICTION_RESISTANCE : 0);
    json_t *rg = ar_group(g);
    json_array_foreach(tests, ti, t) {
      kj_test_id(g, t, id, sizeof(id));
      kat_bytes ent, nonce, pers;
      json_t *other;
      uint8_t *out = kat_alloc(c, out_len);
      if (out == NULL || kj_hex(c, t, "entropyInput", id, &ent) < 0 ||
          kj_hex_opt(c, t, "nonce", id, &nonce) < 0 || kj_hex_opt(c, t, "persoString", id, &pers) < 0 ||
          (other = kj_array(c, t, "otherInput", id)) == NULL) {
        json_decref(rg);
        return -1;
      }
      fm_ctr_drbg drbg;
      /* Without the df, SP 800-90Ar1 10.2.1.3.1 takes no nonce: one sent is not used. */
      int r = fm_ctr_drbg_instantiate(&drbg, flags, ent.p, ent.n, df ? ptr(&nonce) : NULL,
                                      df ? nonce.n : 0, ptr(&pers), pers.n);
      const char *step = "instantiate";
      int generates = 0;
      json_array_foreach(other, oi, o) {
        const char *use;
        kat_bytes ai, oent;
        if (kj_str(c, o, "intendedUse", id, &use) < 0 ||
            kj_hex_opt(c, o, "additionalInput", id, &ai) < 0 ||
            kj_hex_opt(c, o, "entropyInput", id, &oent) < 0) {
          fm_ctr_drbg_uninstantiate(&drbg);
          json_decref(rg);
          return -1;
        }
        if (strcmp(use, "reSeed") == 0) {
          if (r == FM_OK) {
            step = "reseed";
            r = fm_ctr_drbg_reseed(&drbg, oent.p, oent.n, ptr(&ai), ai.n);
          }
        } else if (strcmp(use, "generate") == 0) {
          generates++;
          if (r == FM_OK) {
            step = "generate";
            r = fm_ctr_drbg_generate(&drbg, out, out_len, pr ? ptr(&oent) : NULL, pr ? oent.n : 0,
                                     ptr(&ai), ai.n);
          }
        } else {
          fm_ctr_drbg_uninstantiate(&drbg);
          json_decref(rg);
          return kat_error(c, "%s: %s: unknown intendedUse \"%s\"", c->path, id, use);
        }
      }
      fm_ctr_drbg_uninstantiate(&drbg);
      if (generates == 0) {
        json_decref(rg);
        return kat_error(c, "%s: %s: no generate step in otherInput", c->path, id);
      }
      if (r != FM_OK) {
        kat_fail(c, id, "%s returned %s", step, fm_strerror(r));
      } else {
        json_t *rt = ar_test(t);
        ar_hex(rt, "returnedBits", out, out_len);
        ar_add_test(c, rg, rt);
      }
      ar_progress_tick(c);
      kat_arena_reset(c);
    }
    ar_add_group(groups, rg);
  }
  return 0;
}

/* ---- CAVP -------------------------------------------------------------------------------- */

/* CTR_DRBG known answers (SP 800-90A): CAVP CTR_DRBG.rsp (no reseed, reseed, prediction
 * resistance layouts) and ACVP ctrDRBG-1.0. The module offers AES-256 with and without the
 * derivation function; other sections and groups are skipped. */
#define MAX_GENERATES 8

static const uint8_t *ptr_or_null(const kat_bytes *b) { return b->n ? b->p : NULL; }

int kat_cavp_drbg(kat_ctx *c, const rsp_file *f) {
  static const char *const start[] = {"COUNT", NULL};
  rsp_walk w;
  rsp_case cs;
  int rc;
  rsp_walk_init(&w, f, start, NULL);
  kat_set_kind(c, "CAVP CTR_DRBG");
  while ((rc = rsp_next_case(c, &w, &cs)) == 1) {
    unsigned flags;
    if (strcmp(cs.section, "AES-256 use df") == 0) {
      flags = FM_DRBG_USE_DF;
    } else if (strcmp(cs.section, "AES-256 no df") == 0) {
      flags = 0;
    } else {
      kat_skip(c, "[%s]: only AES-256 CTR_DRBG is offered", cs.section);
      continue;
    }
    const char *prs = rsp_attr(&cs, "PredictionResistance");
    long rbits;
    const char *rbl = rsp_attr(&cs, "ReturnedBitsLen");
    if (prs == NULL || rbl == NULL || kat_parse_long(rbl, &rbits) < 0 || rbits <= 0 ||
        rbits % 8 != 0) {
      return kat_error(c, "%s:%d: case %s lacks [PredictionResistance] / [ReturnedBitsLen]",
                       c->path, cs.line, cs.id);
    }
    int pr = strcasecmp(prs, "True") == 0;
    if (pr) flags |= FM_DRBG_PREDICTION_RESISTANCE;

    /* The case's lines in file order: instantiate inputs, an optional reseed, then one
     * AdditionalInput (and with prediction resistance one EntropyInputPR) per generate. */
    kat_bytes ent, nonce, pers, ent_rs = {0}, ai_rs = {0}, want;
    kat_bytes ai[MAX_GENERATES], ent_pr[MAX_GENERATES];
    int n_ai = 0, n_pr = 0, has_reseed = 0;
    if (rsp_hex(c, &w, &cs, "EntropyInput", &ent) < 0 || rsp_hex_opt(c, &w, &cs, "Nonce", &nonce) < 0 ||
        rsp_hex_opt(c, &w, &cs, "PersonalizationString", &pers) < 0 ||
        rsp_hex(c, &w, &cs, "ReturnedBits", &want) < 0) {
      return -1;
    }
    for (int i = 0; i < cs.n_kv; i++) {
      const rsp_line *l = cs.kv[i];
      kat_bytes *dst = NULL;
      if (strcasecmp(l->key, "AdditionalInput") == 0) {
        if (n_ai == MAX_GENERATES) return kat_error(c, "%s:%d: too many generates", c->path, l->line);
        dst = &ai[n_ai++];
      } else if (strcasecmp(l->key, "EntropyInputPR") == 0) {
        if (n_pr == MAX_GENERATES) return kat_error(c, "%s:%d: too many generates", c->path, l->line);
        dst = &ent_pr[n_pr++];
      } else if (strcasecmp(l->key, "EntropyInputReseed") == 0) {
        dst = &ent_rs;
        has_reseed = 1;
      } else if (strcasecmp(l->key, "AdditionalInputReseed") == 0) {
        dst = &ai_rs;
      }
      if (dst != NULL && kat_hex_decode(c, l->val, 0, dst) < 0) {
        return kat_error(c, "%s:%d: `%s` is not hex", c->path, l->line, l->key);
      }
    }
    if (n_ai == 0 || (pr && n_pr != n_ai) || (!pr && n_pr != 0) || want.n * 8 != (size_t)rbits) {
      return kat_error(c, "%s:%d: case %s: generate inputs or ReturnedBits do not match the "
                       "section headers", c->path, cs.line, cs.id);
    }
    fm_ctr_drbg drbg;
    uint8_t *out = kat_alloc(c, want.n);
    if (out == NULL) return -1;
    int r = fm_ctr_drbg_instantiate(&drbg, flags, ent.p, ent.n, ptr_or_null(&nonce), nonce.n,
                                    ptr_or_null(&pers), pers.n);
    const char *step = "instantiate";
    if (r == FM_OK && has_reseed) {
      step = "reseed";
      r = fm_ctr_drbg_reseed(&drbg, ent_rs.p, ent_rs.n, ptr_or_null(&ai_rs), ai_rs.n);
    }
    for (int i = 0; i < n_ai && r == FM_OK; i++) {
      step = "generate";
      r = fm_ctr_drbg_generate(&drbg, out, want.n, pr ? ent_pr[i].p : NULL, pr ? ent_pr[i].n : 0,
                               ptr_or_null(&ai[i]), ai[i].n);
    }
    fm_ctr_drbg_uninstantiate(&drbg);
    if (r != FM_OK) {
      kat_fail(c, cs.id, "%s returned %s", step, fm_strerror(r));
    } else {
      kat_compare(c, cs.id, "ReturnedBits", out, want.n, want.p, want.n);
    }
    kat_arena_reset(c);
  }
  return rc;
}

