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

#include "module/internal.h"
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

/* The twiddles of the in-register layers and of the base multiplication, and the rejection
 * sampler's shuffles: constant tables written by gen_avx2_tables.py. */
#include "module/mlkem/mlkem_avx2_tables.inc"

AVX2_FN static inline __m256i zv(const int16_t *t) { return _mm256_load_si256((const __m256i *)t); }

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
    ct_bfly(&x, &y, zv(k_ntt_zv[p][0]));
    split8(&x, &y); /* back: (lo.lo, hi.lo) is x's order again */
    split4(&x, &y);
    ct_bfly(&x, &y, zv(k_ntt_zv[p][1]));
    split4(&x, &y);
    split2(&x, &y);
    ct_bfly(&x, &y, zv(k_ntt_zv[p][2]));
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
    gs_bfly(&x, &y, zv(k_invntt_zv[p][0]));
    split2(&x, &y);
    split4(&x, &y);
    gs_bfly(&x, &y, zv(k_invntt_zv[p][1]));
    split4(&x, &y);
    split8(&x, &y);
    gs_bfly(&x, &y, zv(k_invntt_zv[p][2]));
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
    const __m256i zeta = zv(k_basemul_zv[p]);
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
      const __m256i c0 = _mm256_add_epi16(fqmul_v(fqmul_v(a1, b1), zeta), fqmul_v(a0, b0));
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
/* load_groups returns, for the 24 bytes at in + pos (of |len| >= 32 bytes in all), the bytes
 * pos .. pos + 15 in the low half and pos + 8 .. pos + 23 in the high half: from a load at pos,
 * or, for a group too close to the end for a 32-byte load, at pos - 8 (64-bit words 1, 2, 2, 3
 * instead of 0, 1, 1, 2). Which load depends on the position only. */
AVX2_FN static inline __m256i load_groups(const uint8_t *in, size_t pos, size_t len) {
  if (pos + 32 <= len) {
    return _mm256_permute4x64_epi64(_mm256_loadu_si256((const __m256i *)(in + pos)), 0x94);
  }
  return _mm256_permute4x64_epi64(_mm256_loadu_si256((const __m256i *)(in + pos - 8)), 0xe9);
}

/* unpack12 turns the two halves load_groups gives into sixteen 12-bit values (in the order of
 * ByteDecode_12), as the rejection sampler does. */
AVX2_FN static inline __m256i unpack12(__m256i v) {
  const __m256i bytes = _mm256_setr_epi8(0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11,
                                         4, 5, 5, 6, 7, 8, 8, 9, 10, 11, 11, 12, 13, 14, 14, 15);
  v = _mm256_shuffle_epi8(v, bytes);
  return _mm256_blend_epi16(_mm256_and_si256(v, _mm256_set1_epi16(0x0fff)),
                            _mm256_srli_epi16(v, 4), 0xaa);
}

/* Rejection sampling (SampleNTT's steps 5-14) sixteen candidates at a time: 24 bytes give 16
 * 12-bit values (d1 = b0 | (b1 & 15) << 8, d2 = b1 >> 4 | b2 << 4 for each 3 bytes). A byte
 * shuffle puts bytes 3i, 3i + 1 in word 2i and 3i + 1, 3i + 2 in word 2i + 1; the even words
 * keep their low 12 bits and the odd ones are shifted down by 4. The accepted words (below q) of
 * each half are moved to the front by the shuffle that k_rej_shuffle gives for their mask and
 * stored; the count advances by the mask's population. The data are public (rho's stream):
 * the table index and the counts may depend on them. Same output as mlkem_rej_uniform_portable. */
AVX2_FN void mlkem_rej_uniform_avx2(int16_t r[MLKEM_N], unsigned *n, const uint8_t *buf,
                                    size_t len) {
  /* Room for the 16 words the last store may write past 256; they are dropped. */
  _Alignas(32) int16_t tmp[MLKEM_N + 16];
  const unsigned start = *n;
  unsigned ctr = start;
  const __m256i q = _mm256_set1_epi16(MLKEM_Q);
  size_t pos = 0;
  /* Each step reads 32 bytes (24 used); a buffer shorter than 32 bytes goes to the portable
   * code. */
  while (pos + 24 <= len && len >= 32 && ctr < MLKEM_N) {
    const __m256i d = unpack12(load_groups(buf, pos, len));
    const __m256i good = _mm256_cmpgt_epi16(q, d);
    const __m128i packed = _mm_packs_epi16(_mm256_castsi256_si128(good),
                                           _mm256_extracti128_si256(good, 1));
    const unsigned m = (unsigned)_mm_movemask_epi8(packed);
    const unsigned m0 = m & 0xff, m1 = m >> 8;
    const __m128i lo = _mm_shuffle_epi8(_mm256_castsi256_si128(d),
                                        _mm_load_si128((const __m128i *)k_rej_shuffle[m0]));
    const __m128i hi = _mm_shuffle_epi8(_mm256_extracti128_si256(d, 1),
                                        _mm_load_si128((const __m128i *)k_rej_shuffle[m1]));
    _mm_storeu_si128((__m128i *)&tmp[ctr], lo);
    ctr += k_rej_count[m0];
    _mm_storeu_si128((__m128i *)&tmp[ctr], hi);
    ctr += k_rej_count[m1];
    pos += 24;
  }
  if (ctr > MLKEM_N) ctr = MLKEM_N;
  memcpy(&r[start], &tmp[start], (ctr - start) * sizeof r[0]);
  *n = ctr;
  /* The rest (under 24 bytes, or a buffer of 24 to 31) one group at a time. */
  if (ctr < MLKEM_N && pos < len) mlkem_rej_uniform_portable(r, n, buf + pos, len - pos);
}
/* ByteDecode_12 reduced mod q as mlkem_poly_frombytes_portable: t - q, plus q where negative
 * (the sign mask). Constant time: fixed loads, shuffles and arithmetic. */
AVX2_FN void mlkem_poly_frombytes_avx2(mlkem_poly *r, const uint8_t in[MLKEM_POLY_BYTES]) {
  const __m256i q = _mm256_set1_epi16(MLKEM_Q);
  for (unsigned i = 0; i < MLKEM_N / 16; i++) {
    const __m256i t = _mm256_sub_epi16(unpack12(load_groups(in, 24 * i, MLKEM_POLY_BYTES)), q);
    const __m256i v = _mm256_add_epi16(t, _mm256_and_si256(_mm256_srai_epi16(t, 15), q));
    _mm256_store_si256((__m256i *)&r->c[16 * i], v);
  }
}

/* mlkem_poly_cbd2_avx2 is SamplePolyCBD_2 of 128 bytes: coefficient n is the difference of the
 * two bit sums of nibble n of the stream. Per byte, pairs of bits are summed in place (masks
 * 0x55), the nibbles' two sums a and b split (masks 0x33) and a - b + 3 formed in each nibble
 * (no borrow), then the nibbles are interleaved in coefficient order, widened, and 3 taken
 * off. Fixed instructions whatever the (secret) bytes. */
AVX2_FN void mlkem_poly_cbd2_avx2(mlkem_poly *r, const uint8_t buf[128]) {
  const __m256i m55 = _mm256_set1_epi8(0x55), m33 = _mm256_set1_epi8(0x33);
  const __m256i m0f = _mm256_set1_epi8(0x0f), three = _mm256_set1_epi16(3);
  for (unsigned i = 0; i < 4; i++) {
    const __m256i x = _mm256_loadu_si256((const __m256i *)(buf + 32 * i));
    const __m256i d = _mm256_add_epi8(_mm256_and_si256(x, m55),
                                      _mm256_and_si256(_mm256_srli_epi16(x, 1), m55));
    const __m256i a = _mm256_and_si256(d, m33);
    const __m256i b = _mm256_and_si256(_mm256_srli_epi16(d, 2), m33);
    const __m256i v = _mm256_sub_epi8(_mm256_add_epi8(a, m33), b);
    const __m256i lo = _mm256_and_si256(v, m0f);
    const __m256i hi = _mm256_and_si256(_mm256_srli_epi16(v, 4), m0f);
    /* Per 128-bit half: unpacklo gives its bytes 0-7 as 16 coefficients, unpackhi bytes 8-15. */
    const __m256i e0 = _mm256_unpacklo_epi8(lo, hi), e1 = _mm256_unpackhi_epi8(lo, hi);
    int16_t *c = &r->c[64 * i];
    _mm256_store_si256((__m256i *)c,
                       _mm256_sub_epi16(_mm256_cvtepi8_epi16(_mm256_castsi256_si128(e0)), three));
    _mm256_store_si256((__m256i *)(c + 16),
                       _mm256_sub_epi16(_mm256_cvtepi8_epi16(_mm256_castsi256_si128(e1)), three));
    _mm256_store_si256((__m256i *)(c + 32),
                       _mm256_sub_epi16(_mm256_cvtepi8_epi16(_mm256_extracti128_si256(e0, 1)), three));
    _mm256_store_si256((__m256i *)(c + 48),
                       _mm256_sub_epi16(_mm256_cvtepi8_epi16(_mm256_extracti128_si256(e1, 1)), three));
  }
}

/* mlkem_poly_cbd3_avx2 is SamplePolyCBD_3 of 192 bytes: each 3 bytes (24 bits) give 4
 * coefficients, each the difference of two sums of three bits. 24 bytes a step: 3 bytes to each
 * 32-bit word (a word permutation, then a byte shuffle; the last step loads 8 bytes early), the
 * triples of bits summed in place (masks 0x249249), the sums of coefficients 4i, 4i + 1 and of
 * 4i + 2, 4i + 3 spread to 16-bit words (6 bits each: a | b << 3), a - b formed, and the words
 * interleaved back into coefficient order. Fixed instructions whatever the (secret) bytes. */
AVX2_FN void mlkem_poly_cbd3_avx2(mlkem_poly *r, const uint8_t buf[192]) {
  const __m256i bytes = _mm256_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1,
                                         0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1);
  const __m256i m249 = _mm256_set1_epi32(0x249249), m3f = _mm256_set1_epi32(0x3f);
  const __m256i mfc0 = _mm256_set1_epi32(0xfc0), m7 = _mm256_set1_epi16(7);
  for (unsigned i = 0; i < 8; i++) {
    const int last = i == 7;
    const __m256i raw = _mm256_loadu_si256((const __m256i *)(buf + 24 * i - (last ? 8 : 0)));
    const __m256i words = last ? _mm256_setr_epi32(2, 3, 4, 5, 5, 6, 7, 7)
                               : _mm256_setr_epi32(0, 1, 2, 3, 3, 4, 5, 6);
    const __m256i t = _mm256_shuffle_epi8(_mm256_permutevar8x32_epi32(raw, words), bytes);
    const __m256i d = _mm256_add_epi32(
        _mm256_add_epi32(_mm256_and_si256(t, m249), _mm256_and_si256(_mm256_srli_epi32(t, 1), m249)),
        _mm256_and_si256(_mm256_srli_epi32(t, 2), m249));
    /* x: fields 0-3 (coefficients 4i, 4i + 1); y: fields 4-7 (4i + 2, 4i + 3). */
    const __m256i y = _mm256_srli_epi32(d, 12);
    const __m256i px = _mm256_or_si256(_mm256_and_si256(d, m3f),
                                       _mm256_slli_epi32(_mm256_and_si256(d, mfc0), 10));
    const __m256i py = _mm256_or_si256(_mm256_and_si256(y, m3f),
                                       _mm256_slli_epi32(_mm256_and_si256(y, mfc0), 10));
    const __m256i cx = _mm256_sub_epi16(_mm256_and_si256(px, m7),
                                        _mm256_and_si256(_mm256_srli_epi16(px, 3), m7));
    const __m256i cy = _mm256_sub_epi16(_mm256_and_si256(py, m7),
                                        _mm256_and_si256(_mm256_srli_epi16(py, 3), m7));
    /* Per half: unpacklo gives coefficients 0-7 of its 16, unpackhi 8-15. */
    const __m256i lo = _mm256_unpacklo_epi32(cx, cy), hi = _mm256_unpackhi_epi32(cx, cy);
    _mm256_store_si256((__m256i *)&r->c[32 * i], _mm256_permute2x128_si256(lo, hi, 0x20));
    _mm256_store_si256((__m256i *)&r->c[32 * i + 16], _mm256_permute2x128_si256(lo, hi, 0x31));
  }
}

/* mlkem_poly_normalize_avx2: Barrett reduction, then q added where negative (the sign mask), as
 * mlkem_poly_normalize_portable. */
AVX2_FN void mlkem_poly_normalize_avx2(mlkem_poly *r) {
  const __m256i q = _mm256_set1_epi16(MLKEM_Q);
  for (unsigned i = 0; i < MLKEM_N / 16; i++) {
    const __m256i t = barrett_v(_mm256_load_si256((const __m256i *)&r->c[16 * i]));
    _mm256_store_si256((__m256i *)&r->c[16 * i],
                       _mm256_add_epi16(t, _mm256_and_si256(_mm256_srai_epi16(t, 15), q)));
  }
}

/* mlkem_poly_tomont_avx2: the Montgomery product by 2^32 mod q, as the portable form. */
AVX2_FN void mlkem_poly_tomont_avx2(mlkem_poly *r) {
  const __m256i f = _mm256_set1_epi16(1353);
  for (unsigned i = 0; i < MLKEM_N / 16; i++) {
    const __m256i x = _mm256_load_si256((const __m256i *)&r->c[16 * i]);
    _mm256_store_si256((__m256i *)&r->c[16 * i], fqmul_v(x, f));
  }
}

/* mlkem_poly_tobytes_avx2 is ByteEncode_12 of a normalized polynomial: pairs joined in 32-bit
 * words (c0 + 2^12 c1, three bytes), the three low bytes of each word gathered to the front of
 * its 128-bit half, and the two halves' 12 bytes stored; the last group goes through a buffer so
 * that no 16-byte store passes the 384 bytes. */
AVX2_FN void mlkem_poly_tobytes_avx2(uint8_t out[MLKEM_POLY_BYTES], const mlkem_poly *a) {
  const __m256i join = _mm256_set1_epi32(1 | (1 << 28));
  const __m256i gather = _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1,
                                          0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
  _Alignas(32) uint8_t last[32];
  for (unsigned i = 0; i < MLKEM_N / 16; i++) {
    const __m256i x = _mm256_load_si256((const __m256i *)&a->c[16 * i]);
    const __m256i p = _mm256_shuffle_epi8(_mm256_madd_epi16(x, join), gather);
    if (i + 1 < MLKEM_N / 16) {
      _mm_storeu_si128((__m128i *)(out + 24 * i), _mm256_castsi256_si128(p));
      _mm_storeu_si128((__m128i *)(out + 24 * i + 12), _mm256_extracti128_si256(p, 1));
    } else {
      _mm256_store_si256((__m256i *)last, p);
      memcpy(out + 24 * i, last, 12);
      memcpy(out + 24 * i + 12, last + 16, 12);
    }
  }
  fm_zeroize(last, sizeof last);
}

/* mlkem_below_q_avx2: sixteen 12-bit values a step (24 bytes, as ByteDecode_12 reads them),
 * compared with q - 1 and the results ORed. len is a multiple of 384 (so of 24, and >= 32). */
AVX2_FN int mlkem_below_q_avx2(const uint8_t *in, size_t len) {
  const __m256i qm1 = _mm256_set1_epi16(MLKEM_Q - 1);
  __m256i bad = _mm256_setzero_si256();
  for (size_t pos = 0; pos < len; pos += 24)
    bad = _mm256_or_si256(bad, _mm256_cmpgt_epi16(unpack12(load_groups(in, pos, len)), qm1));
  return _mm256_testz_si256(bad, bad);
}

/* Decompress_d(y) = (q y + 2^(d-1)) >> d is MULHRS of y 2^(15-d) by q: (y 2^(15-d) q + 2^14) >>
 * 15, exact since y 2^(15-d) < 2^15. ByteDecode_10 takes 16 values from 20 bytes: value i of a
 * half starts at bit 10 i, in the 16-bit word at byte 10 i / 8, shifted by 10 i mod 8 (0, 2, 4,
 * 6), which a multiplication by 2^(6 - shift) and a shift down by 6 take out. ByteDecode_4 takes
 * a nibble per value. */
AVX2_FN void mlkem_poly_decompress_avx2(mlkem_poly *r, const uint8_t *in, unsigned d) {
  const __m256i q = _mm256_set1_epi16(MLKEM_Q);
  if (d == 10) {
    const size_t len = 320;
    const __m256i align = _mm256_setr_epi16(64, 16, 4, 1, 64, 16, 4, 1, 64, 16, 4, 1, 64, 16, 4, 1);
    for (unsigned i = 0; i < MLKEM_N / 16; i++) {
      const size_t pos = 20 * (size_t)i;
      __m256i v, idx;
      if (pos + 32 <= len) {
        /* Low half: bytes pos .. pos + 15; high half: pos + 8 .. pos + 23 (values 8-15 from
         * pos + 10, offset 2). */
        v = _mm256_permute4x64_epi64(_mm256_loadu_si256((const __m256i *)(in + pos)), 0x94);
        idx = _mm256_setr_epi8(0, 1, 1, 2, 2, 3, 3, 4, 5, 6, 6, 7, 7, 8, 8, 9,
                               2, 3, 3, 4, 4, 5, 5, 6, 7, 8, 8, 9, 9, 10, 10, 11);
      } else {
        /* From a load at pos - 12: low half pos - 4 .. pos + 11 (offset 4), high half pos + 4 ..
         * pos + 19 (values 8-15 at offset 6). */
        v = _mm256_permute4x64_epi64(_mm256_loadu_si256((const __m256i *)(in + pos - 12)), 0xe9);
        idx = _mm256_setr_epi8(4, 5, 5, 6, 6, 7, 7, 8, 9, 10, 10, 11, 11, 12, 12, 13,
                               6, 7, 7, 8, 8, 9, 9, 10, 11, 12, 12, 13, 13, 14, 14, 15);
      }
      v = _mm256_shuffle_epi8(v, idx);
      v = _mm256_srli_epi16(_mm256_mullo_epi16(v, align), 6);
      v = _mm256_mulhrs_epi16(_mm256_slli_epi16(v, 5), q);
      _mm256_store_si256((__m256i *)&r->c[16 * i], v);
    }
    return;
  }
  if (d == 11) {
    /* Eight values from 11 bytes: value j starts at bit 11 j, in byte 11 j / 8 at shift 11 j mod
     * 8 (0, 3, 6, 1, 4, 7, 2, 5); its (two or three) bytes go to 32-bit word j of a 16-byte load
     * seen by both halves, a variable shift and a mask take it out. The last group loads 5 bytes
     * early (no read past the 352 bytes) and its indices are 5 higher. */
    const __m256i idx = _mm256_setr_epi8(0, 1, -1, -1, 1, 2, -1, -1, 2, 3, 4, -1, 4, 5, -1, -1,
                                         5, 6, -1, -1, 6, 7, 8, -1, 8, 9, -1, -1, 9, 10, -1, -1);
    const __m256i idx_last = _mm256_add_epi8(idx, _mm256_and_si256(
                                                      _mm256_cmpgt_epi8(idx, _mm256_set1_epi8(-1)),
                                                      _mm256_set1_epi8(5)));
    const __m256i shift = _mm256_setr_epi32(0, 3, 6, 1, 4, 7, 2, 5);
    const __m256i mask = _mm256_set1_epi32(0x7ff);
    __m256i g[2];
    for (unsigned i = 0; i < MLKEM_N / 16; i++) {
      for (unsigned h = 0; h < 2; h++) {
        const unsigned grp = 2 * i + h;
        const int last = grp == MLKEM_N / 8 - 1;
        const __m128i b = _mm_loadu_si128((const __m128i *)(in + 11 * grp - (last ? 5 : 0)));
        const __m256i w = _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(b), last ? idx_last : idx);
        g[h] = _mm256_and_si256(_mm256_srlv_epi32(w, shift), mask);
      }
      __m256i v = _mm256_permute4x64_epi64(_mm256_packus_epi32(g[0], g[1]), 0xd8);
      v = _mm256_mulhrs_epi16(_mm256_slli_epi16(v, 4), q);
      _mm256_store_si256((__m256i *)&r->c[16 * i], v);
    }
    return;
  }
  if (d == 5) {
    /* Sixteen values from 10 bytes, eight per half (the high half's 5 bytes later): value j's
     * byte 5 j / 8 (and the next one where its 5 bits cross into it) go to word j; a multiply by
     * 2^(11 - s), s = 5 j mod 8, puts its top bit at bit 15, and a shift down by 11 leaves it. The
     * last group loads 6 bytes early and its indices are 6 higher. */
    const __m256i idx = _mm256_setr_epi8(0, -1, 0, 1, 1, -1, 1, 2, 2, 3, 3, -1, 3, 4, 4, -1,
                                         5, -1, 5, 6, 6, -1, 6, 7, 7, 8, 8, -1, 8, 9, 9, -1);
    const __m256i idx_last = _mm256_add_epi8(idx, _mm256_and_si256(
                                                      _mm256_cmpgt_epi8(idx, _mm256_set1_epi8(-1)),
                                                      _mm256_set1_epi8(6)));
    const __m256i mul = _mm256_setr_epi16(2048, 64, 512, 16, 128, 1024, 32, 256, 2048, 64, 512,
                                          16, 128, 1024, 32, 256);
    for (unsigned i = 0; i < MLKEM_N / 16; i++) {
      const int last = i == MLKEM_N / 16 - 1;
      const __m128i b = _mm_loadu_si128((const __m128i *)(in + 10 * i - (last ? 6 : 0)));
      __m256i v = _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(b), last ? idx_last : idx);
      v = _mm256_srli_epi16(_mm256_mullo_epi16(v, mul), 11);
      v = _mm256_mulhrs_epi16(_mm256_slli_epi16(v, 10), q);
      _mm256_store_si256((__m256i *)&r->c[16 * i], v);
    }
    return;
  }
  /* d == 4: 16 bytes make 32 values, the low nibble of each byte first. */
  const __m128i nib = _mm_set1_epi8(15);
  for (unsigned i = 0; i < MLKEM_N / 32; i++) {
    const __m128i b = _mm_loadu_si128((const __m128i *)(in + 16 * i));
    const __m128i lo = _mm_and_si128(b, nib), hi = _mm_and_si128(_mm_srli_epi16(b, 4), nib);
    const __m256i v0 = _mm256_cvtepu8_epi16(_mm_unpacklo_epi8(lo, hi));
    const __m256i v1 = _mm256_cvtepu8_epi16(_mm_unpackhi_epi8(lo, hi));
    _mm256_store_si256((__m256i *)&r->c[32 * i], _mm256_mulhrs_epi16(_mm256_slli_epi16(v0, 11), q));
    _mm256_store_si256((__m256i *)&r->c[32 * i + 16],
                       _mm256_mulhrs_epi16(_mm256_slli_epi16(v1, 11), q));
  }
}

/* ---- Compression (FIPS 203 section 4.2.1) ----------------------------------------------------
 * Compress_d(x) = round(2^d x / q) mod 2^d for x in [0, q), with 16-bit multiplies and no
 * division (KyberSlash came from a divide). Every form below gives mlkem_compress's value for
 * each of the q inputs (test_mlkem_diff runs all of them):
 *   - d = 1: the bit is 1 exactly for x in [833, 2496] (round(2x / q) = 1), two comparisons;
 *   - d = 4, 5: t = floor(x M / 2^16) with M = 630 2^(d-4), about x 2^(d+1) / q, then rounded
 *     halving (MULHRS by 2^14);
 *   - d = 10, 11: an estimate c0 = round(x 2^3 M / 2^15), M = 2^(20+d) / q rounded, within one of
 *     the answer, then corrected by the remainder rem = 2^(d+1) x + q - 2q c0 (in [-2q, 4q), so
 *     exact in 16 bits): c = c0 + [rem >= 2q] - [rem < 0]. */

/* compress16 returns Compress_d of the sixteen coefficients in x (d = 4, 5, 10 or 11). */
AVX2_FN __attribute__((always_inline)) static inline __m256i compress16(__m256i x, unsigned d) {
  const __m256i mask = _mm256_set1_epi16((int16_t)((1 << d) - 1));
  if (d <= 5) {
    const __m256i t = _mm256_mulhi_epu16(x, _mm256_set1_epi16((int16_t)(630 << (d - 4))));
    return _mm256_and_si256(_mm256_mulhrs_epi16(t, _mm256_set1_epi16(1 << 14)), mask);
  }
  const __m256i q = _mm256_set1_epi16(MLKEM_Q), q2 = _mm256_set1_epi16(2 * MLKEM_Q);
  const int16_t m = d == 10 ? 1260 : 2520;
  __m256i c = _mm256_mulhrs_epi16(_mm256_slli_epi16(x, 3), _mm256_set1_epi16(m));
  const __m256i rem = _mm256_sub_epi16(
      _mm256_add_epi16(_mm256_sll_epi16(x, _mm_cvtsi32_si128((int)d + 1)), q),
      _mm256_mullo_epi16(c, q2));
  c = _mm256_sub_epi16(c, _mm256_cmpgt_epi16(rem, _mm256_set1_epi16(2 * MLKEM_Q - 1)));
  c = _mm256_add_epi16(c, _mm256_cmpgt_epi16(_mm256_setzero_si256(), rem));
  return _mm256_and_si256(c, mask);
}

/* pack16 is ByteEncode_d of the sixteen d-bit values in v: each 128-bit half ends with its eight
 * values' d bytes at its start. Pairs are joined in 32-bit words (v0 + 2^d v1), pairs of words in
 * 64-bit words (shifting the upper word down to bit 2d), and the two 4d-bit words of each half by
 * a byte shuffle of the upper one, after a shift left by s = (8 - 4d mod 8) mod 8 bits that
 * byte-aligns it: its bytes move down by (64 + s - 4d) / 8. */
AVX2_FN __attribute__((always_inline)) static inline __m256i pack16(__m256i v, unsigned d) {
  const __m256i lo32 = _mm256_set1_epi64x(0xffffffff);
  const __m256i a = _mm256_madd_epi16(v, _mm256_set1_epi32((int32_t)((1u << d) << 16 | 1u)));
  const __m256i b = _mm256_or_si256(
      _mm256_and_si256(a, lo32),
      _mm256_srl_epi64(_mm256_andnot_si256(lo32, a), _mm_cvtsi32_si128(32 - 2 * (int)d)));
  /* The upper 64-bit word of each half: shifted left by s, then its bytes moved down so that
   * its value starts at bit 4d of the half. */
  const unsigned s = (8 - (4 * d) % 8) % 8, from = (64 + s - 4 * d) / 8;
  const __m256i up = _mm256_sll_epi64(_mm256_andnot_si256(_mm256_set_epi64x(0, -1, 0, -1), b),
                                      _mm_cvtsi32_si128((int)s));
  uint8_t idx[16];
  for (unsigned i = 0; i < 16; i++) idx[i] = i + from < 16 ? (uint8_t)(i + from) : 0x80;
  const __m256i sh = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)idx));
  return _mm256_or_si256(_mm256_and_si256(b, _mm256_set_epi64x(0, -1, 0, -1)),
                         _mm256_shuffle_epi8(up, sh));
}

/* compress_d is ByteEncode_d(Compress_d(a)) of a normalized polynomial, inlined for each d so
 * that every shift count and shuffle is a constant. Each sixteen coefficients give 2d bytes,
 * stored as two 16-byte writes of which the next group's overwrite the excess; the last two
 * groups (whose excess would pass the end for d <= 5) go through a buffer. */
AVX2_FN __attribute__((always_inline)) static inline void compress_d(uint8_t *out,
                                                                     const mlkem_poly *a,
                                                                     unsigned d) {
  _Alignas(32) uint8_t last[32];
  for (unsigned i = 0; i < MLKEM_N / 16; i++) {
    const __m256i x = _mm256_load_si256((const __m256i *)&a->c[16 * i]);
    const __m256i p = pack16(compress16(x, d), d);
    if (i + 2 < MLKEM_N / 16) {
      _mm_storeu_si128((__m128i *)(out + 2 * d * i), _mm256_castsi256_si128(p));
      _mm_storeu_si128((__m128i *)(out + 2 * d * i + d), _mm256_extracti128_si256(p, 1));
    } else {
      _mm256_store_si256((__m256i *)last, p);
      memcpy(out + 2 * d * i, last, d);
      memcpy(out + 2 * d * i + d, last + 16, d);
    }
  }
  fm_zeroize(last, sizeof last);
}

/* mlkem_poly_compress_avx2 takes d = 4, 5, 10 or 11. */
AVX2_FN void mlkem_poly_compress_avx2(uint8_t *out, const mlkem_poly *a, unsigned d) {
  switch (d) {
    case 4: compress_d(out, a, 4); break;
    case 5: compress_d(out, a, 5); break;
    case 10: compress_d(out, a, 10); break;
    default: compress_d(out, a, 11); break;
  }
}

/* mlkem_poly_tomsg_avx2 is ByteEncode_1(Compress_1(a)): sign masks of the two comparisons, packed
 * to bytes in coefficient order and gathered by MOVMSKB, 32 bits a step. */
AVX2_FN void mlkem_poly_tomsg_avx2(uint8_t m[MLKEM_SYM_BYTES], const mlkem_poly *a) {
  const __m256i lo = _mm256_set1_epi16(832), hi = _mm256_set1_epi16(2497);
  for (unsigned i = 0; i < MLKEM_N / 32; i++) {
    const __m256i x0 = _mm256_load_si256((const __m256i *)&a->c[32 * i]);
    const __m256i x1 = _mm256_load_si256((const __m256i *)&a->c[32 * i + 16]);
    const __m256i b0 = _mm256_and_si256(_mm256_cmpgt_epi16(x0, lo), _mm256_cmpgt_epi16(hi, x0));
    const __m256i b1 = _mm256_and_si256(_mm256_cmpgt_epi16(x1, lo), _mm256_cmpgt_epi16(hi, x1));
    const __m256i bytes = _mm256_permute4x64_epi64(_mm256_packs_epi16(b0, b1), 0xd8);
    const uint32_t bits = (uint32_t)_mm256_movemask_epi8(bytes);
    for (unsigned j = 0; j < 4; j++) m[4 * i + j] = (uint8_t)(bits >> (8 * j));
  }
}

/* mlkem_poly_frommsg_avx2 is Decompress_1(ByteDecode_1(m)): sixteen bits of m broadcast to every
 * lane, each lane's bit tested by a mask, and 1665 kept where it is set. */
AVX2_FN void mlkem_poly_frommsg_avx2(mlkem_poly *r, const uint8_t m[MLKEM_SYM_BYTES]) {
  const __m256i bit = _mm256_setr_epi16(1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096,
                                        8192, 16384, -32768);
  const __m256i half = _mm256_set1_epi16((MLKEM_Q + 1) / 2);
  for (unsigned i = 0; i < MLKEM_N / 16; i++) {
    const __m256i w = _mm256_set1_epi16((int16_t)(m[2 * i] | (m[2 * i + 1] << 8)));
    const __m256i set = _mm256_cmpeq_epi16(_mm256_and_si256(w, bit), bit);
    _mm256_store_si256((__m256i *)&r->c[16 * i], _mm256_and_si256(set, half));
  }
}
#endif
