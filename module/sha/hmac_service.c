/* The public HMAC services of include/fipsmod/hmac.h, over the core of hmac.c.
 *
 * Every service checks in the module's one order (module/internal.h, "Refusing a call"): the
 * state first (fm_service_gate), then its arguments, and refuses with fm_refuse. A refused call
 * wipes its context (fixed size) and what it could legitimately have written of the tag:
 * min(out_len, digest length) bytes when the digest length is known (from alg, or from a live
 * context), nothing when it is not (a NULL or dead context, an unknown alg), so that a huge
 * claimed out_len never makes the module write past a smaller buffer. */
#include "module/approval.h"
#include "module/internal.h"
#include "module/sha/internal.h"

static hmac_ctx *as_hmac_ctx(fm_hmac_ctx *ctx) { return (hmac_ctx *)(void *)ctx; }

/* hmac_gate is the state check of a service that starts a MAC with |alg|: the module state, then
 * the algorithm's CAST (hmac_selftest_ensure). Update and final continue a context that
 * only fm_hmac_init can have made live. */
static int hmac_gate(fm_hash_alg alg) {
  int st = fm_service_gate();
  if (__builtin_expect(st == FM_OK, 1) && (st = hmac_selftest_ensure(alg)) != FM_OK)
    fm_indicator_not_approved();
  return st;
}

/* tag_wipe_len is how much of a |out_len|-byte output a refused call with |dlen|-byte tags
 * wipes: the bytes it would have written (0 when dlen is unknown, 0). */
static size_t tag_wipe_len(size_t out_len, size_t dlen) { return out_len < dlen ? out_len : dlen; }

/* ctx_tag_len is the tag length of a live |ctx|, 0 for NULL or a dead one. */
static size_t ctx_tag_len(fm_hmac_ctx *ctx) {
  if (ctx == NULL || !hmac_ctx_live(as_hmac_ctx(ctx))) return 0;
  return sha_alg_digest_len((fm_hash_alg)as_hmac_ctx(ctx)->alg);
}

/* hmac_lengths_ok is true when a key of |key_len| bytes and a message of |len| bytes stay within
 * the hash's input limit (the inner hash reads one key block before the message). */
/* short_key_flag is the byte of a caller's fm_hmac_ctx, past the private layout, that records a
 * key under 112 bits, so that update and final of that context are not approved either. */
static uint8_t *short_key_flag(fm_hmac_ctx *ctx) { return (uint8_t *)ctx + sizeof *ctx - 1; }
_Static_assert(sizeof(hmac_ctx) < sizeof(fm_hmac_ctx), "room for the short-key flag");

static bool hmac_lengths_ok(fm_hash_alg alg, size_t key_len, size_t len) {
  return key_len <= SHA2_MAX_INPUT_BYTES && len <= SHA2_MAX_INPUT_BYTES - sha_alg_block_len(alg);
}

int fm_hmac_init(fm_hmac_ctx *ctx, fm_hash_alg alg, const uint8_t *key, size_t key_len) {
  int st = hmac_gate(alg);
  if (st == FM_OK) {
    if (ctx == NULL || (key == NULL && key_len > 0)) {
      st = FM_ERR_BAD_ARGUMENT;
    } else if (sha_alg_digest_len(alg) == 0) {
      st = FM_ERR_UNSUPPORTED;
    } else if (key_len > SHA2_MAX_INPUT_BYTES) {
      st = FM_ERR_LENGTH;
    }
  }
  if (st != FM_OK) return fm_refuse(st, ctx, ctx != NULL ? sizeof *ctx : 0);
  st = hmac_ctx_init(as_hmac_ctx(ctx), alg, key, key_len);
  /* A key outside the approved set (module/approval.c) runs, marked not approved. */
  *short_key_flag(ctx) = !fm_approval_hmac(key_len);
  if (!fm_approval_hmac(key_len)) fm_indicator_not_approved();
  return st;
}

int fm_hmac_update(fm_hmac_ctx *ctx, const void *data, size_t len) {
  int st = fm_service_gate();
  if (st != FM_OK) return fm_refuse(st, ctx, ctx != NULL ? sizeof *ctx : 0);
  /* A bad argument leaves the context usable (hmac.h): nothing to wipe. */
  if (ctx == NULL || (data == NULL && len > 0)) return fm_refuse(FM_ERR_BAD_ARGUMENT, NULL, 0);
  if (*short_key_flag(ctx)) fm_indicator_not_approved();
  return hmac_ctx_update(as_hmac_ctx(ctx), data, len);
}

int fm_hmac_final(fm_hmac_ctx *ctx, uint8_t *out, size_t out_len) {
  /* Whatever the outcome, the context (key-derived secrets) is wiped. */
  size_t dlen = ctx_tag_len(ctx);
  int st = fm_service_gate();
  if (st == FM_OK) {
    if (ctx == NULL || out == NULL) {
      st = FM_ERR_BAD_ARGUMENT;
    } else if (dlen == 0) {
      st = FM_ERR_STATE;
    } else if (out_len < dlen) {
      st = FM_ERR_BUFFER_TOO_SMALL;
    }
  }
  if (st != FM_OK) {
    return fm_refuse2(st, ctx, ctx != NULL ? sizeof *ctx : 0, out, tag_wipe_len(out_len, dlen));
  }
  if (*short_key_flag(ctx)) fm_indicator_not_approved();
  st = hmac_ctx_final(as_hmac_ctx(ctx), out);
  /* hmac_ctx_final wiped the private layout; the rest of the caller's object goes too. */
  fm_zeroize((uint8_t *)ctx + sizeof(hmac_ctx), sizeof *ctx - sizeof(hmac_ctx));
  return st;
}

int fm_hmac_wipe(fm_hmac_ctx *ctx) {
  if (ctx != NULL) fm_zeroize(ctx, sizeof *ctx);
  return fm_service_gate();
}

int fm_hmac(fm_hash_alg alg, const uint8_t *key, size_t key_len, const void *data, size_t len,
            uint8_t *out, size_t out_len) {
  size_t dlen = sha_alg_digest_len(alg);
  int st = hmac_gate(alg);
  if (st == FM_OK) {
    if (out == NULL || (key == NULL && key_len > 0) || (data == NULL && len > 0)) {
      st = FM_ERR_BAD_ARGUMENT;
    } else if (dlen == 0) {
      st = FM_ERR_UNSUPPORTED;
    } else if (out_len < dlen) {
      st = FM_ERR_BUFFER_TOO_SMALL;
    } else if (!hmac_lengths_ok(alg, key_len, len)) {
      st = FM_ERR_LENGTH;
    }
  }
  if (st != FM_OK) return fm_refuse(st, out, tag_wipe_len(out_len, dlen));
  if (!fm_approval_hmac(key_len)) fm_indicator_not_approved();
  return hmac_internal(alg, key, key_len, data, len, out);
}

int fm_hmac_verify(fm_hash_alg alg, const uint8_t *key, size_t key_len, const void *data,
                   size_t len, const uint8_t *tag, size_t tag_len) {
  size_t dlen = sha_alg_digest_len(alg);
  int st = hmac_gate(alg);
  if (st != FM_OK) return st;
  if (tag == NULL || (key == NULL && key_len > 0) || (data == NULL && len > 0)) {
    return fm_refuse(FM_ERR_BAD_ARGUMENT, NULL, 0);
  }
  if (dlen == 0) return fm_refuse(FM_ERR_UNSUPPORTED, NULL, 0);
  /* SP 800-107r1 5.3.3: a truncated tag keeps its leftmost bits and has at least 32 of them. */
  if (tag_len < 4 || tag_len > dlen || !hmac_lengths_ok(alg, key_len, len)) {
    return fm_refuse(FM_ERR_LENGTH, NULL, 0);
  }
  if (!fm_approval_hmac(key_len)) fm_indicator_not_approved();
  uint8_t expected[FM_MAX_DIGEST_LEN];
  hmac_internal(alg, key, key_len, data, len, expected);
  /* Compared in time that depends only on tag_len (public); only the verdict leaves, chosen
   * with a mask rather than a branch so that no branch depends on the secret tag before the
   * caller's own test of the status. */
  uint32_t equal = ct_eq_u32((uint32_t)fm_ct_memeq(expected, tag, tag_len), 1);
  fm_zeroize(expected, sizeof expected);
  /* A tag that does not verify is not approved (indicator.h); selected with the same mask. */
  fm_tl_indicator = (uint8_t)ct_select_u32(equal, fm_tl_indicator, 2 /* NOT_APPROVED */);
  return (int)ct_select_u32(equal, (uint32_t)FM_OK, (uint32_t)FM_ERR_VERIFY);
}
