/* Four Keccak-f[1600] permutations at once on AVX2 (x86-64 only): 64-bit lane x + 5y of the four
 * states sits in one 256-bit register, state s in its 64-bit element s, so every step of a round
 * (FIPS 202 section 3.2) is one vector instruction for all four states. The rounds are those of
 * keccak.c's KECCAK_ROUND_TO (theta's column parities and D values, then one output row of
 * rho, pi, chi and iota at a time), so the same lanes come out bit for bit (test_keccak_diff).
 *
 * Rotations: AVX2 has no 64-bit rotate, so a rotation by n is a left shift by n, a right shift
 * by 64 - n and an OR; rotations by 8 and 56 move whole bytes and are one byte shuffle. With
 * AVX-512VL the same rounds use VPROLQ (keccak_f1600_x4_avx512vl).
 *
 * Constant time: a fixed sequence of XOR, AND-NOT, shifts, shuffles, loads and stores at fixed
 * addresses; nothing branches on or indexes by a lane. The interleaved copies of the states are
 * locals of the permutation's frame, like what the compiler spills: the callers wipe that whole
 * frame (keccak_f1600_x4 as soon as the permutation returns, the users of
 * keccak_f1600_x4_nowipe after their last block; keccak.c "Stack residue"), so they are not wiped
 * a second time here. */
#include "module/sha3/internal.h"

#if defined(__x86_64__)
#include <immintrin.h>

#include "module/internal.h"

/* FIPS 202 section 3.2.5: RC[ir] (the same table as keccak.c's). */
static const uint64_t k_rc[24] = {
    UINT64_C(0x0000000000000001), UINT64_C(0x0000000000008082), UINT64_C(0x800000000000808a),
    UINT64_C(0x8000000080008000), UINT64_C(0x000000000000808b), UINT64_C(0x0000000080000001),
    UINT64_C(0x8000000080008081), UINT64_C(0x8000000000008009), UINT64_C(0x000000000000008a),
    UINT64_C(0x0000000000000088), UINT64_C(0x0000000080008009), UINT64_C(0x000000008000000a),
    UINT64_C(0x000000008000808b), UINT64_C(0x800000000000008b), UINT64_C(0x8000000000008089),
    UINT64_C(0x8000000000008003), UINT64_C(0x8000000000008002), UINT64_C(0x8000000000000080),
    UINT64_C(0x000000000000800a), UINT64_C(0x800000008000000a), UINT64_C(0x8000000080008081),
    UINT64_C(0x8000000000008080), UINT64_C(0x0000000080000001), UINT64_C(0x8000000080008008),
};

/* ---- Interleaving ------------------------------------------------------------------------ */

/* transpose4 exchanges rows and columns of the 4x4 matrix of 64-bit words r0..r3 (row i in r_i):
 * it is its own inverse, so it both interleaves four lanes of four states and undoes it. */
#define TRANSPOSE4(r0, r1, r2, r3)                                   \
  do {                                                               \
    const __m256i t0_ = _mm256_unpacklo_epi64(r0, r1);               \
    const __m256i t1_ = _mm256_unpackhi_epi64(r0, r1);               \
    const __m256i t2_ = _mm256_unpacklo_epi64(r2, r3);               \
    const __m256i t3_ = _mm256_unpackhi_epi64(r2, r3);               \
    r0 = _mm256_permute2x128_si256(t0_, t2_, 0x20);                  \
    r1 = _mm256_permute2x128_si256(t1_, t3_, 0x20);                  \
    r2 = _mm256_permute2x128_si256(t0_, t2_, 0x31);                  \
    r3 = _mm256_permute2x128_si256(t1_, t3_, 0x31);                  \
  } while (0)

/* interleave: v[l] = (a[0][l], a[1][l], a[2][l], a[3][l]); deinterleave writes them back. */
#define INTERLEAVE_FNS(SUFFIX, TARGET)                                                       \
  TARGET static inline __attribute__((always_inline)) void interleave_##SUFFIX(             \
      __m256i v[25], const uint64_t a[4][25]) {                                            \
    for (unsigned l = 0; l < 24; l += 4) {                                                 \
      __m256i r0 = _mm256_loadu_si256((const __m256i *)&a[0][l]);                         \
      __m256i r1 = _mm256_loadu_si256((const __m256i *)&a[1][l]);                         \
      __m256i r2 = _mm256_loadu_si256((const __m256i *)&a[2][l]);                         \
      __m256i r3 = _mm256_loadu_si256((const __m256i *)&a[3][l]);                         \
      TRANSPOSE4(r0, r1, r2, r3);                                                          \
      v[l] = r0;                                                                           \
      v[l + 1] = r1;                                                                       \
      v[l + 2] = r2;                                                                       \
      v[l + 3] = r3;                                                                       \
    }                                                                                      \
    v[24] = _mm256_set_epi64x((long long)a[3][24], (long long)a[2][24], (long long)a[1][24], \
                              (long long)a[0][24]);                                        \
  }                                                                                        \
  TARGET static inline __attribute__((always_inline)) void deinterleave_##SUFFIX(           \
      uint64_t a[4][25], const __m256i v[25]) {                                            \
    for (unsigned l = 0; l < 24; l += 4) {                                                 \
      __m256i r0 = v[l], r1 = v[l + 1], r2 = v[l + 2], r3 = v[l + 3];                      \
      TRANSPOSE4(r0, r1, r2, r3);                                                          \
      _mm256_storeu_si256((__m256i *)&a[0][l], r0);                                       \
      _mm256_storeu_si256((__m256i *)&a[1][l], r1);                                       \
      _mm256_storeu_si256((__m256i *)&a[2][l], r2);                                       \
      _mm256_storeu_si256((__m256i *)&a[3][l], r3);                                       \
    }                                                                                      \
    const __m128i lo = _mm256_castsi256_si128(v[24]);                                      \
    const __m128i hi = _mm256_extracti128_si256(v[24], 1);                                 \
    a[0][24] = (uint64_t)_mm_cvtsi128_si64(lo);                                            \
    a[1][24] = (uint64_t)_mm_extract_epi64(lo, 1);                                         \
    a[2][24] = (uint64_t)_mm_cvtsi128_si64(hi);                                            \
    a[3][24] = (uint64_t)_mm_extract_epi64(hi, 1);                                         \
  }

/* ---- One round ------------------------------------------------------------------------------
 * ROUND_TO(A, E, rc, ROL) reads the 25 interleaved lanes from A and writes the round's output to
 * E; ROL(x, n) rotates every 64-bit element of x left by the constant n. Row y of the output
 * takes lanes l0..l4 XORed with D[d0..d4] and rotated by r0..r4 (keccak.c's KECCAK_ROW table). */
#define XROW(A, E, y, l0, d0, r0, l1, d1, r1, l2, d2, r2, l3, d3, r3, l4, d4, r4, rcv, ROL) \
  do {                                                                                    \
    const __m256i b0 = ROL(_mm256_xor_si256(A[l0], D##d0), r0);                           \
    const __m256i b1 = ROL(_mm256_xor_si256(A[l1], D##d1), r1);                           \
    const __m256i b2 = ROL(_mm256_xor_si256(A[l2], D##d2), r2);                           \
    const __m256i b3 = ROL(_mm256_xor_si256(A[l3], D##d3), r3);                           \
    const __m256i b4 = ROL(_mm256_xor_si256(A[l4], D##d4), r4);                           \
    E[5 * (y)] = _mm256_xor_si256(_mm256_xor_si256(b0, _mm256_andnot_si256(b1, b2)), rcv); \
    E[5 * (y) + 1] = _mm256_xor_si256(b1, _mm256_andnot_si256(b2, b3));                  \
    E[5 * (y) + 2] = _mm256_xor_si256(b2, _mm256_andnot_si256(b3, b4));                   \
    E[5 * (y) + 3] = _mm256_xor_si256(b3, _mm256_andnot_si256(b4, b0));                   \
    E[5 * (y) + 4] = _mm256_xor_si256(b4, _mm256_andnot_si256(b0, b1));                   \
  } while (0)

#define XOR5(A, x)                                                                     \
  _mm256_xor_si256(_mm256_xor_si256(_mm256_xor_si256(A[x], A[(x) + 5]),                \
                                    _mm256_xor_si256(A[(x) + 10], A[(x) + 15])),       \
                   A[(x) + 20])

#define ROUND_TO(A, E, rc, ROL)                                                             \
  do {                                                                                      \
    const __m256i C0 = XOR5(A, 0), C1 = XOR5(A, 1), C2 = XOR5(A, 2);                        \
    const __m256i C3 = XOR5(A, 3), C4 = XOR5(A, 4);                                         \
    const __m256i D0 = _mm256_xor_si256(C4, ROL(C1, 1));                                    \
    const __m256i D1 = _mm256_xor_si256(C0, ROL(C2, 1));                                    \
    const __m256i D2 = _mm256_xor_si256(C1, ROL(C3, 1));                                    \
    const __m256i D3 = _mm256_xor_si256(C2, ROL(C4, 1));                                    \
    const __m256i D4 = _mm256_xor_si256(C3, ROL(C0, 1));                                    \
    const __m256i rcv = _mm256_set1_epi64x((long long)(rc));                                \
    const __m256i zero = _mm256_setzero_si256();                                            \
    XROW(A, E, 0, 0, 0, 0, 6, 1, 44, 12, 2, 43, 18, 3, 21, 24, 4, 14, rcv, ROL);           \
    XROW(A, E, 1, 3, 3, 28, 9, 4, 20, 10, 0, 3, 16, 1, 45, 22, 2, 61, zero, ROL);          \
    XROW(A, E, 2, 1, 1, 1, 7, 2, 6, 13, 3, 25, 19, 4, 8, 20, 0, 18, zero, ROL);            \
    XROW(A, E, 3, 4, 4, 27, 5, 0, 36, 11, 1, 10, 17, 2, 15, 23, 3, 56, zero, ROL);         \
    XROW(A, E, 4, 2, 2, 62, 8, 3, 55, 14, 4, 39, 15, 0, 41, 21, 1, 2, zero, ROL);          \
  } while (0)

/* AVX2 rotations: by 0 nothing, by 8 and 56 a byte shuffle within each 64-bit element, else
 * two shifts and an OR. n is a constant, so the choice folds at compile time. */
#define ROT8_MASK _mm256_set_epi8(14, 13, 12, 11, 10, 9, 8, 15, 6, 5, 4, 3, 2, 1, 0, 7, \
                                  14, 13, 12, 11, 10, 9, 8, 15, 6, 5, 4, 3, 2, 1, 0, 7)
#define ROT56_MASK _mm256_set_epi8(8, 15, 14, 13, 12, 11, 10, 9, 0, 7, 6, 5, 4, 3, 2, 1, \
                                   8, 15, 14, 13, 12, 11, 10, 9, 0, 7, 6, 5, 4, 3, 2, 1)
#define ROL_AVX2(x, n)                                                              \
  ((n) == 0    ? (x)                                                               \
   : (n) == 8  ? _mm256_shuffle_epi8((x), ROT8_MASK)                               \
   : (n) == 56 ? _mm256_shuffle_epi8((x), ROT56_MASK)                              \
               : _mm256_or_si256(_mm256_slli_epi64((x), (n) & 63),                 \
                                 _mm256_srli_epi64((x), (64 - (n)) & 63)))
#define ROL_AVX512(x, n) ((n) == 0 ? (x) : _mm256_rol_epi64((x), (n) & 63))

#define X4_PERMUTATION(NAME, SUFFIX, TARGET, ROL)                             \
  INTERLEAVE_FNS(SUFFIX, TARGET)                                             \
  TARGET __attribute__((noinline)) void NAME(uint64_t a[4][25]) {            \
    __m256i s[25], e[25];                                                    \
    interleave_##SUFFIX(s, (const uint64_t(*)[25])a);                        \
    for (unsigned round = 0; round < 24; round += 2) {                       \
      ROUND_TO(s, e, k_rc[round], ROL);                                      \
      ROUND_TO(e, s, k_rc[round + 1], ROL);                                  \
    }                                                                        \
    deinterleave_##SUFFIX(a, s);                                             \
  }

X4_PERMUTATION(keccak_f1600_x4_avx2, avx2, __attribute__((target("avx2"))), ROL_AVX2)
X4_PERMUTATION(keccak_f1600_x4_avx512vl, avx512vl,
               __attribute__((target("avx2,avx512f,avx512vl"))), ROL_AVX512)

#endif
