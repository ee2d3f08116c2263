/* fipsmod-speed-bn: the Montgomery benchmarks (mont-setup-consttime, modexp-consttime), which
 * time module internals and so link the module's internal static library instead of
 * libfipsmod.so. fipsmod-speed starts it with its own options plus -rows FILE, through which the
 * rows come back for its -json output; it also runs on its own (then -json works as usual). */
#define _GNU_SOURCE
#include <stdio.h>

#include "bench/bench.h"
#include "bench/bench_ops.h"
#include "fipsmod/module.h"

int main(int argc, char **argv) {
  const char *rows = NULL;
  int parsed = bench_parse_args(argc, argv, "fipsmod-speed-bn", "-rows", &rows);
  if (parsed != 0) return parsed > 0 ? 0 : 2;
  if (fm_module_state() != FM_STATE_OPERATIONAL) {
    fprintf(stderr, "fipsmod-speed-bn: the module is not OPERATIONAL\n");
    return 1;
  }
  bench_bn();
  if (rows != NULL && bench_rows_write_plain(rows) != 0) return 1;
  return bench_write_json() == 0 ? 0 : 1;
}
