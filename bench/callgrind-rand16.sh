#!/bin/sh
# Instructions per 16-byte random draw, counted by valgrind's callgrind: fm_rand_bytes(16) in
# libfipsmod.so and, for comparison, OpenSSL's RAND_bytes(16).
#
# usage: bench/callgrind-rand16.sh [BUILD_DIR]      (default: build)
#
# It runs bench/fipsmod-bench-rand16 (built with fipsmod-speed) twice per implementation under
# callgrind, with N1 and N2 draws after the same 1000-draw warm-up, and divides the difference of
# the two instruction totals by N2 - N1: process start-up, the module's power-on self-tests and the
# first-use DRBG set-up cancel, while reseeds (every 4096 generate calls) stay in at their real
# rate. Under valgrind the CPU features seen are valgrind's (it emulates no AVX-512), so the module
# may take a different AES path than it does natively; the count is of the path it took.
set -eu
BUILD_DIR=${1:-build}
PROG=$BUILD_DIR/bench/fipsmod-bench-rand16
N1=${N1:-2000}
N2=${N2:-22000}
if [ ! -x "$PROG" ]; then
  echo "no $PROG: build the fipsmod-bench-rand16 target first" >&2
  exit 1
fi
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 1; }

# instructions IMPL N prints the total instruction count of one run.
instructions() {
  log=$(mktemp)
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$PROG" "$1" "$2" 2>"$log" || {
    cat "$log" >&2; rm -f "$log"; exit 1; }
  count=$(sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
  rm -f "$log"
  [ -n "$count" ] || { echo "no instruction count from callgrind" >&2; exit 1; }
  echo "$count"
}

echo "module paths under valgrind: $(valgrind -q "$PROG" paths 2>/dev/null)"
echo "module paths natively:       $("$PROG" paths)"
for impl in fipsmod openssl; do
  a=$(instructions $impl "$N1")
  b=$(instructions $impl "$N2")
  per=$(( (b - a) / (N2 - N1) ))
  case $impl in
    fipsmod) name="fm_rand_bytes(16)";;
    *) name="RAND_bytes(16)";;
  esac
  echo "$name: $per instructions per call ($a instructions for $N1 calls, $b for $N2)"
done
