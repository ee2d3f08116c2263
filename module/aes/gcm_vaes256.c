/* GCM's bulk step with VAES and VPCLMULQDQ on 256-bit registers, stitched: the twin of
 * gcm_vaes.c for CPUs that have VAES and VPCLMULQDQ but not AVX-512. Each 16-block pass (eight
 * registers of two blocks) runs the AES-CTR rounds of its blocks and, interleaved with them in
 * one instruction stream, the GHASH multiplies of 16 ciphertext blocks (one register pair per
 * round), so the AES and carry-less units work side by side. Encryption hashes the previous
 * pass's ciphertext (the current one does not exist yet); decryption hashes the pass's own
 * ciphertext, all of it read before the first plaintext block of the pass is stored (and each
 * block read again, just before its own store, for the XOR), so in-place decryption is safe.
 *
 * Why 16 blocks and not 8: VAESENC on ymm has a latency of several cycles and issues at up to
 * two a cycle, so 4 registers in flight leave the AES unit half idle; measured on an AMD EPYC
 * (Zen 4) with the AVX2 width forced, 8-block passes ran encryption slower than CTR then GHASH,
 * 16-block passes about 1.45x faster. With 16 vector registers (no AVX-512) the eight cipher
 * states, the three GHASH sums and the temporaries fill them; round keys and powers are read
 * from the stack as memory operands.
 *
 * The arithmetic is ghash.c's (reflected form, Montgomery product with the powers H'^16..H'^1 of
 * ghash_key.hdesc, two per register, one reduction per 16 blocks) and aes_vaes.c's (round keys
 * broadcast to both lanes, inc32 counters in the working form of vaes_ctr.h: the counter's last
 * dword byte-swapped to host order, where 32-bit adds wrap mod 2^32 as inc32 does). The broadcast
 * round keys and powers live in local arrays the compiler may spill or read from memory; both
 * are wiped before return. The caller (gcm.c) clears the vector registers afterwards.
 *
 * Spills the arrays' wipe does not reach: with 16 ymm registers the compiler also keeps cipher
 * states, key stream and the three GHASH sums in stack slots of its own inside the pass loop
 * (-fstack-usage: see AES_BULK_STACK_WIPE in internal.h for the two kernels' frames, one per
 * direction, with gcc 12 and clang 14; the zeroized arrays are 736 bytes of them). C cannot name
 * them, so gcm.c ends the call with aes_bulk_stack_wipe, whose AES_BULK_STACK_WIPE (internal.h)
 * is sized for this frame, the deepest of all the kernels. */
#include <immintrin.h>

#include "module/aes/clmul_reduce.h"
#include "module/aes/internal.h"
#include "module/internal.h"

#define GCM256_FN __attribute__((target("aes,pclmul,sse4.1,avx2,vaes,vpclmulqdq")))

/* Rounds 1..9, which AES-128, AES-192 and AES-256 all run before their last rounds: unrolled, with
 * the pass's GHASH multiplies in rounds 1..8. */
#define GCM256_COMMON_ROUNDS 10u

static const uint8_t k_swap32[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 15, 14, 13, 12};
static const uint8_t k_rev16[16] = {15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0};

/* mul2 adds the unreduced products of two block pairs to lo, mid, hi. */
GCM256_FN static inline void mul2(__m256i a, __m256i b, __m256i *lo, __m256i *mid, __m256i *hi) {
  *lo = _mm256_xor_si256(*lo, _mm256_clmulepi64_epi128(a, b, 0x00));
  *hi = _mm256_xor_si256(*hi, _mm256_clmulepi64_epi128(a, b, 0x11));
  *mid = _mm256_xor_si256(*mid, _mm256_xor_si256(_mm256_clmulepi64_epi128(a, b, 0x01),
                                                 _mm256_clmulepi64_epi128(a, b, 0x10)));
}

GCM256_FN static inline __m128i fold2(__m256i v) {
  return _mm_xor_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
}

/* load_ct returns ciphertext pair |j| at |src| in reflected form. */
GCM256_FN static inline __m256i load_ct(const uint8_t *src, int j, __m256i rev) {
  return _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(src + 32 * j)), rev);
}

/* ghash16 absorbs the 16 blocks at |src| into |acc| with the powers p[0..7] (H'^16..H'^1). */
GCM256_FN static inline __m128i ghash16(const uint8_t *src, __m128i acc, const __m256i p[8],
                                        __m256i rev) {
  __m256i lo = _mm256_setzero_si256(), mid = lo, hi = lo;
  /* The pair that carries the state last, so the chain from acc is one multiply and one add. */
  for (int j = 1; j < 8; j++) mul2(load_ct(src, j, rev), p[j], &lo, &mid, &hi);
  mul2(_mm256_xor_si256(load_ct(src, 0, rev), _mm256_zextsi128_si256(acc)), p[0], &lo, &mid, &hi);
  return ghash_clmul_reduce(fold2(lo), fold2(mid), fold2(hi));
}

/* one_pass runs the pass at |src| -> |dst| on the counters from |*base| and returns the GHASH
 * state; |hash| (a constant where it is inlined) is false only for encryption's first pass. */
/* Forced inlining makes the constant direction and round count unroll; unoptimized builds
 * (which unroll nothing) keep one copy of each helper, whose frame there is large enough. */
#if defined(__OPTIMIZE__)
#define GCM256_INLINE GCM256_FN static inline __attribute__((always_inline))
#else
#define GCM256_INLINE GCM256_FN static inline
#endif
GCM256_INLINE __m128i one_pass(const __m256i *k, const __m256i p[8], __m256i *basep, __m128i acc,
                               const uint8_t *src, uint8_t *dst, const int hash,
                               const int decrypt, const unsigned nr) {
  const __m256i swap = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)k_swap32));
  const __m256i rev = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)k_rev16));
  const __m256i inc2 = _mm256_set_epi32(2, 0, 0, 0, 2, 0, 0, 0);
  __m256i base = *basep;
  /* The ciphertext this pass hashes: its own (decryption) or the previous pass's output. */
  const uint8_t *hsrc = decrypt ? src : dst - 256;
  __m256i x[8];
  AES_UNROLL
  for (int j = 0; j < 8; j++) {
    x[j] = _mm256_xor_si256(_mm256_shuffle_epi8(base, swap), k[0]);
    base = _mm256_add_epi32(base, inc2);
  }
  /* The rounds, with the GHASH of 16 blocks in the same stream: one pair of blocks in each of
   * rounds 1..8. All of the pass's ciphertext is read before any of its output is stored. */
  __m256i lo = _mm256_setzero_si256(), mid = lo, hi = lo;
  AES_UNROLL
  for (unsigned i = 1; i < GCM256_COMMON_ROUNDS; i++) {
    AES_UNROLL
    for (int j = 0; j < 8; j++) x[j] = _mm256_aesenc_epi128(x[j], k[i]);
    if (hash && i <= 8) {
      const int j = (int)(i % 8);
      __m256i g = load_ct(hsrc, j, rev);
      if (j == 0) g = _mm256_xor_si256(g, _mm256_zextsi128_si256(acc));
      mul2(g, p[j], &lo, &mid, &hi);
    }
  }
  /* AES-192 and AES-256's further rounds: a short loop on the public round count. */
  for (unsigned i = GCM256_COMMON_ROUNDS; i < nr; i++) {
    AES_UNROLL
    for (int j = 0; j < 8; j++) x[j] = _mm256_aesenc_epi128(x[j], k[i]);
  }
  AES_UNROLL
  for (int j = 0; j < 8; j++) x[j] = _mm256_aesenclast_epi128(x[j], k[nr]);
  if (hash) acc = ghash_clmul_reduce(fold2(lo), fold2(mid), fold2(hi));
  AES_UNROLL
  for (int j = 0; j < 8; j++) {
    /* Block j's input is read before block j's output is written: in place is safe. */
    const __m256i d = _mm256_loadu_si256((const __m256i *)(src + 32 * j));
    _mm256_storeu_si256((__m256i *)(dst + 32 * j), _mm256_xor_si256(x[j], d));
  }
  *basep = base;
  return acc;
}

/* wipe_ymm zeroes the |n| vectors of |a| (a constant where it is inlined) with aligned 32-byte
 * stores from inline asm, which the compiler may neither drop nor turn into a memset call: as
 * fm_zeroize does, in a few stores rather than a string instruction's start-up. */
GCM256_INLINE void wipe_ymm(__m256i *a, const unsigned n) {
  const __m256i z = _mm256_setzero_si256();
  AES_UNROLL
  for (unsigned i = 0; i < n; i++) __asm__ __volatile__("vmovdqa %1, %0" : "=m"(a[i]) : "x"(z));
}

GCM256_INLINE size_t crypt_nr(const aes_ks *ks, const ghash_key *gk, uint8_t ctr[16],
                              uint64_t y[2], const uint8_t *in, uint8_t *out, size_t nblocks,
                              const int decrypt, const unsigned nr) {
  const size_t passes = nblocks / 16;
  if (passes == 0) return 0;
  const __m128i *rk = (const __m128i *)ks->words;
  __m256i k[15], p[8];
  /* All fifteen slots, whatever the key size (the schedule always has room for them): a loop of
   * constant length unrolls; the rounds read k[0..nr] only. */
  AES_UNROLL
  for (unsigned i = 0; i < 15; i++) k[i] = _mm256_broadcastsi128_si256(_mm_loadu_si128(rk + i));
  /* Powers H'^16..H'^1 two per register, in block order (hdesc[j] = H'^(16 - j)). */
  for (int j = 0; j < 8; j++) p[j] = _mm256_loadu_si256((const __m256i *)gk->hdesc[2 * j]);
  const __m256i swap = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)k_swap32));
  const __m256i rev = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)k_rev16));
  /* Lane 0 holds ctr, lane 1 ctr + 1 (inc32), in the working form. */
  __m256i base = _mm256_shuffle_epi8(
      _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)ctr)), swap);
  base = _mm256_add_epi32(base, _mm256_set_epi32(1, 0, 0, 0, 0, 0, 0, 0));
  __m128i acc = _mm_loadu_si128((const __m128i *)y);

  /* Encryption's first pass hashes nothing (its ciphertext does not exist yet). */
  size_t pass = 0;
  if (!decrypt) {
    acc = one_pass(k, p, &base, acc, in, out, 0, 0, nr);
    pass = 1;
  }
  for (; pass < passes; pass++) {
    acc = one_pass(k, p, &base, acc, in + 256 * pass, out + 256 * pass, 1, decrypt, nr);
  }
  /* Encryption: the last pass's ciphertext. */
  if (!decrypt) acc = ghash16(out + 256 * (passes - 1), acc, p, rev);
  _mm_storeu_si128((__m128i *)y, acc);
  aes_ctr_store(ctr, aes_ctr_add(aes_ctr_load(ctr), 16 * passes, 32));
  wipe_ymm(k, 15);
  wipe_ymm(p, 8);
  return 16 * passes;
}

/* One function per direction, for the three key sizes: the direction is fixed and the rounds
 * every key size has are unrolled (the round count is read at run time). */
#define GCM256_KERNEL(name, dec)                                                                \
  GCM256_FN __attribute__((noinline)) static size_t name(                                       \
      const aes_ks *ks, const ghash_key *gk, uint8_t ctr[16], uint64_t y[2], const uint8_t *in, \
      uint8_t *out, size_t nblocks) {                                                           \
    return crypt_nr(ks, gk, ctr, y, in, out, nblocks, dec, ks->rounds);                         \
  }
GCM256_KERNEL(encrypt_pass, 0)
GCM256_KERNEL(decrypt_pass, 1)

GCM256_FN size_t gcm_vaes256_crypt(const aes_ks *ks, const ghash_key *gk, uint8_t ctr[16],
                                   uint64_t y[2], const uint8_t *in, uint8_t *out, size_t nblocks,
                                   int decrypt) {
  return decrypt ? decrypt_pass(ks, gk, ctr, y, in, out, nblocks)
                 : encrypt_pass(ks, gk, ctr, y, in, out, nblocks);
}
