/* Helpers shared by the EC test programs (tests/ec/). */
#ifndef FIPSMOD_TESTS_EC_TEST_UTIL_H
#define FIPSMOD_TESTS_EC_TEST_UTIL_H

#include <stdint.h>

#include "module/ec/internal.h"
#include "tests/common/test_util.h"

/* ec_test_random_scalar writes a random value below n (and below p) on the curve c: the top bit
 * of the curve's top byte is cleared (n's top bit is set on every curve), as are the bits above
 * the curve's size. */
static inline void ec_test_random_scalar(test_rng *rng, const ec_curve *c, uint64_t *k) {
  uint8_t b[EC_MAX_BYTES];
  test_rng_bytes(rng, b, c->bytes);
  b[0] &= 0x7f;
  if (c->bits % 8) b[0] &= (uint8_t)((1u << (c->bits % 8)) - 1);
  ec_limbs_from_be(c->limbs, k, b, c->bytes);
}

#endif
