/* The variable-time inverses of ECDSA verification against the constant-time ones they stand in
 * for: bn_mod_inverse_public against bn_mod_inverse_mask (random odd moduli of 1 to 9 words, and
 * each curve's p and n; operands 0, 1, m - 1, random, and ones sharing a factor with m), and
 * ec_mod_inv_public against ec_mod_inv in Montgomery form on every curve's p and n. The seed is
 * printed (test_rng_seed); FIPSMOD_TEST_SEED replays a run. */
#include <string.h>

#include "fipsmod/ec.h"
#include "module/bn/internal.h"
#include "module/ec/internal.h"
#include "tests/common/test_util.h"

static const fm_ec_curve k_curves[] = {FM_EC_P224, FM_EC_P256, FM_EC_P384, FM_EC_P521};

/* random_below sets a (n words) to a random value below m (m's top word non-zero). */
static void random_below(test_rng *rng, uint64_t *a, const uint64_t *m, size_t n) {
  do {
    for (size_t i = 0; i < n; i++) a[i] = test_rng_u64(rng);
    a[n - 1] &= UINT64_MAX >> __builtin_clzll(m[n - 1]);
  } while (!bn_lt_mask(a, m, n));
}

/* check_one compares the two inverses of a modulo m (n words). */
static void check_one(const uint64_t *a, const uint64_t *m, size_t n) {
  uint64_t r1[EC_MAX_LIMBS + 1], r2[EC_MAX_LIMBS + 1];
  memset(r1, 0x5a, sizeof r1);
  const uint64_t ok1 = bn_mod_inverse_public(r1, a, m, n);
  const uint64_t ok2 = bn_mod_inverse_mask(r2, a, m, n);
  CHECK_EQ_INT(ok1 != 0, ok2 != 0);
  CHECK_MEM(r1, r2, n * sizeof(uint64_t));
}

static void test_bn_against_consttime(void) {
  test_rng rng;
  test_rng_seed(&rng, "test_ec_inv_public.bn");
  uint64_t m[EC_MAX_LIMBS + 1], a[EC_MAX_LIMBS + 1];
  for (size_t n = 1; n <= EC_MAX_LIMBS; n++) {
    for (int round = 0; round < 60; round++) {
      for (size_t i = 0; i < n; i++) m[i] = test_rng_u64(&rng);
      m[0] |= 1;
      if (round % 3 == 0) m[n - 1] |= UINT64_C(1) << 63; /* full width */
      if (m[n - 1] == 0) m[n - 1] = 1;
      if (n == 1 && m[0] == 1) m[0] = 3;
      memset(a, 0, sizeof a);
      check_one(a, m, n); /* 0: no inverse */
      a[0] = 1;
      check_one(a, m, n);
      memcpy(a, m, n * sizeof(uint64_t));
      a[0] -= 1; /* m - 1 (m is odd) */
      check_one(a, m, n);
      for (int k = 0; k < 10; k++) {
        random_below(&rng, a, m, n);
        check_one(a, m, n);
      }
    }
    /* m = 3 * 5 * x: a = 3 * y shares the factor 3. */
    memset(m, 0, sizeof m);
    for (size_t i = 0; i < n; i++) m[i] = test_rng_u64(&rng) >> 8;
    m[0] |= 1;
    if (m[n - 1] == 0) m[n - 1] = 1;
    (void)bn_mul_word(m, m, 15, n);
    memset(a, 0, sizeof a);
    a[0] = 3;
    check_one(a, m, n);
    a[0] = 21;
    check_one(a, m, n);
  }
  for (size_t i = 0; i < sizeof k_curves / sizeof k_curves[0]; i++) {
    const ec_curve *c = ec_curve_get(k_curves[i]);
    const ec_mod *mods[2] = {&c->p, &c->n};
    for (int j = 0; j < 2; j++) {
      for (int k = 0; k < 200; k++) {
        random_below(&rng, a, mods[j]->m, c->limbs);
        check_one(a, mods[j]->m, c->limbs);
      }
    }
  }
}

static void test_ec_against_consttime(void) {
  test_rng rng;
  test_rng_seed(&rng, "test_ec_inv_public.ec");
  for (size_t i = 0; i < sizeof k_curves / sizeof k_curves[0]; i++) {
    const ec_curve *c = ec_curve_get(k_curves[i]);
    const ec_mod *mods[2] = {&c->p, &c->n};
    for (int j = 0; j < 2; j++) {
      uint64_t a[EC_MAX_LIMBS] = {0}, r1[EC_MAX_LIMBS], r2[EC_MAX_LIMBS], one[EC_MAX_LIMBS];
      for (int k = 0; k < 300; k++) {
        if (k == 0) memset(a, 0, sizeof a);
        else if (k == 1) memcpy(a, mods[j]->one, sizeof a);
        else random_below(&rng, a, mods[j]->m, c->limbs);
        ec_mod_inv_public(c, mods[j], r1, a);
        ec_mod_inv(c, mods[j], r2, a);
        CHECK_MEM(r1, r2, c->limbs * sizeof(uint64_t));
        if (k > 0) { /* a * a^-1 = 1, in Montgomery form */
          ec_mod_mul(c, mods[j], one, a, r1);
          CHECK_MEM(one, mods[j]->one, c->limbs * sizeof(uint64_t));
        }
      }
    }
  }
}

static const test_case cases[] = {
    TEST_CASE(bn_against_consttime),
    TEST_CASE(ec_against_consttime),
};

int main(int argc, char **argv) { return TEST_RUN(argc, argv, "test_ec_inv_public", cases); }
