/* ACVP-AES-GCM 1.0 (draft-celi-acvp-symmetric): AFT encrypt and decrypt, AES-128/192/256.
 * ivGen "external": the prompt gives the IV (any length the module takes). ivGen "internal":
 * the module generates the 96-bit IV itself, RBG-based (ivGenMode 8.2.2) or as a deterministic
 * construction (8.2.1, a random fixed field and the key's invocation counter), and the response
 * carries it (symmetric/sections/97-examples: "iv", "ct", "tag"). A decryption whose tag does
 * not verify answers testPassed false (symmetric/sections/07-responses). Payload or AAD lengths
 * that are not whole bytes are left out with a reason. */
#include <stdio.h>
#include <string.h>

#include "cli/acvp/acvp.h"
#include "fipsmod/gcm.h"
#include "fipsmod/rand.h"

static const char *const pt_names[] = {"plainText", "pt", NULL};
static const char *const ct_names[] = {"cipherText", "ct", NULL};

/* gcm_hex reads the first present field of |names| as hex (absent: an empty string). */
static int gcm_hex(kat_ctx *c, json_t *t, const char *const *names, const char *id,
                   kat_bytes *out) {
  const char *which = names[0];
  if (av_get(t, names, &which) == NULL) {
    out->p = kat_alloc(c, 1);
    out->n = 0;
    return out->p ? 0 : -1;
  }
  return kj_hex(c, t, which, id, out);
}

static int one_test(kat_ctx *c, json_t *t, const char *id, int enc, int internal,
                    int counter_iv, size_t tag_len, json_t *rt, int *answered) {
  kat_bytes key, iv = {0}, aad = {0}, in, tag = {0};
  *answered = 0;
  if (kj_hex(c, t, "key", id, &key) < 0 || gcm_hex(c, t, enc ? pt_names : ct_names, id, &in) < 0 ||
      kj_hex_opt(c, t, "aad", id, &aad) < 0 || (!internal && kj_hex(c, t, "iv", id, &iv) < 0) ||
      (!enc && kj_hex(c, t, "tag", id, &tag) < 0)) {
    return -1;
  }
  if (aad.p == NULL) aad.n = 0;
  if ((key.n != 16 && key.n != 24 && key.n != 32) || (!enc && tag.n != tag_len) || (!internal && iv.n == 0)) {
    return kat_error(c, "%s: %s: key, iv or tag lengths are malformed", c->path, id);
  }
  uint8_t *out = kat_alloc(c, in.n), tag_out[FM_GCM_TAG_LEN], ivb[FM_GCM_IV_LEN];
  if (out == NULL) return -1;
  fm_gcm_key k;
  int rc;
  if (counter_iv) {
    uint8_t fixed[FM_GCM_FIXED_LEN];
    rc = fm_rand_bytes(fixed, sizeof(fixed));
    if (rc == FM_OK) rc = fm_gcm_key_init_counter_iv(&k, key.p, key.n, fixed);
  } else {
    rc = fm_gcm_key_init(&k, key.p, key.n);
  }
  if (rc == FM_OK) {
    if (enc && internal) {
      rc = fm_gcm_seal(&k, ivb, aad.p, aad.n, in.p, in.n, out, tag_out, tag_len);
    } else if (enc) {
      rc = fm_gcm_seal_with_iv(&k, iv.p, iv.n, aad.p, aad.n, in.p, in.n, out, tag_out, tag_len);
    } else {
      rc = fm_gcm_open(&k, iv.p, iv.n, aad.p, aad.n, in.p, in.n, tag.p, tag.n, out);
    }
  }
  fm_gcm_key_wipe(&k);
  if (enc && rc == FM_OK) {
    if (internal) ar_hex(rt, "iv", ivb, sizeof(ivb));
    ar_hex(rt, "ct", out, in.n);
    ar_hex(rt, "tag", tag_out, tag_len);
  } else if (!enc && rc == FM_OK) {
    ar_hex(rt, "pt", out, in.n);
  } else if (!enc && rc == FM_ERR_VERIFY) {
    json_object_set_new(rt, "testPassed", json_false());
  } else {
    kat_fail(c, id, "AES-GCM returned %s", fm_strerror(rc));
    return 0;
  }
  *answered = 1;
  return 0;
}

int acvp_gcm(kat_ctx *c, json_t *set, json_t *groups) {
  size_t gi, ti;
  json_t *g, *t;
  json_array_foreach(json_object_get(set, "testGroups"), gi, g) {
    char where[64], id[96];
    snprintf(where, sizeof(where), "testGroups[%zu]", gi);
    const char *type, *dir, *ivgen = NULL, *ivmode = NULL;
    long long key_bits, tag_bits, iv_bits = -1, pl_bits = -1, aad_bits = -1;
    if (kj_str(c, g, "testType", where, &type) < 0 || kj_str(c, g, "direction", where, &dir) < 0 ||
        av_int(c, g, "keyLen", where, &key_bits) < 0 || av_int(c, g, "tagLen", where, &tag_bits) < 0 ||
        av_str_opt(c, g, "ivGen", where, &ivgen) < 0 ||
        av_str_opt(c, g, "ivGenMode", where, &ivmode) < 0 ||
        av_int_opt(c, g, "ivLen", where, &iv_bits) < 0 ||
        av_int_opt(c, g, "payloadLen", where, &pl_bits) < 0 ||
        av_int_opt(c, g, "aadLen", where, &aad_bits) < 0) {
      return -1;
    }
    json_t *tests = kj_array(c, g, "tests", where);
    if (tests == NULL) return -1;
    long n = (long)json_array_size(tests);
    int enc = strcmp(dir, "encrypt") == 0;
    if (!enc && strcmp(dir, "decrypt") != 0) {
      return kat_error(c, "%s: %s: unknown direction \"%s\"", c->path, where, dir);
    }
    if (key_bits != 128 && key_bits != 192 && key_bits != 256) {
      return kat_error(c, "%s: %s: keyLen %lld", c->path, where, key_bits);
    }
    if (strcmp(type, "AFT") != 0) {
      kat_skip_n(c, n, "AES-GCM test type \"%s\" is not known", type);
      continue;
    }
    if (tag_bits <= 0 || tag_bits > 128 || tag_bits % 8 != 0) {
      kat_skip_n(c, n, "AES-GCM tagLen %lld: the module takes whole-byte tags", tag_bits);
      continue;
    }
    if ((pl_bits > 0 && pl_bits % 8 != 0) || (aad_bits > 0 && aad_bits % 8 != 0) ||
        (iv_bits > 0 && iv_bits % 8 != 0)) {
      kat_skip_n(c, n, "AES-GCM payload, AAD or IV length not a whole number of bytes");
      continue;
    }
    /* Decryption always takes the prompt's IV; only encryption generates its own. */
    int internal = enc && ivgen != NULL && strcmp(ivgen, "internal") == 0;
    int counter_iv = internal && ivmode != NULL && strcmp(ivmode, "8.2.1") == 0;
    if (internal && iv_bits >= 0 && iv_bits != 96) {
      kat_skip_n(c, n, "AES-GCM internal IV of %lld bits: the module generates 96-bit IVs",
                 iv_bits);
      continue;
    }
    json_t *rg = ar_group(g);
    json_array_foreach(tests, ti, t) {
      kj_test_id(g, t, id, sizeof(id));
      json_t *rt = ar_test(t);
      int answered;
      if (one_test(c, t, id, enc, internal, counter_iv, (size_t)(tag_bits / 8), rt, &answered) < 0) {
        json_decref(rt);
        json_decref(rg);
        return -1;
      }
      if (answered) {
        ar_add_test(c, rg, rt);
      } else {
        json_decref(rt);
      }
      ar_progress_tick(c);
      kat_arena_reset(c);
    }
    ar_add_group(groups, rg);
  }
  return 0;
}
