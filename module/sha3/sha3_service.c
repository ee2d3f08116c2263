/* The public SHAKE services of include/fipsmod/sha.h (FIPS 202 section 6.2), over the sponge of
 * keccak.c (their CASTs are in sha3_cast.c). The SHA3-* hashes are services of module/sha (fm_sha_*),
 * which reach the sponge through module/sha3/internal.h.
 *
 * Every service checks in the module's one order (module/internal.h, "Refusing a call"): the
 * state and the SHAKE CAST first, then its arguments, and refuses with fm_refuse. */
#include <assert.h>

#include "fipsmod/hmac.h"
#include "fipsmod/sha.h"
#include "module/internal.h"
#include "module/sha3/internal.h"

/* The private layout behind fm_shake_ctx. */
typedef struct __attribute__((may_alias)) shake_ctx {
  uint32_t magic; /* SHAKE_CTX_MAGIC while initialized; 0 once wiped */
  uint32_t alg;   /* fm_xof_alg */
  keccak_state k;
} shake_ctx;

#define SHAKE_CTX_MAGIC 0x4b454343u /* "KECC" */

static_assert(sizeof(shake_ctx) <= sizeof(fm_shake_ctx), "shake_ctx does not fit fm_shake_ctx");
static_assert(_Alignof(shake_ctx) <= _Alignof(fm_shake_ctx), "shake_ctx alignment");

static shake_ctx *as_shake_ctx(fm_shake_ctx *ctx) { return (shake_ctx *)(void *)ctx; }

static bool shake_ctx_live(const fm_shake_ctx *ctx) {
  const shake_ctx *c = (const shake_ctx *)(const void *)ctx;
  return c->magic == SHAKE_CTX_MAGIC && (c->alg == FM_XOF_SHAKE128 || c->alg == FM_XOF_SHAKE256);
}

int fm_shake_init(fm_shake_ctx *ctx, fm_xof_alg alg) {
  int st = fm_service_gate_tested(FM_ST_SHAKE_KAT);
  if (st == FM_OK && ctx == NULL) st = FM_ERR_BAD_ARGUMENT;
  if (st == FM_OK && alg != FM_XOF_SHAKE128 && alg != FM_XOF_SHAKE256) st = FM_ERR_UNSUPPORTED;
  if (st != FM_OK) return fm_refuse(st, ctx, ctx != NULL ? sizeof *ctx : 0);
  fm_zeroize(ctx, sizeof *ctx);
  shake_ctx *c = as_shake_ctx(ctx);
  if (alg == FM_XOF_SHAKE128) {
    shake128_init(&c->k);
  } else {
    shake256_init(&c->k);
  }
  c->alg = (uint32_t)alg;
  c->magic = SHAKE_CTX_MAGIC;
  return FM_OK;
}

int fm_shake_absorb(fm_shake_ctx *ctx, const void *data, size_t len) {
  int st = fm_service_gate();
  if (st != FM_OK) return fm_refuse(st, ctx, ctx != NULL ? sizeof *ctx : 0);
  if (ctx == NULL || (data == NULL && len > 0)) return fm_refuse(FM_ERR_BAD_ARGUMENT, NULL, 0);
  if (!shake_ctx_live(ctx) || as_shake_ctx(ctx)->k.squeezing)
    return fm_refuse(FM_ERR_STATE, NULL, 0);
  if (len > 0) keccak_absorb(&as_shake_ctx(ctx)->k, data, len);
  return FM_OK;
}

int fm_shake_squeeze(fm_shake_ctx *ctx, uint8_t *out, size_t len) {
  int st = fm_service_gate();
  if (st != FM_OK) {
    return fm_refuse2(st, ctx, ctx != NULL ? sizeof *ctx : 0, out, out != NULL ? len : 0);
  }
  if (ctx == NULL || (out == NULL && len > 0)) return fm_refuse(FM_ERR_BAD_ARGUMENT, NULL, 0);
  if (!shake_ctx_live(ctx)) return fm_refuse(FM_ERR_STATE, out, len);
  keccak_squeeze(&as_shake_ctx(ctx)->k, out, len);
  return FM_OK;
}

int fm_shake_wipe(fm_shake_ctx *ctx) {
  if (ctx != NULL) fm_zeroize(ctx, sizeof *ctx);
  return fm_service_gate();
}

static int shake_oneshot(fm_xof_alg alg, const void *data, size_t len, uint8_t *out,
                         size_t out_len) {
  int st = fm_service_gate_tested(FM_ST_SHAKE_KAT);
  if (st == FM_OK && ((data == NULL && len > 0) || (out == NULL && out_len > 0)))
    st = FM_ERR_BAD_ARGUMENT;
  if (st != FM_OK) return fm_refuse(st, out, out != NULL ? out_len : 0);
  if (alg == FM_XOF_SHAKE128) {
    shake128(out, out_len, data, len);
  } else {
    shake256(out, out_len, data, len);
  }
  return FM_OK;
}

int fm_shake128(const void *data, size_t len, uint8_t *out, size_t out_len) {
  return shake_oneshot(FM_XOF_SHAKE128, data, len, out, out_len);
}

int fm_shake256(const void *data, size_t len, uint8_t *out, size_t out_len) {
  return shake_oneshot(FM_XOF_SHAKE256, data, len, out, out_len);
}
