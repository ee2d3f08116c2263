/* HMAC known answers: CAVP HMAC.rsp, ACVP HMAC-SHA2-* 1.0/2.0 and Wycheproof HMAC files. */
#include <stdio.h>
#include <string.h>

#include "cli/vectors/internal.h"
#include "fipsmod/hmac.h"

static int alg_for_bytes(long bytes, fm_hash_alg *alg) {
  switch (bytes) {
    case 28: *alg = FM_HASH_SHA224; return 0;
    case 32: *alg = FM_HASH_SHA256; return 0;
    case 48: *alg = FM_HASH_SHA384; return 0;
    case 64: *alg = FM_HASH_SHA512; return 0;
    default: return -1;
  }
}

/* check_mac computes the full tag one-shot and incrementally, compares its first |want->n|
 * bytes, and checks that fm_hmac_verify accepts the expected (truncated) tag when the module's
 * tag-length policy allows that length. */
static void check_mac(kat_ctx *c, const char *id, fm_hash_alg alg, const kat_bytes *key,
                      const kat_bytes *msg, const kat_bytes *want) {
  uint8_t one[FM_MAX_DIGEST_LEN], inc[FM_MAX_DIGEST_LEN];
  int rc = fm_hmac(alg, key->p, key->n, msg->p, msg->n, one, sizeof(one));
  if (rc != FM_OK) {
    kat_fail(c, id, "fm_hmac returned %s", fm_strerror(rc));
    return;
  }
  fm_hmac_ctx ctx;
  size_t half = msg->n / 2;
  rc = fm_hmac_init(&ctx, alg, key->p, key->n);
  if (rc == FM_OK) rc = fm_hmac_update(&ctx, msg->p, half);
  if (rc == FM_OK) rc = fm_hmac_update(&ctx, msg->p + half, msg->n - half);
  if (rc == FM_OK) rc = fm_hmac_final(&ctx, inc, sizeof(inc));
  if (rc != FM_OK) {
    kat_fail(c, id, "incremental HMAC returned %s", fm_strerror(rc));
    return;
  }
  if (memcmp(one, inc, want->n) != 0) {
    kat_compare(c, id, "Mac (incremental)", inc, want->n, want->p, want->n);
    return;
  }
  if (memcmp(one, want->p, want->n) != 0) {
    kat_compare(c, id, "Mac", one, want->n, want->p, want->n);
    return;
  }
  if (want->n >= 4) {
    rc = fm_hmac_verify(alg, key->p, key->n, msg->p, msg->n, want->p, want->n);
    if (rc != FM_OK) {
      kat_fail(c, id, "fm_hmac_verify rejected the expected tag: %s", fm_strerror(rc));
      return;
    }
  }
  kat_pass(c);
}

int kat_cavp_hmac(kat_ctx *c, const rsp_file *f) {
  static const char *const start[] = {"Count", NULL};
  rsp_walk w;
  rsp_case cs;
  int rc;
  rsp_walk_init(&w, f, start, NULL);
  kat_set_kind(c, "CAVP HMAC");
  while ((rc = rsp_next_case(c, &w, &cs)) == 1) {
    long L = 0, klen, tlen;
    fm_hash_alg alg;
    const char *ls = rsp_attr(&cs, "L");
    if (ls == NULL || kat_parse_long(ls, &L) < 0) {
      return kat_error(c, "%s:%d: case %s is not under an [L=n] section", c->path, cs.line, cs.id);
    }
    if (alg_for_bytes(L, &alg) < 0) {
      kat_skip(c, "[L=%ld]: HMAC with %s is not offered (SHA-224/256/384/512 only)", L,
               L == 20 ? "SHA-1" : "this hash");
      continue;
    }
    kat_bytes key, msg, mac;
    if (rsp_long(c, &w, &cs, "Klen", &klen) < 0 || rsp_long(c, &w, &cs, "Tlen", &tlen) < 0 ||
        rsp_hex(c, &w, &cs, "Key", &key) < 0 || rsp_hex(c, &w, &cs, "Msg", &msg) < 0 ||
        rsp_hex(c, &w, &cs, "Mac", &mac) < 0) {
      return -1;
    }
    if ((size_t)klen != key.n || (size_t)tlen != mac.n || tlen < 1 || tlen > L) {
      return kat_error(c, "%s:%d: Klen/Tlen do not match Key/Mac in case %s", c->path, cs.line,
                       cs.id);
    }
    check_mac(c, cs.id, alg, &key, &msg, &mac);
    kat_arena_reset(c);
  }
  return rc;
}


/* Wycheproof MacTest: "valid" tags must verify and match; "invalid" ones must be rejected. */
int kat_wp_hmac(kat_ctx *c, json_t *root, const vec_call *v) {
  const fm_hash_alg alg = v->hash;
  const char *name = v->alg;
  size_t dlen = 0;
  if (fm_hash_digest_len(alg, &dlen) != FM_OK) return kat_error(c, "%s: unsupported", c->path);
  const long digest_bits = (long)(8 * dlen);
  kat_set_kind(c, "Wycheproof %s", name);
  json_t *groups = kj_array(c, root, "testGroups", "file");
  if (groups == NULL) return -1;
  size_t gi, ti;
  json_t *g, *t;
  json_array_foreach(groups, gi, g) {
    char where[64], id[96];
    snprintf(where, sizeof(where), "testGroups[%zu]", gi);
    long tag_bits;
    if (kj_int(c, g, "tagSize", where, &tag_bits) < 0) return -1;
    json_t *tests = kj_array(c, g, "tests", where);
    if (tests == NULL) return -1;
    json_array_foreach(tests, ti, t) {
      kj_test_id(NULL, t, id, sizeof(id));
      kat_bytes key, msg, tag;
      const char *result;
      if (kj_hex(c, t, "key", id, &key) < 0 || kj_hex(c, t, "msg", id, &msg) < 0 ||
          kj_hex(c, t, "tag", id, &tag) < 0 || kj_str(c, t, "result", id, &result) < 0) {
        return -1;
      }
      int expect_valid = strcmp(result, "valid") == 0;
      if (!expect_valid && strcmp(result, "invalid") != 0 && strcmp(result, "acceptable") != 0) {
        return kat_error(c, "%s: %s: unknown result \"%s\"", c->path, id, result);
      }
      if (tag_bits % 8 != 0 || tag_bits <= 0 || tag_bits > digest_bits) {
        kat_skip(c, "tag size %ld bits not offered", tag_bits);
        kat_arena_reset(c);
        continue;
      }
      size_t tlen = (size_t)tag_bits / 8;
      uint8_t full[FM_MAX_DIGEST_LEN];
      int rc = fm_hmac(alg, key.p, key.n, msg.p, msg.n, full, sizeof(full));
      int vr = fm_hmac_verify(alg, key.p, key.n, msg.p, msg.n, tag.p, tag.n);
      int match = rc == FM_OK && tag.n == tlen && memcmp(full, tag.p, tlen) == 0;
      if (rc != FM_OK) {
        kat_fail(c, id, "fm_hmac returned %s", fm_strerror(rc));
      } else if (expect_valid) {
        if (!match) {
          kat_compare(c, id, "tag", full, tlen, tag.p, tag.n);
        } else if (vr != FM_OK) {
          kat_fail(c, id, "valid tag rejected by fm_hmac_verify: %s", fm_strerror(vr));
        } else {
          kat_pass(c);
        }
      } else if (strcmp(result, "acceptable") == 0) {
        /* Either outcome is allowed; only consistency between compute and verify is checked. */
        if ((vr == FM_OK) != match) {
          kat_fail(c, id, "fm_hmac_verify (%s) disagrees with the computed tag", fm_strerror(vr));
        } else {
          kat_pass(c);
        }
      } else {
        if (match || vr == FM_OK) {
          kat_fail(c, id, "invalid tag accepted (%s)", match ? "computed tag equals it" : "verify OK");
        } else {
          kat_pass(c);
        }
      }
      kat_arena_reset(c);
    }
  }
  return 0;
}
