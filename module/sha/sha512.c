/* SHA-512 and SHA-384 (FIPS 180-4 sections 6.4 and 6.5): the compression function (portable, and
 * an AVX2 + BMI2 variant), the streaming state and the one-shot digests. SHA-384 is SHA-512 with
 * another initial value, truncated.
 *
 * Both compression functions are constant time by construction: 64-bit additions, shifts,
 * rotations and bitwise operations on data; every table index is the round number. */
#include <immintrin.h>
#include <string.h>

#include "module/internal.h"
#include "module/sha/internal.h"

/* FIPS 180-4 5.3.5 and 5.3.4. */
const uint64_t sha512_iv[8] = {
    0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
    0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179,
};
const uint64_t sha384_iv[8] = {
    0xcbbb9d5dc1059ed8, 0x629a292a367cd507, 0x9159015a3070dd17, 0x152fecd8f70e5939,
    0x67332667ffc00b31, 0x8eb44a8768581511, 0xdb0c2e0d64f98fa7, 0x47b5481dbefa4fa4,
};

/* FIPS 180-4 4.2.3: the first 64 bits of the fractional parts of the cube roots of the first 80
 * primes. */
static const uint64_t k512[80] = {
    0x428a2f98d728ae22, 0x7137449123ef65cd, 0xb5c0fbcfec4d3b2f, 0xe9b5dba58189dbbc,
    0x3956c25bf348b538, 0x59f111f1b605d019, 0x923f82a4af194f9b, 0xab1c5ed5da6d8118,
    0xd807aa98a3030242, 0x12835b0145706fbe, 0x243185be4ee4b28c, 0x550c7dc3d5ffb4e2,
    0x72be5d74f27b896f, 0x80deb1fe3b1696b1, 0x9bdc06a725c71235, 0xc19bf174cf692694,
    0xe49b69c19ef14ad2, 0xefbe4786384f25e3, 0x0fc19dc68b8cd5b5, 0x240ca1cc77ac9c65,
    0x2de92c6f592b0275, 0x4a7484aa6ea6e483, 0x5cb0a9dcbd41fbd4, 0x76f988da831153b5,
    0x983e5152ee66dfab, 0xa831c66d2db43210, 0xb00327c898fb213f, 0xbf597fc7beef0ee4,
    0xc6e00bf33da88fc2, 0xd5a79147930aa725, 0x06ca6351e003826f, 0x142929670a0e6e70,
    0x27b70a8546d22ffc, 0x2e1b21385c26c926, 0x4d2c6dfc5ac42aed, 0x53380d139d95b3df,
    0x650a73548baf63de, 0x766a0abb3c77b2a8, 0x81c2c92e47edaee6, 0x92722c851482353b,
    0xa2bfe8a14cf10364, 0xa81a664bbc423001, 0xc24b8b70d0f89791, 0xc76c51a30654be30,
    0xd192e819d6ef5218, 0xd69906245565a910, 0xf40e35855771202a, 0x106aa07032bbd1b8,
    0x19a4c116b8d2d0c8, 0x1e376c085141ab53, 0x2748774cdf8eeb99, 0x34b0bcb5e19b48a8,
    0x391c0cb3c5c95a63, 0x4ed8aa4ae3418acb, 0x5b9cca4f7763e373, 0x682e6ff3d6b2b8a3,
    0x748f82ee5defb2fc, 0x78a5636f43172f60, 0x84c87814a1f0ab72, 0x8cc702081a6439ec,
    0x90befffa23631e28, 0xa4506cebde82bde9, 0xbef9a3f7b2c67915, 0xc67178f2e372532b,
    0xca273eceea26619c, 0xd186b8c721c0c207, 0xeada7dd6cde0eb1e, 0xf57d4f7fee6ed178,
    0x06f067aa72176fba, 0x0a637dc5a2c898a6, 0x113f9804bef90dae, 0x1b710b35131c471b,
    0x28db77f523047d84, 0x32caab7b40c72493, 0x3c9ebe0a15c9bebc, 0x431d67c49c100d4c,
    0x4cc5d4becb3e42b6, 0x597f299cfc657e2a, 0x5fcb6fab3ad6faec, 0x6c44198c4a475817,
};

static inline uint64_t rotr64(uint64_t x, unsigned n) { return (x >> n) | (x << (64 - n)); }

/* FIPS 180-4 4.1.3, functions 4.8 to 4.13. */
#define CH(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))
#define MAJ(x, y, z) (((x) & (y)) | ((z) & ((x) | (y))))
#define BSIG0(x) (rotr64((x), 28) ^ rotr64((x), 34) ^ rotr64((x), 39))
#define BSIG1(x) (rotr64((x), 14) ^ rotr64((x), 18) ^ rotr64((x), 41))
#define SSIG0(x) (rotr64((x), 1) ^ rotr64((x), 8) ^ ((x) >> 7))
#define SSIG1(x) (rotr64((x), 19) ^ rotr64((x), 61) ^ ((x) >> 6))

/* One round of 6.4.2 step 3; the caller rotates the names of the working variables. */
#define ROUND(a, b, c, d, e, f, g, h, i)                          \
  do {                                                            \
    uint64_t t1_ = (h) + BSIG1(e) + CH(e, f, g) + k[i] + w[i];    \
    uint64_t t2_ = BSIG0(a) + MAJ(a, b, c);                       \
    (d) += t1_;                                                   \
    (h) = t1_ + t2_;                                              \
  } while (0)

void sha512_blocks_portable(uint64_t h[8], const uint8_t *p, size_t nblocks) {
  /* 6.4.2 step 1, as a 16-word window: W[t] lives in w[t % 16]. */
  uint64_t w[16];
  while (nblocks-- > 0) {
    for (int i = 0; i < 16; i++) w[i] = sha_load_be64(p + 8 * i);
    /* 6.4.2 step 2. */
    uint64_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int t = 0; t < 80; t += 16) {
      if (t > 0) {
        for (int i = 0; i < 16; i++) {
          w[i] += SSIG1(w[(i + 14) & 15]) + w[(i + 9) & 15] + SSIG0(w[(i + 1) & 15]);
        }
      }
      const uint64_t *k = k512 + t;
      ROUND(a, b, c, d, e, f, g, hh, 0);
      ROUND(hh, a, b, c, d, e, f, g, 1);
      ROUND(g, hh, a, b, c, d, e, f, 2);
      ROUND(f, g, hh, a, b, c, d, e, 3);
      ROUND(e, f, g, hh, a, b, c, d, 4);
      ROUND(d, e, f, g, hh, a, b, c, 5);
      ROUND(c, d, e, f, g, hh, a, b, 6);
      ROUND(b, c, d, e, f, g, hh, a, 7);
      ROUND(a, b, c, d, e, f, g, hh, 8);
      ROUND(hh, a, b, c, d, e, f, g, 9);
      ROUND(g, hh, a, b, c, d, e, f, 10);
      ROUND(f, g, hh, a, b, c, d, e, 11);
      ROUND(e, f, g, hh, a, b, c, d, 12);
      ROUND(d, e, f, g, hh, a, b, c, 13);
      ROUND(c, d, e, f, g, hh, a, b, 14);
      ROUND(b, c, d, e, f, g, hh, a, 15);
    }
    /* 6.4.2 step 4. */
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += hh;
    p += SHA512_BLOCK_LEN;
  }
  fm_zeroize(w, sizeof w);
}

/* ---- AVX2 + BMI2 variant ------------------------------------------------------------------
 * The same computation with the message schedule (6.4.2 step 1) on the vector unit, two words per
 * operation, stored as W[t] + K[t] for the scalar rounds to read. The schedule for rounds t+16..
 * t+31 is computed in between rounds t..t+15, two words after each two rounds, so the vector and
 * the scalar work overlap instead of running one after the other (that interleaving is where the
 * gain is: a schedule computed up front runs no faster than the portable code). BMI2 gives the
 * rounds rorx, a non-destructive rotate. */

#define AVX2_TARGET __attribute__((target("avx2,bmi2")))

/* Rotate each 64-bit lane right by the constant n, and the schedule functions of 4.1.3. */
#define VROR64(x, n) _mm_xor_si128(_mm_srli_epi64((x), (n)), _mm_slli_epi64((x), 64 - (n)))
#define VSSIG0(x) \
  _mm_xor_si128(_mm_xor_si128(VROR64((x), 1), VROR64((x), 8)), _mm_srli_epi64((x), 7))
#define VSSIG1(x) \
  _mm_xor_si128(_mm_xor_si128(VROR64((x), 19), VROR64((x), 61)), _mm_srli_epi64((x), 6))

/* wk[t], wk[t+1] = W + K for the pair of message words |x| = W[t], W[t+1]. */
#define STORE_WK(x, t) \
  _mm_store_si128((__m128i *)(wk + (t)), \
                  _mm_add_epi64((x), _mm_loadu_si128((const __m128i *)(k512 + (t)))))

/* W[t], W[t+1] from the eight pairs before them: x0 = W[t-16..t-15], x1 = W[t-14..t-13], ...,
 * x7 = W[t-2..t-1]. alignr picks the odd-aligned pairs W[t-15..t-14] and W[t-7..t-6]; SSIG1
 * of lane 0 of x7 (W[t-2]) feeds W[t], of lane 1 (W[t-1]) feeds W[t+1]. The result replaces x0. */
#define VSCHED(x0, x1, x4, x5, x7, t)                                                  \
  do {                                                                                 \
    __m128i s_ = _mm_add_epi64(VSSIG0(_mm_alignr_epi8((x1), (x0), 8)),                 \
                               _mm_alignr_epi8((x5), (x4), 8));                        \
    (x0) = _mm_add_epi64(_mm_add_epi64((x0), s_), VSSIG1(x7));                         \
    STORE_WK((x0), (t));                                                               \
  } while (0)

/* One round of 6.4.2 step 3 with W[t] + K[t] precomputed. Maj(a, b, c) is computed as
 * b ^ ((a ^ b) & (b ^ c)), and b ^ c is the a ^ b of the round before (kept in |bc|), which saves
 * two operations a round. */
#define ROUND_WK(a, b, c, d, e, f, g, h, t)                   \
  do {                                                        \
    uint64_t t1_ = (h) + BSIG1(e) + CH(e, f, g) + wk[t];      \
    uint64_t ab_ = (a) ^ (b);                                 \
    uint64_t t2_ = BSIG0(a) + ((b) ^ (ab_ & bc));             \
    bc = ab_;                                                 \
    (d) += t1_;                                               \
    (h) = t1_ + t2_;                                          \
  } while (0)

/* Sixteen rounds from t, with the schedule of the next sixteen words interleaved (see above). */
#define ROUNDS16_SCHED(t)                           \
  do {                                              \
    ROUND_WK(a, b, c, d, e, f, g, hh, (t) + 0);     \
    ROUND_WK(hh, a, b, c, d, e, f, g, (t) + 1);     \
    VSCHED(x0, x1, x4, x5, x7, (t) + 16);           \
    ROUND_WK(g, hh, a, b, c, d, e, f, (t) + 2);     \
    ROUND_WK(f, g, hh, a, b, c, d, e, (t) + 3);     \
    VSCHED(x1, x2, x5, x6, x0, (t) + 18);           \
    ROUND_WK(e, f, g, hh, a, b, c, d, (t) + 4);     \
    ROUND_WK(d, e, f, g, hh, a, b, c, (t) + 5);     \
    VSCHED(x2, x3, x6, x7, x1, (t) + 20);           \
    ROUND_WK(c, d, e, f, g, hh, a, b, (t) + 6);     \
    ROUND_WK(b, c, d, e, f, g, hh, a, (t) + 7);     \
    VSCHED(x3, x4, x7, x0, x2, (t) + 22);           \
    ROUND_WK(a, b, c, d, e, f, g, hh, (t) + 8);     \
    ROUND_WK(hh, a, b, c, d, e, f, g, (t) + 9);     \
    VSCHED(x4, x5, x0, x1, x3, (t) + 24);           \
    ROUND_WK(g, hh, a, b, c, d, e, f, (t) + 10);    \
    ROUND_WK(f, g, hh, a, b, c, d, e, (t) + 11);    \
    VSCHED(x5, x6, x1, x2, x4, (t) + 26);           \
    ROUND_WK(e, f, g, hh, a, b, c, d, (t) + 12);    \
    ROUND_WK(d, e, f, g, hh, a, b, c, (t) + 13);    \
    VSCHED(x6, x7, x2, x3, x5, (t) + 28);           \
    ROUND_WK(c, d, e, f, g, hh, a, b, (t) + 14);    \
    ROUND_WK(b, c, d, e, f, g, hh, a, (t) + 15);    \
    VSCHED(x7, x0, x3, x4, x6, (t) + 30);           \
  } while (0)

#define ROUNDS8(t)                                \
  do {                                            \
    ROUND_WK(a, b, c, d, e, f, g, hh, (t) + 0);   \
    ROUND_WK(hh, a, b, c, d, e, f, g, (t) + 1);   \
    ROUND_WK(g, hh, a, b, c, d, e, f, (t) + 2);   \
    ROUND_WK(f, g, hh, a, b, c, d, e, (t) + 3);   \
    ROUND_WK(e, f, g, hh, a, b, c, d, (t) + 4);   \
    ROUND_WK(d, e, f, g, hh, a, b, c, (t) + 5);   \
    ROUND_WK(c, d, e, f, g, hh, a, b, (t) + 6);   \
    ROUND_WK(b, c, d, e, f, g, hh, a, (t) + 7);   \
  } while (0)

/* Message words i, i+1 of the block at p, byte-swapped to big-endian words. */
#define LOAD_PAIR(i) _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 8 * (i))), bswap)

AVX2_TARGET void sha512_blocks_avx2(uint64_t h[8], const uint8_t *p, size_t nblocks) {
  _Alignas(16) uint64_t wk[80];
  const __m128i bswap = _mm_set_epi8(8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7);
  while (nblocks-- > 0) {
    __m128i x0 = LOAD_PAIR(0), x1 = LOAD_PAIR(2), x2 = LOAD_PAIR(4), x3 = LOAD_PAIR(6);
    __m128i x4 = LOAD_PAIR(8), x5 = LOAD_PAIR(10), x6 = LOAD_PAIR(12), x7 = LOAD_PAIR(14);
    STORE_WK(x0, 0);
    STORE_WK(x1, 2);
    STORE_WK(x2, 4);
    STORE_WK(x3, 6);
    STORE_WK(x4, 8);
    STORE_WK(x5, 10);
    STORE_WK(x6, 12);
    STORE_WK(x7, 14);
    /* 6.4.2 steps 2-3. */
    uint64_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    uint64_t bc = b ^ c;
    for (int t = 0; t < 64; t += 16) ROUNDS16_SCHED(t);
    ROUNDS8(64);
    ROUNDS8(72);
    /* 6.4.2 step 4. */
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += hh;
    p += SHA512_BLOCK_LEN;
  }
  fm_zeroize(wk, sizeof wk);
  /* The message schedule (derived from the block, which may be an HMAC key pad) is still in the
   * vector registers: clear them all, so that no later spill (a lazy-binding trampoline, a signal
   * frame) writes it to memory. */
  _mm256_zeroall();
}

void sha512_blocks(uint64_t h[8], const uint8_t *p, size_t nblocks) {
  if (nblocks == 0) return;
  if (fm_cpu_use(FM_CPU_AVX2 | FM_CPU_BMI2)) {
    sha512_blocks_avx2(h, p, nblocks);
  } else {
    sha512_blocks_portable(h, p, nblocks);
  }
}

const char *sha512_path_name(void) {
  return fm_cpu_use(FM_CPU_AVX2 | FM_CPU_BMI2) ? "avx2-bmi2" : "portable";
}

/* ---- Padding and the streaming state ---------------------------------------------------- */

void sha512_finish(uint64_t h[8], const uint8_t *tail, size_t tail_len, uint64_t total_bytes) {
  /* FIPS 180-4 5.1.2: 0x80, zeros up to 112 mod 128, then the 128-bit bit count. */
  uint8_t block[2 * SHA512_BLOCK_LEN];
  size_t nblocks = tail_len < SHA512_BLOCK_LEN - 16 ? 1 : 2;
  size_t end = nblocks * SHA512_BLOCK_LEN;
  if (tail_len > 0) memcpy(block, tail, tail_len);
  block[tail_len] = 0x80;
  memset(block + tail_len + 1, 0, end - 16 - tail_len - 1);
  sha_store_be64(block + end - 16, total_bytes >> 61);
  sha_store_be64(block + end - 8, total_bytes << 3);
  sha512_blocks(h, block, nblocks);
  fm_zeroize(block, end);
}

void sha512_state_init(sha512_state *s) {
  memcpy(s->h, sha512_iv, sizeof s->h);
  s->nbytes = 0;
  s->buf_len = 0;
}

void sha384_state_init(sha512_state *s) {
  memcpy(s->h, sha384_iv, sizeof s->h);
  s->nbytes = 0;
  s->buf_len = 0;
}

int sha512_state_update(sha512_state *s, const void *data, size_t len) {
  if (len == 0) return FM_OK;
  if (len > SHA2_MAX_INPUT_BYTES - s->nbytes) return FM_ERR_LENGTH;
  const uint8_t *p = data;
  s->nbytes += len;
  if (s->buf_len > 0) {
    size_t take = SHA512_BLOCK_LEN - s->buf_len;
    if (take > len) take = len;
    memcpy(s->buf + s->buf_len, p, take);
    s->buf_len += (uint32_t)take;
    p += take;
    len -= take;
    if (s->buf_len < SHA512_BLOCK_LEN) return FM_OK;
    sha512_blocks(s->h, s->buf, 1);
    s->buf_len = 0;
  }
  size_t nblocks = len / SHA512_BLOCK_LEN;
  sha512_blocks(s->h, p, nblocks);
  p += nblocks * SHA512_BLOCK_LEN;
  len -= nblocks * SHA512_BLOCK_LEN;
  if (len > 0) memcpy(s->buf, p, len);
  s->buf_len = (uint32_t)len;
  return FM_OK;
}

/* sha512_serialize writes the first |out_len| bytes of the big-endian chaining value. */
static void sha512_serialize(const uint64_t h[8], uint8_t *out, size_t out_len) {
  uint8_t full[64];
  for (int i = 0; i < 8; i++) sha_store_be64(full + 8 * i, h[i]);
  memcpy(out, full, out_len);
  fm_zeroize(full, sizeof full);
}

void sha512_state_final(sha512_state *s, uint8_t *out, size_t out_len) {
  sha512_finish(s->h, s->buf, s->buf_len, s->nbytes);
  sha512_serialize(s->h, out, out_len);
  fm_zeroize(s, sizeof *s);
}

static void sha512_family_digest(const uint64_t iv[8], const void *data, size_t len, uint8_t *out,
                                 size_t out_len) {
  uint64_t h[8];
  const uint8_t *p = data;
  size_t full = len / SHA512_BLOCK_LEN;
  memcpy(h, iv, sizeof h);
  sha512_blocks(h, p, full);
  sha512_finish(h, full > 0 ? p + full * SHA512_BLOCK_LEN : p, len % SHA512_BLOCK_LEN, len);
  sha512_serialize(h, out, out_len);
  fm_zeroize(h, sizeof h);
}

void sha384_digest_internal(const void *data, size_t len, uint8_t out[48]) {
  sha512_family_digest(sha384_iv, data, len, out, 48);
}

void sha512_digest_internal(const void *data, size_t len, uint8_t out[64]) {
  sha512_family_digest(sha512_iv, data, len, out, 64);
}
