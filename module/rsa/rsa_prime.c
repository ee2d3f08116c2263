/* Miller-Rabin probabilistic primality test (FIPS 186-5 B.3.1) for RSA primes, in constant time
 * in the candidate: key generation runs it on each candidate that survives trial division, and
 * private-key import on the p and q it is given (FIPS 186-5 A.1.1 / SP 800-56B Rev. 2
 * 6.4.1.2.1 ask that they be prime).
 *
 * What the time reveals. Each round draws its base with the rejection of steps 4.1-4.2; whether a
 * fresh random wlen-bit string is at least w - 1 is declassified (the number of draws follows a
 * geometric law whose parameter, above 1/2, is all it says about w). The exponentiation of step
 * 4.3 processes every bit of the full-width exponent m. The squarings of step 4.5 run to a
 * public bound rather than to the secret a (the number of trailing zero bits of w - 1): to
 * RSA_MR_SQUARINGS when a is at most that, else to wlen - 1. Which of the two bounds applies is
 * declassified: it says only whether a > RSA_MR_SQUARINGS, which holds for a fraction 2^-64 of
 * primes, and saves each round up to wlen - 66 squarings (40% of a 2048-bit key's import). The
 * loop stops early only once the round has failed at j = a: that reveals a, but only for a
 * composite w, whose verdict is public anyway. For a prime w the instruction stream and the
 * memory addresses depend on wlen, the number of rounds and that one bit alone.
 *
 * Each candidate's Montgomery context and the split w - 1 = 2^a * m are set up once and shared by
 * all its rounds. rsa_are_probable_primes tests the two primes of a key side by side, round i of
 * both in one two-lane exponentiation (bn_mod_exp_consttime_x2), as the CRT signature does. */
#include <string.h>

#include "fipsmod/rand.h"
#include "module/internal.h"
#include "module/rsa/internal.h"

/* Draws of a base before giving up: a draw is refused with probability below 1/2 (w is above
 * 2^(wlen - 1)), so 64 refusals in a row mean a broken RNG. */
#define RSA_MR_BASE_DRAWS 64

/* The squarings of step 4.5 that every round runs when w - 1 has at most this many trailing zero
 * bits (see above). */
#define RSA_MR_SQUARINGS 64

int rsa_mr_rounds(size_t nlen) { return nlen <= 2048 ? 5 : 4; }

/* What the rounds on one candidate w share: w - 1 = 2^a * m (steps 1-3), 1 and w - 1 in
 * Montgomery form, the public bound of step 4.5's loop, and the round's base b and z. Every
 * field but j_end is secret; the whole structure is wiped after the test. */
typedef struct {
  uint64_t wm1[RSA_PRIME_MAX_LIMBS], m[RSA_PRIME_MAX_LIMBS], b[RSA_PRIME_MAX_LIMBS];
  uint64_t z[RSA_PRIME_MAX_LIMBS], one_m[RSA_PRIME_MAX_LIMBS], minus_one_m[RSA_PRIME_MAX_LIMBS];
  uint64_t a;
  size_t j_end;
} mr_state;

/* mr_setup does steps 1-3 for the modulus w of |ctx| once, for all the rounds. */
static void mr_setup(mr_state *s, const bn_mont_ctx *ctx, size_t wlen) {
  const size_t pl = ctx->n;
  (void)bn_sub_word(s->wm1, ctx->N, 1, pl);
  s->a = bn_count_low_zero_bits(s->wm1, pl);
  bn_rshift_secret(s->m, s->wm1, (size_t)s->a, pl);
  bn_mont_one(s->one_m, ctx);
  bn_to_mont(s->minus_one_m, s->wm1, ctx);
  /* The public bound of step 4.5's loop: a <= RSA_MR_SQUARINGS for all but 2^-64 of primes. */
  s->j_end = fm_declassify_u64(ct_lt_u64(RSA_MR_SQUARINGS, s->a)) ? wlen : RSA_MR_SQUARINGS + 1;
}

/* random_base sets s->b to a uniform value in [2, w - 2] (B.3.1 steps 4.1-4.2: a wlen-bit string
 * from the RBG, drawn again while b <= 1 or b >= w - 1). */
static int random_base(mr_state *s, size_t pl, size_t wlen) {
  uint64_t two[RSA_PRIME_MAX_LIMBS];
  bn_set_word(two, pl, 2);
  for (int draw = 0; draw < RSA_MR_BASE_DRAWS; draw++) {
    int st = fm_rand_bytes((uint8_t *)s->b, pl * sizeof(uint64_t));
    if (st != FM_OK) return st;
    if (wlen % 64) s->b[pl - 1] &= (UINT64_C(1) << (wlen % 64)) - 1;
    /* Whether this draw is in range is public: the draw is discarded otherwise. */
    if (fm_declassify_u64(bn_lt_mask(s->b, s->wm1, pl) & ~bn_lt_mask(s->b, two, pl))) return FM_OK;
  }
  return FM_ERR_ENTROPY;
}

/* mr_round_passes finishes a round whose step 4.3 left z = b^m mod w (plain form) in s->z:
 * steps 4.4-4.7. Returns the round's public verdict (1 passed, 0 failed: w is composite). */
static int mr_round_passes(mr_state *s, const bn_mont_ctx *ctx) {
  const size_t pl = ctx->n;
  bn_to_mont(s->z, s->z, ctx);
  /* Step 4.4: z = 1 or z = w - 1 passes the round. */
  uint64_t passed = bn_eq_mask(s->z, s->one_m, pl) | bn_eq_mask(s->z, s->minus_one_m, pl);
  /* Step 4.5, for j = 1 .. a - 1: z = z^2, and z = w - 1 passes the round. (z = 1 first means
   * composite, step 4.5.3: every later square is 1 again, never w - 1, so no check is needed.)
   * a < j_end, so the loop runs to that public bound with the steps beyond a masked off. */
  for (size_t j = 1; j < s->j_end; j++) {
    /* At j = a without a pass the round has failed: w is composite, a public verdict. */
    if (fm_declassify_u64(ct_eq_u64(j, s->a) & ~passed)) break;
    bn_mont_sqr(s->z, s->z, ctx);
    passed |= ct_lt_u64(j, s->a) & bn_eq_mask(s->z, s->minus_one_m, pl);
  }
  /* Step 4.7: a failed round means composite; the verdict is the test's public answer. */
  return fm_declassify_u64(passed) != 0;
}

int rsa_is_probable_prime(const bn_mont_ctx *ctx, size_t wlen, int rounds) {
  const size_t pl = ctx->n;
  mr_state s;
  mr_setup(&s, ctx, wlen);
  int result = 1;
  for (int i = 0; i < rounds && result == 1; i++) {
    const int st = random_base(&s, pl, wlen); /* steps 4.1-4.2 */
    if (st != FM_OK) {
      result = st;
      break;
    }
    (void)bn_mod_exp_consttime(s.z, s.b, s.m, pl, ctx); /* step 4.3: z = b^m mod w */
    if (!mr_round_passes(&s, ctx)) result = 0;
  }
  fm_zeroize(&s, sizeof(s));
  return result;
}

int rsa_are_probable_primes(const bn_mont_ctx *ctx1, const bn_mont_ctx *ctx2, size_t wlen,
                            int rounds) {
  const size_t pl = ctx1->n;
  if (ctx2->n != pl) {
    int r = rsa_is_probable_prime(ctx1, wlen, rounds);
    return r == 1 ? rsa_is_probable_prime(ctx2, wlen, rounds) : r;
  }
  mr_state s1, s2;
  mr_setup(&s1, ctx1, wlen);
  mr_setup(&s2, ctx2, wlen);
  int result = 1;
  for (int i = 0; i < rounds && result == 1; i++) {
    int st = random_base(&s1, pl, wlen);
    if (st == FM_OK) st = random_base(&s2, pl, wlen);
    if (st != FM_OK) {
      result = st;
      break;
    }
    /* Step 4.3 for both candidates at once (the two-lane kernel where the CPU has one). */
    (void)bn_mod_exp_consttime_x2(s1.z, s1.b, s1.m, ctx1, s2.z, s2.b, s2.m, ctx2, pl);
    if (!mr_round_passes(&s1, ctx1) || !mr_round_passes(&s2, ctx2)) result = 0;
  }
  fm_zeroize(&s1, sizeof(s1));
  fm_zeroize(&s2, sizeof(s2));
  return result;
}
