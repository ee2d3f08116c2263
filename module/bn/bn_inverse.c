/* Constant-time modular inversion by divsteps (Bernstein and Yang, "Fast constant-time gcd
 * computation and modular inversion", 2019): the module's one inverse modulo an odd number. RSA
 * needs one on every private-key operation (the blinding value r^-1 mod n) and one per key
 * (qinv = q^-1 mod p), and key generation one modulo e (bn_mod_inverse_odd_value). A binary
 * extended Euclid costs about as much as the exponentiations themselves at 2048 bits; divsteps
 * take up to 62 steps on one machine word at a time and then apply the resulting 2x2 matrix to the
 * full numbers, which makes the inverse a small fraction of a signature.
 *
 * Numbers here are signed, in radix 2^62: limbs 0..L-2 are in [0, 2^62), the top limb carries
 * the sign. That leaves two bits of headroom per limb so the matrix products and their carries
 * fit a signed 128-bit accumulator. Everything runs a fixed number of steps for the width, with
 * masks instead of branches: no branch or index depends on the values. Every mask goes through
 * ct_value_barrier_u64 (or comes from a ct_* helper, which applies it): clang 14 at -O2 and -O3
 * turned the bare `keep` mask of sg_normalize into a cmov that chose between two arrays and
 * loaded through the chosen address, a secret-dependent address. */
#include <string.h>

#include "module/internal.h"
#include "module/bn/internal.h"

#define SG_BITS 62
#define SG_MASK ((UINT64_C(1) << SG_BITS) - 1)
/* Radix-2^62 limbs for BN_MAX_LIMBS 64-bit limbs, plus one for the sign and headroom. */
#define SG_MAX_LIMBS ((BN_MAX_LIMBS * 64 + SG_BITS - 1) / SG_BITS + 1)

/* The transition matrix of a run of divsteps, scaled by 2^62:
 * [f', g'] * 2^62 = [u v; q r] [f, g]. */
typedef struct {
  int64_t u, v, q, r;
} sg_matrix;

/* sg_divsteps runs |steps| divsteps (B-Y section 8: delta > 0 and g odd: (1 - delta, g, (g - f)/2);
 * g odd: (1 + delta, f, (g + f)/2); else (1 + delta, f, g/2)) on the low words of f and g, which
 * decide every step; returns the new delta and writes the matrix. Branch-free. |step| is 1 for
 * delta itself, or 2 for the doubled 2 delta of bn_mod_inverse_256_mask (whose delta takes
 * half-integer values): the sign test and the update 1 +- delta scale alike.
 *
 * Each step, with pos all-ones when delta > 0 and odd all-ones when g is odd: g += (pos ? -f : f)
 * where g is odd, which is g - f or g + f; where both hold (the swap), f += the new g, which
 * makes f the old g; then g is halved. The rows (u, v) of f and (q, r) of g follow the same
 * additions, and the halving of g doubles (u, v) instead (the matrix is scaled by 2^62). delta is
 * kept negated (nd = -delta), so that pos is nd's sign bit: nd becomes -nd - step after a swap,
 * else nd - step. Only g's low bit and nd's sign are on the step-to-step path. */
static inline __attribute__((always_inline)) void sg_divstep(uint64_t *f, uint64_t *g, uint64_t *u,
                                                              uint64_t *v, uint64_t *q, uint64_t *r,
                                                              uint64_t *nd, const int64_t step) {
  const uint64_t pos = ct_value_barrier_u64(ct_msb_mask_u64(*nd));
  const uint64_t odd = ct_value_barrier_u64(0 - (*g & 1));
  *g += ((*f ^ pos) - pos) & odd;
  *q += ((*u ^ pos) - pos) & odd;
  *r += ((*v ^ pos) - pos) & odd;
  const uint64_t swap = pos & odd;
  *nd = (*nd ^ swap) - swap - (uint64_t)step;
  *f += *g & swap;
  *u += *q & swap;
  *v += *r & swap;
  *g >>= 1;
  /* The matrix entries pass a value barrier each step, which keeps them in general registers:
   * gcc 12 otherwise paired (q, r) and (u, v) in SSE registers in the unrolled 256-bit steps, and
   * the moves between the two register files lengthened every step's chain (the 256-bit inverse
   * took 5.5k TSC ticks against 3.7k with the barriers; clang, which does not pair them, 3.6k). */
  *u = ct_value_barrier_u64(*u << 1);
  *v = ct_value_barrier_u64(*v << 1);
  *q = ct_value_barrier_u64(*q);
  *r = ct_value_barrier_u64(*r);
}

/* |steps| (a constant, at most 62) is the run's length; the matrix starts at 2^(62 - steps) times
 * the identity, so that it always comes out scaled by 2^62 and |u| + |v|, |q| + |r| <= 2^62 (each
 * step at most doubles those sums). |unrolled| (a constant) unrolls the steps: about a tenth off
 * the 256-bit inverse for 7 KB of code, so only that instance does. */
static inline __attribute__((always_inline)) int64_t sg_divsteps(int64_t delta, uint64_t f,
                                                                 uint64_t g, sg_matrix *t,
                                                                 const int64_t step,
                                                                 const int unrolled,
                                                                 const int steps) {
  const uint64_t one = UINT64_C(1) << (SG_BITS - steps);
  uint64_t u = one, v = 0, q = 0, r = one;
  uint64_t nd = 0 - (uint64_t)delta;
  if (unrolled) {
    _Pragma("GCC unroll 62")
    for (int i = 0; i < steps; i++) sg_divstep(&f, &g, &u, &v, &q, &r, &nd, step);
  } else {
    for (int i = 0; i < steps; i++) sg_divstep(&f, &g, &u, &v, &q, &r, &nd, step);
  }
  t->u = (int64_t)u;
  t->v = (int64_t)v;
  t->q = (int64_t)q;
  t->r = (int64_t)r;
  return (int64_t)(0 - nd);
}

/* sg_divsteps_var is sg_divsteps in VARIABLE TIME, for public f and g only (bn_mod_inverse_public):
 * the same steps and the same matrix, with branches in place of the masks, and each run of
 * even g taken at once (its trailing zeros: g halved, u and v doubled, delta moved by |step| per
 * zero). */
static int64_t sg_divsteps_var(int64_t delta, uint64_t f, uint64_t g, sg_matrix *t,
                               const int64_t step) {
  uint64_t u = 1, v = 0, q = 0, r = 1;
  unsigned left = SG_BITS;
  for (;;) {
    const unsigned zeros = (unsigned)__builtin_ctzll(g | (UINT64_C(1) << left));
    g >>= zeros;
    u <<= zeros;
    v <<= zeros;
    delta += (int64_t)zeros * step;
    left -= zeros;
    if (left == 0) break;
    /* g is odd. */
    if (delta > 0) { /* (step - delta, g, (g - f) / 2), f's row taking g's */
      const uint64_t g0 = g, q0 = q, r0 = r;
      g -= f;
      q -= u;
      r -= v;
      f = g0;
      u = q0;
      v = r0;
      delta = step - delta;
    } else { /* (delta + step, f, (g + f) / 2) */
      g += f;
      q += u;
      r += v;
      delta += step;
    }
    g >>= 1;
    u <<= 1;
    v <<= 1;
    if (--left == 0) break;
  }
  t->u = (int64_t)u;
  t->v = (int64_t)v;
  t->q = (int64_t)q;
  t->r = (int64_t)r;
  return delta;
}

/* sg_update_fg sets [f, g] = t [f, g] / 2^62 (exact: the low 62 bits cancel by construction). */
static void sg_update_fg(int64_t *f, int64_t *g, const sg_matrix *t, size_t L) {
  __int128 cf = (__int128)t->u * f[0] + (__int128)t->v * g[0];
  __int128 cg = (__int128)t->q * f[0] + (__int128)t->r * g[0];
  cf >>= SG_BITS;
  cg >>= SG_BITS;
  for (size_t i = 1; i < L; i++) {
    cf += (__int128)t->u * f[i] + (__int128)t->v * g[i];
    cg += (__int128)t->q * f[i] + (__int128)t->r * g[i];
    f[i - 1] = (int64_t)((uint64_t)cf & SG_MASK);
    g[i - 1] = (int64_t)((uint64_t)cg & SG_MASK);
    cf >>= SG_BITS;
    cg >>= SG_BITS;
  }
  f[L - 1] = (int64_t)cf;
  g[L - 1] = (int64_t)cg;
}

/* sg_add_masked sets d += M & mask (mask all-ones or zero); limb sums stay below 2^63. */
static void sg_add_masked(int64_t *d, const int64_t *M, int64_t mask, size_t L) {
  mask = (int64_t)ct_value_barrier_u64((uint64_t)mask);
  int64_t c = 0;
  for (size_t i = 0; i + 1 < L; i++) {
    c += d[i] + (M[i] & mask);
    d[i] = (int64_t)((uint64_t)c & SG_MASK);
    c >>= SG_BITS;
  }
  d[L - 1] += (M[L - 1] & mask) + c;
}

/* sg_normalize brings d from (-M, 2M) into [0, M): add M when negative, then subtract M when
 * the difference is not negative. */
static void sg_normalize(int64_t *d, const int64_t *M, size_t L) {
  int64_t t[SG_MAX_LIMBS];
  sg_add_masked(d, M, (int64_t)ct_msb_mask_u64((uint64_t)d[L - 1]), L);
  int64_t c = 0;
  for (size_t i = 0; i + 1 < L; i++) {
    c += d[i] - M[i];
    t[i] = (int64_t)((uint64_t)c & SG_MASK);
    c >>= SG_BITS;
  }
  t[L - 1] = d[L - 1] - M[L - 1] + c;
  const uint64_t keep = ct_msb_mask_u64((uint64_t)t[L - 1]); /* all-ones when d < M */
  for (size_t i = 0; i < L; i++) {
    d[i] = (int64_t)ct_select_u64(keep, (uint64_t)d[i], (uint64_t)t[i]);
  }
  fm_zeroize(t, L * sizeof(int64_t)); /* the limbs written: a P-256 inverse uses 6 of 134 */
}

/* sg_update_de sets [d, e] = (t [d, e] + M [md, me]) / 2^62, which is t [d, e] / 2^62 mod M:
 * md and me make the low 62 bits zero before the exact shift. d and e are kept in (-2M, M), not
 * reduced, which saves two reductions a run (the method of Wuille's notes on safegcd): where d
 * is negative the update takes d + M in its place, by adding (u, q) to (md, me), and likewise
 * (v, r) where e is negative. The values multiplied are then in (-M, M); with |u| + |v| and
 * |q| + |r| at most 2^62, t [d, e] is in (-2^62 M, 2^62 M), and the low-bit correction adds 0 to
 * 2^62 - 1 more multiples of -M, so the quotient is in (-2M, M) again. |md| and |me| stay below
 * 2^63, and every sum of products below 2^127. */
static void sg_update_de(int64_t *d, int64_t *e, const sg_matrix *t, const int64_t *M,
                         uint64_t minv, size_t L) {
  const int64_t sd = (int64_t)ct_msb_mask_u64((uint64_t)d[L - 1]);
  const int64_t se = (int64_t)ct_msb_mask_u64((uint64_t)e[L - 1]);
  int64_t md = (t->u & sd) + (t->v & se);
  int64_t me = (t->q & sd) + (t->r & se);
  __int128 cd = (__int128)t->u * d[0] + (__int128)t->v * e[0];
  __int128 ce = (__int128)t->q * d[0] + (__int128)t->r * e[0];
  /* md - x with x = (cd M^-1 + md) mod 2^62 makes cd + md M[0] a multiple of 2^62. */
  md -= (int64_t)((minv * (uint64_t)cd + (uint64_t)md) & SG_MASK);
  me -= (int64_t)((minv * (uint64_t)ce + (uint64_t)me) & SG_MASK);
  cd += (__int128)md * M[0];
  ce += (__int128)me * M[0];
  cd >>= SG_BITS;
  ce >>= SG_BITS;
  for (size_t i = 1; i < L; i++) {
    cd += (__int128)t->u * d[i] + (__int128)t->v * e[i] + (__int128)md * M[i];
    ce += (__int128)t->q * d[i] + (__int128)t->r * e[i] + (__int128)me * M[i];
    d[i - 1] = (int64_t)((uint64_t)cd & SG_MASK);
    e[i - 1] = (int64_t)((uint64_t)ce & SG_MASK);
    cd >>= SG_BITS;
    ce >>= SG_BITS;
  }
  d[L - 1] = (int64_t)cd;
  e[L - 1] = (int64_t)ce;
}

/* sg_from_limbs converts the n-limb a (radix 2^64, non-negative) into L radix-2^62 limbs. */
static void sg_from_limbs(int64_t *out, const uint64_t *a, size_t n, size_t L) {
  for (size_t i = 0; i < L; i++) {
    const size_t bit = i * SG_BITS, j = bit / 64, s = bit % 64;
    uint64_t w = j < n ? a[j] >> s : 0;
    if (s > 64 - SG_BITS && j + 1 < n) w |= a[j + 1] << (64 - s);
    out[i] = (int64_t)(w & SG_MASK);
  }
}

/* sg_to_limbs converts a radix-2^62 value in [0, 2^(64n)) back into n limbs. */
static void sg_to_limbs(uint64_t *out, const int64_t *a, size_t n, size_t L) {
  memset(out, 0, n * sizeof(uint64_t));
  for (size_t i = 0; i < L; i++) {
    const size_t bit = i * SG_BITS, j = bit / 64, s = bit % 64;
    const uint64_t w = (uint64_t)a[i] & SG_MASK;
    if (j < n) out[j] |= w << s;
    if (s > 64 - SG_BITS && j + 1 < n) out[j + 1] |= w >> (64 - s);
  }
}

/* bn_gcd_odd_consttime: the same divsteps on f = f_odd, g = g alone (no d, e): when g reaches 0,
 * f = +-gcd(f_odd, g). */
void bn_gcd_odd_consttime(uint64_t *r, const uint64_t *f_odd, const uint64_t *g_in, size_t n) {
  int64_t f[SG_MAX_LIMBS], g[SG_MAX_LIMBS];
  const size_t L = (n * 64 + SG_BITS - 1) / SG_BITS + 1;
  sg_from_limbs(f, f_odd, n, L);
  sg_from_limbs(g, g_in, n, L);
  /* The bound of bn_mod_inverse_mask, for inputs below 2^(64n + 64): it is stated for
   * 0 <= g <= f, and g may exceed f here; one limb's worth of steps more covers that (a g above f
   * is below 2^64 f). */
  const size_t bits = n * 64 + 64;
  const size_t steps = (49 * bits + 80) / 17;
  const size_t batches = (steps + SG_BITS - 1) / SG_BITS;
  int64_t delta = 1;
  sg_matrix t;
  for (size_t i = 0; i < batches; i++) {
    const uint64_t f0 = (uint64_t)f[0] | ((uint64_t)f[1] << SG_BITS);
    const uint64_t g0 = (uint64_t)g[0] | ((uint64_t)g[1] << SG_BITS);
    delta = sg_divsteps(delta, f0, g0, &t, 1, 0, SG_BITS);
    sg_update_fg(f, g, &t, L);
  }
  /* |f|: negate into g (now zero, free) with the carries normalized, and keep it when f < 0. */
  const uint64_t neg = ct_msb_mask_u64((uint64_t)f[L - 1]);
  int64_t c = 0;
  for (size_t i = 0; i + 1 < L; i++) {
    c -= f[i];
    g[i] = (int64_t)((uint64_t)c & SG_MASK);
    c >>= SG_BITS;
  }
  g[L - 1] = c - f[L - 1];
  for (size_t i = 0; i < L; i++) f[i] = (int64_t)ct_select_u64(neg, (uint64_t)g[i], (uint64_t)f[i]);
  sg_to_limbs(r, f, n, L);
  fm_zeroize(f, L * sizeof(int64_t));
  fm_zeroize(g, L * sizeof(int64_t));
  fm_zeroize(&t, sizeof t);
  fm_zeroize(&delta, sizeof delta);
}

/* sg_inverse_k: f = m, g = a, (d, e) = (0, 1) track f = d * a and g = e * a (mod m); after
 * enough divsteps g = 0 and f = +-gcd(a, m). L radix-2^62 limbs hold the n-limb numbers with a
 * sign; |batches| runs of |steps| divsteps (62 where |vartime|) from the (scaled) delta0, each step
 * adding |step|. With |vartime| (a constant) the runs stop as soon as g = 0, and g != 0 after
 * |batches| runs gives zero: VARIABLE TIME, for public a and m only. */
static inline __attribute__((always_inline)) uint64_t sg_inverse_k(
    uint64_t *r, const uint64_t *a, const uint64_t *m, const size_t n, const size_t L,
    const size_t batches, const int steps, const int64_t delta0, const int64_t step,
    const int vartime) {
  int64_t f[SG_MAX_LIMBS], g[SG_MAX_LIMBS], d[SG_MAX_LIMBS], e[SG_MAX_LIMBS], M[SG_MAX_LIMBS];
  sg_from_limbs(M, m, n, L);
  memcpy(f, M, L * sizeof(int64_t));
  sg_from_limbs(g, a, n, L);
  memset(d, 0, L * sizeof(int64_t));
  memset(e, 0, L * sizeof(int64_t));
  e[0] = 1;

  /* M^-1 mod 2^64 by Newton's iteration (each step doubles the correct low bits from 3). */
  uint64_t minv = m[0];
  for (int i = 0; i < 5; i++) minv *= 2 - m[0] * minv;

  int64_t delta = delta0;
  sg_matrix t;
  for (size_t i = 0; i < batches; i++) {
    const uint64_t f0 = (uint64_t)f[0] | ((uint64_t)f[1] << SG_BITS);
    const uint64_t g0 = (uint64_t)g[0] | ((uint64_t)g[1] << SG_BITS);
    if (vartime) delta = sg_divsteps_var(delta, f0, g0, &t, step);
    else delta = sg_divsteps(delta, f0, g0, &t, step, step == 2, steps);
    sg_update_fg(f, g, &t, L);
    sg_update_de(d, e, &t, M, minv, L);
    if (vartime) {
      /* Public a and m: the number of runs may follow them. */
      int64_t any = 0;
      for (size_t j = 0; j < L; j++) any |= g[j];
      if (any == 0) break;
    }
  }
  uint64_t g_zero = UINT64_MAX;
  if (vartime) {
    for (size_t j = 0; j < L; j++) g_zero &= ct_is_zero_u64((uint64_t)g[j]);
  }

  /* Now g = 0 and f = +-gcd(a, m); d * a = f (mod m) by the invariant f = d * a (mod m). */
  uint64_t is_one = ct_eq_u64((uint64_t)f[0], 1), is_minus_one = ct_eq_u64((uint64_t)f[0], SG_MASK);
  for (size_t i = 1; i + 1 < L; i++) {
    is_one &= ct_is_zero_u64((uint64_t)f[i]);
    is_minus_one &= ct_eq_u64((uint64_t)f[i], SG_MASK);
  }
  is_one &= ct_is_zero_u64((uint64_t)f[L - 1]);
  is_minus_one &= ct_eq_u64((uint64_t)f[L - 1], UINT64_MAX);
  /* d is in (-2M, M) (sg_update_de): M added where it is negative brings it into (-M, M). Then
   * for f = -1 the inverse is -d mod m, m - d in (0, 2M), which the reduction below brings into
   * [0, M) as it does d itself. */
  sg_add_masked(d, M, (int64_t)ct_msb_mask_u64((uint64_t)d[L - 1]), L);
  for (size_t i = 0; i < L; i++) e[i] = -d[i];
  sg_add_masked(e, M, -1, L);
  for (size_t i = 0; i < L; i++) {
    d[i] = (int64_t)ct_select_u64(is_minus_one, (uint64_t)e[i], (uint64_t)d[i]);
  }
  sg_normalize(d, M, L);
  const uint64_t ok = (is_one | is_minus_one) & g_zero;
  sg_to_limbs(r, d, n, L);
  for (size_t i = 0; i < n; i++) r[i] &= ok;

  /* Only the first L limbs of each array were written. */
  fm_zeroize(f, L * sizeof(int64_t));
  fm_zeroize(g, L * sizeof(int64_t));
  fm_zeroize(d, L * sizeof(int64_t));
  fm_zeroize(e, L * sizeof(int64_t));
  fm_zeroize(&t, sizeof t); /* the last steps' matrix, and delta, follow the secret too */
  fm_zeroize(&delta, sizeof delta);
  return ok;
}

uint64_t bn_mod_inverse_mask(uint64_t *r, const uint64_t *a, const uint64_t *m, size_t n) {
  /* B-Y theorem 11.2: floor((49b + 80) / 17) divsteps reach g = 0 for b-bit inputs (f odd,
   * 0 <= g <= f), with delta starting at 1; the width's bits bound b. */
  const size_t L = (n * 64 + SG_BITS - 1) / SG_BITS + 1;
  const size_t bits = n * 64;
  const size_t steps = (49 * bits + 80) / 17;
  const size_t batches = (steps + SG_BITS - 1) / SG_BITS;
  return sg_inverse_k(r, a, m, n, L, batches, SG_BITS, 1, 1, 0);
}

uint64_t bn_mod_inverse_256_mask(uint64_t *r, const uint64_t *a, const uint64_t *m) {
  /* The variant of divsteps whose delta starts at 1/2 (kept doubled: 2 delta starts at 1 and
   * moves by 2): 590 of its steps reach g = 0 for every odd modulus below 2^256 and 0 <= a < m,
   * the bound that Wuille computed for it (libsecp256k1's doc/safegcd_implementation.md, against
   * 724 for delta starting at 1 and B-Y's proven 741): 10 runs of 59, exactly. Five radix-2^62
   * limbs (four of 62 bits and a signed top one) hold every f, g, d and e of 256 bits with their
   * sign, one fewer than the generic width gives. */
  return sg_inverse_k(r, a, m, 4, 5, 10, 59, 1, 2, 0);
}

uint64_t bn_mod_inverse_public(uint64_t *r, const uint64_t *a, const uint64_t *m, size_t n) {
  /* VARIABLE TIME: public a and m only. The half-delta divsteps of bn_mod_inverse_256_mask (2
   * delta starts at 1 and moves by 2), stopped at the first run of 62 that leaves g = 0; random
   * inputs take about half the runs of the constant-time bound. That bound is proven for delta
   * starting at 1, not for this variant, so the runs are capped at twice its count, and an a
   * that has not reached g = 0 by then gives zero (the caller takes the constant-time inverse). */
  const size_t L = (n * 64 + SG_BITS - 1) / SG_BITS + 1;
  const size_t bits = n * 64;
  const size_t steps = (49 * bits + 80) / 17;
  const size_t batches = 2 * ((steps + SG_BITS - 1) / SG_BITS);
  return sg_inverse_k(r, a, m, n, L, batches, SG_BITS, 1, 2, 1);
}
