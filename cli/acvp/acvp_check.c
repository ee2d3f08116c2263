/* `fipsmod kat` on ACVP files: the response that `fipsmod acvp` would send is checked against
 * the answers the file carries (internalProjection) or its expectedResults. Answers that the
 * server computed from its inputs are compared field by field; answers the module chose itself
 * (generated keys, signatures under its own key, IVs it drew) cannot equal the server's, so
 * they are checked by their properties (acvp_rsa_check_group, check_ctr_iv, check_gcm_iv,
 * check_kdf). Tests are paired
 * through a hash table keyed by tgId and tcId: linear in the size of the files. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cli/acvp/acvp.h"
#include "fipsmod/aes.h"
#include "fipsmod/gcm.h"
#include "fipsmod/kdf.h"

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

/* check_ctr_iv: a CTR test answered under the module's own IV: decrypting the response's ct
 * under that IV must give the prompt's pt. */
static int check_ctr_iv(kat_ctx *c, json_t *pt_test, json_t *rt, const char *id) {
  kat_bytes key, pt, iv, ct;
  if (kj_hex(c, pt_test, "key", id, &key) < 0 || kj_hex(c, pt_test, "pt", id, &pt) < 0 ||
      kj_hex(c, rt, "iv", id, &iv) < 0 || kj_hex(c, rt, "ct", id, &ct) < 0) {
    return -1;
  }
  uint8_t *out = kat_alloc(c, ct.n);
  if (out == NULL) return -1;
  fm_aes_key ks;
  int r = iv.n == 16 ? fm_aes_key_init(&ks, key.p, key.n) : FM_ERR_LENGTH;
  if (r == FM_OK) r = fm_aes_ctr(&ks, FM_AES_CTR128, iv.p, ct.p, out, ct.n);
  fm_aes_key_wipe(&ks);
  if (r != FM_OK) {
    kat_fail(c, id, "checking the module's IV: AES-CTR returned %s", fm_strerror(r));
  } else {
    kat_compare(c, id, "pt (decrypted under the module's IV)", out, ct.n, pt.p, pt.n);
  }
  return 0;
}

/* check_gcm_iv: a GCM encryption answered under the module's own IV: opening the response's ct
 * and tag under that IV (and the prompt's key and AAD) must verify and give the prompt's
 * plaintext. */
static int check_gcm_iv(kat_ctx *c, json_t *pt_test, json_t *rt, const char *id) {
  static const char *const pt_names[] = {"plainText", "pt", NULL};
  const char *ptf = "plainText";
  kat_bytes key, pt = {0}, aad = {0}, iv, ct, tag;
  if (av_get(pt_test, pt_names, &ptf) == NULL) ptf = "plainText";
  if (kj_hex(c, pt_test, "key", id, &key) < 0 || kj_hex_opt(c, pt_test, ptf, id, &pt) < 0 ||
      kj_hex_opt(c, pt_test, "aad", id, &aad) < 0 || kj_hex(c, rt, "iv", id, &iv) < 0 ||
      kj_hex(c, rt, "ct", id, &ct) < 0 || kj_hex(c, rt, "tag", id, &tag) < 0) {
    return -1;
  }
  if (pt.p == NULL) pt.n = 0;
  if (aad.p == NULL) aad.n = 0;
  uint8_t *out = kat_alloc(c, ct.n);
  if (out == NULL) return -1;
  fm_gcm_key k;
  int r = iv.n == FM_GCM_IV_LEN ? fm_gcm_key_init(&k, key.p, key.n) : FM_ERR_LENGTH;
  if (r == FM_OK) r = fm_gcm_open(&k, iv.p, iv.n, aad.p, aad.n, ct.p, ct.n, tag.p, tag.n, out);
  fm_gcm_key_wipe(&k);
  if (r != FM_OK) {
    kat_fail(c, id, "checking the module's IV: AES-GCM open returned %s", fm_strerror(r));
  } else {
    kat_compare(c, id, "pt (opened under the module's IV)", out, ct.n, pt.p, pt.n);
  }
  return 0;
}

/* check_kdf: the module chooses the KDF fixed data (and break location), so its keyOut cannot
 * equal the server's. The server's own answer is checked instead: the module derives from the
 * expected fixedData and breakLocation and must give the expected keyOut; and the response's
 * keyOut must have the expected length. */
static int check_kdf(kat_ctx *c, json_t *pg, json_t *pt_test, json_t *et, json_t *rt,
                     const char *id) {
  const char *mac, *loc;
  long long ctr_bits, brk = -1;
  kat_bytes key, fixed, want, got;
  if (kj_str(c, pg, "macMode", id, &mac) < 0 || kj_str(c, pg, "counterLocation", id, &loc) < 0 ||
      av_int(c, pg, "counterLength", id, &ctr_bits) < 0 || kj_hex(c, pt_test, "keyIn", id, &key) < 0 ||
      kj_hex(c, et, "fixedData", id, &fixed) < 0 || kj_hex(c, et, "keyOut", id, &want) < 0 ||
      kj_hex(c, rt, "keyOut", id, &got) < 0 || av_int_opt(c, et, "breakLocation", id, &brk) < 0) {
    return -1;
  }
  fm_hash_alg alg = strcmp(mac, "HMAC-SHA2-256") == 0   ? FM_HASH_SHA256
                    : strcmp(mac, "HMAC-SHA2-384") == 0 ? FM_HASH_SHA384
                                                        : FM_HASH_SHA512;
  size_t pos = strcmp(loc, "before fixed data") == 0 ? 0 : fixed.n;
  if (strcmp(loc, "middle fixed data") == 0) {
    if (brk < 0 || brk % 8 != 0 || (unsigned long long)brk / 8 > fixed.n) {
      kat_skip(c, "KDF breakLocation %lld is not a whole byte inside the fixed data", brk);
      return 0;
    }
    pos = (size_t)(brk / 8);
  }
  if (got.n != want.n) {
    kat_fail(c, id, "keyOut has %zu bytes, %zu expected", got.n, want.n);
    return 0;
  }
  uint8_t *out = kat_alloc(c, want.n);
  if (out == NULL) return -1;
  int r = fm_kbkdf_ctr_hmac(alg, key.p, key.n, fixed.p, fixed.n, pos, (unsigned)ctr_bits, out,
                            want.n);
  if (r != FM_OK) {
    kat_fail(c, id, "fm_kbkdf_ctr_hmac on the expected fixedData returned %s", fm_strerror(r));
  } else {
    kat_compare(c, id, "keyOut (from the expected fixedData)", out, want.n, want.p, want.n);
  }
  return 0;
}

int acvp_check(kat_ctx *c, json_t *set, json_t *resp, json_t *expected) {
  const char *alg = json_string_value(json_object_get(set, "algorithm"));
  const char *mode = json_string_value(json_object_get(set, "mode"));
  int is_ctr = alg && strcmp(alg, "ACVP-AES-CTR") == 0;
  int is_gcm = alg && strcmp(alg, "ACVP-AES-GCM") == 0;
  int is_kdf = alg && (strcmp(alg, "KDF") == 0 || strcmp(alg, "counterMode") == 0);
  int rsa_chosen = alg && strcmp(alg, "RSA") == 0 && mode != NULL &&
                   (strcasecmp(mode, "keyGen") == 0 || strcasecmp(mode, "sigGen") == 0 ||
                    (strcasecmp(mode, "decryptionPrimitive") == 0 &&
                     json_is_string(json_object_get(set, "revision")) &&
                     strcmp(json_string_value(json_object_get(set, "revision")), "1.0") == 0));
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
    if (rsa_chosen) {
      char where[128];
      snprintf(where, sizeof(where), "tgId %s", key);
      if (acvp_rsa_check_group(c, mode, pg, g, eg, where) < 0) rc = -1;
      kat_arena_reset(c);
      if (rc < 0) break;
      continue;
    }
    {
      char where[128];
      snprintf(where, sizeof(where), "tgId %s", key);
      const int ec = acvp_ec_check_group(c, set, pg, g, eg, where);
      kat_arena_reset(c);
      if (ec < 0) rc = -1;
      if (ec < 0) break;
      if (ec == 0) continue;
    }
    json_array_foreach(json_object_get(g, "tests"), ti, t) {
      json_t *tcid = json_object_get(t, "tcId");
      id_key(tgid, tcid, key, sizeof(key));
      kj_test_id(g, t, id, sizeof(id));
      json_t *et = json_object_get(etests, key), *pt = json_object_get(ptests, key);
      if (is_ctr && json_object_get(t, "iv") && pt && !json_object_get(pt, "iv")) {
        if (check_ctr_iv(c, pt, t, id) < 0) {
          rc = -1;
          break;
        }
        kat_arena_reset(c);
        continue;
      }
      /* GCM internal IVs: the response's iv is the module's own. In an internalProjection the
       * test also holds the server's sample iv (an answer, not an input), so the group's ivGen
       * decides, not the iv's presence in the test. */
      const char *ivgen = json_string_value(json_object_get(pg, "ivGen"));
      const char *dir = json_string_value(json_object_get(pg, "direction"));
      int gcm_internal = ivgen && dir && strcmp(ivgen, "internal") == 0 && strcmp(dir, "encrypt") == 0;
      if (is_gcm && json_object_get(t, "iv") && pt && (gcm_internal || !json_object_get(pt, "iv"))) {
        if (check_gcm_iv(c, pt, t, id) < 0) {
          rc = -1;
          break;
        }
        kat_arena_reset(c);
        continue;
      }
      if (et == NULL) {
        kat_fail(c, id, "no expected answer for this test");
        continue;
      }
      if (is_kdf && pt && pg && json_object_get(t, "fixedData")) {
        if (check_kdf(c, pg, pt, et, t, id) < 0) {
          rc = -1;
          break;
        }
        kat_arena_reset(c);
        continue;
      }
      const char *f;
      json_t *v;
      char why[320] = "";
      int ok = 1, compared = 0;
      json_object_foreach(t, f, v) {
        if (strcmp(f, "tcId") == 0) continue;
        json_t *w = json_object_get(et, f);
        if (w == NULL) {
          /* signaturePrimitive / decryptionPrimitive: no output is expected for a failing
           * input; the testPassed comparison decides. */
          continue;
        }
        compared++;
        if (!values_equal(f, v, w, why, sizeof(why))) {
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
