/* The public hash services (SHA-2 and SHA-3) of include/fipsmod/sha.h, over the core of sha.c.
 *
 * Every service checks in the module's one order (module/internal.h, "Refusing a call"): the
 * state first (fm_service_gate), then its arguments, and refuses with fm_refuse. A refused call
 * wipes what it could legitimately have written: the digest, that is min(out_len, digest
 * length) bytes when the digest length is known (from alg, or from a live context), and nothing
 * when it is not (a NULL or dead context, an unknown alg), so that a huge claimed out_len never
 * makes the module write past a smaller buffer. */
#include "module/internal.h"
#include "module/sha/internal.h"

static sha_ctx *as_sha_ctx(fm_sha_ctx *ctx) { return (sha_ctx *)(void *)ctx; }

/* sha_gate is the state check of a service that starts a hash of |alg|: the module state, then
 * the algorithm's CAST (sha_selftest_ensure). Update and final continue a context that only
 * fm_sha_init can have made live. */
static int sha_gate(fm_hash_alg alg) {
  int st = fm_service_gate();
  if (__builtin_expect(st == FM_OK, 1) && (st = sha_selftest_ensure(alg)) != FM_OK)
    fm_indicator_not_approved();
  return st;
}

/* digest_wipe_len is how much of a |out_len|-byte output a refused call of an algorithm with
 * |dlen|-byte digests wipes: the bytes it would have written (0 when dlen is unknown, 0). */
static size_t digest_wipe_len(size_t out_len, size_t dlen) {
  return out_len < dlen ? out_len : dlen;
}

/* ctx_digest_len is the digest length of a live |ctx|, 0 for NULL or a dead one. */
static size_t ctx_digest_len(fm_sha_ctx *ctx) {
  if (ctx == NULL || !sha_ctx_live(as_sha_ctx(ctx))) return 0;
  return sha_alg_digest_len((fm_hash_alg)as_sha_ctx(ctx)->alg);
}

int fm_hash_digest_len(fm_hash_alg alg, size_t *len) {
  /* Not a cryptographic service (it reports a constant), so it answers in every state. */
  if (len == NULL) return FM_ERR_BAD_ARGUMENT;
  *len = sha_alg_digest_len(alg);
  return *len != 0 ? FM_OK : FM_ERR_UNSUPPORTED;
}

int fm_sha_init(fm_sha_ctx *ctx, fm_hash_alg alg) {
  int st = sha_gate(alg);
  if (st == FM_OK && ctx == NULL) st = FM_ERR_BAD_ARGUMENT;
  if (st != FM_OK) return fm_refuse(st, ctx, ctx != NULL ? sizeof *ctx : 0);
  st = sha_ctx_init(as_sha_ctx(ctx), alg);
  if (st != FM_OK) return fm_refuse(st, ctx, sizeof *ctx);
  return FM_OK;
}

int fm_sha_update(fm_sha_ctx *ctx, const void *data, size_t len) {
  int st = fm_service_gate();
  if (st != FM_OK) return fm_refuse(st, ctx, ctx != NULL ? sizeof *ctx : 0);
  /* A bad argument leaves the context usable (sha.h): nothing to wipe. */
  if (ctx == NULL || (data == NULL && len > 0)) return fm_refuse(FM_ERR_BAD_ARGUMENT, NULL, 0);
  return sha_ctx_update(as_sha_ctx(ctx), data, len);
}

int fm_sha_final(fm_sha_ctx *ctx, uint8_t *out, size_t out_len) {
  /* Whatever the outcome, the context is wiped: a failed final does not leave a live state. */
  size_t dlen = ctx_digest_len(ctx);
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
    return fm_refuse2(st, ctx, ctx != NULL ? sizeof *ctx : 0, out,
                      digest_wipe_len(out_len, dlen));
  }
  st = sha_ctx_final(as_sha_ctx(ctx), out);
  /* sha_ctx_final wiped the private layout; the rest of the caller's object goes too. */
  fm_zeroize((uint8_t *)ctx + sizeof(sha_ctx), sizeof *ctx - sizeof(sha_ctx));
  return st;
}

int fm_sha_wipe(fm_sha_ctx *ctx) {
  /* Zeroization is always carried out, in every state; outside OPERATIONAL the status says so
   * like every other service's. */
  if (ctx != NULL) fm_zeroize(ctx, sizeof *ctx);
  return fm_service_gate();
}

int fm_sha_digest(fm_hash_alg alg, const void *data, size_t len, uint8_t *out, size_t out_len) {
  size_t dlen = sha_alg_digest_len(alg);
  int st = sha_gate(alg);
  if (st == FM_OK) {
    if (out == NULL || (data == NULL && len > 0)) {
      st = FM_ERR_BAD_ARGUMENT;
    } else if (dlen == 0) {
      st = FM_ERR_UNSUPPORTED;
    } else if (out_len < dlen) {
      st = FM_ERR_BUFFER_TOO_SMALL;
    } else if (len > SHA2_MAX_INPUT_BYTES) {
      st = FM_ERR_LENGTH;
    }
  }
  if (st != FM_OK) return fm_refuse(st, out, digest_wipe_len(out_len, dlen));
  return sha_digest_internal(alg, data, len, out);
}

/* The SHA-3 one-shots in the shape of the SHA-2 ones. */
static void sha3_224_digest(const void *data, size_t len, uint8_t *out) {
  sha3_digest(224, data, len, out);
}
static void sha3_256_digest(const void *data, size_t len, uint8_t *out) {
  sha3_digest(256, data, len, out);
}
static void sha3_384_digest(const void *data, size_t len, uint8_t *out) {
  sha3_digest(384, data, len, out);
}
static void sha3_512_digest(const void *data, size_t len, uint8_t *out) {
  sha3_digest(512, data, len, out);
}

/* sha_oneshot is the body of fm_sha224 ... fm_sha3_512: the same checks with a fixed output
 * length, the algorithm's CAST |cast| named directly (one inline load once it has passed), and a
 * direct call of the algorithm's one-shot |digest|. */
static inline __attribute__((always_inline)) int sha_oneshot(
    fm_selftest_id cast, void (*digest)(const void *, size_t, uint8_t *), const void *data,
    size_t len, uint8_t *out, size_t dlen) {
  int st = fm_service_gate_tested(cast);
  if (st == FM_OK) {
    if (out == NULL || (data == NULL && len > 0)) {
      st = FM_ERR_BAD_ARGUMENT;
    } else if (len > SHA2_MAX_INPUT_BYTES) {
      st = FM_ERR_LENGTH;
    }
  }
  if (st != FM_OK) return fm_refuse(st, out, dlen);
  digest(data, len, out);
  return FM_OK;
}

int fm_sha256(const void *data, size_t len, uint8_t out[FM_SHA256_DIGEST_LEN]) {
  return sha_oneshot(FM_ST_SHA256_KAT, sha256_digest_internal, data, len, out,
                     FM_SHA256_DIGEST_LEN);
}

int fm_sha384(const void *data, size_t len, uint8_t out[FM_SHA384_DIGEST_LEN]) {
  return sha_oneshot(FM_ST_SHA384_KAT, sha384_digest_internal, data, len, out,
                     FM_SHA384_DIGEST_LEN);
}

int fm_sha512(const void *data, size_t len, uint8_t out[FM_SHA512_DIGEST_LEN]) {
  return sha_oneshot(FM_ST_SHA512_KAT, sha512_digest_internal, data, len, out,
                     FM_SHA512_DIGEST_LEN);
}

int fm_sha224(const void *data, size_t len, uint8_t out[FM_SHA224_DIGEST_LEN]) {
  return sha_oneshot(FM_ST_SHA2_TRUNCATED_KAT, sha224_digest_internal, data, len, out,
                     FM_SHA224_DIGEST_LEN);
}

int fm_sha512_224(const void *data, size_t len, uint8_t out[FM_SHA512_224_DIGEST_LEN]) {
  return sha_oneshot(FM_ST_SHA2_TRUNCATED_KAT, sha512_224_digest_internal, data, len, out,
                     FM_SHA512_224_DIGEST_LEN);
}

int fm_sha512_256(const void *data, size_t len, uint8_t out[FM_SHA512_256_DIGEST_LEN]) {
  return sha_oneshot(FM_ST_SHA2_TRUNCATED_KAT, sha512_256_digest_internal, data, len, out,
                     FM_SHA512_256_DIGEST_LEN);
}

int fm_sha3_224(const void *data, size_t len, uint8_t out[FM_SHA3_224_DIGEST_LEN]) {
  return sha_oneshot(FM_ST_SHA3_KAT, sha3_224_digest, data, len, out, FM_SHA3_224_DIGEST_LEN);
}

int fm_sha3_256(const void *data, size_t len, uint8_t out[FM_SHA3_256_DIGEST_LEN]) {
  return sha_oneshot(FM_ST_SHA3_KAT, sha3_256_digest, data, len, out, FM_SHA3_256_DIGEST_LEN);
}

int fm_sha3_384(const void *data, size_t len, uint8_t out[FM_SHA3_384_DIGEST_LEN]) {
  return sha_oneshot(FM_ST_SHA3_KAT, sha3_384_digest, data, len, out, FM_SHA3_384_DIGEST_LEN);
}

int fm_sha3_512(const void *data, size_t len, uint8_t out[FM_SHA3_512_DIGEST_LEN]) {
  return sha_oneshot(FM_ST_SHA3_KAT, sha3_512_digest, data, len, out, FM_SHA3_512_DIGEST_LEN);
}
