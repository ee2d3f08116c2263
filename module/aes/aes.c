/* AES: the path dispatch for the module's internal users, and the public API of aes.h (argument
 * checks, the service gate, wiping on error).
 *
 * A schedule records which implementation built it (aes_ks.impl); every later call follows that
 * record, so a schedule is always used by the code that understands its layout. The bulk width
 * of an AES-NI schedule (SSE, VAES-256, VAES-512) is chosen per call from the CPU features,
 * which are fixed after load. */
#include <stdbool.h>
#include <string.h>

#include "fipsmod/aes.h"
#include "module/aes/internal.h"
#include "module/internal.h"

/* ---- Internal dispatch ------------------------------------------------------------------- */

#if defined(FIPSMOD_TEST_HOOKS)
/* A cap on the bulk path so that tests reach every width (0: none). Test builds only; written
 * by test code between AES calls. */
static int g_path_cap = 0;

void aes_limit_path_for_testing(int max_path) { g_path_cap = max_path; }
#endif

/* USES_AESNI: |ks| is an AES-NI schedule. Constant false where the x86-64 paths are not built
 * (FM_HAVE_X86_64_PATHS), so that no AES-NI kernel is referenced there. */
#define USES_AESNI(ks) (FM_HAVE_X86_64_PATHS && (ks)->impl == AES_IMPL_AESNI)

int aes_ni_path(void) {
  int path = fm_cpu_use(FM_CPU_VAES | FM_CPU_AVX512) ? AES_PATH_VAES_AVX512
             : fm_cpu_use(FM_CPU_VAES)               ? AES_PATH_VAES_AVX2
                                                     : AES_PATH_AESNI;
#if defined(FIPSMOD_TEST_HOOKS)
  if (g_path_cap != 0 && path > g_path_cap) path = g_path_cap;
#endif
  return path;
}

/* stack_wipe_after ends a call whose kernels spilled secrets to their frames (|spilled|, or
 * always on the bitsliced path, which keeps its state words in C locals the compiler spills):
 * one wipe of the stack below the caller's frame (internal.h, AES_BULK_STACK_WIPE). Inlined, so
 * that the wipe lies below the calling function itself. The internal entry points the rest of
 * the module uses (the CTR_DRBG) wipe after themselves; the public services wipe once, after
 * the unwiped forms of those. Which kernels spill was measured with objdump and
 * test_aes_stack (internal.h, aes_ni_bulk_spills and AES_STACK_WIPE_MIN_BLOCKS). */
static inline __attribute__((always_inline)) void stack_wipe_after(const aes_ks *ks,
                                                                  bool spilled) {
  if (AES_STACK_WIPE_ALWAYS || spilled || ks->impl == AES_IMPL_PORTABLE) aes_bulk_stack_wipe();
}

/* wide_spills: ECB or CTR on |nblocks| blocks takes a loop that spills (AES-NI schedules only
 * reach one). */
static bool wide_spills(const aes_ks *ks, size_t nblocks) {
  return USES_AESNI(ks) && aes_ni_bulk_spills(nblocks);
}

int aes_ks_init_encrypt(aes_ks *ks, const uint8_t *key, size_t key_len) {
  if (key_len != 16 && key_len != 24 && key_len != 32) {
    fm_zeroize(ks, sizeof *ks);
    return 0;
  }
  if (fm_cpu_use(FM_CPU_AESNI)) {
    aes_ni_init(ks, key, key_len);
  } else {
    aes_portable_init(ks, key, key_len);
  }
  /* The bitsliced expansion's words (the CTR_DRBG builds a schedule per generate). */
  stack_wipe_after(ks, false);
  return 1;
}

void aes_ks_add_decrypt(aes_ks *ks) {
  if (USES_AESNI(ks)) aes_ni_add_decrypt(ks);
}

void aes_ks_wipe(aes_ks *ks) { fm_zeroize(ks, sizeof *ks); }

void aes_encrypt_block(const aes_ks *ks, const uint8_t in[16], uint8_t out[16]) {
  if (USES_AESNI(ks)) {
    aes_ni_encrypt_block(ks, in, out);
  } else {
    aes_portable_ecb_encrypt(ks, in, out, 1);
  }
  stack_wipe_after(ks, false); /* the bitsliced state (AES-NI: no frame) */
}

void aes_ecb_encrypt_blocks(const aes_ks *ks, const uint8_t *in, uint8_t *out, size_t nblocks) {
  if (USES_AESNI(ks)) {
    aes_ni_ecb_encrypt(ks, in, out, nblocks);
  } else {
    aes_portable_ecb_encrypt(ks, in, out, nblocks);
  }
}

void aes_ecb_decrypt_blocks(const aes_ks *ks, const uint8_t *in, uint8_t *out, size_t nblocks) {
  if (USES_AESNI(ks)) {
    aes_ni_ecb_decrypt(ks, in, out, nblocks);
  } else {
    aes_portable_ecb_decrypt(ks, in, out, nblocks);
  }
}

void aes_cbc_encrypt_blocks(const aes_ks *ks, uint8_t iv[16], const uint8_t *in, uint8_t *out,
                            size_t nblocks) {
  if (USES_AESNI(ks)) {
    aes_ni_cbc_encrypt(ks, iv, in, out, nblocks);
  } else {
    aes_portable_cbc_encrypt(ks, iv, in, out, nblocks);
  }
}

void aes_cbc_decrypt_blocks(const aes_ks *ks, uint8_t iv[16], const uint8_t *in, uint8_t *out,
                            size_t nblocks) {
  if (USES_AESNI(ks)) {
    aes_ni_cbc_decrypt(ks, iv, in, out, nblocks);
  } else {
    aes_portable_cbc_decrypt(ks, iv, in, out, nblocks);
  }
}

/* ctr128_blocks is aes_ctr128_blocks without its stack wipe (for the public API, which wipes
 * once at its own level). */
static void ctr128_blocks(const aes_ks *ks, uint8_t ctr[16], const uint8_t *in, uint8_t *out,
                          size_t nblocks) {
  if (USES_AESNI(ks)) {
    aes_ni_ctr(ks, 128, ctr, in, out, nblocks);
  } else {
    aes_portable_ctr(ks, 128, ctr, in, out, nblocks);
  }
}

void aes_ctr128_blocks(const aes_ks *ks, uint8_t ctr[16], const uint8_t *in, uint8_t *out,
                       size_t nblocks) {
  ctr128_blocks(ks, ctr, in, out, nblocks);
  /* The CTR_DRBG's draws come here directly: the 256-bit VAES loop leaves counter blocks (V + i,
   * secret) and key stream in its frame (internal.h, aes_ni_bulk_spills), the bitsliced code
   * its state words, so the stack below is wiped after them, once per call. */
  stack_wipe_after(ks, wide_spills(ks, nblocks));
}

void aes_ctr32_blocks(const aes_ks *ks, uint8_t ctr[16], const uint8_t *in, uint8_t *out,
                      size_t nblocks) {
  if (USES_AESNI(ks)) {
    aes_ni_ctr(ks, 32, ctr, in, out, nblocks);
  } else {
    aes_portable_ctr(ks, 32, ctr, in, out, nblocks);
  }
}

/* ---- The public API ---------------------------------------------------------------------- */

/* What fm_aes_key holds. The magic word says "initialized by fm_aes_key_init and not wiped";
 * a zeroed or never-initialized schedule fails the check (FM_ERR_STATE). */
typedef struct aes_key_state {
  aes_ks ks;
  uint64_t magic;
} aes_key_state;

#define AES_KEY_MAGIC 0x4145534b45595631ull /* "AESKEYV1" */

static_assert(sizeof(aes_key_state) <= sizeof(fm_aes_key), "fm_aes_key.opaque is too small");
static_assert(_Alignof(aes_key_state) <= _Alignof(fm_aes_key), "fm_aes_key is under-aligned");

static const aes_key_state *key_state(const fm_aes_key *key) {
  return (const aes_key_state *)(const void *)key->opaque;
}

/* key_usable: the schedule was built by fm_aes_key_init, is not wiped, and its public fields are
 * ones this build knows (guards against a stray or corrupted schedule). */
/* AES_KEY_ALIGN: the alignment the AES-NI code needs of a schedule (it reads the round keys as
 * 16-byte vectors): a schedule at a lower alignment is refused with FM_ERR_BAD_ARGUMENT (aes.h). */
#define AES_KEY_ALIGN 16

static bool key_aligned(const fm_aes_key *key) { return (uintptr_t)key % AES_KEY_ALIGN == 0; }

static int key_usable(const fm_aes_key *key) {
  const aes_key_state *s = key_state(key);
  return s->magic == AES_KEY_MAGIC &&
         (s->ks.rounds == 10 || s->ks.rounds == 12 || s->ks.rounds == 14) &&
         (s->ks.impl == AES_IMPL_PORTABLE ||
          (s->ks.impl == AES_IMPL_AESNI && fm_cpu_use(FM_CPU_AESNI)));
}

/* ---- Checking a call ---------------------------------------------------------------------
 * Every function checks in the order of module/internal.h: the module state (fm_service_gate),
 * then its arguments in the order aes.h documents, and refuses with fm_refuse. A refusal wipes
 * |out| only for a length that is valid in itself (blocks_len_ok, ctr_len_ok): a length that is
 * what made the call fail, or would have, is never used to touch memory, since the caller's
 * buffer may be smaller than it claims. The checks below touch no memory but the counter. */

/* fits_address_space: |len| bytes from |p| stay inside the address space. A longer claim cannot
 * describe a real buffer, and the overlap checks' pointer sums would wrap on it. */
static bool fits_address_space(const void *p, size_t len) {
  return len <= UINTPTR_MAX - (uintptr_t)p;
}

/* blocks_len_ok: |len| is valid for ECB and CBC: whole blocks, and a range that fits from |in| and
 * from |out|. */
static bool blocks_len_ok(const uint8_t *in, const uint8_t *out, size_t len) {
  return len % FM_AES_BLOCK_LEN == 0 && fits_address_space(in, len) &&
         fits_address_space(out, len);
}

/* ctr32_room_ok: with FM_AES_CTR32, |nblocks| more counter blocks starting at |counter| leave its
 * last 32 bits unwrapped (SP 800-38A B.1: the counter blocks of a message are distinct): the last
 * block uses at most 0xfffffffe, so the counter a call hands back is at most 0xffffffff and never
 * wraps to 0, where the next call would look like the start of a message and repeat its key
 * stream. A counter at 0xffffffff has no block left. When key stream is buffered
 * (fm_aes_ctr_stream), it is that of the block before |counter|, so it changes nothing here. The
 * counter is treated as secret: the comparison is constant time, and only its outcome, which the
 * status shows anyway, is made public. */
static bool ctr32_room_ok(const uint8_t counter[FM_AES_BLOCK_LEN], uint64_t nblocks) {
  const uint64_t low = (uint64_t)counter[12] << 24 | (uint64_t)counter[13] << 16 |
                       (uint64_t)counter[14] << 8 | counter[15];
  const uint64_t room = UINT64_C(0xffffffff) - low; /* 0 .. 2^32 - 1 blocks */
  return fm_declassify_u64(ct_lt_u64(room, nblocks)) == 0;
}

/* ctr_len_ok: |len| is valid for CTR: a range that fits from |in| and from |out| and, for
 * FM_AES_CTR32 with a counter to read, no more new counter blocks than the 32-bit counter has left.
 * |buffered| bytes of key stream (fm_aes_ctr_stream) are used before any new block. */
static bool ctr_len_ok(fm_aes_ctr_width width, const uint8_t *counter, size_t buffered,
                       const uint8_t *in, const uint8_t *out, size_t len) {
  if (!fits_address_space(in, len) || !fits_address_space(out, len)) return false;
  if (width != FM_AES_CTR32 || counter == NULL || len <= buffered) return true;
  const size_t rest = len - buffered;
  return ctr32_room_ok(counter, (uint64_t)(rest / 16) + (rest % 16 != 0));
}

int fm_aes_key_init(fm_aes_key *ks, const uint8_t *key, size_t key_len) {
  /* |ks| is zeroed on every path: on error, so that an older schedule in it is gone. Every AES
   * mode's CAST (aes_cast.c; the whole AES group of selftest/kat.c) runs before the first key: no
   * ECB, CBC or CTR call can run without a key from here, so the mode calls pay nothing. */
  int st = fm_service_gate_tested(FM_ST_AES128_ECB_ENC_KAT);
  if (st == FM_OK) {
    if (ks == NULL || key == NULL || !key_aligned(ks)) {
      st = FM_ERR_BAD_ARGUMENT;
    } else if (key_len != 16 && key_len != 24 && key_len != 32) {
      st = FM_ERR_KEY_SIZE;
    } else if (fm_buffers_overlap(key, key_len, ks, sizeof *ks)) {
      st = FM_ERR_OVERLAP; /* the schedule would overwrite the key while reading it */
    }
  }
  if (st != FM_OK) return fm_refuse(st, ks, sizeof *ks);
  fm_zeroize(ks, sizeof *ks);
  aes_key_state *s = (aes_key_state *)(void *)ks->opaque;
  if (!aes_ks_init_encrypt(&s->ks, key, key_len)) return fm_refuse(FM_ERR_INTERNAL, ks, sizeof *ks);
  aes_ks_add_decrypt(&s->ks);
  s->magic = AES_KEY_MAGIC;
  /* aes_ks_init_encrypt wiped after itself; the decryption keys' InvMixColumns spill only where
   * everything does (sanitizer and -O0 builds). */
  if (AES_STACK_WIPE_ALWAYS) aes_bulk_stack_wipe();
  return FM_OK;
}

int fm_aes_key_wipe(fm_aes_key *ks) {
  /* Zeroization is always allowed, also outside OPERATIONAL. */
  if (ks != NULL) fm_zeroize(ks, sizeof *ks);
  return fm_service_gate();
}

/* check_blocks: the argument checks shared by ECB and CBC, in the order aes.h documents. */
static int check_blocks(const fm_aes_key *ks, const uint8_t *in, const uint8_t *out, size_t len) {
  if (ks == NULL || !key_aligned(ks)) return FM_ERR_BAD_ARGUMENT;
  if (!key_usable(ks)) return FM_ERR_STATE;
  if (!blocks_len_ok(in, out, len)) return FM_ERR_LENGTH;
  if (len == 0) return FM_OK;
  if (in == NULL || out == NULL) return FM_ERR_BAD_ARGUMENT;
  if (fm_buffers_bad_overlap(in, out, len)) return FM_ERR_OVERLAP;
  return FM_OK;
}

/* refuse_blocks refuses an ECB or CBC call, wiping |out| when |len| is valid. */
static int refuse_blocks(int st, const uint8_t *in, uint8_t *out, size_t len) {
  return fm_refuse(st, out, blocks_len_ok(in, out, len) ? len : 0);
}

/* ---- Slices --------------------------------------------------------------------------------
 * Every call runs its blocks in slices of FM_SERVICE_SLICE bytes and checks, after each and so
 * before it returns, that it may go on (module/internal.h, "Services that overlap a self-test
 * run"): when a self-test run began during the call, it wipes |out|, puts the IV or counter back
 * and returns FM_ERR_NOT_OPERATIONAL. */

enum slice_op { SLICE_ECB_ENC, SLICE_ECB_DEC, SLICE_CBC_ENC, SLICE_CBC_DEC };

static bool run_sliced(enum slice_op op, const aes_ks *s, uint8_t *iv, const uint8_t *in,
                       uint8_t *out, size_t len, uint64_t epoch) {
  for (size_t done = 0; done < len;) {
    const size_t n = len - done < FM_SERVICE_SLICE ? len - done : FM_SERVICE_SLICE;
    switch (op) {
      case SLICE_ECB_ENC: aes_ecb_encrypt_blocks(s, in + done, out + done, n / 16); break;
      case SLICE_ECB_DEC: aes_ecb_decrypt_blocks(s, in + done, out + done, n / 16); break;
      case SLICE_CBC_ENC: aes_cbc_encrypt_blocks(s, iv, in + done, out + done, n / 16); break;
      case SLICE_CBC_DEC: aes_cbc_decrypt_blocks(s, iv, in + done, out + done, n / 16); break;
    }
    done += n;
    if (!fm_service_may_continue(epoch)) return false;
  }
  return true;
}

int fm_aes_ecb_encrypt(const fm_aes_key *ks, const uint8_t *in, uint8_t *out, size_t len) {
  int st = fm_service_gate();
  if (st == FM_OK) st = check_blocks(ks, in, out, len);
  if (st != FM_OK) return refuse_blocks(st, in, out, len);
  if (len != 0) {
    const bool ok = run_sliced(SLICE_ECB_ENC, &key_state(ks)->ks, NULL, in, out, len,
                               fm_service_epoch());
    stack_wipe_after(&key_state(ks)->ks, wide_spills(&key_state(ks)->ks, len / 16));
    if (!ok) return fm_refuse(FM_ERR_NOT_OPERATIONAL, out, len);
  }
  return FM_OK;
}

int fm_aes_ecb_decrypt(const fm_aes_key *ks, const uint8_t *in, uint8_t *out, size_t len) {
  int st = fm_service_gate();
  if (st == FM_OK) st = check_blocks(ks, in, out, len);
  if (st != FM_OK) return refuse_blocks(st, in, out, len);
  if (len != 0) {
    const bool ok = run_sliced(SLICE_ECB_DEC, &key_state(ks)->ks, NULL, in, out, len,
                               fm_service_epoch());
    stack_wipe_after(&key_state(ks)->ks, wide_spills(&key_state(ks)->ks, len / 16));
    if (!ok) return fm_refuse(FM_ERR_NOT_OPERATIONAL, out, len);
  }
  return FM_OK;
}

/* check_cbc: as check_blocks, and the IV must exist and lie outside the input and output (it is
 * written after the data is processed). */
static int check_cbc(const fm_aes_key *ks, const uint8_t *iv, const uint8_t *in, const uint8_t *out,
                     size_t len) {
  if (iv == NULL) return FM_ERR_BAD_ARGUMENT;
  int st = check_blocks(ks, in, out, len);
  if (st != FM_OK || len == 0) return st;
  if (fm_buffers_overlap(iv, FM_AES_BLOCK_LEN, out, len) ||
      fm_buffers_overlap(iv, FM_AES_BLOCK_LEN, in, len)) {
    return FM_ERR_OVERLAP;
  }
  return FM_OK;
}

int fm_aes_cbc_encrypt(const fm_aes_key *ks, uint8_t iv[FM_AES_BLOCK_LEN], const uint8_t *in,
                       uint8_t *out, size_t len) {
  int st = fm_service_gate();
  if (st == FM_OK) st = check_cbc(ks, iv, in, out, len);
  if (st != FM_OK) return refuse_blocks(st, in, out, len);
  if (len != 0) {
    uint8_t iv0[FM_AES_BLOCK_LEN];
    memcpy(iv0, iv, sizeof iv0);
    const bool ok = run_sliced(SLICE_CBC_ENC, &key_state(ks)->ks, iv, in, out, len,
                               fm_service_epoch());
    /* The AES-NI chain keeps everything in registers (aes_ni.c); the bitsliced code spills. */
    stack_wipe_after(&key_state(ks)->ks, false);
    if (!ok) {
      memcpy(iv, iv0, sizeof iv0);
      return fm_refuse(FM_ERR_NOT_OPERATIONAL, out, len);
    }
  }
  return FM_OK;
}

int fm_aes_cbc_decrypt(const fm_aes_key *ks, uint8_t iv[FM_AES_BLOCK_LEN], const uint8_t *in,
                       uint8_t *out, size_t len) {
  int st = fm_service_gate();
  if (st == FM_OK) st = check_cbc(ks, iv, in, out, len);
  if (st != FM_OK) return refuse_blocks(st, in, out, len);
  if (len != 0) {
    uint8_t iv0[FM_AES_BLOCK_LEN];
    memcpy(iv0, iv, sizeof iv0);
    const bool ok = run_sliced(SLICE_CBC_DEC, &key_state(ks)->ks, iv, in, out, len,
                               fm_service_epoch());
    /* The 8-block loop (also the VAES code's tail) spills blocks. */
    stack_wipe_after(&key_state(ks)->ks, len / 16 >= AES_STACK_WIPE_MIN_BLOCKS);
    if (!ok) {
      memcpy(iv, iv0, sizeof iv0);
      return fm_refuse(FM_ERR_NOT_OPERATIONAL, out, len);
    }
  }
  return FM_OK;
}

/* ctr_blocks runs |nblocks| counter blocks with the requested counter width. */
static void ctr_blocks(const aes_ks *ks, fm_aes_ctr_width width, uint8_t counter[16],
                       const uint8_t *in, uint8_t *out, size_t nblocks) {
  if (width == FM_AES_CTR32) {
    aes_ctr32_blocks(ks, counter, in, out, nblocks);
  } else {
    ctr128_blocks(ks, counter, in, out, nblocks);
  }
}

/* ctr_blocks_sliced is ctr_blocks in slices (see "Slices"); false when the call must stop. */
static bool ctr_blocks_sliced(const aes_ks *ks, fm_aes_ctr_width width, uint8_t counter[16],
                              const uint8_t *in, uint8_t *out, size_t nblocks, uint64_t epoch) {
  const size_t slice = FM_SERVICE_SLICE / 16;
  for (size_t done = 0; done < nblocks;) {
    const size_t n = nblocks - done < slice ? nblocks - done : slice;
    ctr_blocks(ks, width, counter, in + 16 * done, out + 16 * done, n);
    done += n;
    if (!fm_service_may_continue(epoch)) return false;
  }
  return true;
}

/* check_ctr: the argument checks shared by fm_aes_ctr and fm_aes_ctr_stream, in the order aes.h
 * documents; |buffered| bytes of key stream are used before any new counter block. Inlined: a
 * call with seven arguments measured a nanosecond on a 16-byte request. */
static inline __attribute__((always_inline)) int check_ctr(const fm_aes_key *ks, fm_aes_ctr_width width, const uint8_t *counter,
                     size_t buffered, const uint8_t *in, const uint8_t *out, size_t len) {
  if (ks == NULL || counter == NULL || !key_aligned(ks)) return FM_ERR_BAD_ARGUMENT;
  if (width != FM_AES_CTR32 && width != FM_AES_CTR128) return FM_ERR_BAD_ARGUMENT;
  if (!key_usable(ks)) return FM_ERR_STATE;
  if (len == 0) return FM_OK;
  if (in == NULL || out == NULL) return FM_ERR_BAD_ARGUMENT;
  if (!ctr_len_ok(width, counter, buffered, in, out, len)) return FM_ERR_LENGTH;
  if (fm_buffers_bad_overlap(in, out, len)) return FM_ERR_OVERLAP;
  if (fm_buffers_overlap(counter, FM_AES_BLOCK_LEN, out, len) ||
      fm_buffers_overlap(counter, FM_AES_BLOCK_LEN, in, len)) {
    return FM_ERR_OVERLAP;
  }
  return FM_OK;
}

int fm_aes_ctr(const fm_aes_key *ks, fm_aes_ctr_width width, uint8_t counter[FM_AES_BLOCK_LEN],
               const uint8_t *in, uint8_t *out, size_t len) {
  int st = fm_service_gate();
  if (st == FM_OK) st = check_ctr(ks, width, counter, 0, in, out, len);
  if (st != FM_OK) return fm_refuse(st, out, ctr_len_ok(width, counter, 0, in, out, len) ? len : 0);
  if (len == 0) return FM_OK;
  const aes_ks *s = &key_state(ks)->ks;
  const size_t full = len / 16, rest = len % 16;
  const uint64_t epoch = fm_service_epoch();
  uint8_t counter0[FM_AES_BLOCK_LEN];
  memcpy(counter0, counter, sizeof counter0);
  bool ok = full == 0 || ctr_blocks_sliced(s, width, counter, in, out, full, epoch);
  if (ok && rest != 0) {
    uint8_t block[16];
    ctr_blocks(s, width, counter, NULL, block, 1);
    for (size_t i = 0; i < rest; i++) out[16 * full + i] = in[16 * full + i] ^ block[i];
    fm_zeroize(block, sizeof block);
    ok = fm_service_may_continue(epoch);
  }
  stack_wipe_after(s, wide_spills(s, full));
  if (!ok) {
    memcpy(counter, counter0, sizeof counter0);
    return fm_refuse(FM_ERR_NOT_OPERATIONAL, out, len); /* a self-test run began */
  }
  return FM_OK;
}

int fm_aes_ctr_stream(const fm_aes_key *ks, fm_aes_ctr_width width,
                      uint8_t counter[FM_AES_BLOCK_LEN], uint8_t keystream[FM_AES_BLOCK_LEN],
                      unsigned *ks_used, const uint8_t *in, uint8_t *out, size_t len) {
  /* The unused key-stream bytes, once *ks_used is known to be valid. */
  const size_t buffered =
      ks_used != NULL && *ks_used <= FM_AES_BLOCK_LEN ? FM_AES_BLOCK_LEN - *ks_used : 0;
  int st = fm_service_gate();
  if (st == FM_OK) {
    if (keystream == NULL || ks_used == NULL || *ks_used > FM_AES_BLOCK_LEN) {
      st = FM_ERR_BAD_ARGUMENT;
    } else {
      st = check_ctr(ks, width, counter, buffered, in, out, len);
      if (st == FM_OK && len != 0 &&
          (fm_buffers_overlap(keystream, FM_AES_BLOCK_LEN, out, len) ||
           fm_buffers_overlap(keystream, FM_AES_BLOCK_LEN, in, len) ||
           fm_buffers_overlap(keystream, FM_AES_BLOCK_LEN, counter, FM_AES_BLOCK_LEN))) {
        st = FM_ERR_OVERLAP;
      }
    }
  }
  if (st != FM_OK) {
    /* The buffered key stream (secret) is dropped along with the output. */
    if (ks_used != NULL) *ks_used = FM_AES_BLOCK_LEN;
    return fm_refuse2(st, out, ctr_len_ok(width, counter, buffered, in, out, len) ? len : 0,
                      keystream, FM_AES_BLOCK_LEN);
  }
  if (len == 0) return FM_OK;

  const aes_ks *s = &key_state(ks)->ks;
  const uint64_t epoch = fm_service_epoch();
  uint8_t counter0[FM_AES_BLOCK_LEN];
  memcpy(counter0, counter, sizeof counter0);
  unsigned used = *ks_used;
  size_t done = 0;
  /* First the key stream left over from the previous call; each byte is wiped once used. */
  while (used < FM_AES_BLOCK_LEN && done < len) {
    out[done] = in[done] ^ keystream[used];
    keystream[used] = 0;
    used++;
    done++;
  }
  const size_t full = (len - done) / 16, rest = (len - done) % 16;
  if (full != 0) {
    if (!ctr_blocks_sliced(s, width, counter, in + done, out + done, full, epoch)) {
      stack_wipe_after(s, wide_spills(s, full));
      memcpy(counter, counter0, sizeof counter0);
      *ks_used = FM_AES_BLOCK_LEN; /* a self-test run began: as every refusal (aes.h) */
      return fm_refuse2(FM_ERR_NOT_OPERATIONAL, out, len, keystream, FM_AES_BLOCK_LEN);
    }
    done += 16 * full;
  }
  if (rest != 0) {
    ctr_blocks(s, width, counter, NULL, keystream, 1);
    for (used = 0; used < rest; used++) {
      out[done + used] = in[done + used] ^ keystream[used];
      keystream[used] = 0;
    }
  }
  stack_wipe_after(s, wide_spills(s, full));
  if (!fm_service_may_continue(epoch)) {
    memcpy(counter, counter0, sizeof counter0);
    *ks_used = FM_AES_BLOCK_LEN; /* a self-test run began: as every refusal (aes.h) */
    return fm_refuse2(FM_ERR_NOT_OPERATIONAL, out, len, keystream, FM_AES_BLOCK_LEN);
  }
  *ks_used = used;
  return FM_OK;
}
