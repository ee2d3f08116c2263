/* P-521's dedicated field product and square (module/ec/ec_p521.c) against the generic Montgomery
 * multiplication (mont_mul_k, reached through ec_mod_mul with a copy of P-521's modulus, which
 * the dispatch does not take for P-521's own): edge values (0, 1, 2, p - 1, p - 2, the powers of
 * two up to 2^520, words of all ones, R mod p) in every pair, random values, aliased outputs, and
 * the row selection of the fixed-base table. The seed is printed. */
#include <string.h>

#include "module/ec/ec_p521.h"
#include "module/ec/internal.h"
#include "tests/common/test_util.h"

#define L 9

static const ec_curve *p521(void) { return ec_curve_get(FM_EC_P521); }

/* generic sets r = a * b * 2^-576 mod p with mont_mul_k. */
static void generic(uint64_t *r, const uint64_t *a, const uint64_t *b) {
  const ec_curve *c = p521();
  const ec_mod m = c->p; /* a copy: ec_mod_mul takes P-521's own product only for &c->p */
  ec_mod_mul(c, &m, r, a, b);
}

/* check_pair compares ec_p521_mul, ec_p521_sqr and their aliased forms with the generic product. */
static int check_pair(const uint64_t *a, const uint64_t *b) {
  uint64_t want[L], got[L], t[L];
  int bad = 0;
  generic(want, a, b);
  memset(got, 0xa5, sizeof got);
  ec_p521_mul(got, a, b);
  bad |= memcmp(want, got, sizeof want) != 0;
  memcpy(t, a, sizeof t);
  ec_p521_mul(t, t, b); /* r aliases a */
  bad |= memcmp(want, t, sizeof want) != 0;
  memcpy(t, b, sizeof t);
  ec_p521_mul(t, a, t); /* r aliases b */
  bad |= memcmp(want, t, sizeof want) != 0;
  generic(want, a, a);
  memset(got, 0xa5, sizeof got); /* no stale result in the output */
  ec_p521_sqr(got, a);
  bad |= memcmp(want, got, sizeof want) != 0;
  memcpy(t, a, sizeof t);
  ec_p521_sqr(t, t);
  bad |= memcmp(want, t, sizeof want) != 0;
  memset(got, 0xa5, sizeof got);
  ec_p521_mul(got, a, a); /* both operands one address */
  bad |= memcmp(want, got, sizeof want) != 0;
  memcpy(t, a, sizeof t);
  ec_p521_mul(t, t, t); /* r aliases both */
  bad |= memcmp(want, t, sizeof want) != 0;
  /* Through the curve's own dispatch as well. */
  ec_mod_mul(p521(), &p521()->p, got, a, b);
  generic(want, a, b);
  bad |= memcmp(want, got, sizeof want) != 0;
  return bad;
}

/* random_element writes a value below p: 521 random bits, p itself mapped to 0 by mask (the
 * only 521-bit value not below p). */
static void random_element(test_rng *rng, uint64_t *a) {
  for (unsigned i = 0; i < L; i++) a[i] = test_rng_u64(rng);
  a[L - 1] &= 0x1ff;
  uint64_t all = ~(uint64_t)0;
  for (unsigned i = 0; i < L - 1; i++) all &= a[i];
  if (all == ~(uint64_t)0 && a[L - 1] == 0x1ff) memset(a, 0, L * sizeof(uint64_t));
}

#define EDGES 16
static void edge_values(uint64_t e[EDGES][L]) {
  memset(e, 0, EDGES * L * sizeof(uint64_t));
  const uint64_t *p = p521()->p.m;
  e[1][0] = 1;
  e[2][0] = 2;
  memcpy(e[3], p, L * sizeof(uint64_t));
  e[3][0] -= 1; /* p - 1 */
  memcpy(e[4], p, L * sizeof(uint64_t));
  e[4][0] -= 2; /* p - 2 */
  e[5][8] = 0x100; /* 2^520 */
  e[6][7] = (uint64_t)1 << 63; /* 2^511 */
  e[7][0] = (uint64_t)1 << 55;
  e[8][0] = ((uint64_t)1 << 55) - 1;
  for (unsigned i = 0; i < 8; i++) e[9][i] = ~(uint64_t)0; /* 2^512 - 1 */
  for (unsigned i = 0; i < 8; i++) e[10][i] = ~(uint64_t)0;
  e[10][8] = 0xff; /* 2^520 - 1 */
  memcpy(e[11], p521()->p.one, L * sizeof(uint64_t)); /* R mod p = 2^55 */
  memcpy(e[12], p521()->p.rr, L * sizeof(uint64_t));
  memcpy(e[13], p521()->gx, L * sizeof(uint64_t));
  for (unsigned i = 0; i < L; i++) e[14][i] = 0xaaaaaaaaaaaaaaaau;
  e[14][8] &= 0x1ff;
  memcpy(e[15], p, L * sizeof(uint64_t));
  e[15][8] = 0xfe; /* p - 2^520 */
}

static void test_edges(void) {
  uint64_t e[EDGES][L];
  edge_values(e);
  for (unsigned i = 0; i < EDGES; i++)
    for (unsigned j = 0; j < EDGES; j++) {
      const int bad = check_pair(e[i], e[j]);
      CHECK(!bad);
      if (bad) fprintf(stderr, "edge pair %u, %u\n", i, j);
    }
}

static void test_random(void) {
  test_rng rng;
  test_rng_seed(&rng, "test_ec_p521.random");
  uint64_t e[EDGES][L], a[L], b[L];
  edge_values(e);
  int failures = 0;
  for (unsigned n = 0; n < 20000 && failures < 5; n++) {
    random_element(&rng, a);
    if (n % 4 == 3) memcpy(b, e[n / 4 % EDGES], sizeof b); /* random against an edge */
    else random_element(&rng, b);
    if (check_pair(a, b)) failures++;
  }
  CHECK_EQ_INT(failures, 0);
}

/* The products of a chain stay fully reduced: a long run of squares and products, each output
 * fed back, against the generic chain. */
static void test_chain(void) {
  test_rng rng;
  test_rng_seed(&rng, "test_ec_p521.chain");
  uint64_t x[L], y[L], gx[L], gy[L];
  random_element(&rng, x);
  random_element(&rng, y);
  memcpy(gx, x, sizeof x);
  memcpy(gy, y, sizeof y);
  for (unsigned n = 0; n < 5000; n++) {
    ec_p521_sqr(x, x);
    ec_p521_mul(x, x, y);
    generic(gx, gx, gx);
    generic(gx, gx, gy);
  }
  CHECK_MEM(x, gx, sizeof x);
  CHECK(ec_limbs_lt(L, x, p521()->p.m) != 0);
}

/* ec_p521_row_select: every digit 0..16 against a row of known words. */
static void test_row_select(void) {
  uint64_t row[16 * 2 * L], x[L], y[L];
  for (unsigned i = 0; i < 16 * 2 * L; i++) row[i] = 0x0101010101010101u * (i % 251) + i;
  for (uint64_t d = 0; d <= 16; d++) {
    ec_p521_row_select(x, y, row, d);
    if (d == 0) {
      CHECK(test_is_all_zero(x, sizeof x));
      CHECK(test_is_all_zero(y, sizeof y));
    } else {
      CHECK_MEM(x, &row[(2 * (d - 1)) * L], sizeof x);
      CHECK_MEM(y, &row[(2 * (d - 1) + 1) * L], sizeof y);
    }
  }
}

/* The reductions' last step maps a sum equal to p (all 521 bits set), which is 0 mod p, to 0. No
 * product of operands below p reaches it, so the operand p itself (0 mod p, outside the
 * functions' domain) does: p * 1 makes the sum exactly p, and every product or square with p as
 * an operand must come out fully reduced, as 0. On the path the module runs (ADX or portable). */
static void test_sum_p_reduces_to_zero(void) {
  uint64_t p[L], b[L], r[L];
  memcpy(p, p521()->p.m, sizeof p);
  const uint64_t others[][L] = {{1}, {2}, {0, 0, 0, 0, 0, 0, 0, 0, 0x1ff}, {(uint64_t)1 << 55},
                                {0x123456789abcdefu, 7, 0, 0, 0, 0xffffffffffffffffu}};
  for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
    memcpy(b, others[i], sizeof b);
    memset(r, 0xa5, sizeof r);
    ec_p521_mul(r, p, b);
    CHECK(test_is_all_zero(r, sizeof r));
    memset(r, 0xa5, sizeof r);
    ec_p521_mul(r, b, p);
    CHECK(test_is_all_zero(r, sizeof r));
  }
  memset(r, 0xa5, sizeof r);
  ec_p521_sqr(r, p);
  CHECK(test_is_all_zero(r, sizeof r));
}

static const test_case cases[] = {
    TEST_CASE(edges),
    TEST_CASE(sum_p_reduces_to_zero),
    TEST_CASE(random),
    TEST_CASE(chain),
    TEST_CASE(row_select),
};

int main(int argc, char **argv) { return TEST_RUN(argc, argv, "test_ec_p521", cases); }
