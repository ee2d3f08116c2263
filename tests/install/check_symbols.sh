#!/usr/bin/env bash
# Checks the ABI surface of the built libraries (README, "ABI and versions"):
#  - every symbol libfipsmod.so defines in its dynamic symbol table is fm_-prefixed and carries
#    a version node of ABI major 0, FIPSMOD_0 or FIPSMOD_0.<minor> (readelf and objdump both
#    read, so neither tool's format is trusted alone); the only other entries allowed are the
#    version nodes' own ABS symbols;
#  - libfipsmod.a defines no global symbol outside fm_/fipsmod_ (its internals are local).
# Usage: check_symbols.sh <libfipsmod.so> <libfipsmod.a>
set -euo pipefail
so=$1 archive=$2
# The binutils of the library's machine (a cross build passes its own).
READELF=${READELF:-readelf} OBJDUMP=${OBJDUMP:-objdump} NM=${NM:-nm}
fail=0

# readelf --dyn-syms -W: Num: Value Size Type Bind Vis Ndx Name[@@version]
"$READELF" --dyn-syms -W "$so" | awk '
  $1 ~ /^[0-9]+:$/ && $7 != "UND" && $5 != "LOCAL" {
    n++
    # a version node: "FIPSMOD_0.3" (GNU readelf) or "FIPSMOD_0.3@@FIPSMOD_0.3" (llvm-readelf)
    if ($8 ~ /^FIPSMOD_0(\.[0-9]+)?(@@FIPSMOD_0(\.[0-9]+)?)?$/ && $7 == "ABS") next
    if ($8 !~ /^fm_[A-Za-z0-9_]+@@FIPSMOD_0(\.[0-9]+)?$/) { print "readelf: bad export: " $8; bad++ }
  }
  END { if (n < 10) { print "readelf: only " n+0 " exports found"; bad++ } exit bad > 0 }' || fail=1

# objdump -T: ... section  size  version  name; defined entries have a section other than *UND*.
"$OBJDUMP" -T "$so" | awk '
  NF >= 6 && $0 ~ /^[0-9a-f]+ / && $0 !~ /\*UND\*/ {
    name = $NF; ver = $(NF-1)
    if (name ~ /^FIPSMOD_0(\.[0-9]+)?$/ && $0 ~ /\*ABS\*/) next
    if ($2 == "l") next  # a local section symbol (aarch64 ld puts .init and .data in .dynsym)
    n++
    if (name !~ /^fm_/ || ver !~ /^FIPSMOD_0(\.[0-9]+)?$/) { print "objdump: bad export: " ver " " name; bad++ }
  }
  END { if (n < 10) { print "objdump: only " n+0 " exports found"; bad++ } exit bad > 0 }' || fail=1

# nm -g --defined-only: "value type name" for every defined global of every member.
"$NM" -g --defined-only "$archive" | awk '
  NF == 3 {
    n++
    if ($3 !~ /^(fm_|fipsmod_)/) { print "nm: the archive defines " $3; bad++ }
  }
  END { if (n < 10) { print "nm: only " n+0 " globals found"; bad++ } exit bad > 0 }' || fail=1

if [ "$fail" -ne 0 ]; then
  echo "install-symbols: FAILED" >&2
  exit 1
fi
echo "install-symbols: every export of $(basename "$so") is fm_*@@FIPSMOD_0[.minor]; $(basename "$archive") defines only fm_/fipsmod_"
