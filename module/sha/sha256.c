/* SHA-256 (FIPS 180-4 section 6.2): the portable compression function, the path selection, the
 * streaming state and the one-shot digest.
 *
 * The portable code is constant time by construction: only additions, rotations and bitwise
 * operations on the message, and every table index (the round constants) is the round number. */
#include <string.h>

#include "module/internal.h"
#include "module/sha/internal.h"

/* FIPS 180-4 5.3.3. */
const uint32_t sha256_iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                               0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
/* FIPS 180-4 5.3.2 (SHA-224: the SHA-256 compression from another initial value). */
const uint32_t sha224_iv[8] = {0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939,
                               0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4};

/* FIPS 180-4 4.2.2: the first 32 bits of the fractional parts of the cube roots of the first 64
 * primes. */
static const uint32_t k256[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static inline uint32_t rotr32(uint32_t x, unsigned n) { return (x >> n) | (x << (32 - n)); }

/* FIPS 180-4 4.1.2, functions 4.2 to 4.7. Ch and Maj use the forms with one fewer operation. */
#define CH(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))
#define MAJ(x, y, z) (((x) & (y)) | ((z) & ((x) | (y))))
#define BSIG0(x) (rotr32((x), 2) ^ rotr32((x), 13) ^ rotr32((x), 22))
#define BSIG1(x) (rotr32((x), 6) ^ rotr32((x), 11) ^ rotr32((x), 25))
#define SSIG0(x) (rotr32((x), 7) ^ rotr32((x), 18) ^ ((x) >> 3))
#define SSIG1(x) (rotr32((x), 17) ^ rotr32((x), 19) ^ ((x) >> 10))

/* One round of 6.2.2 step 3 with the working variables renamed instead of moved: the caller
 * rotates the argument list, so a..h never shift. */
#define ROUND(a, b, c, d, e, f, g, h, i)                          \
  do {                                                            \
    uint32_t t1_ = (h) + BSIG1(e) + CH(e, f, g) + k[i] + w[i];    \
    uint32_t t2_ = BSIG0(a) + MAJ(a, b, c);                       \
    (d) += t1_;                                                   \
    (h) = t1_ + t2_;                                              \
  } while (0)

void sha256_blocks_portable(uint32_t h[8], const uint8_t *p, size_t nblocks) {
  /* The message schedule (6.2.2 step 1) is kept as a 16-word window: W[t] lives in w[t % 16]. */
  uint32_t w[16];
  while (nblocks-- > 0) {
    for (int i = 0; i < 16; i++) w[i] = sha_load_be32(p + 4 * i);
    /* 6.2.2 step 2. */
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int t = 0; t < 64; t += 16) {
      if (t > 0) {
        /* W[t+i] = SSIG1(W[t+i-2]) + W[t+i-7] + SSIG0(W[t+i-15]) + W[t+i-16], in order, so each
         * window slot still holds the older word until it is replaced. */
        for (int i = 0; i < 16; i++) {
          w[i] += SSIG1(w[(i + 14) & 15]) + w[(i + 9) & 15] + SSIG0(w[(i + 1) & 15]);
        }
      }
      const uint32_t *k = k256 + t;
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
    /* 6.2.2 step 4. */
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += hh;
    p += SHA256_BLOCK_LEN;
  }
  /* The schedule is derived from the message, which may be key material (HMAC pads). */
  sha_zeroize_fixed(w, sizeof w);
}

void sha256_blocks(uint32_t h[8], const uint8_t *p, size_t nblocks) {
  if (nblocks == 0) return;
  if (fm_cpu_use(FM_CPU_SHANI)) {
    sha256_blocks_shani(h, p, nblocks);
  } else {
    sha256_blocks_portable(h, p, nblocks);
  }
}

const char *sha256_path_name(void) {
  if (fm_cpu_use(FM_CPU_SHANI | FM_CPU_AVX512)) return "sha-ni+avx512-pad";
  return fm_cpu_use(FM_CPU_SHANI) ? "sha-ni" : "portable";
}

/* ---- Padding and the streaming state ---------------------------------------------------- */

size_t sha256_pad(uint8_t block[2 * SHA256_BLOCK_LEN], const uint8_t *tail, size_t tail_len,
                  uint64_t total_bytes) {
  /* FIPS 180-4 5.1.1: append 0x80, zeros up to 56 mod 64, then the 64-bit bit count. One block
   * when the tail leaves room for the 9 bytes of 0x80 and length, two otherwise. The blocks are
   * zeroed whole (inline stores), then the tail goes over the zeros. */
  size_t nblocks = tail_len < SHA256_BLOCK_LEN - 8 ? 1 : 2;
  size_t end = nblocks * SHA256_BLOCK_LEN;
  if (nblocks == 1) {
    sha_zeroize_fixed(block, SHA256_BLOCK_LEN);
  } else {
    sha_zeroize_fixed(block, 2 * SHA256_BLOCK_LEN);
  }
  sha_copy_gpr(block, tail, tail_len);
  block[tail_len] = 0x80;
  sha_store_be64(block + end - 8, total_bytes << 3);
  return nblocks;
}

void sha256_finish(uint32_t h[8], const uint8_t *tail, size_t tail_len, uint64_t total_bytes) {
  _Alignas(16) uint8_t block[2 * SHA256_BLOCK_LEN];
  size_t nblocks = sha256_pad(block, tail, tail_len, total_bytes);
  sha256_blocks(h, block, nblocks);
  /* What the padding wrote: one block or two. */
  if (nblocks == 1) {
    sha_zeroize_fixed(block, SHA256_BLOCK_LEN);
  } else {
    sha_zeroize_fixed(block, 2 * SHA256_BLOCK_LEN);
  }
}

void sha256_state_init_iv(sha256_state *s, const uint32_t iv[8]) {
  memcpy(s->h, iv, sizeof s->h);
  s->nbytes = 0;
  s->buf_len = 0;
}

void sha256_state_init(sha256_state *s) { sha256_state_init_iv(s, sha256_iv); }

int sha256_state_update(sha256_state *s, const void *data, size_t len) {
  if (len == 0) return FM_OK;
  if (len > SHA2_MAX_INPUT_BYTES - s->nbytes) return FM_ERR_LENGTH;
  const uint8_t *p = data;
  s->nbytes += len;
  if (s->buf_len > 0) {
    size_t take = SHA256_BLOCK_LEN - s->buf_len;
    if (take > len) take = len;
    memcpy(s->buf + s->buf_len, p, take);
    s->buf_len += (uint32_t)take;
    p += take;
    len -= take;
    if (s->buf_len < SHA256_BLOCK_LEN) return FM_OK;
    sha256_blocks(s->h, s->buf, 1);
    s->buf_len = 0;
  }
  size_t nblocks = len / SHA256_BLOCK_LEN;
  sha256_blocks(s->h, p, nblocks);
  p += nblocks * SHA256_BLOCK_LEN;
  len -= nblocks * SHA256_BLOCK_LEN;
  if (len > 0) memcpy(s->buf, p, len);
  s->buf_len = (uint32_t)len;
  return FM_OK;
}

/* sha256_serialize writes the first |out_len| (28 or 32) bytes of the big-endian chaining
 * value: SHA-224 is the leftmost 224 bits (FIPS 180-4 6.3). */
static void sha256_serialize(const uint32_t h[8], uint8_t *out, size_t out_len) {
  for (size_t i = 0; i < out_len / 4; i++) sha_store_be32(out + 4 * i, h[i]);
}

void sha256_state_final_len(sha256_state *s, uint8_t *out, size_t out_len) {
  if (fm_cpu_use(FM_CPU_SHANI | FM_CPU_AVX512)) {
    sha256_shani_final(s->h, s->buf, s->buf_len, s->nbytes, out, out_len);
    sha_zeroize_fixed(s, sizeof *s);
    return;
  }
  sha256_finish(s->h, s->buf, s->buf_len, s->nbytes);
  sha256_serialize(s->h, out, out_len);
  sha_zeroize_fixed(s, sizeof *s);
}

void sha256_state_final(sha256_state *s, uint8_t out[32]) { sha256_state_final_len(s, out, 32); }

static void sha256_family_digest(const uint32_t iv[8], const void *data, size_t len,
                                 uint8_t *out, size_t out_len) {
  /* Whole blocks straight from the caller's buffer; only the tail is copied (into the padding). */
  if (fm_cpu_use(FM_CPU_SHANI | FM_CPU_AVX512)) {
    sha256_shani_final(iv, data, len, len, out, out_len);
    return;
  }
  uint32_t h[8];
  const uint8_t *p = data;
  size_t full = len / SHA256_BLOCK_LEN;
  memcpy(h, iv, sizeof h);
  sha256_blocks(h, p, full);
  sha256_finish(h, full > 0 ? p + full * SHA256_BLOCK_LEN : p, len % SHA256_BLOCK_LEN, len);
  sha256_serialize(h, out, out_len);
  sha_zeroize_fixed(h, sizeof h);
}

void sha256_digest_internal(const void *data, size_t len, uint8_t out[32]) {
  sha256_family_digest(sha256_iv, data, len, out, 32);
}

void sha224_digest_internal(const void *data, size_t len, uint8_t out[28]) {
  sha256_family_digest(sha224_iv, data, len, out, 28);
}
