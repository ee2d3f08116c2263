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
 * memory addresses depend on wlen, the number of rounds and that one bit alone. */
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

/* random_base sets the pl-limb b to a uniform value in [2, w - 2] (B.3.1 steps 4.1-4.2: a wlen-bit
 * string from the RBG, drawn again while b <= 1 or b >= w - 1). wm1 is w - 1. */
static int random_base(uint64_t *b, const uint64_t *wm1, size_t pl, size_t wlen) {
  uint64_t two[RSA_PRIME_MAX_LIMBS];
  bn_set_word(two, pl, 2);
  for (int draw = 0; draw < RSA_MR_BASE_DRAWS; draw++) {
    int st = fm_rand_bytes((uint8_t *)b, pl * sizeof(uint64_t));
    if (st != FM_OK) return st;
    if (wlen % 64) b[pl - 1] &= (UINT64_C(1) << (wlen % 64)) - 1;
    /* Whether this draw is in range is public: the draw is discarded otherwise. */
    if (fm_declassify_u64(bn_lt_mask(b, wm1, pl) & ~bn_lt_mask(b, two, pl))) return FM_OK;
  }
  return FM_ERR_ENTROPY;
}

int rsa_is_probable_prime(const bn_mont_ctx *ctx, size_t wlen, int rounds) {
  const size_t pl = ctx->n;
  uint64_t wm1[RSA_PRIME_MAX_LIMBS], m[RSA_PRIME_MAX_LIMBS], b[RSA_PRIME_MAX_LIMBS];
  uint64_t z[RSA_PRIME_MAX_LIMBS], one_m[RSA_PRIME_MAX_LIMBS], minus_one_m[RSA_PRIME_MAX_LIMBS];
  int result = 1;
  /* Steps 1-3: w - 1 = 2^a * m with m odd (a and m secret). */
  (void)bn_sub_word(wm1, ctx->N, 1, pl);
  const uint64_t a = bn_count_low_zero_bits(wm1, pl);
  bn_rshift_secret(m, wm1, (size_t)a, pl);
  bn_mont_one(one_m, ctx);
  bn_to_mont(minus_one_m, wm1, ctx);
  /* The public bound of step 4.5's loop: a <= RSA_MR_SQUARINGS for all but 2^-64 of primes. */
  const size_t j_end =
      fm_declassify_u64(ct_lt_u64(RSA_MR_SQUARINGS, a)) ? wlen : RSA_MR_SQUARINGS + 1;
  for (int i = 0; i < rounds && result == 1; i++) {
    const int st = random_base(b, wm1, pl, wlen); /* steps 4.1-4.2 */
    if (st != FM_OK) {
      result = st;
      break;
    }
    (void)bn_mod_exp_consttime(z, b, m, pl, ctx); /* step 4.3: z = b^m mod w */
    bn_to_mont(z, z, ctx);
    /* Step 4.4: z = 1 or z = w - 1 passes the round. */
    uint64_t passed = bn_eq_mask(z, one_m, pl) | bn_eq_mask(z, minus_one_m, pl);
    /* Step 4.5, for j = 1 .. a - 1: z = z^2, and z = w - 1 passes the round. (z = 1 first means
     * composite, step 4.5.3: every later square is 1 again, never w - 1, so no check is needed.)
     * a < j_end, so the loop runs to that public bound with the steps beyond a masked off. */
    for (size_t j = 1; j < j_end; j++) {
      /* At j = a without a pass the round has failed: w is composite, a public verdict. */
      if (fm_declassify_u64(ct_eq_u64(j, a) & ~passed)) break;
      bn_mont_sqr(z, z, ctx);
      passed |= ct_lt_u64(j, a) & bn_eq_mask(z, minus_one_m, pl);
    }
    /* Step 4.7: a failed round means composite; the verdict is the test's public answer. */
    if (!fm_declassify_u64(passed)) result = 0;
  }
  fm_zeroize(wm1, sizeof(wm1));
  fm_zeroize(m, sizeof(m));
  fm_zeroize(b, sizeof(b));
  fm_zeroize(z, sizeof(z));
  fm_zeroize(one_m, sizeof(one_m));
  fm_zeroize(minus_one_m, sizeof(minus_one_m));
  return result;
}
