/* AES-GCM known answers: CAVP gcmEncryptExtIV*.rsp, gcmEncryptIntIV*.rsp/.req and
 * gcmDecrypt*.rsp (SP 800-38D, the GCMVS layout: [Keylen/IVlen/PTlen/AADlen/Taglen] sections, a
 * decryption whose tag must be rejected carries a bare FAIL line), and Wycheproof
 * aead_test_schema files of AES-GCM. The checks here are shared with the NIST toolkit's worked
 * examples (read_toolkit.c). */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cli/vectors/internal.h"
#include "fipsmod/gcm.h"
#include "fipsmod/rand.h"

static int all_zero(const uint8_t *p, size_t n) {
  uint8_t acc = 0;
  for (size_t i = 0; i < n; i++) acc |= p[i];
  return acc == 0;
}

int kat_gcm_seal_check(kat_ctx *c, const char *id, const kat_bytes *key, const kat_bytes *iv,
                       const kat_bytes *aad, const kat_bytes *pt, const kat_bytes *ct,
                       const kat_bytes *tag) {
  uint8_t *out = kat_alloc(c, pt->n), *out2 = kat_alloc(c, pt->n), t1[16], t2[16];
  if (out == NULL || out2 == NULL) return 0;
  fm_gcm_key k;
  fm_gcm_ctx x;
  int rc = fm_gcm_key_init(&k, key->p, key->n);
  if (rc == FM_OK) {
    rc = fm_gcm_seal_with_iv(&k, iv->p, iv->n, aad->p, aad->n, pt->p, pt->n, out, t1, tag->n);
  }
  size_t half = pt->n / 2;
  if (rc == FM_OK) rc = fm_gcm_encrypt_init_with_iv(&x, &k, iv->p, iv->n);
  if (rc == FM_OK) rc = fm_gcm_aad(&x, aad->p, aad->n);
  if (rc == FM_OK) rc = fm_gcm_update(&x, pt->p, out2, half);
  if (rc == FM_OK) rc = fm_gcm_update(&x, pt->p + half, out2 + half, pt->n - half);
  if (rc == FM_OK) rc = fm_gcm_encrypt_final(&x, t2, tag->n);
  fm_gcm_key_wipe(&k);
  if (rc != FM_OK) {
    kat_fail(c, id, "AES-GCM encryption returned %s", fm_strerror(rc));
  } else if (memcmp(out, out2, pt->n) != 0 || memcmp(t1, t2, tag->n) != 0) {
    kat_fail(c, id, "streamed encryption differs from one-shot");
  } else if (pt->n != ct->n || memcmp(out, ct->p, ct->n) != 0) {
    kat_compare(c, id, "CT", out, pt->n, ct->p, ct->n);
  } else if (memcmp(t1, tag->p, tag->n) != 0) {
    kat_compare(c, id, "Tag", t1, tag->n, tag->p, tag->n);
  } else {
    return 1;
  }
  return 0;
}

/* gcm_open_raw decrypts into a fresh arena buffer; returns the module's status, or 1 when out of
 * memory (an error is recorded then). */
static int gcm_open_raw(kat_ctx *c, const kat_bytes *key, const kat_bytes *iv,
                        const kat_bytes *aad, const kat_bytes *ct, const uint8_t *tag,
                        size_t tag_len, uint8_t **out) {
  *out = kat_alloc(c, ct->n);
  if (*out == NULL) return 1;
  fm_gcm_key k;
  int rc = fm_gcm_key_init(&k, key->p, key->n);
  if (rc == FM_OK) {
    rc = fm_gcm_open(&k, iv->p, iv->n, aad->p, aad->n, ct->p, ct->n, tag, tag_len, *out);
  }
  fm_gcm_key_wipe(&k);
  return rc;
}

int kat_gcm_open_check(kat_ctx *c, const char *id, const kat_bytes *key, const kat_bytes *iv,
                       const kat_bytes *aad, const kat_bytes *ct, const kat_bytes *tag,
                       const kat_bytes *pt) {
  uint8_t *out;
  int rc = gcm_open_raw(c, key, iv, aad, ct, tag->p, tag->n, &out);
  if (rc == 1) return 0;
  if (pt == NULL) {
    if (rc == FM_OK) {
      kat_fail(c, id, "a tag that must fail was accepted");
    } else if (!all_zero(out, ct->n)) {
      kat_fail(c, id, "rejected (%s) but the plaintext was not wiped", fm_strerror(rc));
    } else {
      return 1;
    }
  } else if (rc != FM_OK) {
    kat_fail(c, id, "AES-GCM open returned %s", fm_strerror(rc));
  } else if (ct->n != pt->n || memcmp(out, pt->p, pt->n) != 0) {
    kat_compare(c, id, "PT", out, ct->n, pt->p, pt->n);
  } else {
    return 1;
  }
  return 0;
}

int kat_gcm_open_flipped(kat_ctx *c, const char *id, const kat_bytes *key, const kat_bytes *iv,
                         const kat_bytes *aad, const kat_bytes *ct, const kat_bytes *tag) {
  if (tag->n == 0) return 1;
  /* The last bit of the tag: a check that compared only a prefix would still reject the first. */
  uint8_t bad[16], *out;
  size_t n = tag->n < sizeof(bad) ? tag->n : sizeof(bad);
  memcpy(bad, tag->p, n);
  bad[n - 1] ^= 0x01;
  int rc = gcm_open_raw(c, key, iv, aad, ct, bad, n, &out);
  if (rc == 1) return 0;
  if (rc != FM_ERR_VERIFY) {
    kat_fail(c, id, "open with the tag's last bit flipped returned %s, not %s", fm_strerror(rc),
             fm_strerror(FM_ERR_VERIFY));
  } else if (!all_zero(out, ct->n)) {
    kat_fail(c, id, "a flipped tag was rejected but the plaintext was not wiped");
  } else {
    return 1;
  }
  return 0;
}

/* seal_status: what the module answers to the encryption, without judging the output. */
static int seal_status(kat_ctx *c, const kat_bytes *key, const kat_bytes *iv,
                       const kat_bytes *aad, const kat_bytes *pt, size_t tag_len) {
  uint8_t *out = kat_alloc(c, pt->n), tag[16];
  if (out == NULL) return 1;
  fm_gcm_key k;
  int rc = fm_gcm_key_init(&k, key->p, key->n);
  if (rc == FM_OK) {
    rc = fm_gcm_seal_with_iv(&k, iv->p, iv->n, aad->p, aad->n, pt->p, pt->n, out, tag,
                             tag_len <= sizeof(tag) ? tag_len : sizeof(tag) + 1);
  }
  fm_gcm_key_wipe(&k);
  return rc;
}

/* gcm_internal_iv_check: the IntIV request layout (Key, PT, AAD; the IUT makes the IV). The
 * module generates the 96-bit IV (SP 800-38D 8.2.2) and nothing is there to compare with, so
 * the answer is checked by its properties: a 12-byte IV, and ciphertext and tag that open under
 * it to the plaintext and stop opening when the tag changes. */
static int gcm_internal_iv_check(kat_ctx *c, const char *id, const kat_bytes *key,
                                 const kat_bytes *aad, const kat_bytes *pt, size_t tag_len) {
  uint8_t *ctp = kat_alloc(c, pt->n), *tagp = kat_alloc(c, tag_len ? tag_len : 1),
          *ivp = kat_alloc(c, FM_GCM_IV_LEN);
  if (ctp == NULL || tagp == NULL || ivp == NULL) return 0;
  fm_gcm_key k;
  int rc = fm_gcm_key_init(&k, key->p, key->n);
  if (rc == FM_OK) rc = fm_gcm_seal(&k, ivp, aad->p, aad->n, pt->p, pt->n, ctp, tagp, tag_len);
  fm_gcm_key_wipe(&k);
  if (rc != FM_OK) {
    kat_fail(c, id, "AES-GCM encryption under the module's IV returned %s", fm_strerror(rc));
    return 0;
  }
  kat_bytes iv = {ivp, FM_GCM_IV_LEN}, ct = {ctp, pt->n}, tag = {tagp, tag_len};
  return kat_gcm_open_check(c, id, key, &iv, aad, &ct, &tag, pt) &&
         kat_gcm_open_flipped(c, id, key, &iv, aad, &ct, &tag);
}

/* The position of |key|'s first line in the case (or -1). */
static int case_index(const rsp_case *cs, const char *key) {
  for (int i = 0; i < cs->n_kv; i++) {
    if (strcasecmp(cs->kv[i]->key, key) == 0) return i;
  }
  return -1;
}

int kat_cavp_gcm(kat_ctx *c, const rsp_file *f) {
  static const char *const start[] = {"Count", NULL};
  rsp_walk w;
  rsp_case cs;
  int rc, first = 1, decrypt = rsp_has_key(f, "FAIL") || rsp_comment_has(f, "Decrypt");
  rsp_walk_init(&w, f, start, NULL);
  kat_set_kind(c, "CAVP AES-GCM %s", decrypt ? "decrypt" : "encrypt");
  while ((rc = rsp_next_case(c, &w, &cs)) == 1) {
    /* The key order tells the layouts apart where no FAIL line or comment does: a decryption
     * gives CT before its answer PT; an encryption gives PT first. */
    int i_pt = case_index(&cs, "PT"), i_ct = case_index(&cs, "CT");
    if (first && i_pt >= 0 && i_ct >= 0 && i_ct < i_pt) {
      decrypt = 1;
      kat_set_kind(c, "CAVP AES-GCM decrypt");
    }
    /* The internal-IV request has none of IV, CT and Tag; a case that lost only some of them is
     * malformed (read below), not a request. */
    int internal_iv = !decrypt && case_index(&cs, "IV") < 0 && case_index(&cs, "CT") < 0 &&
                      case_index(&cs, "Tag") < 0;
    if (first && internal_iv) kat_set_kind(c, "CAVP AES-GCM encrypt, internal IV");
    first = 0;
    long kl = 0, tl = 0, pl = 0, al = 0, il = 0;
    const char *a[5] = {rsp_attr(&cs, "Keylen"), rsp_attr(&cs, "Taglen"), rsp_attr(&cs, "PTlen"),
                        rsp_attr(&cs, "AADlen"), rsp_attr(&cs, "IVlen")};
    long *v[5] = {&kl, &tl, &pl, &al, &il};
    for (int i = 0; i < 5; i++) {
      if (a[i] == NULL || kat_parse_long(a[i], v[i]) < 0) {
        return kat_error(c, "%s:%d: case %s is not under [Keylen/Taglen/PTlen/AADlen/IVlen] "
                         "sections", c->path, cs.line, cs.id);
      }
    }
    if (pl % 8 != 0 || al % 8 != 0 || il % 8 != 0 || tl % 8 != 0) {
      kat_skip(c, "bit lengths that are not whole bytes: the module takes bytes");
      continue;
    }
    kat_bytes key, iv = {0}, aad, tag = {0}, pt = {0}, ct = {0};
    int must_fail = rsp_get(&w, &cs, "FAIL") != NULL;
    if (rsp_hex(c, &w, &cs, "Key", &key) < 0 || rsp_hex_opt(c, &w, &cs, "AAD", &aad) < 0 ||
        (!must_fail && rsp_hex_opt(c, &w, &cs, "PT", &pt) < 0)) {
      return -1;
    }
    if (internal_iv) {
      /* A request of the IntIV test: no IV, CT or Tag to read, the module makes the IV. */
      if (key.n * 8 != (size_t)kl || aad.n * 8 != (size_t)al || pt.n * 8 != (size_t)pl) {
        return kat_error(c, "%s:%d: case %s: lengths differ from its section", c->path, cs.line,
                         cs.id);
      }
      if (il != 8 * FM_GCM_IV_LEN) {
        kat_skip(c, "[IVlen = %ld] with the module's own IV: it generates 96-bit IVs only "
                 "(SP 800-38D 8.2)", il);
      } else if (gcm_internal_iv_check(c, cs.id, &key, &aad, &pt, (size_t)tl / 8)) {
        kat_pass(c);
      }
      kat_arena_reset(c);
      continue;
    }
    if (rsp_hex(c, &w, &cs, "IV", &iv) < 0 || rsp_hex(c, &w, &cs, "Tag", &tag) < 0 ||
        rsp_hex_opt(c, &w, &cs, "CT", &ct) < 0) {
      return -1;
    }
    if (key.n * 8 != (size_t)kl || iv.n * 8 != (size_t)il || aad.n * 8 != (size_t)al ||
        tag.n * 8 != (size_t)tl || (!must_fail && (pt.n * 8 != (size_t)pl || ct.n != pt.n))) {
      return kat_error(c, "%s:%d: case %s: lengths differ from its section", c->path, cs.line,
                       cs.id);
    }
    if (decrypt && must_fail) {
      if (kat_gcm_open_check(c, cs.id, &key, &iv, &aad, &ct, &tag, NULL)) kat_pass(c);
    } else if (decrypt) {
      if (kat_gcm_open_check(c, cs.id, &key, &iv, &aad, &ct, &tag, &pt) &&
          kat_gcm_open_flipped(c, cs.id, &key, &iv, &aad, &ct, &tag)) {
        kat_pass(c);
      }
    } else {
      if (kat_gcm_seal_check(c, cs.id, &key, &iv, &aad, &pt, &ct, &tag)) kat_pass(c);
    }
    kat_arena_reset(c);
  }
  return rc;
}

/* Wycheproof AeadTest (AES-GCM): "valid" cases must seal to ct || tag and open to msg (and stop
 * opening with a changed tag); "invalid" ones (changed tags, empty IVs...) must be rejected when
 * opened; "acceptable" ones may be refused, but what the module serves must be right. */
int kat_wp_aes_gcm(kat_ctx *c, json_t *root, const vec_call *v) {
  (void)v;
  kat_set_kind(c, "Wycheproof AES-GCM");
  json_t *groups = kj_array(c, root, "testGroups", "file");
  if (groups == NULL) return -1;
  size_t gi, ti;
  json_t *g, *t;
  json_array_foreach(groups, gi, g) {
    char where[64], id[96];
    snprintf(where, sizeof(where), "testGroups[%zu]", gi);
    long key_bits, tag_bits;
    if (kj_int(c, g, "keySize", where, &key_bits) < 0 ||
        kj_int(c, g, "tagSize", where, &tag_bits) < 0) {
      return -1;
    }
    json_t *tests = kj_array(c, g, "tests", where);
    if (tests == NULL) return -1;
    json_array_foreach(tests, ti, t) {
      kj_test_id(NULL, t, id, sizeof(id));
      kat_bytes key, iv, aad, msg, ct, tag;
      if (kj_hex(c, t, "key", id, &key) < 0 || kj_hex(c, t, "iv", id, &iv) < 0 ||
          kj_hex(c, t, "aad", id, &aad) < 0 || kj_hex(c, t, "msg", id, &msg) < 0 ||
          kj_hex(c, t, "ct", id, &ct) < 0 || kj_hex(c, t, "tag", id, &tag) < 0) {
        return -1;
      }
      int verdict = kj_result(c, t, id);
      if (verdict < 0) return -1;
      if (verdict != KJ_INVALID && (tag.n * 8 != (size_t)tag_bits || ct.n != msg.n)) {
        return kat_error(c, "%s: %s: tag or ct length differs from the group", c->path, id);
      }
      if (verdict == KJ_INVALID) {
        if (kat_gcm_open_check(c, id, &key, &iv, &aad, &ct, &tag, NULL)) kat_pass(c);
      } else if (verdict == KJ_ACCEPTABLE &&
                 seal_status(c, &key, &iv, &aad, &msg, tag.n) != FM_OK) {
        char flags[96];
        kj_flags(t, flags, sizeof(flags));
        kat_skip(c, "Wycheproof \"acceptable\" (%s): the module refuses it, which the vector "
                 "allows", flags);
      } else if (kat_gcm_seal_check(c, id, &key, &iv, &aad, &msg, &ct, &tag) &&
                 kat_gcm_open_check(c, id, &key, &iv, &aad, &ct, &tag, &msg) &&
                 kat_gcm_open_flipped(c, id, &key, &iv, &aad, &ct, &tag)) {
        kat_pass(c);
      }
      kat_arena_reset(c);
    }
  }
  return 0;
}

/* ---- ACVP -------------------------------------------------------------------------------- */

/* ACVP-AES-GCM 1.0 (draft-celi-acvp-symmetric): AFT encrypt and decrypt, AES-128/192/256.
 * ivGen "external": the prompt gives the IV (any length the module takes). ivGen "internal":
 * the module generates the 96-bit IV itself, RBG-based (ivGenMode 8.2.2) or as a deterministic
 * construction (8.2.1, a random fixed field and the key's invocation counter), and the response
 * carries it (symmetric/sections/97-examples: "iv", "ct", "tag"). A decryption whose tag does
 * not verify answers testPassed false (symmetric/sections/07-responses). Payload or AAD lengths
 * that are not whole bytes are left out with a reason. */
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

int acvp_gcm(kat_ctx *c, json_t *set, json_t *groups, const vec_call *v) {
  (void)v;
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

/* ---- kat mode: the module's own GCM IVs ------------------------------------------------ */

/* check_gcm_iv: a GCM encryption answered under the module's own IV: opening the response's ct
 * and tag under that IV (and the prompt's key and AAD) must verify and give the prompt's
 * plaintext. */
static int check_gcm_iv(kat_ctx *c, json_t *pt_test, json_t *rt, const char *id) {
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

int acvp_gcm_check_iv(kat_ctx *c, const vec_call *v, json_t *pg, json_t *pt, json_t *et,
                      json_t *rt, const char *id) {
  (void)v;
  (void)et;
  /* The response's iv is the module's own. In an internalProjection the test also holds the
   * server's sample iv (an answer, not an input), so the group's ivGen decides, not the iv's
   * presence in the test. */
  const char *ivgen = json_string_value(json_object_get(pg, "ivGen"));
  const char *dir = json_string_value(json_object_get(pg, "direction"));
  int internal = ivgen && dir && strcmp(ivgen, "internal") == 0 && strcmp(dir, "encrypt") == 0;
  if (!json_object_get(rt, "iv") || pt == NULL || !(internal || !json_object_get(pt, "iv"))) {
    return 0;
  }
  return check_gcm_iv(c, pt, rt, id) < 0 ? -1 : 1;
}
