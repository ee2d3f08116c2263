/* The fixed-base tables of P-256, P-384 and P-521 (ec_base_table.c), for ec_scalar_mul.c and the
 * tests. */
#ifndef FIPSMOD_MODULE_EC_BASE_TABLE_H
#define FIPSMOD_MODULE_EC_BASE_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "module/ec/internal.h"

/* A table has one row per signed w-bit window of a scalar: row i, entry j (0 <= j < 2^(w-1)) is
 * (j + 1) * 2^(w i) * G. w is 6 on P-256 (32 entries a row) and 5 on P-384 and P-521 (16), the
 * curves' widths being public. */
#define EC_BASE_MAX_ENTRIES 32

/* ec_base_window is w for curve |c|'s table, or 0 for a curve without one (P-224). */
unsigned ec_base_window(const ec_curve *c);

/* ec_base_entries is the number of entries in a row of curve |c|'s table, 2^(w-1) (0 without
 * a table). */
unsigned ec_base_entries(const ec_curve *c);

/* ec_base_rows is the number of rows of curve |c|'s table: one per signed w-bit window of a
 * scalar, ceil((bits + 1) / w), or 0 for a curve without a table (P-224). */
unsigned ec_base_rows(const ec_curve *c);

/* ec_base_table returns curve |c|'s fixed-base table, or NULL for a curve without one (and in a
 * signal handler that interrupted a table's build on its own thread). Row i is the
 * ec_base_entries(c) * 2 * c->limbs words from i times that: each entry is
 * its point's affine x, then y, Montgomery form, limbs least significant first. The tables are
 * public (multiples of the generator). They live in .bss and are computed from G with the
 * module's own group law on the first call for their curve (pthread_once: a caller that comes
 * meanwhile waits, and every caller sees the finished table); later calls only read them. */
const uint64_t *ec_base_table(const ec_curve *c);

/* ec_base_odd returns the odd multiples G, 3G, ..., (2 EC_BASE_ODD - 1) G of curve |c|, affine,
 * Montgomery form, x then y per entry as in the table above (entry k is (2k + 1) G), or NULL
 * where ec_base_table gives NULL. Built and kept with the table (public, .bss, first use), for
 * the width-9 NAF of ECDSA verification's u1. */
#define EC_BASE_ODD 128
const uint64_t *ec_base_odd(const ec_curve *c);

#endif
