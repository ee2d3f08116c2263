/* GCM's bulk step with VAES and VPCLMULQDQ on 512-bit registers, stitched: each 16-block pass
 * runs the AES-CTR rounds of its blocks and, interleaved with them in one instruction stream,
 * the GHASH multiplies of 16 ciphertext blocks, so the AES and carry-less units work side by side
 * and neither waits on the other's latency. Encryption hashes an earlier pass's ciphertext (the
 * current one does not exist yet): the pass before (AES-128), or the pass two back (AES-192,
 * AES-256; see crypt_nr); decryption hashes the pass's own ciphertext, loaded into registers
 * before the plaintext is stored, so in-place decryption is safe.
 *
 * The arithmetic is ghash.c's (reflected form, Montgomery product with the powers H'^16..H'^1 of
 * ghash_key.hdesc, one reduction per 16 blocks, done on the four lanes before they are added:
 * reduce4) and aes_vaes.c's (round keys broadcast to every
 * lane, inc32 counters built in registers: the counter's last dword byte-swapped to host order,
 * where 32-bit adds wrap mod 2^32 as inc32 does). Each direction and key size has a kernel of its
 * own, rounds unrolled; the GHASH state stays in a register across passes. The broadcast round
 * keys and powers live in local arrays the compiler may spill; both are wiped before return.
 *
 * Even with 32 zmm registers the compiler keeps some cipher states and GHASH operands in stack
 * slots of its own (-fstack-usage at -O2, as Release builds this file: frames of 1648-2288 bytes
 * for the six kernels with gcc 12, the AES-256 encryption kernel's the largest, 1528-1720 with
 * clang 14, the zeroized arrays 1216 of them, and tail_pass's 200 or 376 below them), which
 * the arrays' wipe does not reach: gcm.c ends the call with aes_bulk_stack_wipe (internal.h,
 * AES_BULK_STACK_WIPE), or, after a one-shot, with aes_bulk_stack_wipe_from the lowest address
 * the kernel reached, which each kernel returns (its stack pointer and tail_pass's, less the red
 * zone): about 2.3 KiB of the 3 KiB below the caller there, and 11-14% less time for a 256-byte
 * one-shot, 4-5% at 1350 bytes (Zen 5, both builds in one process, interleaved).
 *
 * Four cipher states a pass leave the AES unit idle on a core whose rounds take longer than one
 * cycle each: Zen 5 (measured with chains of instructions in asm) starts two 512-bit vaesenc a
 * cycle with 4 cycles of latency, and one vpclmulqdq every 2 cycles at any width. A double pass
 * was tried there (32 blocks, eight states, the round keys as memory operands, the 32 blocks
 * hashed by H'^32..H'^1 with H'^32..H'^17 made at the start of each call, one reduction): its
 * AES alone ran at 21 cycles per 16 blocks and its GHASH alone at 35, but together the kernel
 * measured from 2% slower to 10% faster at 16 KiB and 2-19% slower at 1350 B and 8 KiB (against
 * this kernel: both libraries in one process, interleaved, and a driver of the kernels alone),
 * with 13 KB more code; Karatsuba products (24 multiplies a double pass instead of 32) measured
 * slower still. So it was not kept. */
#include <immintrin.h>

#include "module/aes/internal.h"
#include "module/internal.h"

#define GCM512_FN \
  __attribute__((target("aes,pclmul,sse4.1,avx2,avx512f,avx512vl,avx512bw,vaes,vpclmulqdq")))

static const uint8_t k_swap32[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 15, 14, 13, 12};
static const uint8_t k_rev16[16] = {15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0};

/* mul4 adds the unreduced products of four block pairs to lo, mid, hi. */
GCM512_FN static inline void mul4(__m512i a, __m512i b, __m512i *lo, __m512i *mid, __m512i *hi) {
  *lo = _mm512_xor_si512(*lo, _mm512_clmulepi64_epi128(a, b, 0x00));
  *hi = _mm512_xor_si512(*hi, _mm512_clmulepi64_epi128(a, b, 0x11));
  *mid = _mm512_ternarylogic_epi64(*mid, _mm512_clmulepi64_epi128(a, b, 0x01),
                                   _mm512_clmulepi64_epi128(a, b, 0x10), 0x96);
}

GCM512_FN static inline __m128i fold4(__m512i v) {
  const __m256i h = _mm256_xor_si256(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64(v, 1));
  return _mm_xor_si128(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
}

/* reduce4 returns the reduced sum of the four lanes' unreduced products lo, mid, hi: each lane
 * reduced in place (the reduction is linear), then the lanes added, so that only one register is
 * folded to 128 bits. It is clmul_reduce.h's two folds reordered: the fold of lo's low word (its
 * product by the constant, plus lo with its halves swapped) is added to mid, which sits one word
 * higher, and the fold of that sum's low word to hi, which sits one word higher again; the shifts
 * that align mid with lo and hi are gone. */
GCM512_FN static inline __m128i reduce4(__m512i lo, __m512i mid, __m512i hi) {
  const __m512i c = _mm512_set1_epi64((long long)0xc200000000000000ull);
  mid = _mm512_ternarylogic_epi64(mid, _mm512_clmulepi64_epi128(lo, c, 0x00),
                                  _mm512_shuffle_epi32(lo, (_MM_PERM_ENUM)0x4e), 0x96);
  hi = _mm512_ternarylogic_epi64(hi, _mm512_clmulepi64_epi128(mid, c, 0x00),
                                 _mm512_shuffle_epi32(mid, (_MM_PERM_ENUM)0x4e), 0x96);
  return fold4(hi);
}

/* ghash16 absorbs the 16 blocks g[0..3] (reflected, acc already folded into g[0]'s first lane)
 * and returns the reduced state. */
GCM512_FN static inline __m128i ghash16(const __m512i g[4], const __m512i p[4]) {
  __m512i lo = _mm512_setzero_si512(), mid = lo, hi = lo;
  /* The block that carries the state last, so the chain from acc is one multiply and one add. */
  mul4(g[1], p[1], &lo, &mid, &hi);
  mul4(g[2], p[2], &lo, &mid, &hi);
  mul4(g[3], p[3], &lo, &mid, &hi);
  mul4(g[0], p[0], &lo, &mid, &hi);
  return reduce4(lo, mid, hi);
}

/* pass_rounds runs the AES rounds of one 16-block pass on the counter blocks |x| and, in the
 * same stream when |hash|, the GHASH multiplies of |g| (one register of four blocks per round,
 * the one that carries the state last, so the chain from the state is one multiply); returns the
 * reduced GHASH state (or a zero vector when !hash). */
/* Forced inlining makes the constant direction and round count unroll; unoptimized builds
 * (which unroll nothing) keep one copy of each helper, whose frame there is large enough. */
/* GCM512_RED_ZONE: the bytes below its stack pointer that a function calling nothing may use
 * without moving it (the x86-64 psABI's red zone): tail_pass is such a function. */
#define GCM512_RED_ZONE 128

#if defined(__OPTIMIZE__)
#define GCM512_INLINE GCM512_FN static inline __attribute__((always_inline))
#else
#define GCM512_INLINE GCM512_FN static inline
#endif

GCM512_INLINE __m128i pass_rounds(__m512i x[4], const __m512i *k, const __m512i g[4],
                                  const __m512i p[4], const int hash, const unsigned nr) {
  /* The sums start from the first register's products, and the low and high products of the
   * second wait in lo2, hi2 for the third's, so that three-input XORs add two at a time. */
  __m512i lo = _mm512_setzero_si512(), mid = lo, hi = lo, lo2 = lo, hi2 = lo;
  AES_UNROLL
  for (unsigned i = 1; i < nr; i++) {
    AES_UNROLL
    for (int j = 0; j < 4; j++) x[j] = _mm512_aesenc_epi128(x[j], k[i]);
    if (!hash || i > 4) continue;
    const __m512i a = g[i % 4], b = p[i % 4];
    const __m512i m01 = _mm512_clmulepi64_epi128(a, b, 0x01);
    const __m512i m10 = _mm512_clmulepi64_epi128(a, b, 0x10);
    if (i == 1) {
      lo = _mm512_clmulepi64_epi128(a, b, 0x00);
      hi = _mm512_clmulepi64_epi128(a, b, 0x11);
      mid = _mm512_xor_si512(m01, m10);
    } else if (i == 2) {
      lo2 = _mm512_clmulepi64_epi128(a, b, 0x00);
      hi2 = _mm512_clmulepi64_epi128(a, b, 0x11);
      mid = _mm512_ternarylogic_epi64(mid, m01, m10, 0x96);
    } else if (i == 3) {
      lo = _mm512_ternarylogic_epi64(lo, lo2, _mm512_clmulepi64_epi128(a, b, 0x00), 0x96);
      hi = _mm512_ternarylogic_epi64(hi, hi2, _mm512_clmulepi64_epi128(a, b, 0x11), 0x96);
      mid = _mm512_ternarylogic_epi64(mid, m01, m10, 0x96);
    } else {
      mul4(a, b, &lo, &mid, &hi);
    }
  }
  AES_UNROLL
  for (int j = 0; j < 4; j++) x[j] = _mm512_aesenclast_epi128(x[j], k[nr]);
  return hash ? reduce4(lo, mid, hi) : _mm_setzero_si128();
}

/* wipe_zmm zeroes the |n| vectors of |a| (a constant where it is inlined) with aligned 64-byte
 * stores from inline asm, which the compiler may neither drop nor turn into a memset call: as
 * fm_zeroize does, in a few stores rather than a string instruction's start-up. */
GCM512_INLINE void wipe_zmm(__m512i *a, const unsigned n) {
  const __m512i z = _mm512_setzero_si512();
  AES_UNROLL
  for (unsigned i = 0; i < n; i++) __asm__ __volatile__("vmovdqa64 %1, %0" : "=m"(a[i]) : "v"(z));
}

/* stack_pointer is the stack pointer where it runs: in a kernel, the bottom of its frame (fixed
 * once the prologue has run; the memory clobber keeps the read among the frame's stores). */
GCM512_INLINE uintptr_t stack_pointer(void) {
  uintptr_t sp;
  __asm__ __volatile__("mov %%rsp, %0" : "=r"(sp) : : "memory");
  return sp;
}

/* mul_tail adds the products of the tail's |r| (1..15, public) blocks g[] by H'^r..H'^1 (pw[],
 * zero past the tail) to lo, mid, hi, skipping the registers the tail does not reach. */
GCM512_INLINE void mul_tail(const __m512i g[4], const __m512i pw[4], size_t r, __m512i *lo,
                            __m512i *mid, __m512i *hi) {
  mul4(g[0], pw[0], lo, mid, hi);
  if (r > 4) mul4(g[1], pw[1], lo, mid, hi);
  if (r > 8) mul4(g[2], pw[2], lo, mid, hi);
  if (r > 12) mul4(g[3], pw[3], lo, mid, hi);
}

/* chain_rounds runs the rounds after the first key addition on one register of four blocks (a
 * loop: |nr| is not a constant where it is used). */
GCM512_INLINE __m512i chain_rounds(__m512i v, const __m512i *k, const unsigned nr) {
  for (unsigned i = 1; i < nr; i++) v = _mm512_aesenc_epi128(v, k[i]);
  return _mm512_aesenclast_epi128(v, k[nr]);
}

/* tail_pass runs the |r| (0..15) blocks after the last whole pass and, when |stream| is not
 * NULL, the key stream block after them, in one pass on four registers with masked loads and
 * stores (nothing outside those blocks is read or written), from the counters |base| (working
 * form) with the |nr| + 1 broadcast round keys |k|. Their GHASH multipliers are H'^r..H'^1, the
 * last r entries of hdesc, loaded under the same masks. |pending| (encryption) is the last whole
 * pass's ciphertext, not hashed yet, or NULL. Only the registers the tail reaches run the rounds,
 * one chain each, beside the multiplies (the masks keep the other registers' lanes out of every
 * store). The GHASH state is read from and written to |y|. Round count and direction are
 * arguments: one copy serves every kernel. */
GCM512_FN __attribute__((noinline)) static uintptr_t tail_pass(
    const __m512i *k, const unsigned nr, const __m512i p[4], const ghash_key *gk, __m512i base,
    const __m512i *pending, const uint8_t *src, uint8_t *dst, const size_t r, uint8_t *stream,
    uint64_t y[2], const int decrypt) {
  const size_t tail = r + (stream != NULL ? 1 : 0);
  const __m512i swap = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)k_swap32));
  const __m512i rev = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)k_rev16));
  const __m512i inc4 = _mm512_set_epi32(4, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0);
  __m128i acc = _mm_loadu_si128((const __m128i *)y);
  __m512i x[4], g[4], t[4], pw[4];
  /* H'^r..H'^1: hdesc[16 - r + i] for block i (masked loads: nothing past hdesc is read). */
  const uint8_t *hp = (const uint8_t *)gk->hdesc + 16 * (16 - r);
  /* The tail's input (the ciphertext when decrypting), read before anything is stored. */
  AES_UNROLL
  for (int j = 0; j < 4; j++) {
    pw[j] = _mm512_maskz_loadu_epi64(aes_qmask4((long)r - 4 * j), hp + 64 * j);
    t[j] = _mm512_maskz_loadu_epi64(aes_qmask4((long)r - 4 * j), src + 64 * j);
    x[j] = _mm512_xor_si512(_mm512_shuffle_epi8(base, swap), k[0]);
    base = _mm512_add_epi32(base, inc4);
  }
  /* The GHASH of the tail (decryption, when it has whole blocks) or of the pending pass
   * (encryption) first: independent of the rounds, which run beside it. */
  if (decrypt) {
    AES_UNROLL
    for (int j = 0; j < 4; j++) g[j] = _mm512_shuffle_epi8(t[j], rev);
    if (r > 0) {
      g[0] = _mm512_xor_si512(g[0], _mm512_zextsi128_si512(acc));
      __m512i lo = _mm512_setzero_si512(), mid = lo, hi = lo;
      mul_tail(g, pw, r, &lo, &mid, &hi);
      acc = reduce4(lo, mid, hi);
    }
  } else if (pending != NULL) {
    AES_UNROLL
    for (int j = 0; j < 4; j++) g[j] = _mm512_shuffle_epi8(pending[j], rev);
    g[0] = _mm512_xor_si512(g[0], _mm512_zextsi128_si512(acc));
    acc = ghash16(g, p);
  }
  x[0] = chain_rounds(x[0], k, nr);
  if (tail > 4) x[1] = chain_rounds(x[1], k, nr);
  if (tail > 8) x[2] = chain_rounds(x[2], k, nr);
  if (tail > 12) x[3] = chain_rounds(x[3], k, nr);
  AES_UNROLL
  for (int j = 0; j < 4; j++) {
    const __mmask8 m = aes_qmask4((long)r - 4 * j);
    t[j] = _mm512_maskz_xor_epi64(m, t[j], x[j]);
    _mm512_mask_storeu_epi64(dst + 64 * j, m, t[j]);
  }
  if (!decrypt && r > 0) {
    AES_UNROLL
    for (int j = 0; j < 4; j++) g[j] = _mm512_shuffle_epi8(t[j], rev);
    g[0] = _mm512_xor_si512(g[0], _mm512_zextsi128_si512(acc));
    __m512i lo = _mm512_setzero_si512(), mid = lo, hi = lo;
    mul_tail(g, pw, r, &lo, &mid, &hi);
    acc = reduce4(lo, mid, hi);
  }
  if (stream != NULL) {
    /* Block r's key stream: lane r % 4 of register r / 4. */
    __m512i v = x[0];
    if (r / 4 == 1) v = x[1];
    if (r / 4 == 2) v = x[2];
    if (r / 4 == 3) v = x[3];
    const long l = (long)(r % 4);
    v = _mm512_permutexvar_epi64(_mm512_set_epi64(0, 0, 0, 0, 0, 0, 2 * l + 1, 2 * l), v);
    _mm_storeu_si128((__m128i *)stream, _mm512_castsi512_si128(v));
  }
  _mm_storeu_si128((__m128i *)y, acc);
  wipe_zmm(pw, 4);
  return stack_pointer();
}

/* crypt_nr is the kernel for one direction and key size (both constants where it is inlined, so
 * that the rounds and the direction unroll). Encryption runs its first pass without GHASH and
 * keeps each pass's ciphertext in registers for the next pass to hash (no reload of what it just
 * stored); decryption loads the pass's ciphertext once, hashes it and XORs it. The GHASH state
 * stays in a register across passes.
 *
 * The |r| = nblocks % 16 blocks after the passes, and the key stream block after them when
 * |stream| is not NULL, run in tail_pass, which also hashes encryption's last whole pass. */
GCM512_INLINE uintptr_t crypt_nr(const aes_ks *ks, const ghash_key *gk, uint8_t ctr[16],
                            uint64_t y[2], const uint8_t *in, uint8_t *out, size_t nblocks,
                            uint8_t *stream, const int decrypt, const unsigned nr) {
  const size_t passes = nblocks / 16, r = nblocks % 16;
  const size_t tail = r + (stream != NULL ? 1 : 0);
  if (passes == 0 && tail == 0) return UINTPTR_MAX;
  const __m128i *rk = (const __m128i *)ks->words;
  __m512i k[15], p[4];
  AES_UNROLL
  for (unsigned i = 0; i <= nr; i++) k[i] = _mm512_broadcast_i32x4(_mm_loadu_si128(rk + i));
  AES_UNROLL
  for (int j = 0; j < 4; j++) p[j] = _mm512_loadu_si512((const void *)gk->hdesc[4 * j]);
  const __m512i swap = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)k_swap32));
  const __m512i rev = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)k_rev16));
  const __m512i inc4 = _mm512_set_epi32(4, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0);
  __m512i base = _mm512_shuffle_epi8(
      _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)ctr)), swap);
  const __m512i inc16 = _mm512_slli_epi32(inc4, 2);
  /* The low byte of the first block's counter (the block's last byte). */
  const uint8_t ctr_low = ctr[15];
  base = _mm512_add_epi32(base, _mm512_set_epi32(3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0));
  __m128i acc = _mm_loadu_si128((const __m128i *)y);
  /* The ciphertext the next pass hashes (encryption: the last pass's output). */
  __m512i c[4];
  __m512i x[4], g[4];
  size_t pass = 0;
  /* Encryption hashes, in each pass, the ciphertext of the pass before, kept in c[]; with
   * AES-192 and AES-256 (|two_back|) that of the pass two back instead, read from |out| where it
   * was stored. Its GHASH operands are then ready when the pass starts, as decryption's are (it
   * loads its own ciphertext), rather than waiting for the last round of the pass before, which
   * with a buffer not 64-byte aligned cost 2-3 cycles a pass. Kernel alone, 16 KiB, minimum of 5
   * runs, cycles a pass at offsets 0 / 16 / 48 from a 64-byte boundary: AES-256 60.6 / 63.4 / 63.8
   * one back, 61.1 / 60.7 / 60.7 two back; AES-192 53.7 / 55.9 and 55.0 / 54.8 (offsets 0 / 16);
   * AES-128 48.7 / 50.3 / 50.3 and 50.5 / 50.5 / 50.2, so AES-128 stays one back. Two back, the
   * first two passes run without GHASH and the two after the last are hashed after the loop.
   * |out| holds this call's ciphertext only, whether or not it is |in|. */
  const int two_back = !decrypt && nr >= 12;
  const size_t unhashed = decrypt ? 0 : passes < (two_back ? 2u : 1u) ? passes : two_back ? 2 : 1;
  for (; pass < unhashed; pass++) {
    AES_UNROLL
    for (int j = 0; j < 4; j++) {
      x[j] = _mm512_xor_si512(_mm512_shuffle_epi8(base, swap), k[0]);
      base = _mm512_add_epi32(base, inc4);
    }
    (void)pass_rounds(x, k, g, p, 0, nr);
    AES_UNROLL
    for (int j = 0; j < 4; j++) {
      c[j] = _mm512_xor_si512(x[j], _mm512_loadu_si512((const void *)(in + 256 * pass + 64 * j)));
      _mm512_storeu_si512((void *)(out + 256 * pass + 64 * j), c[j]);
    }
  }
  for (; pass < passes; pass++) {
    const uint8_t *src = in + 256 * pass;
    uint8_t *dst = out + 256 * pass;
    AES_UNROLL
    for (int j = 0; j < 4; j++) {
      /* Decryption reads the whole pass's ciphertext before it stores (in place is safe). */
      if (decrypt) {
        c[j] = _mm512_loadu_si512((const void *)(src + 64 * j));
        g[j] = _mm512_shuffle_epi8(c[j], rev);
      } else if (two_back) {
        g[j] = _mm512_shuffle_epi8(_mm512_loadu_si512((const void *)(dst - 512 + 64 * j)), rev);
      } else {
        g[j] = _mm512_shuffle_epi8(c[j], rev);
      }
    }
    g[0] = _mm512_xor_si512(g[0], _mm512_zextsi128_si512(acc));
    /* The counter blocks. The pass's 16 counters differ from its first only in the last byte when
     * that byte does not wrap within the pass (15 passes in 16): then one byte swap gives the
     * first four blocks, and the others are those plus 4, 8, 12 added to the last byte (the top
     * byte of the lanes' last dword), three shuffles fewer on the port the multiplies use. The
     * counter is public, and so is the branch. AES-256 keeps the general form: its 14 rounds
     * leave the shuffles room, and the branch measured slower there (61 -> 62 cycles a pass
     * against 50 -> 48.7 for AES-128 and 56 -> 54 for AES-192, kernel alone, 16 KiB). */
    if (nr < 14 && (uint8_t)(ctr_low + 16 * pass) <= 255 - 15) {
      const __m512i be = _mm512_shuffle_epi8(base, swap);
      x[0] = _mm512_xor_si512(be, k[0]);
      AES_UNROLL
      for (int j = 1; j < 4; j++) {
        const __m512i step = _mm512_broadcast_i32x4(_mm_set_epi32((4 * j) << 24, 0, 0, 0));
        x[j] = _mm512_xor_si512(_mm512_add_epi32(be, step), k[0]);
      }
      base = _mm512_add_epi32(base, inc16);
    } else {
      AES_UNROLL
      for (int j = 0; j < 4; j++) {
        x[j] = _mm512_xor_si512(_mm512_shuffle_epi8(base, swap), k[0]);
        base = _mm512_add_epi32(base, inc4);
      }
    }
    acc = pass_rounds(x, k, g, p, 1, nr);
    AES_UNROLL
    for (int j = 0; j < 4; j++) {
      if (decrypt) {
        _mm512_storeu_si512((void *)(dst + 64 * j), _mm512_xor_si512(x[j], c[j]));
      } else {
        c[j] = _mm512_xor_si512(x[j], _mm512_loadu_si512((const void *)(src + 64 * j)));
        _mm512_storeu_si512((void *)(dst + 64 * j), c[j]);
      }
    }
  }
  /* Encryption: the pass before the last, from |out|, then the last whole pass's ciphertext (in
   * c[]), not hashed yet. */
  if (two_back && passes >= 2) {
    AES_UNROLL
    for (int j = 0; j < 4; j++) {
      g[j] = _mm512_shuffle_epi8(
          _mm512_loadu_si512((const void *)(out + 256 * (passes - 2) + 64 * j)), rev);
    }
    g[0] = _mm512_xor_si512(g[0], _mm512_zextsi128_si512(acc));
    acc = ghash16(g, p);
  }
  const int pending = !decrypt && passes > 0;
  if (pending) {
    AES_UNROLL
    for (int j = 0; j < 4; j++) g[j] = _mm512_shuffle_epi8(c[j], rev);
    g[0] = _mm512_xor_si512(g[0], _mm512_zextsi128_si512(acc));
  }
  uintptr_t low = UINTPTR_MAX;
  if (tail == 0) {
    if (pending) acc = ghash16(g, p);
    _mm_storeu_si128((__m128i *)y, acc);
  } else {
    /* The tail pass is shared by every kernel: its blocks are few, and one copy keeps the code
     * small. The pending pass's ciphertext goes through memory (it is public). */
    _mm_storeu_si128((__m128i *)y, acc);
    /* A copy made here, so that c itself stays in registers in the loop above. */
    __m512i cp[4];
    AES_UNROLL
    for (int j = 0; j < 4; j++) cp[j] = pending ? c[j] : _mm512_setzero_si512();
    low = tail_pass(k, nr, p, gk, base, pending ? cp : NULL, in + 256 * passes,
                    out + 256 * passes, r, stream, y, decrypt);
  }
  aes_ctr_store(ctr, aes_ctr_add(aes_ctr_load(ctr), 16 * passes + tail, 32));
  wipe_zmm(k, 15);
  wipe_zmm(p, 4);
  const uintptr_t sp = stack_pointer();
  return (sp < low ? sp : low) - GCM512_RED_ZONE;
}

/* One function per direction and key size: each has its rounds unrolled and its direction fixed. */
#define GCM512_KERNEL(name, dec, nr)                                                            \
  GCM512_FN __attribute__((noinline)) static uintptr_t name(                                    \
      const aes_ks *ks, const ghash_key *gk, uint8_t ctr[16], uint64_t y[2], const uint8_t *in, \
      uint8_t *out, size_t nblocks, uint8_t *stream) {                                          \
    return crypt_nr(ks, gk, ctr, y, in, out, nblocks, stream, dec, nr);                         \
  }
GCM512_KERNEL(enc10, 0, 10)
GCM512_KERNEL(dec10, 1, 10)
GCM512_KERNEL(enc12, 0, 12)
GCM512_KERNEL(dec12, 1, 12)
GCM512_KERNEL(enc14, 0, 14)
GCM512_KERNEL(dec14, 1, 14)

GCM512_FN uintptr_t gcm_vaes512_crypt_all(const aes_ks *ks, const ghash_key *gk,
                                          uint8_t ctr[16], uint64_t y[2], const uint8_t *in,
                                          uint8_t *out, size_t nblocks, uint8_t *stream,
                                          int decrypt) {
  if (ks->rounds == 14) {
    return decrypt ? dec14(ks, gk, ctr, y, in, out, nblocks, stream)
                   : enc14(ks, gk, ctr, y, in, out, nblocks, stream);
  }
  if (ks->rounds == 12) {
    return decrypt ? dec12(ks, gk, ctr, y, in, out, nblocks, stream)
                   : enc12(ks, gk, ctr, y, in, out, nblocks, stream);
  }
  return decrypt ? dec10(ks, gk, ctr, y, in, out, nblocks, stream)
                 : enc10(ks, gk, ctr, y, in, out, nblocks, stream);
}

GCM512_FN size_t gcm_vaes512_crypt(const aes_ks *ks, const ghash_key *gk, uint8_t ctr[16],
                                   uint64_t y[2], const uint8_t *in, uint8_t *out, size_t nblocks,
                                   int decrypt) {
  const size_t whole = nblocks - nblocks % 16;
  (void)gcm_vaes512_crypt_all(ks, gk, ctr, y, in, out, whole, NULL, decrypt);
  return whole;
}
