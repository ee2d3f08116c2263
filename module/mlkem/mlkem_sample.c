/* SampleNTT (FIPS 203 Algorithm 7) for the whole matrix A-hat, four entries at a time: each entry
 * is its own SHAKE128 sponge, and four sponges share one call of keccak_f1600_x4 (the sha3 unit
 * interleaves them on AVX2). The input rho || j || i (34 bytes) fits in one block, so absorbing
 * is writing the block and its padding straight into the lanes. rho is public, and so is every
 * byte squeezed: the rejection loop's branches and counts leak nothing. */
#include <assert.h>
#include <string.h>

#include "module/internal.h"
#include "module/mlkem/internal.h"
#include "module/mlkem/poly.h"
#include "module/sha3/internal.h"

static_assert(MLKEM_SYM_BYTES + 2 < SHAKE128_RATE, "rho || j || i fits in one SHAKE128 block");
static_assert(SHAKE128_RATE % 3 == 0, "a block holds whole 3-byte groups");

/* load_key_nonce starts the sponge of SHAKE256(key || nonce) (33 bytes, one block). */
static void load_key_nonce(uint64_t a[25], const uint8_t key[MLKEM_SYM_BYTES], uint8_t nonce) {
  memset(a, 0, 25 * sizeof a[0]);
  for (unsigned l = 0; l < 4; l++) {
    uint64_t v = 0;
    for (unsigned b = 0; b < 8; b++) v |= (uint64_t)key[8 * l + b] << (8 * b);
    a[l] = v;
  }
  a[4] = (uint64_t)nonce | ((uint64_t)KECCAK_DSEP_SHAKE << 8);
  a[SHAKE256_RATE / 8 - 1] ^= (uint64_t)0x80 << 56;
}

/* load_lanes starts the sponge of SHAKE128(rho || b0 || b1): the block, then FIPS 202's padding
 * (the SHAKE domain bits 1111, then pad10*1 closing at the last byte of the rate). */
static void load_lanes(uint64_t a[25], const uint8_t rho[MLKEM_SYM_BYTES], uint8_t b0, uint8_t b1) {
  memset(a, 0, 25 * sizeof a[0]);
  for (unsigned l = 0; l < 4; l++) {
    uint64_t v = 0;
    for (unsigned b = 0; b < 8; b++) v |= (uint64_t)rho[8 * l + b] << (8 * b);
    a[l] = v;
  }
  a[4] = (uint64_t)b0 | ((uint64_t)b1 << 8) | ((uint64_t)KECCAK_DSEP_SHAKE << 16);
  a[SHAKE128_RATE / 8 - 1] ^= (uint64_t)0x80 << 56;
}

/* store_block writes the first |rate| bytes of lanes |a|, little-endian. */
static void store_block(uint8_t *out, const uint64_t a[25], unsigned rate) {
  for (unsigned l = 0; l < rate / 8; l++) {
    for (unsigned b = 0; b < 8; b++) out[8 * l + b] = (uint8_t)(a[l] >> (8 * b));
  }
}

void mlkem_prf_x4(uint8_t out[4][MLKEM_PRF_X4_BYTES], const uint8_t key[MLKEM_SYM_BYTES],
                  const uint8_t nonce[4], unsigned nblocks) {
  uint64_t st[4][25];
  for (unsigned s = 0; s < 4; s++) load_key_nonce(st[s], key, nonce[s]);
  for (unsigned b = 0; b < nblocks; b++) {
    keccak_f1600_x4(st);
    for (unsigned s = 0; s < 4; s++) store_block(out[s] + b * SHAKE256_RATE, st[s], SHAKE256_RATE);
  }
  fm_zeroize(st, sizeof st);
}

void mlkem_sample_matrix(mlkem_poly *a, const uint8_t rho[MLKEM_SYM_BYTES], unsigned k,
                         int transposed) {
  const unsigned entries = k * k;
  uint64_t st[4][25];
  uint8_t block[SHAKE128_RATE];
  for (unsigned first = 0; first < entries; first += 4) {
    unsigned n[4] = {MLKEM_N, MLKEM_N, MLKEM_N, MLKEM_N}; /* lanes past the end: done */
    const unsigned count = entries - first < 4 ? entries - first : 4;
    for (unsigned s = 0; s < 4; s++) {
      /* An unused lane of the last group repeats the first entry; its output is dropped. */
      const unsigned e = first + (s < count ? s : 0);
      const unsigned i = e / k, j = e % k;
      /* A-hat[i][j] = SampleNTT(rho || j || i) (Algorithm 13, step 5); the transpose swaps them. */
      if (transposed) load_lanes(st[s], rho, (uint8_t)i, (uint8_t)j);
      else load_lanes(st[s], rho, (uint8_t)j, (uint8_t)i);
      if (s < count) n[s] = 0;
    }
    /* Squeeze a block from every sponge until each entry has 256 coefficients (about 2.8
     * blocks; the loop count depends on rho alone). Once a single sponge is left (and for a
     * group of one) it runs on the one-state permutation, so that no permutation is spent on a
     * finished or unused lane. */
    unsigned left = count;
    while (left > 0) {
      unsigned only = 0;
      for (unsigned s = 0; s < count; s++)
        if (n[s] < MLKEM_N) only = s;
      if (left == 1) keccak_f1600(st[only]);
      else keccak_f1600_x4(st);
      left = 0;
      for (unsigned s = 0; s < count; s++) {
        if (n[s] < MLKEM_N) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
          /* The lanes in memory are the output bytes (FIPS 202 B.1). */
          mlkem_rej_uniform(a[first + s].c, &n[s], (const uint8_t *)st[s], SHAKE128_RATE);
#else
          store_block(block, st[s], SHAKE128_RATE);
          mlkem_rej_uniform(a[first + s].c, &n[s], block, sizeof block);
#endif
        }
        left += n[s] < MLKEM_N;
      }
    }
  }
  /* A-hat is public, but the sponges are wiped like any intermediate. */
  fm_zeroize(st, sizeof st);
  fm_zeroize(block, sizeof block);
}
