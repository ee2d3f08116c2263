/* ACVP RSA in `fipsmod kat`: the answers the module chose itself cannot equal the server's, so
 * they are checked by their properties: keyGen keys import (n = p q, d and the CRT values
 * consistent) with the asked modulus size; sigGen signatures verify under the n and e the
 * response gives; decryptionPrimitive 1.0 answers hold under the module's own keys, with the
 * number of failures the group asks for. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/vectors/internal.h"
#include "cli/vectors/rsa_acvp.h"
#include "fipsmod/rsa.h"

/* ---- kat mode: answers the module chose itself ------------------------------------------- */

static int check_keygen_test(kat_ctx *c, json_t *pg, json_t *rt, const char *id) {
  kat_bytes n, e, d, p, q, dp, dq, qi;
  long long modulo = 0;
  if (rsa_num(c, rt, NULL, NAMES("n"), id, &n) != 0 ||
      rsa_num(c, rt, NULL, NAMES("p"), id, &p) != 0 ||
      rsa_num(c, rt, NULL, NAMES("q"), id, &q) != 0 || av_int(c, pg, "modulo", id, &modulo) < 0) {
    kat_fail(c, id, "keyGen response lacks n, p or q");
    return 0;
  }
  if (rsa_num(c, rt, NULL, NAMES("e"), id, &e) != 0 &&
      rsa_num(c, pg, NULL, NAMES("fixedPubExp"), id, &e) != 0) {
    e.p = (uint8_t *)"\x01\x00\x01";
    e.n = 3;
  }
  int rd = rsa_num(c, rt, NULL, NAMES("d"), id, &d);
  int rdp = rsa_num(c, rt, NULL, NAMES("dmp1"), id, &dp);
  int rdq = rsa_num(c, rt, NULL, NAMES("dmq1"), id, &dq);
  int rqi = rsa_num(c, rt, NULL, NAMES("iqmp"), id, &qi);
  if (rd < 0 || rdp < 0 || rdq < 0 || rqi < 0) return -1;
  uint8_t dbuf[FM_RSA_MAX_BYTES];
  if (rd == 1) {
    /* A CRT-form answer: the module derives d from e, p and q. */
    fm_rsa_key *pq = NULL;
    size_t dl = 0;
    int rp = fm_rsa_key_import_private_pq(e.p, e.n, p.p, p.n, q.p, q.n, &pq);
    if (rp == FM_OK) rp = fm_rsa_key_export(pq, FM_RSA_D, dbuf, sizeof(dbuf), &dl);
    fm_rsa_key_free(pq);
    if (rp != FM_OK) {
      kat_fail(c, id, "keyGen response: no d, and none follows from p, q and e");
      return 0;
    }
    d.p = dbuf;
    d.n = dl;
  }
  int crt = rdp == 0 && rdq == 0 && rqi == 0;
  fm_rsa_private_components pc = {
      .n = n.p, .n_len = n.n, .e = e.p, .e_len = e.n, .d = d.p, .d_len = d.n,
      .p = p.p, .p_len = p.n, .q = q.p, .q_len = q.n,
      .dp = crt ? dp.p : NULL, .dp_len = crt ? dp.n : 0,
      .dq = crt ? dq.p : NULL, .dq_len = crt ? dq.n : 0,
      .qinv = crt ? qi.p : NULL, .qinv_len = crt ? qi.n : 0,
  };
  fm_rsa_key *key = NULL;
  /* The import validates n = p q, the sizes of p and q, d e = 1 mod p-1 and q-1 and the CRT
   * values (rsa.h). */
  int r = fm_rsa_key_import_private(&pc, &key);
  kat_wipe(dbuf, sizeof(dbuf));
  if (r != FM_OK) {
    kat_fail(c, id, "the generated key does not import: %s", fm_strerror(r));
  } else if (kat_num_bits(n) != (size_t)modulo) {
    kat_fail(c, id, "the generated modulus has %zu bits, the group asks %lld", kat_num_bits(n),
             modulo);
  } else {
    kat_pass(c);
  }
  fm_rsa_key_free(key);
  return 0;
}

/* verify_with: 1 when |sig| verifies under (n, e) with the group's scheme, 0 when not, -1 when
 * the key does not import. */
static int verify_with(kat_bytes n, kat_bytes e, const scheme *s, kat_bytes msg, kat_bytes sig) {
  fm_rsa_key *key = NULL;
  if (fm_rsa_key_import_public(n.p, n.n, e.p, e.n, &key) != FM_OK) return -1;
  int r = s->pss ? fm_rsa_verify_pss(key, s->alg, msg.p, msg.n, (size_t)s->salt_len, sig.p, sig.n)
                 : fm_rsa_verify_pkcs1v15(key, s->alg, msg.p, msg.n, sig.p, sig.n);
  fm_rsa_key_free(key);
  return r == FM_OK;
}

static int check_group(kat_ctx *c, const char *mode, json_t *pg, json_t *rg, json_t *eg,
                       const char *where) {
  size_t ti, ri;
  json_t *t, *r;
  char id[96];
  if (pg == NULL) return kat_error(c, "%s: %s: response group without a prompt group", c->path, where);
  if (strcasecmp(mode, "keyGen") == 0) {
    json_array_foreach(json_object_get(rg, "tests"), ti, t) {
      kj_test_id(rg, t, id, sizeof(id));
      if (check_keygen_test(c, pg, t, id) < 0) return -1;
      kat_arena_reset(c);
    }
    return 0;
  }
  if (strcasecmp(mode, "sigGen") == 0) {
    scheme s;
    int sr = rsa_scheme(c, pg, where, 0, 1, &s);
    if (sr < 0) return -1;
    if (sr > 0) {
      /* The response answers only offered groups: the prompt group found for it is another
       * (its tgId is repeated). */
      return kat_error(c, "%s: %s: the prompt group of this tgId has a scheme the module does not "
                       "offer, yet it was answered (a repeated tgId?)", c->path, where);
    }
    json_t *etests = eg ? json_object_get(eg, "tests") : NULL;
    json_array_foreach(json_object_get(rg, "tests"), ti, t) {
      kj_test_id(rg, t, id, sizeof(id));
      /* decoded per test: the arena is reset after each */
      kat_bytes n, e, en = {0}, ee = {0};
      if (rsa_num(c, rg, NULL, NAMES("n"), where, &n) != 0 ||
          rsa_num(c, rg, NULL, NAMES("e"), where, &e) != 0) {
        return kat_error(c, "%s: %s: sigGen response group without n and e", c->path, where);
      }
      int nist_key = eg != NULL && rsa_num(c, eg, NULL, NAMES("n"), where, &en) == 0 &&
                     rsa_num(c, eg, NULL, NAMES("e"), where, &ee) == 0;
      json_t *ptest = NULL, *etest = NULL, *x;
      size_t k;
      json_array_foreach(json_object_get(pg, "tests"), k, x) {
        if (json_equal(json_object_get(x, "tcId"), json_object_get(t, "tcId"))) ptest = x;
      }
      json_array_foreach(etests, k, x) {
        if (json_equal(json_object_get(x, "tcId"), json_object_get(t, "tcId"))) etest = x;
      }
      kat_bytes msg, sig, esig;
      if (ptest == NULL) {
        return kat_error(c, "%s: %s: no prompt test with this tcId in the group", c->path, id);
      }
      if (kj_hex(c, ptest, "message", id, &msg) < 0 || kj_num(c, t, "signature", id, &sig) < 0) {
        return -1;
      }
      int mine = verify_with(n, e, &s, msg, sig);
      int theirs = 1;
      if (nist_key && etest && rsa_num(c, etest, NULL, NAMES("signature"), id, &esig) == 0) {
        theirs = verify_with(en, ee, &s, msg, esig);
      }
      if (mine != 1) {
        kat_fail(c, id, "the module's signature does not verify under its n, e");
      } else if (theirs != 1) {
        kat_fail(c, id, "the expected (NIST) signature does not verify under NIST's n, e");
      } else {
        kat_pass(c);
      }
      kat_arena_reset(c);
    }
    return 0;
  }
  /* decryptionPrimitive 1.0: the module's keys; failures forced where the modulus is at most
   * the ciphertext. */
  long long fails = 0;
  if (rsa_total_failing(c, pg, where, &fails) < 0) return -1;
  json_array_foreach(json_object_get(rg, "tests"), ti, t) {
    kj_test_id(rg, t, id, sizeof(id));
    json_t *ptest = NULL, *x;
    size_t k;
    json_array_foreach(json_object_get(pg, "tests"), k, x) {
      if (json_equal(json_object_get(x, "tcId"), json_object_get(t, "tcId"))) ptest = x;
    }
    json_t *parr = json_object_get(ptest, "resultsArray"), *rarr = json_object_get(t, "resultsArray");
    if (json_array_size(parr) != json_array_size(rarr)) {
      kat_fail(c, id, "resultsArray has %zu entries, the prompt %zu", json_array_size(rarr),
               json_array_size(parr));
      continue;
    }
    long long nfail = 0;
    int ok = 1;
    json_array_foreach(rarr, ri, r) {
      kat_bytes ct, n, pt;
      int passed = 0;
      if (rsa_num(c, json_array_get(parr, ri), NULL, CT_NAMES, id, &ct) != 0 ||
          rsa_num(c, r, NULL, NAMES("n"), id, &n) != 0 ||
          av_bool(c, r, "testPassed", id, &passed) < 0) {
        if (!c->report->error) {
          kat_error(c, "%s: %s: resultsArray[%zu] lacks its ciphertext, or the answer its n", c->path,
                    id, ri);
        }
        return -1;
      }
      if (!passed) {
        nfail++;
        if (kat_num_cmp(ct, n) < 0) ok = 0;
      } else if (rsa_num(c, r, NULL, NAMES("plainText"), id, &pt) != 0 || kat_num_cmp(pt, n) >= 0 ||
                 kat_num_cmp(ct, n) >= 0) {
        ok = 0;
      }
    }
    if (!ok || nfail != (fails < (long long)json_array_size(parr) ? fails : (long long)json_array_size(parr))) {
      kat_fail(c, id, "resultsArray: %lld forced failures (expected %lld), or a verdict that does "
               "not fit the modulus", nfail, fails);
    } else {
      kat_pass(c);
    }
    kat_arena_reset(c);
  }
  return 0;
}

/* acvp_rsa_check_group: keyGen, sigGen and decryptionPrimitive 1.0 answer with keys the module
 * made; the other modes are compared field by field. */
int acvp_rsa_check_group(kat_ctx *c, const vec_call *v, json_t *pg, json_t *rg, json_t *eg,
                         const char *where) {
  const char *mode = v->mode;
  int chosen = mode != NULL &&
               (strcasecmp(mode, "keyGen") == 0 || strcasecmp(mode, "sigGen") == 0 ||
                (strcasecmp(mode, "decryptionPrimitive") == 0 && strcmp(v->revision, "1.0") == 0));
  if (!chosen) return 0;
  return check_group(c, mode, pg, rg, eg, where) < 0 ? -1 : 1;
}
