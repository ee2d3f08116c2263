/* KDF known answers: CAVP KDFCTR_gen.rsp (SP 800-108 counter mode: [PRF=...], [CTRLOCATION=
 * BEFORE_FIXED|AFTER_FIXED|MIDDLE_FIXED], [RLEN=r_BITS]; HMAC-SHA2 PRFs run, the others are
 * skipped with the reason), Wycheproof HkdfTest (hkdf_sha*_test.json) and PbkdfTest
 * (pbkdf2_hmacsha*_test.json) files of any hash (SHA-256/384/512 run, the others skipped). */
#include <stdio.h>
#include <string.h>

#include "cli/vectors/internal.h"
#include "fipsmod/kdf.h"
#include "fipsmod/rand.h"

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

/* ---- Wycheproof HkdfTest and PbkdfTest ------------------------------------------------------
 * Both files hold testGroups of tests with inputs, an expected output, "result" and "flags"; one
 * walker reads them and judges the module's answer: "valid" must give the output, "invalid"
 * (an HKDF output over 255 * HashLen, RFC 5869 2.3) must be refused, "acceptable" may be
 * refused, but what the module serves must be right. The hash comes from the file's own
 * "algorithm" ("HKDF-SHA-384", "PBKDF2-HMACSHA512"). */

/* wp_kdf_hash reads the hash after |prefix| in a Wycheproof "algorithm" name, written with or
 * without dashes (SHA-256, SHA256). Returns 1 with *alg set for SHA-256/384/512, 0 for any other
 * hash (SHA-1, SHA-224, SHA-512/256, SHA3-256: not offered), -1 when |name| does not start with
 * |prefix|. */
static int wp_kdf_hash(const char *name, const char *prefix, fm_hash_alg *alg) {
  size_t n = strlen(prefix);
  if (strncmp(name, prefix, n) != 0) return -1;
  char h[32];
  size_t o = 0;
  for (const char *p = name + n; *p != '\0' && o + 1 < sizeof(h); p++) {
    if (*p != '-' && *p != '_') h[o++] = *p;
  }
  h[o] = '\0';
  static const struct {
    const char *name;
    fm_hash_alg alg;
  } offered[] = {
      {"SHA256", FM_HASH_SHA256}, {"SHA384", FM_HASH_SHA384}, {"SHA512", FM_HASH_SHA512}};
  for (size_t i = 0; i < sizeof(offered) / sizeof(offered[0]); i++) {
    if (strcmp(h, offered[i].name) == 0) {
      *alg = offered[i].alg;
      return 1;
    }
  }
  return 0;
}

/* What one KDF needs of the walker: the name its "algorithm" starts with, the field of the
 * expected output, and derive, which reads the test's inputs and runs the module (-1 on a
 * malformed test, 1 when it left the test out (counted as skipped), else 0 with the module's
 * status and what it wrote). */
typedef struct wp_kdf {
  const char *name;   /* "HKDF", in messages */
  const char *prefix; /* of "algorithm" */
  const char *out_field;
  int (*derive)(kat_ctx *c, json_t *t, const char *id, fm_hash_alg alg, int *status,
                uint8_t **out, size_t *out_len);
} wp_kdf;

static int wp_kdf_run(kat_ctx *c, json_t *root, const char *alg_name, const wp_kdf *k) {
  fm_hash_alg alg = FM_HASH_SHA256;
  kat_set_kind(c, "Wycheproof %s", alg_name);
  int offered = wp_kdf_hash(alg_name, k->prefix, &alg);
  if (offered < 0) {
    return kat_error(c, "%s: a %s file whose \"algorithm\" is \"%s\", not %s<hash>", c->path,
                     k->name, alg_name, k->prefix);
  }
  json_t *groups = kj_array(c, root, "testGroups", "file");
  if (groups == NULL) return -1;
  size_t gi, ti;
  json_t *g, *t;
  json_array_foreach(groups, gi, g) {
    char where[64], id[96], flags[96];
    snprintf(where, sizeof(where), "testGroups[%zu]", gi);
    json_t *tests = kj_array(c, g, "tests", where);
    if (tests == NULL) return -1;
    if (!offered) {
      kat_skip_n(c, (long)json_array_size(tests),
                 "%s: the module's %s takes HMAC-SHA-256/384/512", alg_name, k->name);
      continue;
    }
    json_array_foreach(tests, ti, t) {
      kj_test_id(NULL, t, id, sizeof(id));
      kat_bytes want;
      uint8_t *out = NULL;
      size_t out_len = 0;
      int status, verdict = kj_result(c, t, id), dr = 0;
      if (verdict < 0 || kj_hex(c, t, k->out_field, id, &want) < 0 ||
          (dr = k->derive(c, t, id, alg, &status, &out, &out_len)) < 0) {
        return -1;
      }
      if (dr > 0) {
        kat_arena_reset(c);
        continue;
      }
      kj_flags(t, flags, sizeof(flags));
      if (verdict == KJ_INVALID) {
        if (status == FM_OK) {
          kat_fail(c, id, "an invalid %s request (%s) was served", k->name, flags);
        } else {
          kat_pass(c);
        }
      } else if (status != FM_OK && verdict == KJ_ACCEPTABLE) {
        kat_skip(c, "Wycheproof \"acceptable\" (%s): the module refuses it, which the vector "
                 "allows", flags);
      } else if (status != FM_OK) {
        kat_fail(c, id, "%s returned %s", k->name, fm_strerror(status));
      } else {
        kat_compare(c, id, k->out_field, out, out_len, want.p, want.n);
      }
      kat_arena_reset(c);
    }
  }
  return 0;
}

static int hkdf_derive(kat_ctx *c, json_t *t, const char *id, fm_hash_alg alg, int *status,
                       uint8_t **out, size_t *out_len) {
  kat_bytes ikm, salt, info;
  long size;
  if (kj_hex(c, t, "ikm", id, &ikm) < 0 || kj_hex(c, t, "salt", id, &salt) < 0 ||
      kj_hex(c, t, "info", id, &info) < 0 || kj_int(c, t, "size", id, &size) < 0) {
    return -1;
  }
  if (size <= 0 || size > (1L << 20)) return kat_error(c, "%s: %s: size %ld", c->path, id, size);
  if ((*out = kat_alloc(c, (size_t)size)) == NULL) return -1;
  *out_len = (size_t)size;
  *status = fm_hkdf(alg, ikm.p, ikm.n, salt.p, salt.n, info.p, info.n, *out, *out_len);
  return 0;
}

static int pbkdf2_derive(kat_ctx *c, json_t *t, const char *id, fm_hash_alg alg, int *status,
                         uint8_t **out, size_t *out_len) {
  kat_bytes pw, salt;
  long iters, len;
  if (kj_hex(c, t, "password", id, &pw) < 0 || kj_hex(c, t, "salt", id, &salt) < 0 ||
      kj_int(c, t, "iterationCount", id, &iters) < 0 || kj_int(c, t, "dkLen", id, &len) < 0) {
    return -1;
  }
  if (len <= 0 || len > (1L << 20) || iters < 0) {
    return kat_error(c, "%s: %s: dkLen %ld or iterationCount %ld", c->path, id, len, iters);
  }
  /* A count the runner will not spend the time on (2^24 is RFC 6070's largest): left out with
   * the reason, not hashed for hours or days. */
  if (iters > (1L << 24)) {
    kat_skip(c, "PBKDF2 iterationCount above 16777216 (2^24, the runner's bound)");
    return 1;
  }
  if ((*out = kat_alloc(c, (size_t)len)) == NULL) return -1;
  *out_len = (size_t)len;
  *status = fm_pbkdf2_hmac(alg, pw.p, pw.n, salt.p, salt.n, (uint64_t)iters, *out, *out_len);
  return 0;
}

int kat_wp_hkdf(kat_ctx *c, json_t *root, const vec_call *v) {
  const char *alg_name = v->alg;
  static const wp_kdf hkdf = {"HKDF", "HKDF-", "okm", hkdf_derive};
  return wp_kdf_run(c, root, alg_name, &hkdf);
}

int kat_wp_pbkdf2(kat_ctx *c, json_t *root, const vec_call *v) {
  const char *alg_name = v->alg;
  static const wp_kdf pbkdf2 = {"PBKDF2", "PBKDF2-HMAC", "dk", pbkdf2_derive};
  return wp_kdf_run(c, root, alg_name, &pbkdf2);
}

/* ---- ACVP -------------------------------------------------------------------------------- */

/* PBKDF 1.0 (draft-celi-acvp-pbkdf: AFT, HMAC-SHA2 PRFs) and KDF 1.0 (draft-celi-acvp-kbkdf:
 * SP 800-108 counter mode with HMAC-SHA2 PRFs, the counter before, after or in the middle of
 * the fixed data). For KDF the module chooses the fixed data itself (kdf/sections/07-responses:
 * "The fixed input data used by the IUT"), and for "middle fixed data" the break location;
 * the response carries both. Other PRFs (CMAC, KMAC, SHA-1, SHA-224, SHA-3), feedback and
 * double-pipeline modes, and lengths that are not whole bytes are left out with a reason. */
/* hash_of maps an ACVP hash name ("SHA2-256", or the PRF "HMAC-SHA2-256") to the module's
 * hash; 0 when the module does not offer it. */
static fm_hash_alg hash_of(const char *name) {
  if (strncmp(name, "HMAC-", 5) == 0) name += 5;
  if (strcmp(name, "SHA2-256") == 0) return FM_HASH_SHA256;
  if (strcmp(name, "SHA2-384") == 0) return FM_HASH_SHA384;
  if (strcmp(name, "SHA2-512") == 0) return FM_HASH_SHA512;
  return (fm_hash_alg)0;
}

int acvp_pbkdf(kat_ctx *c, json_t *set, json_t *groups, const vec_call *v) {
  (void)v;
  size_t gi, ti;
  json_t *g, *t;
  json_array_foreach(json_object_get(set, "testGroups"), gi, g) {
    char where[64], id[96];
    snprintf(where, sizeof(where), "testGroups[%zu]", gi);
    const char *type, *hname;
    if (kj_str(c, g, "testType", where, &type) < 0 || kj_str(c, g, "hmacAlg", where, &hname) < 0) {
      return -1;
    }
    json_t *tests = kj_array(c, g, "tests", where);
    if (tests == NULL) return -1;
    long n = (long)json_array_size(tests);
    fm_hash_alg alg = hash_of(hname);
    if (alg == 0) {
      kat_skip_n(c, n, "PBKDF with HMAC-%s: the module offers HMAC-SHA2-256/384/512", hname);
      continue;
    }
    if (strcmp(type, "AFT") != 0) {
      kat_skip_n(c, n, "PBKDF test type \"%s\" is not known", type);
      continue;
    }
    json_t *rg = ar_group(g);
    json_array_foreach(tests, ti, t) {
      kj_test_id(g, t, id, sizeof(id));
      long long bits, iters;
      const char *pw;
      kat_bytes salt;
      if (av_int(c, t, "keyLen", id, &bits) < 0 || av_int(c, t, "iterationCount", id, &iters) < 0 ||
          kj_str(c, t, "password", id, &pw) < 0 || kj_hex(c, t, "salt", id, &salt) < 0) {
        json_decref(rg);
        return -1;
      }
      /* The ACVP PBKDF domain (draft-celi-acvp-pbkdf, capabilities): iterationCount 1 to 10^7.
       * A count past it is a damaged set, not days of hashing. */
      if (bits <= 0 || iters <= 0 || bits > (1LL << 24) || iters > 10000000) {
        json_decref(rg);
        return kat_error(c, "%s: %s: keyLen (%lld) or iterationCount (%lld, at most 10000000) out "
                         "of range", c->path, id, bits, iters);
      }
      if (bits % 8 != 0) {
        kat_skip(c, "PBKDF keyLen of %lld bits: the module derives whole bytes", bits);
        ar_progress_tick(c);
        kat_arena_reset(c);
        continue;
      }
      size_t len = (size_t)(bits / 8);
      uint8_t *out = kat_alloc(c, len);
      if (out == NULL) {
        json_decref(rg);
        return -1;
      }
      /* The password is a string of characters; PBKDF2 takes its bytes (SP 800-132 5.3). */
      int rc = fm_pbkdf2_hmac(alg, (const uint8_t *)pw, strlen(pw), salt.p, salt.n,
                              (uint64_t)iters, out, len);
      if (rc == FM_OK) {
        json_t *rt = ar_test(t);
        ar_hex(rt, "derivedKey", out, len);
        ar_add_test(c, rg, rt);
      } else {
        kat_fail(c, id, "fm_pbkdf2_hmac returned %s", fm_strerror(rc));
      }
      ar_progress_tick(c);
      kat_arena_reset(c);
    }
    ar_add_group(groups, rg);
  }
  return 0;
}

/* The fixed data the module chooses for a KDF test: 32 random bytes. The server does not
 * check its construction (kdf/sections/07-responses, NOTE). */
#define KDF_FIXED_LEN 32

int acvp_kbkdf(kat_ctx *c, json_t *set, json_t *groups, const vec_call *v) {
  (void)v;
  size_t gi, ti;
  json_t *g, *t;
  json_array_foreach(json_object_get(set, "testGroups"), gi, g) {
    char where[64], id[96];
    snprintf(where, sizeof(where), "testGroups[%zu]", gi);
    const char *kdf_mode = NULL, *mac, *loc = NULL, *type = NULL;
    long long out_bits, ctr_bits = 0;
    if (av_str_opt(c, g, "kdfMode", where, &kdf_mode) < 0 || kj_str(c, g, "macMode", where, &mac) < 0 ||
        av_str_opt(c, g, "counterLocation", where, &loc) < 0 ||
        av_str_opt(c, g, "testType", where, &type) < 0 ||
        av_int(c, g, "keyOutLength", where, &out_bits) < 0 ||
        av_int_opt(c, g, "counterLength", where, &ctr_bits) < 0) {
      return -1;
    }
    json_t *tests = kj_array(c, g, "tests", where);
    if (tests == NULL) return -1;
    long n = (long)json_array_size(tests);
    fm_hash_alg alg = hash_of(mac);
    if (kdf_mode == NULL || strcmp(kdf_mode, "counter") != 0) {
      kat_skip_n(c, n, "KDF mode \"%s\": the module offers counter mode", kdf_mode ? kdf_mode : "?");
      continue;
    }
    if (strncmp(mac, "HMAC-", 5) != 0 || alg == 0) {
      kat_skip_n(c, n, "KDF PRF %s: the module offers HMAC-SHA2-256/384/512", mac);
      continue;
    }
    if (type != NULL && strcmp(type, "AFT") != 0) {
      kat_skip_n(c, n, "KDF test type \"%s\" is not known", type);
      continue;
    }
    int where_ctr; /* 0 before, 1 after, 2 middle */
    if (loc != NULL && strcmp(loc, "before fixed data") == 0) {
      where_ctr = 0;
    } else if (loc != NULL && strcmp(loc, "after fixed data") == 0) {
      where_ctr = 1;
    } else if (loc != NULL && strcmp(loc, "middle fixed data") == 0) {
      where_ctr = 2;
    } else {
      kat_skip_n(c, n, "KDF counterLocation \"%s\" is not offered in counter mode",
                 loc ? loc : "none");
      continue;
    }
    if (ctr_bits != 8 && ctr_bits != 16 && ctr_bits != 24 && ctr_bits != 32) {
      kat_skip_n(c, n, "KDF counterLength %lld: the module takes 8, 16, 24 or 32", ctr_bits);
      continue;
    }
    if (out_bits <= 0 || out_bits > (1LL << 20)) {
      return kat_error(c, "%s: %s: keyOutLength %lld", c->path, where, out_bits);
    }
    if (out_bits % 8 != 0) {
      kat_skip_n(c, n, "KDF keyOutLength of %lld bits: the module derives whole bytes", out_bits);
      continue;
    }
    size_t len = (size_t)(out_bits / 8);
    json_t *rg = ar_group(g);
    json_array_foreach(tests, ti, t) {
      kj_test_id(g, t, id, sizeof(id));
      kat_bytes key;
      if (kj_hex(c, t, "keyIn", id, &key) < 0) {
        json_decref(rg);
        return -1;
      }
      uint8_t fixed[KDF_FIXED_LEN];
      uint8_t *out = kat_alloc(c, len);
      if (out == NULL) {
        json_decref(rg);
        return -1;
      }
      int rc = fm_rand_bytes(fixed, sizeof(fixed));
      size_t pos = where_ctr == 0 ? 0 : KDF_FIXED_LEN;
      if (where_ctr == 2 && rc == FM_OK) {
        /* A break strictly inside the fixed data, on a byte boundary (the module is
         * byte-oriented): 1..KDF_FIXED_LEN-1 bytes in. */
        uint8_t r;
        rc = fm_rand_bytes(&r, 1);
        pos = 1 + r % (KDF_FIXED_LEN - 1);
      }
      if (rc == FM_OK) {
        rc = fm_kbkdf_ctr_hmac(alg, key.p, key.n, fixed, sizeof(fixed), pos, (unsigned)ctr_bits,
                               out, len);
      }
      if (rc == FM_OK) {
        json_t *rt = ar_test(t);
        ar_hex(rt, "fixedData", fixed, sizeof(fixed));
        if (where_ctr == 2) json_object_set_new(rt, "breakLocation", json_integer((json_int_t)pos * 8));
        ar_hex(rt, "keyOut", out, len);
        ar_add_test(c, rg, rt);
      } else {
        kat_fail(c, id, "fm_kbkdf_ctr_hmac returned %s", fm_strerror(rc));
      }
      ar_progress_tick(c);
      kat_arena_reset(c);
    }
    ar_add_group(groups, rg);
  }
  return 0;
}

/* ---- kat mode: the module's own fixed data --------------------------------------------- */

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

int acvp_kbkdf_check(kat_ctx *c, const vec_call *v, json_t *pg, json_t *pt, json_t *et,
                     json_t *rt, const char *id) {
  (void)v;
  if (et == NULL || pt == NULL || pg == NULL || !json_object_get(rt, "fixedData")) return 0;
  return check_kdf(c, pg, pt, et, rt, id) < 0 ? -1 : 1;
}
