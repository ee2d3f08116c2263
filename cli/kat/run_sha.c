/* SHA-2 known answers: CAVP SHAVS ShortMsg/LongMsg and Monte files, ACVP SHA2-256/384/512
 * (AFT, MCT standard and alternate, LDT). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/kat/kat_internal.h"
#include "fipsmod/sha.h"

static int alg_from_bytes(long digest_bytes, fm_hash_alg *alg) {
  switch (digest_bytes) {
    case 32: *alg = FM_HASH_SHA256; return 0;
    case 48: *alg = FM_HASH_SHA384; return 0;
    case 64: *alg = FM_HASH_SHA512; return 0;
    default: return -1;
  }
}

/* SHA-512/224 and SHA-512/256 files also say [L = 28] / [L = 32]; their header names them. */
static int is_truncated_sha512(const rsp_file *f) {
  return rsp_comment_has(f, "SHA-512/") || rsp_comment_has(f, "SHA512/");
}

/* hash_both computes the digest one-shot and incrementally (split in three uneven pieces), so
 * that the KATs also exercise the update/final path. Returns FM_OK or the first error. */
static int hash_both(fm_hash_alg alg, const uint8_t *msg, size_t len, uint8_t *one,
                     uint8_t *inc) {
  int rc = fm_sha_digest(alg, msg, len, one, FM_MAX_DIGEST_LEN);
  if (rc != FM_OK) return rc;
  fm_sha_ctx ctx;
  size_t a = len / 3, b = len / 2;
  if ((rc = fm_sha_init(&ctx, alg)) != FM_OK) return rc;
  if ((rc = fm_sha_update(&ctx, msg, a)) != FM_OK) return rc;
  if ((rc = fm_sha_update(&ctx, msg + a, b - a)) != FM_OK) return rc;
  if ((rc = fm_sha_update(&ctx, msg + b, len - b)) != FM_OK) return rc;
  return fm_sha_final(&ctx, inc, FM_MAX_DIGEST_LEN);
}

/* check_digest compares both computations of one message with the expected digest. */
static void check_digest(kat_ctx *c, const char *id, fm_hash_alg alg, size_t dlen,
                         const uint8_t *msg, size_t len, const kat_bytes *md) {
  uint8_t one[FM_MAX_DIGEST_LEN], inc[FM_MAX_DIGEST_LEN];
  int rc = hash_both(alg, msg, len, one, inc);
  if (rc != FM_OK) {
    kat_fail(c, id, "hash returned %s", fm_strerror(rc));
  } else if (memcmp(one, inc, dlen) != 0) {
    kat_compare(c, id, "MD (incremental)", inc, dlen, md->p, md->n);
  } else {
    kat_compare(c, id, "MD", one, dlen, md->p, md->n);
  }
}

int kat_cavp_sha(kat_ctx *c, const rsp_file *f) {
  static const char *const start[] = {"Len", NULL};
  rsp_walk w;
  rsp_case cs;
  int rc;
  rsp_walk_init(&w, f, start, NULL);
  kat_set_kind(c, "CAVP SHA-2 ShortMsg/LongMsg");
  while ((rc = rsp_next_case(c, &w, &cs)) == 1) {
    kat_bytes msg, md;
    long len, L = 0;
    fm_hash_alg alg;
    const char *ls = rsp_attr(&cs, "L");
    if (ls == NULL || kat_parse_long(ls, &L) < 0) {
      return kat_error(c, "%s:%d: case %s is not under an [L = n] section", c->path, cs.line, cs.id);
    }
    if (is_truncated_sha512(f) || alg_from_bytes(L, &alg) < 0) {
      kat_skip(c, "SHA-2 variant with L = %ld bytes is not offered (SHA-256/384/512 only)", L);
      continue;
    }
    if (rsp_long(c, &w, &cs, "Len", &len) < 0 || rsp_hex(c, &w, &cs, "Msg", &msg) < 0 ||
        rsp_hex(c, &w, &cs, "MD", &md) < 0) {
      return -1;
    }
    if (len < 0 || (size_t)len > msg.n * 8 || (len == 0 && msg.n > 1)) {
      return kat_error(c, "%s:%d: Len = %ld does not match Msg (%zu bytes)", c->path, cs.line, len,
                       msg.n);
    }
    if (len % 8 != 0) {
      kat_skip(c, "bit-oriented message (Len not a multiple of 8)");
      continue;
    }
    if (md.n != (size_t)L) {
      return kat_error(c, "%s:%d: MD has %zu bytes, [L = %ld]", c->path, cs.line, md.n, L);
    }
    /* Len = 0 comes with the placeholder Msg = 00. */
    check_digest(c, cs.id, alg, (size_t)L, msg.p, (size_t)len / 8, &md);
    kat_arena_reset(c);
  }
  return rc;
}

/* sha_mct_standard: SHAVS 6.4 / ACVP "standard" Monte Carlo inner loop: 1000 digests of the
 * last three digests concatenated, starting from seed, seed, seed. |out| gets MD[1002]. */
static int sha_mct_inner(fm_hash_alg alg, size_t dlen, const uint8_t *seed, size_t seed_len,
                         size_t init_len, int alternate, uint8_t *out) {
  /* md[0..2] rotate: A = MD[i-3], B = MD[i-2], C = MD[i-1]. For the alternate version the
   * seed may be longer than a digest. */
  uint8_t *buf = calloc(3, seed_len > dlen ? seed_len : dlen);
  uint8_t *msg = calloc(1, 3 * (seed_len > dlen ? seed_len : dlen) + init_len + 1);
  if (buf == NULL || msg == NULL) {
    free(buf);
    free(msg);
    return FM_ERR_NO_MEMORY;
  }
  size_t slot = seed_len > dlen ? seed_len : dlen;
  size_t alen = seed_len, blen = seed_len, clen = seed_len;
  uint8_t *A = buf, *B = buf + slot, *C = buf + 2 * slot;
  memcpy(A, seed, seed_len);
  memcpy(B, seed, seed_len);
  memcpy(C, seed, seed_len);
  int rc = FM_OK;
  for (int i = 0; i < 1000 && rc == FM_OK; i++) {
    size_t mlen = 0;
    memcpy(msg, A, alen);
    mlen += alen;
    memcpy(msg + mlen, B, blen);
    mlen += blen;
    memcpy(msg + mlen, C, clen);
    mlen += clen;
    if (alternate) {
      /* ACVP alternate MCT: the message is cut or zero-padded to the initial seed length. */
      if (mlen >= init_len) {
        mlen = init_len;
      } else {
        memset(msg + mlen, 0, init_len - mlen);
        mlen = init_len;
      }
    }
    uint8_t *old = A;
    A = B;
    alen = blen;
    B = C;
    blen = clen;
    C = old;
    rc = fm_sha_digest(alg, msg, mlen, C, FM_MAX_DIGEST_LEN > slot ? slot : FM_MAX_DIGEST_LEN);
    clen = dlen;
  }
  if (rc == FM_OK) memcpy(out, C, dlen);
  free(buf);
  free(msg);
  return rc;
}

int kat_cavp_sha_monte(kat_ctx *c, const rsp_file *f) {
  static const char *const start[] = {"COUNT", NULL};
  static const char *const sticky[] = {"Seed", NULL};
  rsp_walk w;
  rsp_case cs;
  int rc;
  uint8_t seed[FM_MAX_DIGEST_LEN];
  size_t seed_len = 0;
  const rsp_line *seed_line = NULL;
  rsp_walk_init(&w, f, start, sticky);
  kat_set_kind(c, "CAVP SHA-2 Monte");
  while ((rc = rsp_next_case(c, &w, &cs)) == 1) {
    long L = 0;
    fm_hash_alg alg;
    const char *ls = rsp_attr(&cs, "L");
    if (ls == NULL || kat_parse_long(ls, &L) < 0) {
      return kat_error(c, "%s:%d: case %s is not under an [L = n] section", c->path, cs.line, cs.id);
    }
    if (is_truncated_sha512(f) || alg_from_bytes(L, &alg) < 0) {
      kat_skip(c, "SHA-2 variant with L = %ld bytes is not offered (SHA-256/384/512 only)", L);
      continue;
    }
    const rsp_line *sl = rsp_get_line(&w, &cs, "Seed");
    if (sl == NULL) return kat_error(c, "%s:%d: Monte case without a Seed", c->path, cs.line);
    if (sl != seed_line) {
      /* A new Seed line starts a new chain. */
      kat_bytes s;
      if (kat_hex_decode(c, sl->val, 0, &s) < 0 || s.n != (size_t)L) {
        return kat_error(c, "%s:%d: Seed must be %ld bytes of hex", c->path, sl->line, L);
      }
      memcpy(seed, s.p, s.n);
      seed_len = s.n;
      seed_line = sl;
    }
    kat_bytes md;
    if (rsp_hex(c, &w, &cs, "MD", &md) < 0) return -1;
    if (md.n != (size_t)L) return kat_error(c, "%s:%d: MD has %zu bytes", c->path, cs.line, md.n);
    uint8_t out[FM_MAX_DIGEST_LEN];
    int r = sha_mct_inner(alg, (size_t)L, seed, seed_len, 0, 0, out);
    if (r != FM_OK) {
      kat_fail(c, cs.id, "hash returned %s", fm_strerror(r));
    } else {
      kat_compare(c, cs.id, "MD", out, (size_t)L, md.p, md.n);
    }
    /* Each checkpoint seeds the next from the file's value, so one bad checkpoint is reported
     * once rather than a hundred times. */
    memcpy(seed, md.p, md.n);
    kat_arena_reset(c);
  }
  return rc;
}

