/* CTR_DRBG known answers (SP 800-90A): CAVP CTR_DRBG.rsp (no reseed, reseed, prediction
 * resistance layouts) and ACVP ctrDRBG-1.0. The module offers AES-256 with and without the
 * derivation function; other sections and groups are skipped. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cli/kat/kat_internal.h"
#include "fipsmod/drbg.h"

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

