/* Montgomery multiplication with AVX-512 IFMA (52-bit limbs, eight per 512-bit register).
 *
 * Numbers here are in radix 2^52: L "digits" of 52 bits, each in a 64-bit lane, padded with zero
 * lanes to a multiple of eight. VPMADD52LUQ / VPMADD52HUQ add the low / high 52 bits of 52x52-bit
 * products to 64-bit lanes, so sums can grow past 52 bits without carrying between lanes; only
 * the lowest lane is carried out once per round (in scalar registers: amm_scalar_round), and the
 * whole number once at the end (amm_finish).
 *
 * bn_ifma_amm is "almost Montgomery multiplication" with R' = 2^(52L): for a, b < 2N and
 * R' > 4N it returns a * b / R' mod N as a number below 2N (not fully reduced) with digits
 * below 2^52. Each of the L rounds adds a * b[i] and m * N, where m makes the lowest lane a
 * multiple of 2^52, and then moves every lane down one place; the high halves of the products
 * are added after the move (a product's high half belongs one lane up). A lane gains less than
 * 2^54 per round, so after L <= 80 rounds it is still below 2^61: no lane overflows.
 *
 * Constant time: the number of rounds and every memory address depend only on L; there is no
 * branch on the values, no memory index from them (the exponentiation's table reads load every
 * entry, bn_ifma_table_read), and the final carry's lane masks are only combined by integer
 * arithmetic and applied by masked adds, whose timing does not depend on the mask. (Valgrind
 * cannot run AVX-512 code, so the memcheck test covers the scalar paths; this one is constant
 * time by construction: a fixed instruction stream.) */
#include <immintrin.h>

#include "module/bn/mont_kernels.h"

#define BN_IFMA_TARGET __attribute__((target("avx512f,avx512ifma")))
#define MASK52 BN_IFMA_DIGIT_MASK

/* FOR_V: a loop over the registers, unrolled so that the arrays of registers stay registers. */
#if defined(__clang__)
/* clang takes its own spelling; without a full unroll it keeps the register arrays in memory
 * (measured: the kernels ran 2.5 times slower). */
#define FOR_V(v, end) _Pragma("clang loop unroll(full)") for (size_t v = 0; v < (end); v++)
#else
#define FOR_V(v, end) _Pragma("GCC unroll 16") for (size_t v = 0; v < (end); v++)
#endif

bool bn_ifma_available(void) {
  /* AVX-512F/VL/BW with the OS saving the registers, IFMA, and FIPSMOD_CPU not forcing the
   * portable paths: module/cpu.c decides all of it. */
  return fm_cpu_use(FM_CPU_AVX512 | FM_CPU_AVX512IFMA);
}

/* The round's m without waiting for the vector unit. Reading m off lane 0 after the round's
 * first products puts a vector-to-scalar move, the multiplication by k0, a broadcast, a
 * multiply-add and the move down on every round's critical path. Instead the scalar side
 * tracks lane 0 itself: x is lane 0 at the start of round i (exactly the 64-bit lane value, the
 * sums never overflow), y = x + lo(a0 * b_i) is lane 0 after the round's first products (m
 * comes from it), and next round's lane 0
 * is lane 1 at the start of this round (p1, read from the vector, which had a whole round to
 * compute it) plus the products landing there: lo(a1 b_i), lo(N1 m), hi(a0 b_i), hi(N0 m) and the
 * carry out of lane 0. Only scalar multiplications are on the chain from one m to the next.
 * lo / hi are the low / high 52 bits of a 104-bit product, as VPMADD52LUQ / VPMADD52HUQ take
 * them; every digit is below 2^52. Public control flow only. */
typedef struct {
  uint64_t m, carry, x_next;
} amm_round;

static inline __attribute__((always_inline)) amm_round amm_scalar_round(
    uint64_t x, uint64_t p1, uint64_t bi, uint64_t a0, uint64_t a1, uint64_t n0, uint64_t n1,
    uint64_t k0) {
  amm_round o;
  const bn_u128 ab0 = (bn_u128)a0 * bi, ab1 = (bn_u128)a1 * bi;
  const uint64_t y = x + ((uint64_t)ab0 & MASK52);
  const uint64_t pre = p1 + ((uint64_t)ab1 & MASK52) + (uint64_t)(ab0 >> 52);
  o.m = (y * k0) & MASK52;
  const bn_u128 nm0 = (bn_u128)n0 * o.m, nm1 = (bn_u128)n1 * o.m;
  o.carry = (y + ((uint64_t)nm0 & MASK52)) >> 52;
  o.x_next = pre + ((uint64_t)nm1 & MASK52) + (uint64_t)(nm0 >> 52) + o.carry;
  return o;
}

/* lane1: lane 1 of a register. */
#define LANE1(r) ((uint64_t)_mm_extract_epi64(_mm512_castsi512_si128(r), 1))

/* amm_finish: the accumulator's digits carried back below 2^52 and stored to r (8V digits), with
 * lane 0 taken from the scalar tracking (x0; the vector never adds the carries into lane 0, whose
 * value only amm_scalar_round reads). Every lane is below 2^61, so one step of "low 52 bits plus
 * the high bits of the lane below" leaves digits of at most 2^52 + 2^9 - 1, which carry at most
 * one more. Those last carries ripple like a binary addition: with G the lanes at or above 2^52
 * (they carry out) and P the lanes equal to 2^52 - 1 (they pass a carry on), one bit per lane,
 * the lanes that receive a carry are ((G << 1) + P) ^ P. That is integer arithmetic on the masks:
 * the same instructions for every value. The value is below 2^(52L), so nothing leaves the top. */
BN_IFMA_TARGET static inline __attribute__((always_inline)) void amm_finish(
    uint64_t *r, __m512i *acc, uint64_t x0, size_t V) {
  const __m512i zero = _mm512_setzero_si512(), one = _mm512_set1_epi64(1);
  const __m512i mask = _mm512_set1_epi64((long long)MASK52);
  __m512i hi[BN_IFMA_MAX_V], s[BN_IFMA_MAX_V];
  FOR_V(v, BN_IFMA_MAX_V) hi[v] = s[v] = zero; /* all set: no compiler sees an unset one */
  acc[0] = _mm512_mask_set1_epi64(acc[0], 1, (long long)x0);
  FOR_V(v, V) hi[v] = _mm512_srli_epi64(acc[v], 52);
  /* lane j gets the high bits of lane j - 1 (across registers). */
  s[0] = _mm512_add_epi64(_mm512_and_si512(acc[0], mask), _mm512_alignr_epi64(hi[0], zero, 7));
  FOR_V(v, V - 1) {
    s[v + 1] = _mm512_add_epi64(_mm512_and_si512(acc[v + 1], mask),
                                _mm512_alignr_epi64(hi[v + 1], hi[v], 7));
  }
  bn_u128 g = 0, p = 0;
  FOR_V(v, V) {
    g |= (bn_u128)(uint8_t)_mm512_cmpgt_epu64_mask(s[v], mask) << (8 * v);
    p |= (bn_u128)(uint8_t)_mm512_cmpeq_epu64_mask(s[v], mask) << (8 * v);
  }
  const bn_u128 c = ((g << 1) + p) ^ p;
  FOR_V(v, V) {
    const __mmask8 k = (__mmask8)(uint8_t)(c >> (8 * v));
    s[v] = _mm512_and_si512(_mm512_mask_add_epi64(s[v], k, s[v], one), mask);
    _mm512_storeu_si512((void *)(r + 8 * v), s[v]);
  }
}

/* amm_v: the kernel for V registers (V a constant after inlining), L rounds. m comes from
 * amm_scalar_round. A round's high halves go to a fresh h[] (weight one lane up) and are folded
 * into the accumulator after the move down, where they line up: the accumulator's chain per
 * round is only lo(a * b[i]), lo(m * N), the move and one add. */
BN_IFMA_TARGET static inline __attribute__((always_inline)) void amm_v(
    uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *N, uint64_t k0, size_t L,
    size_t V) {
  __m512i acc[BN_IFMA_MAX_V], h[BN_IFMA_MAX_V], A[BN_IFMA_MAX_V], M[BN_IFMA_MAX_V];
  const __m512i zero = _mm512_setzero_si512();
  /* Every register set, loaded or not, so no compiler can see an unset one. */
  FOR_V(v, BN_IFMA_MAX_V) {
    acc[v] = zero;
    h[v] = zero;
    A[v] = v < V ? _mm512_loadu_si512((const void *)(a + 8 * v)) : zero;
    M[v] = v < V ? _mm512_loadu_si512((const void *)(N + 8 * v)) : zero;
  }
  const uint64_t a0 = a[0], a1 = a[1], n0 = N[0], n1 = N[1];
  uint64_t x = 0;
  for (size_t i = 0; i < L; i++) {
    const uint64_t bs = b[i];
    const __m512i bi = _mm512_set1_epi64((long long)bs);
    /* m = lane0 * k0 mod 2^52, so lane0 + lo52(m * N[0]) == 0 mod 2^52 (amm_scalar_round). */
    const amm_round rd = amm_scalar_round(x, LANE1(acc[0]), bs, a0, a1, n0, n1, k0);
    x = rd.x_next;
    const uint64_t m = rd.m;
    FOR_V(v, V) acc[v] = _mm512_madd52lo_epu64(acc[v], A[v], bi);
    FOR_V(v, V) h[v] = _mm512_madd52hi_epu64(zero, A[v], bi);
    const __m512i mi = _mm512_set1_epi64((long long)m);
    FOR_V(v, V) acc[v] = _mm512_madd52lo_epu64(acc[v], M[v], mi);
    FOR_V(v, V) h[v] = _mm512_madd52hi_epu64(h[v], M[v], mi);
    /* Move every lane down one place (lane 0 is a multiple of 2^52 and leaves; its carry is in
     * x), then add the high halves, which now sit at their lanes. */
    FOR_V(v, V - 1) acc[v] = _mm512_alignr_epi64(acc[v + 1], acc[v], 1);
    acc[V - 1] = _mm512_alignr_epi64(zero, acc[V - 1], 1);
    FOR_V(v, V) acc[v] = _mm512_add_epi64(acc[v], h[v]);
  }
  amm_finish(r, acc, x, V);
}

BN_IFMA_TARGET void bn_ifma_amm(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                const uint64_t *N, uint64_t k0, size_t L) {
  /* A copy per register count, V a constant in each (so the register arrays stay registers):
   * 1024 to 4096-bit moduli take 3 to 10. L is at most 8 * BN_IFMA_MAX_V by contract. */
  switch ((L + 7) / 8) {
    case 1: amm_v(r, a, b, N, k0, L, 1); return;
    case 2: amm_v(r, a, b, N, k0, L, 2); return;
    case 3: amm_v(r, a, b, N, k0, L, 3); return;
    case 4: amm_v(r, a, b, N, k0, L, 4); return;
    case 5: amm_v(r, a, b, N, k0, L, 5); return;
    case 6: amm_v(r, a, b, N, k0, L, 6); return;
    case 7: amm_v(r, a, b, N, k0, L, 7); return;
    case 8: amm_v(r, a, b, N, k0, L, 8); return;
    case 9: amm_v(r, a, b, N, k0, L, 9); return;
    default: amm_v(r, a, b, N, k0, L, BN_IFMA_MAX_V); return;
  }
}

/* amm2_v: two independent multiplications (same L < 8V, own moduli) in one loop. A single
 * 1024-bit multiplication is bound by the latency of each round's chains; interleaving a second
 * one fills the idle slots, so the pair costs about 1.5 single ones. Used for RSA-CRT's two
 * half-size exponentiations. The pair is bound by the vector ports rather than by latency, so
 * it saves the high halves' register and add (amm_v's h[]) by multiplying copies of a and N
 * moved up one lane (S, T), at the price of a longer chain per round (measured: 8% faster for
 * the pair at 1024 bits, slower for a single multiplication, which keeps h[]). */
BN_IFMA_TARGET static inline __attribute__((always_inline)) void amm2_v(
    uint64_t *r1, const uint64_t *a1, const uint64_t *b1, const uint64_t *N1, uint64_t k01,
    uint64_t *r2, const uint64_t *a2, const uint64_t *b2, const uint64_t *N2, uint64_t k02,
    size_t L, size_t V) {
  enum { MV = 4 };
  __m512i acc1[MV], A1[MV], M1[MV], S1[MV], T1[MV], acc2[MV], A2[MV], M2[MV], S2[MV], T2[MV];
  const __m512i zero = _mm512_setzero_si512();
  FOR_V(v, MV) {
    acc1[v] = acc2[v] = zero;
    A1[v] = v < V ? _mm512_loadu_si512((const void *)(a1 + 8 * v)) : zero;
    M1[v] = v < V ? _mm512_loadu_si512((const void *)(N1 + 8 * v)) : zero;
    A2[v] = v < V ? _mm512_loadu_si512((const void *)(a2 + 8 * v)) : zero;
    M2[v] = v < V ? _mm512_loadu_si512((const void *)(N2 + 8 * v)) : zero;
  }
  /* S = a and T = N moved up one lane: a product's high half lands one lane above its low half,
   * so multiplying the moved copies adds the high halves straight into the accumulator before
   * the move down (no separate register and add per round). Needs digit 8V - 1 to be zero
   * (L < 8V): its high half would leave the top. */
  S1[0] = _mm512_alignr_epi64(A1[0], zero, 7);
  T1[0] = _mm512_alignr_epi64(M1[0], zero, 7);
  S2[0] = _mm512_alignr_epi64(A2[0], zero, 7);
  T2[0] = _mm512_alignr_epi64(M2[0], zero, 7);
  FOR_V(v, MV - 1) {
    S1[v + 1] = _mm512_alignr_epi64(A1[v + 1], A1[v], 7);
    T1[v + 1] = _mm512_alignr_epi64(M1[v + 1], M1[v], 7);
    S2[v + 1] = _mm512_alignr_epi64(A2[v + 1], A2[v], 7);
    T2[v + 1] = _mm512_alignr_epi64(M2[v + 1], M2[v], 7);
  }
  const uint64_t a10 = a1[0], a11 = a1[1], n10 = N1[0], n11 = N1[1];
  const uint64_t a20 = a2[0], a21 = a2[1], n20 = N2[0], n21 = N2[1];
  uint64_t x1 = 0, x2 = 0;
  for (size_t i = 0; i < L; i++) {
    const uint64_t bs1 = b1[i], bs2 = b2[i];
    const __m512i bi1 = _mm512_set1_epi64((long long)bs1);
    const __m512i bi2 = _mm512_set1_epi64((long long)bs2);
    const amm_round rd1 = amm_scalar_round(x1, LANE1(acc1[0]), bs1, a10, a11, n10, n11, k01);
    const amm_round rd2 = amm_scalar_round(x2, LANE1(acc2[0]), bs2, a20, a21, n20, n21, k02);
    x1 = rd1.x_next;
    x2 = rd2.x_next;
    const uint64_t m1 = rd1.m, m2 = rd2.m;
    FOR_V(v, V) acc1[v] = _mm512_madd52lo_epu64(acc1[v], A1[v], bi1);
    FOR_V(v, V) acc2[v] = _mm512_madd52lo_epu64(acc2[v], A2[v], bi2);
    FOR_V(v, V) acc1[v] = _mm512_madd52hi_epu64(acc1[v], S1[v], bi1);
    FOR_V(v, V) acc2[v] = _mm512_madd52hi_epu64(acc2[v], S2[v], bi2);
    const __m512i mi1 = _mm512_set1_epi64((long long)m1);
    const __m512i mi2 = _mm512_set1_epi64((long long)m2);
    FOR_V(v, V) acc1[v] = _mm512_madd52lo_epu64(acc1[v], M1[v], mi1);
    FOR_V(v, V) acc2[v] = _mm512_madd52lo_epu64(acc2[v], M2[v], mi2);
    FOR_V(v, V) acc1[v] = _mm512_madd52hi_epu64(acc1[v], T1[v], mi1);
    FOR_V(v, V) acc2[v] = _mm512_madd52hi_epu64(acc2[v], T2[v], mi2);
    FOR_V(v, V - 1) acc1[v] = _mm512_alignr_epi64(acc1[v + 1], acc1[v], 1);
    FOR_V(v, V - 1) acc2[v] = _mm512_alignr_epi64(acc2[v + 1], acc2[v], 1);
    acc1[V - 1] = _mm512_alignr_epi64(zero, acc1[V - 1], 1);
    acc2[V - 1] = _mm512_alignr_epi64(zero, acc2[V - 1], 1);
  }
  amm_finish(r1, acc1, x1, V);
  amm_finish(r2, acc2, x2, V);
}

BN_IFMA_TARGET void bn_ifma_amm_x2(uint64_t *r1, const uint64_t *a1, const uint64_t *b1,
                                   const uint64_t *N1, uint64_t k01, uint64_t *r2,
                                   const uint64_t *a2, const uint64_t *b2, const uint64_t *N2,
                                   uint64_t k02, size_t L) {
  /* amm2_v needs L < 8V; L == 8V (e.g. 1216-bit moduli) runs one after the other. */
  switch (L % 8 == 0 ? 0 : (L + 7) / 8) {
    case 3: amm2_v(r1, a1, b1, N1, k01, r2, a2, b2, N2, k02, L, 3); return;
    case 4: amm2_v(r1, a1, b1, N1, k01, r2, a2, b2, N2, k02, L, 4); return;
    default:
      bn_ifma_amm(r1, a1, b1, N1, k01, L);
      bn_ifma_amm(r2, a2, b2, N2, k02, L);
      return;
  }
}

/* bn_ifma_table_read: the vector twin of mont.c's table_read for the radix-2^52 tables. Every
 * entry is loaded and combined under a mask made arithmetically from (e XOR idx): all-ones for
 * the wanted entry, zero for the others. The loads, their addresses and the instruction stream
 * are the same for every idx (no mask register gates a load, no branch). */
BN_IFMA_TARGET static inline __attribute__((always_inline)) void table_read_v(
    uint64_t *r, const uint64_t *table, size_t entries, uint64_t idx, size_t V) {
  const size_t lanes = 8 * V;
  const __m512i zero = _mm512_setzero_si512(), one = _mm512_set1_epi64(1);
  const __m512i want = _mm512_set1_epi64((long long)idx);
  __m512i acc[BN_IFMA_MAX_V];
  FOR_V(v, BN_IFMA_MAX_V) acc[v] = zero;
  __m512i e_vec = zero;
  for (size_t e = 0; e < entries; e++) {
    const __m512i d = _mm512_xor_si512(e_vec, want);
    /* d | -d has its top bit set exactly when d != 0. */
    const __m512i nz = _mm512_srli_epi64(_mm512_or_si512(d, _mm512_sub_epi64(zero, d)), 63);
    const __m512i take = _mm512_sub_epi64(nz, one);
    const uint64_t *row = table + e * lanes;
    FOR_V(v, V) {
      const __m512i x = _mm512_loadu_si512((const void *)(row + 8 * v));
      acc[v] = _mm512_ternarylogic_epi64(acc[v], x, take, 0xF8); /* acc | (x & take) */
    }
    e_vec = _mm512_add_epi64(e_vec, one);
  }
  FOR_V(v, V) _mm512_storeu_si512((void *)(r + 8 * v), acc[v]);
}

BN_IFMA_TARGET void bn_ifma_table_read(uint64_t *r, const uint64_t *table, size_t entries,
                                       uint64_t idx, size_t lanes) {
  /* Constant register counts, as in bn_ifma_amm; lanes <= 8 * BN_IFMA_MAX_V by contract. */
  switch (lanes / 8) {
    case 1: table_read_v(r, table, entries, idx, 1); return;
    case 2: table_read_v(r, table, entries, idx, 2); return;
    case 3: table_read_v(r, table, entries, idx, 3); return;
    case 4: table_read_v(r, table, entries, idx, 4); return;
    case 5: table_read_v(r, table, entries, idx, 5); return;
    case 6: table_read_v(r, table, entries, idx, 6); return;
    case 7: table_read_v(r, table, entries, idx, 7); return;
    case 8: table_read_v(r, table, entries, idx, 8); return;
    case 9: table_read_v(r, table, entries, idx, 9); return;
    default: table_read_v(r, table, entries, idx, BN_IFMA_MAX_V); return;
  }
}
