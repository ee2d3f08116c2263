/* Bounded integers: fm_rand_uniform, by multiply-and-reject on 64-bit draws.
 *
 * The draws come from the calling thread's batch through fm_rand_u64. The batch (RAND_BATCH_LEN
 * bytes made by one generate request, each byte wiped as it is handed out, dropped on reseed,
 * fork, cleanup and error) and the word draws live in rand.c, where the take is inlined into
 * them. */
#include <string.h>

#include "fipsmod/rand.h"
#include "module/internal.h"
#include "module/rand/internal.h"

int fm_rand_uniform(uint64_t bound, uint64_t *out) {
  int st = fm_service_gate();
  if (st != FM_OK) return fm_refuse(st, out, sizeof(*out));
  if (out == NULL) return FM_ERR_BAD_ARGUMENT;
  if (bound == 0) return fm_refuse(FM_ERR_OUT_OF_RANGE, out, sizeof(*out));
  /* Multiply-and-reject (Lemire, "Fast random integer generation in an interval", 2019): for a
   * uniform 64-bit x, the high word of x * bound is uniform in [0, bound) once the draws whose
   * low word falls below 2^64 mod bound are rejected. A rejection happens with probability
   * < bound / 2^64 and reveals nothing about the value finally returned. */
  uint64_t threshold = (0 - bound) % bound; /* 2^64 mod bound; the bound is public */
  for (;;) {
    uint64_t x;
    int err = fm_rand_u64(&x);
    if (err != FM_OK) return fm_refuse(err, out, sizeof(*out));
    unsigned __int128 m = (unsigned __int128)x * bound;
    uint64_t low = (uint64_t)m;
    x = 0;
    /* The one branch on a value computed from the secret draw: accept or reject. It is public
     * (a rejected x is thrown away, and whether draws were rejected says nothing about the value
     * finally returned), so that one bit is declassified explicitly (fm_declassify_u64: a no-op
     * in libfipsmod, the marker constant-time tests under memcheck rely on). */
    uint64_t accept = fm_declassify_u64(~ct_lt_u64(low, threshold) & 1);
    if (accept) {
      *out = (uint64_t)(m >> 64);
      m = 0;
      return FM_OK;
    }
  }
}
