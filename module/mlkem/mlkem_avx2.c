/* AVX2 kernels of ML-KEM: the NTT, its inverse and the base multiplication, sixteen coefficients
 * a register. Each gives the portable kernel's output bit for bit (test_mlkem_diff): the same
 * butterflies in the same order, and the same reductions written with 16-bit multiplies:
 *   - Montgomery: a b 2^-16 = hi(a b) - hi(lo(lo(a b) q^-1) q), exact because a b and t q agree
 *     in their low 16 bits, so the difference of the high halves is the shifted difference;
 *   - Barrett: floor((v a + 2^25) / 2^26) = floor((hi(v a) + 2^9) / 2^10).
 * The layers whose butterflies lie inside one register (distances 8, 4 and 2) first regroup two
 * registers so that each butterfly's inputs sit in the same lane of two registers (128-bit,
 * 64-bit and 32-bit interleaving), then put them back. Nothing branches on or indexes by a
 * coefficient. */
#include "module/mlkem/internal.h"

#if MLKEM_HAVE_AVX2
#include <immintrin.h>
#include <string.h>

#include "module/mlkem/poly.h"

#define AVX2_FN __attribute__((target("avx2")))

#define QINV_U16 ((int16_t)-3327)

AVX2_FN static inline __m256i fqmul_v(__m256i a, __m256i b) {
  const __m256i q = _mm256_set1_epi16(MLKEM_Q), qinv = _mm256_set1_epi16(QINV_U16);
  const __m256i t = _mm256_mullo_epi16(_mm256_mullo_epi16(a, b), qinv);
  return _mm256_sub_epi16(_mm256_mulhi_epi16(a, b), _mm256_mulhi_epi16(t, q));
}

AVX2_FN static inline __m256i barrett_v(__m256i a) {
  const __m256i v = _mm256_set1_epi16(20159), q = _mm256_set1_epi16(MLKEM_Q);
  __m256i t = _mm256_mulhi_epi16(a, v);
  t = _mm256_srai_epi16(_mm256_add_epi16(t, _mm256_set1_epi16(512)), 10);
  return _mm256_sub_epi16(a, _mm256_mullo_epi16(t, q));
}

/* Cooley-Tukey butterfly (Algorithm 9, steps 8-10): b = a - zeta b, a = a + zeta b. */
AVX2_FN static inline void ct_bfly(__m256i *a, __m256i *b, __m256i zeta) {
  const __m256i t = fqmul_v(zeta, *b);
  *b = _mm256_sub_epi16(*a, t);
  *a = _mm256_add_epi16(*a, t);
}

/* Gentleman-Sande butterfly (Algorithm 10, steps 8-10), as the portable code reduces it. */
AVX2_FN static inline void gs_bfly(__m256i *a, __m256i *b, __m256i zeta) {
  const __m256i t = *a;
  *a = barrett_v(_mm256_add_epi16(t, *b));
  *b = fqmul_v(zeta, _mm256_sub_epi16(*b, t));
}

/* Regroupings of two registers x (coefficients 0..15) and y (16..31) for the in-register layers,
 * and their inverses. For distance 8: lo = (x[0:8], y[0:8]), hi = (x[8:16], y[8:16]). */
AVX2_FN static inline void split8(__m256i *x, __m256i *y) {
  const __m256i lo = _mm256_permute2x128_si256(*x, *y, 0x20);
  const __m256i hi = _mm256_permute2x128_si256(*x, *y, 0x31);
  *x = lo;
  *y = hi;
}
/* Distance 4, per 128-bit lane: (x.q0, y.q0) and (x.q1, y.q1); its own inverse. */
AVX2_FN static inline void split4(__m256i *x, __m256i *y) {
  const __m256i lo = _mm256_unpacklo_epi64(*x, *y);
  const __m256i hi = _mm256_unpackhi_epi64(*x, *y);
  *x = lo;
  *y = hi;
}
/* Distance 2: the even 32-bit words of x and y interleaved, then the odd ones; its own inverse. */
AVX2_FN static inline void split2(__m256i *x, __m256i *y) {
  const __m256i ev = _mm256_blend_epi32(*x, _mm256_slli_epi64(*y, 32), 0xaa);
  const __m256i od = _mm256_blend_epi32(_mm256_srli_epi64(*x, 32), *y, 0xaa);
  *x = ev;
  *y = od;
}

/* zeta_vec: for two registers (coefficients 32p .. 32p + 31) regrouped for distance |len|, the
 * twiddle of each lane of the first register: block indices follow the regrouping. |base| is the
 * first twiddle of the layer, |dir| +1 (NTT) or -1 (inverse). */
AVX2_FN static __m256i zeta_vec(unsigned p, unsigned len, unsigned base, int dir) {
  int16_t z[16];
  for (unsigned lane = 0; lane < 16; lane++) {
    unsigned coeff; /* the first register's coefficient in this lane, before regrouping */
    if (len == 8) coeff = 32 * p + (lane < 8 ? lane : 16 + lane - 8);
    else if (len == 4) coeff = 32 * p + (lane / 8) * 8 + (lane % 8 < 4 ? lane % 8 : 16 + lane % 8 - 4);
    else coeff = 32 * p + (lane / 4) * 4 + (lane % 4 < 2 ? lane % 4 : 16 + lane % 4 - 2);
    const unsigned block = coeff / (2 * len);
    z[lane] = mlkem_zetas[dir > 0 ? base + block : base - block];
  }
  return _mm256_loadu_si256((const __m256i *)z);
}

AVX2_FN void mlkem_ntt_avx2(mlkem_poly *a) {
  __m256i v[16];
  for (unsigned i = 0; i < 16; i++) v[i] = _mm256_load_si256((const __m256i *)&a->c[16 * i]);
  /* Distances 128 .. 16: whole registers, one twiddle per block. */
  unsigned k = 1;
  for (unsigned len = 128; len >= 16; len >>= 1) {
    const unsigned step = len / 16;
    for (unsigned start = 0; start < 16; start += 2 * step) {
      const __m256i zeta = _mm256_set1_epi16(mlkem_zetas[k++]);
      for (unsigned j = start; j < start + step; j++) ct_bfly(&v[j], &v[j + step], zeta);
    }
  }
  /* Distances 8, 4, 2 on register pairs. */
  for (unsigned p = 0; p < 8; p++) {
    __m256i x = v[2 * p], y = v[2 * p + 1];
    split8(&x, &y);
    ct_bfly(&x, &y, zeta_vec(p, 8, 16, 1));
    split8(&x, &y); /* back: (lo.lo, hi.lo) is x's order again */
    split4(&x, &y);
    ct_bfly(&x, &y, zeta_vec(p, 4, 32, 1));
    split4(&x, &y);
    split2(&x, &y);
    ct_bfly(&x, &y, zeta_vec(p, 2, 64, 1));
    split2(&x, &y);
    v[2 * p] = barrett_v(x);
    v[2 * p + 1] = barrett_v(y);
  }
  for (unsigned i = 0; i < 16; i++) _mm256_store_si256((__m256i *)&a->c[16 * i], v[i]);
}

AVX2_FN void mlkem_invntt_avx2(mlkem_poly *a) {
  __m256i v[16];
  for (unsigned i = 0; i < 16; i++) v[i] = _mm256_load_si256((const __m256i *)&a->c[16 * i]);
  /* Distances 2, 4, 8 on register pairs; twiddles from zetas[127] down. */
  for (unsigned p = 0; p < 8; p++) {
    __m256i x = v[2 * p], y = v[2 * p + 1];
    split2(&x, &y);
    gs_bfly(&x, &y, zeta_vec(p, 2, 127, -1));
    split2(&x, &y);
    split4(&x, &y);
    gs_bfly(&x, &y, zeta_vec(p, 4, 63, -1));
    split4(&x, &y);
    split8(&x, &y);
    gs_bfly(&x, &y, zeta_vec(p, 8, 31, -1));
    split8(&x, &y);
    v[2 * p] = x;
    v[2 * p + 1] = y;
  }
  /* Distances 16 .. 128. */
  unsigned k = 15;
  for (unsigned len = 16; len <= 128; len <<= 1) {
    const unsigned step = len / 16;
    for (unsigned start = 0; start < 16; start += 2 * step) {
      const __m256i zeta = _mm256_set1_epi16(mlkem_zetas[k--]);
      for (unsigned j = start; j < start + step; j++) gs_bfly(&v[j], &v[j + step], zeta);
    }
  }
  const __m256i f = _mm256_set1_epi16(1441);
  for (unsigned i = 0; i < 16; i++) {
    _mm256_store_si256((__m256i *)&a->c[16 * i], fqmul_v(v[i], f));
  }
}

AVX2_FN void mlkem_basemul_acc_avx2(mlkem_poly *r, const mlkem_poly *a, const mlkem_poly *b,
                                    unsigned k) {
  /* Pairs (c[2m], c[2m+1]) of two registers x, y are regrouped into the even coefficients
   * (x.c0, y.c0, x.c2, y.c2, ...) and the odd ones; lane 2i holds x's pair i, lane 2i + 1 y's.
   * Pair m of the polynomial multiplies modulo X^2 - zeta_m, zeta_m = +-zetas[64 + m/2]. */
  for (unsigned p = 0; p < 8; p++) {
    int16_t z[16];
    for (unsigned lane = 0; lane < 16; lane++) {
      const unsigned pair = 16 * p + (lane & 1) * 8 + lane / 2;
      const int16_t zeta = mlkem_zetas[64 + pair / 2];
      z[lane] = (int16_t)((pair & 1) ? -zeta : zeta);
    }
    const __m256i zv = _mm256_loadu_si256((const __m256i *)z);
    __m256i acc0 = _mm256_setzero_si256(), acc1 = _mm256_setzero_si256();
    for (unsigned i = 0; i < k; i++) {
      __m256i ax = _mm256_load_si256((const __m256i *)&a[i].c[32 * p]);
      __m256i ay = _mm256_load_si256((const __m256i *)&a[i].c[32 * p + 16]);
      __m256i bx = _mm256_load_si256((const __m256i *)&b[i].c[32 * p]);
      __m256i by = _mm256_load_si256((const __m256i *)&b[i].c[32 * p + 16]);
      const __m256i a0 = _mm256_blend_epi16(ax, _mm256_slli_epi32(ay, 16), 0xaa);
      const __m256i a1 = _mm256_blend_epi16(_mm256_srli_epi32(ax, 16), ay, 0xaa);
      const __m256i b0 = _mm256_blend_epi16(bx, _mm256_slli_epi32(by, 16), 0xaa);
      const __m256i b1 = _mm256_blend_epi16(_mm256_srli_epi32(bx, 16), by, 0xaa);
      /* Algorithm 12: c0 = a0 b0 + a1 b1 zeta, c1 = a0 b1 + a1 b0 (each product times 2^-16). */
      const __m256i c0 = _mm256_add_epi16(fqmul_v(fqmul_v(a1, b1), zv), fqmul_v(a0, b0));
      const __m256i c1 = _mm256_add_epi16(fqmul_v(a0, b1), fqmul_v(a1, b0));
      acc0 = _mm256_add_epi16(acc0, c0);
      acc1 = _mm256_add_epi16(acc1, c1);
    }
    acc0 = barrett_v(acc0);
    acc1 = barrett_v(acc1);
    const __m256i rx = _mm256_blend_epi16(acc0, _mm256_slli_epi32(acc1, 16), 0xaa);
    const __m256i ry = _mm256_blend_epi16(_mm256_srli_epi32(acc0, 16), acc1, 0xaa);
    _mm256_store_si256((__m256i *)&r->c[32 * p], rx);
    _mm256_store_si256((__m256i *)&r->c[32 * p + 16], ry);
  }
}
#endif
