/* KDF known answers: CAVP KDFCTR_gen.rsp (SP 800-108 counter mode: [PRF=...], [CTRLOCATION=
 * BEFORE_FIXED|AFTER_FIXED|MIDDLE_FIXED], [RLEN=r_BITS]; HMAC-SHA2 PRFs run, the others are
 * skipped with the reason), Wycheproof HkdfTest (hkdf_sha*_test.json) and PbkdfTest
 * (pbkdf2_hmacsha*_test.json) files. */
#include <stdio.h>
#include <string.h>

#include "cli/kat/kat_internal.h"
#include "fipsmod/kdf.h"

int kat_cavp_kbkdf(kat_ctx *c, const rsp_file *f) {
  static const char *const start[] = {"COUNT", NULL};
  rsp_walk w;
  rsp_case cs;
  int rc;
  rsp_walk_init(&w, f, start, NULL);
  kat_set_kind(c, "CAVP KBKDF counter mode");
  while ((rc = rsp_next_case(c, &w, &cs)) == 1) {
    const char *prf = rsp_attr(&cs, "PRF"), *loc = rsp_attr(&cs, "CTRLOCATION");
    const char *rlen = rsp_attr(&cs, "RLEN");
    if (prf == NULL || loc == NULL || rlen == NULL) {
      return kat_error(c, "%s:%d: case %s is not under [PRF/CTRLOCATION/RLEN] sections", c->path,
                       cs.line, cs.id);
    }
    fm_hash_alg alg;
    if (strcmp(prf, "HMAC_SHA256") == 0) {
      alg = FM_HASH_SHA256;
    } else if (strcmp(prf, "HMAC_SHA384") == 0) {
      alg = FM_HASH_SHA384;
    } else if (strcmp(prf, "HMAC_SHA512") == 0) {
      alg = FM_HASH_SHA512;
    } else {
      kat_skip(c, "PRF %s: the module's KBKDF takes HMAC-SHA-256/384/512", prf);
      continue;
    }
    long r = 0, bits;
    if (sscanf(rlen, "%ld_BITS", &r) != 1) {
      return kat_error(c, "%s:%d: [RLEN=%s] is not r_BITS", c->path, cs.line, rlen);
    }
    kat_bytes ki, ko, before = {0}, after = {0};
    if (rsp_long(c, &w, &cs, "L", &bits) < 0 || rsp_hex(c, &w, &cs, "KI", &ki) < 0 ||
        rsp_hex(c, &w, &cs, "KO", &ko) < 0) {
      return -1;
    }
    size_t pos;
    uint8_t *fixed;
    size_t fixed_len;
    if (strcmp(loc, "MIDDLE_FIXED") == 0) {
      if (rsp_hex(c, &w, &cs, "DataBeforeCtrData", &before) < 0 ||
          rsp_hex(c, &w, &cs, "DataAfterCtrData", &after) < 0) {
        return -1;
      }
      fixed_len = before.n + after.n;
      fixed = kat_alloc(c, fixed_len);
      if (fixed == NULL) return -1;
      memcpy(fixed, before.p, before.n);
      memcpy(fixed + before.n, after.p, after.n);
      pos = before.n;
    } else if (strcmp(loc, "BEFORE_FIXED") == 0 || strcmp(loc, "AFTER_FIXED") == 0) {
      kat_bytes fx;
      if (rsp_hex(c, &w, &cs, "FixedInputData", &fx) < 0) return -1;
      fixed = fx.p;
      fixed_len = fx.n;
      pos = loc[0] == 'B' ? 0 : fixed_len;
    } else {
      kat_skip(c, "[CTRLOCATION=%s] is not a counter-mode location the module offers", loc);
      continue;
    }
    if (bits <= 0 || bits % 8 != 0 || ko.n * 8 != (size_t)bits) {
      return kat_error(c, "%s:%d: case %s: L does not match KO", c->path, cs.line, cs.id);
    }
    uint8_t *out = kat_alloc(c, ko.n);
    if (out == NULL) return -1;
    int r2 = fm_kbkdf_ctr_hmac(alg, ki.p, ki.n, fixed, fixed_len, pos, (unsigned)r, out, ko.n);
    if (r2 != FM_OK) {
      kat_fail(c, cs.id, "fm_kbkdf_ctr_hmac returned %s", fm_strerror(r2));
    } else {
      kat_compare(c, cs.id, "KO", out, ko.n, ko.p, ko.n);
    }
    kat_arena_reset(c);
  }
  return rc;
}

/* The hash of a Wycheproof HKDF or PBKDF2 "algorithm" name ending in SHA-256/SHA256 etc.
 * Returns 0, or -1 for a hash the module does not offer. */
static int wp_hash(const char *alg, fm_hash_alg *out) {
  size_t n = strlen(alg);
  const char *tail = n >= 3 ? alg + n - 3 : alg;
  int sha = strstr(alg, "SHA") != NULL && strstr(alg, "SHA3") == NULL &&
            strstr(alg, "SHA-3") == NULL && strstr(alg, "/") == NULL;
  if (sha && strcmp(tail, "256") == 0 && strstr(alg, "512/256") == NULL) {
    *out = FM_HASH_SHA256;
  } else if (sha && strcmp(tail, "384") == 0) {
    *out = FM_HASH_SHA384;
  } else if (sha && strcmp(tail, "512") == 0) {
    *out = FM_HASH_SHA512;
  } else {
    return -1;
  }
  return 0;
}

/* Wycheproof HkdfTest: "valid" cases must give okm; "invalid" ones (an output longer than
 * 255 * HashLen, RFC 5869 2.3) must be refused. */
int kat_wp_hkdf(kat_ctx *c, json_t *root, const char *alg_name) {
  fm_hash_alg alg;
  kat_set_kind(c, "Wycheproof %s", alg_name);
  json_t *groups = kj_array(c, root, "testGroups", "file");
  if (groups == NULL) return -1;
  int offered = wp_hash(alg_name, &alg) == 0;
  size_t gi, ti;
  json_t *g, *t;
  json_array_foreach(groups, gi, g) {
    char where[64], id[96];
    snprintf(where, sizeof(where), "testGroups[%zu]", gi);
    json_t *tests = kj_array(c, g, "tests", where);
    if (tests == NULL) return -1;
    if (!offered) {
      kat_skip_n(c, (long)json_array_size(tests),
                 "%s: the module's HKDF takes HMAC-SHA-256/384/512", alg_name);
      continue;
    }
    json_array_foreach(tests, ti, t) {
      kj_test_id(NULL, t, id, sizeof(id));
      kat_bytes ikm, salt, info, okm;
      long size;
      const char *result;
      if (kj_hex(c, t, "ikm", id, &ikm) < 0 || kj_hex(c, t, "salt", id, &salt) < 0 ||
          kj_hex(c, t, "info", id, &info) < 0 || kj_hex(c, t, "okm", id, &okm) < 0 ||
          kj_int(c, t, "size", id, &size) < 0 || kj_str(c, t, "result", id, &result) < 0) {
        return -1;
      }
      if (size <= 0 || size > (1L << 20)) {
        return kat_error(c, "%s: %s: size %ld", c->path, id, size);
      }
      uint8_t *out = kat_alloc(c, (size_t)size);
      if (out == NULL) return -1;
      int rc = fm_hkdf(alg, ikm.p, ikm.n, salt.p, salt.n, info.p, info.n, out, (size_t)size);
      if (strcmp(result, "valid") == 0) {
        if (rc != FM_OK) {
          kat_fail(c, id, "fm_hkdf returned %s", fm_strerror(rc));
        } else {
          kat_compare(c, id, "okm", out, (size_t)size, okm.p, okm.n);
        }
      } else if (strcmp(result, "invalid") == 0) {
        if (rc == FM_OK) {
          kat_fail(c, id, "an invalid HKDF request (%s) was served", "size");
        } else {
          kat_pass(c);
        }
      } else {
        kat_skip(c, "Wycheproof result \"%s\": no fixed outcome to check", result);
      }
      kat_arena_reset(c);
    }
  }
  return 0;
}

/* Wycheproof PbkdfTest: "valid" cases must give dk; "invalid" ones must be refused. */
int kat_wp_pbkdf2(kat_ctx *c, json_t *root, const char *alg_name) {
  fm_hash_alg alg;
  kat_set_kind(c, "Wycheproof %s", alg_name);
  json_t *groups = kj_array(c, root, "testGroups", "file");
  if (groups == NULL) return -1;
  int offered = wp_hash(alg_name, &alg) == 0;
  size_t gi, ti;
  json_t *g, *t;
  json_array_foreach(groups, gi, g) {
    char where[64], id[96];
    snprintf(where, sizeof(where), "testGroups[%zu]", gi);
    json_t *tests = kj_array(c, g, "tests", where);
    if (tests == NULL) return -1;
    if (!offered) {
      kat_skip_n(c, (long)json_array_size(tests),
                 "%s: the module's PBKDF2 takes HMAC-SHA-256/384/512", alg_name);
      continue;
    }
    json_array_foreach(tests, ti, t) {
      kj_test_id(NULL, t, id, sizeof(id));
      kat_bytes pw, salt, dk;
      long iters, len;
      const char *result;
      if (kj_hex(c, t, "password", id, &pw) < 0 || kj_hex(c, t, "salt", id, &salt) < 0 ||
          kj_hex(c, t, "dk", id, &dk) < 0 || kj_int(c, t, "iterationCount", id, &iters) < 0 ||
          kj_int(c, t, "dkLen", id, &len) < 0 || kj_str(c, t, "result", id, &result) < 0) {
        return -1;
      }
      if (len <= 0 || len > (1L << 20) || iters < 0) {
        return kat_error(c, "%s: %s: dkLen %ld or iterationCount %ld", c->path, id, len, iters);
      }
      uint8_t *out = kat_alloc(c, (size_t)len);
      if (out == NULL) return -1;
      int rc = fm_pbkdf2_hmac(alg, pw.p, pw.n, salt.p, salt.n, (uint64_t)iters, out, (size_t)len);
      if (strcmp(result, "valid") == 0) {
        if (rc != FM_OK) {
          kat_fail(c, id, "fm_pbkdf2_hmac returned %s", fm_strerror(rc));
        } else {
          kat_compare(c, id, "dk", out, (size_t)len, dk.p, dk.n);
        }
      } else if (strcmp(result, "invalid") == 0) {
        if (rc == FM_OK) {
          kat_fail(c, id, "an invalid PBKDF2 request was served");
        } else {
          kat_pass(c);
        }
      } else {
        kat_skip(c, "Wycheproof result \"%s\": no fixed outcome to check", result);
      }
      kat_arena_reset(c);
    }
  }
  return 0;
}
