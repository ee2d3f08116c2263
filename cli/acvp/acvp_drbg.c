/* ACVP ctrDRBG 1.0 and SP800-90Ar1 (draft-vassilev-acvp-drbg): AES-256 with and without the
 * derivation function, with and without prediction resistance and reseed. Each test
 * instantiates, then runs its otherInput steps in order (drbg/sections/06-test-vectors.adoc,
 * tests_table): "reSeed" reseeds with its entropy and additional input; "generate" generates
 * returnedBitsLen bits (with prediction resistance, after reseeding with its entropy input).
 * The response's returnedBits are the last generate's output. */
#include <stdio.h>
#include <string.h>

#include "cli/acvp/acvp.h"
#include "fipsmod/drbg.h"

static const uint8_t *ptr(const kat_bytes *b) { return b->n ? b->p : NULL; }

int acvp_drbg(kat_ctx *c, json_t *set, json_t *groups) {
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
