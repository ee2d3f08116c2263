/* Portable AES (FIPS 197): bitsliced, constant time, no table indexed by key or data.
 *
 * State representation. Four blocks are processed together in eight 64-bit words q[0..7]:
 * q[b] holds bit b of each of the 64 state bytes, at bit position
 *     16*r + 4*c + blk      (r = row 0..3, c = column 0..3, blk = block 0..3)
 * where state byte s[r][c] of block blk is input byte 4*c + r (FIPS 197 3.4). With rows in
 * 16-bit lanes, ShiftRows is a rotation inside each lane and MixColumns needs only 64-bit
 * rotations by 16 and 32 (which move row r+1, r+2 onto row r). SubBytes is the Boyar-Peralta
 * 113-gate circuit applied to the eight words, so every one of the 64 bytes goes through the same
 * boolean operations: there is no memory access that depends on a key or data value.
 *
 * The round keys are stored in the same form, each replicated over the four block lanes, so
 * AddRoundKey is eight XORs. Decryption uses the same round keys with the inverse round.
 *
 * The compiler still uses SIMD registers (SSE2, NEON) for copies and some loops, so each entry
 * point ends with aes_clear_portable_registers (internal.h says why).
 *
 * The eight state words, the round keys in use and the S-box circuit's temporaries do not fit in
 * 15 general registers: the compiler spills some to stack slots outside the locals each entry
 * point zeroizes (objdump: 53 general-register stack slots in aes_portable_ctr with gcc 12 -O2;
 * test_aes_stack and test_gcm_residue saw 40-160 key-dependent bytes after each service). The
 * services of aes.c and gcm.c therefore wipe the stack after every call on the portable path
 * (AES_BULK_STACK_WIPE in internal.h); ghash.c's multiply spills its masked operands likewise. */
#include <string.h>

#include "module/aes/internal.h"
#include "module/internal.h"

/* The round functions are forced inline and their 8-word loops unrolled, so that the state
 * stays in registers as scalar words: otherwise GCC vectorizes some loops and the mix of vector
 * and scalar accesses to the same array costs store-forwarding stalls (measured: twice as
 * slow). */
#define BS_INLINE __attribute__((always_inline)) inline

/* ---- Loading and storing ----------------------------------------------------------------- */

static inline uint32_t load32_le(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline void store32_le(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
  p[2] = (uint8_t)(v >> 16);
  p[3] = (uint8_t)(v >> 24);
}
static inline uint64_t load64_be(const uint8_t *p) {
  uint64_t v = 0;
  AES_UNROLL
  for (int i = 0; i < 8; i++) v = v << 8 | p[i];
  return v;
}
static inline void store64_be(uint8_t *p, uint64_t v) {
  for (int i = 7; i >= 0; i--) {
    p[i] = (uint8_t)v;
    v >>= 8;
  }
}

/* spread32 moves byte i of x to byte 2i of the result; unspread32 is its inverse. */
static inline uint64_t spread32(uint32_t x) {
  uint64_t y = x;
  y = (y | y << 16) & 0x0000ffff0000ffffull;
  return (y | y << 8) & 0x00ff00ff00ff00ffull;
}
static inline uint32_t unspread32(uint64_t y) {
  y &= 0x00ff00ff00ff00ffull;
  y = (y | y >> 8) & 0x0000ffff0000ffffull;
  return (uint32_t)(y | y >> 16);
}

/* swapmove exchanges the bits of b selected by mask with the bits of a selected by mask << n. */
#define SWAPMOVE(a, b, mask, n)                  \
  do {                                           \
    uint64_t t_ = (((a) >> (n)) ^ (b)) & (mask); \
    (b) ^= t_;                                   \
    (a) ^= t_ << (n);                            \
  } while (0)

/* bs_transpose views q as a 512-bit array indexed by (word k, byte j, bit b) and exchanges the
 * word index with the bit index: afterwards q[b] byte j bit k is the old q[k] byte j bit b. Each
 * SWAPMOVE layer exchanges one bit of k with one bit of b, so the transform is its own inverse. */
static void bs_transpose(uint64_t q[8]) {
  AES_UNROLL
  for (int i = 0; i < 8; i += 2) SWAPMOVE(q[i], q[i + 1], 0x5555555555555555ull, 1);
  AES_UNROLL
  for (int i = 0; i < 8; i++) {
    if ((i & 2) == 0) SWAPMOVE(q[i], q[i + 2], 0x3333333333333333ull, 2);
  }
  for (int i = 0; i < 4; i++) SWAPMOVE(q[i], q[i + 4], 0x0f0f0f0f0f0f0f0full, 4);
}

/* bs_pack builds the bitsliced state from 16 column words: col[4*blk + c] is column c of block
 * blk (bytes 4c..4c+3, little-endian). Word q[4*c0 + blk] gets, in byte 2r + c1, byte r of
 * column 2*c1 + c0; after the transpose that byte lands at bit (2r + c1)*8 + 4*c0 + blk =
 * 16r + 4c + blk, the layout described at the top of the file. */
static void bs_pack(uint64_t q[8], const uint32_t col[16]) {
  for (int blk = 0; blk < 4; blk++) {
    for (int c0 = 0; c0 < 2; c0++) {
      q[4 * c0 + blk] = spread32(col[4 * blk + c0]) | spread32(col[4 * blk + c0 + 2]) << 8;
    }
  }
  bs_transpose(q);
}

/* bs_unpack is the inverse of bs_pack (it transposes q in place). */
static void bs_unpack(uint32_t col[16], uint64_t q[8]) {
  bs_transpose(q);
  for (int blk = 0; blk < 4; blk++) {
    for (int c0 = 0; c0 < 2; c0++) {
      col[4 * blk + c0] = unspread32(q[4 * c0 + blk]);
      col[4 * blk + c0 + 2] = unspread32(q[4 * c0 + blk] >> 8);
    }
  }
}

/* load_blocks / store_blocks move up to four 16-byte blocks between memory and column words;
 * missing blocks are zero on load and skipped on store (n is public). */
static void load_blocks(uint32_t col[16], const uint8_t *in, size_t n) {
  memset(col, 0, 16 * sizeof col[0]);
  for (size_t i = 0; i < 4 * n; i++) col[i] = load32_le(in + 4 * i);
}
static void store_blocks(uint8_t *out, const uint32_t col[16], size_t n) {
  for (size_t i = 0; i < 4 * n; i++) store32_le(out + 4 * i, col[i]);
}

/* ---- The round functions ----------------------------------------------------------------- */

/* bs_sbox applies the AES S-box to every byte of the state: the Boyar-Peralta circuit
 * (J. Boyar, R. Peralta, "A new combinational logic minimization technique with applications to
 * cryptology", SEA 2010): a linear top layer (T), a shared GF(2^4)-tower inversion (M, 32 ANDs)
 * and a linear bottom layer (L) that also applies the affine map. U0 is the most significant
 * bit, S0 the most significant output bit. */
static BS_INLINE void bs_sbox(uint64_t q[8]) {
  const uint64_t U0 = q[7], U1 = q[6], U2 = q[5], U3 = q[4];
  const uint64_t U4 = q[3], U5 = q[2], U6 = q[1], U7 = q[0];

  /* Top linear layer. */
  const uint64_t T1 = U0 ^ U3, T2 = U0 ^ U5, T3 = U0 ^ U6, T4 = U3 ^ U5, T5 = U4 ^ U6;
  const uint64_t T6 = T1 ^ T5, T7 = U1 ^ U2, T8 = U7 ^ T6, T9 = U7 ^ T7, T10 = T6 ^ T7;
  const uint64_t T11 = U1 ^ U5, T12 = U2 ^ U5, T13 = T3 ^ T4, T14 = T6 ^ T11, T15 = T5 ^ T11;
  const uint64_t T16 = T5 ^ T12, T17 = T9 ^ T16, T18 = U3 ^ U7, T19 = T7 ^ T18, T20 = T1 ^ T19;
  const uint64_t T21 = U6 ^ U7, T22 = T7 ^ T21, T23 = T2 ^ T22, T24 = T2 ^ T10, T25 = T20 ^ T17;
  const uint64_t T26 = T3 ^ T16, T27 = T1 ^ T12;

  /* Middle non-linear layer: the inversion. */
  const uint64_t M1 = T13 & T6, M2 = T23 & T8, M3 = T14 ^ M1, M4 = T19 & U7, M5 = M4 ^ M1;
  const uint64_t M6 = T3 & T16, M7 = T22 & T9, M8 = T26 ^ M6, M9 = T20 & T17, M10 = M9 ^ M6;
  const uint64_t M11 = T1 & T15, M12 = T4 & T27, M13 = M12 ^ M11, M14 = T2 & T10;
  const uint64_t M15 = M14 ^ M11, M16 = M3 ^ M2, M17 = M5 ^ T24, M18 = M8 ^ M7, M19 = M10 ^ M15;
  const uint64_t M20 = M16 ^ M13, M21 = M17 ^ M15, M22 = M18 ^ M13, M23 = M19 ^ T25;
  const uint64_t M24 = M22 ^ M23, M25 = M22 & M20, M26 = M21 ^ M25, M27 = M20 ^ M21;
  const uint64_t M28 = M23 ^ M25, M29 = M28 & M27, M30 = M26 & M24, M31 = M20 & M23;
  const uint64_t M32 = M27 & M31, M33 = M27 ^ M25, M34 = M21 & M22, M35 = M24 & M34;
  const uint64_t M36 = M24 ^ M25, M37 = M21 ^ M29, M38 = M32 ^ M33, M39 = M23 ^ M30;
  const uint64_t M40 = M35 ^ M36, M41 = M38 ^ M40, M42 = M37 ^ M39, M43 = M37 ^ M38;
  const uint64_t M44 = M39 ^ M40, M45 = M42 ^ M41, M46 = M44 & T6, M47 = M40 & T8;
  const uint64_t M48 = M39 & U7, M49 = M43 & T16, M50 = M38 & T9, M51 = M37 & T17;
  const uint64_t M52 = M42 & T15, M53 = M45 & T27, M54 = M41 & T10, M55 = M44 & T13;
  const uint64_t M56 = M40 & T23, M57 = M39 & T19, M58 = M43 & T3, M59 = M38 & T22;
  const uint64_t M60 = M37 & T20, M61 = M42 & T1, M62 = M45 & T4, M63 = M41 & T2;

  /* Bottom linear layer (with the affine constant 0x63 as the four negations). */
  const uint64_t L0 = M61 ^ M62, L1 = M50 ^ M56, L2 = M46 ^ M48, L3 = M47 ^ M55;
  const uint64_t L4 = M54 ^ M58, L5 = M49 ^ M61, L6 = M62 ^ L5, L7 = M46 ^ L3, L8 = M51 ^ M59;
  const uint64_t L9 = M52 ^ M53, L10 = M53 ^ L4, L11 = M60 ^ L2, L12 = M48 ^ M51;
  const uint64_t L13 = M50 ^ L0, L14 = M52 ^ M61, L15 = M55 ^ L1, L16 = M56 ^ L0;
  const uint64_t L17 = M57 ^ L1, L18 = M58 ^ L8, L19 = M63 ^ L4, L20 = L0 ^ L1, L21 = L1 ^ L7;
  const uint64_t L22 = L3 ^ L12, L23 = L18 ^ L2, L24 = L15 ^ L9, L25 = L6 ^ L10, L26 = L7 ^ L9;
  const uint64_t L27 = L8 ^ L10, L28 = L11 ^ L14, L29 = L11 ^ L17;

  q[7] = L6 ^ L24;
  q[6] = ~(L16 ^ L26);
  q[5] = ~(L19 ^ L28);
  q[4] = L6 ^ L21;
  q[3] = L20 ^ L22;
  q[2] = L25 ^ L29;
  q[1] = ~(L13 ^ L27);
  q[0] = ~(L6 ^ L23);
}

/* bs_inv_affine applies the inverse of the S-box's affine map (FIPS 197 5.3.2):
 * b_i = b'_{i+2} ^ b'_{i+5} ^ b'_{i+7} ^ d_i with d = 0x05 (indices mod 8). */
static BS_INLINE void bs_inv_affine(uint64_t q[8]) {
  uint64_t r[8];
  AES_UNROLL
  for (int i = 0; i < 8; i++) r[i] = q[(i + 2) & 7] ^ q[(i + 5) & 7] ^ q[(i + 7) & 7];
  r[0] = ~r[0];
  r[2] = ~r[2];
  memcpy(q, r, sizeof r);
}

/* bs_inv_sbox: with S(x) = A(inv(x)), inv(y) = A^-1(S(y)), so S^-1(x) = inv(A^-1(x)) =
 * A^-1(S(A^-1(x))). Two cheap linear maps around the forward circuit. */
static BS_INLINE void bs_inv_sbox(uint64_t q[8]) {
  bs_inv_affine(q);
  bs_sbox(q);
  bs_inv_affine(q);
}

/* ShiftRows (FIPS 197 5.1.2): row r (bits 16r..16r+15, positions 4c + blk) is rotated so that
 * new column c takes old column c + r: a right rotation of the 16-bit lane by 4r, done as a
 * rotation by 8 of rows 2 and 3, then by 4 of rows 1 and 3. */
static BS_INLINE void bs_shift_rows(uint64_t q[8]) {
  AES_UNROLL
  for (int i = 0; i < 8; i++) {
    uint64_t x = q[i];
    x = (x & 0x00000000ffffffffull) | ((x >> 8) & 0x00ff00ff00000000ull) |
        ((x << 8) & 0xff00ff0000000000ull);
    q[i] = (x & 0x0000ffff0000ffffull) | ((x >> 4) & 0x0fff00000fff0000ull) |
           ((x << 12) & 0xf0000000f0000000ull);
  }
}

/* InvShiftRows (FIPS 197 5.3.1): the left rotation by 4r, in the same two steps. */
static BS_INLINE void bs_inv_shift_rows(uint64_t q[8]) {
  AES_UNROLL
  for (int i = 0; i < 8; i++) {
    uint64_t x = q[i];
    x = (x & 0x00000000ffffffffull) | ((x >> 8) & 0x00ff00ff00000000ull) |
        ((x << 8) & 0xff00ff0000000000ull);
    q[i] = (x & 0x0000ffff0000ffffull) | ((x << 4) & 0xfff00000fff00000ull) |
           ((x >> 12) & 0x000f0000000f0000ull);
  }
}

static inline uint64_t rotr64(uint64_t x, int n) { return (x >> n) | (x << (64 - n)); }

/* bs_xtime multiplies every byte by x in GF(2^8) mod x^8 + x^4 + x^3 + x + 1 (FIPS 197 4.2.1):
 * a shift of the bit planes, with the old top plane folded into planes 0, 1, 3 and 4. */
static BS_INLINE void bs_xtime(uint64_t out[8], const uint64_t u[8]) {
  out[0] = u[7];
  out[1] = u[0] ^ u[7];
  out[2] = u[1];
  out[3] = u[2] ^ u[7];
  out[4] = u[3] ^ u[7];
  out[5] = u[4];
  out[6] = u[5];
  out[7] = u[6];
}

/* MixColumns (FIPS 197 5.1.3): s'_r = 2 s_r ^ 3 s_{r+1} ^ s_{r+2} ^ s_{r+3}
 *                                   = 2 (s_r ^ s_{r+1}) ^ s_{r+1} ^ (s_{r+2} ^ s_{r+3}).
 * Rotating a word right by 16 puts row r+1 on row r. */
static BS_INLINE void bs_mix_columns(uint64_t q[8]) {
  uint64_t u[8], x[8];
  AES_UNROLL
  for (int i = 0; i < 8; i++) u[i] = q[i] ^ rotr64(q[i], 16);
  bs_xtime(x, u);
  AES_UNROLL
  for (int i = 0; i < 8; i++) q[i] = x[i] ^ rotr64(q[i], 16) ^ rotr64(u[i], 32);
}

/* InvMixColumns (FIPS 197 5.3.3): its matrix is MixColumns' times {05 00 04 00} (circulant), so
 * first s_r ^= 4 (s_r ^ s_{r+2}), then MixColumns. */
static BS_INLINE void bs_inv_mix_columns(uint64_t q[8]) {
  uint64_t w[8], x2[8], x4[8];
  AES_UNROLL
  for (int i = 0; i < 8; i++) w[i] = q[i] ^ rotr64(q[i], 32);
  bs_xtime(x2, w);
  bs_xtime(x4, x2);
  AES_UNROLL
  for (int i = 0; i < 8; i++) q[i] ^= x4[i];
  bs_mix_columns(q);
}

static BS_INLINE void bs_add_round_key(uint64_t q[8], const uint64_t *rk) {
  AES_UNROLL
  for (int i = 0; i < 8; i++) q[i] ^= rk[i];
}

/* bs_encrypt: the Cipher of FIPS 197 5.1 on four blocks. */
static void bs_encrypt(const aes_ks *ks, uint64_t q[8]) {
  const unsigned nr = ks->rounds;
  bs_add_round_key(q, ks->words);
  for (unsigned round = 1; round < nr; round++) {
    bs_sbox(q);
    bs_shift_rows(q);
    bs_mix_columns(q);
    bs_add_round_key(q, ks->words + 8 * round);
  }
  bs_sbox(q);
  bs_shift_rows(q);
  bs_add_round_key(q, ks->words + 8 * nr);
}

/* bs_decrypt: the InvCipher of FIPS 197 5.3 on four blocks. */
static void bs_decrypt(const aes_ks *ks, uint64_t q[8]) {
  const unsigned nr = ks->rounds;
  bs_add_round_key(q, ks->words + 8 * nr);
  for (unsigned round = nr - 1; round > 0; round--) {
    bs_inv_shift_rows(q);
    bs_inv_sbox(q);
    bs_add_round_key(q, ks->words + 8 * round);
    bs_inv_mix_columns(q);
  }
  bs_inv_shift_rows(q);
  bs_inv_sbox(q);
  bs_add_round_key(q, ks->words);
}

/* ---- Key expansion (FIPS 197 5.2) -------------------------------------------------------- */

/* sub_word applies the S-box to the four bytes of |w| with the same circuit: plane b holds bit
 * b of each byte at positions 0, 8, 16, 24 (the other bits are don't-cares, masked off). */
static uint32_t sub_word(uint32_t w) {
  uint64_t q[8];
  AES_UNROLL
  for (int b = 0; b < 8; b++) q[b] = (w >> b) & 0x01010101u;
  bs_sbox(q);
  uint32_t r = 0;
  AES_UNROLL
  for (int b = 0; b < 8; b++) r |= (uint32_t)(q[b] & 0x01010101u) << b;
  fm_zeroize(q, sizeof q);
  return r;
}

void aes_portable_init(aes_ks *ks, const uint8_t *key, size_t key_len) {
  /* Rcon[i] (FIPS 197 5.2): x^(i-1) in GF(2^8); indexed by the public round number. */
  static const uint8_t rcon[10] = {0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36};
  const unsigned nk = (unsigned)(key_len / 4), nr = nk + 6;
  uint32_t w[60]; /* 4 * (Nr + 1) words; word i is bytes 4i..4i+3, little-endian */
  for (unsigned i = 0; i < nk; i++) w[i] = load32_le(key + 4 * i);
  for (unsigned i = nk; i < 4 * (nr + 1); i++) {
    uint32_t temp = w[i - 1];
    if (i % nk == 0) {
      /* RotWord moves byte 0 to byte 3: a right rotation by 8 in little-endian order. */
      temp = sub_word((temp >> 8) | (temp << 24)) ^ rcon[i / nk - 1];
    } else if (nk > 6 && i % nk == 4) {
      temp = sub_word(temp);
    }
    w[i] = w[i - nk] ^ temp;
  }

  /* Each round key goes into bitsliced form, replicated over the four block lanes. */
  memset(ks, 0, sizeof *ks);
  for (unsigned round = 0; round <= nr; round++) {
    uint32_t col[16];
    for (int blk = 0; blk < 4; blk++) memcpy(col + 4 * blk, w + 4 * round, 16);
    bs_pack(ks->words + 8 * round, col);
    fm_zeroize(col, sizeof col);
  }
  ks->rounds = nr;
  ks->impl = AES_IMPL_PORTABLE;
  fm_zeroize(w, sizeof w);
  aes_clear_portable_registers(); /* the compiler vectorizes the copies of w with SSE2 */
}

/* ---- Modes ------------------------------------------------------------------------------- */

void aes_portable_ecb_encrypt(const aes_ks *ks, const uint8_t *in, uint8_t *out, size_t nblocks) {
  uint64_t q[8];
  uint32_t col[16];
  while (nblocks > 0) {
    const size_t n = nblocks < 4 ? nblocks : 4;
    load_blocks(col, in, n);
    bs_pack(q, col);
    bs_encrypt(ks, q);
    bs_unpack(col, q);
    store_blocks(out, col, n);
    in += 16 * n;
    out += 16 * n;
    nblocks -= n;
  }
  fm_zeroize(q, sizeof q);
  fm_zeroize(col, sizeof col);
  aes_clear_portable_registers();
}

void aes_portable_ecb_decrypt(const aes_ks *ks, const uint8_t *in, uint8_t *out, size_t nblocks) {
  uint64_t q[8];
  uint32_t col[16];
  while (nblocks > 0) {
    const size_t n = nblocks < 4 ? nblocks : 4;
    load_blocks(col, in, n);
    bs_pack(q, col);
    bs_decrypt(ks, q);
    bs_unpack(col, q);
    store_blocks(out, col, n);
    in += 16 * n;
    out += 16 * n;
    nblocks -= n;
  }
  fm_zeroize(q, sizeof q);
  fm_zeroize(col, sizeof col);
  aes_clear_portable_registers();
}

/* CBC encryption is a serial chain (SP 800-38A 6.2): one block per pass, three lanes idle. */
void aes_portable_cbc_encrypt(const aes_ks *ks, uint8_t iv[16], const uint8_t *in, uint8_t *out,
                              size_t nblocks) {
  uint64_t q[8];
  uint32_t col[16] = {0};
  uint32_t chain[4];
  for (int i = 0; i < 4; i++) chain[i] = load32_le(iv + 4 * i);
  for (size_t b = 0; b < nblocks; b++) {
    for (int i = 0; i < 4; i++) col[i] = chain[i] ^ load32_le(in + 16 * b + 4 * i);
    memset(col + 4, 0, 12 * sizeof col[0]);
    bs_pack(q, col);
    bs_encrypt(ks, q);
    bs_unpack(col, q);
    for (int i = 0; i < 4; i++) chain[i] = col[i];
    store_blocks(out + 16 * b, col, 1);
  }
  for (int i = 0; i < 4; i++) store32_le(iv + 4 * i, chain[i]);
  fm_zeroize(q, sizeof q);
  fm_zeroize(col, sizeof col);
  fm_zeroize(chain, sizeof chain);
  aes_clear_portable_registers();
}

/* CBC decryption is parallel: P_i = D(C_i) ^ C_{i-1}. The ciphertext is read before the
 * plaintext is written, so in == out works. */
void aes_portable_cbc_decrypt(const aes_ks *ks, uint8_t iv[16], const uint8_t *in, uint8_t *out,
                              size_t nblocks) {
  uint64_t q[8];
  uint32_t col[16], ct[16], prev[4];
  for (int i = 0; i < 4; i++) prev[i] = load32_le(iv + 4 * i);
  while (nblocks > 0) {
    const size_t n = nblocks < 4 ? nblocks : 4;
    load_blocks(ct, in, n);
    memcpy(col, ct, sizeof ct);
    bs_pack(q, col);
    bs_decrypt(ks, q);
    bs_unpack(col, q);
    for (size_t b = 0; b < n; b++) {
      for (int i = 0; i < 4; i++) {
        col[4 * b + i] ^= prev[i];
        prev[i] = ct[4 * b + i];
      }
    }
    store_blocks(out, col, n);
    in += 16 * n;
    out += 16 * n;
    nblocks -= n;
  }
  for (int i = 0; i < 4; i++) store32_le(iv + 4 * i, prev[i]);
  fm_zeroize(q, sizeof q);
  fm_zeroize(col, sizeof col);
  fm_zeroize(ct, sizeof ct);
  fm_zeroize(prev, sizeof prev);
  aes_clear_portable_registers();
}

/* ctr_next advances the big-endian counter (hi, lo) by one: with width 128 the carry out of the
 * low word goes into the high word; with width 32 only the low 32 bits change. Branch-free: the
 * counter may be secret (the DRBG's V). */
static inline void ctr_next(uint64_t *hi, uint64_t *lo, int width) {
  if (width == 32) {
    *lo = (*lo & 0xffffffff00000000ull) | (uint32_t)(*lo + 1);
  } else {
    *lo += 1;
    *hi += ct_is_zero_u64(*lo) & 1;
  }
}

void aes_portable_ctr(const aes_ks *ks, int width, uint8_t ctr[16], const uint8_t *in, uint8_t *out,
                      size_t nblocks) {
  uint64_t q[8], hi = load64_be(ctr), lo = load64_be(ctr + 8);
  uint32_t col[16];
  uint8_t blocks[64], ksbuf[64];
  while (nblocks > 0) {
    const size_t n = nblocks < 4 ? nblocks : 4;
    for (size_t b = 0; b < 4; b++) {
      store64_be(blocks + 16 * b, hi);
      store64_be(blocks + 16 * b + 8, lo);
      if (b < n) ctr_next(&hi, &lo, width);
    }
    load_blocks(col, blocks, 4);
    bs_pack(q, col);
    bs_encrypt(ks, q);
    bs_unpack(col, q);
    store_blocks(ksbuf, col, 4);
    for (size_t i = 0; i < 16 * n; i++) out[i] = (uint8_t)((in != NULL ? in[i] : 0) ^ ksbuf[i]);
    if (in != NULL) in += 16 * n;
    out += 16 * n;
    nblocks -= n;
  }
  store64_be(ctr, hi);
  store64_be(ctr + 8, lo);
  fm_zeroize(q, sizeof q);
  fm_zeroize(col, sizeof col);
  fm_zeroize(blocks, sizeof blocks);
  fm_zeroize(ksbuf, sizeof ksbuf);
  hi = lo = 0;
  aes_clear_portable_registers();
}
