/* AES-GCM known answers: CAVP gcmEncryptExtIV*.rsp and gcmDecrypt*.rsp (SP 800-38D, the
 * GCMVS layout: [Keylen/IVlen/PTlen/AADlen/Taglen] sections, a decryption whose tag must be
 * rejected carries a bare FAIL line), and Wycheproof aead_test_schema files of AES-GCM. */
#include <stdio.h>
#include <string.h>

#include "cli/kat/kat_internal.h"
#include "fipsmod/gcm.h"

static int all_zero(const uint8_t *p, size_t n) {
  uint8_t acc = 0;
  for (size_t i = 0; i < n; i++) acc |= p[i];
  return acc == 0;
}

/* gcm_seal_check encrypts under the given IV (one-shot and streamed in two halves) and compares
 * ct and the tag with the expected ones. Returns 1 when they match (nothing counted yet), 0
 * after recording a failure. */
static int gcm_seal_check(kat_ctx *c, const char *id, const kat_bytes *key, const kat_bytes *iv,
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

/* gcm_open_check decrypts; |pt| NULL: the tag must be rejected (FM_ERR_VERIFY) and the output
 * zeroed. */
static void gcm_open_check(kat_ctx *c, const char *id, const kat_bytes *key, const kat_bytes *iv,
                           const kat_bytes *aad, const kat_bytes *ct, const kat_bytes *tag,
                           const kat_bytes *pt) {
  uint8_t *out = kat_alloc(c, ct->n);
  if (out == NULL) return;
  fm_gcm_key k;
  int rc = fm_gcm_key_init(&k, key->p, key->n);
  if (rc == FM_OK) {
    rc = fm_gcm_open(&k, iv->p, iv->n, aad->p, aad->n, ct->p, ct->n, tag->p, tag->n, out);
  }
  fm_gcm_key_wipe(&k);
  if (pt == NULL) {
    if (rc == FM_OK) {
      kat_fail(c, id, "a tag that must fail was accepted");
    } else if (!all_zero(out, ct->n)) {
      kat_fail(c, id, "rejected (%s) but the plaintext was not wiped", fm_strerror(rc));
    } else {
      kat_pass(c);
    }
  } else if (rc != FM_OK) {
    kat_fail(c, id, "AES-GCM open returned %s", fm_strerror(rc));
  } else {
    kat_compare(c, id, "PT", out, ct->n, pt->p, pt->n);
  }
}

int kat_cavp_gcm(kat_ctx *c, const rsp_file *f) {
  static const char *const start[] = {"Count", NULL};
  rsp_walk w;
  rsp_case cs;
  int rc, decrypt = rsp_has_key(f, "FAIL") || rsp_comment_has(f, "Decrypt");
  rsp_walk_init(&w, f, start, NULL);
  kat_set_kind(c, "CAVP AES-GCM %s", decrypt ? "decrypt" : "encrypt");
  while ((rc = rsp_next_case(c, &w, &cs)) == 1) {
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
    if (kl == 192) {
      kat_skip(c, "AES-192 is not offered by the module");
      continue;
    }
    if (pl % 8 != 0 || al % 8 != 0 || il % 8 != 0 || tl % 8 != 0) {
      kat_skip(c, "bit lengths that are not whole bytes: the module takes bytes");
      continue;
    }
    kat_bytes key, iv, aad, tag, pt = {0}, ct = {0};
    int must_fail = rsp_get(&w, &cs, "FAIL") != NULL;
    if (rsp_hex(c, &w, &cs, "Key", &key) < 0 || rsp_hex(c, &w, &cs, "IV", &iv) < 0 ||
        rsp_hex_opt(c, &w, &cs, "AAD", &aad) < 0 || rsp_hex(c, &w, &cs, "Tag", &tag) < 0 ||
        rsp_hex_opt(c, &w, &cs, "CT", &ct) < 0 ||
        (!must_fail && rsp_hex_opt(c, &w, &cs, "PT", &pt) < 0)) {
      return -1;
    }
    if (key.n * 8 != (size_t)kl || iv.n * 8 != (size_t)il || aad.n * 8 != (size_t)al ||
        tag.n * 8 != (size_t)tl || (!must_fail && (pt.n * 8 != (size_t)pl || ct.n != pt.n))) {
      return kat_error(c, "%s:%d: case %s: lengths differ from its section", c->path, cs.line,
                       cs.id);
    }
    if (decrypt) {
      gcm_open_check(c, cs.id, &key, &iv, &aad, &ct, &tag, must_fail ? NULL : &pt);
    } else {
      if (gcm_seal_check(c, cs.id, &key, &iv, &aad, &pt, &ct, &tag)) kat_pass(c);
    }
    kat_arena_reset(c);
  }
  return rc;
}

/* Wycheproof AeadTest (AES-GCM): "valid" cases must seal to ct || tag and open to msg;
 * "invalid" ones (changed tags, empty IVs...) must be rejected when opened. */
int kat_wp_aes_gcm(kat_ctx *c, json_t *root) {
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
    if (key_bits == 192) {
      kat_skip_n(c, (long)json_array_size(tests), "AES-192 is not offered by the module");
      continue;
    }
    json_array_foreach(tests, ti, t) {
      kj_test_id(NULL, t, id, sizeof(id));
      kat_bytes key, iv, aad, msg, ct, tag;
      const char *result;
      if (kj_hex(c, t, "key", id, &key) < 0 || kj_hex(c, t, "iv", id, &iv) < 0 ||
          kj_hex(c, t, "aad", id, &aad) < 0 || kj_hex(c, t, "msg", id, &msg) < 0 ||
          kj_hex(c, t, "ct", id, &ct) < 0 || kj_hex(c, t, "tag", id, &tag) < 0 ||
          kj_str(c, t, "result", id, &result) < 0) {
        return -1;
      }
      if (strcmp(result, "valid") == 0) {
        if (tag.n * 8 != (size_t)tag_bits || ct.n != msg.n) {
          return kat_error(c, "%s: %s: tag or ct length differs from the group", c->path, id);
        }
        if (gcm_seal_check(c, id, &key, &iv, &aad, &msg, &ct, &tag)) {
          gcm_open_check(c, id, &key, &iv, &aad, &ct, &tag, &msg);
        }
      } else if (strcmp(result, "invalid") == 0) {
        gcm_open_check(c, id, &key, &iv, &aad, &ct, &tag, NULL);
      } else {
        kat_skip(c, "Wycheproof result \"%s\": no fixed outcome to check", result);
      }
      kat_arena_reset(c);
    }
  }
  return 0;
}
