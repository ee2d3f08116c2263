/* PBKDF 1.0 (draft-celi-acvp-pbkdf: AFT, HMAC-SHA2 PRFs) and KDF 1.0 (draft-celi-acvp-kbkdf:
 * SP 800-108 counter mode with HMAC-SHA2 PRFs, the counter before, after or in the middle of
 * the fixed data). For KDF the module chooses the fixed data itself (kdf/sections/07-responses:
 * "The fixed input data used by the IUT"), and for "middle fixed data" the break location;
 * the response carries both. Other PRFs (CMAC, KMAC, SHA-1, SHA-224, SHA-3), feedback and
 * double-pipeline modes, and lengths that are not whole bytes are left out with a reason. */
#include <stdio.h>
#include <string.h>

#include "cli/acvp/acvp.h"
#include "fipsmod/kdf.h"
#include "fipsmod/rand.h"

/* hash_of maps an ACVP hash name ("SHA2-256", or the PRF "HMAC-SHA2-256") to the module's
 * hash; 0 when the module does not offer it. */
static fm_hash_alg hash_of(const char *name) {
  if (strncmp(name, "HMAC-", 5) == 0) name += 5;
  if (strcmp(name, "SHA2-256") == 0) return FM_HASH_SHA256;
  if (strcmp(name, "SHA2-384") == 0) return FM_HASH_SHA384;
  if (strcmp(name, "SHA2-512") == 0) return FM_HASH_SHA512;
  return (fm_hash_alg)0;
}

int acvp_pbkdf(kat_ctx *c, json_t *set, json_t *groups) {
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

int acvp_kbkdf(kat_ctx *c, json_t *set, json_t *groups) {
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
