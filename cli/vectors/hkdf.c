/* KDA HKDF Sp800-56Cr1 and Sp800-56Cr2 (draft-hammett-acvp-kas-kdf-hkdf): AFT (the module
 * derives dkm) and VAL (the module derives and compares with the prompt's dkm: testPassed),
 * with HMAC-SHA2-256/384/512 and the "concatenation" fixedInfo encoding (fields uPartyInfo,
 * vPartyInfo, context, label, algorithmId, t, l and literals). Cr2 hybrid shared
 * secrets use Z' = Z || T (SP 800-56Cr2 2, 4). Other HMACs and lengths that are not whole
 * bytes are left out with a reason.
 *
 * Cr2 multi-expansion groups ("multiExpansion": true; hkdf/sections/06-test-vectors.adoc,
 * kdfmulticonfig, kdfMultiExpansionParameter, iterationParameters; 07-responses.adoc): the group
 * gives kdfMultiExpansionConfiguration {kdfType, l, saltLen, saltMethod, hmacAlg} and no
 * fixedInfoPattern; each test gives kdfMultiExpansionParameter {salt, z, t, hmacAlg,
 * iterationParameters: [{l, fixedInfo}]}, the fixedInfo already built by the server. The
 * module extracts once (fm_hkdf_extract: PRK = HMAC(salt, Z [|| T]), SP 800-56Cr2 5.1) and
 * expands once per entry (fm_hkdf_expand with that entry's fixedInfo and l, 5.2). AFT answers
 * "dkms", the derived keys in the order of iterationParameters; VAL compares with the prompt's
 * "dkms" and answers testPassed, true only when every entry matches and the counts agree (the
 * spec gives one verdict per test). */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cli/vectors/internal.h"
#include "fipsmod/kdf.h"

static fm_hash_alg hash_of(const char *name) {
  if (strcmp(name, "SHA2-256") == 0) return FM_HASH_SHA256;
  if (strcmp(name, "SHA2-384") == 0) return FM_HASH_SHA384;
  if (strcmp(name, "SHA2-512") == 0) return FM_HASH_SHA512;
  return (fm_hash_alg)0;
}

/* The most fixedInfo a test builds: party infos, context, label, algorithmId and literals. */
#define FIXED_INFO_CAP 8192

/* put appends |n| bytes to the fixedInfo buffer; -1 when it would not fit. */
static int put(uint8_t *buf, size_t *len, const uint8_t *p, size_t n) {
  if (n > FIXED_INFO_CAP - *len) return -1;
  if (n) memcpy(buf + *len, p, n);
  *len += n;
  return 0;
}

/* party_info: partyId { || ephemeralData } (hkdf/sections/05-capabilities, fixedinfopatcon). */
static int party_info(kat_ctx *c, json_t *t, const char *field, const char *id, uint8_t *buf,
                      size_t *len) {
  json_t *o = json_object_get(t, field);
  kat_bytes pid, eph = {0};
  if (!json_is_object(o)) return kat_error(c, "%s: %s: %s is missing", c->path, id, field);
  if (kj_hex(c, o, "partyId", id, &pid) < 0 || kj_hex_opt(c, o, "ephemeralData", id, &eph) < 0) {
    return -1;
  }
  if (put(buf, len, pid.p, pid.n) < 0 || (eph.p && put(buf, len, eph.p, eph.n) < 0)) {
    return kat_error(c, "%s: %s: fixedInfo longer than %d bytes", c->path, id, FIXED_INFO_CAP);
  }
  return 0;
}

/* fixed_info evaluates the group's fixedInfoPattern for test |t| into |buf|. Returns 0, 1 when
 * the pattern names a field the runner does not know (*why set), or -1 (malformed). */
static int fixed_info(kat_ctx *c, const char *pattern, json_t *t, json_t *kp, long long l_bits,
                      const char *id, uint8_t *buf, size_t *len, char *why, size_t why_cap) {
  *len = 0;
  const char *p = pattern;
  while (*p) {
    const char *end = strstr(p, "||");
    size_t n = end ? (size_t)(end - p) : strlen(p);
    char tok[256];
    if (n == 0 || n >= sizeof(tok)) return kat_error(c, "%s: %s: bad fixedInfoPattern", c->path, id);
    memcpy(tok, p, n);
    tok[n] = '\0';
    int rc = 0;
    if (strncmp(tok, "literal[", 8) == 0 && tok[n - 1] == ']') {
      tok[n - 1] = '\0';
      kat_bytes lit;
      if (kat_hex_decode(c, tok + 8, 1, &lit) < 0) {
        return kat_error(c, "%s: %s: literal is not hex", c->path, id);
      }
      if (strlen(tok + 8) % 2 != 0) {
        /* The spec's own example, literal[123456789CAFECAFE] (hkdf/sections/05-capabilities,
         * fixedinfopatcon), has 17 digits: a fixedInfo that is not whole bytes, which the
         * module (byte strings) cannot take. */
        snprintf(why, why_cap, "fixedInfoPattern literal of an odd number of hex digits: "
                 "fixedInfo is not whole bytes");
        return 1;
      }
      rc = put(buf, len, lit.p, lit.n);
    } else if (strcmp(tok, "uPartyInfo") == 0) {
      if (party_info(c, t, "fixedInfoPartyU", id, buf, len) < 0) return -1;
    } else if (strcmp(tok, "vPartyInfo") == 0) {
      if (party_info(c, t, "fixedInfoPartyV", id, buf, len) < 0) return -1;
    } else if (strcmp(tok, "context") == 0 || strcmp(tok, "label") == 0 ||
               strcmp(tok, "algorithmId") == 0) {
      kat_bytes v;
      if (kj_hex(c, kp, tok, id, &v) < 0) return -1;
      rc = put(buf, len, v.p, v.n);
    } else if (strcmp(tok, "t") == 0) {
      /* SP 800-56Cr2 hybrid secrets: the auxiliary shared secret T may also go into fixedInfo
       * (NIST's server puts it there in half of its single-expansion Cr2 groups). */
      kat_bytes v;
      if (kj_hex(c, kp, "t", id, &v) < 0) return -1;
      rc = put(buf, len, v.p, v.n);
    } else if (strcmp(tok, "l") == 0) {
      /* L in bits, 32 bits big-endian, as ACVP fixes it. */
      uint8_t be[4] = {(uint8_t)(l_bits >> 24), (uint8_t)(l_bits >> 16), (uint8_t)(l_bits >> 8),
                       (uint8_t)l_bits};
      rc = put(buf, len, be, 4);
    } else {
      snprintf(why, why_cap, "fixedInfoPattern field \"%.64s\" is not known to the runner", tok);
      return 1;
    }
    if (rc < 0) {
      return kat_error(c, "%s: %s: fixedInfo longer than %d bytes", c->path, id, FIXED_INFO_CAP);
    }
    p += n;
    if (end) p += 2;
  }
  return 0;
}

/* multi_group answers one multi-expansion group (see the head of the file). Returns 0, or -1
 * when malformed. */
static int multi_group(kat_ctx *c, json_t *g, json_t *tests, int val, int hybrid,
                       const char *where, json_t *groups) {
  long n = (long)json_array_size(tests);
  json_t *cfg = json_object_get(g, "kdfMultiExpansionConfiguration");
  const char *hname, *kdf_type = NULL;
  if (!json_is_object(cfg)) {
    return kat_error(c, "%s: %s: a multi-expansion group without kdfMultiExpansionConfiguration",
                     c->path, where);
  }
  if (kj_str(c, cfg, "hmacAlg", where, &hname) < 0 ||
      av_str_opt(c, cfg, "kdfType", where, &kdf_type) < 0) {
    return -1;
  }
  if (kdf_type != NULL && strcasecmp(kdf_type, "hkdf") != 0) {
    kat_skip_n(c, n, "KDA kdfType \"%s\" is not HKDF", kdf_type);
    return 0;
  }
  fm_hash_alg alg = hash_of(hname);
  if (alg == 0) {
    kat_skip_n(c, n, "KDA HKDF with HMAC-%s: the module offers HMAC-SHA2-256/384/512", hname);
    return 0;
  }
  size_t ti, ii;
  json_t *t, *it;
  char id[96];
  json_t *rg = ar_group(g);
  json_array_foreach(tests, ti, t) {
    kj_test_id(g, t, id, sizeof(id));
    json_t *kp = json_object_get(t, "kdfMultiExpansionParameter");
    json_t *iters = json_is_object(kp) ? kj_array(c, kp, "iterationParameters", id) : NULL;
    json_t *want = NULL;
    const char *th = NULL;
    kat_bytes salt, z, aux = {0};
    if (!json_is_object(kp)) {
      json_decref(rg);
      return kat_error(c, "%s: %s: kdfMultiExpansionParameter is missing", c->path, id);
    }
    if (iters == NULL || kj_hex_opt(c, kp, "salt", id, &salt) < 0 || kj_hex(c, kp, "z", id, &z) < 0 ||
        (hybrid && kj_hex(c, kp, "t", id, &aux) < 0) || av_str_opt(c, kp, "hmacAlg", id, &th) < 0 ||
        (val && (want = kj_array(c, t, "dkms", id)) == NULL)) {
      json_decref(rg);
      return -1;
    }
    if (th != NULL && strcmp(th, hname) != 0) {
      json_decref(rg);
      return kat_error(c, "%s: %s: hmacAlg %s differs from the group's %s", c->path, id, th, hname);
    }
    if (json_array_size(iters) == 0) {
      json_decref(rg);
      return kat_error(c, "%s: %s: iterationParameters is empty", c->path, id);
    }
    if (salt.p == NULL) salt.n = 0;
    /* Every entry is read before the module runs: a malformed one fails the file, an entry
     * of l that is not whole bytes leaves the test out. */
    int whole = 1;
    json_array_foreach(iters, ii, it) {
      long long l_bits;
      kat_bytes fi;
      if (av_int(c, it, "l", id, &l_bits) < 0 || kj_hex_opt(c, it, "fixedInfo", id, &fi) < 0) {
        json_decref(rg);
        return -1;
      }
      if (l_bits <= 0 || l_bits > (1LL << 20)) {
        json_decref(rg);
        return kat_error(c, "%s: %s: iterationParameters[%zu] l %lld", c->path, id, ii, l_bits);
      }
      if (l_bits % 8 != 0) whole = 0;
    }
    if (!whole) {
      kat_skip(c, "KDA HKDF multi-expansion entry with l not whole bytes: the module derives "
               "whole bytes");
      ar_progress_tick(c);
      kat_arena_reset(c);
      continue;
    }
    uint8_t *zz = kat_alloc(c, z.n + aux.n);
    if (zz == NULL) {
      json_decref(rg);
      return -1;
    }
    memcpy(zz, z.p, z.n);
    if (aux.n) memcpy(zz + z.n, aux.p, aux.n);
    /* SP 800-56Cr2 5.1: one randomness extraction for the test, Z' = Z || T when hybrid. */
    uint8_t prk[FM_MAX_DIGEST_LEN];
    size_t hlen = alg == FM_HASH_SHA256 ? 32 : alg == FM_HASH_SHA384 ? 48 : 64;
    int rc = fm_hkdf_extract(alg, salt.p, salt.n, zz, z.n + aux.n, prk, sizeof(prk));
    json_t *dkms = json_array();
    int passed = val ? json_array_size(want) == json_array_size(iters) : 1, bad = 0;
    json_array_foreach(iters, ii, it) {
      if (rc != FM_OK) break;
      long long l_bits = 0;
      kat_bytes fi, w = {0};
      (void)!av_int(c, it, "l", id, &l_bits); /* read and checked above */
      (void)!kj_hex_opt(c, it, "fixedInfo", id, &fi);
      if (fi.p == NULL) fi.n = 0;
      size_t len = (size_t)(l_bits / 8);
      uint8_t *out = kat_alloc(c, len);
      if (out == NULL) {
        bad = 1;
        break;
      }
      /* SP 800-56Cr2 5.2: the expansion of this entry, with its own FixedInfo and L. */
      rc = fm_hkdf_expand(alg, prk, hlen, fi.p, fi.n, out, len);
      if (rc != FM_OK) break;
      if (val) {
        json_t *wv = json_array_get(want, ii);
        if (wv == NULL) continue; /* fewer expected keys than entries: passed is already 0 */
        if (!json_is_string(wv) || kat_hex_decode(c, json_string_value(wv), 0, &w) < 0) {
          if (!c->report->error) kat_error(c, "%s: %s: dkms[%zu] is not hex", c->path, id, ii);
          bad = 1;
          break;
        }
        if (w.n != len || memcmp(w.p, out, len) != 0) passed = 0;
      } else {
        json_t *o = json_object();
        ar_hex(o, "dkm", out, len);
        json_array_append(dkms, json_object_get(o, "dkm"));
        json_decref(o);
      }
    }
    kat_wipe(prk, sizeof(prk));
    if (bad) {
      json_decref(dkms);
      json_decref(rg);
      return -1;
    }
    if (rc == FM_OK) {
      json_t *rt = ar_test(t);
      if (val) {
        json_object_set_new(rt, "testPassed", json_boolean(passed));
        json_decref(dkms);
      } else {
        json_object_set_new(rt, "dkms", dkms);
      }
      ar_add_test(c, rg, rt);
    } else {
      json_decref(dkms);
      kat_fail(c, id, "HKDF multi-expansion returned %s", fm_strerror(rc));
    }
    ar_progress_tick(c);
    kat_arena_reset(c);
  }
  ar_add_group(groups, rg);
  return 0;
}

int acvp_hkdf(kat_ctx *c, json_t *set, json_t *groups, const vec_call *v) {
  const char *revision = v->revision;
  int cr2 = strcasecmp(revision, "Sp800-56Cr2") == 0;
  size_t gi, ti;
  json_t *g, *t;
  json_array_foreach(json_object_get(set, "testGroups"), gi, g) {
    char where[64], id[96];
    snprintf(where, sizeof(where), "testGroups[%zu]", gi);
    const char *type;
    int multi = 0, hybrid = 0;
    if (kj_str(c, g, "testType", where, &type) < 0 ||
        av_bool_opt(c, g, "multiExpansion", where, &multi) < 0 ||
        av_bool_opt(c, g, "usesHybridSharedSecret", where, &hybrid) < 0) {
      return -1;
    }
    json_t *tests = kj_array(c, g, "tests", where);
    if (tests == NULL) return -1;
    long n = (long)json_array_size(tests);
    int val = strcmp(type, "VAL") == 0;
    if (!val && strcmp(type, "AFT") != 0) {
      kat_skip_n(c, n, "KDA HKDF test type \"%s\" is not known", type);
      continue;
    }
    if ((hybrid || multi) && !cr2) {
      return kat_error(c, "%s: %s: %s is only defined for Sp800-56Cr2", c->path, where,
                       hybrid ? "a hybrid shared secret" : "multi-expansion");
    }
    if (multi) {
      if (multi_group(c, g, tests, val, hybrid, where, groups) < 0) return -1;
      continue;
    }
    json_t *cfg = json_object_get(g, "kdfConfiguration");
    const char *hname, *pattern, *encoding = NULL, *kdf_type = NULL;
    long long l_bits;
    if (!json_is_object(cfg)) {
      return kat_error(c, "%s: %s: kdfConfiguration is missing", c->path, where);
    }
    if (kj_str(c, cfg, "hmacAlg", where, &hname) < 0 ||
        kj_str(c, cfg, "fixedInfoPattern", where, &pattern) < 0 ||
        av_str_opt(c, cfg, "fixedInfoEncoding", where, &encoding) < 0 ||
        av_str_opt(c, cfg, "kdfType", where, &kdf_type) < 0 || av_int(c, cfg, "l", where, &l_bits) < 0) {
      return -1;
    }
    fm_hash_alg alg = hash_of(hname);
    /* "hkdf" in the examples, "HKDF" in the kdfConfiguration table (06-test-vectors.adoc). */
    if (kdf_type != NULL && strcasecmp(kdf_type, "hkdf") != 0) {
      kat_skip_n(c, n, "KDA kdfType \"%s\" is not HKDF", kdf_type);
      continue;
    }
    if (alg == 0) {
      kat_skip_n(c, n, "KDA HKDF with HMAC-%s: the module offers HMAC-SHA2-256/384/512", hname);
      continue;
    }
    if (encoding != NULL && strcasecmp(encoding, "concatenation") != 0) {
      kat_skip_n(c, n, "fixedInfoEncoding \"%s\": the runner builds concatenation", encoding);
      continue;
    }
    if (l_bits <= 0 || l_bits > (1LL << 20)) {
      return kat_error(c, "%s: %s: l %lld", c->path, where, l_bits);
    }
    if (l_bits % 8 != 0) {
      kat_skip_n(c, n, "KDA HKDF l of %lld bits: the module derives whole bytes", l_bits);
      continue;
    }
    size_t len = (size_t)(l_bits / 8);
    json_t *rg = ar_group(g);
    json_array_foreach(tests, ti, t) {
      kj_test_id(g, t, id, sizeof(id));
      json_t *kp = json_object_get(t, "kdfParameter");
      kat_bytes salt, z, aux = {0}, dkm = {0};
      if (!json_is_object(kp)) {
        json_decref(rg);
        return kat_error(c, "%s: %s: kdfParameter is missing", c->path, id);
      }
      if (kj_hex_opt(c, kp, "salt", id, &salt) < 0 || kj_hex(c, kp, "z", id, &z) < 0 ||
          (hybrid && kj_hex(c, kp, "t", id, &aux) < 0) || (val && kj_hex(c, t, "dkm", id, &dkm) < 0)) {
        json_decref(rg);
        return -1;
      }
      if (salt.p == NULL) salt.n = 0;
      uint8_t *fixed = kat_alloc(c, FIXED_INFO_CAP), *out = kat_alloc(c, len);
      uint8_t *zz = kat_alloc(c, z.n + aux.n);
      if (fixed == NULL || out == NULL || zz == NULL) {
        json_decref(rg);
        return -1;
      }
      size_t flen;
      char why[200];
      int fr = fixed_info(c, pattern, t, kp, l_bits, id, fixed, &flen, why, sizeof(why));
      if (fr < 0) {
        json_decref(rg);
        return -1;
      }
      if (fr == 1) {
        kat_skip(c, "%s", why);
        ar_progress_tick(c);
        kat_arena_reset(c);
        continue;
      }
      /* SP 800-56Cr2 2: a hybrid shared secret Z' = Z || T. */
      memcpy(zz, z.p, z.n);
      if (aux.n) memcpy(zz + z.n, aux.p, aux.n);
      int rc = fm_hkdf(alg, zz, z.n + aux.n, salt.p, salt.n, fixed, flen, out, len);
      if (rc == FM_OK) {
        json_t *rt = ar_test(t);
        if (val) {
          json_object_set_new(rt, "testPassed",
                              json_boolean(dkm.n == len && memcmp(dkm.p, out, len) == 0));
        } else {
          ar_hex(rt, "dkm", out, len);
        }
        ar_add_test(c, rg, rt);
      } else {
        kat_fail(c, id, "fm_hkdf returned %s", fm_strerror(rc));
      }
      ar_progress_tick(c);
      kat_arena_reset(c);
    }
    ar_add_group(groups, rg);
  }
  return 0;
}
