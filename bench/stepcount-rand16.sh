#!/bin/sh
# Instructions per fm_rand_bytes(16) on the path the CPU really takes, counted by single-stepping
# three calls in gdb (after 2500 warm-up calls). callgrind-rand16.sh counts under valgrind, whose
# CPU model lacks VAES and AVX-512, so it sees the AES-NI path only; this counts the native one.
# A hardware breakpoint is used: a software one would change the module's code, which its
# integrity test and its fork probe's child would notice. One call's count leaves out the reseed
# every 4096 calls, which callgrind-rand16.sh includes.
#
# usage: bench/stepcount-rand16.sh [BUILD_DIR]      (default: build)
set -eu
BUILD_DIR=${1:-build}
PROG=$BUILD_DIR/bench/fipsmod-bench-rand16
[ -x "$PROG" ] || { echo "no $PROG: build the fipsmod-bench-rand16 target first" >&2; exit 1; }
command -v gdb >/dev/null || { echo "gdb is not installed" >&2; exit 1; }
script=$(mktemp --suffix=.py)
trap 'rm -f "$script"' EXIT
cat > "$script" <<'PY'
import gdb
gdb.execute("set pagination off")
gdb.execute("starti fipsmod 3000 >/dev/null")
gdb.execute("hbreak fm_rand_bytes")
gdb.execute("ignore 1 2500")
gdb.execute("continue", to_string=True)
counts = []
for _ in range(3):
    sp0 = int(gdb.parse_and_eval("$sp"))
    n = 0
    while True:
        gdb.execute("stepi", to_string=True)
        n += 1
        if int(gdb.parse_and_eval("$sp")) > sp0:
            break
    counts.append(n)
    gdb.execute("continue", to_string=True)
print("fm_rand_bytes(16): instructions per call, three calls:", " ".join(map(str, counts)))
gdb.execute("kill")
PY
echo "module paths: $("$PROG" paths)"
gdb -q -batch -x "$script" "$PROG" 2>&1 | grep "instructions per call"
