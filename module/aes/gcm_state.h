/* AES-GCM's private interface between its files: the key and context states behind fm_gcm_key
 * and fm_gcm_ctx, the checks every service shares, and the steps each file offers the other.
 * gcm.c has the keys (IV generation, invocation limits, fork), the one-shot services and the
 * register clearing; gcm_ctx.c the streaming context (its steps run the one-shots that need a
 * context too) and the streaming services. Secrets as gcm.c says. */
#ifndef FIPSMOD_MODULE_AES_GCM_STATE_H
#define FIPSMOD_MODULE_AES_GCM_STATE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "fipsmod/gcm.h"
#include "module/aes/internal.h"
#include "module/approval.h"
#include "module/internal.h"

/* ---- Key ---------------------------------------------------------------------------------- */

enum { GCM_IV_RBG = 1, GCM_IV_COUNTER = 2 };

/* What fm_gcm_key holds. |invocations| counts authenticated encryptions with this key; it is the
 * one field written after init, by atomic compare-and-swap, so that concurrent encryptions never
 * share an IV. A counter key's invocation field is |iv_base| + that count (mod 2^64): the base is
 * drawn from the DRBG when the key is built, so that two instances of one key and fixed field
 * (the key built again, in this process or another) do not restart at the same invocation field.
 * |self| is the key's own address and |process| the process it was built in (gcm_process_id): a
 * memcpy'd key, or a counter key that a child of fork() inherited, is refused. */
typedef struct gcm_key_state {
  aes_ks ks;
  ghash_key gh;
  _Atomic uint64_t invocations;
  uint32_t iv_mode;
  uint8_t fixed[FM_GCM_FIXED_LEN];
  uint64_t iv_base;
  uint64_t process;
  uintptr_t self;
  uint64_t magic;
} gcm_key_state;

#define GCM_KEY_MAGIC 0x47434d4b45595631ull /* "GCMKEYV1" */
/* SP 800-38D 8.3: at most 2^32 invocations for RBG-based IVs. A counter key's 64-bit invocation
 * field may take every value but the last (kept as the "exhausted" mark). */
#define GCM_RBG_LIMIT (((uint64_t)1) << 32)
#define GCM_COUNTER_LIMIT UINT64_MAX
/* SP 800-38D 5.2.1.1: len(A) and len(IV) at most 2^64 - 1 bits. */
#define GCM_MAX_AAD_LEN ((((uint64_t)1) << 61) - 1)
#define GCM_MAX_IV_LEN GCM_MAX_AAD_LEN

static_assert(sizeof(gcm_key_state) <= sizeof(fm_gcm_key), "fm_gcm_key.opaque is too small");
static_assert(_Alignof(gcm_key_state) <= _Alignof(fm_gcm_key), "fm_gcm_key is under-aligned");

static inline gcm_key_state *key_state(fm_gcm_key *k) { return (gcm_key_state *)(void *)k->opaque; }
static inline const gcm_key_state *key_state_c(const fm_gcm_key *k) {
  return (const gcm_key_state *)(const void *)k->opaque;
}

/* key_usable: built by an init and not wiped, at the address it was built at, with public fields
 * this build knows. */
static inline bool key_usable(const gcm_key_state *s) {
  return s->magic == GCM_KEY_MAGIC && s->self == (uintptr_t)s &&
         (s->ks.rounds == 10 || s->ks.rounds == 12 || s->ks.rounds == 14) &&
         (s->ks.impl == AES_IMPL_PORTABLE ||
          (s->ks.impl == AES_IMPL_AESNI && fm_cpu_use(FM_CPU_AESNI))) &&
         (s->iv_mode == GCM_IV_RBG || s->iv_mode == GCM_IV_COUNTER) &&
         (s->gh.npow == 1 || s->gh.npow == 16);
}

/* ---- Stack ------------------------------------------------------------------------------
 * The kernels also spill secrets to their frames (key stream, cipher states, GHASH sums, powers
 * of H), where C cannot name them: each GCM step that ran a kernel that spills ends with one
 * wipe of the stack below it (module/aes/internal.h, AES_BULK_STACK_WIPE, which says which
 * kernels spill and how that was measured). That is a step that handed the kernels
 * AES_STACK_WIPE_MIN_BLOCKS blocks or more (the stitched kernels need 16), or any step on the
 * portable AES or GHASH code; a 16-byte seal on the AES-NI paths pays no wipe. */

/* gcm_portable: |k| runs the bitsliced AES or the portable GHASH (public). */
static inline bool gcm_portable(const gcm_key_state *k) {
#if defined(FIPSMOD_TEST_HOOKS)
  /* Tests may cap the GHASH path of a 16-power key down to the portable one. */
  if (ghash_key_path(&k->gh) == GHASH_PATH_PORTABLE) return true;
#endif
  /* Outside tests the GHASH path is portable exactly when the key has one power (no PCLMULQDQ,
   * ghash_key_init), which is cheaper to read than ghash_key_path. */
  return k->ks.impl == AES_IMPL_PORTABLE || k->gh.npow != 16;
}

/* gcm_stack_wipe ends a step that ran |nblocks| blocks through the kernels. Inlined, so that the
 * wipe lies below the step's own frame. */
static inline __attribute__((always_inline)) void gcm_stack_wipe(const gcm_key_state *k,
                                                                size_t nblocks) {
  if (AES_STACK_WIPE_ALWAYS || nblocks >= AES_STACK_WIPE_MIN_BLOCKS || gcm_portable(k)) {
    aes_bulk_stack_wipe();
  }
}

/* ---- Streaming context -------------------------------------------------------------------- */

enum { PHASE_AAD = 1, PHASE_TEXT = 2 };

/* What fm_gcm_ctx holds. In the AAD phase |partial| holds the last |npartial| AAD bytes that do
 * not fill a block; in the text phase it holds the ciphertext bytes of the current block so far
 * and |stream| that block's key stream (bytes [npartial, 16) still unused). */
typedef struct gcm_ctx_state {
  const gcm_key_state *key;
  uint64_t y[2]; /* the GHASH state, reflected form */
  uint8_t j0[16];
  uint8_t ctr[16]; /* the next counter block */
  uint8_t stream[16];
  uint8_t partial[16];
  uint64_t aad_len, text_len;
  uint32_t npartial;
  uint32_t phase;
  uint32_t decrypt;
  uint32_t caller_iv; /* started by fm_gcm_encrypt_init_with_iv: not approved */
  uint32_t magic;
  uintptr_t self; /* the context's own address: a memcpy'd context is refused */
  /* encryption: the process that started it (gcm_process_id; see "Fork" in gcm.c) */
  uint64_t process;
} gcm_ctx_state;

#define GCM_CTX_MAGIC 0x47434d43u /* "GCMC" */

static_assert(sizeof(gcm_ctx_state) <= sizeof(fm_gcm_ctx), "fm_gcm_ctx.opaque is too small");
static_assert(_Alignof(gcm_ctx_state) <= _Alignof(fm_gcm_ctx), "fm_gcm_ctx is under-aligned");

static inline gcm_ctx_state *ctx_state(fm_gcm_ctx *c) { return (gcm_ctx_state *)(void *)c->opaque; }

/* ---- Service checks ------------------------------------------------------------------------
 * Every GCM service runs the module's one order (module/internal.h, "Refusing a call"): the
 * gate (fm_service_gate), then its own check_* (arguments, key or context state, overlaps: pure,
 * nothing written), then the work; a refusal goes through gcm_refuse, which wipes what the call
 * could legitimately have written. */

/* mark_short_tag marks the call not approved for a tag outside the approved set (64 or 32 bits:
 * module/approval.c). */
static inline void mark_short_tag(size_t tag_len) {
  if (!fm_approval_gcm(tag_len)) fm_indicator_not_approved();
}

/* tag_len_ok: 128..96 bits approved, 64 and 32 bits accepted (non-approved). */
static inline bool tag_len_ok(size_t t) {
  return (t >= 12 && t <= 16) || t == 8 || t == 4;
}

static inline bool text_len_ok(size_t len) { return (uint64_t)len <= FM_GCM_MAX_TEXT_LEN; }

static inline bool iv_len_ok(size_t iv_len) {
  return iv_len != 0 && (uint64_t)iv_len <= GCM_MAX_IV_LEN;
}

/* gcm_refuse wipes the context |c| (when not NULL), |out1_len| bytes at |out1| and |out2_len|
 * bytes at |out2| (the lengths the caller has checked, or 0), marks the call not approved and
 * returns |st|. */
static inline int gcm_refuse(int st, fm_gcm_ctx *c, void *out1, size_t out1_len, void *out2,
                             size_t out2_len) {
  if (c != NULL) fm_zeroize(c, sizeof *c);
  return fm_refuse2(st, out1, out1_len, out2, out2_len);
}

/* text_wipe_len / tag_wipe_len: what a refused call may wipe of a text or tag output whose
 * claimed length may itself be what is wrong. */
static inline size_t text_wipe_len(const void *out, size_t len) {
  return out != NULL && text_len_ok(len) ? len : 0;
}
static inline size_t tag_wipe_len(const void *tag, size_t tag_len) {
  return tag != NULL && tag_len_ok(tag_len) ? tag_len : 0;
}

/* tag_eq is 1 when the first |tag_len| (public) bytes of |full| and |tag| are equal, else 0, in
 * constant time: the differences of 8-byte, 4-byte and single-byte pieces ORed together, no
 * branch or index on the contents (fm_ct_memeq's contract, a word at a time). */
static inline int tag_eq(const uint8_t full[16], const uint8_t *tag, size_t tag_len) {
  uint64_t acc = 0;
  size_t i = 0;
  for (; i + 8 <= tag_len; i += 8) {
    uint64_t a, b;
    memcpy(&a, full + i, 8);
    memcpy(&b, tag + i, 8);
    acc |= a ^ b;
  }
  if (i + 4 <= tag_len) {
    uint32_t a, b;
    memcpy(&a, full + i, 4);
    memcpy(&b, tag + i, 4);
    acc |= a ^ b;
    i += 4;
  }
  for (; i < tag_len; i++) acc |= (uint64_t)(full[i] ^ tag[i]);
  return (int)(1 & ct_is_zero_u64(acc));
}

/* ---- Steps (gcm.c) ------------------------------------------------------------------------ */

/* gcm_clear_registers zeroes every vector register the CPU's widest path could have used (see
 * "Vector registers" in gcm.c). */
void gcm_clear_registers(void);

/* gcm_process_id names the calling process, gcm_same_process tells whether |id| names it (see
 * "Fork" in gcm.c). */
uint64_t gcm_process_id(void);
bool gcm_same_process(uint64_t id);

/* gcm_take_invocation counts one authenticated encryption with |s| (SP 800-38D 8.3) into |*n|;
 * gcm_generate_iv builds the 96-bit IV of one approved encryption (8.2). FM_OK or FM_ERR_STATE
 * (the key's limit, or a counter key in another process); gcm_generate_iv also the RNG's
 * statuses. */
int gcm_take_invocation(gcm_key_state *s, uint64_t *n);
int gcm_generate_iv(gcm_key_state *s, uint8_t iv[FM_GCM_IV_LEN]);

/* ---- Steps (gcm_ctx.c) -------------------------------------------------------------------- *
 * The context's steps leave the vector registers to their caller, which clears them once at
 * the end of the service; each wipes the stack below it where a kernel it ran spills. */

/* gcm_ctx_start sets up |c| for one message under |iv| (SP 800-38D 7.1 steps 2-3, 7.2 steps
 * 3-4); gcm_ctx_aad absorbs |len| bytes of AAD; gcm_ctx_text_sliced encrypts or decrypts |len|
 * bytes in slices, false when a self-test run overlapped the call (the caller wipes every
 * output); gcm_ctx_tag computes the full tag (7.1 steps 5-6). */
void gcm_ctx_start(gcm_ctx_state *c, const gcm_key_state *k, const uint8_t *iv, size_t iv_len,
                   bool decrypt);
void gcm_ctx_aad(gcm_ctx_state *c, const uint8_t *aad, size_t len);
bool gcm_ctx_text_sliced(gcm_ctx_state *c, const uint8_t *in, uint8_t *out, size_t len,
                         uint64_t epoch);
void gcm_ctx_tag(gcm_ctx_state *c, uint8_t tag[16]);

#endif
