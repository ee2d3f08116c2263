/* ML-DSA sampling (FIPS 204 section 7.3): the matrix A-hat, the private vectors s1 and s2, the
 * masking vector y and the challenge c, on SHAKE128 and SHAKE256 from module/sha3/internal.h.
 *
 * Secrecy by sampler:
 * - RejNTTPoly (A-hat) reads rho, which is public: it may reject and index freely.
 * - RejBoundedPoly (s1, s2) reads rho', which is secret. Each half-byte of its SHAKE256 stream is
 *   kept or rejected by its own value (below 15 for eta = 2, below 9 for eta = 4), and the kept
 *   ones become coefficients in order. The keep/reject outcome of each half-byte is declassified
 *   and drives the loop; the coefficient of a kept half-byte never drives a branch or an index.
 *   That outcome is independent of every kept value (the half-bytes are independent and
 *   uniform), so it tells an observer where the stream had values >= 15 (or >= 9), and nothing
 *   about s1 or s2. The mapping b -> eta - (b mod 5) uses a multiply-shift, not a division.
 * - ExpandMask (y) is a fixed bit unpacking of a fixed-length stream: constant time.
 * - SampleInBall (c) reads ctilde, which signing declassifies first (mldsa.c explains why). */
#include <assert.h>
#include <string.h>

#include "module/internal.h"
#include "module/mldsa/internal.h"
#include "module/sha3/internal.h"

/* ---- RejNTTPoly (Algorithm 30), ExpandA (Algorithm 32) ------------------------------------ */

/* Five SHAKE128 blocks hold 280 candidates; 256 are needed, and a candidate is rejected with
 * probability about 2^-10, so a sixth block is almost never squeezed. */
#define REJ_NTT_BLOCKS 5

/* CoeffFromThreeBytes (Algorithm 14): 23 bits, little-endian, the top bit of b2 cleared. */
static inline uint32_t coeff_from_three_bytes(const uint8_t *b) {
  return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)(b[2] & 0x7f) << 16;
}

void mldsa_expand_a_entry(mldsa_poly *a, const uint8_t rho[32], unsigned r, unsigned s) {
  uint8_t seed[34];
  memcpy(seed, rho, 32);
  seed[32] = (uint8_t)s; /* FIPS 204 Algorithm 32: rho || IntegerToBytes(s, 1) || ... (r, 1) */
  seed[33] = (uint8_t)r;
  keccak_state st;
  shake128_init(&st);
  keccak_absorb(&st, seed, sizeof seed);

  uint8_t buf[REJ_NTT_BLOCKS * SHAKE128_RATE];
  keccak_squeeze_blocks(&st, buf, REJ_NTT_BLOCKS);
  size_t have = sizeof buf, pos = 0, j = 0;
  while (j < MLDSA_N) {
    if (pos + 3 > have) { /* public: rho only */
      keccak_squeeze_blocks(&st, buf, 1);
      have = SHAKE128_RATE; /* a multiple of 3: no candidate straddles two blocks */
      pos = 0;
    }
    pos += 3;
    const uint32_t v = coeff_from_three_bytes(buf + pos - 3);
    if (v < MLDSA_Q) a->c[j++] = (int32_t)v;
  }
  static_assert(SHAKE128_RATE % 3 == 0, "candidates never cross a block");
}

size_t mldsa_rej_ntt_block_portable(int32_t *out, const uint8_t *block) {
  /* Each candidate is written to the next slot, which advances when it is below q (rho is
   * public, but this needs no branch per candidate). */
  size_t n = 0;
  for (size_t pos = 0; pos < SHAKE128_RATE; pos += 3) {
    const uint32_t v = coeff_from_three_bytes(block + pos);
    out[n] = (int32_t)v;
    n += v < MLDSA_Q;
  }
  return n;
}

/* ---- RejBoundedPoly (Algorithm 31), ExpandS (Algorithm 33) -------------------------------- */

/* coeff_from_half_byte: CoeffFromHalfByte (Algorithm 15) for a kept half-byte b (any b < 16
 * gives some value, without overflow). For eta = 2, b < 15 and b mod 5 = b - 5 * floor(b * 205 /
 * 1024), exact for b < 15; for eta = 4, b < 9. */
static inline int32_t coeff_from_half_byte(unsigned eta, uint32_t b) {
  if (eta == 2) { /* public: the parameter set */
    const uint32_t q5 = (b * 205) >> 10;
    return 2 - (int32_t)(b - 5 * q5);
  }
  return 4 - (int32_t)b;
}

/* mldsa_rej_eta_block_portable: RejBoundedPoly's loop body over one SHAKE256 block. The keep
 * decisions of the whole block are computed first, without a branch, and declassified together
 * (see the file comment); then each half-byte's coefficient is written to the next free slot,
 * which advances only when it is kept: the slot index depends on the declassified decisions
 * alone. */
size_t mldsa_rej_eta_block_portable(const mldsa_params *p, int32_t *a, size_t j,
                                    const uint8_t *buf) {
  const uint32_t limit = p->eta == 2 ? 15 : 9;
  uint8_t keep[2 * SHAKE256_RATE];
  for (size_t pos = 0; pos < SHAKE256_RATE; pos++) {
    keep[2 * pos] = (uint8_t)(((buf[pos] & 15u) - limit) >> 31);
    keep[2 * pos + 1] = (uint8_t)((((uint32_t)buf[pos] >> 4) - limit) >> 31);
  }
  fm_declassify(keep, sizeof keep);
  for (size_t h = 0; h < 2 * SHAKE256_RATE && j < MLDSA_N; h++) {
    const uint32_t b = (uint32_t)buf[h / 2] >> (4 * (h & 1)) & 15u;
    a[j] = coeff_from_half_byte(p->eta, b); /* replaced by the next one when not kept */
    j += keep[h];
  }
  return j;
}

/* rej_eta_block appends the kept coefficients of one block to a->c[*jp..256), on the AVX2 twin
 * where the CPU has it. */
static void rej_eta_block(const mldsa_params *p, mldsa_poly *a, size_t *jp,
                          const uint8_t buf[SHAKE256_RATE]) {
#if defined(__x86_64__)
  if (fm_cpu_use(FM_CPU_AVX2)) {
    *jp = mldsa_rej_eta_block_avx2(p, a->c, *jp, buf);
    return;
  }
#endif
  *jp = mldsa_rej_eta_block_portable(p, a->c, *jp, buf);
}

void mldsa_expand_s(const mldsa_params *p, mldsa_poly *a, const uint8_t rhop[64], uint16_t nonce) {
  uint8_t seed[66];
  memcpy(seed, rhop, 64);
  seed[64] = (uint8_t)nonce; /* IntegerToBytes(r, 2), little-endian */
  seed[65] = (uint8_t)(nonce >> 8);
  keccak_state st;
  shake256_init(&st);
  keccak_absorb(&st, seed, sizeof seed);
  fm_zeroize(seed, sizeof seed);

  /* One block gives 272 half-bytes: enough almost always for eta = 4 (9/16 kept), two for
   * eta = 2 (15/16 kept) most of the time; more blocks when needed. */
  uint8_t buf[SHAKE256_RATE];
  size_t j = 0;
  while (j < MLDSA_N) {
    keccak_squeeze_blocks(&st, buf, 1);
    rej_eta_block(p, a, &j, buf);
  }
  fm_zeroize(buf, sizeof buf);
  keccak_wipe(&st);
}

/* ---- ExpandMask (Algorithm 34) ------------------------------------------------------------- */

void mldsa_expand_mask(const mldsa_params *p, mldsa_poly *y, const uint8_t rhopp[64],
                       uint16_t kappa_plus_r) {
  uint8_t seed[66];
  memcpy(seed, rhopp, 64);
  seed[64] = (uint8_t)kappa_plus_r;
  seed[65] = (uint8_t)(kappa_plus_r >> 8);
  uint8_t buf[32 * 20]; /* 32 * c bytes, c = z_bits <= 20 */
  const size_t len = (size_t)32 * p->z_bits;
  shake256(buf, len, seed, sizeof seed);
  /* BitUnpack(v, gamma1 - 1, gamma1): each z_bits-bit value b gives gamma1 - b. */
  mldsa_unpack_z(p, y, buf);
  fm_zeroize(seed, sizeof seed);
  fm_zeroize(buf, sizeof buf);
}

/* ---- Four sponges at once -------------------------------------------------------------------
 * The x4 samplers run four SHAKE sponges on keccak_f1600_x4 (interleaved on AVX2, four
 * sequential permutations on the portable path) and give exactly the polynomials of the
 * one-sponge functions above. Each input (34 or 66 bytes) fits in one block, so absorbing is
 * writing the bytes and FIPS 202's padding straight into the lanes. */

/* sponge_start starts a SHAKE sponge of |rate| on the |len| (< rate) bytes |in|: the block, the
 * SHAKE domain bits 1111, then pad10*1 closing at the last byte of the rate. */
static void sponge_start(uint64_t a[25], const uint8_t *in, size_t len, unsigned rate) {
  memset(a, 0, 25 * sizeof a[0]);
  for (size_t i = 0; i < len; i++) a[i / 8] ^= (uint64_t)in[i] << (8 * (i % 8));
  a[len / 8] ^= (uint64_t)KECCAK_DSEP_SHAKE << (8 * (len % 8));
  a[rate / 8 - 1] ^= (uint64_t)0x80 << 56;
}

/* sponge_block writes the first |rate| bytes of the lanes |a|, little-endian: a copy where that
 * is memory order (FIPS 202 B.1). */
static void sponge_block(uint8_t *out, const uint64_t a[25], unsigned rate) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  memcpy(out, a, rate);
#else
  for (unsigned l = 0; l < rate / 8; l++) {
    for (unsigned b = 0; b < 8; b++) out[8 * l + b] = (uint8_t)(a[l] >> (8 * b));
  }
#endif
}

/* block_bytes returns the first |rate| output bytes of the lanes |a|: the lanes themselves where
 * memory order is little-endian (FIPS 202 B.1), else a copy in |buf|. */
static const uint8_t *block_bytes(uint8_t *buf, const uint64_t a[25], unsigned rate) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  (void)buf;
  (void)rate;
  return (const uint8_t *)a;
#else
  sponge_block(buf, a, rate);
  return buf;
#endif
}

/* permute_live permutes the states whose |live| flag is set: all four at once while two or more
 * are, the one left on the single-state permutation (public: the flags come from loop counts).
 * The four-way permutation leaves its stack residue: the sampler calls keccak_x4_wipe_stack
 * before it returns. */
static void permute_live(uint64_t st[4][25], const int live[4]) {
  unsigned n = 0, last = 0;
  for (unsigned s = 0; s < 4; s++) {
    if (live[s]) {
      n++;
      last = s;
    }
  }
  if (n == 1) keccak_f1600(st[last]);
  else if (n > 1) keccak_f1600_x4_nowipe(st);
}

void mldsa_expand_a_x4(mldsa_poly *a, const uint8_t rho[32], unsigned first, unsigned count,
                       unsigned l) {
  uint64_t st[4][25];
  uint8_t buf[SHAKE128_RATE];
  size_t n[4];
  int live[4];
  for (unsigned s = 0; s < 4; s++) {
    /* An unused state repeats the first entry, never squeezed. */
    const unsigned e = first + (s < count ? s : 0);
    uint8_t seed[34];
    memcpy(seed, rho, 32);
    seed[32] = (uint8_t)(e % l); /* rho || s || r for A-hat[r][s], r = e / l, s = e mod l */
    seed[33] = (uint8_t)(e / l);
    sponge_start(st[s], seed, sizeof seed, SHAKE128_RATE);
    n[s] = 0;
    live[s] = s < count;
  }
  for (;;) {
    permute_live(st, live);
    int any = 0;
    for (unsigned s = 0; s < 4; s++) {
      if (!live[s]) continue;
      const uint8_t *bytes = block_bytes(buf, st[s], SHAKE128_RATE);
      size_t j = n[s];
      /* The block sampler takes a whole block's candidates: straight into the entry while they
       * all fit, else into |last|, of which the first kept ones fill the entry (the rest of the
       * block is not used, as RejNTTPoly stops at 256). */
      int32_t last[SHAKE128_RATE / 3];
      const int fits = j + SHAKE128_RATE / 3 <= MLDSA_N;
      int32_t *to = fits ? &a[s].c[j] : last;
      size_t got;
#if defined(__x86_64__)
      /* The AVX2 form reads up to 8 bytes past the rate: still in the lanes (x86-64 is
       * little-endian, bytes is st[s]). */
      if (fm_cpu_use(FM_CPU_AVX2)) got = mldsa_rej_ntt_block_avx2(to, bytes);
      else got = mldsa_rej_ntt_block_portable(to, bytes);
#else
      got = mldsa_rej_ntt_block_portable(to, bytes);
#endif
      if (!fits) {
        if (got > MLDSA_N - j) got = MLDSA_N - j;
        memcpy(&a[s].c[j], last, got * sizeof last[0]);
      }
      j += got;
      n[s] = j;
      live[s] = n[s] < MLDSA_N;
      any |= live[s];
    }
    if (!any) break;
  }
  fm_zeroize(st, sizeof st);
  fm_zeroize(buf, sizeof buf);
  keccak_x4_wipe_stack();
}

void mldsa_expand_s_x4(const mldsa_params *p, mldsa_poly *a, const uint8_t rhop[64],
                       uint16_t nonce0, unsigned count) {
  uint64_t st[4][25];
  uint8_t buf[SHAKE256_RATE];
  size_t n[4];
  int live[4];
  for (unsigned s = 0; s < 4; s++) {
    const uint16_t nonce = (uint16_t)(nonce0 + (s < count ? s : 0));
    uint8_t seed[66];
    memcpy(seed, rhop, 64);
    seed[64] = (uint8_t)nonce;
    seed[65] = (uint8_t)(nonce >> 8);
    sponge_start(st[s], seed, sizeof seed, SHAKE256_RATE);
    fm_zeroize(seed, sizeof seed);
    n[s] = 0;
    live[s] = s < count;
  }
  /* The loop counts follow the declassified keep decisions (see the file comment). */
  for (;;) {
    permute_live(st, live);
    int any = 0;
    for (unsigned s = 0; s < 4; s++) {
      if (!live[s]) continue;
      rej_eta_block(p, &a[s], &n[s], block_bytes(buf, st[s], SHAKE256_RATE));
      live[s] = n[s] < MLDSA_N;
      any |= live[s];
    }
    if (!any) break;
  }
  fm_zeroize(st, sizeof st);
  fm_zeroize(buf, sizeof buf);
  keccak_x4_wipe_stack();
}

/* ExpandMask's stream is 32 z_bits bytes (576 or 640), five SHAKE256 blocks. */
#define MASK_BLOCKS 5
static_assert(MASK_BLOCKS * SHAKE256_RATE >= 32 * 20, "five blocks hold ExpandMask's stream");

void mldsa_expand_mask_x4(const mldsa_params *p, mldsa_poly *y, const uint8_t rhopp[64],
                          uint16_t kappa, unsigned count) {
  if (count == 1) {
    mldsa_expand_mask(p, y, rhopp, kappa);
    return;
  }
  uint64_t st[4][25];
  uint8_t buf[4][MASK_BLOCKS * SHAKE256_RATE];
  for (unsigned s = 0; s < 4; s++) {
    const uint16_t nonce = (uint16_t)(kappa + (s < count ? s : 0));
    uint8_t seed[66];
    memcpy(seed, rhopp, 64);
    seed[64] = (uint8_t)nonce;
    seed[65] = (uint8_t)(nonce >> 8);
    sponge_start(st[s], seed, sizeof seed, SHAKE256_RATE);
    fm_zeroize(seed, sizeof seed);
  }
  for (unsigned b = 0; b < MASK_BLOCKS; b++) {
    keccak_f1600_x4_nowipe(st);
    for (unsigned s = 0; s < count; s++) sponge_block(buf[s] + b * SHAKE256_RATE, st[s], SHAKE256_RATE);
  }
  for (unsigned s = 0; s < count; s++) mldsa_unpack_z(p, &y[s], buf[s]);
  fm_zeroize(st, sizeof st);
  fm_zeroize(buf, sizeof buf);
  keccak_x4_wipe_stack();
}

/* ---- SampleInBall (Algorithm 29) ----------------------------------------------------------- */

void mldsa_sample_in_ball(const mldsa_params *p, mldsa_poly *c, const uint8_t *ctilde) {
  keccak_state st;
  shake256_init(&st);
  keccak_absorb(&st, ctilde, p->ctilde_len);
  uint8_t buf[SHAKE256_RATE];
  keccak_squeeze_blocks(&st, buf, 1);
  uint64_t signs = 0;
  for (size_t i = 0; i < 8; i++) signs |= (uint64_t)buf[i] << (8 * i);
  size_t pos = 8;

  memset(c->c, 0, sizeof c->c);
  for (size_t i = MLDSA_N - p->tau; i < MLDSA_N; i++) {
    size_t j;
    do {
      if (pos == SHAKE256_RATE) {
        keccak_squeeze_blocks(&st, buf, 1);
        pos = 0;
      }
      j = buf[pos++];
    } while (j > i);
    c->c[i] = c->c[j];
    c->c[j] = 1 - 2 * (int32_t)(signs & 1);
    signs >>= 1;
  }
}
