#!/bin/sh
# Instructions per call of a hash, HMAC or KDF service, counted by valgrind's callgrind.
#
# usage: bench/callgrind-hash.sh [BUILD_DIR] [OP SIZE ...]
#   default: sha256 16, sha512 16, hmac256 16, hmac512 16, hkdf 32, pbkdf2 1000 (iterations)
#
# It runs bench/fipsmod-bench-hashcall (built with fipsmod-speed) twice per operation under
# callgrind, with N1 and N2 calls after the same warm-up, and divides the difference of the two
# totals by N2 - N1, so that process start-up and the self-tests cancel. valgrind emulates no
# SHA-NI: the count is of the path the module takes under valgrind (portable SHA-256, AVX2
# SHA-512; the first line says which).
set -eu
BUILD_DIR=${1:-build}
[ $# -gt 0 ] && shift
PROG=$BUILD_DIR/bench/fipsmod-bench-hashcall
if [ ! -x "$PROG" ]; then
  echo "no $PROG: build the fipsmod-bench-hashcall target first" >&2
  exit 1
fi
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 1; }
[ $# -gt 0 ] || set -- sha256 16 sha512 16 hmac256 16 hmac512 16 hkdf 32 pbkdf2 1000

instructions() {
  log=$(mktemp)
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$PROG" "$1" "$2" "$3" 2>"$log" || {
    cat "$log" >&2; rm -f "$log"; exit 1; }
  count=$(sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
  rm -f "$log"
  [ -n "$count" ] || { echo "no instruction count from callgrind" >&2; exit 1; }
  echo "$count"
}

while [ $# -ge 2 ]; do
  op=$1 size=$2
  shift 2
  case $op in pbkdf2*) n1=20 n2=120 ;; *) n1=1000 n2=3000 ;; esac
  a=$(instructions "$op" "$n1" "$size")
  b=$(instructions "$op" "$n2" "$size")
  echo "$op $size: $(( (b - a) / (n2 - n1) )) instructions per call"
done
