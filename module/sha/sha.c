/* The algorithm-generic hash context and the public SHA-2 services of include/fipsmod/sha.h.
 *
 * Every public function opens with the service gate; on any error it wipes what it would have
 * written. A context's magic word tells an initialized context from a zeroed, wiped or finalized
 * one, so misuse is an FM_ERR_STATE instead of a hash of garbage. */
#include <assert.h>
#include <string.h>

#include "module/internal.h"
#include "module/sha/internal.h"

/* The private layout must fit the caller-allocated public one. */
static_assert(sizeof(sha_ctx) <= sizeof(fm_sha_ctx), "sha_ctx does not fit fm_sha_ctx");
static_assert(_Alignof(sha_ctx) <= _Alignof(fm_sha_ctx), "sha_ctx alignment exceeds fm_sha_ctx");

size_t sha_alg_digest_len(fm_hash_alg alg) {
  switch (alg) {
    case FM_HASH_SHA256: return FM_SHA256_DIGEST_LEN;
    case FM_HASH_SHA384: return FM_SHA384_DIGEST_LEN;
    case FM_HASH_SHA512: return FM_SHA512_DIGEST_LEN;
  }
  return 0;
}

size_t sha_alg_block_len(fm_hash_alg alg) {
  switch (alg) {
    case FM_HASH_SHA256: return SHA256_BLOCK_LEN;
    case FM_HASH_SHA384:
    case FM_HASH_SHA512: return SHA512_BLOCK_LEN;
  }
  return 0;
}

int sha_digest_internal(fm_hash_alg alg, const void *data, size_t len, uint8_t *out) {
  switch (alg) {
    case FM_HASH_SHA256: sha256_digest_internal(data, len, out); return FM_OK;
    case FM_HASH_SHA384: sha384_digest_internal(data, len, out); return FM_OK;
    case FM_HASH_SHA512: sha512_digest_internal(data, len, out); return FM_OK;
  }
  return FM_ERR_UNSUPPORTED;
}

/* ---- Internal context ------------------------------------------------------------------- */

int sha_ctx_init(sha_ctx *c, fm_hash_alg alg) {
  switch (alg) {
    case FM_HASH_SHA256: sha256_state_init(&c->u.s256); break;
    case FM_HASH_SHA384: sha384_state_init(&c->u.s512); break;
    case FM_HASH_SHA512: sha512_state_init(&c->u.s512); break;
    default: sha_ctx_wipe(c); return FM_ERR_UNSUPPORTED;
  }
  c->alg = (uint32_t)alg;
  c->magic = SHA_CTX_MAGIC;
  return FM_OK;
}

/* sha_ctx_live is true when |c| was initialized and not yet finalized or wiped; a magic word
 * that matches with an alg that does not is treated as garbage. */
static bool sha_ctx_live(const sha_ctx *c) {
  return c->magic == SHA_CTX_MAGIC && sha_alg_digest_len((fm_hash_alg)c->alg) != 0;
}

int sha_ctx_update(sha_ctx *c, const void *data, size_t len) {
  if (!sha_ctx_live(c)) return FM_ERR_STATE;
  if (c->alg == FM_HASH_SHA256) return sha256_state_update(&c->u.s256, data, len);
  return sha512_state_update(&c->u.s512, data, len);
}

int sha_ctx_final(sha_ctx *c, uint8_t *out) {
  if (!sha_ctx_live(c)) {
    sha_ctx_wipe(c);
    return FM_ERR_STATE;
  }
  if (c->alg == FM_HASH_SHA256) {
    sha256_state_final(&c->u.s256, out);
  } else {
    sha512_state_final(&c->u.s512, out, sha_alg_digest_len((fm_hash_alg)c->alg));
  }
  sha_ctx_wipe(c);
  return FM_OK;
}

void sha_ctx_wipe(sha_ctx *c) { fm_zeroize(c, sizeof *c); }

/* ---- Public services (include/fipsmod/sha.h) --------------------------------------------- */

static sha_ctx *as_sha_ctx(fm_sha_ctx *ctx) { return (sha_ctx *)(void *)ctx; }

/* wipe_out zeroizes an output buffer on an error path (NULL or empty is fine). */
static void wipe_out(uint8_t *out, size_t out_len) {
  if (out != NULL) fm_zeroize(out, out_len);
}

int fm_hash_digest_len(fm_hash_alg alg, size_t *len) {
  /* Not a cryptographic service (it reports a constant), so it answers in every state. */
  if (len == NULL) return FM_ERR_BAD_ARGUMENT;
  *len = sha_alg_digest_len(alg);
  return *len != 0 ? FM_OK : FM_ERR_UNSUPPORTED;
}

int fm_sha_init(fm_sha_ctx *ctx, fm_hash_alg alg) {
  if (!fm_module_operational()) {
    if (ctx != NULL) fm_zeroize(ctx, sizeof *ctx);
    return FM_ERR_NOT_OPERATIONAL;
  }
  if (ctx == NULL) return FM_ERR_BAD_ARGUMENT;
  int st = sha_ctx_init(as_sha_ctx(ctx), alg);
  if (st != FM_OK) fm_zeroize(ctx, sizeof *ctx);
  return st;
}

int fm_sha_update(fm_sha_ctx *ctx, const void *data, size_t len) {
  if (!fm_module_operational()) {
    if (ctx != NULL) fm_zeroize(ctx, sizeof *ctx);
    return FM_ERR_NOT_OPERATIONAL;
  }
  if (ctx == NULL || (data == NULL && len > 0)) return FM_ERR_BAD_ARGUMENT;
  return sha_ctx_update(as_sha_ctx(ctx), data, len);
}

int fm_sha_final(fm_sha_ctx *ctx, uint8_t *out, size_t out_len) {
  /* Whatever the outcome, the context is wiped: a failed final does not leave a live state. */
  int st;
  if (!fm_module_operational()) {
    st = FM_ERR_NOT_OPERATIONAL;
  } else if (ctx == NULL || out == NULL) {
    st = FM_ERR_BAD_ARGUMENT;
  } else if (!sha_ctx_live(as_sha_ctx(ctx))) {
    st = FM_ERR_STATE;
  } else if (out_len < sha_alg_digest_len((fm_hash_alg)as_sha_ctx(ctx)->alg)) {
    st = FM_ERR_BUFFER_TOO_SMALL;
  } else {
    st = sha_ctx_final(as_sha_ctx(ctx), out);
    /* sha_ctx_final wiped the private layout; the rest of the caller's object goes too. */
    fm_zeroize((uint8_t *)ctx + sizeof(sha_ctx), sizeof *ctx - sizeof(sha_ctx));
    return st;
  }
  if (ctx != NULL) fm_zeroize(ctx, sizeof *ctx);
  wipe_out(out, out_len);
  return st;
}

int fm_sha_wipe(fm_sha_ctx *ctx) {
  /* Zeroization is always carried out, in every state; outside OPERATIONAL the status says so
   * like every other service's. */
  if (ctx != NULL) fm_zeroize(ctx, sizeof *ctx);
  return fm_module_operational() ? FM_OK : FM_ERR_NOT_OPERATIONAL;
}

int fm_sha_digest(fm_hash_alg alg, const void *data, size_t len, uint8_t *out, size_t out_len) {
  int st;
  size_t dlen = sha_alg_digest_len(alg);
  if (!fm_module_operational()) {
    st = FM_ERR_NOT_OPERATIONAL;
  } else if (out == NULL || (data == NULL && len > 0)) {
    st = FM_ERR_BAD_ARGUMENT;
  } else if (dlen == 0) {
    st = FM_ERR_UNSUPPORTED;
  } else if (out_len < dlen) {
    st = FM_ERR_BUFFER_TOO_SMALL;
  } else if (len > SHA2_MAX_INPUT_BYTES) {
    st = FM_ERR_LENGTH;
  } else {
    return sha_digest_internal(alg, data, len, out);
  }
  wipe_out(out, out_len);
  return st;
}

/* sha_oneshot is the body of fm_sha256/384/512: the same checks with a fixed output length. */
static int sha_oneshot(fm_hash_alg alg, const void *data, size_t len, uint8_t *out,
                       size_t out_len) {
  int st;
  if (!fm_module_operational()) {
    st = FM_ERR_NOT_OPERATIONAL;
  } else if (out == NULL || (data == NULL && len > 0)) {
    st = FM_ERR_BAD_ARGUMENT;
  } else if (len > SHA2_MAX_INPUT_BYTES) {
    st = FM_ERR_LENGTH;
  } else {
    return sha_digest_internal(alg, data, len, out);
  }
  wipe_out(out, out_len);
  return st;
}

int fm_sha256(const void *data, size_t len, uint8_t out[FM_SHA256_DIGEST_LEN]) {
  return sha_oneshot(FM_HASH_SHA256, data, len, out, FM_SHA256_DIGEST_LEN);
}

int fm_sha384(const void *data, size_t len, uint8_t out[FM_SHA384_DIGEST_LEN]) {
  return sha_oneshot(FM_HASH_SHA384, data, len, out, FM_SHA384_DIGEST_LEN);
}

int fm_sha512(const void *data, size_t len, uint8_t out[FM_SHA512_DIGEST_LEN]) {
  return sha_oneshot(FM_HASH_SHA512, data, len, out, FM_SHA512_DIGEST_LEN);
}
