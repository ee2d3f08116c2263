#!/usr/bin/env bash
# Installs the build tree into a scratch prefix, then builds and runs consumers against it:
#  1. CMake package: C (shared and static), C++17 -pedantic, and a program that defines its own
#     bn_add/sha256_blocks/hmac_ctx_init beside the static archive;
#  2. pkg-config: fipsmod (shared, C and C++; with --static, the archive) and fipsmod-static (the
#     archive alone), the archive links with no .so dependency;
#  3. the installed programs find the installed library without LD_LIBRARY_PATH.
# Usage: run.sh <build-dir> <consumer-source-dir> <scratch-dir> <c-compiler> [<c++-compiler>]
set -euo pipefail
build=$1 src=$2 scratch=$3 cc=$4 cxx=${5:-${CXX:-g++}}
rm -rf "$scratch"
mkdir -p "$scratch"
prefix=$scratch/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
libdir=$(find "$prefix" -name libfipsmod.so -printf '%h\n' | head -n1)
test -n "$libdir"
# Nothing below may find the library through the environment.
unset LD_LIBRARY_PATH

# no_shared_fipsmod BIN: BIN does not depend on libfipsmod.so at all.
no_shared_fipsmod() {
  readelf -d "$1" > "$scratch/dyn.txt"
  if grep 'NEEDED' "$scratch/dyn.txt" | grep -q 'libfipsmod'; then
    echo "install: $1 depends on libfipsmod.so" >&2
    exit 1
  fi
}

# 1. find_package(fipsmod) -> fipsmod::fipsmod and fipsmod::fipsmod_static
cmake -S "$src" -B "$scratch/cmake-build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc" \
  -DCMAKE_CXX_COMPILER="$cxx" >/dev/null
cmake --build "$scratch/cmake-build" >/dev/null
LD_LIBRARY_PATH=$libdir "$scratch/cmake-build/consumer_shared"
"$scratch/cmake-build/consumer_static"
no_shared_fipsmod "$scratch/cmake-build/consumer_static"
LD_LIBRARY_PATH=$libdir "$scratch/cmake-build/consumer_cxx"
"$scratch/cmake-build/consumer_clash"
no_shared_fipsmod "$scratch/cmake-build/consumer_clash"
# The shared consumer must really use the installed libfipsmod.so. (Not grep -q on a pipe: with
# pipefail, ldd killed by SIGPIPE after an early match would fail the test.)
LD_LIBRARY_PATH=$libdir ldd "$scratch/cmake-build/consumer_shared" > "$scratch/ldd.txt"
grep -q "$libdir/libfipsmod.so" "$scratch/ldd.txt"

# 2. pkg-config
export PKG_CONFIG_PATH=$libdir/pkgconfig
test "$(pkg-config --modversion fipsmod)" = "$(pkg-config --modversion fipsmod-static)"
"$cc" -o "$scratch/consumer_pc" "$src/main.c" $(pkg-config --cflags --libs fipsmod)
LD_LIBRARY_PATH=$libdir "$scratch/consumer_pc"
"$cxx" -std=c++17 -Wall -Wextra -Werror -pedantic -o "$scratch/consumer_pc_cxx" "$src/main.cpp" \
  $(pkg-config --cflags --libs fipsmod)
LD_LIBRARY_PATH=$libdir "$scratch/consumer_pc_cxx"
# The archive: no libfipsmod.so dependency, and it runs without any library path.
"$cc" -o "$scratch/consumer_pc_static" "$src/main.c" $(pkg-config --static --cflags --libs fipsmod-static)
no_shared_fipsmod "$scratch/consumer_pc_static"
ldd "$scratch/consumer_pc_static" > "$scratch/ldd-static.txt"
if grep -q 'libfipsmod' "$scratch/ldd-static.txt"; then
  echo "install: the pkg-config static consumer loads libfipsmod.so" >&2
  exit 1
fi
"$scratch/consumer_pc_static"
"$cc" -o "$scratch/consumer_pc_clash" "$src/clash.c" $(pkg-config --static --cflags --libs fipsmod-static)
# --static on fipsmod itself links the archive too, and the shared link still records the .so.
"$cc" -o "$scratch/consumer_pc_static2" "$src/main.c" $(pkg-config --static --cflags --libs fipsmod)
no_shared_fipsmod "$scratch/consumer_pc_static2"
if ldd "$scratch/consumer_pc_static2" | grep -q 'libfipsmod'; then
  echo "install: pkg-config --static --libs fipsmod gives a program that loads libfipsmod.so" >&2
  exit 1
fi
"$scratch/consumer_pc_static2"
"$cc" -o "$scratch/consumer_pc_clash2" "$src/clash.c" $(pkg-config --static --cflags --libs fipsmod)
"$scratch/consumer_pc_clash2"
readelf -d "$scratch/consumer_pc" | grep 'NEEDED' | grep -q 'libfipsmod\.so' || {
  echo "install: pkg-config --libs fipsmod gives a program with no libfipsmod.so dependency" >&2
  exit 1
}
"$scratch/consumer_pc_clash"

# 3. Installed programs: RUNPATH $ORIGIN/../<libdir>, and bin/fipsmod runs its self-tests (the
# installed library is OPERATIONAL: install changed nothing its integrity MAC covers).
bindir=$prefix/bin
for prog in "$bindir/fipsmod" "$bindir/fipsmod-speed"; do
  [ -e "$prog" ] || { [ "$prog" = "$bindir/fipsmod-speed" ] && [ ! -e "$build/bench" ] && continue; }
  readelf -d "$prog" > "$scratch/dyn.txt"
  grep -q 'R.*PATH.*\$ORIGIN/\.\./' "$scratch/dyn.txt" || { echo "install: $prog has no \$ORIGIN RUNPATH" >&2; exit 1; }
  # ldd prints the RUNPATH-built name (bin/../lib/libfipsmod.so.N): compare canonical paths.
  ldd "$prog" > "$scratch/ldd-prog.txt"
  found=$(awk '$1 ~ /^libfipsmod\.so/ && $2 == "=>" { print $3 }' "$scratch/ldd-prog.txt")
  if [ -z "$found" ] || [ "$(realpath "$(dirname "$found")")" != "$(realpath "$libdir")" ]; then
    echo "install: $prog does not find $libdir/libfipsmod.so:" >&2
    cat "$scratch/ldd-prog.txt" >&2
    exit 1
  fi
done
"$bindir/fipsmod" selftest > "$scratch/selftest.txt"
echo "install: 9 consumers built and passed; bin/fipsmod selftest ran without LD_LIBRARY_PATH"
