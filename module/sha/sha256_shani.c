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
#define ROUNDS4(m, g)                                                                     \
  do {                                                                                    \
    __m128i wk_ = _mm_add_epi32((m), _mm_load_si128((const __m128i *)(k256_x4 + 4 * (g)))); \
    cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk_);                                        \
    abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk_, 0x0e));               \
  } while (0)

/* W[t..t+3] from m0 = W[t-16..t-13], m1 = W[t-12..t-9], m2 = W[t-8..t-5], m3 = W[t-4..t-1];
 * the result replaces m0. alignr(m3, m2, 4) is W[t-7..t-4]. */
#define SCHEDULE(m0, m1, m2, m3)                                                              \
  (m0) = _mm_sha256msg2_epu32(                                                                \
      _mm_add_epi32(_mm_sha256msg1_epu32((m0), (m1)), _mm_alignr_epi8((m3), (m2), 4)), (m3))

/* h[0..3] = {A,B,C,D} and h[4..7] = {E,F,G,H} (lane 0 first) become the register pair
 * abef = {F,E,B,A} and cdgh = {H,G,D,C} (lane 0 first) that sha256rnds2 works on. */
#define LOAD_STATE(h, abef, cdgh)                                 \
  do {                                                            \
    __m128i dcba_ = _mm_loadu_si128((const __m128i *)(h));        \
    __m128i hgfe_ = _mm_loadu_si128((const __m128i *)((h) + 4));  \
    __m128i cdab_ = _mm_shuffle_epi32(dcba_, 0xb1);               \
    __m128i efgh_ = _mm_shuffle_epi32(hgfe_, 0x1b);               \
    (abef) = _mm_alignr_epi8(cdab_, efgh_, 8);                    \
    (cdgh) = _mm_blend_epi16(efgh_, cdab_, 0xf0);                 \
  } while (0)

/* Back to {A,B,C,D}, {E,F,G,H}. */
#define STORE_STATE(h, abef, cdgh)                                          \
  do {                                                                      \
    __m128i feba_ = _mm_shuffle_epi32((abef), 0x1b);                        \
    __m128i dchg_ = _mm_shuffle_epi32((cdgh), 0xb1);                        \
    _mm_storeu_si128((__m128i *)(h), _mm_blend_epi16(feba_, dchg_, 0xf0));  \
    _mm_storeu_si128((__m128i *)((h) + 4), _mm_alignr_epi8(dchg_, feba_, 8)); \
  } while (0)

SHANI_TARGET void sha256_blocks_shani(uint32_t h[8], const uint8_t *p, size_t nblocks) {
  /* Big-endian words: reverse the bytes within each 32-bit lane. */
  const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);

  __m128i abef, cdgh;
  LOAD_STATE(h, abef, cdgh);

  while (nblocks-- > 0) {
    const __m128i abef0 = abef, cdgh0 = cdgh;
    __m128i m0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 0)), bswap);
    __m128i m1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16)), bswap);
    __m128i m2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 32)), bswap);
    __m128i m3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 48)), bswap);

    ROUNDS4(m0, 0);
    ROUNDS4(m1, 1);
    ROUNDS4(m2, 2);
    ROUNDS4(m3, 3);
    SCHEDULE(m0, m1, m2, m3);
    ROUNDS4(m0, 4);
    SCHEDULE(m1, m2, m3, m0);
    ROUNDS4(m1, 5);
    SCHEDULE(m2, m3, m0, m1);
    ROUNDS4(m2, 6);
    SCHEDULE(m3, m0, m1, m2);
    ROUNDS4(m3, 7);
    SCHEDULE(m0, m1, m2, m3);
    ROUNDS4(m0, 8);
    SCHEDULE(m1, m2, m3, m0);
    ROUNDS4(m1, 9);
    SCHEDULE(m2, m3, m0, m1);
    ROUNDS4(m2, 10);
    SCHEDULE(m3, m0, m1, m2);
    ROUNDS4(m3, 11);
    SCHEDULE(m0, m1, m2, m3);
    ROUNDS4(m0, 12);
    SCHEDULE(m1, m2, m3, m0);
    ROUNDS4(m1, 13);
    SCHEDULE(m2, m3, m0, m1);
    ROUNDS4(m2, 14);
    SCHEDULE(m3, m0, m1, m2);
    ROUNDS4(m3, 15);

    /* FIPS 180-4 6.2.2 step 4, lane-wise on the split state. */
    abef = _mm_add_epi32(abef, abef0);
    cdgh = _mm_add_epi32(cdgh, cdgh0);
    p += SHA256_BLOCK_LEN;
  }

  STORE_STATE(h, abef, cdgh);
  /* The state and the message schedule (derived from the block, which may be an HMAC key pad)
   * are still in xmm0-15: clear them, so that no later spill (a lazy-binding trampoline, a signal
   * frame) writes them to memory. SSE encodings (module/internal.h; vzeroall needs AVX, which a
   * SHA-NI CPU may lack); the kernel never touches the upper halves of ymm registers. */
  fm_clear_sse_registers();
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

/* The 64 rounds on the message groups m0..m3 (W[0..15]), state abef/cdgh, without the final
 * addition. */
#define ROUNDS64(m0, m1, m2, m3) \
  do {                           \
    ROUNDS4(m0, 0);              \
    ROUNDS4(m1, 1);              \
    ROUNDS4(m2, 2);              \
    ROUNDS4(m3, 3);              \
    SCHEDULE(m0, m1, m2, m3);    \
    ROUNDS4(m0, 4);              \
    SCHEDULE(m1, m2, m3, m0);    \
    ROUNDS4(m1, 5);              \
    SCHEDULE(m2, m3, m0, m1);    \
    ROUNDS4(m2, 6);              \
    SCHEDULE(m3, m0, m1, m2);    \
    ROUNDS4(m3, 7);              \
    SCHEDULE(m0, m1, m2, m3);    \
    ROUNDS4(m0, 8);              \
    SCHEDULE(m1, m2, m3, m0);    \
    ROUNDS4(m1, 9);              \
    SCHEDULE(m2, m3, m0, m1);    \
    ROUNDS4(m2, 10);             \
    SCHEDULE(m3, m0, m1, m2);    \
    ROUNDS4(m3, 11);             \
    SCHEDULE(m0, m1, m2, m3);    \
    ROUNDS4(m0, 12);             \
    SCHEDULE(m1, m2, m3, m0);    \
    ROUNDS4(m1, 13);             \
    SCHEDULE(m2, m3, m0, m1);    \
    ROUNDS4(m2, 14);             \
    SCHEDULE(m3, m0, m1, m2);    \
    ROUNDS4(m3, 15);             \
  } while (0)

/* compress_digest runs one compression from the split state s_abef/s_cdgh of the block
 * w0 || w1 || pad (w0 = W[0..3], w1 = W[4..7]) and leaves the digest's words A..D in *w0 and
 * E..H in *w1. */
SHANI_TARGET static inline void compress_digest(__m128i s_abef, __m128i s_cdgh, __m128i *w0,
                                                __m128i *w1) {
  __m128i abef = s_abef, cdgh = s_cdgh;
  __m128i m0 = *w0, m1 = *w1;
  __m128i m2 = _mm_load_si128((const __m128i *)k_pbkdf2_pad);
  __m128i m3 = _mm_load_si128((const __m128i *)(k_pbkdf2_pad + 4));
  ROUNDS64(m0, m1, m2, m3);
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
