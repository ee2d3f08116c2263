/* SampleNTT (FIPS 203 Algorithm 7) for the whole matrix A-hat on a pool of four lanes: each entry
 * is its own SHAKE128 sponge, and four sponges share one call of keccak_f1600_x4 (the sha3 unit
 * interleaves them on AVX2); a lane whose entry is complete takes the next one. The input
 * rho || j || i (34 bytes) fits in one block, so absorbing is writing the block and its padding
 * straight into the lanes. rho is public, and so is every byte squeezed: the rejection loop's
 * branches and counts leak nothing. The pool also runs one-shot hashes of rate 136 (H(ek) and
 * J(z || c)) in lanes of their own, one block per permutation, so that their chains of
 * permutations share the four-way calls with the matrix. */
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

/* A job on one lane of the pool: a matrix entry (msg NULL), squeezed until it has 256
 * coefficients, or a one-shot sponge of rate 136 over msg's pieces, one block absorbed per
 * permutation, then squeezed a block per permutation. */
typedef struct lane_job {
  const keccak_msg *msg;
  size_t blocks; /* sponge: blocks to absorb (the padding's included) */
  size_t perms;  /* sponge: permutations in all (blocks, and one per further output block) */
  size_t done;   /* sponge: permutations so far */
  unsigned entry; /* matrix: the entry's index i k + j */
  unsigned n;     /* matrix: coefficients so far */
} lane_job;

/* msg_block writes bytes [off, off + 136) of piece[0] || piece[1] || padding (the domain byte
 * right after the message, 0x80 in the block's last byte) to blk. Positions are public. */
static void msg_block(uint8_t blk[SHAKE256_RATE], const keccak_msg *m, size_t off) {
  const size_t total = m->len[0] + m->len[1];
  memset(blk, 0, SHAKE256_RATE);
  size_t base = 0;
  for (unsigned p = 0; p < 2; base += m->len[p], p++) {
    const size_t lo = base > off ? base : off;
    const size_t end = base + m->len[p], hi = end < off + SHAKE256_RATE ? end : off + SHAKE256_RATE;
    if (lo < hi) memcpy(blk + (lo - off), m->piece[p] + (lo - base), hi - lo);
  }
  if (total >= off && total - off < SHAKE256_RATE) {
    blk[total - off] ^= m->dsep;
    blk[SHAKE256_RATE - 1] ^= 0x80;
  }
}

/* xor_block adds a 136-byte block into the lanes (little-endian: on such a host, a lane is its
 * eight bytes in memory order). */
static void xor_block(uint64_t a[25], const uint8_t blk[SHAKE256_RATE]) {
  for (unsigned l = 0; l < SHAKE256_RATE / 8; l++) {
    uint64_t v = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(&v, blk + 8 * l, 8);
#else
    for (unsigned b = 0; b < 8; b++) v |= (uint64_t)blk[8 * l + b] << (8 * b);
#endif
    a[l] ^= v;
  }
}

void mlkem_sample_matrix_hash(mlkem_poly *a, const uint8_t rho[MLKEM_SYM_BYTES], unsigned k,
                              int transposed, const keccak_msg *msg, unsigned nmsg) {
  const unsigned entries = k * k;
  uint64_t st[4][25];
  uint8_t block[SHAKE128_RATE];
  lane_job job[4];
  unsigned busy[4] = {0, 0, 0, 0};
  unsigned next_msg = 0, next_entry = 0;
  memset(st, 0, sizeof st);
  memset(job, 0, sizeof job);
  for (;;) {
    /* Idle lanes take the next job: the sponges first (their chains of permutations are the
     * longest), then the matrix entries. */
    unsigned active = 0, only = 0;
    for (unsigned s = 0; s < 4; s++) {
      if (!busy[s] && next_msg < nmsg) {
        const keccak_msg *m = &msg[next_msg++];
        job[s].msg = m;
        job[s].blocks = (m->len[0] + m->len[1]) / SHAKE256_RATE + 1;
        job[s].perms = job[s].blocks + (m->out_len + SHAKE256_RATE - 1) / SHAKE256_RATE - 1;
        job[s].done = 0;
        memset(st[s], 0, sizeof st[s]);
        msg_block(block, m, 0);
        xor_block(st[s], block);
        busy[s] = 1;
      } else if (!busy[s] && next_entry < entries) {
        const unsigned e = next_entry++, i = e / k, j = e % k;
        job[s].msg = NULL;
        job[s].entry = e;
        job[s].n = 0;
        /* A-hat[i][j] = SampleNTT(rho || j || i) (Algorithm 13, step 5); the transpose swaps
         * them. */
        if (transposed) load_lanes(st[s], rho, (uint8_t)i, (uint8_t)j);
        else load_lanes(st[s], rho, (uint8_t)j, (uint8_t)i);
        busy[s] = 1;
      }
      if (busy[s]) {
        active++;
        only = s;
      }
    }
    if (active == 0) break;
    /* A lone job runs on the one-state permutation, so that no permutation is spent on idle
     * lanes (whose stale states the four-way permutation permutes and nothing reads). */
    if (active == 1) keccak_f1600(st[only]);
    else keccak_f1600_x4(st);
    for (unsigned s = 0; s < 4; s++) {
      if (!busy[s]) continue;
      lane_job *jb = &job[s];
      if (jb->msg != NULL) {
        if (++jb->done < jb->blocks) {
          msg_block(block, jb->msg, jb->done * SHAKE256_RATE);
          xor_block(st[s], block);
        } else {
          /* Output block done - blocks. */
          const size_t off = (jb->done - jb->blocks) * SHAKE256_RATE;
          const size_t len = jb->msg->out_len - off;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
          memcpy(jb->msg->out + off, st[s], len < SHAKE256_RATE ? len : SHAKE256_RATE);
#else
          store_block(block, st[s], SHAKE256_RATE);
          memcpy(jb->msg->out + off, block, len < SHAKE256_RATE ? len : SHAKE256_RATE);
#endif
          if (jb->done == jb->perms) busy[s] = 0;
        }
        continue;
      }
      /* Squeeze a block (about 2.8 per entry; the count depends on rho alone). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
      /* The lanes in memory are the output bytes (FIPS 202 B.1). */
      mlkem_rej_uniform(a[jb->entry].c, &jb->n, (const uint8_t *)st[s], SHAKE128_RATE);
#else
      store_block(block, st[s], SHAKE128_RATE);
      mlkem_rej_uniform(a[jb->entry].c, &jb->n, block, SHAKE128_RATE);
#endif
      if (jb->n == MLKEM_N) busy[s] = 0;
    }
  }
  /* A-hat is public; the sponges (J's holds z) and blocks are wiped. */
  fm_zeroize(st, sizeof st);
  fm_zeroize(block, sizeof block);
}

void mlkem_sample_matrix(mlkem_poly *a, const uint8_t rho[MLKEM_SYM_BYTES], unsigned k,
                         int transposed) {
  mlkem_sample_matrix_hash(a, rho, k, transposed, NULL, 0);
}
