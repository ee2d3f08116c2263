/* Montgomery multiplication with AVX-512 IFMA (52-bit limbs, eight per 512-bit register).
 *
 * Numbers here are in radix 2^52: L "digits" of 52 bits, each in a 64-bit lane, padded with zero
 * lanes to a multiple of eight. VPMADD52LUQ / VPMADD52HUQ add the low / high 52 bits of 52x52-bit
 * products to 64-bit lanes, so sums can grow past 52 bits without carrying between lanes; only
 * the lowest lane is carried out once per round, and the whole number once at the end.
 *
 * bn_ifma_amm is "almost Montgomery multiplication" with R' = 2^(52L): for a, b < 2N and
 * R' > 4N it returns a * b / R' mod N as a number below 2N (not fully reduced) with digits
 * below 2^52. Each of the L rounds adds a * b[i] and m * N, where m makes the lowest lane a
 * multiple of 2^52, and then moves every lane down one place; the high halves of the products
 * are added after the move (a product's high half belongs one lane up). A lane gains less than
 * 2^54 per round, so after L <= 80 rounds it is still below 2^61: no lane overflows.
 *
 * Constant time: the number of rounds and every memory address depend only on L; there is no
 * branch on the values. (Valgrind cannot run AVX-512 code, so the memcheck test covers the
 * scalar paths; this one is constant time by construction: fixed instruction stream.) */
#include <cpuid.h>
#include <immintrin.h>
#include <stdatomic.h>

#include "module/bn/mont_kernels.h"

#define BN_IFMA_TARGET __attribute__((target("avx512f,avx512ifma")))
#define MASK52 ((uint64_t)0xFFFFFFFFFFFFFull)

/* FOR_V: a loop over the registers, unrolled so that the arrays of registers stay registers. */
#define FOR_V(v, end) _Pragma("GCC unroll 16") for (size_t v = 0; v < (end); v++)

bool bn_ifma_available(void) {
  /* IFMA has no FM_CPU_* bit of its own: FM_CPU_AVX512 (AVX-512F/VL/BW with the OS saving the
   * registers, and FIPSMOD_CPU not forcing the portable paths) plus CPUID.7.0:EBX bit 21,
   * read once. A race on the cache only repeats the CPUID. */
  static _Atomic int cached = -1;
  if (!fm_cpu_use(FM_CPU_AVX512)) return false;
  int c = atomic_load_explicit(&cached, memory_order_relaxed);
  if (c < 0) {
    unsigned a, b, cx, d;
    c = 0;
    if (__get_cpuid_max(0, NULL) >= 7) {
      __cpuid_count(7, 0, a, b, cx, d);
      c = (int)((b >> 21) & 1);
    }
    atomic_store_explicit(&cached, c, memory_order_relaxed);
  }
  return c != 0;
}

/* amm_v: the kernel for V registers (V a constant after inlining), L rounds. A round's high
 * halves go to a fresh h[] (weight one lane up, so they never touch lane 0 and m does not wait
 * for them) and are folded into the accumulator after the move down, where they line up: the
 * chain a round must wait for is only lo(a * b[i]), m, lo(m * N), the move and one add. */
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
  const uint64_t n_low = N[0];
  for (size_t i = 0; i < L; i++) {
    const __m512i bi = _mm512_set1_epi64((long long)b[i]);
    FOR_V(v, V) acc[v] = _mm512_madd52lo_epu64(acc[v], A[v], bi);
    FOR_V(v, V) h[v] = _mm512_madd52hi_epu64(zero, A[v], bi);
    /* m = lane0 * k0 mod 2^52, so lane0 + lo52(m * N[0]) == 0 mod 2^52. */
    uint64_t lane0 = (uint64_t)_mm_cvtsi128_si64(_mm512_castsi512_si128(acc[0]));
    uint64_t m = (lane0 * k0) & MASK52;
    uint64_t carry = (lane0 + ((n_low * m) & MASK52)) >> 52;
    const __m512i mi = _mm512_set1_epi64((long long)m);
    FOR_V(v, V) acc[v] = _mm512_madd52lo_epu64(acc[v], M[v], mi);
    FOR_V(v, V) h[v] = _mm512_madd52hi_epu64(h[v], M[v], mi);
    /* Move every lane down one place (lane 0 is a multiple of 2^52 and leaves as the carry),
     * then add the high halves, which now sit at their lanes. */
    FOR_V(v, V - 1) acc[v] = _mm512_alignr_epi64(acc[v + 1], acc[v], 1);
    acc[V - 1] = _mm512_alignr_epi64(zero, acc[V - 1], 1);
    acc[0] = _mm512_add_epi64(acc[0], _mm512_zextsi128_si512(_mm_cvtsi64_si128((long long)carry)));
    FOR_V(v, V) acc[v] = _mm512_add_epi64(acc[v], h[v]);
  }
  /* Carry through the lanes once: digits back below 2^52. */
  uint64_t t[8 * BN_IFMA_MAX_V];
  FOR_V(v, V) _mm512_storeu_si512((void *)(t + 8 * v), acc[v]);
  uint64_t c = 0;
  for (size_t j = 0; j < 8 * V; j++) {
    uint64_t s = t[j] + c;
    r[j] = s & MASK52;
    c = s >> 52;
  }
  fm_zeroize(t, sizeof(uint64_t) * 8 * V);
}

BN_IFMA_TARGET void bn_ifma_amm(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                const uint64_t *N, uint64_t k0, size_t L) {
  /* Copies for the register counts of the common widths (1024 to 4096-bit moduli). */
  switch ((L + 7) / 8) {
    case 3: amm_v(r, a, b, N, k0, L, 3); return;
    case 4: amm_v(r, a, b, N, k0, L, 4); return;
    case 5: amm_v(r, a, b, N, k0, L, 5); return;
    case 8: amm_v(r, a, b, N, k0, L, 8); return;
    case 10: amm_v(r, a, b, N, k0, L, 10); return;
    default: amm_v(r, a, b, N, k0, L, (L + 7) / 8); return;
  }
}

/* amm2_v: two independent multiplications (same L, own moduli) in one loop. A single 1024-bit
 * multiplication is bound by the latency of each round's chain (lo product, m, lo m * N, move),
 * not by the multiply-add units; interleaving a second one fills the idle slots, so the pair
 * costs little more than one. Used for RSA-CRT's two half-size exponentiations. */
BN_IFMA_TARGET static inline __attribute__((always_inline)) void amm2_v(
    uint64_t *r1, const uint64_t *a1, const uint64_t *b1, const uint64_t *N1, uint64_t k01,
    uint64_t *r2, const uint64_t *a2, const uint64_t *b2, const uint64_t *N2, uint64_t k02,
    size_t L, size_t V) {
  enum { MV = 4 };
  __m512i acc1[MV], h1[MV], A1[MV], M1[MV], acc2[MV], h2[MV], A2[MV], M2[MV];
  const __m512i zero = _mm512_setzero_si512();
  FOR_V(v, MV) {
    acc1[v] = h1[v] = acc2[v] = h2[v] = zero;
    A1[v] = v < V ? _mm512_loadu_si512((const void *)(a1 + 8 * v)) : zero;
    M1[v] = v < V ? _mm512_loadu_si512((const void *)(N1 + 8 * v)) : zero;
    A2[v] = v < V ? _mm512_loadu_si512((const void *)(a2 + 8 * v)) : zero;
    M2[v] = v < V ? _mm512_loadu_si512((const void *)(N2 + 8 * v)) : zero;
  }
  const uint64_t n1_low = N1[0], n2_low = N2[0];
  for (size_t i = 0; i < L; i++) {
    const __m512i bi1 = _mm512_set1_epi64((long long)b1[i]);
    const __m512i bi2 = _mm512_set1_epi64((long long)b2[i]);
    FOR_V(v, V) acc1[v] = _mm512_madd52lo_epu64(acc1[v], A1[v], bi1);
    FOR_V(v, V) acc2[v] = _mm512_madd52lo_epu64(acc2[v], A2[v], bi2);
    FOR_V(v, V) h1[v] = _mm512_madd52hi_epu64(zero, A1[v], bi1);
    FOR_V(v, V) h2[v] = _mm512_madd52hi_epu64(zero, A2[v], bi2);
    uint64_t lane1 = (uint64_t)_mm_cvtsi128_si64(_mm512_castsi512_si128(acc1[0]));
    uint64_t lane2 = (uint64_t)_mm_cvtsi128_si64(_mm512_castsi512_si128(acc2[0]));
    uint64_t m1 = (lane1 * k01) & MASK52, m2 = (lane2 * k02) & MASK52;
    uint64_t carry1 = (lane1 + ((n1_low * m1) & MASK52)) >> 52;
    uint64_t carry2 = (lane2 + ((n2_low * m2) & MASK52)) >> 52;
    const __m512i mi1 = _mm512_set1_epi64((long long)m1);
    const __m512i mi2 = _mm512_set1_epi64((long long)m2);
    FOR_V(v, V) acc1[v] = _mm512_madd52lo_epu64(acc1[v], M1[v], mi1);
    FOR_V(v, V) acc2[v] = _mm512_madd52lo_epu64(acc2[v], M2[v], mi2);
    FOR_V(v, V) h1[v] = _mm512_madd52hi_epu64(h1[v], M1[v], mi1);
    FOR_V(v, V) h2[v] = _mm512_madd52hi_epu64(h2[v], M2[v], mi2);
    FOR_V(v, V - 1) acc1[v] = _mm512_alignr_epi64(acc1[v + 1], acc1[v], 1);
    FOR_V(v, V - 1) acc2[v] = _mm512_alignr_epi64(acc2[v + 1], acc2[v], 1);
    acc1[V - 1] = _mm512_alignr_epi64(zero, acc1[V - 1], 1);
    acc2[V - 1] = _mm512_alignr_epi64(zero, acc2[V - 1], 1);
    acc1[0] = _mm512_add_epi64(acc1[0], _mm512_zextsi128_si512(_mm_cvtsi64_si128((long long)carry1)));
    acc2[0] = _mm512_add_epi64(acc2[0], _mm512_zextsi128_si512(_mm_cvtsi64_si128((long long)carry2)));
    FOR_V(v, V) acc1[v] = _mm512_add_epi64(acc1[v], h1[v]);
    FOR_V(v, V) acc2[v] = _mm512_add_epi64(acc2[v], h2[v]);
  }
  uint64_t t1[8 * MV], t2[8 * MV];
  FOR_V(v, V) {
    _mm512_storeu_si512((void *)(t1 + 8 * v), acc1[v]);
    _mm512_storeu_si512((void *)(t2 + 8 * v), acc2[v]);
  }
  uint64_t c1 = 0, c2 = 0;
  for (size_t j = 0; j < 8 * V; j++) {
    uint64_t s1 = t1[j] + c1, s2 = t2[j] + c2;
    r1[j] = s1 & MASK52;
    c1 = s1 >> 52;
    r2[j] = s2 & MASK52;
    c2 = s2 >> 52;
  }
  fm_zeroize(t1, sizeof(t1));
  fm_zeroize(t2, sizeof(t2));
}

BN_IFMA_TARGET void bn_ifma_amm_x2(uint64_t *r1, const uint64_t *a1, const uint64_t *b1,
                                   const uint64_t *N1, uint64_t k01, uint64_t *r2,
                                   const uint64_t *a2, const uint64_t *b2, const uint64_t *N2,
                                   uint64_t k02, size_t L) {
  switch ((L + 7) / 8) {
    case 3: amm2_v(r1, a1, b1, N1, k01, r2, a2, b2, N2, k02, L, 3); return;
    case 4: amm2_v(r1, a1, b1, N1, k01, r2, a2, b2, N2, k02, L, 4); return;
    default:
      bn_ifma_amm(r1, a1, b1, N1, k01, L);
      bn_ifma_amm(r2, a2, b2, N2, k02, L);
      return;
  }
}
