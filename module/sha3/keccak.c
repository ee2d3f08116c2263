/* Keccak-f[1600] and the sponge of FIPS 202.
 *
 * The permutation works on 25 64-bit lanes; every step (theta, rho, pi, chi, iota) is a fixed
 * sequence of XORs, ANDs, NOTs and rotations by constants, so it is constant time by
 * construction: nothing here branches on or indexes by state or data. The sponge's only
 * branches are on lengths and positions, which are public. */
#if defined(__x86_64__)
#include <emmintrin.h>
#endif
#include <string.h>

#include "module/internal.h"
#include "module/sha3/internal.h"

/* ---- The permutation --------------------------------------------------------------------- */

/* FIPS 202 section 3.2.5: the round constants RC[ir] of iota, for ir = 0..23. */
static const uint64_t k_round_constants[24] = {
    UINT64_C(0x0000000000000001), UINT64_C(0x0000000000008082), UINT64_C(0x800000000000808a),
    UINT64_C(0x8000000080008000), UINT64_C(0x000000000000808b), UINT64_C(0x0000000080000001),
    UINT64_C(0x8000000080008081), UINT64_C(0x8000000000008009), UINT64_C(0x000000000000008a),
    UINT64_C(0x0000000000000088), UINT64_C(0x0000000080008009), UINT64_C(0x000000008000000a),
    UINT64_C(0x000000008000808b), UINT64_C(0x800000000000008b), UINT64_C(0x8000000000008089),
    UINT64_C(0x8000000000008003), UINT64_C(0x8000000000008002), UINT64_C(0x8000000000000080),
    UINT64_C(0x000000000000800a), UINT64_C(0x800000008000000a), UINT64_C(0x8000000080008081),
    UINT64_C(0x8000000000008080), UINT64_C(0x0000000080000001), UINT64_C(0x8000000080008008),
};

static inline uint64_t rol64(uint64_t x, unsigned n) { return (x << n) | (x >> ((64 - n) & 63)); }

/* One round, lanes named A[x + 5y]. rho's offsets (FIPS 202 Table 2) and pi's permutation
 * (A'[x, y] = A[(x + 3y) mod 5, x]) are folded into the B assignments: B[y, 2x + 3y] =
 * rot(A[x, y], r[x, y]). */
#define KECCAK_ROUND(A, rc)                                                                     \
  do {                                                                                          \
    uint64_t C0 = A[0] ^ A[5] ^ A[10] ^ A[15] ^ A[20];                                          \
    uint64_t C1 = A[1] ^ A[6] ^ A[11] ^ A[16] ^ A[21];                                          \
    uint64_t C2 = A[2] ^ A[7] ^ A[12] ^ A[17] ^ A[22];                                          \
    uint64_t C3 = A[3] ^ A[8] ^ A[13] ^ A[18] ^ A[23];                                          \
    uint64_t C4 = A[4] ^ A[9] ^ A[14] ^ A[19] ^ A[24];                                          \
    uint64_t D0 = C4 ^ rol64(C1, 1), D1 = C0 ^ rol64(C2, 1), D2 = C1 ^ rol64(C3, 1);            \
    uint64_t D3 = C2 ^ rol64(C4, 1), D4 = C3 ^ rol64(C0, 1);                                    \
    uint64_t B0 = A[0] ^ D0;                                                                    \
    uint64_t B1 = rol64(A[6] ^ D1, 44);                                                         \
    uint64_t B2 = rol64(A[12] ^ D2, 43);                                                        \
    uint64_t B3 = rol64(A[18] ^ D3, 21);                                                        \
    uint64_t B4 = rol64(A[24] ^ D4, 14);                                                        \
    uint64_t B5 = rol64(A[3] ^ D3, 28);                                                         \
    uint64_t B6 = rol64(A[9] ^ D4, 20);                                                         \
    uint64_t B7 = rol64(A[10] ^ D0, 3);                                                         \
    uint64_t B8 = rol64(A[16] ^ D1, 45);                                                        \
    uint64_t B9 = rol64(A[22] ^ D2, 61);                                                        \
    uint64_t B10 = rol64(A[1] ^ D1, 1);                                                         \
    uint64_t B11 = rol64(A[7] ^ D2, 6);                                                         \
    uint64_t B12 = rol64(A[13] ^ D3, 25);                                                       \
    uint64_t B13 = rol64(A[19] ^ D4, 8);                                                        \
    uint64_t B14 = rol64(A[20] ^ D0, 18);                                                       \
    uint64_t B15 = rol64(A[4] ^ D4, 27);                                                        \
    uint64_t B16 = rol64(A[5] ^ D0, 36);                                                        \
    uint64_t B17 = rol64(A[11] ^ D1, 10);                                                       \
    uint64_t B18 = rol64(A[17] ^ D2, 15);                                                       \
    uint64_t B19 = rol64(A[23] ^ D3, 56);                                                       \
    uint64_t B20 = rol64(A[2] ^ D2, 62);                                                        \
    uint64_t B21 = rol64(A[8] ^ D3, 55);                                                        \
    uint64_t B22 = rol64(A[14] ^ D4, 39);                                                       \
    uint64_t B23 = rol64(A[15] ^ D0, 41);                                                       \
    uint64_t B24 = rol64(A[21] ^ D1, 2);                                                        \
    /* chi (3.2.4): A[x] = B[x] ^ (~B[x+1] & B[x+2]) along each row; iota (3.2.5) on A[0]. */  \
    A[0] = B0 ^ (~B1 & B2) ^ (rc);                                                              \
    A[1] = B1 ^ (~B2 & B3);                                                                     \
    A[2] = B2 ^ (~B3 & B4);                                                                     \
    A[3] = B3 ^ (~B4 & B0);                                                                     \
    A[4] = B4 ^ (~B0 & B1);                                                                     \
    A[5] = B5 ^ (~B6 & B7);                                                                     \
    A[6] = B6 ^ (~B7 & B8);                                                                     \
    A[7] = B7 ^ (~B8 & B9);                                                                     \
    A[8] = B8 ^ (~B9 & B5);                                                                     \
    A[9] = B9 ^ (~B5 & B6);                                                                     \
    A[10] = B10 ^ (~B11 & B12);                                                                 \
    A[11] = B11 ^ (~B12 & B13);                                                                 \
    A[12] = B12 ^ (~B13 & B14);                                                                 \
    A[13] = B13 ^ (~B14 & B10);                                                                 \
    A[14] = B14 ^ (~B10 & B11);                                                                 \
    A[15] = B15 ^ (~B16 & B17);                                                                 \
    A[16] = B16 ^ (~B17 & B18);                                                                 \
    A[17] = B17 ^ (~B18 & B19);                                                                 \
    A[18] = B18 ^ (~B19 & B15);                                                                 \
    A[19] = B19 ^ (~B15 & B16);                                                                 \
    A[20] = B20 ^ (~B21 & B22);                                                                 \
    A[21] = B21 ^ (~B22 & B23);                                                                 \
    A[22] = B22 ^ (~B23 & B24);                                                                 \
    A[23] = B23 ^ (~B24 & B20);                                                                 \
    A[24] = B24 ^ (~B20 & B21);                                                                 \
  } while (0)

/* ---- Stack residue --------------------------------------------------------------------------
 * The rounds write every other round into a local copy of the state and keep more values live
 * than the 16 general registers hold, so the permutation's frame (about 400 bytes at -O3 with
 * gcc 12, below the sponge worker's) holds state-derived lanes that C cannot name and so cannot
 * wipe. The
 * permutation is therefore never inlined, and every entry point of this file that permutes ends
 * with keccak_stack_wipe, which zeroizes KECCAK_STACK_WIPE bytes just below its caller's frame:
 * where the permutation's frame just was. Sanitizer instrumentation and -O0 keep far more in
 * memory, so those builds wipe more. test_keccak_residue checks it (so the units on SHAKE need no
 * stack wipe of their own for it). */
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define FM_KECCAK_INSTRUMENTED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || !defined(__OPTIMIZE__)
#define FM_KECCAK_INSTRUMENTED 1
#endif
#if defined(FM_KECCAK_INSTRUMENTED)
#define KECCAK_STACK_WIPE 8192
#else
#define KECCAK_STACK_WIPE 1024
#endif

/* Not instrumented by ASan, whose redzones around |area| would leave part of the region
 * unwiped. Volatile 16-byte stores on x86-64: the compiler may neither drop them nor make them a
 * call; elsewhere fm_stack_wipe_area. The interleaved four-state permutations
 * (keccak_x4_avx2.c, x86-64 only) hold two interleaved copies of the states and spill vector
 * registers, a frame of about 3 KiB: keccak_f1600_x4 wipes 4 times as much. */
#if defined(__x86_64__)
#define KECCAK_STACK_WIPE_FN(NAME, BYTES)                                                      \
  __attribute__((noinline, no_sanitize_address)) static void NAME(void) {                    \
    __m128i area[(BYTES) / 16];                                                               \
    volatile __m128i *p = area;                                                               \
    _Pragma("GCC unroll 8") for (size_t i = 0; i < (BYTES) / 16; i++) p[i] = _mm_setzero_si128(); \
    __asm__ __volatile__("" : : "r"(area) : "memory");                                        \
  }
#else
#define KECCAK_STACK_WIPE_FN(NAME, BYTES)                                                      \
  __attribute__((noinline, no_sanitize_address)) static void NAME(void) {                    \
    _Alignas(16) uint8_t area[BYTES];                                                         \
    fm_stack_wipe_area(area, sizeof area);                                                    \
  }
#endif
KECCAK_STACK_WIPE_FN(keccak_stack_wipe, KECCAK_STACK_WIPE)
#if defined(__x86_64__)
KECCAK_STACK_WIPE_FN(keccak_stack_wipe_x4, 4 * KECCAK_STACK_WIPE)
#endif

/* KECCAK_ROUND_TO is KECCAK_ROUND reading the lanes from |A| and writing them to |E| (another
 * array), one output row at a time: each row needs only its five B values, so D0..D4, the
 * five Bs and the row's outputs fit in the 16 general registers, where the in-place form keeps
 * all 25 Bs live at once and spills most of them. The row contents are those of KECCAK_ROUND. */
#define KECCAK_ROW(A, E, y, l0, d0, r0, l1, d1, r1, l2, d2, r2, l3, d3, r3, l4, d4, r4, rc) \
  do {                                                                                     \
    const uint64_t b0 = rol64(A[l0] ^ D##d0, r0), b1 = rol64(A[l1] ^ D##d1, r1);            \
    const uint64_t b2 = rol64(A[l2] ^ D##d2, r2), b3 = rol64(A[l3] ^ D##d3, r3);            \
    const uint64_t b4 = rol64(A[l4] ^ D##d4, r4);                                          \
    E[5 * (y)] = b0 ^ (~b1 & b2) ^ (rc);                                                   \
    E[5 * (y) + 1] = b1 ^ (~b2 & b3);                                                      \
    E[5 * (y) + 2] = b2 ^ (~b3 & b4);                                                      \
    E[5 * (y) + 3] = b3 ^ (~b4 & b0);                                                      \
    E[5 * (y) + 4] = b4 ^ (~b0 & b1);                                                      \
  } while (0)

#define KECCAK_ROUND_TO(A, E, rc)                                                      \
  do {                                                                              \
    const uint64_t C0 = A[0] ^ A[5] ^ A[10] ^ A[15] ^ A[20];                          \
    const uint64_t C1 = A[1] ^ A[6] ^ A[11] ^ A[16] ^ A[21];                          \
    const uint64_t C2 = A[2] ^ A[7] ^ A[12] ^ A[17] ^ A[22];                          \
    const uint64_t C3 = A[3] ^ A[8] ^ A[13] ^ A[18] ^ A[23];                          \
    const uint64_t C4 = A[4] ^ A[9] ^ A[14] ^ A[19] ^ A[24];                          \
    const uint64_t D0 = C4 ^ rol64(C1, 1), D1 = C0 ^ rol64(C2, 1);                    \
    const uint64_t D2 = C1 ^ rol64(C3, 1), D3 = C2 ^ rol64(C4, 1);                    \
    const uint64_t D4 = C3 ^ rol64(C0, 1);                                            \
    KECCAK_ROW(A, E, 0, 0, 0, 0, 6, 1, 44, 12, 2, 43, 18, 3, 21, 24, 4, 14, rc); \
    KECCAK_ROW(A, E, 1, 3, 3, 28, 9, 4, 20, 10, 0, 3, 16, 1, 45, 22, 2, 61, 0); \
    KECCAK_ROW(A, E, 2, 1, 1, 1, 7, 2, 6, 13, 3, 25, 19, 4, 8, 20, 0, 18, 0); \
    KECCAK_ROW(A, E, 3, 4, 4, 27, 5, 0, 36, 11, 1, 10, 17, 2, 15, 23, 3, 56, 0); \
    KECCAK_ROW(A, E, 4, 2, 2, 62, 8, 3, 55, 14, 4, 39, 15, 0, 41, 21, 1, 2, 0); \
  } while (0)

/* keccak_rounds runs the 24 rounds, two a pass (a -> e -> a), so that no round copies the state. */
static inline __attribute__((always_inline)) void keccak_rounds(uint64_t a[25]) {
  uint64_t e[25];
  for (int round = 0; round < 24; round += 2) {
    KECCAK_ROUND_TO(a, e, k_round_constants[round]);
    KECCAK_ROUND_TO(e, a, k_round_constants[round + 1]);
  }
}

__attribute__((noinline)) void keccak_f1600_portable(uint64_t a[25]) { keccak_rounds(a); }

/* keccak_f1600_bmi is the same C compiled for BMI1 and BMI2: chi's ~b & c becomes one ANDN and
 * the rotations RORX, which leave the flags alone and need no copy of their source (about a fifth
 * fewer instructions). Constant time like the portable code: the same operations, no branch or
 * index on data. Call it only when fm_cpu_use(FM_CPU_BMI2) (cpu.c sets it with BMI1 only). */
#if FM_HAVE_X86_64_PATHS
__attribute__((noinline, target("bmi,bmi2"))) static void keccak_f1600_bmi(uint64_t a[25]) {
  keccak_rounds(a);
}
#endif

/* keccak_permute is the permutation without the wipe, for the sponge below (which wipes once
 * per call instead of once per block). */
static inline void keccak_permute(uint64_t a[25]) {
#if FM_HAVE_X86_64_PATHS
  if (fm_cpu_use(FM_CPU_BMI2)) {
    keccak_f1600_bmi(a);
    return;
  }
#endif
  keccak_f1600_portable(a);
}

void keccak_f1600(uint64_t a[25]) {
  keccak_permute(a);
  keccak_stack_wipe();
}

/* Four states: interleaved on AVX2 or AVX-512VL (keccak_x4_avx2.c), else one after the other. */
void keccak_f1600_x4(uint64_t a[4][25]) {
#if defined(__x86_64__)
  if (fm_cpu_use(FM_CPU_AVX512)) {
    keccak_f1600_x4_avx512vl(a);
    keccak_stack_wipe_x4();
    return;
  }
  if (fm_cpu_use(FM_CPU_AVX2)) {
    keccak_f1600_x4_avx2(a);
    keccak_stack_wipe_x4();
    return;
  }
#endif
  for (int i = 0; i < 4; i++) keccak_permute(a[i]);
  keccak_stack_wipe();
}

/* keccak_f1600_x4_nowipe is keccak_f1600_x4 without the stack wipe, for a sampler that permutes
 * block after block and wipes once at the end, with keccak_x4_wipe_stack called from the same
 * function as the permutations (so that it wipes below the same frame). */
void keccak_f1600_x4_nowipe(uint64_t a[4][25]) {
#if defined(__x86_64__)
  if (fm_cpu_use(FM_CPU_AVX512)) {
    keccak_f1600_x4_avx512vl(a);
    return;
  }
  if (fm_cpu_use(FM_CPU_AVX2)) {
    keccak_f1600_x4_avx2(a);
    return;
  }
#endif
  for (int i = 0; i < 4; i++) keccak_permute(a[i]);
}

void keccak_x4_wipe_stack(void) {
#if defined(__x86_64__)
  keccak_stack_wipe_x4();
#else
  keccak_stack_wipe();
#endif
}

const char *keccak_path_name(void) {
  const char *one = fm_cpu_use(FM_CPU_BMI2) ? "bmi2" : "portable";
#if defined(__x86_64__)
  if (fm_cpu_use(FM_CPU_AVX512)) return fm_cpu_use(FM_CPU_BMI2) ? "bmi2+x4-avx512" : "x4-avx512";
  if (fm_cpu_use(FM_CPU_AVX2)) return fm_cpu_use(FM_CPU_BMI2) ? "bmi2+x4-avx2" : "x4-avx2";
#endif
  return one;
}

/* ---- The sponge (FIPS 202 section 4) ------------------------------------------------------- */

/* Lanes hold bytes little-endian (FIPS 202 B.1). On a little-endian host that is memory order,
 * so bytes move in and out of the state as a byte array, eight at a time; elsewhere a byte at a
 * time through shifts. Every loop runs on public lengths and positions only. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define KECCAK_LANES_IN_MEMORY_ORDER 1
#else
#define KECCAK_LANES_IN_MEMORY_ORDER 0
#endif

/* xor_bytes XORs the |n| bytes at |in| into the state from byte |at| on. */
static inline void xor_bytes(uint64_t a[25], size_t at, const uint8_t *in, size_t n) {
#if KECCAK_LANES_IN_MEMORY_ORDER
  uint8_t *b = (uint8_t *)a + at;
  for (; n >= 8; n -= 8, b += 8, in += 8) {
    uint64_t x, y;
    memcpy(&x, b, 8);
    memcpy(&y, in, 8);
    x ^= y;
    memcpy(b, &x, 8);
  }
  for (size_t i = 0; i < n; i++) b[i] ^= in[i];
#else
  for (size_t i = 0; i < n; i++) a[(at + i) / 8] ^= (uint64_t)in[i] << (8 * ((at + i) % 8));
#endif
}

/* get_bytes copies |n| bytes of the state from byte |at| on to |out|. */
static inline void get_bytes(const uint64_t a[25], size_t at, uint8_t *out, size_t n) {
#if KECCAK_LANES_IN_MEMORY_ORDER
  memcpy(out, (const uint8_t *)a + at, n);
#else
  for (size_t i = 0; i < n; i++) out[i] = (uint8_t)(a[(at + i) / 8] >> (8 * ((at + i) % 8)));
#endif
}

static inline void xor_byte(uint64_t a[25], size_t i, uint8_t b) { xor_bytes(a, i, &b, 1); }

void keccak_init(keccak_state *s, uint32_t rate, uint8_t dsep) {
  memset(s->a, 0, sizeof s->a);
  s->rate = rate;
  s->pos = 0;
  s->dsep = dsep;
  s->squeezing = 0;
}

void sha3_init(keccak_state *s, unsigned bits) {
  keccak_init(s, (uint32_t)(200 - 2 * (bits / 8)), KECCAK_DSEP_SHA3);
}
void shake128_init(keccak_state *s) { keccak_init(s, SHAKE128_RATE, KECCAK_DSEP_SHAKE); }
void shake256_init(keccak_state *s) { keccak_init(s, SHAKE256_RATE, KECCAK_DSEP_SHAKE); }

__attribute__((noinline)) static void absorb(keccak_state *s, const uint8_t *in, size_t len) {
  const size_t rate = s->rate;
  size_t pos = s->pos;
  if (len == 0) return;
  /* Fill a partial block first. */
  if (pos != 0) {
    const size_t n = rate - pos < len ? rate - pos : len;
    xor_bytes(s->a, pos, in, n);
    in += n;
    len -= n;
    pos += n;
    if (pos < rate) {
      s->pos = (uint32_t)pos;
      return;
    }
    keccak_permute(s->a);
    pos = 0;
  }
  /* Whole blocks. */
  for (; len >= rate; in += rate, len -= rate) {
    xor_bytes(s->a, 0, in, rate);
    keccak_permute(s->a);
  }
  xor_bytes(s->a, 0, in, len);
  s->pos = (uint32_t)len;
}

/* pad pads the absorbed message (pad10*1 after the domain bits) and permutes once, so that the
 * first block of output is ready. */
static void pad(keccak_state *s) {
  xor_byte(s->a, s->pos, s->dsep);
  xor_byte(s->a, s->rate - 1, 0x80);
  keccak_permute(s->a);
  s->pos = 0;
  s->squeezing = 1;
}

__attribute__((noinline)) static void squeeze(keccak_state *s, uint8_t *out, size_t len) {
  if (!s->squeezing) pad(s);
  const size_t rate = s->rate;
  size_t pos = s->pos;
  while (len > 0) {
    if (pos == rate) {
      keccak_permute(s->a);
      pos = 0;
    }
    const size_t n = rate - pos < len ? rate - pos : len;
    get_bytes(s->a, pos, out, n);
    out += n;
    len -= n;
    pos += n;
  }
  s->pos = (uint32_t)pos;
}

/* The entry points run the noinline workers above and then wipe below their own frame, which
 * covers the workers' frames and the permutation's (see "Stack residue"). */
void keccak_absorb(keccak_state *s, const uint8_t *in, size_t len) {
  absorb(s, in, len);
  keccak_stack_wipe();
}

void keccak_squeeze(keccak_state *s, uint8_t *out, size_t len) {
  squeeze(s, out, len);
  keccak_stack_wipe();
}

void keccak_squeeze_blocks(keccak_state *s, uint8_t *out, size_t nblocks) {
  keccak_squeeze(s, out, nblocks * s->rate);
}

void keccak_wipe(keccak_state *s) { fm_zeroize(s, sizeof *s); }

/* oneshot absorbs |in| into the fresh sponge |rate|/|dsep| and squeezes |out_len| bytes. Out of
 * line with the state in its own frame, so that the entry points' wipe below their frame covers
 * the state too (clang kept 9 state bytes at the top of an entry point's own frame). */
__attribute__((noinline)) static void oneshot(uint32_t rate, uint8_t dsep, const uint8_t *in,
                                              size_t in_len, uint8_t *out, size_t out_len) {
  keccak_state s;
  keccak_init(&s, rate, dsep);
  absorb(&s, in, in_len);
  squeeze(&s, out, out_len);
  keccak_wipe(&s);
}

void sha3_digest(unsigned bits, const uint8_t *in, size_t len, uint8_t *out) {
  keccak_state probe;
  sha3_init(&probe, bits); /* the rate and domain byte of SHA3-|bits| (public) */
  const uint32_t rate = probe.rate;
  const uint8_t dsep = probe.dsep;
  oneshot(rate, dsep, in, len, out, bits / 8);
  keccak_stack_wipe();
}

void shake128(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len) {
  oneshot(SHAKE128_RATE, KECCAK_DSEP_SHAKE, in, in_len, out, out_len);
  keccak_stack_wipe();
}

void shake256(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len) {
  oneshot(SHAKE256_RATE, KECCAK_DSEP_SHAKE, in, in_len, out, out_len);
  keccak_stack_wipe();
}
