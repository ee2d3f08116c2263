/* The fixed-base tables of P-256, P-384 and P-521 (ec_base_table.h), computed at their curve's
 * first use rather than stored in the library file: the file would carry 448 KB of constants that
 * the load-time integrity check hashes at every load, whether or not the process ever uses ECC. The
 * code that computes them lies in the hashed image, and so do G and the field constants it starts
 * from, so the tables are as well protected as constants would be; the EC self-tests run through
 * them before the first EC output, like any other part of the EC code.
 *
 * Row i holds (j + 1) * 2^(w i) * G for j = 0..2^(w-1) - 1 (w = 6 on P-256, 5 on P-384 and P-521),
 * affine, Montgomery form. Rows are built a few at a time: the multiples by complete additions
 * (2^(w-1) * B doubled is the next row's base 2^w * B),
 * X and Y written straight into the table and Z kept aside, then one inversion for the group
 * (Montgomery's trick) turns them affine. The same first use builds G's odd multiples G, 3G,
 * ..., 255G (ec_base_odd, 8 KB on P-256, 12 KB on P-384, 18 KB on P-521) the same way, for
 * verification. Only public values are involved; the group law used is the module's
 * constant-time one anyway. */
#include <pthread.h>
#include <stdbool.h>
#include <string.h>

#include "module/ec/ec_base_table.h"
#include "module/internal.h"

/* P-256 takes 6-bit windows: 43 rows of 32 entries (88 KB) against 52 of 16 (53 KB) for 5-bit
 * ones, so 9 fewer additions per multiplication for row scans twice as long, which the vector
 * scans of ec_scalar_mul.c make cheap. P-384 and P-521, already well ahead of their peers, keep
 * 5-bit windows and their smaller tables. */
#define P256_WINDOW 6
#define P256_ROWS 43 /* ceil((256 + 1) / 6) */
#define P384_ROWS 77 /* ceil((384 + 1) / 5) */
#define P521_ROWS 105 /* ceil((521 + 1) / 5) */
#define ENTRY_WORDS(limbs) (2u * (limbs))
#define ROW_WORDS(entries, limbs) ((entries) * ENTRY_WORDS(limbs))

static uint64_t g_p256_table[P256_ROWS * ROW_WORDS(32, 4)];
static uint64_t g_p384_table[P384_ROWS * ROW_WORDS(16, 6)];
static uint64_t g_p521_table[P521_ROWS * ROW_WORDS(16, 9)];
static uint64_t g_p256_odd[EC_BASE_ODD * ENTRY_WORDS(4)];
static uint64_t g_p384_odd[EC_BASE_ODD * ENTRY_WORDS(6)];
static uint64_t g_p521_odd[EC_BASE_ODD * ENTRY_WORDS(9)];
static pthread_once_t g_p256_once = PTHREAD_ONCE_INIT;
static pthread_once_t g_p384_once = PTHREAD_ONCE_INIT;
static pthread_once_t g_p521_once = PTHREAD_ONCE_INIT;

/* Points turned affine together with one inversion: four rows of 16 or two of 32. */
#define GROUP_POINTS 64
_Static_assert(GROUP_POINTS % EC_BASE_MAX_ENTRIES == 0, "whole rows in a group");
#define TABLE_MAX_LIMBS 9 /* P-521 */

/* to_affine divides the x and y of |count| points (ENTRY_WORDS apart in |group|) by their z, none
 * of them 0, with one inversion for the group (Montgomery's trick). */
static void to_affine(const ec_curve *c, uint64_t *group, uint64_t z[][TABLE_MAX_LIMBS],
                      unsigned count) {
  const unsigned n = c->limbs;
  const size_t bytes = n * sizeof(uint64_t);
  uint64_t pre[GROUP_POINTS][TABLE_MAX_LIMBS];
  uint64_t inv[EC_MAX_LIMBS], zi[EC_MAX_LIMBS], t[EC_MAX_LIMBS];
  /* pre[k] = z[0] ... z[k]. */
  memcpy(pre[0], z[0], bytes);
  for (unsigned k = 1; k < count; k++) ec_mod_mul(c, &c->p, pre[k], pre[k - 1], z[k]);
  /* Multiples of G are public: the variable-time inverse. */
  ec_mod_inv_public(c, &c->p, inv, pre[count - 1]);
  for (unsigned k = count; k-- > 0;) {
    /* inv = 1 / (z[0] ... z[k]) here. */
    if (k > 0) {
      ec_mod_mul(c, &c->p, zi, inv, pre[k - 1]);
      ec_mod_mul(c, &c->p, inv, inv, z[k]);
    } else {
      memcpy(zi, inv, bytes);
    }
    uint64_t *e = group + (size_t)k * ENTRY_WORDS(n);
    ec_mod_mul(c, &c->p, t, e, zi);
    memcpy(e, t, bytes);
    ec_mod_mul(c, &c->p, t, e + n, zi);
    memcpy(e + n, t, bytes);
  }
}

/* build writes |rows| rows of |entries| entries of curve |c|'s table to |table|. */
static void build(const ec_curve *c, uint64_t *table, unsigned rows, unsigned entries) {
  const unsigned n = c->limbs; /* at most TABLE_MAX_LIMBS */
  const size_t bytes = n * sizeof(uint64_t);
  const unsigned group_rows = GROUP_POINTS / entries;
  uint64_t z[GROUP_POINTS][TABLE_MAX_LIMBS];
  ec_point base, p;
  ec_point_set_affine(c, &base, c->gx, c->gy);
  for (unsigned r0 = 0; r0 < rows; r0 += group_rows) {
    const unsigned nr = rows - r0 < group_rows ? rows - r0 : group_rows;
    const unsigned count = nr * entries;
    uint64_t *group = table + (size_t)r0 * ROW_WORDS(entries, n);
    for (unsigned r = 0; r < nr; r++) {
      p = base;
      for (unsigned j = 0; j < entries; j++) {
        if (j > 0) ec_point_add(c, &p, &p, &base);
        const unsigned k = r * entries + j;
        memcpy(group + (size_t)k * ENTRY_WORDS(n), p.x, bytes);
        memcpy(group + (size_t)k * ENTRY_WORDS(n) + n, p.y, bytes);
        memcpy(z[k], p.z, bytes);
      }
      ec_point_dbl(c, &base, &p); /* 2 * entries * B: the next row's base */
    }
    /* No z is 0: (j + 1) 2^(w i) G is never the point at infinity, as G's order n is a prime
     * larger than the entries. */
    to_affine(c, group, z, count);
  }
}

/* build_odd writes G, 3G, ..., (2 EC_BASE_ODD - 1) G, affine, to |odd|: (2k + 1) G by complete
 * additions of 2G, made affine GROUP_POINTS at a time. None is the point at infinity (n is a
 * prime larger than 2 EC_BASE_ODD). */
static void build_odd(const ec_curve *c, uint64_t *odd) {
  _Static_assert(EC_BASE_ODD % GROUP_POINTS == 0, "the odd multiples are made affine in groups");
  const unsigned n = c->limbs;
  const size_t bytes = n * sizeof(uint64_t);
  uint64_t z[GROUP_POINTS][TABLE_MAX_LIMBS];
  ec_point g, g2, p;
  ec_point_set_affine(c, &g, c->gx, c->gy);
  ec_point_dbl(c, &g2, &g);
  p = g;
  for (unsigned k = 0; k < EC_BASE_ODD; k++) {
    if (k > 0) ec_point_add(c, &p, &p, &g2);
    memcpy(odd + (size_t)k * ENTRY_WORDS(n), p.x, bytes);
    memcpy(odd + (size_t)k * ENTRY_WORDS(n) + n, p.y, bytes);
    memcpy(z[k % GROUP_POINTS], p.z, bytes);
    if (k % GROUP_POINTS == GROUP_POINTS - 1)
      to_affine(c, odd + (size_t)(k + 1 - GROUP_POINTS) * ENTRY_WORDS(n), z, GROUP_POINTS);
  }
}

/* Set while this thread is inside a table's pthread_once (once_table): a signal handler that
 * interrupts it and asks for a table gets none (its caller takes the generic path) rather than
 * waiting on the once-flag its own thread holds. It covers the whole call, not only the build:
 * the flag is taken before the build starts and marked done after it returns, and a handler
 * that lands in either gap would wait forever too. So does a build that asks for a table. */
static __thread bool tl_building __attribute__((tls_model("initial-exec")));

static void build_p256(void) {
  build(ec_curve_get(FM_EC_P256), g_p256_table, P256_ROWS, 32);
  build_odd(ec_curve_get(FM_EC_P256), g_p256_odd);
}
static void build_p384(void) {
  build(ec_curve_get(FM_EC_P384), g_p384_table, P384_ROWS, 16);
  build_odd(ec_curve_get(FM_EC_P384), g_p384_odd);
}
static void build_p521(void) {
  build(ec_curve_get(FM_EC_P521), g_p521_table, P521_ROWS, 16);
  build_odd(ec_curve_get(FM_EC_P521), g_p521_odd);
}

/* once_table returns |table| once its build (run through |once| on the first call) is done. */
static const uint64_t *once_table(pthread_once_t *once, void (*build_fn)(void),
                                  const uint64_t *table) {
  tl_building = true;
  pthread_once(once, build_fn);
  tl_building = false;
  return table;
}

unsigned ec_base_window(const ec_curve *c) {
  switch (c->id) {
    case FM_EC_P256: return P256_WINDOW;
    case FM_EC_P384:
    case FM_EC_P521: return 5;
    default: return 0;
  }
}

unsigned ec_base_entries(const ec_curve *c) {
  const unsigned w = ec_base_window(c);
  return w == 0 ? 0 : 1u << (w - 1);
}

unsigned ec_base_rows(const ec_curve *c) {
  switch (c->id) {
    case FM_EC_P256: return P256_ROWS;
    case FM_EC_P384: return P384_ROWS;
    case FM_EC_P521: return P521_ROWS;
    default: return 0;
  }
}

const uint64_t *ec_base_table(const ec_curve *c) {
  if (tl_building) return NULL;
  /* The curve's id is public. */
  switch (c->id) {
    case FM_EC_P256: return once_table(&g_p256_once, build_p256, g_p256_table);
    case FM_EC_P384: return once_table(&g_p384_once, build_p384, g_p384_table);
    case FM_EC_P521: return once_table(&g_p521_once, build_p521, g_p521_table);
    default: return NULL;
  }
}

const uint64_t *ec_base_odd(const ec_curve *c) {
  if (ec_base_table(c) == NULL) return NULL; /* builds both on the first use */
  switch (c->id) {
    case FM_EC_P256: return g_p256_odd;
    case FM_EC_P384: return g_p384_odd;
    default: return g_p521_odd;
  }
}
