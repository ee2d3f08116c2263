/* SHA-256 compression with the x86 SHA extensions (SHA-NI).
 *
 * sha256rnds2 runs two rounds on a state split across two registers, {A,B,E,F} and {C,D,G,H},
 * taking the two W[t] + K[t] sums from the low half of its third operand. Four rounds are one
 * pair of sha256rnds2 on a 4-word group of W + K. The message schedule (FIPS 180-4 6.2.2
 * step 1) is built four words at a time: sha256msg1 adds SSIG0(W[t-15]) to W[t-16], the caller
 * adds W[t-7] (a byte shift across two groups), and sha256msg2 adds SSIG1(W[t-2]), feeding the
 * two words it has just made back in for the upper pair.
 *
 * Constant time: the instructions' timing does not depend on their data, and there are no
 * data-dependent branches or memory indices. */
#include <immintrin.h>

#include "module/internal.h"
#include "module/sha/internal.h"

#define SHANI_TARGET __attribute__((target("sha,sse4.1")))

/* The round constants of FIPS 180-4 4.2.2, four to a vector (lane 0 = lowest t). */
static const _Alignas(16) uint32_t k256_x4[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

/* Four rounds t = 4g .. 4g+3 on the message group |m|: the first sha256rnds2 takes W+K of the
 * low two lanes, the second the high two (moved down by the shuffle). The roles of the two state
 * registers swap after each sha256rnds2, which the pair undoes. */
#define ROUNDS4(abef, cdgh, m, g)                                                           \
  do {                                                                                      \
    __m128i wk_ = _mm_add_epi32((m), _mm_load_si128((const __m128i *)(k256_x4 + 4 * (g)))); \
    (cdgh) = _mm_sha256rnds2_epu32((cdgh), (abef), wk_);                                    \
    (abef) = _mm_sha256rnds2_epu32((abef), (cdgh), _mm_shuffle_epi32(wk_, 0x0e));           \
  } while (0)

/* W[t..t+3] from m0 = W[t-16..t-13], m1 = W[t-12..t-9], m2 = W[t-8..t-5], m3 = W[t-4..t-1];
 * the result replaces m0. alignr(m3, m2, 4) is W[t-7..t-4]. */
#define SCHEDULE(m0, m1, m2, m3) \
  (m0) = _mm_sha256msg2_epu32(   \
      _mm_add_epi32(_mm_sha256msg1_epu32((m0), (m1)), _mm_alignr_epi8((m3), (m2), 4)), (m3))

/* h[0..3] = {A,B,C,D} and h[4..7] = {E,F,G,H} (lane 0 first) become the register pair
 * abef = {F,E,B,A} and cdgh = {H,G,D,C} (lane 0 first) that sha256rnds2 works on. */
#define LOAD_STATE(h, abef, cdgh)                                \
  do {                                                           \
    __m128i dcba_ = _mm_loadu_si128((const __m128i *)(h));       \
    __m128i hgfe_ = _mm_loadu_si128((const __m128i *)((h) + 4)); \
    __m128i cdab_ = _mm_shuffle_epi32(dcba_, 0xb1);              \
    __m128i efgh_ = _mm_shuffle_epi32(hgfe_, 0x1b);              \
    (abef) = _mm_alignr_epi8(cdab_, efgh_, 8);                   \
    (cdgh) = _mm_blend_epi16(efgh_, cdab_, 0xf0);                \
  } while (0)

/* Back to {A,B,C,D}, {E,F,G,H}. */
#define STORE_STATE(h, abef, cdgh)                                            \
  do {                                                                        \
    __m128i feba_ = _mm_shuffle_epi32((abef), 0x1b);                          \
    __m128i dchg_ = _mm_shuffle_epi32((cdgh), 0xb1);                          \
    _mm_storeu_si128((__m128i *)(h), _mm_blend_epi16(feba_, dchg_, 0xf0));    \
    _mm_storeu_si128((__m128i *)((h) + 4), _mm_alignr_epi8(dchg_, feba_, 8)); \
  } while (0)

/* The 64 rounds on the message groups m0..m3 (W[0..15]), state abef/cdgh, without the final
 * addition. */
#define ROUNDS64(abef, cdgh, m0, m1, m2, m3) \
  do {                                       \
    ROUNDS4(abef, cdgh, m0, 0);              \
    ROUNDS4(abef, cdgh, m1, 1);              \
    ROUNDS4(abef, cdgh, m2, 2);              \
    ROUNDS4(abef, cdgh, m3, 3);              \
    SCHEDULE(m0, m1, m2, m3);                \
    ROUNDS4(abef, cdgh, m0, 4);              \
    SCHEDULE(m1, m2, m3, m0);                \
    ROUNDS4(abef, cdgh, m1, 5);              \
    SCHEDULE(m2, m3, m0, m1);                \
    ROUNDS4(abef, cdgh, m2, 6);              \
    SCHEDULE(m3, m0, m1, m2);                \
    ROUNDS4(abef, cdgh, m3, 7);              \
    SCHEDULE(m0, m1, m2, m3);                \
    ROUNDS4(abef, cdgh, m0, 8);              \
    SCHEDULE(m1, m2, m3, m0);                \
    ROUNDS4(abef, cdgh, m1, 9);              \
    SCHEDULE(m2, m3, m0, m1);                \
    ROUNDS4(abef, cdgh, m2, 10);             \
    SCHEDULE(m3, m0, m1, m2);                \
    ROUNDS4(abef, cdgh, m3, 11);             \
    SCHEDULE(m0, m1, m2, m3);                \
    ROUNDS4(abef, cdgh, m0, 12);             \
    SCHEDULE(m1, m2, m3, m0);                \
    ROUNDS4(abef, cdgh, m1, 13);             \
    SCHEDULE(m2, m3, m0, m1);                \
    ROUNDS4(abef, cdgh, m2, 14);             \
    SCHEDULE(m3, m0, m1, m2);                \
    ROUNDS4(abef, cdgh, m3, 15);             \
  } while (0)

/* One compression on the byte-swapped message groups m0..m3 (W[0..15]): the 64 rounds, then
 * FIPS 180-4 6.2.2 step 4, lane-wise on the split state. */
#define COMPRESS(abef, cdgh, m0, m1, m2, m3)        \
  do {                                              \
    const __m128i abef0_ = (abef), cdgh0_ = (cdgh); \
    ROUNDS64(abef, cdgh, m0, m1, m2, m3);           \
    (abef) = _mm_add_epi32((abef), abef0_);         \
    (cdgh) = _mm_add_epi32((cdgh), cdgh0_);         \
  } while (0)

/* COMPRESS_BLOCK: COMPRESS on the 64 bytes at |p|, big-endian words. */
#define COMPRESS_BLOCK(abef, cdgh, p, bswap)                                             \
  do {                                                                                   \
    __m128i b0_ = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)((p) + 0)), bswap);  \
    __m128i b1_ = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)((p) + 16)), bswap); \
    __m128i b2_ = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)((p) + 32)), bswap); \
    __m128i b3_ = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)((p) + 48)), bswap); \
    COMPRESS(abef, cdgh, b0_, b1_, b2_, b3_);                                            \
  } while (0)

SHANI_TARGET void sha256_blocks_shani(uint32_t h[8], const uint8_t *p, size_t nblocks) {
  /* Big-endian words: reverse the bytes within each 32-bit lane. */
  const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);

  __m128i abef, cdgh;
  LOAD_STATE(h, abef, cdgh);

  for (; nblocks > 0; nblocks--, p += SHA256_BLOCK_LEN) COMPRESS_BLOCK(abef, cdgh, p, bswap);

  STORE_STATE(h, abef, cdgh);
  /* The state and the message schedule (derived from the block, which may be an HMAC key pad)
   * are still in xmm0-15: clear them, so that no later spill (a lazy-binding trampoline, a signal
   * frame) writes them to memory. SSE encodings (module/internal.h; vzeroall needs AVX, which a
   * SHA-NI CPU may lack); the kernel never touches the upper halves of ymm registers. */
  fm_clear_sse_registers();
}

/* ---- Final blocks in registers --------------------------------------------------------------
 * sha256_shani_final, sha256_shani_hmac and sha256_shani_hmac_final end a hash with the state in
 * registers: the whole blocks, then the tail and its padding built in one 512-bit register (a
 * masked byte load of the tail: the masked-off bytes are neither read nor faulted on; 0x80 merged
 * in after it; the bit count in the last eight bytes), then the big-endian digest straight from
 * the state registers to |out|. Nothing goes through a stack buffer: sha256.c's padding block is
 * written with narrow stores, which the compression's 16-byte loads cannot take from the store
 * buffer; those loads wait until the stores retire, and with them everything before them, so
 * that back-to-back short hashes ran one after the other instead of overlapping (a 16-byte
 * SHA-256 in a loop: 172 -> 94 TSC ticks a call on this host). */

#define AVX512_TARGET __attribute__((target("sha,sse4.1,avx512f,avx512vl,avx512bw")))

/* The four 16-byte groups of |v| (words already byte-swapped) as message groups, compressed. */
#define COMPRESS_ZMM(abef, cdgh, v)                \
  do {                                             \
    __m128i z0_ = _mm512_castsi512_si128(v);       \
    __m128i z1_ = _mm512_extracti32x4_epi32(v, 1); \
    __m128i z2_ = _mm512_extracti32x4_epi32(v, 2); \
    __m128i z3_ = _mm512_extracti32x4_epi32(v, 3); \
    COMPRESS(abef, cdgh, z0_, z1_, z2_, z3_);      \
  } while (0)

/* compress_rest compresses the last |len| bytes at |p| of a |total|-byte message (total >= len):
 * the whole blocks in place, then the tail with FIPS 180-4 5.1.1's padding (0x80, zeros, the
 * 64-bit big-endian bit count ending a block; a second block when the tail leaves fewer than 9
 * bytes). */
AVX512_TARGET static inline __attribute__((always_inline)) void compress_rest(
    __m128i *abef_io, __m128i *cdgh_io, const uint8_t *p, size_t len, uint64_t total) {
  const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
  __m128i abef = *abef_io, cdgh = *cdgh_io;
  const size_t tail = len % SHA256_BLOCK_LEN;
  for (size_t n = len / SHA256_BLOCK_LEN; n > 0; n--, p += SHA256_BLOCK_LEN) {
    COMPRESS_BLOCK(abef, cdgh, p, bswap);
  }
  const __mmask64 have = tail == 0 ? 0 : ~0ull >> (64 - tail);
  __m512i v = _mm512_maskz_loadu_epi8(have, p);
  v = _mm512_mask_mov_epi8(v, (__mmask64)1 << tail, _mm512_set1_epi8((char)0x80));
  v = _mm512_shuffle_epi8(v, _mm512_broadcast_i32x4(bswap));
  /* The bit count as the words W[14] (its high half) and W[15] (its low half): qword 7. */
  const uint64_t bits = total << 3;
  const __m512i count = _mm512_set1_epi64((long long)((bits >> 32) | (bits << 32)));
  if (tail < SHA256_BLOCK_LEN - 8) {
    v = _mm512_mask_mov_epi64(v, 0x80, count);
    COMPRESS_ZMM(abef, cdgh, v);
  } else {
    COMPRESS_ZMM(abef, cdgh, v);
    v = _mm512_maskz_mov_epi64(0x80, count);
    COMPRESS_ZMM(abef, cdgh, v);
  }
  *abef_io = abef;
  *cdgh_io = cdgh;
}

/* digest_words undoes the state split in registers (STORE_STATE's shuffles): A..D in *w0 and
 * E..H in *w1, lane 0 first, as words. */
SHANI_TARGET static inline __attribute__((always_inline)) void digest_words(__m128i abef,
                                                                           __m128i cdgh,
                                                                           __m128i *w0,
                                                                           __m128i *w1) {
  const __m128i feba = _mm_shuffle_epi32(abef, 0x1b);
  const __m128i dchg = _mm_shuffle_epi32(cdgh, 0xb1);
  *w0 = _mm_blend_epi16(feba, dchg, 0xf0);
  *w1 = _mm_alignr_epi8(dchg, feba, 8);
}

/* store_digest writes the first |out_len| (32 or 28) bytes of the big-endian digest. */
AVX512_TARGET static inline __attribute__((always_inline)) void store_digest(uint8_t *out,
                                                                            __m128i w0,
                                                                            __m128i w1,
                                                                            size_t out_len) {
  const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
  _mm_storeu_si128((__m128i *)out, _mm_shuffle_epi8(w0, bswap));
  _mm_mask_storeu_epi8(out + 16, (__mmask16)(out_len == 32 ? 0xffff : 0x0fff),
                       _mm_shuffle_epi8(w1, bswap));
}

AVX512_TARGET void sha256_shani_final(const uint32_t h[8], const uint8_t *p, size_t len,
                                      uint64_t total, uint8_t *out, size_t out_len) {
  __m128i abef, cdgh, w0, w1;
  LOAD_STATE(h, abef, cdgh);
  compress_rest(&abef, &cdgh, p, len, total);
  digest_words(abef, cdgh, &w0, &w1);
  store_digest(out, w0, w1, out_len);
  /* The state, the message schedule and the tail (which may be key material) are in vector
   * registers, some of them 512-bit ones: all 32 are cleared. */
  fm_clear_avx512_registers();
}

/* hmac_finish ends HMAC (FIPS 198-1 steps 6 and 9) from the keyed states: the inner hash over
 * the last |len| bytes at |p| of its |total|-byte input (the key block included), then the outer
 * hash over the |dlen|-byte inner digest, one block with its padding; |dlen| bytes of tag to
 * |out|. */
AVX512_TARGET static inline __attribute__((always_inline)) void hmac_finish(
    __m128i in_abef, __m128i in_cdgh, __m128i out_abef, __m128i out_cdgh, const uint8_t *p,
    size_t len, uint64_t total, uint8_t *out, size_t dlen) {
  compress_rest(&in_abef, &in_cdgh, p, len, total);
  __m128i m0, m1;
  digest_words(in_abef, in_cdgh, &m0, &m1);
  if (dlen == 28) m1 = _mm_insert_epi32(m1, (int)0x80000000u, 3);
  __m128i m2 = _mm_set_epi32(0, 0, 0, dlen == 28 ? 0 : (int)0x80000000u);
  __m128i m3 = _mm_set_epi32((int)((SHA256_BLOCK_LEN + dlen) * 8), 0, 0, 0);
  COMPRESS(out_abef, out_cdgh, m0, m1, m2, m3);
  digest_words(out_abef, out_cdgh, &m0, &m1);
  store_digest(out, m0, m1, dlen);
}

AVX512_TARGET void sha256_shani_hmac(const uint32_t iv[8], const uint8_t *k0, size_t k0_len,
                                     const uint8_t *p, size_t len, uint8_t *out, size_t dlen) {
  const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
  /* FIPS 198-1 section 4, steps 3-5 and 7-8's first blocks: K0 (zero-padded to a block) xor
   * ipad and xor opad, each compressed from the initial value. */
  const __m512i key = _mm512_shuffle_epi8(
      _mm512_maskz_loadu_epi8(k0_len == 0 ? 0 : ~0ull >> (64 - k0_len), k0),
      _mm512_broadcast_i32x4(bswap));
  __m128i in_abef, in_cdgh, out_abef, out_cdgh;
  LOAD_STATE(iv, in_abef, in_cdgh);
  out_abef = in_abef;
  out_cdgh = in_cdgh;
  __m512i pad = _mm512_xor_si512(key, _mm512_set1_epi8(0x36));
  COMPRESS_ZMM(in_abef, in_cdgh, pad);
  pad = _mm512_xor_si512(key, _mm512_set1_epi8(0x5c));
  COMPRESS_ZMM(out_abef, out_cdgh, pad);
  hmac_finish(in_abef, in_cdgh, out_abef, out_cdgh, p, len, (uint64_t)len + SHA256_BLOCK_LEN, out,
              dlen);
  /* The keyed states, the pads and the text's tail are in vector registers: all 32 cleared. */
  fm_clear_avx512_registers();
}

AVX512_TARGET void sha256_shani_hmac_final(const uint32_t inner[8], const uint32_t outer[8],
                                           const uint8_t *p, size_t len, uint64_t total,
                                           uint8_t *out, size_t dlen) {
  __m128i in_abef, in_cdgh, out_abef, out_cdgh;
  LOAD_STATE(inner, in_abef, in_cdgh);
  LOAD_STATE(outer, out_abef, out_cdgh);
  hmac_finish(in_abef, in_cdgh, out_abef, out_cdgh, p, len, total, out, dlen);
  fm_clear_avx512_registers();
}

/* ---- PBKDF2's iteration --------------------------------------------------------------------
 * sha256_shani_pbkdf2_iterate is hmac.c's iterate256 with the states kept in registers: U_j is
 * one compression from the keyed inner state of the block U_{j-1} || pad and one from the keyed
 * outer state of the block (inner digest) || pad, the pad the same both times (0x80, zeros, the
 * length (64 + 32) * 8 bits). A 32-byte digest is eight message words, so the digest moves from
 * one compression to the next as two registers (the state split undone in registers), with no
 * byte order change and nothing written to memory; T accumulates in word form. */

/* The pad's message words W[8..15]: 0x80000000, six zeros, 768. */
static const _Alignas(16) uint32_t k_pbkdf2_pad[8] = {0x80000000u, 0, 0, 0, 0, 0, 0, 768};


/* compress_digest runs one compression from the split state s_abef/s_cdgh of the block
 * w0 || w1 || pad (w0 = W[0..3], w1 = W[4..7]) and leaves the digest's words A..D in *w0 and
 * E..H in *w1. */
SHANI_TARGET static inline void compress_digest(__m128i s_abef, __m128i s_cdgh, __m128i *w0,
                                                __m128i *w1) {
  __m128i abef = s_abef, cdgh = s_cdgh;
  __m128i m0 = *w0, m1 = *w1;
  __m128i m2 = _mm_load_si128((const __m128i *)k_pbkdf2_pad);
  __m128i m3 = _mm_load_si128((const __m128i *)(k_pbkdf2_pad + 4));
  ROUNDS64(abef, cdgh, m0, m1, m2, m3);
  abef = _mm_add_epi32(abef, s_abef);
  cdgh = _mm_add_epi32(cdgh, s_cdgh);
  /* STORE_STATE's shuffles, into registers. */
  const __m128i feba = _mm_shuffle_epi32(abef, 0x1b);
  const __m128i dchg = _mm_shuffle_epi32(cdgh, 0xb1);
  *w0 = _mm_blend_epi16(feba, dchg, 0xf0);
  *w1 = _mm_alignr_epi8(dchg, feba, 8);
}

SHANI_TARGET void sha256_shani_pbkdf2_iterate(const uint32_t inner[8], const uint32_t outer[8],
                                              uint8_t u[32], uint8_t t[32], uint64_t count) {
  const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
  __m128i in_abef, in_cdgh, out_abef, out_cdgh;
  LOAD_STATE(inner, in_abef, in_cdgh);
  LOAD_STATE(outer, out_abef, out_cdgh);
  __m128i w0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)u), bswap);
  __m128i w1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(u + 16)), bswap);
  __m128i t0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)t), bswap);
  __m128i t1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(t + 16)), bswap);
  for (uint64_t j = 0; j < count; j++) {
    compress_digest(in_abef, in_cdgh, &w0, &w1);
    compress_digest(out_abef, out_cdgh, &w0, &w1);
    t0 = _mm_xor_si128(t0, w0);
    t1 = _mm_xor_si128(t1, w1);
  }
  _mm_storeu_si128((__m128i *)u, _mm_shuffle_epi8(w0, bswap));
  _mm_storeu_si128((__m128i *)(u + 16), _mm_shuffle_epi8(w1, bswap));
  _mm_storeu_si128((__m128i *)t, _mm_shuffle_epi8(t0, bswap));
  _mm_storeu_si128((__m128i *)(t + 16), _mm_shuffle_epi8(t1, bswap));
  /* Keyed states, U and T are in xmm0-15: cleared as in sha256_blocks_shani. */
  fm_clear_sse_registers();
}

/* sha256_shani_pbkdf2_iterate2 is sha256_shani_pbkdf2_iterate on two independent blocks (U, T)
 * at once: the two chains' compressions alternate, so one runs in the other's latency. */
SHANI_TARGET void sha256_shani_pbkdf2_iterate2(const uint32_t inner[8], const uint32_t outer[8],
                                               uint8_t ua[32], uint8_t ta[32], uint8_t ub[32],
                                               uint8_t tb[32], uint64_t count) {
  const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
  __m128i in_abef, in_cdgh, out_abef, out_cdgh;
  LOAD_STATE(inner, in_abef, in_cdgh);
  LOAD_STATE(outer, out_abef, out_cdgh);
  __m128i a0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)ua), bswap);
  __m128i a1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(ua + 16)), bswap);
  __m128i b0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)ub), bswap);
  __m128i b1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(ub + 16)), bswap);
  __m128i sa0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)ta), bswap);
  __m128i sa1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(ta + 16)), bswap);
  __m128i sb0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)tb), bswap);
  __m128i sb1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(tb + 16)), bswap);
  for (uint64_t j = 0; j < count; j++) {
    compress_digest(in_abef, in_cdgh, &a0, &a1);
    compress_digest(in_abef, in_cdgh, &b0, &b1);
    compress_digest(out_abef, out_cdgh, &a0, &a1);
    compress_digest(out_abef, out_cdgh, &b0, &b1);
    sa0 = _mm_xor_si128(sa0, a0);
    sa1 = _mm_xor_si128(sa1, a1);
    sb0 = _mm_xor_si128(sb0, b0);
    sb1 = _mm_xor_si128(sb1, b1);
  }
  _mm_storeu_si128((__m128i *)ua, _mm_shuffle_epi8(a0, bswap));
  _mm_storeu_si128((__m128i *)(ua + 16), _mm_shuffle_epi8(a1, bswap));
  _mm_storeu_si128((__m128i *)ub, _mm_shuffle_epi8(b0, bswap));
  _mm_storeu_si128((__m128i *)(ub + 16), _mm_shuffle_epi8(b1, bswap));
  _mm_storeu_si128((__m128i *)ta, _mm_shuffle_epi8(sa0, bswap));
  _mm_storeu_si128((__m128i *)(ta + 16), _mm_shuffle_epi8(sa1, bswap));
  _mm_storeu_si128((__m128i *)tb, _mm_shuffle_epi8(sb0, bswap));
  _mm_storeu_si128((__m128i *)(tb + 16), _mm_shuffle_epi8(sb1, bswap));
  /* Keyed states, both U and both T are in xmm0-15 (and in the frame where the compiler spilled
   * them, under the KDF's stack wipe): the registers are cleared as in sha256_blocks_shani. */
  fm_clear_sse_registers();
}
