/* The arithmetic of R_q and T_q for ML-KEM (FIPS 203 section 4.3): Montgomery and Barrett
 * reduction, the NTT and its inverse, the base multiplication, compression, byte encoding and the
 * centred binomial sampler. The portable C forms here are the reference for the AVX2 kernels
 * (mlkem_avx2.c) and are constant time themselves: every coefficient goes through the same
 * instructions whatever its value, and no reduction divides (q is a constant; every quotient is a
 * multiplication and a shift). */
#include <assert.h>
#include <string.h>

#include "module/internal.h"
#include "module/mlkem/internal.h"
#include "module/mlkem/poly.h"

/* ---- Modular reduction ----------------------------------------------------------------------
 * Coefficients are int16_t. Montgomery form uses R = 2^16. */

/* q^-1 mod 2^16, as a signed 16-bit value. */
#define MLKEM_QINV (-3327)
static_assert((int32_t)MLKEM_Q * MLKEM_QINV % 65536 == 1 - 65536 ||
                  (int32_t)MLKEM_Q * MLKEM_QINV % 65536 == 1,
              "QINV is q^-1 mod 2^16");

/* montgomery_reduce returns a value congruent to a * 2^-16 mod q, of absolute value below q for
 * |a| < 2^15 q. */
static inline int16_t montgomery_reduce(int32_t a) {
  const int16_t t = (int16_t)((uint32_t)a * (uint32_t)(int32_t)MLKEM_QINV);
  return (int16_t)((a - (int32_t)t * MLKEM_Q) >> 16);
}

/* fqmul returns a * b * 2^-16 mod q, |result| < q for |a b| < 2^15 q. */
static inline int16_t fqmul(int16_t a, int16_t b) { return montgomery_reduce((int32_t)a * b); }

/* barrett_reduce returns the representative of a mod q in [-(q-1)/2, (q-1)/2]: the quotient is
 * round(a * (2^26 / q)) / 2^26, a multiplication and a shift. */
int16_t mlkem_barrett_reduce(int16_t a) {
  const int32_t v = ((1 << 26) + MLKEM_Q / 2) / MLKEM_Q;
  const int16_t t = (int16_t)((v * a + (1 << 25)) >> 26);
  return (int16_t)(a - t * MLKEM_Q);
}

/* caddq maps a in (-q, q) to [0, q): adds q where a is negative, the sign bit spread as a mask. */
static inline int16_t caddq(int16_t a) {
  return (int16_t)(a + ((a >> 15) & MLKEM_Q));
}

/* The powers zeta^BitRev7(i) of zeta = 17 (FIPS 203 Appendix A), times 2^16 mod q (Montgomery
 * form), as centred representatives; mlkem_zetas[0] is unused by the NTT layers. */
const int16_t mlkem_zetas[128] = {
    -1044, -758,  -359,  -1517, 1493,  1422,  287,   202,  -171,  622,   1577,  182,   962,
    -1202, -1474, 1468,  573,   -1325, 264,   383,   -829, 1458,  -1602, -130,  -681,  1017,
    732,   608,   -1542, 411,   -205,  -1571, 1223,  652,  -552,  1015,  -1293, 1491,  -282,
    -1544, 516,   -8,    -320,  -666,  -1618, -1162, 126,  1469,  -853,  -90,   -271,  830,
    107,   -1421, -247,  -951,  -398,  961,   -1508, -725, 448,   -1065, 677,   -1275, -1103,
    430,   555,   843,   -1251, 871,   1550,  105,   422,  587,   177,   -235,  -291,  -460,
    1574,  1653,  -246,  778,   1159,  -147,  -777,  1483, -602,  1119,  -1590, 644,   -872,
    349,   418,   329,   -156,  -75,   817,   1097,  603,  610,   1322,  -1285, -1465, 384,
    -1215, -136,  1218,  -1335, -874,  220,   -1187, -1659, -1185, -1530, -1278, 794,  -1510,
    -854,  -870,  478,   -108,  -308,  996,   991,   958,  -1460, 1522,  1628};

/* ---- NTT (FIPS 203 Algorithms 9, 10, 11, 12) ------------------------------------------------ */

void mlkem_ntt_portable(mlkem_poly *a) {
  int16_t *r = a->c;
  unsigned k = 1;
  /* Algorithm 9, steps 2-13: Cooley-Tukey butterflies, len = 128 .. 2. The twiddle factors carry
   * 2^16, which fqmul takes out, so the output has no Montgomery factor. */
  for (unsigned len = 128; len >= 2; len >>= 1) {
    for (unsigned start = 0; start < MLKEM_N; start += 2 * len) {
      const int16_t zeta = mlkem_zetas[k++];
      for (unsigned j = start; j < start + len; j++) {
        const int16_t t = fqmul(zeta, r[j + len]);
        r[j + len] = (int16_t)(r[j] - t);
        r[j] = (int16_t)(r[j] + t);
      }
    }
  }
  /* Each layer adds at most q to the bound: |r| < 8q here, then reduced. */
  for (unsigned i = 0; i < MLKEM_N; i++) r[i] = mlkem_barrett_reduce(r[i]);
}

void mlkem_invntt_portable(mlkem_poly *a) {
  int16_t *r = a->c;
  /* 2^32 / 128 mod q: the 1/128 of Algorithm 10, step 14, and the Montgomery factor 2^16 that
   * the base multiplication took out (fqmul takes one 2^16 off). */
  const int16_t f = 1441;
  unsigned k = 127;
  /* Algorithm 10, steps 2-13: Gentleman-Sande butterflies, len = 2 .. 128, with the sums
   * Barrett-reduced so that they stay below q. */
  for (unsigned len = 2; len <= 128; len <<= 1) {
    for (unsigned start = 0; start < MLKEM_N; start += 2 * len) {
      const int16_t zeta = mlkem_zetas[k--];
      for (unsigned j = start; j < start + len; j++) {
        const int16_t t = r[j];
        r[j] = mlkem_barrett_reduce((int16_t)(t + r[j + len]));
        r[j + len] = fqmul(zeta, (int16_t)(r[j + len] - t));
      }
    }
  }
  for (unsigned i = 0; i < MLKEM_N; i++) r[i] = fqmul(r[i], f);
}

/* basemul: the product of a0 + a1 X and b0 + b1 X mod X^2 - zeta (Algorithm 12), times 2^-16. */
static inline void basemul(int16_t r[2], const int16_t a[2], const int16_t b[2], int16_t zeta) {
  r[0] = (int16_t)(fqmul(fqmul(a[1], b[1]), zeta) + fqmul(a[0], b[0]));
  r[1] = (int16_t)(fqmul(a[0], b[1]) + fqmul(a[1], b[0]));
}

void mlkem_basemul_acc_portable(mlkem_poly *r, const mlkem_poly *a, const mlkem_poly *b,
                                unsigned k) {
  /* Each product term is below 2q, so a sum of at most 4 stays below 8q < 2^15. */
  memset(r->c, 0, sizeof r->c);
  for (unsigned i = 0; i < k; i++) {
    for (unsigned j = 0; j < MLKEM_N / 4; j++) {
      const int16_t zeta = mlkem_zetas[64 + j];
      int16_t t[2];
      basemul(t, &a[i].c[4 * j], &b[i].c[4 * j], zeta);
      r->c[4 * j] = (int16_t)(r->c[4 * j] + t[0]);
      r->c[4 * j + 1] = (int16_t)(r->c[4 * j + 1] + t[1]);
      basemul(t, &a[i].c[4 * j + 2], &b[i].c[4 * j + 2], (int16_t)-zeta);
      r->c[4 * j + 2] = (int16_t)(r->c[4 * j + 2] + t[0]);
      r->c[4 * j + 3] = (int16_t)(r->c[4 * j + 3] + t[1]);
    }
  }
  for (unsigned i = 0; i < MLKEM_N; i++) r->c[i] = mlkem_barrett_reduce(r->c[i]);
}

/* ---- Dispatch ---------------------------------------------------------------------------- */

static inline bool use_avx2(void) {
#if MLKEM_HAVE_AVX2
  return fm_cpu_use(FM_CPU_AVX2);
#else
  return false;
#endif
}

void mlkem_ntt(mlkem_poly *a) {
#if MLKEM_HAVE_AVX2
  if (use_avx2()) {
    mlkem_ntt_avx2(a);
    return;
  }
#endif
  mlkem_ntt_portable(a);
}

void mlkem_invntt(mlkem_poly *a) {
#if MLKEM_HAVE_AVX2
  if (use_avx2()) {
    mlkem_invntt_avx2(a);
    return;
  }
#endif
  mlkem_invntt_portable(a);
}

void mlkem_basemul_acc(mlkem_poly *r, const mlkem_poly *a, const mlkem_poly *b, unsigned k) {
#if MLKEM_HAVE_AVX2
  if (use_avx2()) {
    mlkem_basemul_acc_avx2(r, a, b, k);
    return;
  }
#endif
  mlkem_basemul_acc_portable(r, a, b, k);
}

void mlkem_rej_uniform(int16_t r[MLKEM_N], unsigned *n, const uint8_t *buf, size_t len) {
#if MLKEM_HAVE_AVX2
  if (use_avx2()) {
    mlkem_rej_uniform_avx2(r, n, buf, len);
    return;
  }
#endif
  mlkem_rej_uniform_portable(r, n, buf, len);
}

const char *mlkem_path_name(void) { return use_avx2() ? "avx2" : "portable"; }

/* ---- Element-wise operations ---------------------------------------------------------------- */

void mlkem_poly_add(mlkem_poly *r, const mlkem_poly *a) {
  for (unsigned i = 0; i < MLKEM_N; i++) r->c[i] = (int16_t)(r->c[i] + a->c[i]);
}

void mlkem_poly_sub(mlkem_poly *r, const mlkem_poly *a, const mlkem_poly *b) {
  for (unsigned i = 0; i < MLKEM_N; i++) r->c[i] = (int16_t)(a->c[i] - b->c[i]);
}

void mlkem_poly_normalize_portable(mlkem_poly *r) {
  for (unsigned i = 0; i < MLKEM_N; i++) r->c[i] = caddq(mlkem_barrett_reduce(r->c[i]));
}

void mlkem_poly_normalize(mlkem_poly *r) {
#if MLKEM_HAVE_AVX2
  if (use_avx2()) {
    mlkem_poly_normalize_avx2(r);
    return;
  }
#endif
  mlkem_poly_normalize_portable(r);
}

void mlkem_poly_tomont_portable(mlkem_poly *r) {
  const int16_t f = 1353; /* 2^32 mod q: fqmul by it multiplies by 2^16 */
  for (unsigned i = 0; i < MLKEM_N; i++) r->c[i] = fqmul(r->c[i], f);
}

void mlkem_poly_tomont(mlkem_poly *r) {
#if MLKEM_HAVE_AVX2
  if (use_avx2()) {
    mlkem_poly_tomont_avx2(r);
    return;
  }
#endif
  mlkem_poly_tomont_portable(r);
}

/* ---- Compression (FIPS 203 section 4.2.1) ----------------------------------------------------
 * Compress_d(x) = round(2^d x / q) mod 2^d = floor((2^(d+1) x + q) / 2q) mod 2^d. The division by
 * the constant 2q is a multiplication by ceil(2^48 / 2q) and a shift: the numerator is below
 * 2^25 and the multiplier's excess below 2^13, so the product's error stays below 2^38 < 2^48 and
 * the quotient is exact (test_mlkem_unit checks every x and d). This is the point where KyberSlash
 * leaked: a '/' here compiles to a divide whose time depends on x. */
#define COMPRESS_SHIFT 48
#define COMPRESS_MUL ((((uint64_t)1 << COMPRESS_SHIFT) + 2 * MLKEM_Q - 1) / (2 * MLKEM_Q))

uint16_t mlkem_compress(uint16_t x, unsigned d) {
  const uint64_t n = ((uint64_t)x << (d + 1)) + MLKEM_Q;
  return (uint16_t)(((n * COMPRESS_MUL) >> COMPRESS_SHIFT) & ((1u << d) - 1));
}

/* Decompress_d(y) = round(q y / 2^d), a shift of public width. */
uint16_t mlkem_decompress(uint16_t y, unsigned d) {
  return (uint16_t)(((uint32_t)y * MLKEM_Q + (1u << (d - 1))) >> d);
}

/* ---- Byte encoding (FIPS 203 Algorithms 5 and 6) ----------------------------------------------
 * ByteEncode_d packs 256 d-bit values, least significant bit first. Every value goes through the
 * same shifts; which bytes are written depends only on d. */

void mlkem_encode(uint8_t *out, const uint16_t v[MLKEM_N], unsigned d) {
  uint64_t acc = 0;
  unsigned bits = 0;
  size_t o = 0;
  for (unsigned i = 0; i < MLKEM_N; i++) {
    acc |= (uint64_t)v[i] << bits;
    bits += d;
    while (bits >= 8) {
      out[o++] = (uint8_t)acc;
      acc >>= 8;
      bits -= 8;
    }
  }
}

void mlkem_decode(uint16_t v[MLKEM_N], const uint8_t *in, unsigned d) {
  uint64_t acc = 0;
  unsigned bits = 0;
  size_t o = 0;
  const uint64_t mask = ((uint64_t)1 << d) - 1;
  for (unsigned i = 0; i < MLKEM_N; i++) {
    while (bits < d) {
      acc |= (uint64_t)in[o++] << bits;
      bits += 8;
    }
    v[i] = (uint16_t)(acc & mask);
    acc >>= d;
    bits -= d;
  }
}

/* mlkem_below_q_portable: every 12-bit value (two per three bytes) compared with q. The bytes
 * are public: a plain scan. */
int mlkem_below_q_portable(const uint8_t *in, size_t len) {
  uint32_t bad = 0;
  for (size_t i = 0; i + 3 <= len; i += 3) {
    const uint32_t t0 = in[i] | ((uint32_t)(in[i + 1] & 0xf) << 8);
    const uint32_t t1 = (in[i + 1] >> 4) | ((uint32_t)in[i + 2] << 4);
    bad |= (uint32_t)(t0 >= MLKEM_Q) | (uint32_t)(t1 >= MLKEM_Q);
  }
  return bad == 0;
}

int mlkem_below_q(const uint8_t *in, size_t len) {
#if MLKEM_HAVE_AVX2
  if (use_avx2()) return mlkem_below_q_avx2(in, len);
#endif
  return mlkem_below_q_portable(in, len);
}

void mlkem_poly_tobytes(uint8_t out[MLKEM_POLY_BYTES], const mlkem_poly *a) {
#if MLKEM_HAVE_AVX2
  if (use_avx2()) {
    mlkem_poly_tobytes_avx2(out, a);
    return;
  }
#endif
  mlkem_poly_tobytes_portable(out, a);
}

/* ByteEncode_12 of a normalized polynomial (coefficients in [0, q)). */
void mlkem_poly_tobytes_portable(uint8_t out[MLKEM_POLY_BYTES], const mlkem_poly *a) {
  for (unsigned i = 0; i < MLKEM_N / 2; i++) {
    const uint16_t t0 = (uint16_t)a->c[2 * i], t1 = (uint16_t)a->c[2 * i + 1];
    out[3 * i] = (uint8_t)t0;
    out[3 * i + 1] = (uint8_t)((t0 >> 8) | (t1 << 4));
    out[3 * i + 2] = (uint8_t)(t1 >> 4);
  }
}

/* ByteDecode_12 (Algorithm 6 with m = q): each 12-bit value is reduced mod q by one conditional
 * subtraction done with a mask, so a secret s-hat costs the same whatever its values. */
void mlkem_poly_frombytes_portable(mlkem_poly *r, const uint8_t in[MLKEM_POLY_BYTES]) {
  for (unsigned i = 0; i < MLKEM_N / 2; i++) {
    const int16_t t0 = (int16_t)((in[3 * i] | ((uint16_t)in[3 * i + 1] << 8)) & 0xfff);
    const int16_t t1 = (int16_t)(((in[3 * i + 1] >> 4) | ((uint16_t)in[3 * i + 2] << 4)) & 0xfff);
    r->c[2 * i] = caddq((int16_t)(t0 - MLKEM_Q));
    r->c[2 * i + 1] = caddq((int16_t)(t1 - MLKEM_Q));
  }
}

/* mlkem_poly_compress_portable is ByteEncode_d(Compress_d(a)) of a normalized polynomial: one
 * loop for every d, each value shifted into a 64-bit accumulator that gives up whole bytes (at
 * most 7 bits wait in it, so d <= 11 fits). Which bytes are written depends on d alone. The loop
 * is kept compact (the module's image is hashed at every load): the AVX2 form is the fast one. */
void mlkem_poly_compress_portable(uint8_t *out, const mlkem_poly *a, unsigned d) {
  uint64_t acc = 0;
  unsigned bits = 0;
  for (unsigned i = 0; i < MLKEM_N; i++) {
    acc |= (uint64_t)mlkem_compress((uint16_t)a->c[i], d) << bits;
    bits += d;
    for (; bits >= 8; bits -= 8, acc >>= 8) *out++ = (uint8_t)acc;
  }
}

/* mlkem_poly_compress writes ByteEncode_d(Compress_d(a)) of a normalized polynomial. The AVX2
 * form takes d = 4, 5, 10 and 11 (every du and dv). */
void mlkem_poly_compress(uint8_t *out, const mlkem_poly *a, unsigned d) {
#if MLKEM_HAVE_AVX2
  if (use_avx2() && (d == 4 || d == 5 || d == 10 || d == 11)) {
    mlkem_poly_compress_avx2(out, a, d);
    return;
  }
#endif
  mlkem_poly_compress_portable(out, a, d);
}

void mlkem_poly_frombytes(mlkem_poly *r, const uint8_t in[MLKEM_POLY_BYTES]) {
#if MLKEM_HAVE_AVX2
  if (use_avx2()) {
    mlkem_poly_frombytes_avx2(r, in);
    return;
  }
#endif
  mlkem_poly_frombytes_portable(r, in);
}

/* mlkem_poly_decompress reads Decompress_d(ByteDecode_d(in)): coefficients in [0, q). The AVX2
 * form takes d = 4, 5, 10 and 11 (every du and dv). */
void mlkem_poly_decompress(mlkem_poly *r, const uint8_t *in, unsigned d) {
#if MLKEM_HAVE_AVX2
  if (use_avx2() && (d == 4 || d == 5 || d == 10 || d == 11)) {
    mlkem_poly_decompress_avx2(r, in, d);
    return;
  }
#endif
  mlkem_poly_decompress_portable(r, in, d);
}

void mlkem_poly_decompress_portable(mlkem_poly *r, const uint8_t *in, unsigned d) {
  uint16_t v[MLKEM_N];
  mlkem_decode(v, in, d);
  for (unsigned i = 0; i < MLKEM_N; i++) r->c[i] = (int16_t)mlkem_decompress(v[i], d);
  fm_zeroize(v, sizeof v);
}

/* mlkem_poly_frommsg_portable: Decompress_1(ByteDecode_1(m)), 0 or round(q/2) = 1665 per bit,
 * selected by a mask. */
void mlkem_poly_frommsg_portable(mlkem_poly *r, const uint8_t m[MLKEM_SYM_BYTES]) {
  for (unsigned i = 0; i < MLKEM_N; i++) {
    const int16_t bit = (int16_t)((m[i / 8] >> (i % 8)) & 1);
    r->c[i] = (int16_t)(-bit & ((MLKEM_Q + 1) / 2));
  }
}

/* mlkem_poly_tomsg_portable: ByteEncode_1(Compress_1(a)) of a normalized polynomial. */
void mlkem_poly_tomsg_portable(uint8_t m[MLKEM_SYM_BYTES], const mlkem_poly *a) {
  memset(m, 0, MLKEM_SYM_BYTES);
  for (unsigned i = 0; i < MLKEM_N; i++) {
    m[i / 8] = (uint8_t)(m[i / 8] | (mlkem_compress((uint16_t)a->c[i], 1) << (i % 8)));
  }
}

void mlkem_poly_frommsg(mlkem_poly *r, const uint8_t m[MLKEM_SYM_BYTES]) {
#if MLKEM_HAVE_AVX2
  if (use_avx2()) {
    mlkem_poly_frommsg_avx2(r, m);
    return;
  }
#endif
  mlkem_poly_frommsg_portable(r, m);
}

void mlkem_poly_tomsg(uint8_t m[MLKEM_SYM_BYTES], const mlkem_poly *a) {
#if MLKEM_HAVE_AVX2
  if (use_avx2()) {
    mlkem_poly_tomsg_avx2(m, a);
    return;
  }
#endif
  mlkem_poly_tomsg_portable(m, a);
}

/* ---- Centred binomial distribution (FIPS 203 Algorithm 8) ------------------------------------
 * Each coefficient is the difference of two sums of eta bits, counted with masks and shifts
 * (no table, no branch). */

static uint32_t load24_le(const uint8_t *x) {
  return (uint32_t)x[0] | ((uint32_t)x[1] << 8) | ((uint32_t)x[2] << 16);
}
static uint32_t load32_le(const uint8_t *x) {
  return load24_le(x) | ((uint32_t)x[3] << 24);
}

void mlkem_poly_cbd(mlkem_poly *r, const uint8_t *buf, unsigned eta) {
#if MLKEM_HAVE_AVX2
  if (use_avx2()) {
    if (eta == 2) mlkem_poly_cbd2_avx2(r, buf);
    else mlkem_poly_cbd3_avx2(r, buf);
    return;
  }
#endif
  mlkem_poly_cbd_portable(r, buf, eta);
}

void mlkem_poly_cbd_portable(mlkem_poly *r, const uint8_t *buf, unsigned eta) {
  if (eta == 2) {
    for (unsigned i = 0; i < MLKEM_N / 8; i++) {
      const uint32_t t = load32_le(buf + 4 * i);
      /* Pairs of bits summed in place: each 2-bit field holds x_j + x_{j+1}. */
      const uint32_t d = (t & 0x55555555u) + ((t >> 1) & 0x55555555u);
      for (unsigned j = 0; j < 8; j++) {
        const int16_t a = (int16_t)((d >> (4 * j)) & 3);
        const int16_t b = (int16_t)((d >> (4 * j + 2)) & 3);
        r->c[8 * i + j] = (int16_t)(a - b);
      }
    }
  } else { /* eta == 3 */
    for (unsigned i = 0; i < MLKEM_N / 4; i++) {
      const uint32_t t = load24_le(buf + 3 * i);
      /* Triples of bits summed in place: each 3-bit field holds the sum of its three bits. */
      const uint32_t d = (t & 0x00249249u) + ((t >> 1) & 0x00249249u) + ((t >> 2) & 0x00249249u);
      for (unsigned j = 0; j < 4; j++) {
        const int16_t a = (int16_t)((d >> (6 * j)) & 7);
        const int16_t b = (int16_t)((d >> (6 * j + 3)) & 7);
        r->c[4 * i + j] = (int16_t)(a - b);
      }
    }
  }
}

/* ---- Rejection sampling (FIPS 203 Algorithm 7, steps 5-14) ------------------------------------ */

void mlkem_rej_uniform_portable(int16_t r[MLKEM_N], unsigned *n, const uint8_t *buf, size_t len) {
  /* Every candidate is written and the count advances by the comparison's result: no branch
   * per candidate (a fifth are rejected, at random, which a branch predictor cannot follow).
   * The buffer has room for the two candidates the last step may write past 256; values past
   * 256 are dropped, as Algorithm 7 stops there. rho is public, so this is about speed only. */
  int16_t tmp[MLKEM_N + 2];
  const unsigned start = *n;
  unsigned ctr = start;
  for (size_t pos = 0; pos + 3 <= len && ctr < MLKEM_N; pos += 3) {
    const uint16_t d1 = (uint16_t)((buf[pos] | ((uint16_t)buf[pos + 1] << 8)) & 0xfff);
    const uint16_t d2 = (uint16_t)((buf[pos + 1] >> 4) | ((uint16_t)buf[pos + 2] << 4));
    tmp[ctr] = (int16_t)d1;
    ctr += d1 < MLKEM_Q;
    tmp[ctr] = (int16_t)d2;
    ctr += d2 < MLKEM_Q;
  }
  if (ctr > MLKEM_N) ctr = MLKEM_N;
  memcpy(&r[start], &tmp[start], (ctr - start) * sizeof r[0]);
  *n = ctr;
}
