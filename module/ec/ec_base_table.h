/* The fixed-base tables of P-256, P-384 and P-521 (ec_base_table.c), for ec_scalar_mul.c and the
 * tests. */
#ifndef FIPSMOD_MODULE_EC_BASE_TABLE_H
#define FIPSMOD_MODULE_EC_BASE_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "module/ec/internal.h"

/* Entries per row: row i, entry j (0 <= j < EC_BASE_ENTRIES) is (j + 1) * 32^i * G. */
#define EC_BASE_ENTRIES 16

/* ec_base_rows is the number of rows of curve |c|'s table: one per signed 5-bit window of a
 * scalar, ceil((bits + 1) / 5), or 0 for a curve without a table (P-224). */
unsigned ec_base_rows(const ec_curve *c);

/* ec_base_table returns curve |c|'s fixed-base table, or NULL for a curve without one (and in a
 * signal handler that interrupted a table's build on its own thread). Row i is
 * the EC_BASE_ENTRIES * 2 * c->limbs words at i * EC_BASE_ENTRIES * 2 * c->limbs: each entry is
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
