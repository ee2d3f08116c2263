/* The SP 800-90B adaptive proportion test (4.4.2) at its cutoff.
 *
 * 1. The cutoff the module uses is recomputed here from its definition: C = 1 + CRITBINOM(W,
 *    2^-H, 1 - alpha) with W = 512, H = 8 (the module's claim for one byte of getrandom output,
 *    module/rand/internal.h) and alpha = 2^-40, i.e. 1 + the least k with P[X <= k] >= 1 - alpha
 *    for X ~ Binomial(W, 2^-H). The tail sums are computed term by term in long double (the
 *    probabilities involved are near 1e-12, far above its precision).
 * 2. The boundary, through the start-up test (which runs the continuous tests over 1024 samples
 *    of the substitute source and only reports): a window in which the first sample occurs C - 1
 *    times passes, C times fails; C - 1 times in one window and once more in the next (whose
 *    first sample is another value) passes. No run, no repeated 16-byte block and no other value
 *    frequent enough to trip a test is in the patterns, so only the APT can decide. */
#include <math.h>
#include <string.h>

#include "fipsmod/module.h"
#include "module/internal.h"
#include "module/rand/internal.h"
#include "tests/common/test_util.h"

#define A 0xa5 /* the window's first sample */

/* tail_above returns P[X > k] for X ~ Binomial(n, p). pmf[j] = C(n, j) p^j (1-p)^(n-j), by the
 * recurrence pmf[j+1] = pmf[j] (n-j)/(j+1) p/(1-p); the tail is summed from the small end so no
 * term is lost. */
static long double tail_above(int n, long double p, int k) {
  long double pmf[513];
  pmf[0] = powl(1.0L - p, n);
  for (int j = 0; j < n; j++)
    pmf[j + 1] = pmf[j] * (long double)(n - j) / (long double)(j + 1) * p / (1.0L - p);
  long double tail = 0;
  for (int j = n; j > k; j--) tail += pmf[j];
  return tail;
}

/* binomial_cutoff returns 1 + CRITBINOM(n, p, 1 - alpha): 1 + the least k with P[X <= k] >=
 * 1 - alpha, i.e. P[X > k] <= alpha. */
static int binomial_cutoff(int n, long double p, long double alpha) {
  for (int k = 0; k <= n; k++) {
    if (tail_above(n, p, k) <= alpha) return 1 + k;
  }
  return n + 1;
}

/* make_pattern fills 1024 samples: filler values (never A, each at most three times per window,
 * never twice in a row), with A at position 0 and |in_first| - 1 more times spread over the first
 * window, plus A at position 530 of the second window when |one_more| is set. */
static void make_pattern(uint8_t pattern[1024], int in_first, int one_more) {
  for (int i = 0; i < 1024; i++) {
    uint8_t v = (uint8_t)((i * 97 + 13) % 255); /* 0..254; consecutive values differ by 97 */
    if (v >= A) v++;                            /* skip A: 0..255 without A */
    pattern[i] = v;
  }
  for (int i = 0; i < in_first; i++) pattern[20 * i] = A;
  if (one_more) pattern[530] = A;
}

static int startup_with(const uint8_t pattern[1024]) {
  fm_entropy_set_pattern_source_for_testing(pattern, 1024);
  int r = fm_entropy_startup_test();
  fm_entropy_set_pattern_source_for_testing(NULL, 0);
  return r;
}

int main(void) {
  int c = binomial_cutoff(ENTROPY_APT_WINDOW, ldexpl(1.0L, -8), ldexpl(1.0L, -40));
  fprintf(stderr, "recomputed APT cutoff: %d (module: %d)\n", c, ENTROPY_APT_CUTOFF);
  CHECK_EQ_INT(c, 19);
  CHECK_EQ_INT(ENTROPY_APT_CUTOFF, c);
  /* Both sides of the definition: failing at C occurrences meets alpha, failing at C - 1 would
   * not (P[X >= C] <= alpha < P[X >= C - 1]). */
  long double alpha = ldexpl(1.0L, -40);
  CHECK(tail_above(ENTROPY_APT_WINDOW, ldexpl(1.0L, -8), c - 1) <= alpha);
  CHECK(tail_above(ENTROPY_APT_WINDOW, ldexpl(1.0L, -8), c - 2) > alpha);

  uint8_t pattern[1024];
  make_pattern(pattern, 0, 0);
  CHECK_EQ_INT(startup_with(pattern), FM_OK); /* the filler alone passes */
  make_pattern(pattern, c - 1, 0);
  CHECK_EQ_INT(startup_with(pattern), FM_OK);
  make_pattern(pattern, c, 0);
  CHECK_EQ_INT(startup_with(pattern), FM_ERR_ENTROPY);
  make_pattern(pattern, c - 1, 1);
  CHECK_EQ_INT(startup_with(pattern), FM_OK);
  /* The start-up test only reports: the module stays usable. */
  CHECK_EQ_INT(fm_module_state(), FM_STATE_OPERATIONAL);
  return test_main_result("test_rand_apt");
}
