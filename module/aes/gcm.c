/* AES-GCM (SP 800-38D): the keys with their IV generation and invocation limits, the streaming
 * context, and the public API of gcm.h.
 *
 * The mode is GCTR (AES-CTR with inc32, module/aes's aes_ctr32_blocks, which takes the widest
 * AES path) and GHASH (ghash.c, ghash_clmul.c). On CPUs with VAES and VPCLMULQDQ the bulk runs
 * in one stitched kernel in 16-block passes: on 512-bit registers (gcm_vaes.c) where AVX-512 is
 * used, else on 256-bit registers (gcm_vaes256.c). Elsewhere, and for the blocks
 * short of one pass, it runs in chunks that fit the L1 cache: encryption runs CTR over a chunk
 * and then GHASH over the ciphertext it wrote; decryption hashes the chunk of ciphertext first,
 * so that in-place decryption reads each ciphertext block before it is overwritten. A one-shot
 * with a 96-bit IV runs without a context (gcm_oneshot.c): with at most 240 bytes each of AAD
 * and text on a short path, and where the 512-bit kernel is used from 224 bytes of text on.
 *
 * Secrets: the AES schedule, H and its powers, the GHASH state, the key stream, the data. The
 * IV, the lengths and the tag length are public; the tag is public once released, and the
 * comparison in open is constant time anyway. */
#define _GNU_SOURCE
#include <stdatomic.h>
#include <string.h>

#include "fipsmod/gcm.h"
#include "fipsmod/rand.h"
#include "module/aes/internal.h"
#include "module/approval.h"
#include "module/internal.h"
#include "module/rand/internal.h"
#include "module/syscall.h"

/* ---- Key ---------------------------------------------------------------------------------- */

enum { GCM_IV_RBG = 1, GCM_IV_COUNTER = 2 };

/* What fm_gcm_key holds. |invocations| counts authenticated encryptions with this key; it is the
 * one field written after init, by atomic compare-and-swap, so that concurrent encryptions never
 * share an IV. A counter key's invocation field is |iv_base| + that count (mod 2^64): the base is
 * drawn from the DRBG when the key is built, so that two instances of one key and fixed field
 * (the key built again, in this process or another) do not restart at the same invocation field.
 * |self| is the key's own address and |process| the process it was built in (process_id): a
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

static gcm_key_state *key_state(fm_gcm_key *k) { return (gcm_key_state *)(void *)k->opaque; }
static const gcm_key_state *key_state_c(const fm_gcm_key *k) {
  return (const gcm_key_state *)(const void *)k->opaque;
}

/* GCM_KEY_ALIGN: the alignment the AES-NI kernels need of the round keys inside a key (they read
 * them as 16-byte vectors); a key at a lower alignment is refused (gcm.h). */
#define GCM_KEY_ALIGN 16

/* key_usable: built by an init and not wiped, at the address it was built at, with public fields
 * this build knows. */
static bool key_usable(const gcm_key_state *s) {
  return s->magic == GCM_KEY_MAGIC && s->self == (uintptr_t)s &&
         (s->ks.rounds == 10 || s->ks.rounds == 12 || s->ks.rounds == 14) &&
         (s->ks.impl == AES_IMPL_PORTABLE ||
          (s->ks.impl == AES_IMPL_AESNI && fm_cpu_use(FM_CPU_AESNI))) &&
         (s->iv_mode == GCM_IV_RBG || s->iv_mode == GCM_IV_COUNTER) &&
         (s->gh.npow == 1 || s->gh.npow == 16);
}

/* ---- Vector registers ------------------------------------------------------------------
 * The kernels GCM runs (AES, GHASH, the stitched VAES kernels) leave round keys, H powers, key
 * stream and text in vector registers, where a signal frame or a lazy-binding trampoline can
 * write them to memory. Every service that ran a kernel ends by zeroing every vector register
 * the CPU's widest path could have used (module/aes/internal.h), once per call: key_init, the
 * one-shots and the streaming services clear after their last step; the ctx_* steps and the
 * short one-shot leave it to them (nothing between the steps of one call leaves the module). */

#if FM_HAVE_X86_64_PATHS
__attribute__((target("avx512f"), noinline)) static void gcm_clear_avx512(void) {
  aes_clear_avx512_registers();
}

__attribute__((target("avx"), noinline)) static void gcm_clear_avx(void) {
  aes_clear_avx_registers();
}

static void gcm_clear_registers(void) {
  if (fm_cpu_use(FM_CPU_AVX512)) {
    gcm_clear_avx512();
  } else if (fm_cpu_use(FM_CPU_AVX2)) {
    gcm_clear_avx();
  } else {
    aes_clear_sse_registers();
  }
}
#else
static void gcm_clear_registers(void) { aes_clear_portable_registers(); }
#endif

/* ---- Stack ------------------------------------------------------------------------------
 * The kernels also spill secrets to their frames (key stream, cipher states, GHASH sums, powers
 * of H), where C cannot name them: each step below that ran a kernel that spills ends with one
 * wipe of the stack below it (module/aes/internal.h, AES_BULK_STACK_WIPE, which says which
 * kernels spill and how that was measured). That is a step that handed the kernels
 * AES_STACK_WIPE_MIN_BLOCKS blocks or more (the stitched kernels need 16), or any step on the
 * portable AES or GHASH code; a 16-byte seal on the AES-NI paths pays no wipe. */

/* gcm_portable: |k| runs the bitsliced AES or the portable GHASH (public). */
static bool gcm_portable(const gcm_key_state *k) {
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

/* ---- Fork ----------------------------------------------------------------------------------
 * A counter key's IVs are fixed field || invocation field: a child of fork() that went on
 * counting from its copy of the parent's count would produce the IVs the parent produces next.
 * So a counter key remembers the process it was built in and refuses to generate an IV anywhere
 * else (FM_ERR_STATE: the child builds its own key, with a fixed field of its own). The process is
 * named by the RNG's fork generation (module/rand: it differs between a process and each child,
 * and reading it costs two loads), or, where the RNG has no fork detection (RAND_FORK_NONE), by
 * the process id from the getpid system call (module/syscall.h; not libc's interposable
 * wrapper). The top bit tells the two apart. RBG keys need no check: the DRBG reseeds in a child,
 * so the child's IVs are fresh. */

#define GCM_PROCESS_PID (UINT64_C(1) << 63)

static uint64_t process_id(void) {
  rand_init(); /* done at load; one load of a once-flag (the GCM self-tests may come first) */
  if (atomic_load_explicit(&rand_g_fork_mode, memory_order_relaxed) == RAND_FORK_NONE) {
    return GCM_PROCESS_PID | (uint64_t)fm_sys_getpid();
  }
  return rand_fork_generation();
}

/* same_process: |id| (from process_id) names the calling process. The steady state is the two
 * loads of the fast generation; anything else asks process_id (which claims a child's
 * generation). */
static bool same_process(uint64_t id) {
  if ((id & GCM_PROCESS_PID) == 0 && rand_fork_generation_fast() == id) return true;
  return process_id() == id;
}

static int key_init(fm_gcm_key *k, const uint8_t *key, size_t key_len, const uint8_t *fixed,
                    bool counter) {
  /* The GCM CASTs (every key size, both directions) run before the first key is set up; every
   * other GCM call needs a key from here. */
  int st = fm_service_gate_tested(FM_ST_AES128_GCM_ENC_KAT);
  if (st == FM_OK) {
    if (k == NULL || key == NULL || (counter && fixed == NULL)) {
      st = FM_ERR_BAD_ARGUMENT;
    } else if ((uintptr_t)k % GCM_KEY_ALIGN != 0) {
      st = FM_ERR_BAD_ARGUMENT; /* the kernels would fault on it (gcm.h, alignment) */
    } else if (key_len != 16 && key_len != 24 && key_len != 32) {
      st = FM_ERR_KEY_SIZE;
    } else if (fm_buffers_overlap(key, key_len, k, sizeof *k) ||
               (counter && fm_buffers_overlap(fixed, FM_GCM_FIXED_LEN, k, sizeof *k))) {
      st = FM_ERR_OVERLAP;
    }
  }
  if (k != NULL) fm_zeroize(k, sizeof *k);
  if (st != FM_OK) return fm_refuse(st, NULL, 0);
  gcm_key_state *s = key_state(k);
  uint64_t base = 0;
  /* 8.2.1: the instance's first invocation field, from the approved DRBG (see gcm_key_state). */
  if (counter && (st = fm_rand_bytes((uint8_t *)&base, sizeof base)) != FM_OK) {
    return fm_refuse(st, NULL, 0);
  }
  if (!aes_ks_init_encrypt(&s->ks, key, key_len)) return FM_ERR_INTERNAL;
  /* SP 800-38D 7.1, step 1: H = CIPH_K(0^128). */
  uint8_t h[16] = {0};
  aes_encrypt_block(&s->ks, h, h);
  ghash_key_init(&s->gh, h);
  fm_zeroize(h, sizeof h);
  atomic_init(&s->invocations, 0);
  s->iv_mode = counter ? GCM_IV_COUNTER : GCM_IV_RBG;
  if (counter) memcpy(s->fixed, fixed, FM_GCM_FIXED_LEN);
  s->iv_base = base;
  s->process = process_id();
  s->self = (uintptr_t)s;
  s->magic = GCM_KEY_MAGIC;
  gcm_stack_wipe(s, 1);
  gcm_clear_registers();
  return FM_OK;
}

int fm_gcm_key_init(fm_gcm_key *k, const uint8_t *key, size_t key_len) {
  return key_init(k, key, key_len, NULL, false);
}

int fm_gcm_key_init_counter_iv(fm_gcm_key *k, const uint8_t *key, size_t key_len,
                               const uint8_t fixed[FM_GCM_FIXED_LEN]) {
  return key_init(k, key, key_len, fixed, true);
}

int fm_gcm_key_wipe(fm_gcm_key *k) {
  /* Zeroization is always allowed, also outside OPERATIONAL. */
  if (k != NULL) fm_zeroize(k, sizeof *k);
  return fm_service_gate();
}

/* take_invocation counts one authenticated encryption (SP 800-38D 8.3) and returns its number
 * in |*n|: FM_OK, or FM_ERR_STATE once the key's limit is reached (the count then stays put). */
static int take_invocation(gcm_key_state *s, uint64_t *n) {
  const uint64_t limit = s->iv_mode == GCM_IV_RBG ? GCM_RBG_LIMIT : GCM_COUNTER_LIMIT;
  uint64_t cur = atomic_load_explicit(&s->invocations, memory_order_relaxed);
  do {
    if (cur >= limit) return FM_ERR_STATE;
  } while (!atomic_compare_exchange_weak_explicit(&s->invocations, &cur, cur + 1,
                                                  memory_order_relaxed, memory_order_relaxed));
  *n = cur;
  return FM_OK;
}

/* generate_iv builds the 96-bit IV of one approved encryption (SP 800-38D 8.2). */
static int generate_iv(gcm_key_state *s, uint8_t iv[FM_GCM_IV_LEN]) {
  uint64_t n;
  /* A counter key inherited across fork() (see "Fork"). */
  if (s->iv_mode == GCM_IV_COUNTER && !same_process(s->process)) return FM_ERR_STATE;
  int st = take_invocation(s, &n);
  if (st != FM_OK) return st;
  if (s->iv_mode == GCM_IV_COUNTER) {
    /* 8.2.1: the fixed field, then the invocation field (base + count, big-endian). */
    memcpy(iv, s->fixed, FM_GCM_FIXED_LEN);
    const uint64_t be = __builtin_bswap64(s->iv_base + n);
    memcpy(iv + FM_GCM_FIXED_LEN, &be, 8);
    return FM_OK;
  }
  /* 8.2.2: a random field of all 96 bits from the approved RBG, no free field: taken from the
   * calling thread's batch of DRBG output (module/rand, rand_take_12; the caller passed the
   * gate), which costs a copy rather than a generate request of its own. */
  static_assert(FM_GCM_IV_LEN == 12, "the IV is drawn by rand_take_12");
  return rand_take_12(iv);
}

#if defined(FIPSMOD_TEST_HOOKS)
void gcm_set_invocations_for_testing(fm_gcm_key *k, uint64_t n) {
  atomic_store(&key_state(k)->invocations, n);
}

void gcm_set_iv_base_for_testing(fm_gcm_key *k, uint64_t base) { key_state(k)->iv_base = base; }
#endif

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
  uint64_t process; /* encryption: the process that started it (process_id; see "Fork") */
} gcm_ctx_state;

#define GCM_CTX_MAGIC 0x47434d43u /* "GCMC" */

static_assert(sizeof(gcm_ctx_state) <= sizeof(fm_gcm_ctx), "fm_gcm_ctx.opaque is too small");
static_assert(_Alignof(gcm_ctx_state) <= _Alignof(fm_gcm_ctx), "fm_gcm_ctx is under-aligned");

static gcm_ctx_state *ctx_state(fm_gcm_ctx *c) { return (gcm_ctx_state *)(void *)c->opaque; }

/* Blocks per chunk of the bulk loop: CTR output and GHASH input stay in the L1 cache. */
#define GCM_CHUNK_BLOCKS 128

/* The fewest whole blocks a call hands to a stitched kernel: the 512-bit kernel takes any count
 * (its last pass runs under masks), the 256-bit one whole passes of 16. Below this the AES-NI
 * and GHASH calls are cheaper than the kernel's set-up and the stack wipe that follows it. */
#define GCM_STITCH_MIN_BLOCKS 8


/* ctx_start sets up |c| for one message under |iv| (SP 800-38D 7.1 steps 2-3, 7.2 steps 3-4). */
static void ctx_start(gcm_ctx_state *c, const gcm_key_state *k, const uint8_t *iv, size_t iv_len,
                      bool decrypt) {
  memset(c, 0, sizeof *c);
  c->key = k;
  if (iv_len == FM_GCM_IV_LEN) {
    /* J0 = IV || 0^31 || 1, and the first data counter inc32(J0). */
    j0_block(c->j0, iv, 1);
    j0_block(c->ctr, iv, 2);
  } else {
    /* J0 = GHASH_H(IV || 0^(s+64) || [len(IV)]_64). */
    uint64_t y[2] = {0, 0};
    const size_t full = iv_len / 16, rest = iv_len % 16;
    ghash_blocks(&k->gh, y, iv, full);
    uint8_t last[32] = {0};
    size_t nlast = 16;
    if (rest != 0) {
      memcpy(last, iv + 16 * full, rest);
      nlast = 32;
    }
    const uint64_t bits = __builtin_bswap64((uint64_t)iv_len * 8);
    memcpy(last + nlast - 8, &bits, 8);
    ghash_blocks(&k->gh, y, last, nlast / 16);
    /* J0 is a polynomial in H of the public IV: secret, like the state that made it. */
    y[0] = __builtin_bswap64(y[0]);
    y[1] = __builtin_bswap64(y[1]);
    memcpy(c->j0, &y[1], 8);
    memcpy(c->j0 + 8, &y[0], 8);
    fm_zeroize(y, sizeof y);
    gcm_stack_wipe(k, full + nlast / 16);
    /* The first data counter is inc32(J0). */
    memcpy(c->ctr, c->j0, 16);
    uint32_t w;
    memcpy(&w, c->ctr + 12, 4);
    w = __builtin_bswap32(__builtin_bswap32(w) + 1);
    memcpy(c->ctr + 12, &w, 4);
  }
  c->phase = PHASE_AAD;
  c->decrypt = decrypt;
  c->magic = GCM_CTX_MAGIC;
  c->self = (uintptr_t)c;
}

static void ctx_aad(gcm_ctx_state *c, const uint8_t *aad, size_t len) {
  c->aad_len += len;
  if (c->npartial != 0) {
    const size_t take = len < 16 - c->npartial ? len : 16 - c->npartial;
    memcpy(c->partial + c->npartial, aad, take);
    c->npartial += (uint32_t)take;
    aad += take;
    len -= take;
    if (c->npartial < 16) return;
    ghash_blocks(&c->key->gh, c->y, c->partial, 1);
    c->npartial = 0;
  }
  ghash_blocks(&c->key->gh, c->y, aad, len / 16);
  aad += len - len % 16;
  memcpy(c->partial, aad, len % 16);
  c->npartial = (uint32_t)(len % 16);
  gcm_stack_wipe(c->key, len / 16);
}

/* end_aad pads the AAD's last partial block with zeros (the 0^v of 7.1 step 5). */
static void end_aad(gcm_ctx_state *c) {
  if (c->phase != PHASE_AAD) return;
  if (c->npartial != 0) {
    memset(c->partial + c->npartial, 0, 16 - c->npartial);
    ghash_blocks(&c->key->gh, c->y, c->partial, 1);
  }
  c->npartial = 0;
  c->phase = PHASE_TEXT;
}

static void ctx_text(gcm_ctx_state *c, const uint8_t *in, uint8_t *out, size_t len) {
  const gcm_key_state *k = c->key;
  end_aad(c);
  c->text_len += len;
  /* First the key stream left in the current block. */
  if (c->npartial != 0) {
    while (c->npartial < 16 && len > 0) {
      const uint8_t x = *in++;
      const uint8_t y = x ^ c->stream[c->npartial];
      c->stream[c->npartial] = 0;
      c->partial[c->npartial++] = c->decrypt ? x : y;
      *out++ = y;
      len--;
    }
    if (c->npartial < 16) {
      gcm_stack_wipe(k, 1);  /* end_aad may have run GHASH */
      return;
    }
    ghash_blocks(&k->gh, c->y, c->partial, 1);
    c->npartial = 0;
  }
  /* Whole blocks: the stitched kernel where the CPU has it, then chunk by chunk. */
  size_t blocks = len / 16;
  const size_t rest = len % 16;
  /* The partial last block's key stream is already in c->stream (the 512-bit kernel made it). */
  bool stream_ready = false;
  /* A stitched kernel ran: it spills whatever the block count (the wipe below). The 512-bit one
   * returns the lowest address it reached (|low|), the only kernel of the call then. */
  bool stitched = false;
#if FM_HAVE_X86_64_PATHS
  uintptr_t low = 0;
  if (blocks >= GCM_STITCH_MIN_BLOCKS && k->ks.impl == AES_IMPL_AESNI) {
    const int aes_path = aes_ni_path(), gh_path = ghash_key_path(&k->gh);
    size_t done = 0;
    if (aes_path == AES_PATH_VAES_AVX512 && gh_path == GHASH_PATH_VPCLMUL512) {
      /* Every block, and the partial one's key stream, in the kernel's passes. */
      low = gcm_vaes512_crypt_all(&k->ks, &k->gh, c->ctr, c->y, in, out, blocks,
                                  rest != 0 ? c->stream : NULL, c->decrypt);
      done = blocks;
      stream_ready = rest != 0;
      stitched = true;
    } else if (blocks >= 16 && aes_path == AES_PATH_VAES_AVX2 &&
               gh_path == GHASH_PATH_VPCLMUL256) {
      done = gcm_vaes256_crypt(&k->ks, &k->gh, c->ctr, c->y, in, out, blocks, c->decrypt);
      stitched = true;
    }
    in += 16 * done;
    out += 16 * done;
    blocks -= done;
  }
#endif
  while (blocks > 0) {
    const size_t n = blocks < GCM_CHUNK_BLOCKS ? blocks : GCM_CHUNK_BLOCKS;
    if (c->decrypt) {
      ghash_blocks(&k->gh, c->y, in, n);
      aes_ctr32_blocks(&k->ks, c->ctr, in, out, n);
    } else {
      aes_ctr32_blocks(&k->ks, c->ctr, in, out, n);
      ghash_blocks(&k->gh, c->y, out, n);
    }
    in += 16 * n;
    out += 16 * n;
    blocks -= n;
  }
  /* A partial last block: its key stream is kept for the next call. */
  if (rest != 0) {
    if (!stream_ready) aes_ctr32_blocks(&k->ks, c->ctr, NULL, c->stream, 1);
    for (size_t i = 0; i < rest; i++) {
      const uint8_t x = in[i];
      const uint8_t y = x ^ c->stream[i];
      c->stream[i] = 0;
      c->partial[i] = c->decrypt ? x : y;
      out[i] = y;
    }
    c->npartial = (uint32_t)rest;
  }
  /* One wipe for the whole call, after the stitched kernel, the chunks and the tail; the single
   * blocks around them (the block completed first, the partial last one) spill nothing on the
   * AES-NI paths, so they do not count. After the 512-bit kernel, down to its lowest address
   * (the blocks around it went through the 512-bit GHASH and single-block AES-NI, which spill
   * nothing: short_wipe_blocks). */
#if FM_HAVE_X86_64_PATHS
  if (low != 0 && !AES_STACK_WIPE_ALWAYS) {
    if (low != UINTPTR_MAX) aes_bulk_stack_wipe_from(low);
    return;
  }
#endif
  gcm_stack_wipe(k, stitched ? AES_STACK_WIPE_MIN_BLOCKS : len / 16);
}

/* ctx_tag computes the full tag (7.1 steps 5-6): GHASH over the padded last block and the
 * lengths, then GCTR(J0, S). */
static void ctx_tag(gcm_ctx_state *c, uint8_t tag[16]) {
  const gcm_key_state *k = c->key;
  /* E(J0) first: nothing below depends on it, so its rounds overlap the GHASH. */
  aes_encrypt_block(&k->ks, c->j0, tag);
  end_aad(c);
  /* The zero-padded last block (when there is one) and the lengths block, in one GHASH call
   * (one reduction). */
  uint8_t last[32];
  size_t nlast = 0;
  if (c->npartial != 0) {
    memset(c->partial + c->npartial, 0, 16 - c->npartial);
    memcpy(last, c->partial, 16);
    nlast = 16;
  }
  const uint64_t abits = __builtin_bswap64(c->aad_len * 8), cbits = __builtin_bswap64(c->text_len * 8);
  memcpy(last + nlast, &abits, 8);
  memcpy(last + nlast + 8, &cbits, 8);
  ghash_blocks(&k->gh, c->y, last, nlast / 16 + 1);
  fm_zeroize(last, nlast + 16);
  /* S as a big-endian block, in one array that is wiped (no other local holds it, also at -O0:
   * test_gcm_residue). */
  uint64_t s[2] = {__builtin_bswap64(c->y[1]), __builtin_bswap64(c->y[0])};
  const uint8_t *sb = (const uint8_t *)s;
  for (int i = 0; i < 16; i++) tag[i] ^= sb[i];
  fm_zeroize(s, sizeof s);
  gcm_stack_wipe(k, 3);
}

/* ---- Service checks ------------------------------------------------------------------------
 * Every service below runs the module's one order (module/internal.h, "Refusing a call"): the
 * gate (fm_service_gate), then its own check_* (arguments, key or context state, overlaps: pure,
 * nothing written), then the work; a refusal goes through gcm_refuse, which wipes what the call
 * could legitimately have written. */

/* mark_short_tag marks the call not approved for a tag outside the approved set (64 or 32 bits:
 * module/approval.c). */
static void mark_short_tag(size_t tag_len) {
  if (!fm_approval_gcm(tag_len)) fm_indicator_not_approved();
}

/* tag_len_ok: 128..96 bits approved, 64 and 32 bits accepted (non-approved). */
static bool tag_len_ok(size_t t) {
  return (t >= 12 && t <= 16) || t == 8 || t == 4;
}

static bool text_len_ok(size_t len) { return (uint64_t)len <= FM_GCM_MAX_TEXT_LEN; }

static bool iv_len_ok(size_t iv_len) { return iv_len != 0 && (uint64_t)iv_len <= GCM_MAX_IV_LEN; }

/* gcm_refuse wipes the context |c| (when not NULL), |out1_len| bytes at |out1| and |out2_len|
 * bytes at |out2| (the lengths the caller has checked, or 0), marks the call not approved and
 * returns |st|. */
static int gcm_refuse(int st, fm_gcm_ctx *c, void *out1, size_t out1_len, void *out2,
                      size_t out2_len) {
  if (c != NULL) fm_zeroize(c, sizeof *c);
  return fm_refuse2(st, out1, out1_len, out2, out2_len);
}

/* text_wipe_len / tag_wipe_len: what a refused call may wipe of a text or tag output whose
 * claimed length may itself be what is wrong. */
static size_t text_wipe_len(const void *out, size_t len) {
  return out != NULL && text_len_ok(len) ? len : 0;
}
static size_t tag_wipe_len(const void *tag, size_t tag_len) {
  return tag != NULL && tag_len_ok(tag_len) ? tag_len : 0;
}

/* check_data: the checks shared by seal and open on the data, AAD and tag buffers. |out| is
 * written, |tag| is written by seal (|tag_written|) and read by open. */
static int check_data(const uint8_t *aad, size_t aad_len, const uint8_t *in, const uint8_t *out,
                      size_t len, const uint8_t *tag, size_t tag_len, bool tag_written) {
  if (tag == NULL) return FM_ERR_BAD_ARGUMENT;
  if ((aad == NULL && aad_len != 0) || (len != 0 && (in == NULL || out == NULL))) {
    return FM_ERR_BAD_ARGUMENT;
  }
  if (!tag_len_ok(tag_len) || !text_len_ok(len) || (uint64_t)aad_len > GCM_MAX_AAD_LEN) {
    return FM_ERR_LENGTH;
  }
  if (len != 0 && fm_buffers_bad_overlap(in, out, len)) return FM_ERR_OVERLAP;
  /* The tag must not change the output while it is written (seal) or change under the output
   * before it is compared (open). */
  if (len != 0 && fm_buffers_overlap(tag, tag_len, out, len)) return FM_ERR_OVERLAP;
  if (tag_written && aad_len != 0 && fm_buffers_overlap(tag, tag_len, aad, aad_len)) {
    return FM_ERR_OVERLAP;
  }
  return FM_OK;
}

/* check_one_shot: the checks of seal, seal_with_iv and open, in that order: key and IV present,
 * the IV's length (for a caller's IV; |own_iv|: the module's own 96-bit IV, written), the data
 * buffers, the key's state, and the IV against the buffers written. */
static int check_one_shot(const fm_gcm_key *k, const uint8_t *iv, size_t iv_len, bool own_iv,
                          const uint8_t *aad, size_t aad_len, const uint8_t *in,
                          const uint8_t *out, size_t len, const uint8_t *tag, size_t tag_len,
                          bool decrypt) {
  if (k == NULL || iv == NULL) return FM_ERR_BAD_ARGUMENT;
  if (!own_iv && !iv_len_ok(iv_len)) return FM_ERR_LENGTH;
  int st = check_data(aad, aad_len, in, out, len, tag, tag_len, !decrypt);
  if (st != FM_OK) return st;
  if (!key_usable(key_state_c(k))) return FM_ERR_STATE;
  if (own_iv) {
    /* The module writes the IV: it must not overlap anything else the call reads or writes. */
    if ((len != 0 && (fm_buffers_overlap(iv, FM_GCM_IV_LEN, out, len) ||
                      fm_buffers_overlap(iv, FM_GCM_IV_LEN, in, len))) ||
        (aad_len != 0 && fm_buffers_overlap(iv, FM_GCM_IV_LEN, aad, aad_len)) ||
        fm_buffers_overlap(iv, FM_GCM_IV_LEN, tag, tag_len)) {
      return FM_ERR_OVERLAP;
    }
  } else if (len != 0 && fm_buffers_overlap(iv, iv_len, out, len)) {
    return FM_ERR_OVERLAP;
  }
  return FM_OK;
}

/* ---- One-shot ----------------------------------------------------------------------------- */

#if FM_HAVE_X86_64_PATHS
/* gcm_stitch512: |k|'s blocks go through the 512-bit stitched kernel (ctx_text). A one-shot that
 * gcm_short_one_shot takes goes there even on such a CPU: since that path makes its key stream in
 * one 512-bit pass and hashes 8 blocks or more four to a register, it is the faster one up to its
 * 240 bytes (Zen 5, 13-byte AAD, both builds in one process, interleaved: 9-20% less time at 224
 * and 240 bytes than the stitched kernel, which a Sapphire Rapids core had found faster from 208
 * bytes against the earlier short path). */
static bool gcm_stitch512(const gcm_key_state *k) {
  return k->ks.impl == AES_IMPL_AESNI && aes_ni_path() == AES_PATH_VAES_AVX512 &&
         ghash_key_path(&k->gh) == GHASH_PATH_VPCLMUL512;
}
#endif

/* short_wipe_blocks: the blocks gcm_short_one_shot ran, as gcm_stack_wipe counts them, so that
 * its caller wipes the stack where the kernels may have left secrets below its frame. None
 * counted on the 512-bit paths: their kernels keep the key stream, cipher states and GHASH sums
 * in the 32 zmm registers (aes_ni_vaes512_ctr32_stream; ghash_vpclmul512_blocks, whose zeroized
 * power array is the only memory it writes, and which stores its state before it calls the
 * wipe; the AES-NI blocks below GCM_SHORT_VAES_MIN and the GHASH tails below
 * AES_STACK_WIPE_MIN_BLOCKS spill nothing anywhere), and gcm_short_one_shot's own secrets are in
 * its zeroized array. test_gcm_residue checks every short length class on every path, up to
 * GCM_SHORT_MAX bytes of both AAD and text. There the 3 KiB wipe took a fifth of a 128-240 byte
 * seal's time (Zen 5). Instrumented builds and the portable paths wipe whatever the count. */
static size_t short_wipe_blocks(const gcm_key_state *k, size_t aad_len, size_t len) {
  const size_t n = (aad_len + 15) / 16 + (len + 15) / 16 + 1;
#if FM_HAVE_X86_64_PATHS
  if (n >= AES_STACK_WIPE_MIN_BLOCKS && gcm_stitch512(k)) return 0;
#endif
  (void)k;
  return n;
}

/* ctx_text_sliced is ctx_text in slices of FM_SERVICE_SLICE bytes, checking between slices and
 * after the last that the call may go on (module/internal.h, "Services that overlap a self-test
 * run"). Returns false when it may not: the caller wipes every output. */
static bool ctx_text_sliced(gcm_ctx_state *c, const uint8_t *in, uint8_t *out, size_t len,
                            uint64_t epoch) {
  while (len > 0) {
    const size_t n = len < FM_SERVICE_SLICE ? len : FM_SERVICE_SLICE;
    ctx_text(c, in, out, n);
    in += n;
    out += n;
    len -= n;
    if (!fm_service_may_continue(epoch)) return false;
  }
  return fm_service_may_continue(epoch);
}

/* one_shot runs a whole message through a context on the stack and leaves the full tag in
 * |full|; it returns false when a self-test run overlapped the call (nothing may be released).
 * The vector registers are cleared once, at the end (ctx_* leave them to their callers). */
static bool one_shot(const gcm_key_state *s, const uint8_t *iv, size_t iv_len, const uint8_t *aad,
                     size_t aad_len, const uint8_t *in, uint8_t *out, size_t len, bool decrypt,
                     uint8_t full[16], uint64_t epoch) {
  if (iv_len == FM_GCM_IV_LEN && aad_len <= GCM_SHORT_MAX && len <= GCM_SHORT_MAX) {
    gcm_short_one_shot(&s->ks, &s->gh, iv, aad, aad_len, in, out, len, decrypt, full);
    gcm_stack_wipe(s, short_wipe_blocks(s, aad_len, len));
    gcm_clear_registers();
    return fm_service_may_continue(epoch);
  }
#if FM_HAVE_X86_64_PATHS
  if (iv_len == FM_GCM_IV_LEN && len <= FM_SERVICE_SLICE && gcm_stitch512(s)) {
    const uintptr_t low =
        gcm_stitched_one_shot(&s->ks, &s->gh, iv, aad, aad_len, in, out, len, decrypt, full);
    /* Only the stitched kernel spilled (its AAD and length blocks went through the 512-bit GHASH
     * and the single-block AES, which spill nothing: short_wipe_blocks); wiped down to the
     * lowest address it reached. */
    if (AES_STACK_WIPE_ALWAYS) {
      aes_bulk_stack_wipe();
    } else if (low != UINTPTR_MAX) {
      aes_bulk_stack_wipe_from(low);
    }
    gcm_clear_registers();
    return fm_service_may_continue(epoch);
  }
#endif
  gcm_ctx_state c;
  ctx_start(&c, s, iv, iv_len, decrypt);
  if (aad_len != 0) ctx_aad(&c, aad, aad_len);
  const bool ok = ctx_text_sliced(&c, in, out, len, epoch);
  if (ok) ctx_tag(&c, full);
  fm_zeroize(&c, sizeof c);
  gcm_clear_registers();
  return ok;
}

/* seal_run: one_shot for encryption, the first |tag_len| bytes of the tag to |tag|. */
static bool seal_run(const gcm_key_state *s, const uint8_t *iv, size_t iv_len, const uint8_t *aad,
                     size_t aad_len, const uint8_t *pt, size_t len, uint8_t *ct, uint8_t *tag,
                     size_t tag_len, uint64_t epoch) {
  uint8_t full[16];
  const bool ok = one_shot(s, iv, iv_len, aad, aad_len, pt, ct, len, false, full, epoch);
  if (ok) memcpy(tag, full, tag_len);
  fm_zeroize(full, sizeof full);
  return ok;
}

int fm_gcm_seal(fm_gcm_key *k, uint8_t iv[FM_GCM_IV_LEN], const uint8_t *aad, size_t aad_len,
                const uint8_t *pt, size_t len, uint8_t *ct, uint8_t *tag, size_t tag_len) {
  int st = fm_service_gate();
  if (st == FM_OK) st = check_one_shot(k, iv, FM_GCM_IV_LEN, true, aad, aad_len, pt, ct, len, tag, tag_len, false);
  const uint64_t epoch = fm_service_epoch();
  if (st == FM_OK) st = generate_iv(key_state(k), iv);
  if (st == FM_OK &&
      !seal_run(key_state(k), iv, FM_GCM_IV_LEN, aad, aad_len, pt, len, ct, tag, tag_len, epoch)) {
    st = FM_ERR_NOT_OPERATIONAL; /* a self-test run began during the call */
  }
  if (st != FM_OK) {
    fm_refuse(FM_OK, iv, iv != NULL ? FM_GCM_IV_LEN : 0);
    return gcm_refuse(st, NULL, ct, text_wipe_len(ct, len), tag, tag_wipe_len(tag, tag_len));
  }
  mark_short_tag(tag_len);
  return FM_OK;
}

int fm_gcm_seal_with_iv(fm_gcm_key *k, const uint8_t *iv, size_t iv_len, const uint8_t *aad,
                        size_t aad_len, const uint8_t *pt, size_t len, uint8_t *ct, uint8_t *tag,
                        size_t tag_len) {
  int st = fm_service_gate();
  if (st == FM_OK) {
    st = check_one_shot(k, iv, iv_len, false, aad, aad_len, pt, ct, len, tag, tag_len, false);
  }
  uint64_t n;
  const uint64_t epoch = fm_service_epoch();
  if (st == FM_OK) st = take_invocation(key_state(k), &n);
  if (st == FM_OK &&
      !seal_run(key_state(k), iv, iv_len, aad, aad_len, pt, len, ct, tag, tag_len, epoch)) {
    st = FM_ERR_NOT_OPERATIONAL; /* a self-test run began during the call */
  }
  if (st != FM_OK) {
    return gcm_refuse(st, NULL, ct, text_wipe_len(ct, len), tag, tag_wipe_len(tag, tag_len));
  }
  fm_indicator_not_approved(); /* a caller-chosen IV for encryption */
  return FM_OK;
}

/* tag_eq is 1 when the first |tag_len| (public) bytes of |full| and |tag| are equal, else 0, in
 * constant time: the differences of 8-byte, 4-byte and single-byte pieces ORed together, no
 * branch or index on the contents (fm_ct_memeq's contract, a word at a time). */
static int tag_eq(const uint8_t full[16], const uint8_t *tag, size_t tag_len) {
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

int fm_gcm_open(const fm_gcm_key *k, const uint8_t *iv, size_t iv_len, const uint8_t *aad,
                size_t aad_len, const uint8_t *ct, size_t len, const uint8_t *tag, size_t tag_len,
                uint8_t *pt) {
  int st = fm_service_gate();
  if (st == FM_OK) {
    st = check_one_shot(k, iv, iv_len, false, aad, aad_len, ct, pt, len, tag, tag_len, true);
  }
  if (st != FM_OK) return gcm_refuse(st, NULL, pt, text_wipe_len(pt, len), NULL, 0);

  uint8_t full[16];
  const uint64_t epoch = fm_service_epoch();
  if (!one_shot(key_state_c(k), iv, iv_len, aad, aad_len, ct, pt, len, true, full, epoch)) {
    fm_zeroize(full, sizeof full);
    /* a self-test run began during the call */
    return gcm_refuse(FM_ERR_NOT_OPERATIONAL, NULL, pt, len, NULL, 0);
  }
  /* SP 800-38D 7.2 step 8: the plaintext only when T = T'; the comparison is constant time and
   * a mismatch takes back everything written. */
  /* The outcome of the comparison is public (it is the call's status). */
  const uint64_t ok = fm_declassify_u64((uint64_t)tag_eq(full, tag, tag_len));
  fm_zeroize(full, sizeof full);
  if (!ok) return gcm_refuse(FM_ERR_VERIFY, NULL, pt, len, NULL, 0);
  mark_short_tag(tag_len);
  return FM_OK;
}

/* ---- Streaming API ------------------------------------------------------------------------ */

/* check_ctx_init: the checks of the three inits. */
static int check_ctx_init(const fm_gcm_ctx *c, const fm_gcm_key *k, const uint8_t *iv,
                          size_t iv_len) {
  if (c == NULL || k == NULL || iv == NULL) return FM_ERR_BAD_ARGUMENT;
  if (!iv_len_ok(iv_len)) return FM_ERR_LENGTH;
  if (!key_usable(key_state_c(k))) return FM_ERR_STATE;
  if (fm_buffers_overlap(c, sizeof *c, k, sizeof *k) || fm_buffers_overlap(iv, iv_len, c, sizeof *c)) {
    return FM_ERR_OVERLAP;
  }
  return FM_OK;
}

/* ctx_begin starts |c| for one message under |iv| after a passed check. */
static void ctx_begin(fm_gcm_ctx *c, const gcm_key_state *k, const uint8_t *iv, size_t iv_len,
                      bool decrypt) {
  ctx_start(ctx_state(c), k, iv, iv_len, decrypt);
  gcm_clear_registers();
  if (!decrypt) ctx_state(c)->process = process_id();
}

int fm_gcm_encrypt_init(fm_gcm_ctx *c, fm_gcm_key *k, uint8_t iv[FM_GCM_IV_LEN]) {
  int st = fm_service_gate();
  if (st == FM_OK) st = check_ctx_init(c, k, iv, FM_GCM_IV_LEN);
  if (st == FM_OK) st = generate_iv(key_state(k), iv);
  if (st != FM_OK) return gcm_refuse(st, c, iv, iv != NULL ? FM_GCM_IV_LEN : 0, NULL, 0);
  ctx_begin(c, key_state(k), iv, FM_GCM_IV_LEN, false);
  return FM_OK;
}

int fm_gcm_encrypt_init_with_iv(fm_gcm_ctx *c, fm_gcm_key *k, const uint8_t *iv, size_t iv_len) {
  int st = fm_service_gate();
  if (st == FM_OK) st = check_ctx_init(c, k, iv, iv_len);
  uint64_t n;
  if (st == FM_OK) st = take_invocation(key_state(k), &n);
  if (st != FM_OK) return gcm_refuse(st, c, NULL, 0, NULL, 0);
  ctx_begin(c, key_state(k), iv, iv_len, false);
  ctx_state(c)->caller_iv = 1; /* its final is not approved either */
  fm_indicator_not_approved(); /* a caller-chosen IV for encryption */
  return FM_OK;
}

int fm_gcm_decrypt_init(fm_gcm_ctx *c, const fm_gcm_key *k, const uint8_t *iv, size_t iv_len) {
  int st = fm_service_gate();
  if (st == FM_OK) st = check_ctx_init(c, k, iv, iv_len);
  if (st != FM_OK) return gcm_refuse(st, c, NULL, 0, NULL, 0);
  ctx_begin(c, key_state_c(k), iv, iv_len, true);
  return FM_OK;
}

/* ctx_usable: initialized, not finished, at the address it was started at, its key still
 * usable, and (encryption) in the process that started it: a child of fork() that went on with
 * its copy would encrypt other data under the parent's IV. */
static bool ctx_usable(const gcm_ctx_state *s) {
  return s->magic == GCM_CTX_MAGIC && s->self == (uintptr_t)s &&
         (s->phase == PHASE_AAD || s->phase == PHASE_TEXT) && s->key != NULL &&
         key_usable(s->key) && s->npartial < 16 && (s->decrypt || same_process(s->process));
}

static int check_aad(fm_gcm_ctx *c, const uint8_t *aad, size_t len) {
  if (c == NULL || (aad == NULL && len != 0)) return FM_ERR_BAD_ARGUMENT;
  if (!ctx_usable(ctx_state(c)) || ctx_state(c)->phase != PHASE_AAD) return FM_ERR_STATE;
  if ((uint64_t)len > GCM_MAX_AAD_LEN - ctx_state(c)->aad_len) return FM_ERR_LENGTH;
  return FM_OK;
}

int fm_gcm_aad(fm_gcm_ctx *c, const uint8_t *aad, size_t len) {
  int st = fm_service_gate();
  if (st == FM_OK) st = check_aad(c, aad, len);
  if (st != FM_OK) return gcm_refuse(st, c, NULL, 0, NULL, 0);
  if (len != 0) {
    ctx_aad(ctx_state(c), aad, len);
    gcm_clear_registers();
  }
  return FM_OK;
}

static int check_update(fm_gcm_ctx *c, const uint8_t *in, const uint8_t *out, size_t len) {
  if (c == NULL || (len != 0 && (in == NULL || out == NULL))) return FM_ERR_BAD_ARGUMENT;
  if (!ctx_usable(ctx_state(c))) return FM_ERR_STATE;
  if (!text_len_ok(len) || (uint64_t)len > FM_GCM_MAX_TEXT_LEN - ctx_state(c)->text_len) {
    return FM_ERR_LENGTH;
  }
  if (len != 0 && (fm_buffers_bad_overlap(in, out, len) ||
                   fm_buffers_overlap(out, len, c, sizeof *c))) {
    return FM_ERR_OVERLAP;
  }
  return FM_OK;
}

int fm_gcm_update(fm_gcm_ctx *c, const uint8_t *in, uint8_t *out, size_t len) {
  int st = fm_service_gate();
  if (st == FM_OK) st = check_update(c, in, out, len);
  if (st != FM_OK) {
    /* An output that overlaps the context is not wiped twice over it: the context stays. */
    const bool out_on_ctx = c != NULL && len != 0 && out != NULL &&
                            fm_buffers_overlap(out, len, c, sizeof *c);
    return gcm_refuse(st, out_on_ctx ? NULL : c, out, text_len_ok(len) ? len : 0, NULL, 0);
  }
  const bool ok = ctx_text_sliced(ctx_state(c), in, out, len, fm_service_epoch());
  gcm_clear_registers();
  /* a self-test run began during the call */
  if (!ok) return gcm_refuse(FM_ERR_NOT_OPERATIONAL, c, out, len, NULL, 0);
  return FM_OK;
}

/* check_final: the checks of both finals; |decrypt| is the direction the call finishes. */
static int check_final(const fm_gcm_ctx *c, const uint8_t *tag, size_t tag_len, bool decrypt) {
  if (c == NULL || tag == NULL) return FM_ERR_BAD_ARGUMENT;
  const gcm_ctx_state *s = (const gcm_ctx_state *)(const void *)c->opaque;
  if (!ctx_usable(s) || (bool)s->decrypt != decrypt) return FM_ERR_STATE;
  if (!tag_len_ok(tag_len)) return FM_ERR_LENGTH;
  if (!decrypt && fm_buffers_overlap(tag, tag_len, c, sizeof *c)) return FM_ERR_OVERLAP;
  return FM_OK;
}

/* ctx_finish computes the full tag of |c| into |full| and clears the registers. */
static void ctx_finish(fm_gcm_ctx *c, uint8_t full[16]) {
  ctx_tag(ctx_state(c), full);
  gcm_clear_registers();
}

int fm_gcm_encrypt_final(fm_gcm_ctx *c, uint8_t *tag, size_t tag_len) {
  int st = fm_service_gate();
  if (st == FM_OK) st = check_final(c, tag, tag_len, false);
  if (st != FM_OK) {
    /* A tag over the context: the context is not wiped under it. */
    return gcm_refuse(st, st == FM_ERR_OVERLAP ? NULL : c, tag, tag_wipe_len(tag, tag_len), NULL,
                      0);
  }
  uint8_t full[16];
  ctx_finish(c, full);
  memcpy(tag, full, tag_len);
  fm_zeroize(full, sizeof full);
  mark_short_tag(tag_len);
  if (ctx_state(c)->caller_iv) fm_indicator_not_approved();
  fm_zeroize(c, sizeof *c);
  return FM_OK;
}

int fm_gcm_decrypt_final(fm_gcm_ctx *c, const uint8_t *tag, size_t tag_len) {
  int st = fm_service_gate();
  if (st == FM_OK) st = check_final(c, tag, tag_len, true);
  if (st != FM_OK) return gcm_refuse(st, c, NULL, 0, NULL, 0);
  uint8_t full[16];
  ctx_finish(c, full);
  const bool ok = fm_declassify_u64((uint64_t)tag_eq(full, tag, tag_len)) != 0;
  fm_zeroize(full, sizeof full);
  mark_short_tag(tag_len);
  fm_zeroize(c, sizeof *c);
  return ok ? FM_OK : gcm_refuse(FM_ERR_VERIFY, NULL, NULL, 0, NULL, 0); /* a wrong tag: not approved */
}

int fm_gcm_ctx_wipe(fm_gcm_ctx *c) {
  if (c != NULL) fm_zeroize(c, sizeof *c);
  return fm_service_gate();
}
