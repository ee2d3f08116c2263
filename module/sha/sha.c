/* The algorithm-generic hash context over SHA-2 and SHA-3 (part of the hash core, which knows nothing of the module's
 * life cycle: the public services are in sha_service.c). A context's magic word tells an
 * initialized context from a zeroed, wiped or finalized one, so misuse is an FM_ERR_STATE
 * instead of a hash of garbage. */
#include <assert.h>
#include <string.h>

#include "module/internal.h"
#include "module/sha/internal.h"

/* The private layout must fit the caller-allocated public one. */
static_assert(sizeof(sha_ctx) <= sizeof(fm_sha_ctx), "sha_ctx does not fit fm_sha_ctx");
static_assert(_Alignof(sha_ctx) <= _Alignof(fm_sha_ctx), "sha_ctx alignment exceeds fm_sha_ctx");

enum sha_family sha_alg_family(fm_hash_alg alg) {
  switch (alg) {
    case FM_HASH_SHA224:
    case FM_HASH_SHA256: return SHA_FAMILY_256;
    case FM_HASH_SHA384:
    case FM_HASH_SHA512:
    case FM_HASH_SHA512_224:
    case FM_HASH_SHA512_256: return SHA_FAMILY_512;
    case FM_HASH_SHA3_224:
    case FM_HASH_SHA3_256:
    case FM_HASH_SHA3_384:
    case FM_HASH_SHA3_512: return SHA_FAMILY_SHA3;
  }
  return SHA_FAMILY_NONE;
}

size_t sha_alg_digest_len(fm_hash_alg alg) {
  switch (alg) {
    case FM_HASH_SHA224: return FM_SHA224_DIGEST_LEN;
    case FM_HASH_SHA256: return FM_SHA256_DIGEST_LEN;
    case FM_HASH_SHA384: return FM_SHA384_DIGEST_LEN;
    case FM_HASH_SHA512: return FM_SHA512_DIGEST_LEN;
    case FM_HASH_SHA512_224: return FM_SHA512_224_DIGEST_LEN;
    case FM_HASH_SHA512_256: return FM_SHA512_256_DIGEST_LEN;
    case FM_HASH_SHA3_224: return FM_SHA3_224_DIGEST_LEN;
    case FM_HASH_SHA3_256: return FM_SHA3_256_DIGEST_LEN;
    case FM_HASH_SHA3_384: return FM_SHA3_384_DIGEST_LEN;
    case FM_HASH_SHA3_512: return FM_SHA3_512_DIGEST_LEN;
  }
  return 0;
}

size_t sha_alg_block_len(fm_hash_alg alg) {
  switch (sha_alg_family(alg)) {
    case SHA_FAMILY_256: return SHA256_BLOCK_LEN;
    case SHA_FAMILY_512: return SHA512_BLOCK_LEN;
    /* FIPS 202 section 6.1: r = 1600 - 2d bits for SHA3-d. */
    case SHA_FAMILY_SHA3: return 200 - 2 * sha_alg_digest_len(alg);
    case SHA_FAMILY_NONE: break;
  }
  return 0;
}

int sha_digest_internal(fm_hash_alg alg, const void *data, size_t len, uint8_t *out) {
  switch (alg) {
    case FM_HASH_SHA224: sha224_digest_internal(data, len, out); return FM_OK;
    case FM_HASH_SHA256: sha256_digest_internal(data, len, out); return FM_OK;
    case FM_HASH_SHA384: sha384_digest_internal(data, len, out); return FM_OK;
    case FM_HASH_SHA512: sha512_digest_internal(data, len, out); return FM_OK;
    case FM_HASH_SHA512_224: sha512_224_digest_internal(data, len, out); return FM_OK;
    case FM_HASH_SHA512_256: sha512_256_digest_internal(data, len, out); return FM_OK;
    case FM_HASH_SHA3_224:
    case FM_HASH_SHA3_256:
    case FM_HASH_SHA3_384:
    case FM_HASH_SHA3_512:
      sha3_digest((unsigned)(8 * sha_alg_digest_len(alg)), data, len, out);
      return FM_OK;
  }
  return FM_ERR_UNSUPPORTED;
}

/* ---- Internal context ------------------------------------------------------------------- */

int sha_ctx_init(sha_ctx *c, fm_hash_alg alg) {
  switch (alg) {
    case FM_HASH_SHA224: sha256_state_init_iv(&c->u.s256, sha224_iv); break;
    case FM_HASH_SHA256: sha256_state_init(&c->u.s256); break;
    case FM_HASH_SHA384: sha384_state_init(&c->u.s512); break;
    case FM_HASH_SHA512: sha512_state_init(&c->u.s512); break;
    case FM_HASH_SHA512_224: sha512_state_init_iv(&c->u.s512, sha512_224_iv); break;
    case FM_HASH_SHA512_256: sha512_state_init_iv(&c->u.s512, sha512_256_iv); break;
    case FM_HASH_SHA3_224:
    case FM_HASH_SHA3_256:
    case FM_HASH_SHA3_384:
    case FM_HASH_SHA3_512: sha3_init(&c->u.k, (unsigned)(8 * sha_alg_digest_len(alg))); break;
    default: sha_ctx_wipe(c); return FM_ERR_UNSUPPORTED;
  }
  c->alg = (uint32_t)alg;
  c->magic = SHA_CTX_MAGIC;
  return FM_OK;
}

bool sha_ctx_live(const sha_ctx *c) {
  return c->magic == SHA_CTX_MAGIC && sha_alg_digest_len((fm_hash_alg)c->alg) != 0;
}

int sha_ctx_update(sha_ctx *c, const void *data, size_t len) {
  if (!sha_ctx_live(c)) return FM_ERR_STATE;
  switch (sha_alg_family((fm_hash_alg)c->alg)) {
    case SHA_FAMILY_256: return sha256_state_update(&c->u.s256, data, len);
    case SHA_FAMILY_512: return sha512_state_update(&c->u.s512, data, len);
    case SHA_FAMILY_SHA3:
      /* FIPS 202 sets no length limit. */
      if (len > 0) keccak_absorb(&c->u.k, data, len);
      return FM_OK;
    case SHA_FAMILY_NONE: break;
  }
  return FM_ERR_STATE;
}

int sha_ctx_final(sha_ctx *c, uint8_t *out) {
  if (!sha_ctx_live(c)) {
    sha_ctx_wipe(c);
    return FM_ERR_STATE;
  }
  const size_t dlen = sha_alg_digest_len((fm_hash_alg)c->alg);
  switch (sha_alg_family((fm_hash_alg)c->alg)) {
    case SHA_FAMILY_256: sha256_state_final_len(&c->u.s256, out, dlen); break;
    case SHA_FAMILY_512: sha512_state_final(&c->u.s512, out, dlen); break;
    case SHA_FAMILY_SHA3: keccak_squeeze(&c->u.k, out, dlen); break;
    case SHA_FAMILY_NONE: break;
  }
  sha_ctx_wipe(c);
  return FM_OK;
}

void sha_ctx_wipe(sha_ctx *c) { fm_zeroize(c, sizeof *c); }
