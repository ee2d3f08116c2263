/* ML-DSA's AVX2 kernels: the NTT and its inverse, the pointwise Montgomery products, Decompose,
 * MakeHint, UseHint, w1Encode, the bit packings of t1, t0, s1, s2 and z and the block samplers
 * of RejNTTPoly and RejBoundedPoly, eight coefficients per instruction. Each gives exactly the
 * values (or bytes) of its portable twin (test_mldsa_diff checks it on
 * random inputs): the same Montgomery reduction lane by lane, the same butterflies. The NTT's
 * layers of length 8 and more pair whole registers, two or three layers per pass over memory
 * (128 and 64; 32, 16 and 8 on eight registers); the three shortest regroup two registers first
 * (split4, split2, split1). Like the portable code, nothing here branches on or indexes by a
 * secret value. Selected by mldsa_poly.c, mldsa_pack.c and mldsa_sample.c when the CPU has AVX2
 * (fm_cpu_use). */
#if defined(__x86_64__)
#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#include "module/internal.h"
#include "module/mldsa/internal.h"

#define AVX2 __attribute__((target("avx2")))

/* hi32 moves each 64-bit lane's high half to its low half (VMOVSHDUP, which also copies it to
 * the high half): what _mm256_mul_epi32 reads of the odd lanes. A shuffle rather than a shift,
 * so that it leaves the multiplier ports to the multiplications. */
static inline AVX2 __m256i hi32(__m256i v) {
  return _mm256_castps_si256(_mm256_movehdup_ps(_mm256_castsi256_ps(v)));
}


/* mont_mul returns a * b * 2^-32 lane by lane, as mldsa_montgomery_reduce((int64_t)a * b): the
 * even lanes' 64-bit products come from one _mm256_mul_epi32, the odd lanes' from another on
 * the operands shifted down; t = low32(p) * q^-1 (the low 32 bits, read signed, as
 * _mm256_mul_epi32 reads them), and (p - t q) / 2^32 is the high half, exact. */
static inline AVX2 __m256i mont_mul(__m256i a, __m256i b) {
  const __m256i q = _mm256_set1_epi32(MLDSA_Q), qinv = _mm256_set1_epi32(MLDSA_QINV);
  const __m256i pe = _mm256_mul_epi32(a, b);
  const __m256i po = _mm256_mul_epi32(hi32(a), hi32(b));
  const __m256i te = _mm256_mul_epi32(pe, qinv);
  const __m256i to = _mm256_mul_epi32(po, qinv);
  const __m256i re = _mm256_sub_epi64(pe, _mm256_mul_epi32(te, q));
  const __m256i ro = _mm256_sub_epi64(po, _mm256_mul_epi32(to, q));
  /* The even lanes' results are in the high halves of re: moved down; the odd lanes' are in the
   * high halves of ro, already in place. */
  return _mm256_blend_epi32(hi32(re), ro, 0xaa);
}

/* ---- The three short layers ------------------------------------------------------------------
 * Coefficients 16q .. 16q + 7 (x) and 16q + 8 .. 16q + 15 (y) are regrouped so that each
 * butterfly's two inputs sit in the same lane of two registers; every regrouping is its own
 * inverse. Block b of the layer of length len starts at coefficient 2 len b. */

/* Length 4: (x[0:4], y[0:4]) and (x[4:8], y[4:8]); blocks 2q (x) and 2q + 1 (y). */
static inline AVX2 void split4(__m256i *x, __m256i *y) {
  const __m256i lo = _mm256_permute2x128_si256(*x, *y, 0x20);
  const __m256i hi = _mm256_permute2x128_si256(*x, *y, 0x31);
  *x = lo;
  *y = hi;
}
/* Length 2: (x0 x1 y0 y1 x4 x5 y4 y5) and (x2 x3 y2 y3 x6 x7 y6 y7); blocks 4q, 4q + 2, 4q + 1,
 * 4q + 3 in lane pairs. */
static inline AVX2 void split2(__m256i *x, __m256i *y) {
  const __m256i lo = _mm256_unpacklo_epi64(*x, *y);
  const __m256i hi = _mm256_unpackhi_epi64(*x, *y);
  *x = lo;
  *y = hi;
}
/* Length 1: the even coefficients of x and y interleaved (x0 y0 x2 y2 ...), then the odd ones;
 * lane 2i holds block 8q + i, lane 2i + 1 block 8q + 4 + i. */
static inline AVX2 void split1(__m256i *x, __m256i *y) {
  const __m256i ev = _mm256_blend_epi32(*x, _mm256_slli_epi64(*y, 32), 0xaa);
  const __m256i od = _mm256_blend_epi32(_mm256_srli_epi64(*x, 32), *y, 0xaa);
  *x = ev;
  *y = od;
}

/* The twiddles of the short layers for register pair q, regrouped as the splits leave the
 * lanes: [q][0] length 4, [q][1] length 2, [q][2] length 1 (gen_avx2_zetas.py writes them from
 * the same zetas as mldsa_zetas; the inverse's are negated). */
#include "module/mldsa/mldsa_avx2_zetas.inc"

static inline AVX2 __m256i ld8(const int32_t *p) {
  return _mm256_loadu_si256((const __m256i *)p);
}
static inline AVX2 void st8(int32_t *p, __m256i v) { _mm256_storeu_si256((__m256i *)p, v); }

static inline AVX2 __m256i tw8(const int32_t *t) { return _mm256_load_si256((const __m256i *)t); }

/* Cooley-Tukey (NTT): t = b zeta 2^-32, b = a - t, a = a + t. */
static inline AVX2 void ct_bfly(__m256i *a, __m256i *b, __m256i z) {
  const __m256i t = mont_mul(*b, z);
  *b = _mm256_sub_epi32(*a, t);
  *a = _mm256_add_epi32(*a, t);
}
/* Gentleman-Sande (inverse): a = a + b, b = (a - b) zeta 2^-32, with zeta already negated. */
static inline AVX2 void gs_bfly(__m256i *a, __m256i *b, __m256i z) {
  const __m256i t = *a;
  *a = _mm256_add_epi32(t, *b);
  *b = mont_mul(_mm256_sub_epi32(t, *b), z);
}

/* ntt_layers_421: the NTT's layers 4, 2, 1 on the register pairs (m continued from 31: blocks of
 * these layers take zetas[32 + b], [64 + b] and [128 + b]). */
static AVX2 void ntt_layers_421(int32_t *w) {
  for (size_t q = 0; q < MLDSA_N / 16; q++) {
    __m256i x = _mm256_loadu_si256((const __m256i *)(w + 16 * q));
    __m256i y = _mm256_loadu_si256((const __m256i *)(w + 16 * q + 8));
    split4(&x, &y);
    ct_bfly(&x, &y, tw8(k_ntt_short[q][0]));
    split4(&x, &y);
    split2(&x, &y);
    ct_bfly(&x, &y, tw8(k_ntt_short[q][1]));
    split2(&x, &y);
    split1(&x, &y);
    ct_bfly(&x, &y, tw8(k_ntt_short[q][2]));
    split1(&x, &y);
    _mm256_storeu_si256((__m256i *)(w + 16 * q), x);
    _mm256_storeu_si256((__m256i *)(w + 16 * q + 8), y);
  }
}

AVX2 void mldsa_poly_ntt_avx2(mldsa_poly *p) {
  int32_t *w = p->c;
  /* Layers 128 and 64 together: four registers 64 apart (zetas[1]; zetas[2], [3]). */
  const __m256i z1 = _mm256_set1_epi32(mldsa_zetas[1]);
  const __m256i z2 = _mm256_set1_epi32(mldsa_zetas[2]), z3 = _mm256_set1_epi32(mldsa_zetas[3]);
  for (size_t j = 0; j < 64; j += 8) {
    __m256i x0 = ld8(w + j), x1 = ld8(w + j + 64), x2 = ld8(w + j + 128), x3 = ld8(w + j + 192);
    ct_bfly(&x0, &x2, z1);
    ct_bfly(&x1, &x3, z1);
    ct_bfly(&x0, &x1, z2);
    ct_bfly(&x2, &x3, z3);
    st8(w + j, x0);
    st8(w + j + 64, x1);
    st8(w + j + 128, x2);
    st8(w + j + 192, x3);
  }
  /* Layers 32, 16 and 8 together on each block of 64 coefficients (eight registers): block b of
   * the layer of length len takes zetas[128 / len + b]. */
  for (size_t blk = 0; blk < 4; blk++) {
    int32_t *v = w + 64 * blk;
    __m256i r[8];
    for (size_t i = 0; i < 8; i++) r[i] = ld8(v + 8 * i);
    const __m256i za = _mm256_set1_epi32(mldsa_zetas[4 + blk]);
    for (size_t i = 0; i < 4; i++) ct_bfly(&r[i], &r[i + 4], za);
    const __m256i zb0 = _mm256_set1_epi32(mldsa_zetas[8 + 2 * blk]);
    const __m256i zb1 = _mm256_set1_epi32(mldsa_zetas[9 + 2 * blk]);
    ct_bfly(&r[0], &r[2], zb0);
    ct_bfly(&r[1], &r[3], zb0);
    ct_bfly(&r[4], &r[6], zb1);
    ct_bfly(&r[5], &r[7], zb1);
    for (size_t i = 0; i < 4; i++)
      ct_bfly(&r[2 * i], &r[2 * i + 1], _mm256_set1_epi32(mldsa_zetas[16 + 4 * blk + i]));
    for (size_t i = 0; i < 8; i++) st8(v + 8 * i, r[i]);
  }
  ntt_layers_421(w);
}

#define INVNTT_F 41978 /* as in mldsa_poly.c */

/* invntt_layers_124: the inverse's layers 1, 2, 4 on the register pairs: block b of these layers
 * takes -zetas[255 - b], [127 - b] and [63 - b]. */
static AVX2 void invntt_layers_124(int32_t *w) {
  for (size_t q = 0; q < MLDSA_N / 16; q++) {
    __m256i x = _mm256_loadu_si256((const __m256i *)(w + 16 * q));
    __m256i y = _mm256_loadu_si256((const __m256i *)(w + 16 * q + 8));
    split1(&x, &y);
    gs_bfly(&x, &y, tw8(k_invntt_short[q][2]));
    split1(&x, &y);
    split2(&x, &y);
    gs_bfly(&x, &y, tw8(k_invntt_short[q][1]));
    split2(&x, &y);
    split4(&x, &y);
    gs_bfly(&x, &y, tw8(k_invntt_short[q][0]));
    split4(&x, &y);
    _mm256_storeu_si256((__m256i *)(w + 16 * q), x);
    _mm256_storeu_si256((__m256i *)(w + 16 * q + 8), y);
  }
}

AVX2 void mldsa_poly_invntt_tomont_avx2(mldsa_poly *p) {
  int32_t *w = p->c;
  invntt_layers_124(w);
  /* Layers 8, 16 and 32 together on each block of 64 coefficients (eight registers): block b of
   * the layer of length len takes -zetas[256 / len - 1 - b]. */
  for (size_t blk = 0; blk < 4; blk++) {
    int32_t *v = w + 64 * blk;
    __m256i r[8];
    for (size_t i = 0; i < 8; i++) r[i] = ld8(v + 8 * i);
    for (size_t i = 0; i < 4; i++)
      gs_bfly(&r[2 * i], &r[2 * i + 1], _mm256_set1_epi32(-mldsa_zetas[31 - 4 * blk - i]));
    const __m256i zb0 = _mm256_set1_epi32(-mldsa_zetas[15 - 2 * blk]);
    const __m256i zb1 = _mm256_set1_epi32(-mldsa_zetas[14 - 2 * blk]);
    gs_bfly(&r[0], &r[2], zb0);
    gs_bfly(&r[1], &r[3], zb0);
    gs_bfly(&r[4], &r[6], zb1);
    gs_bfly(&r[5], &r[7], zb1);
    const __m256i za = _mm256_set1_epi32(-mldsa_zetas[7 - blk]);
    for (size_t i = 0; i < 4; i++) gs_bfly(&r[i], &r[i + 4], za);
    for (size_t i = 0; i < 8; i++) st8(v + 8 * i, r[i]);
  }
  /* Layers 64 (-zetas[3], -zetas[2]) and 128, with the scaling folded into the last as in the
   * portable twin: the sums times F, the differences times mldsa_invntt_last_zeta(). */
  const __m256i z3 = _mm256_set1_epi32(-mldsa_zetas[3]), z2 = _mm256_set1_epi32(-mldsa_zetas[2]);
  const __m256i f = _mm256_set1_epi32(INVNTT_F);
  const __m256i fz = _mm256_set1_epi32(mldsa_invntt_last_zeta());
  for (size_t j = 0; j < 64; j += 8) {
    __m256i x0 = ld8(w + j), x1 = ld8(w + j + 64), x2 = ld8(w + j + 128), x3 = ld8(w + j + 192);
    gs_bfly(&x0, &x1, z3);
    gs_bfly(&x2, &x3, z2);
    st8(w + j, mont_mul(_mm256_add_epi32(x0, x2), f));
    st8(w + j + 128, mont_mul(_mm256_sub_epi32(x0, x2), fz));
    st8(w + j + 64, mont_mul(_mm256_add_epi32(x1, x3), f));
    st8(w + j + 192, mont_mul(_mm256_sub_epi32(x1, x3), fz));
  }
}

/* ---- AVX-512: the NTT and its inverse on sixteen lanes ------------------------------------
 * mldsa_poly_ntt_avx512 and mldsa_poly_invntt_tomont_avx512: the same butterflies, twiddles and
 * Montgomery reduction lane by lane as the AVX2 code (so the same values as the portable twin;
 * test_mldsa_diff checks it), in three passes over memory: layers 128 and 64 (four registers 64
 * apart), 32 and 16 (each block of 64 coefficients), then 8, 4, 2 and 1 on 32 coefficients, that
 * is the AVX2 code's register pairs q (low 256 bits) and q + 1 (high 256 bits) side by side.
 * The loops are kept loops (GCC unroll 1): unrolled, they would cost code size, not time. */
#define AVX512 __attribute__((target("avx2,avx512f")))

static inline AVX512 __m512i hi32x16(__m512i v) {
  return _mm512_castps_si512(_mm512_movehdup_ps(_mm512_castsi512_ps(v)));
}
static inline AVX512 __m512i mont_mul16(__m512i a, __m512i b) {
  const __m512i q = _mm512_set1_epi32(MLDSA_Q), qinv = _mm512_set1_epi32(MLDSA_QINV);
  const __m512i pe = _mm512_mul_epi32(a, b);
  const __m512i po = _mm512_mul_epi32(hi32x16(a), hi32x16(b));
  const __m512i re = _mm512_sub_epi64(pe, _mm512_mul_epi32(_mm512_mul_epi32(pe, qinv), q));
  const __m512i ro = _mm512_sub_epi64(po, _mm512_mul_epi32(_mm512_mul_epi32(po, qinv), q));
  return _mm512_mask_blend_epi32(0xaaaa, hi32x16(re), ro);
}
static inline AVX512 void ct_bfly16(__m512i *a, __m512i *b, __m512i z) {
  const __m512i t = mont_mul16(*b, z);
  *b = _mm512_sub_epi32(*a, t);
  *a = _mm512_add_epi32(*a, t);
}
static inline AVX512 void gs_bfly16(__m512i *a, __m512i *b, __m512i z) {
  const __m512i t = *a;
  *a = _mm512_add_epi32(t, *b);
  *b = mont_mul16(_mm512_sub_epi32(t, *b), z);
}
static inline AVX512 __m512i ld16(const int32_t *p) { return _mm512_loadu_si512(p); }
static inline AVX512 void st16(int32_t *p, __m512i v) { _mm512_storeu_si512(p, v); }
static inline AVX512 __m512i bc16(int32_t z) { return _mm512_set1_epi32(z); }
/* halves16: zeta lo in the low eight lanes, zeta hi in the high eight. */
static inline AVX512 __m512i halves16(int32_t lo, int32_t hi) {
  return _mm512_inserti64x4(_mm512_set1_epi32(lo), _mm256_set1_epi32(hi), 1);
}

/* split4x16, split2x16, split1x16: split4, split2 and split1 on both pairs. The 32 coefficients
 * from 16 q are loaded as a = (x_q, y_q), b = (x_{q+1}, y_{q+1}); x = (x_q, x_{q+1}) and
 * y = (y_q, y_{q+1}) pair them for the layer of length 8 (block q and q + 1: zetas[16 + q] and
 * zetas[17 + q] in the two halves). */
static inline AVX512 void split4x16(__m512i *x, __m512i *y) {
  const __m512i ia = _mm512_setr_epi64(0, 1, 8, 9, 4, 5, 12, 13);
  const __m512i ib = _mm512_setr_epi64(2, 3, 10, 11, 6, 7, 14, 15);
  const __m512i lo = _mm512_permutex2var_epi64(*x, ia, *y);
  const __m512i hi = _mm512_permutex2var_epi64(*x, ib, *y);
  *x = lo;
  *y = hi;
}
static inline AVX512 void split2x16(__m512i *x, __m512i *y) {
  const __m512i lo = _mm512_unpacklo_epi64(*x, *y), hi = _mm512_unpackhi_epi64(*x, *y);
  *x = lo;
  *y = hi;
}
static inline AVX512 void split1x16(__m512i *x, __m512i *y) {
  const __m512i ev = _mm512_mask_blend_epi32(0xaaaa, *x, _mm512_slli_epi64(*y, 32));
  const __m512i od = _mm512_mask_blend_epi32(0xaaaa, hi32x16(*x), *y);
  *x = ev;
  *y = od;
}
/* tw16: the short twiddles of layer |layer| for pairs q and q + 1. */
static inline AVX512 __m512i tw16(const int32_t (*t)[3][8], size_t q, size_t layer) {
  return _mm512_inserti64x4(_mm512_castsi256_si512(tw8(t[q][layer])), tw8(t[q + 1][layer]), 1);
}

/* Layers 8, 4, 2, 1 of the NTT; then of the inverse, 1, 2, 4, 8. */
static AVX512 void ntt_layers_8421_x16(int32_t *w) {
  #pragma GCC unroll 1
  for (size_t q = 0; q < MLDSA_N / 16; q += 2) {
    const __m512i a = ld16(w + 16 * q), b = ld16(w + 16 * q + 16);
    __m512i x = _mm512_shuffle_i64x2(a, b, 0x44), y = _mm512_shuffle_i64x2(a, b, 0xee);
    ct_bfly16(&x, &y, halves16(mldsa_zetas[16 + q], mldsa_zetas[17 + q])); /* length 8 */
    split4x16(&x, &y);
    ct_bfly16(&x, &y, tw16(k_ntt_short, q, 0));
    split4x16(&x, &y);
    split2x16(&x, &y);
    ct_bfly16(&x, &y, tw16(k_ntt_short, q, 1));
    split2x16(&x, &y);
    split1x16(&x, &y);
    ct_bfly16(&x, &y, tw16(k_ntt_short, q, 2));
    split1x16(&x, &y);
    st16(w + 16 * q, _mm512_shuffle_i64x2(x, y, 0x44));
    st16(w + 16 * q + 16, _mm512_shuffle_i64x2(x, y, 0xee));
  }
}

static AVX512 void invntt_layers_1248_x16(int32_t *w) {
  #pragma GCC unroll 1
  for (size_t q = 0; q < MLDSA_N / 16; q += 2) {
    const __m512i a = ld16(w + 16 * q), b = ld16(w + 16 * q + 16);
    __m512i x = _mm512_shuffle_i64x2(a, b, 0x44), y = _mm512_shuffle_i64x2(a, b, 0xee);
    split1x16(&x, &y);
    gs_bfly16(&x, &y, tw16(k_invntt_short, q, 2));
    split1x16(&x, &y);
    split2x16(&x, &y);
    gs_bfly16(&x, &y, tw16(k_invntt_short, q, 1));
    split2x16(&x, &y);
    split4x16(&x, &y);
    gs_bfly16(&x, &y, tw16(k_invntt_short, q, 0));
    split4x16(&x, &y);
    gs_bfly16(&x, &y, halves16(-mldsa_zetas[31 - q], -mldsa_zetas[30 - q])); /* length 8 */
    st16(w + 16 * q, _mm512_shuffle_i64x2(x, y, 0x44));
    st16(w + 16 * q + 16, _mm512_shuffle_i64x2(x, y, 0xee));
  }
}

AVX512 void mldsa_poly_ntt_avx512(mldsa_poly *p) {
  int32_t *w = p->c;
  const __m512i z1 = bc16(mldsa_zetas[1]), z2 = bc16(mldsa_zetas[2]), z3 = bc16(mldsa_zetas[3]);
  #pragma GCC unroll 1
  for (size_t j = 0; j < 64; j += 16) {
    __m512i x0 = ld16(w + j), x1 = ld16(w + j + 64), x2 = ld16(w + j + 128);
    __m512i x3 = ld16(w + j + 192);
    ct_bfly16(&x0, &x2, z1);
    ct_bfly16(&x1, &x3, z1);
    ct_bfly16(&x0, &x1, z2);
    ct_bfly16(&x2, &x3, z3);
    st16(w + j, x0);
    st16(w + j + 64, x1);
    st16(w + j + 128, x2);
    st16(w + j + 192, x3);
  }
  /* Layers 32 and 16 on each block of 64 coefficients (four registers). */
  #pragma GCC unroll 1
  for (size_t blk = 0; blk < 4; blk++) {
    int32_t *v = w + 64 * blk;
    __m512i r0 = ld16(v), r1 = ld16(v + 16), r2 = ld16(v + 32), r3 = ld16(v + 48);
    const __m512i za = bc16(mldsa_zetas[4 + blk]);
    ct_bfly16(&r0, &r2, za);
    ct_bfly16(&r1, &r3, za);
    ct_bfly16(&r0, &r1, bc16(mldsa_zetas[8 + 2 * blk]));
    ct_bfly16(&r2, &r3, bc16(mldsa_zetas[9 + 2 * blk]));
    st16(v, r0);
    st16(v + 16, r1);
    st16(v + 32, r2);
    st16(v + 48, r3);
  }
  ntt_layers_8421_x16(w);
}

AVX512 void mldsa_poly_invntt_tomont_avx512(mldsa_poly *p) {
  int32_t *w = p->c;
  invntt_layers_1248_x16(w);
  #pragma GCC unroll 1
  for (size_t blk = 0; blk < 4; blk++) {
    int32_t *v = w + 64 * blk;
    __m512i r0 = ld16(v), r1 = ld16(v + 16), r2 = ld16(v + 32), r3 = ld16(v + 48);
    gs_bfly16(&r0, &r1, bc16(-mldsa_zetas[15 - 2 * blk]));
    gs_bfly16(&r2, &r3, bc16(-mldsa_zetas[14 - 2 * blk]));
    const __m512i za = bc16(-mldsa_zetas[7 - blk]);
    gs_bfly16(&r0, &r2, za);
    gs_bfly16(&r1, &r3, za);
    st16(v, r0);
    st16(v + 16, r1);
    st16(v + 32, r2);
    st16(v + 48, r3);
  }
  const __m512i z3 = bc16(-mldsa_zetas[3]), z2 = bc16(-mldsa_zetas[2]);
  const __m512i f = bc16(INVNTT_F), fz = bc16(mldsa_invntt_last_zeta());
  #pragma GCC unroll 1
  for (size_t j = 0; j < 64; j += 16) {
    __m512i x0 = ld16(w + j), x1 = ld16(w + j + 64), x2 = ld16(w + j + 128);
    __m512i x3 = ld16(w + j + 192);
    gs_bfly16(&x0, &x1, z3);
    gs_bfly16(&x2, &x3, z2);
    st16(w + j, mont_mul16(_mm512_add_epi32(x0, x2), f));
    st16(w + j + 128, mont_mul16(_mm512_sub_epi32(x0, x2), fz));
    st16(w + j + 64, mont_mul16(_mm512_add_epi32(x1, x3), f));
    st16(w + j + 192, mont_mul16(_mm512_sub_epi32(x1, x3), fz));
  }
}

AVX2 void mldsa_poly_pointwise_mont_avx2(mldsa_poly *r, const mldsa_poly *a, const mldsa_poly *b) {
  for (size_t j = 0; j < MLDSA_N; j += 8) {
    const __m256i x = _mm256_loadu_si256((const __m256i *)(a->c + j));
    const __m256i y = _mm256_loadu_si256((const __m256i *)(b->c + j));
    _mm256_storeu_si256((__m256i *)(r->c + j), mont_mul(x, y));
  }
}

AVX2 void mldsa_poly_pointwise_acc_mont_avx2(mldsa_poly *r, const mldsa_poly *a,
                                             const mldsa_poly *b) {
  for (size_t j = 0; j < MLDSA_N; j += 8) {
    const __m256i x = _mm256_loadu_si256((const __m256i *)(a->c + j));
    const __m256i y = _mm256_loadu_si256((const __m256i *)(b->c + j));
    const __m256i acc = _mm256_loadu_si256((const __m256i *)(r->c + j));
    _mm256_storeu_si256((__m256i *)(r->c + j), _mm256_add_epi32(acc, mont_mul(x, y)));
  }
}

/* The dot product: the 64-bit products of the even lanes and of the odd lanes summed apart, then
 * one Montgomery reduction per lane (mont_mul's, on the sums). */
AVX2 void mldsa_poly_dot_mont_avx2(mldsa_poly *r, const mldsa_poly *a, const mldsa_poly *v,
                                   unsigned n) {
  const __m256i q = _mm256_set1_epi32(MLDSA_Q), qinv = _mm256_set1_epi32(MLDSA_QINV);
  for (size_t i = 0; i < MLDSA_N; i += 8) {
    __m256i se = _mm256_setzero_si256(), so = _mm256_setzero_si256();
    for (unsigned j = 0; j < n; j++) {
      const __m256i x = ld8(a[j].c + i), y = ld8(v[j].c + i);
      se = _mm256_add_epi64(se, _mm256_mul_epi32(x, y));
      so = _mm256_add_epi64(
          so, _mm256_mul_epi32(hi32(x), hi32(y)));
    }
    const __m256i re = _mm256_sub_epi64(se, _mm256_mul_epi32(_mm256_mul_epi32(se, qinv), q));
    const __m256i ro = _mm256_sub_epi64(so, _mm256_mul_epi32(_mm256_mul_epi32(so, qinv), q));
    st8(r->c + i, _mm256_blend_epi32(hi32(re), ro, 0xaa));
  }
}

/* decompose8: Decompose as decompose_one in mldsa_poly.c, eight lanes: r1 = ceil(r / 128), then
 * the multiply-shift by the reciprocal of 2 gamma2 / 128, the top value wrapped to 0, r0 = r -
 * 2 gamma2 r1 lowered by q when above (q-1)/2. Products stay below 2^31: ceil(r/128) < 2^16
 * times 11275 or 1025. |wide| (gamma2 = (q-1)/32) is the parameter set: public. */
static inline AVX2 __m256i decompose8(int wide, __m256i two_g2, __m256i r, __m256i *r0_out) {
  const __m256i q = _mm256_set1_epi32(MLDSA_Q), half = _mm256_set1_epi32((MLDSA_Q - 1) / 2);
  __m256i r1 = _mm256_srai_epi32(_mm256_add_epi32(r, _mm256_set1_epi32(127)), 7);
  if (wide) {
    r1 = _mm256_mullo_epi32(r1, _mm256_set1_epi32(1025));
    r1 = _mm256_srai_epi32(_mm256_add_epi32(r1, _mm256_set1_epi32(1 << 21)), 22);
    r1 = _mm256_and_si256(r1, _mm256_set1_epi32(15));
  } else {
    r1 = _mm256_mullo_epi32(r1, _mm256_set1_epi32(11275));
    r1 = _mm256_srai_epi32(_mm256_add_epi32(r1, _mm256_set1_epi32(1 << 23)), 24);
    const __m256i over = _mm256_srai_epi32(_mm256_sub_epi32(_mm256_set1_epi32(43), r1), 31);
    r1 = _mm256_xor_si256(r1, _mm256_and_si256(over, r1));
  }
  __m256i r0 = _mm256_sub_epi32(r, _mm256_mullo_epi32(r1, two_g2));
  const __m256i above = _mm256_srai_epi32(_mm256_sub_epi32(half, r0), 31);
  *r0_out = _mm256_sub_epi32(r0, _mm256_and_si256(above, q));
  return r1;
}

AVX2 void mldsa_poly_decompose_avx2(const mldsa_params *p, mldsa_poly *a1, mldsa_poly *a0,
                                    const mldsa_poly *a) {
  const __m256i two_g2 = _mm256_set1_epi32(2 * p->gamma2);
  const int wide = p->gamma2 == (MLDSA_Q - 1) / 32; /* public: the parameter set */
  for (size_t j = 0; j < MLDSA_N; j += 8) {
    __m256i r0;
    const __m256i r = _mm256_loadu_si256((const __m256i *)(a->c + j));
    const __m256i r1 = decompose8(wide, two_g2, r, &r0);
    _mm256_storeu_si256((__m256i *)(a1->c + j), r1);
    _mm256_storeu_si256((__m256i *)(a0->c + j), r0);
  }
}

/* use_hint8: UseHint (Algorithm 40) as mldsa_poly_use_hint_portable, eight lanes of r (in
 * [0, q)) and h (0 or 1): r1 moved by +1 where h = 1 and r0 > 0, by -1 where h = 1 and r0 <= 0,
 * then m wrapped to 0 and -1 to m - 1 (m1 = m - 1). */
static inline AVX2 __m256i use_hint8(int wide, __m256i two_g2, __m256i m, __m256i m1, __m256i r,
                                     __m256i h) {
  const __m256i zero = _mm256_setzero_si256();
  __m256i r0;
  __m256i r1 = decompose8(wide, two_g2, r, &r0);
  const __m256i pos = _mm256_and_si256(_mm256_cmpgt_epi32(r0, zero), _mm256_set1_epi32(2));
  const __m256i step = _mm256_sub_epi32(pos, _mm256_set1_epi32(1));
  r1 = _mm256_add_epi32(r1, _mm256_and_si256(step, _mm256_sub_epi32(zero, h)));
  const __m256i over = _mm256_srai_epi32(_mm256_sub_epi32(m1, r1), 31);
  r1 = _mm256_sub_epi32(r1, _mm256_and_si256(over, m));
  return _mm256_add_epi32(r1, _mm256_and_si256(_mm256_srai_epi32(r1, 31), m));
}

AVX2 void mldsa_poly_use_hint_avx2(const mldsa_params *p, mldsa_poly *a, const mldsa_poly *h) {
  const int32_t mv = (MLDSA_Q - 1) / (2 * p->gamma2);
  const __m256i two_g2 = _mm256_set1_epi32(2 * p->gamma2);
  const __m256i m = _mm256_set1_epi32(mv), m1 = _mm256_set1_epi32(mv - 1);
  const int wide = p->gamma2 == (MLDSA_Q - 1) / 32; /* public: the parameter set */
  for (size_t j = 0; j < MLDSA_N; j += 8)
    st8(a->c + j, use_hint8(wide, two_g2, m, m1, ld8(a->c + j), ld8(h->c + j)));
}

/* bytes32 narrows the 32 coefficients c0..c3 (eight each, in [0, 128)) to 32 bytes in order:
 * the packs interleave the four registers' halves by 128-bit lane, the dword permutation puts
 * them back. */
static inline AVX2 __m256i bytes32(__m256i c0, __m256i c1, __m256i c2, __m256i c3) {
  const __m256i a = _mm256_packs_epi32(c0, c1), b = _mm256_packs_epi32(c2, c3);
  return _mm256_permutevar8x32_epi32(_mm256_packs_epi16(a, b),
                                     _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
}

/* w1_pack32 writes the w1Encode (SimpleBitPack, Algorithm 16) of 32 coefficients, given as the
 * bytes b, at out (16 bytes for 4 bits, 24 for 6): pairs joined by VPMADDUBSW (b0 + 2^bits b1),
 * and for six bits the pairs joined again by VPMADDWD into 24-bit groups whose three low bytes
 * are kept. */
static inline AVX2 void w1_pack32(int four, uint8_t *out, __m256i b) {
  if (four) {
    const __m256i x = _mm256_maddubs_epi16(b, _mm256_set1_epi16(0x1001));
    const __m256i y = _mm256_permute4x64_epi64(_mm256_packus_epi16(x, x), 0x08);
    _mm_storeu_si128((__m128i *)out, _mm256_castsi256_si128(y));
  } else {
    const __m256i keep3 = _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1,
                                           0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
    __m256i x = _mm256_maddubs_epi16(b, _mm256_set1_epi16(0x4001));
    x = _mm256_madd_epi16(x, _mm256_set1_epi32(0x10000001));
    x = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(x, keep3),
                                    _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7));
    _mm_storeu_si128((__m128i *)out, _mm256_castsi256_si128(x));
    _mm_storel_epi64((__m128i *)(out + 16), _mm256_extracti128_si256(x, 1));
  }
}

/* w1Encode of one polynomial as mldsa_pack_w1_portable, 32 coefficients a step. */
AVX2 void mldsa_pack_w1_avx2(const mldsa_params *p, uint8_t *out, const mldsa_poly *w1) {
  const int four = p->w1_bits == 4; /* public: the parameter set */
  for (size_t i = 0; i < MLDSA_N; i += 32) {
    const int32_t *c = w1->c + i;
    w1_pack32(four, out + (four ? i / 2 : 3 * (i / 4)),
              bytes32(ld8(c), ld8(c + 8), ld8(c + 16), ld8(c + 24)));
  }
}

/* Verification's w1 as mldsa_poly_use_hint_encode_portable: w taken to [0, q) (caddq), UseHint
 * (use_hint8) and w1Encode, 32 coefficients a step; w is left as it was. */
AVX2 void mldsa_poly_use_hint_encode_avx2(const mldsa_params *p, uint8_t *out,
                                          const mldsa_poly *w, const mldsa_poly *h) {
  const int32_t mv = (MLDSA_Q - 1) / (2 * p->gamma2);
  const __m256i two_g2 = _mm256_set1_epi32(2 * p->gamma2), q = _mm256_set1_epi32(MLDSA_Q);
  const __m256i m = _mm256_set1_epi32(mv), m1 = _mm256_set1_epi32(mv - 1);
  const int wide = p->gamma2 == (MLDSA_Q - 1) / 32; /* public: the parameter set */
  const int four = p->w1_bits == 4;
  for (size_t i = 0; i < MLDSA_N; i += 32) {
    __m256i v[4];
    for (size_t k = 0; k < 4; k++) {
      __m256i r = ld8(w->c + i + 8 * k);
      r = _mm256_add_epi32(r, _mm256_and_si256(_mm256_srai_epi32(r, 31), q));
      v[k] = use_hint8(wide, two_g2, m, m1, r, ld8(h->c + i + 8 * k));
    }
    w1_pack32(four, out + (four ? i / 2 : 3 * (i / 4)), bytes32(v[0], v[1], v[2], v[3]));
  }
}

/* Signing's w1 as mldsa_poly_w1_encode_portable: w taken to [0, q) in place (caddq), its
 * HighBits by decompose8 (the low bits dropped) and their w1Encode, 32 coefficients a step. */
AVX2 void mldsa_poly_w1_encode_avx2(const mldsa_params *p, uint8_t *out, mldsa_poly *w) {
  const __m256i two_g2 = _mm256_set1_epi32(2 * p->gamma2);
  const __m256i q = _mm256_set1_epi32(MLDSA_Q);
  const int wide = p->gamma2 == (MLDSA_Q - 1) / 32; /* public: the parameter set */
  const int four = p->w1_bits == 4;
  for (size_t i = 0; i < MLDSA_N; i += 32) {
    __m256i h[4];
    for (size_t k = 0; k < 4; k++) {
      __m256i r = ld8(w->c + i + 8 * k), r0;
      r = _mm256_add_epi32(r, _mm256_and_si256(_mm256_srai_epi32(r, 31), q));
      st8(w->c + i + 8 * k, r);
      h[k] = decompose8(wide, two_g2, r, &r0);
    }
    w1_pack32(four, out + (four ? i / 2 : 3 * (i / 4)), bytes32(h[0], h[1], h[2], h[3]));
  }
}

/* BitUnpack of widths up to 13 (t1: 10, t0: 13, s1 and s2: 3 or 4) as mldsa_pack.c's
 * unpack_bits, eight values a step: a group of eight values is |bits| bytes, loaded as 16 bytes
 * into both 128-bit halves; a byte shuffle gives value i the three bytes from bit i * bits on
 * (a shift below 8 plus at most 13 bits fit in 24), a variable shift and a mask finish it. The
 * groups whose 16-byte load would pass the encoding's end are copied to a zeroed buffer first,
 * wiped after (the values may be secret). The shuffle and shifts depend on the width only. */
AVX2 void mldsa_unpack_bits_avx2(mldsa_poly *p, const uint8_t *in, unsigned bits, int32_t offset,
                                 int negate) {
  _Alignas(32) int8_t idx[32];
  _Alignas(32) int32_t sh[8];
  for (unsigned i = 0; i < 8; i++) {
    const unsigned byte = i * bits / 8, lane = 16 * (i / 4) + 4 * (i % 4);
    sh[i] = (int32_t)(i * bits % 8);
    idx[lane] = (int8_t)byte;
    idx[lane + 1] = (int8_t)(byte + 1);
    idx[lane + 2] = (int8_t)(byte + 2);
    idx[lane + 3] = -1;
  }
  const __m256i shuf = _mm256_load_si256((const __m256i *)idx);
  const __m256i shift = _mm256_load_si256((const __m256i *)sh);
  const __m256i mask = _mm256_set1_epi32((int32_t)((1u << bits) - 1));
  const __m256i off = _mm256_set1_epi32(offset);
  const size_t len = (size_t)32 * bits;
  uint8_t tail[16];
  for (size_t g = 0; g < MLDSA_N / 8; g++) {
    const size_t pos = g * bits;
    __m128i b;
    if (pos + 16 <= len) {
      b = _mm_loadu_si128((const __m128i *)(in + pos));
    } else {
      memset(tail, 0, sizeof tail);
      memcpy(tail, in + pos, bits);
      b = _mm_loadu_si128((const __m128i *)tail);
    }
    __m256i v = _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(b), shuf);
    v = _mm256_and_si256(_mm256_srlv_epi32(v, shift), mask);
    st8(p->c + 8 * g, negate ? _mm256_sub_epi32(off, v) : v);
  }
  fm_zeroize(tail, sizeof tail);
}

/* BitPack of widths up to 13 (t1, t0, s1, s2) as mldsa_pack.c's pack_bits, eight values a step
 * (|bits| bytes): the values (offset - c when negate) masked, joined in pairs within each 64-bit
 * lane (the odd one shifted down next to the even one), then in fours within each 128-bit lane
 * (at most 52 bits), then the two halves in two 64-bit words. A group is written as 16 bytes
 * while that stays inside the encoding (the next group overwrites the excess), the last ones
 * byte by byte. Nothing depends on the values but the values. */
AVX2 void mldsa_pack_bits_avx2(uint8_t *out, const mldsa_poly *p, unsigned bits, int32_t offset,
                               int negate) {
  const __m256i mask = _mm256_set1_epi32((int32_t)((1u << bits) - 1));
  const __m256i off = _mm256_set1_epi32(offset);
  const __m256i lo32 = _mm256_set1_epi64x(0xffffffff);
  const __m256i pair = _mm256_setr_epi64x(0, 2 * bits, 0, 2 * bits);
  const unsigned n = 4 * bits;
  const size_t len = (size_t)32 * bits;
  for (size_t g = 0; g < MLDSA_N / 8; g++) {
    __m256i x = ld8(p->c + 8 * g);
    if (negate) x = _mm256_sub_epi32(off, x); /* public: the encoding */
    x = _mm256_and_si256(x, mask);
    __m256i u = _mm256_or_si256(_mm256_and_si256(x, lo32), _mm256_srli_epi64(x, 32 - bits));
    u = _mm256_sllv_epi64(u, pair);
    u = _mm256_or_si256(u, _mm256_bsrli_epi128(u, 8));
    const uint64_t lo = (uint64_t)_mm_cvtsi128_si64(_mm256_castsi256_si128(u));
    const uint64_t hi = (uint64_t)_mm_cvtsi128_si64(_mm256_extracti128_si256(u, 1));
    const uint64_t w0 = lo | hi << n, w1 = hi >> (64 - n);
    const size_t pos = g * bits;
    if (pos + 16 <= len) {
      _mm_storeu_si128((__m128i *)(out + pos), _mm_set_epi64x((long long)w1, (long long)w0));
    } else {
      for (unsigned i = 0; i < bits; i++)
        out[pos + i] = (uint8_t)(i < 8 ? w0 >> (8 * i) : w1 >> (8 * (i - 8)));
    }
  }
}

/* BitPack of z (18 or 20 bits) as mldsa_pack_z_portable, eight values (|bits| bytes) a step:
 * gamma1 - z masked, joined in pairs within each 64-bit lane as in mldsa_pack_bits_avx2, then
 * the four pairs (2 bits each) joined in three 64-bit words. A group is written as 24 bytes
 * while that stays inside the encoding (the next group overwrites the excess), the last one
 * byte by byte. */
AVX2 void mldsa_pack_z_avx2(const mldsa_params *p, uint8_t *out, const mldsa_poly *z) {
  const unsigned bits = p->z_bits, n = 2 * bits;
  const __m256i mask = _mm256_set1_epi32((int32_t)((1u << bits) - 1));
  const __m256i g1 = _mm256_set1_epi32(p->gamma1);
  const __m256i lo32 = _mm256_set1_epi64x(0xffffffff);
  const size_t len = (size_t)32 * bits;
  for (size_t g = 0; g < MLDSA_N / 8; g++) {
    const __m256i x = _mm256_and_si256(_mm256_sub_epi32(g1, ld8(z->c + 8 * g)), mask);
    /* The odd value alone shifted down: the even one has more bits than the shift (32 - bits). */
    const __m256i u = _mm256_or_si256(_mm256_and_si256(x, lo32),
                                      _mm256_srli_epi64(_mm256_andnot_si256(lo32, x), 32 - bits));
    const __m128i ul = _mm256_castsi256_si128(u), uh = _mm256_extracti128_si256(u, 1);
    const uint64_t u0 = (uint64_t)_mm_cvtsi128_si64(ul), u1 = (uint64_t)_mm_extract_epi64(ul, 1);
    const uint64_t u2 = (uint64_t)_mm_cvtsi128_si64(uh), u3 = (uint64_t)_mm_extract_epi64(uh, 1);
    const uint64_t w0 = u0 | u1 << n;
    const uint64_t w1 = u1 >> (64 - n) | u2 << (2 * n - 64) | u3 << (3 * n - 64);
    const uint64_t w2 = u3 >> (128 - 3 * n);
    const size_t pos = g * bits;
    if (pos + 24 <= len) {
      _mm_storeu_si128((__m128i *)(out + pos), _mm_set_epi64x((long long)w1, (long long)w0));
      _mm_storel_epi64((__m128i *)(out + pos + 16), _mm_cvtsi64_si128((long long)w2));
    } else {
      for (unsigned i = 0; i < bits; i++)
        out[pos + i] = (uint8_t)(i < 8 ? w0 >> (8 * i) : i < 16 ? w1 >> (8 * (i - 8))
                                                               : w2 >> (8 * (i - 16)));
    }
  }
}

/* freeze8: reduce32 then caddq, lane by lane, as in mldsa_poly.c. */
static inline AVX2 __m256i freeze8(__m256i x) {
  const __m256i q = _mm256_set1_epi32(MLDSA_Q);
  const __m256i t = _mm256_srai_epi32(_mm256_add_epi32(x, _mm256_set1_epi32(1 << 22)), 23);
  /* t q = t 2^23 - t 2^13 + t */
  x = _mm256_sub_epi32(x, _mm256_add_epi32(_mm256_sub_epi32(_mm256_slli_epi32(t, 23),
                                                            _mm256_slli_epi32(t, 13)),
                                           t));
  return _mm256_add_epi32(x, _mm256_and_si256(_mm256_srai_epi32(x, 31), q));
}

/* One row's end of a signing attempt as mldsa_poly_sign_row_portable: the two norm checks as
 * masks ORed over the lanes, the hint and its count. */
AVX2 uint32_t mldsa_poly_sign_row_avx2(const mldsa_params *p, mldsa_poly *h, const mldsa_poly *w,
                                       const mldsa_poly *cs2, const mldsa_poly *ct0,
                                       unsigned *ones) {
  const __m256i q = _mm256_set1_epi32(MLDSA_Q), one = _mm256_set1_epi32(1);
  const __m256i two_g2 = _mm256_set1_epi32(2 * p->gamma2);
  const __m256i lim0 = _mm256_set1_epi32(p->gamma2 - p->beta - 1);
  const __m256i lim1 = _mm256_set1_epi32(p->gamma2 - 1);
  const int wide = p->gamma2 == (MLDSA_Q - 1) / 32; /* public: the parameter set */
  __m256i bad = _mm256_setzero_si256(), count = _mm256_setzero_si256();
  for (size_t j = 0; j < MLDSA_N; j += 8) {
    __m256i r0, lo;
    const __m256i r = freeze8(_mm256_sub_epi32(ld8(w->c + j), ld8(cs2->c + j)));
    const __m256i v1 = decompose8(wide, two_g2, r, &r0);
    bad = _mm256_or_si256(bad, _mm256_srai_epi32(_mm256_sub_epi32(lim0, _mm256_abs_epi32(r0)), 31));
    const __m256i c = ld8(ct0->c + j), ac = _mm256_abs_epi32(c);
    const __m256i mag = _mm256_min_epi32(ac, _mm256_sub_epi32(q, ac));
    bad = _mm256_or_si256(bad, _mm256_srai_epi32(_mm256_sub_epi32(lim1, mag), 31));
    const __m256i r1 = decompose8(wide, two_g2, freeze8(_mm256_add_epi32(r, c)), &lo);
    const __m256i differ = _mm256_andnot_si256(_mm256_cmpeq_epi32(r1, v1), one);
    st8(h->c + j, differ);
    count = _mm256_add_epi32(count, differ);
  }
  __m128i c = _mm_add_epi32(_mm256_castsi256_si128(count), _mm256_extracti128_si256(count, 1));
  c = _mm_add_epi32(c, _mm_shuffle_epi32(c, 0x4e));
  c = _mm_add_epi32(c, _mm_shuffle_epi32(c, 0xb1));
  *ones += (unsigned)_mm_cvtsi128_si32(c);
  __m128i b = _mm_or_si128(_mm256_castsi256_si128(bad), _mm256_extracti128_si256(bad, 1));
  b = _mm_or_si128(b, _mm_shuffle_epi32(b, 0x4e));
  b = _mm_or_si128(b, _mm_shuffle_epi32(b, 0xb1));
  return (uint32_t)_mm_cvtsi128_si32(b);
}

/* RejNTTPoly's block (as mldsa_rej_ntt_block_portable): the 56 three-byte candidates of one
 * SHAKE128 block, eight a step. A step's 24 bytes are loaded as 32 (the load may read up to 8
 * bytes past the block's 168, which the caller guarantees are readable), spread so that each
 * candidate's three bytes start a 32-bit lane, masked to 23 bits and compared with q; the
 * accepted lanes are moved to the front (k_rej_idx) and all eight stored, and the count advances
 * by the number accepted. Reads public data only (rho's stream). */
#include "module/mldsa/mldsa_avx2_rej.inc"

AVX2 size_t mldsa_rej_ntt_block_avx2(int32_t *out, const uint8_t *block) {
  const __m256i idx = _mm256_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1,
                                       4, 5, 6, -1, 7, 8, 9, -1, 10, 11, 12, -1, 13, 14, 15, -1);
  const __m256i mask = _mm256_set1_epi32(0x7fffff), q = _mm256_set1_epi32(MLDSA_Q);
  size_t n = 0;
  for (size_t pos = 0; pos < 168; pos += 24) {
    /* Bytes 0..15 to the low half, 8..23 to the high half: the high half's candidates start at
     * its byte 4. */
    __m256i v = _mm256_loadu_si256((const __m256i *)(block + pos));
    v = _mm256_permute4x64_epi64(v, 0x94);
    v = _mm256_and_si256(_mm256_shuffle_epi8(v, idx), mask);
    const __m256i good = _mm256_cmpgt_epi32(q, v);
    const unsigned m = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(good));
    const __m256i perm = _mm256_cvtepu8_epi32(_mm_cvtsi64_si128((long long)k_rej_idx[m]));
    _mm256_storeu_si256((__m256i *)(out + n), _mm256_permutevar8x32_epi32(v, perm));
    n += (size_t)__builtin_popcount(m);
  }
  return n;
}

/* RejBoundedPoly's block (as mldsa_rej_eta_block_portable), eight half-bytes a step: four bytes
 * are split into their low and high half-bytes, interleaved in stream order, one per lane. A
 * first pass gathers the keep masks of all 34 steps, declassified together as the portable twin
 * declassifies its decisions; the second maps each half-byte b to eta - (b mod 5) (eta 2: the
 * multiply-shift of coeff_from_half_byte) or 4 - b, moves the kept lanes to the front
 * (k_rej_idx) and stores eight, while eight fit below 256; the last steps go lane by lane. The
 * stored values are secret; the indices and the branches depend on the declassified masks. */
static inline AVX2 __m256i half_bytes8(const uint8_t *in) {
  const __m128i x = _mm_cvtsi32_si128((int)((uint32_t)in[0] | (uint32_t)in[1] << 8 |
                                            (uint32_t)in[2] << 16 | (uint32_t)in[3] << 24));
  const __m128i lo4 = _mm_set1_epi8(15);
  const __m128i lo = _mm_and_si128(x, lo4), hi = _mm_and_si128(_mm_srli_epi16(x, 4), lo4);
  return _mm256_cvtepu8_epi32(_mm_unpacklo_epi8(lo, hi));
}

AVX2 size_t mldsa_rej_eta_block_avx2(const mldsa_params *p, int32_t *a, size_t j,
                                     const uint8_t *buf) {
  enum { STEPS = 136 / 4 };
  const int eta2 = p->eta == 2; /* public: the parameter set */
  const __m256i limit = _mm256_set1_epi32(eta2 ? 15 : 9), eta = _mm256_set1_epi32(p->eta);
  uint8_t keep[STEPS];
  for (size_t g = 0; g < STEPS; g++) {
    const __m256i ok = _mm256_cmpgt_epi32(limit, half_bytes8(buf + 4 * g));
    keep[g] = (uint8_t)_mm256_movemask_ps(_mm256_castsi256_ps(ok));
  }
  fm_declassify(keep, sizeof keep);
  for (size_t g = 0; g < STEPS && j < MLDSA_N; g++) {
    const __m256i b = half_bytes8(buf + 4 * g);
    __m256i c;
    if (eta2) {
      const __m256i q5 = _mm256_srli_epi32(_mm256_mullo_epi32(b, _mm256_set1_epi32(205)), 10);
      c = _mm256_sub_epi32(eta, _mm256_sub_epi32(b, _mm256_mullo_epi32(q5, _mm256_set1_epi32(5))));
    } else {
      c = _mm256_sub_epi32(eta, b);
    }
    if (j + 8 <= MLDSA_N) {
      const __m256i perm = _mm256_cvtepu8_epi32(_mm_cvtsi64_si128((long long)k_rej_idx[keep[g]]));
      _mm256_storeu_si256((__m256i *)(a + j), _mm256_permutevar8x32_epi32(c, perm));
      j += (size_t)__builtin_popcount(keep[g]);
    } else {
      int32_t lanes[8];
      _mm256_storeu_si256((__m256i *)lanes, c);
      for (unsigned i = 0; i < 8 && j < MLDSA_N; i++) {
        a[j] = lanes[i];
        j += (keep[g] >> i) & 1u;
      }
      fm_zeroize(lanes, sizeof lanes);
    }
  }
  return j;
}

/* BitUnpack of z (Algorithm 27 with a = gamma1 - 1, b = gamma1), eight coefficients a step:
 * gamma1 - v for each z_bits-bit value v (18 or 20 bits). Coefficient j of each half of a group
 * (four coefficients, 9 or 10 bytes) starts in byte floor(z_bits j / 8) at bit (z_bits j) mod 8:
 * three bytes are gathered into its 32-bit lane by a byte shuffle, shifted by that bit offset
 * and masked. A group's 32-byte load starts at the group (64-bit words 0, 1, 1, 2 to the two
 * halves of the register) or, for the last group, ends at the end of the 32 z_bits bytes (words
 * 1, 2, 2, 3), with the shuffle moved by the offsets that gives. Constant time: fixed loads,
 * shuffles and arithmetic. */
AVX2 void mldsa_unpack_z_avx2(const mldsa_params *p, mldsa_poly *z, const uint8_t *in) {
  const int wide = p->z_bits == 20; /* public: the parameter set */
  const size_t group = wide ? 20 : 18, len = (size_t)32 * p->z_bits;
  const __m256i gamma1 = _mm256_set1_epi32(p->gamma1);
  const __m256i mask = _mm256_set1_epi32(wide ? 0xfffff : 0x3ffff);
  const __m256i shift = wide ? _mm256_setr_epi32(0, 4, 0, 4, 0, 4, 0, 4)
                             : _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
  /* Shuffles: [wide][tail]. Halves start at bytes 0 and 10 (wide) or 0 and 9 of the group; in
   * the register's high half the group's byte 8 is at offset 0 (head) and the tail offsets are
   * those of a load ending at byte len. */
  const __m256i idx_w = _mm256_setr_epi8(0, 1, 2, -1, 2, 3, 4, -1, 5, 6, 7, -1, 7, 8, 9, -1,
                                         2, 3, 4, -1, 4, 5, 6, -1, 7, 8, 9, -1, 9, 10, 11, -1);
  const __m256i idx_wt = _mm256_setr_epi8(4, 5, 6, -1, 6, 7, 8, -1, 9, 10, 11, -1, 11, 12, 13, -1,
                                          6, 7, 8, -1, 8, 9, 10, -1, 11, 12, 13, -1, 13, 14, 15, -1);
  const __m256i idx_n = _mm256_setr_epi8(0, 1, 2, -1, 2, 3, 4, -1, 4, 5, 6, -1, 6, 7, 8, -1,
                                         1, 2, 3, -1, 3, 4, 5, -1, 5, 6, 7, -1, 7, 8, 9, -1);
  const __m256i idx_nt = _mm256_setr_epi8(6, 7, 8, -1, 8, 9, 10, -1, 10, 11, 12, -1, 12, 13, 14, -1,
                                          7, 8, 9, -1, 9, 10, 11, -1, 11, 12, 13, -1, 13, 14, 15, -1);
  for (size_t i = 0; i < MLDSA_N / 8; i++) {
    const size_t pos = group * i;
    __m256i v, idx;
    if (pos + 32 <= len) {
      v = _mm256_permute4x64_epi64(_mm256_loadu_si256((const __m256i *)(in + pos)), 0x94);
      idx = wide ? idx_w : idx_n;
    } else {
      /* The last group: pos = len - group, the load at len - 32. */
      v = _mm256_permute4x64_epi64(_mm256_loadu_si256((const __m256i *)(in + len - 32)), 0xe9);
      idx = wide ? idx_wt : idx_nt;
    }
    v = _mm256_shuffle_epi8(v, idx);
    v = _mm256_and_si256(_mm256_srlv_epi32(v, shift), mask);
    _mm256_storeu_si256((__m256i *)(z->c + 8 * i), _mm256_sub_epi32(gamma1, v));
  }
}
#endif
