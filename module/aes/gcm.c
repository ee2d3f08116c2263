/* AES-GCM (SP 800-38D): the keys with their IV generation and invocation limits, and the
 * one-shot services of gcm.h (seal, seal_with_iv, open). The streaming context and its services
 * are in gcm_ctx.c; what the two files share is in gcm_state.h.
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
#include <string.h>

#include "fipsmod/rand.h"
#include "module/aes/gcm_state.h"
#include "module/rand/internal.h"
#include "module/syscall.h"

/* ---- Key ---------------------------------------------------------------------------------- */

/* GCM_KEY_ALIGN: the alignment the AES-NI kernels need of the round keys inside a key (they read
 * them as 16-byte vectors); a key at a lower alignment is refused (gcm.h). */
#define GCM_KEY_ALIGN 16

/* ---- Vector registers ------------------------------------------------------------------
 * The kernels GCM runs (AES, GHASH, the stitched VAES kernels) leave round keys, H powers, key
 * stream and text in vector registers, where a signal frame or a lazy-binding trampoline can
 * write them to memory. Every service that ran a kernel ends by zeroing every vector register
 * the CPU's widest path could have used (module/aes/internal.h), once per call: key_init, the
 * one-shots and the streaming services clear after their last step; the ctx_* steps and the
 * short one-shot leave it to them (nothing between the steps of one call leaves the module). */

#if FM_HAVE_X86_64_PATHS
__attribute__((target("avx512f"), noinline)) static void gcm_clear_avx512(void) {
  fm_clear_avx512_registers();
}

__attribute__((target("avx"), noinline)) static void gcm_clear_avx(void) {
  fm_clear_avx_registers();
}

void gcm_clear_registers(void) {
  if (fm_cpu_use(FM_CPU_AVX512)) {
    gcm_clear_avx512();
  } else if (fm_cpu_use(FM_CPU_AVX2)) {
    gcm_clear_avx();
  } else {
    fm_clear_sse_registers();
  }
}
#else
void gcm_clear_registers(void) { aes_clear_portable_registers(); }
#endif

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

uint64_t gcm_process_id(void) {
  rand_init(); /* done at load; one load of a once-flag (the GCM self-tests may come first) */
  if (atomic_load_explicit(&rand_g_fork_mode, memory_order_relaxed) == RAND_FORK_NONE) {
    return GCM_PROCESS_PID | (uint64_t)fm_sys_getpid();
  }
  return rand_fork_generation();
}

/* gcm_same_process: |id| (from gcm_process_id) names the calling process. The steady state is
 * the two loads of the fast generation; anything else asks gcm_process_id (which claims a
 * child's generation). */
bool gcm_same_process(uint64_t id) {
  if ((id & GCM_PROCESS_PID) == 0 && rand_fork_generation_fast() == id) return true;
  return gcm_process_id() == id;
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
  s->process = gcm_process_id();
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

/* gcm_take_invocation counts one authenticated encryption (SP 800-38D 8.3) and returns its number
 * in |*n|: FM_OK, or FM_ERR_STATE once the key's limit is reached (the count then stays put). */
int gcm_take_invocation(gcm_key_state *s, uint64_t *n) {
  const uint64_t limit = s->iv_mode == GCM_IV_RBG ? GCM_RBG_LIMIT : GCM_COUNTER_LIMIT;
  uint64_t cur = atomic_load_explicit(&s->invocations, memory_order_relaxed);
  do {
    if (cur >= limit) return FM_ERR_STATE;
  } while (!atomic_compare_exchange_weak_explicit(&s->invocations, &cur, cur + 1,
                                                  memory_order_relaxed, memory_order_relaxed));
  *n = cur;
  return FM_OK;
}

/* gcm_generate_iv builds the 96-bit IV of one approved encryption (SP 800-38D 8.2). */
int gcm_generate_iv(gcm_key_state *s, uint8_t iv[FM_GCM_IV_LEN]) {
  uint64_t n;
  /* A counter key inherited across fork() (see "Fork"). */
  if (s->iv_mode == GCM_IV_COUNTER && !gcm_same_process(s->process)) return FM_ERR_STATE;
  int st = gcm_take_invocation(s, &n);
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
/* gcm_stitch512: |k|'s blocks go through the 512-bit stitched kernel (gcm_ctx.c's ctx_text). A
 * one-shot that gcm_short_one_shot takes goes there even on such a CPU: since that path makes its
 * key stream in one 512-bit pass and hashes 8 blocks or more four to a register, it is the faster
 * one up to its 240 bytes (Zen 5, 13-byte AAD, both builds in one process, interleaved: 9-20% less time at 224
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
  gcm_ctx_start(&c, s, iv, iv_len, decrypt);
  if (aad_len != 0) gcm_ctx_aad(&c, aad, aad_len);
  const bool ok = gcm_ctx_text_sliced(&c, in, out, len, epoch);
  if (ok) gcm_ctx_tag(&c, full);
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
  if (st == FM_OK) {
    st = check_one_shot(k, iv, FM_GCM_IV_LEN, true, aad, aad_len, pt, ct, len, tag, tag_len, false);
  }
  const uint64_t epoch = fm_service_epoch();
  if (st == FM_OK) st = gcm_generate_iv(key_state(k), iv);
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
  if (st == FM_OK) st = gcm_take_invocation(key_state(k), &n);
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
