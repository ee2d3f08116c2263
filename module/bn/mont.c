/* Montgomery contexts, multiplication, reduction and exponentiation.
 *
 * R = 2^(64n) for an n-limb odd modulus N. Values in Montgomery form are x*R mod N. Everything
 * here on a secret N, base or exponent runs in time that depends only on n and the exponent's
 * limb count; bn_mod_exp_public is the one function whose time follows a (public) exponent. */
#include <string.h>

#include "module/bn/internal.h"
#include "module/bn/mont_kernels.h"
#include "module/internal.h"

/* The exponentiation window: 5 bits (32 table entries) up to 128 limbs, 4 bits (16 entries)
 * above, so that the table never takes more than 32 KiB of stack. */
#define BN_EXP_TABLE_LIMBS (32 * 128)
static_assert(BN_EXP_TABLE_LIMBS >= 16 * BN_MAX_LIMBS, "the 4-bit window table fits");
static_assert(BN_EXP_TABLE_LIMBS * sizeof(uint64_t) <= 32 * 1024, "table stays within 32 KiB");

/* ---- Kernel dispatch -------------------------------------------------------------------- */

static inline bool use_mulx(void) { return fm_cpu_use(FM_CPU_BMI2); }

void bn_mont_mul(uint64_t *r, const uint64_t *a, const uint64_t *b, const bn_mont_ctx *ctx) {
  if (use_mulx()) {
    bn_mont_mul_mulx(r, a, b, ctx->N, ctx->n0, ctx->n);
  } else {
    bn_kernel_mont_mul(r, a, b, ctx->N, ctx->n0, ctx->n);
  }
}

void bn_mont_sqr(uint64_t *r, const uint64_t *a, const bn_mont_ctx *ctx) {
  if (use_mulx()) {
    bn_mont_sqr_mulx(r, a, ctx->N, ctx->n0, ctx->n);
  } else {
    bn_kernel_mont_sqr(r, a, ctx->N, ctx->n0, ctx->n);
  }
}

const char *bn_path_name(void) {
  if (!use_mulx()) return "portable";
  return bn_ifma_available() ? "mulx+ifma" : "mulx";
}

/* ---- Contexts --------------------------------------------------------------------------- */

/* neg_inv64: -N0^-1 mod 2^64 for odd N0. Newton's iteration x <- x(2 - N0 x) doubles the
 * number of correct low bits, and x = N0 is right to 3 bits (odd squares are 1 mod 8), so five
 * steps give 96 >= 64 bits. No branch, no division. */
static uint64_t neg_inv64(uint64_t n0) {
  uint64_t x = n0;
  for (int i = 0; i < 5; i++) x *= 2 - n0 * x;
  return 0u - x;
}

/* ctx_check: the public preconditions. N's parity, its top limb being non-zero and N != 1 are
 * facts the caller states about the width, so the answer may be acted on. */
static int ctx_check(const uint64_t *N, size_t n) {
  if (N == NULL || n == 0 || n > BN_MAX_LIMBS) return FM_ERR_BAD_ARGUMENT;
  uint64_t bad = ~(0u - (N[0] & 1)) | ct_is_zero_u64(N[n - 1]);
  if (n == 1) bad |= ct_eq_u64(N[0], 1);
  return fm_declassify_u64(bad) != 0 ? FM_ERR_BAD_ARGUMENT : FM_OK;
}

/* ---- R^2 mod N for a secret N, without division ---------------------------------------
 *
 * With R = 2^(64n), k Montgomery squarings turn 2^t mod N into 2^(2^k t - (2^k - 1) 64n) mod N,
 * which is R^2 = 2^(128n) for t = 64n + 64n / 2^k (k <= 6 keeps t whole). With k = 6 that is
 * the classic recipe: the Montgomery form 2^n * R of 2^n, squared six times. So R^2 mod N comes
 * from x = 2^(64(n-1)) (below N: N's top limb is non-zero and N is odd, N >= 3 when n == 1)
 * shifted left to 2^t modulo N, then k squarings. The shifts below cost about as much as 6n
 * multiplications per 61 bits, which makes few squarings and more shifting the cheaper mix:
 * rr_squarings picks k per width (1 or 2 in practice), and with AVX-512 IFMA from 1536 bits up
 * two squarings in radix 2^52 finish the job (rr_ifma).
 *
 * The shifts go up to 61 bits at a time. x * 2^s mod N needs the quotient
 * q = floor(x * 2^s / N), and that is estimated from the top two words of the normalized
 * dividend and the top word d of the normalized modulus (N shifted left until its top bit is
 * set) by a 2-by-1 word division with a precomputed reciprocal of d (Moller and Granlund,
 * "Improved division by invariant integers", 2011, algorithm 4): exact for the two words, hence
 * at most 2 above the true quotient (Knuth, TAOCP vol. 2, 4.3.1, theorem B). Taking 2 less keeps
 * the remainder in [0, 3N), which the next step accepts as input, so a step is one pass over n
 * limbs; two masked subtractions at the end reduce below N. The reciprocal comes from Newton's
 * iteration. Everything is constant time: the secret shift amount (N's leading zeros) only
 * feeds shift instructions, every choice is a mask, and no instruction divides. */

/* join_shift: the word (hi:lo) << s keeps, for a secret s in [0, 63]; (lo >> 1) >> (63 - s) is
 * lo >> (64 - s) made well defined for s == 0. */
static inline uint64_t join_shift(uint64_t hi, uint64_t lo, uint64_t s) {
  return (hi << s) | ((lo >> 1) >> (63 - s));
}

/* reciprocal_word: v = floor((2^128 - 1) / d) - 2^64 for d >= 2^63, without division.
 * Newton's iteration for 1/d, y <- y + y * (2^128 - d * y) / 2^128 on y ~ 2^128 / d, squares the
 * relative error; the start y = 2^64 * (48/17 - 32/17 * d / 2^64) is within 1/17, so four steps
 * leave only the truncation error of the fixed-point steps (a few units). The remainder
 * 2^128 - 1 - y * d then says exactly how far off y is, and masked steps of one fix it (four
 * each way; in tests on 2*10^7 values two each way always sufficed). The products are all taken modulo 2^128: the
 * quantities read back (the error e and the remainder) are known to be far below 2^127 in
 * magnitude, so their residues identify them. */
static uint64_t reciprocal_word(uint64_t d) {
  typedef __int128 i128;
  /* 48/17 * 2^64 and d / 17 (0x0F0F...0F is 2^64 / 17 rounded down). */
  const bn_u128 c48_17 = ((bn_u128)2 << 64) | 0xD2D2D2D2D2D2D2D2ull;
  bn_u128 y = c48_17 - 32 * (bn_u128)(uint64_t)(((bn_u128)d * 0x0F0F0F0F0F0F0F0Full) >> 64);
  for (int i = 0; i < 4; i++) {
    /* e = 2^128 - d * y, signed, |e| < 2^124. */
    i128 e = (i128)((bn_u128)0 - (bn_u128)d * y);
    /* y * e / 2^128 from y / 4 (< 2^63) and e / 2^62 (|.| < 2^62): the product fits. */
    i128 prod = (i128)(y >> 2) * (e >> 62);
    y = (bn_u128)((i128)y + (prod >> 64));
  }
  /* rem = 2^128 - 1 - y * d; the answer is the y that puts rem in [0, d). */
  i128 rem = (i128)(~(bn_u128)0 - (bn_u128)d * y);
  for (int i = 0; i < 4; i++) {
    uint64_t neg = ct_msb_mask_u64((uint64_t)((bn_u128)rem >> 64));
    y -= neg & 1;
    rem += (i128)(d & neg);
  }
  for (int i = 0; i < 4; i++) {
    i128 t = rem - (i128)d;
    uint64_t ge = ~ct_msb_mask_u64((uint64_t)((bn_u128)t >> 64));
    y += ge & 1;
    rem = (i128)ct_select_u64(ge, (uint64_t)t, (uint64_t)rem) |
          (i128)(((bn_u128)ct_select_u64(ge, (uint64_t)((bn_u128)t >> 64),
                                         (uint64_t)((bn_u128)rem >> 64))) << 64);
  }
  return (uint64_t)y; /* y - 2^64 */
}

/* div_2by1: floor((u1 * 2^64 + u0) / d) for normalized d, u1 < d, with v = reciprocal_word(d).
 * Moller-Granlund algorithm 4 with its two corrections made by masks. */
static uint64_t div_2by1(uint64_t u1, uint64_t u0, uint64_t d, uint64_t v) {
  bn_u128 q = (bn_u128)v * u1 + (((bn_u128)u1 << 64) | u0);
  uint64_t q1 = (uint64_t)(q >> 64) + 1, q0 = (uint64_t)q;
  uint64_t r = u0 - q1 * d;
  uint64_t over = ct_lt_u64(q0, r); /* r > q0: one too many */
  q1 -= over & 1;
  r += d & over;
  uint64_t under = ~ct_lt_u64(r, d); /* r >= d: one too few */
  q1 += under & 1;
  return q1;
}

/* normalize_top: N's count of leading zero bits lz (in [0, 63], secret), its normalized top
 * word d = top 64 bits of N << lz, and d's reciprocal v. */
static void normalize_top(const uint64_t *N, size_t n, uint64_t *lz_out, uint64_t *d_out,
                          uint64_t *v_out) {
  uint64_t top = N[n - 1], lz = 0;
  for (unsigned k = 32; k > 0; k >>= 1) {
    /* Binary search for the leading zeros with masks: shift when the top k bits are zero. */
    uint64_t zero = ct_is_zero_u64(top >> (64 - k));
    lz += k & zero;
    top = ct_select_u64(zero, top << k, top);
  }
  *lz_out = lz;
  *d_out = join_shift(N[n - 1], n >= 2 ? N[n - 2] : 0, lz);
  *v_out = reciprocal_word(*d_out);
}

/* shift_step: x = x * 2^s - q * N for a public s in [1, 61], where x is n + 1 limbs below 3N
 * on entry and on exit (so x is congruent to x * 2^s mod N, not reduced). q is the two-word
 * estimate q_hat (at most 2 above the true quotient) minus 2, clamped at 0: never above the
 * true quotient, so the result is not negative, and at most 2 below it, so the result stays
 * below 3N. That needs no correction pass: one pass over n limbs per step. lz is N's (secret)
 * count of leading zero bits, d and v the normalized top word and its reciprocal. */
static void shift_step(uint64_t *x, unsigned s, const uint64_t *N, size_t n, uint64_t lz,
                       uint64_t d, uint64_t v) {
  /* The top three words of y = x * 2^s (n + 1 limbs), then its top two normalized like N:
   * y * 2^lz < 3N * 2^(lz + 61) < 2^(64n + 63), so u1 < 2^63 <= d as div_2by1 needs. */
  uint64_t xn = x[n], xn1 = x[n - 1], xn2 = n >= 2 ? x[n - 2] : 0, xn3 = n >= 3 ? x[n - 3] : 0;
  uint64_t y_n = (xn << s) | (xn1 >> (64 - s));
  uint64_t y_n1 = (xn1 << s) | (xn2 >> (64 - s));
  uint64_t y_n2 = (xn2 << s) | (xn3 >> (64 - s));
  uint64_t q = div_2by1(join_shift(y_n, y_n1, lz), join_shift(y_n1, y_n2, lz), d, v);
  q = (q - 2) & ~ct_lt_u64(q, 2);

  /* x = y - q * N over n + 1 limbs. */
  uint64_t prev = 0, carry = 0, borrow = 0;
  for (size_t j = 0; j < n; j++) {
    uint64_t xj = x[j];
    uint64_t yj = (xj << s) | (prev >> (64 - s));
    prev = xj;
    bn_u128 p = (bn_u128)q * N[j] + carry;
    carry = (uint64_t)(p >> 64);
    bn_u128 t = (bn_u128)yj - (uint64_t)p - borrow;
    x[j] = (uint64_t)t;
    borrow = (uint64_t)(t >> 64) & 1;
  }
  x[n] = y_n - carry - borrow;
}

/* shift_mod_bits: x = x * 2^bits mod N (n limbs, x < N in and out) for any public bits: steps
 * of up to 61 bits on an (n + 1)-limb value below 3N, then two masked subtractions of N. */
static void shift_mod_bits(uint64_t *x, size_t bits, const uint64_t *N, size_t n, uint64_t lz,
                           uint64_t d, uint64_t v) {
  uint64_t w[BN_MAX_LIMBS + 1], t[BN_MAX_LIMBS];
  memcpy(w, x, n * sizeof(uint64_t));
  w[n] = 0;
  while (bits > 0) {
    unsigned s = bits > 61 ? 61 : (unsigned)bits;
    shift_step(w, s, N, n, lz, d, v);
    bits -= s;
  }
  for (int k = 0; k < 2; k++) {
    /* w - N when w >= N, over n + 1 limbs (N's top limb is zero). */
    uint64_t borrow = bn_sub(t, w, N, n);
    /* w < N exactly when the low limbs borrow and the top limb has nothing to lend. */
    uint64_t ge = ~((0u - ct_value_barrier_u64(borrow)) & ct_is_zero_u64(w[n]));
    uint64_t top = w[n] - borrow;
    bn_select(w, ge, t, w, n);
    w[n] = ct_select_u64(ge, top, w[n]);
  }
  memcpy(x, w, n * sizeof(uint64_t));
  fm_zeroize(w, (n + 1) * sizeof(uint64_t));
  fm_zeroize(t, n * sizeof(uint64_t));
}

/* ---- Radix 2^52 for the IFMA kernel ------------------------------------------------------
 * ifma_digits: L, the 52-bit digit count for n limbs, with R' = 2^(52L) > 4N. */
static inline size_t ifma_digits(size_t n) { return (64 * n + 2 + 51) / 52; }
static inline size_t ifma_lanes(size_t n) { return 8 * ((ifma_digits(n) + 7) / 8); }

/* Which widths take the IFMA paths (n in limbs; each also needs the CPU, bn_ifma_available).
 * Public: they depend on n only. The kernel holds up to BN_IFMA_MAX_LIMBS limbs.
 * ifma_exp_capable: the radix-2^52 exponentiations, from 16 limbs (1024 bits), where one IFMA
 *   multiplication costs enough less than a 64-bit one to pay for the conversions in and out.
 * ifma_rr_capable: R^2 mod N by two radix-2^52 squarings (rr_ifma), from 24 limbs (1536 bits);
 *   below, rr_squarings' 64-bit mix is cheaper.
 * ifma_exp_x2_capable: two exponentiations interleaved (mod_exp_ifma_x2), for widths whose
 *   digits fit the BN_X2_LANES lanes of its tables (16 to 24 limbs, 1024 to 1536 bits). */
#define BN_X2_LANES 32
static inline bool ifma_exp_capable(size_t n) {
  return n >= 16 && n <= BN_IFMA_MAX_LIMBS && bn_ifma_available();
}
static inline bool ifma_rr_capable(size_t n) {
  return n >= 24 && n <= BN_IFMA_MAX_LIMBS && bn_ifma_available();
}
static inline bool ifma_exp_x2_capable(size_t n) {
  return n >= 16 && ifma_lanes(n) <= BN_X2_LANES && bn_ifma_available();
}

/* to52: the n-limb a as `lanes` 52-bit digits (bit positions are public). */
static void to52(uint64_t *out, size_t lanes, const uint64_t *a, size_t n) {
  for (size_t j = 0; j < lanes; j++) {
    size_t bit = 52 * j, limb = bit / 64, off = bit % 64;
    uint64_t w = 0;
    if (limb < n) {
      w = a[limb] >> off;
      if (off > 12 && limb + 1 < n) w |= a[limb + 1] << (64 - off);
    }
    out[j] = w & BN_IFMA_DIGIT_MASK;
  }
}

/* from52: n limbs from L normalized 52-bit digits (bits above 64n are dropped: callers pass
 * n + 1 when the value may reach 2^(64n)). */
static void from52(uint64_t *out, size_t n, const uint64_t *in, size_t L) {
  bn_u128 acc = 0;
  unsigned have = 0;
  size_t k = 0;
  for (size_t j = 0; j < L; j++) {
    acc |= (bn_u128)in[j] << have;
    have += 52;
    if (have >= 64) {
      if (k < n) out[k] = (uint64_t)acc;
      k++;
      acc >>= 64;
      have -= 64;
    }
  }
  for (; k < n; k++) {
    out[k] = (uint64_t)acc;
    acc >>= 64;
  }
}

/* from52_reduced: r = the value of the 52-bit digits mod N, for a value below 2N (one masked
 * subtraction; the value may need n + 1 limbs). */
static void from52_reduced(uint64_t *r, const uint64_t *in, size_t lanes, const uint64_t *N,
                           size_t n) {
  uint64_t t[BN_MAX_LIMBS + 1];
  from52(t, n + 1, in, lanes);
  bn_kernel_final_sub(r, t, t[n], N, n);
  fm_zeroize(t, (n + 1) * sizeof(uint64_t));
}

/* rr_ifma: R^2 mod N with two IFMA squarings. In radix 2^52 with R' = 2^(52L), two almost-
 * Montgomery squarings turn 2^t into 2^(4t - 3 * 52L); t = 32n + 39L gives 2^(128n) = R^2.
 * x = 2^(64(n-1)) is shifted up to 2^t mod N first. */
static void rr_ifma(uint64_t *rr, const uint64_t *N, uint64_t n0, size_t n, uint64_t lz,
                    uint64_t d, uint64_t v) {
  const size_t L = ifma_digits(n), lanes = ifma_lanes(n);
  uint64_t x[BN_MAX_LIMBS], x52[8 * BN_IFMA_MAX_V], N52[8 * BN_IFMA_MAX_V];
  bn_set_zero(x, n);
  x[n - 1] = 1;
  shift_mod_bits(x, 32 * n + 39 * L - 64 * (n - 1), N, n, lz, d, v);
  to52(x52, lanes, x, n);
  to52(N52, lanes, N, n);
  const uint64_t k0 = n0 & BN_IFMA_DIGIT_MASK;
  bn_ifma_amm(x52, x52, x52, N52, k0, L);
  bn_ifma_amm(x52, x52, x52, N52, k0, L);
  from52_reduced(rr, x52, lanes, N, n);
  fm_zeroize(x, n * sizeof(uint64_t));
  fm_zeroize(x52, sizeof(x52));
  fm_zeroize(N52, sizeof(N52));
}

/* rr_squarings: how many Montgomery squarings finish R^2 mod N at n limbs. k squarings turn
 * 2^t mod N into 2^(2^k t - (2^k - 1) 64n) mod N, which is R^2 = 2^(128n) for
 * t = 64n + 64n / 2^k (k <= 6 keeps t whole for every n). Starting from 2^(64(n-1)), that is
 * 64 + 64n / 2^k bits of word shifts (61 bits per shift_step, measured at about the cost of 6n
 * multiplications) against k squarings (1.5n^2 multiplications each): the count minimizing
 * k * 1.5n^2 + shifts(k) * 6n. Public: depends on n only. */
static unsigned rr_squarings(size_t n) {
  unsigned best_k = 1;
  size_t best = SIZE_MAX;
  for (unsigned k = 1; k <= 6; k++) {
    size_t shifts = (64 + 64 * n / ((size_t)1 << k) + 60) / 61;
    size_t cost = k * 3 * n * n / 2 + shifts * 6 * n;
    if (cost < best) {
      best = cost;
      best_k = k;
    }
  }
  return best_k;
}

int bn_mont_ctx_init_secret(bn_mont_ctx *ctx, const uint64_t *N, size_t n) {
  int status = ctx_check(N, n);
  if (status != FM_OK) {
    bn_mont_ctx_wipe(ctx);
    return status;
  }
  ctx->n = n;
  memcpy(ctx->N, N, n * sizeof(uint64_t));
  ctx->n0 = neg_inv64(N[0]);

  uint64_t lz, d, v;
  normalize_top(N, n, &lz, &d, &v);

  if (ifma_rr_capable(n)) {
    rr_ifma(ctx->RR, ctx->N, ctx->n0, n, lz, d, v);
    return FM_OK;
  }
  /* x = 2^(64(n-1)) < N, shifted up to 2^t mod N with t = 64n + 64n / 2^k, then k squarings. */
  const unsigned k = rr_squarings(n);
  uint64_t x[BN_MAX_LIMBS];
  bn_set_zero(x, n);
  x[n - 1] = 1;
  shift_mod_bits(x, 64 + 64 * n / ((size_t)1 << k), ctx->N, n, lz, d, v);
  for (unsigned i = 0; i < k; i++) bn_mont_sqr(x, x, ctx);
  memcpy(ctx->RR, x, n * sizeof(uint64_t));
  fm_zeroize(x, n * sizeof(uint64_t));
  return FM_OK;
}

int bn_mont_ctx_init_public(bn_mont_ctx *ctx, const uint64_t *N, size_t n) {
  /* The doubling-and-squaring route is also the fastest for public moduli; division
   * (bn_div_consttime) would only be slower. */
  return bn_mont_ctx_init_secret(ctx, N, n);
}

void bn_mont_ctx_wipe(bn_mont_ctx *ctx) { fm_zeroize(ctx, sizeof(*ctx)); }

/* ---- Conversions and reduction ---------------------------------------------------------- */

void bn_to_mont(uint64_t *r, const uint64_t *a, const bn_mont_ctx *ctx) {
  bn_mont_mul(r, a, ctx->RR, ctx);
}

void bn_from_mont(uint64_t *r, const uint64_t *a, const bn_mont_ctx *ctx) {
  /* a * 1 * R^-1: with b = 1 the accumulator stays <= N for any a < R, so the kernel's single
   * subtraction fully reduces. */
  uint64_t one[BN_MAX_LIMBS];
  bn_set_word(one, ctx->n, 1);
  bn_mont_mul(r, a, one, ctx);
}

void bn_mont_one(uint64_t *r, const bn_mont_ctx *ctx) {
  /* R mod N = from_mont(R^2 mod N). */
  bn_from_mont(r, ctx->RR, ctx);
}

void bn_mod_reduce(uint64_t *r, const uint64_t *a, size_t a_limbs, const bn_mont_ctx *ctx) {
  const size_t n = ctx->n;
  if (n == 0) return; /* a context that failed to build: nothing to reduce into */
  uint64_t acc[BN_MAX_LIMBS], c[BN_MAX_LIMBS];
  /* Horner over n-limb chunks from the top: acc <- acc * R + c_k (mod N), done as
   * acc <- MontMul(acc + c_k * R^-1, R^2). c_k * R^-1 mod N comes from bn_from_mont, which takes
   * any c_k < R; nothing divides. */
  bn_set_zero(acc, n);
  size_t chunks = (a_limbs + n - 1) / n;
  for (size_t k = chunks; k > 0; k--) {
    size_t lo = (k - 1) * n, len = a_limbs - lo < n ? a_limbs - lo : n;
    bn_set_zero(c, n);
    memcpy(c, a + lo, len * sizeof(uint64_t));
    bn_from_mont(c, c, ctx);
    bn_mod_add(acc, acc, c, ctx->N, n);
    bn_mont_mul(acc, acc, ctx->RR, ctx);
  }
  memcpy(r, acc, n * sizeof(uint64_t));
  fm_zeroize(acc, n * sizeof(uint64_t));
  fm_zeroize(c, n * sizeof(uint64_t));
}

void bn_mod_mul(uint64_t *r, const uint64_t *a, const uint64_t *b, const bn_mont_ctx *ctx) {
  /* (a * b * R^-1) * R^2 * R^-1 = a * b. */
  bn_mont_mul(r, a, b, ctx);
  bn_mont_mul(r, r, ctx->RR, ctx);
}

/* ---- Exponentiation --------------------------------------------------------------------- */

/* table_read: r = table[idx] (entries of n limbs) reading every entry, keeping the one whose
 * index matches under a mask, so the memory touched does not depend on idx. */
static void table_read(uint64_t *r, const uint64_t *table, size_t entries, uint64_t idx,
                       size_t n) {
  bn_set_zero(r, n);
  for (size_t e = 0; e < entries; e++) {
    uint64_t take = ct_eq_u64((uint64_t)e, idx);
    const uint64_t *row = table + e * n;
    for (size_t j = 0; j < n; j++) r[j] |= row[j] & take;
  }
}

/* exp_window_bits: the window value of exp's bits [lo, lo + w) (all below 64 * exp_limbs). The
 * bit positions are public; only the value read is secret. */
static uint64_t exp_window_bits(const uint64_t *exp, size_t exp_limbs, size_t lo, unsigned w) {
  size_t limb = lo / 64, shift = lo % 64;
  uint64_t v = exp[limb] >> shift;
  if (shift + w > 64 && limb + 1 < exp_limbs) v |= exp[limb + 1] << (64 - shift);
  return v & (((uint64_t)1 << w) - 1);
}

/* ifma_prepare: N, R'^2 mod N and base in radix 2^52 (`lanes` digits each). R'^2 = 2^(104L)
 * comes from R^2 = 2^(128n) by 104L - 128n more bits of shifting. */
static void ifma_prepare(uint64_t *N52, uint64_t *rr52, uint64_t *b52, const uint64_t *base,
                         const bn_mont_ctx *ctx, size_t lanes) {
  const size_t n = ctx->n, L = ifma_digits(n);
  uint64_t x[BN_MAX_LIMBS], lz, d, v;
  normalize_top(ctx->N, n, &lz, &d, &v);
  bn_copy(x, ctx->RR, n);
  shift_mod_bits(x, 104 * L - 128 * n, ctx->N, n, lz, d, v);
  to52(N52, lanes, ctx->N, n);
  to52(rr52, lanes, x, n);
  to52(b52, lanes, base, n);
  fm_zeroize(x, n * sizeof(uint64_t));
}

/* ---- The windowed walk -------------------------------------------------------------------
 * Every constant-time exponentiation here walks its exponent the same way, left to right over all
 * 64 * exp_limbs bits with a fixed window of w bits: the top window takes the leftover bits
 * (64 * exp_limbs mod w of them; with none, the accumulator starts at one), every other window
 * costs w squarings and one multiplication by the table entry of its value, read by scanning
 * every entry (entry 0 is one, for zero windows: the work is the same for every exponent).
 * exp_walk is that walk, for one exponent or for two of the same length in lockstep (RSA-CRT's
 * pair); |ops| supplies the arithmetic: the 64-bit kernels, the radix-2^52 IFMA kernel, or the
 * IFMA kernel on two values at once. exp_walk is inlined into each user with its ops constant,
 * so the calls through |ops| are direct. Window positions are public; only the window values
 * read from the exponents are secret, and they only select table entries by mask. */
typedef struct {
  /* start: the accumulator(s) = table entry win[i], or one when !have_top. */
  void (*start)(void *state, const uint64_t *win, int have_top);
  void (*sqr)(void *state);                        /* accumulator(s) squared */
  void (*mul)(void *state, const uint64_t *win);   /* accumulator(s) times entry win[i] */
} exp_ops;

static inline __attribute__((always_inline)) void exp_walk(const exp_ops *ops, void *state,
                                                           const uint64_t *const *exp,
                                                           size_t count, size_t exp_limbs,
                                                           unsigned w) {
  uint64_t win[2] = {0, 0};
  const size_t bits = 64 * exp_limbs;
  size_t pos = bits - bits % w;
  const int have_top = bits % w != 0;
  for (size_t i = 0; i < count && have_top; i++) {
    win[i] = exp_window_bits(exp[i], exp_limbs, pos, (unsigned)(bits % w));
  }
  ops->start(state, win, have_top);
  while (pos > 0) {
    pos -= w;
    for (unsigned k = 0; k < w; k++) ops->sqr(state);
    for (size_t i = 0; i < count; i++) win[i] = exp_window_bits(exp[i], exp_limbs, pos, w);
    ops->mul(state, win);
  }
}

/* mod_exp_ifma: bn_mod_exp_consttime in radix 2^52 with the IFMA kernel, for 16 <= n <= 64.
 * Same fixed 5-bit window and full-table scan; the Montgomery radix is R' = 2^(52L), whose
 * square 2^(104L) mod N comes from R^2 = 2^(128n) by 104L - 128n more bits of shifting.
 * Intermediate values stay below 2N (almost Montgomery); the last step reduces fully. */
enum { IFMA_W = 5, IFMA_ENTRIES = 1 << IFMA_W, IFMA_LANES = 8 * BN_IFMA_MAX_V };

typedef struct {
  uint64_t *table, *acc, *t;
  const uint64_t *N52;
  uint64_t k0;
  size_t L, lanes;
} ifma_exp_state;

static void ifma_start(void *p, const uint64_t *win, int have_top) {
  ifma_exp_state *s = p;
  if (have_top) {
    bn_ifma_table_read(s->acc, s->table, IFMA_ENTRIES, win[0], s->lanes);
  } else {
    memcpy(s->acc, s->table, s->lanes * sizeof(uint64_t));
  }
}
static void ifma_sqr(void *p) {
  ifma_exp_state *s = p;
  bn_ifma_amm(s->acc, s->acc, s->acc, s->N52, s->k0, s->L);
}
static void ifma_mul(void *p, const uint64_t *win) {
  ifma_exp_state *s = p;
  bn_ifma_table_read(s->t, s->table, IFMA_ENTRIES, win[0], s->lanes);
  bn_ifma_amm(s->acc, s->acc, s->t, s->N52, s->k0, s->L);
}
static const exp_ops k_ifma_ops = {ifma_start, ifma_sqr, ifma_mul};

static void mod_exp_ifma(uint64_t *r, const uint64_t *base, const uint64_t *exp, size_t exp_limbs,
                         const bn_mont_ctx *ctx) {
  const size_t n = ctx->n, L = ifma_digits(n), lanes = ifma_lanes(n);
  uint64_t table[IFMA_ENTRIES * IFMA_LANES], acc[IFMA_LANES], t[IFMA_LANES], N52[IFMA_LANES],
      b52[IFMA_LANES];
  const uint64_t k0 = ctx->n0 & BN_IFMA_DIGIT_MASK;
  ifma_prepare(N52, t, b52, base, ctx, lanes);
  /* table[0] = R' mod N = R'^2 / R', table[1] = base * R', table[i] = base^i * R'. */
  uint64_t one[IFMA_LANES] = {1};
  bn_ifma_amm(table, t, one, N52, k0, L);
  bn_ifma_amm(table + lanes, b52, t, N52, k0, L);
  for (size_t i = 2; i < IFMA_ENTRIES; i++) {
    const uint64_t *x = table + (i / 2) * lanes, *y = table + (i - i / 2) * lanes;
    bn_ifma_amm(table + i * lanes, x, y, N52, k0, L);
  }
  ifma_exp_state st = {table, acc, t, N52, k0, L, lanes};
  const uint64_t *const exps[1] = {exp};
  exp_walk(&k_ifma_ops, &st, exps, 1, exp_limbs, IFMA_W);
  /* Out of Montgomery form (times 1 / R': the result is at most N), then reduce. */
  bn_ifma_amm(acc, acc, one, N52, k0, L);
  from52_reduced(r, acc, lanes, ctx->N, n);

  fm_zeroize(table, IFMA_ENTRIES * lanes * sizeof(uint64_t));
  fm_zeroize(acc, sizeof(acc));
  fm_zeroize(t, sizeof(t));
  fm_zeroize(b52, sizeof(b52));
  fm_zeroize(N52, sizeof(N52));
}

/* mod_exp_ifma_x2: two mod_exp_ifma of the same width and exponent length in lockstep, every
 * multiplication paired through bn_ifma_amm_x2. For n <= 24 (up to four registers). */
typedef struct {
  uint64_t *T1, *T2, *a1, *a2, *t1, *t2;
  const uint64_t *N1, *N2;
  uint64_t k1, k2;
  size_t L, lanes;
} ifma_x2_state;

static void ifma_x2_start(void *p, const uint64_t *win, int have_top) {
  ifma_x2_state *s = p;
  if (have_top) {
    bn_ifma_table_read(s->a1, s->T1, IFMA_ENTRIES, win[0], s->lanes);
    bn_ifma_table_read(s->a2, s->T2, IFMA_ENTRIES, win[1], s->lanes);
  } else {
    memcpy(s->a1, s->T1, s->lanes * sizeof(uint64_t));
    memcpy(s->a2, s->T2, s->lanes * sizeof(uint64_t));
  }
}
static void ifma_x2_sqr(void *p) {
  ifma_x2_state *s = p;
  bn_ifma_amm_x2(s->a1, s->a1, s->a1, s->N1, s->k1, s->a2, s->a2, s->a2, s->N2, s->k2, s->L);
}
static void ifma_x2_mul(void *p, const uint64_t *win) {
  ifma_x2_state *s = p;
  bn_ifma_table_read(s->t1, s->T1, IFMA_ENTRIES, win[0], s->lanes);
  bn_ifma_table_read(s->t2, s->T2, IFMA_ENTRIES, win[1], s->lanes);
  bn_ifma_amm_x2(s->a1, s->a1, s->t1, s->N1, s->k1, s->a2, s->a2, s->t2, s->N2, s->k2, s->L);
}
static const exp_ops k_ifma_x2_ops = {ifma_x2_start, ifma_x2_sqr, ifma_x2_mul};

static void mod_exp_ifma_x2(uint64_t *r1, const uint64_t *base1, const uint64_t *exp1,
                            const bn_mont_ctx *c1, uint64_t *r2, const uint64_t *base2,
                            const uint64_t *exp2, const bn_mont_ctx *c2, size_t exp_limbs) {
  enum { LANES = BN_X2_LANES };
  const size_t n = c1->n, L = ifma_digits(n), lanes = ifma_lanes(n);
  uint64_t T1[IFMA_ENTRIES * LANES], T2[IFMA_ENTRIES * LANES], a1[LANES], a2[LANES], t1[LANES],
      t2[LANES];
  uint64_t N1[LANES], N2[LANES], b1[LANES], b2[LANES];
  const uint64_t k1 = c1->n0 & BN_IFMA_DIGIT_MASK, k2 = c2->n0 & BN_IFMA_DIGIT_MASK;
  ifma_prepare(N1, t1, b1, base1, c1, lanes);
  ifma_prepare(N2, t2, b2, base2, c2, lanes);
  uint64_t one[LANES] = {1};
  bn_ifma_amm_x2(T1, t1, one, N1, k1, T2, t2, one, N2, k2, L);
  bn_ifma_amm_x2(T1 + lanes, b1, t1, N1, k1, T2 + lanes, b2, t2, N2, k2, L);
  for (size_t i = 2; i < IFMA_ENTRIES; i++) {
    size_t x = (i / 2) * lanes, y = (i - i / 2) * lanes;
    bn_ifma_amm_x2(T1 + i * lanes, T1 + x, T1 + y, N1, k1, T2 + i * lanes, T2 + x, T2 + y, N2,
                   k2, L);
  }
  ifma_x2_state st = {T1, T2, a1, a2, t1, t2, N1, N2, k1, k2, L, lanes};
  const uint64_t *const exps[2] = {exp1, exp2};
  exp_walk(&k_ifma_x2_ops, &st, exps, 2, exp_limbs, IFMA_W);
  bn_ifma_amm_x2(a1, a1, one, N1, k1, a2, a2, one, N2, k2, L);
  from52_reduced(r1, a1, lanes, c1->N, n);
  from52_reduced(r2, a2, lanes, c2->N, n);

  fm_zeroize(T1, IFMA_ENTRIES * lanes * sizeof(uint64_t));
  fm_zeroize(T2, IFMA_ENTRIES * lanes * sizeof(uint64_t));
  fm_zeroize(a1, sizeof(a1));
  fm_zeroize(a2, sizeof(a2));
  fm_zeroize(t1, sizeof(t1));
  fm_zeroize(t2, sizeof(t2));
  fm_zeroize(b1, sizeof(b1));
  fm_zeroize(b2, sizeof(b2));
  fm_zeroize(N1, sizeof(N1));
  fm_zeroize(N2, sizeof(N2));
}

int bn_mod_exp_consttime_x2(uint64_t *r1, const uint64_t *base1, const uint64_t *exp1,
                            const bn_mont_ctx *ctx1, uint64_t *r2, const uint64_t *base2,
                            const uint64_t *exp2, const bn_mont_ctx *ctx2, size_t exp_limbs) {
  if (exp_limbs > BN_MAX_LIMBS) {
    bn_set_zero(r1, ctx1->n);
    bn_set_zero(r2, ctx2->n);
    return FM_ERR_BAD_ARGUMENT;
  }
  const size_t n = ctx1->n;
  if (ctx2->n == n && ifma_exp_x2_capable(n)) {
    mod_exp_ifma_x2(r1, base1, exp1, ctx1, r2, base2, exp2, ctx2, exp_limbs);
    return FM_OK;
  }
  int st = bn_mod_exp_consttime(r1, base1, exp1, exp_limbs, ctx1);
  if (st == FM_OK) st = bn_mod_exp_consttime(r2, base2, exp2, exp_limbs, ctx2);
  return st;
}

/* The 64-bit kernels' arithmetic for exp_walk (bn_mod_exp_consttime). */
typedef struct {
  uint64_t *table, *acc, *t;
  const bn_mont_ctx *ctx;
  size_t entries;
} mont_exp_state;

static void mont_start(void *p, const uint64_t *win, int have_top) {
  mont_exp_state *s = p;
  if (have_top) {
    table_read(s->acc, s->table, s->entries, win[0], s->ctx->n);
  } else {
    bn_mont_one(s->acc, s->ctx);
  }
}
static void mont_sqr(void *p) {
  mont_exp_state *s = p;
  bn_mont_sqr(s->acc, s->acc, s->ctx);
}
static void mont_mul(void *p, const uint64_t *win) {
  mont_exp_state *s = p;
  table_read(s->t, s->table, s->entries, win[0], s->ctx->n);
  bn_mont_mul(s->acc, s->acc, s->t, s->ctx);
}
static const exp_ops k_mont_ops = {mont_start, mont_sqr, mont_mul};

int bn_mod_exp_consttime(uint64_t *r, const uint64_t *base, const uint64_t *exp, size_t exp_limbs,
                         const bn_mont_ctx *ctx) {
  const size_t n = ctx->n;
  if (exp_limbs > BN_MAX_LIMBS) {
    bn_set_zero(r, n);
    return FM_ERR_BAD_ARGUMENT;
  }
  if (ifma_exp_capable(n)) {
    mod_exp_ifma(r, base, exp, exp_limbs, ctx);
    return FM_OK;
  }
  const unsigned w = n <= 128 ? 5 : 4;
  const size_t entries = (size_t)1 << w;
  uint64_t table[BN_EXP_TABLE_LIMBS];
  uint64_t acc[BN_MAX_LIMBS], t[BN_MAX_LIMBS];

  /* table[i] = base^i in Montgomery form; even entries by squaring (cheaper than multiplying). */
  bn_mont_one(table, ctx);
  bn_to_mont(table + n, base, ctx);
  for (size_t i = 2; i < entries; i++) {
    if (i % 2 == 0) {
      bn_mont_sqr(table + i * n, table + (i / 2) * n, ctx);
    } else {
      bn_mont_mul(table + i * n, table + (i - 1) * n, table + n, ctx);
    }
  }
  mont_exp_state st = {table, acc, t, ctx, entries};
  const uint64_t *const exps[1] = {exp};
  exp_walk(&k_mont_ops, &st, exps, 1, exp_limbs, w);
  bn_from_mont(r, acc, ctx);

  fm_zeroize(table, entries * n * sizeof(uint64_t));
  fm_zeroize(acc, n * sizeof(uint64_t));
  fm_zeroize(t, n * sizeof(uint64_t));
  return FM_OK;
}

/* mod_exp_public_ifma: bn_mod_exp_public in radix 2^52 for 16 <= n <= 64 limbs. One IFMA
 * multiplication costs about a quarter of a 64-bit one at 2048 bits, far more than the
 * conversions in and out, so even RSA's e = 65537 (17 multiplications: the fault check after
 * every RSA signature) gains. Branches follow only the public exponent's bits; the values stay
 * below 2N until the last step reduces fully. */
static void mod_exp_public_ifma(uint64_t *r, const uint64_t *base, const uint64_t *exp,
                                size_t exp_limbs, const bn_mont_ctx *ctx) {
  const size_t n = ctx->n, L = ifma_digits(n), lanes = ifma_lanes(n);
  uint64_t N52[IFMA_LANES], rr52[IFMA_LANES], b52[IFMA_LANES], acc[IFMA_LANES],
      one[IFMA_LANES] = {1};
  const uint64_t k0 = ctx->n0 & BN_IFMA_DIGIT_MASK;
  ifma_prepare(N52, rr52, b52, base, ctx, lanes);
  bn_ifma_amm(b52, b52, rr52, N52, k0, L); /* base * R' */
  bn_ifma_amm(acc, rr52, one, N52, k0, L); /* R' mod N: one in this form */
  for (size_t i = bn_bits_public(exp, exp_limbs); i > 0; i--) {
    bn_ifma_amm(acc, acc, acc, N52, k0, L);
    if ((exp[(i - 1) / 64] >> ((i - 1) % 64)) & 1) bn_ifma_amm(acc, acc, b52, N52, k0, L);
  }
  bn_ifma_amm(acc, acc, one, N52, k0, L);
  from52_reduced(r, acc, lanes, ctx->N, n);
  fm_zeroize(rr52, sizeof(rr52));
  fm_zeroize(b52, sizeof(b52));
  fm_zeroize(acc, sizeof(acc));
}

int bn_mod_exp_public(uint64_t *r, const uint64_t *base, const uint64_t *exp, size_t exp_limbs,
                      const bn_mont_ctx *ctx) {
  const size_t n = ctx->n;
  if (exp_limbs > BN_MAX_LIMBS) {
    bn_set_zero(r, n);
    return FM_ERR_BAD_ARGUMENT;
  }
  if (ifma_exp_capable(n)) {
    mod_exp_public_ifma(r, base, exp, exp_limbs, ctx);
    return FM_OK;
  }
  uint64_t b[BN_MAX_LIMBS], acc[BN_MAX_LIMBS];
  bn_to_mont(b, base, ctx);
  bn_mont_one(acc, ctx);
  /* Square and multiply from the top set bit of the public exponent. */
  size_t bits = bn_bits_public(exp, exp_limbs);
  for (size_t i = bits; i > 0; i--) {
    bn_mont_sqr(acc, acc, ctx);
    if ((exp[(i - 1) / 64] >> ((i - 1) % 64)) & 1) bn_mont_mul(acc, acc, b, ctx);
  }
  bn_from_mont(r, acc, ctx);
  fm_zeroize(b, n * sizeof(uint64_t));
  fm_zeroize(acc, n * sizeof(uint64_t));
  return FM_OK;
}
