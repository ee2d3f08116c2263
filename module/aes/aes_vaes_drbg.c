/* The AES-256 CTR_DRBG's short generate (up to four output blocks) on 256-bit VAES registers,
 * with the key schedule expanded on the fly.
 *
 * Why on the fly, and why this form of the expansion. Each generate request ends with a new Key
 * (the update), and the next request cannot finish before that Key's whole schedule exists: a
 * chain of 13 expansion steps, one S-box lookup each, between one request's last AES round and the
 * next one's. The usual step (shuffle word 3 into a broadcast, aesenclast, xor) costs a round trip
 * between the shuffle and AES units on every step; that round trip, not the AES rounds, set the
 * time of a 16-byte draw. Here the only values on the chain are broadcasts of word 3 of each
 * round key, kept in the rotation the next step needs, so one step is one aesenclast:
 *
 *   Write W(i) for word 3 of round key i, B_k(x) for the word x rotated left by k bytes (RotWord
 *   applied k times) copied into all four columns, and X(i) for the XOR of the four words of
 *   round key i. FIPS 197 5.2 for Nk = 8 gives W(i) = X(i-2) ^ SubWord(RotWord(W(i-1))) ^ Rcon
 *   for even i and W(i) = X(i-2) ^ SubWord(W(i-1)) for odd i. SubWord commutes with rotations and
 *   aesenclast on a broadcast is SubWord in every column (ShiftRows moves nothing), so
 *     Q(i) = B_k(i)(W(i)) = aesenclast(Q(i-1), B_k(i)(X(i-2) [^ Rcon]))
 *   with k(i) = (3 - i/2) mod 4: one rotation per even step, taken from the rotation the chain
 *   already carries. The key operand is off the chain because X(i-2) = w1 ^ w3 of round key
 *   i-4 (the four broadcast S-box terms of round key i-2 cancel), which is word 3 of
 *   P2(i-4) = rk(i-4) ^ (rk(i-4) << 64).
 *   The round keys themselves follow from the same aesenclast with a zero (or Rcon) key, turned
 *   back to the canonical rotation, through rk(i) = prefix(rk(i-2)) ^ S(i), where
 *   prefix(rk(i-2)) = P2(i-4) ^ (S(i-2) & (1,0,1,0)) avoids a serial four-word prefix XOR.
 *
 * Every value is a broadcast over both 128-bit lanes, so the round keys are ready for the blocks,
 * two per register. Key, V, the round keys and the blocks are secret and never select a branch,
 * an address or a shuffle pattern (the patterns depend on the public step number only). */
#include <immintrin.h>
#include <string.h>

#include "module/aes/internal.h"
#include "module/internal.h"

#define VAES256_FN __attribute__((target("aes,sse4.1,avx2,vaes")))

/* Shuffle patterns, the same in both 128-bit lanes. k_chain[k]: the bytes of word 3 rotated left
 * by k, in every column. k_unrotate[k]: each word rotated left by (4 - k) mod 4 bytes, which
 * undoes a rotation by k. k_swap128: a block's bytes reversed. Whole 32-byte rows, so that they
 * are memory operands rather than registers built and spilled. */
#define LANES(...) {__VA_ARGS__, __VA_ARGS__}
_Alignas(32) static const uint8_t k_chain[4][32] = {
    LANES(12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15),
    LANES(13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12),
    LANES(14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13),
    LANES(15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14),
};
_Alignas(32) static const uint8_t k_unrotate[4][32] = {
    LANES(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
    LANES(3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14),
    LANES(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13),
    LANES(1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12),
};
_Alignas(32) static const uint8_t k_swap128[32] = LANES(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4,
                                                        3, 2, 1, 0);

VAES256_FN __attribute__((always_inline)) static inline __m256i pattern(const uint8_t p[32]) {
  return _mm256_load_si256((const __m256i *)p);
}

/* bcast loads 16 bytes into both lanes. */
VAES256_FN __attribute__((always_inline)) static inline __m256i bcast(const uint8_t p[16]) {
  return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)p));
}

/* prefix returns (w0, w0^w1, w0^w1^w2, w0^w1^w2^w3) per lane; prefix2 returns
 * (w0, w1, w0^w2, w1^w3), prefix applied twice. */
VAES256_FN __attribute__((always_inline)) static inline __m256i prefix(__m256i k) {
  k = _mm256_xor_si256(k, _mm256_bslli_epi128(k, 4));
  return _mm256_xor_si256(k, _mm256_bslli_epi128(k, 8));
}
VAES256_FN __attribute__((always_inline)) static inline __m256i prefix2(__m256i k) {
  return _mm256_xor_si256(k, _mm256_bslli_epi128(k, 8));
}

/* rcon_word returns Rcon for round key |i| (even, 2..14) rotated left by |k| bytes, in every
 * word: Rcon's byte moves from position 0 to position (4 - k) mod 4. */
static inline int rcon_word(int i, int k) {
  const uint32_t rcon = 1u << (i / 2 - 1);
  return (int)(rcon << (8 * ((4 - k) % 4)));
}

/* ctr_pair returns the counter blocks V + a and V + b (mod 2^128, big-endian) in the two lanes,
 * from |v_le|: V byte-reversed (a little-endian 128-bit integer) in both lanes. The carry out of
 * the low qword comes from an unsigned compare, not a branch. */
VAES256_FN __attribute__((always_inline)) static inline __m256i ctr_pair(__m256i v_le, long long a,
                                                                        long long b) {
  const __m256i inc = _mm256_set_epi64x(0, b, 0, a);
  const __m256i s = _mm256_add_epi64(v_le, inc);
  const __m256i bias = _mm256_set1_epi64x((long long)0x8000000000000000ull);
  const __m256i lt = _mm256_cmpgt_epi64(_mm256_xor_si256(inc, bias), _mm256_xor_si256(s, bias));
  return _mm256_shuffle_epi8(_mm256_sub_epi64(s, _mm256_slli_si256(lt, 8)), pattern(k_swap128));
}

/* lane returns block |b| of the blocks held two per register in |y|. */
VAES256_FN __attribute__((always_inline)) static inline __m128i lane(const __m256i *y, int b) {
  return (b & 1) ? _mm256_extracti128_si256(y[b / 2], 1) : _mm256_castsi256_si128(y[b / 2]);
}

/* drbg_vaes_n is aes_vaes_drbg_generate_small for a constant |n| (0..4) output blocks: blocks
 * 0..n-1 are the output, n..n+2 the update's temp, two per register. */
VAES256_FN __attribute__((always_inline)) static inline void drbg_vaes_n(
    uint8_t v[16], uint8_t key[32], uint8_t *out, size_t out_len, const uint8_t *provided,
    const int n) {
  const int ny = (n + 4) / 2; /* registers for the n + 3 blocks */
  __m256i rk[15], p2[11], s[15], y[4];

  rk[0] = bcast(key);
  rk[1] = bcast(key + 16);
  /* prefix(rk(0)) and prefix(rk(1)) directly; later prefixes come from P2 and S. */
  const __m256i pre0 = prefix(rk[0]), pre1 = prefix(rk[1]);
  p2[0] = prefix2(rk[0]);
  p2[1] = prefix2(rk[1]);
  __m256i q = _mm256_shuffle_epi8(rk[1], pattern(k_chain[3])); /* B_3(W(1)) */

  /* 10.2.1.5.1 step 4 and step 6's update (10.2.1.2 steps 2.1-2.2): E(Key, V + 1 .. V + n + 3),
   * whitened with round key 0 and given round 1. */
  const __m256i v_le = _mm256_shuffle_epi8(bcast(v), pattern(k_swap128));
  AES_UNROLL
  for (int j = 0; j < ny; j++) {
    y[j] = _mm256_xor_si256(ctr_pair(v_le, 2 * j + 1, 2 * j + 2), rk[0]);
    y[j] = _mm256_aesenc_epi128(y[j], rk[1]);
  }

  /* FIPS 197 5.2, round keys 2..14, each step one ahead of the rounds that use it. */
  AES_UNROLL
  for (int i = 2; i <= 14; i++) {
    const int even = (i % 2) == 0;
    const int k = (3 - i / 2 + 8) % 4;
    const __m256i rc = even ? _mm256_set1_epi32(rcon_word(i, k)) : _mm256_setzero_si256();
    /* t = S(i) rotated left by k: SubWord of the chain's broadcast (for even steps that rotation
     * already includes RotWord), Rcon given in the same rotation; k_unrotate turns it back. */
    __m256i t = _mm256_aesenclast_epi128(q, rc);
    if (i < 14) {
      /* The chain: Q(i) = aesenclast(Q(i-1), B_k(X(i-2) ^ Rcon)). */
      const __m256i x = i >= 4 ? p2[i - 4] : (i == 2 ? pre0 : pre1);
      const __m256i kx = _mm256_xor_si256(_mm256_shuffle_epi8(x, pattern(k_chain[k])), rc);
      q = _mm256_aesenclast_epi128(q, kx);
    }
    if (k != 0) t = _mm256_shuffle_epi8(t, pattern(k_unrotate[k]));
    s[i] = t;
    /* prefix(rk(i-2)): the broadcast S(i-2) contributes (s, 0, s, 0) to it. */
    const __m256i even_words = _mm256_setr_epi32(-1, 0, -1, 0, -1, 0, -1, 0);
    const __m256i pre = i >= 4 ? _mm256_xor_si256(p2[i - 4], _mm256_and_si256(s[i - 2], even_words))
                               : (i == 2 ? pre0 : pre1);
    rk[i] = _mm256_xor_si256(t, pre);
    if (i <= 10) p2[i] = prefix2(rk[i]);
    if (i >= 3) {
      AES_UNROLL
      for (int j = 0; j < ny; j++) y[j] = _mm256_aesenc_epi128(y[j], rk[i - 1]);
    }
  }
  AES_UNROLL
  for (int j = 0; j < ny; j++) y[j] = _mm256_aesenclast_epi128(y[j], rk[14]);

  /* Step 5: returned_bits = the leftmost out_len bytes; a partial last block goes through a
   * stack block that is wiped after. */
  const size_t full = out_len / 16, rem = out_len % 16;
  AES_UNROLL
  for (int b = 0; b < n; b++) {
    if ((size_t)b < full) _mm_storeu_si128((__m128i *)(out + 16 * (size_t)b), lane(y, b));
  }
  if (n > 0 && rem != 0) {
    uint8_t last[16];
    _mm_storeu_si128((__m128i *)last, lane(y, n > 0 ? n - 1 : 0));
    memcpy(out + 16 * full, last, rem);
    fm_zeroize(last, sizeof(last));
  }
  /* Step 6, 10.2.1.2 steps 4-6: temp ^= provided_data; Key = temp's first 32 bytes, V the rest. */
  __m128i t0 = lane(y, n), t1 = lane(y, n + 1), t2 = lane(y, n + 2);
  if (provided != NULL) {
    t0 = _mm_xor_si128(t0, _mm_loadu_si128((const __m128i *)provided));
    t1 = _mm_xor_si128(t1, _mm_loadu_si128((const __m128i *)(provided + 16)));
    t2 = _mm_xor_si128(t2, _mm_loadu_si128((const __m128i *)(provided + 32)));
  }
  _mm_storeu_si128((__m128i *)key, t0);
  _mm_storeu_si128((__m128i *)(key + 16), t1);
  _mm_storeu_si128((__m128i *)v, t2);
}

/* One function per block count (public): each keeps its rounds interleaved with the expansion.
 * In one function the compiler would hoist the count-independent expansion above the switch and
 * spill the round keys. */
#define DRBG_VAES_COUNT(n)                                                                     \
  VAES256_FN __attribute__((noinline)) static void drbg_vaes_##n(                             \
      uint8_t v[16], uint8_t key[32], uint8_t *out, size_t out_len, const uint8_t *provided) { \
    drbg_vaes_n(v, key, out, out_len, provided, n);                                           \
  }
DRBG_VAES_COUNT(0)
DRBG_VAES_COUNT(1)
DRBG_VAES_COUNT(2)
DRBG_VAES_COUNT(3)
DRBG_VAES_COUNT(4)

void aes_vaes_drbg_generate_small(uint8_t v[16], uint8_t key[32], uint8_t *out, size_t out_len,
                                  const uint8_t *provided) {
  switch ((out_len + 15) / 16) {
    case 0: drbg_vaes_0(v, key, out, out_len, provided); break;
    case 1: drbg_vaes_1(v, key, out, out_len, provided); break;
    case 2: drbg_vaes_2(v, key, out, out_len, provided); break;
    case 3: drbg_vaes_3(v, key, out, out_len, provided); break;
    default: drbg_vaes_4(v, key, out, out_len, provided); break;
  }
  /* Round keys or blocks the compiler spilled lie in drbg_vaes's dead frame. */
  aes_drbg_stack_wipe();
}
