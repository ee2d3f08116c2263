#!/usr/bin/env bash
# Installs the build tree into a scratch prefix, then builds and runs a tiny consumer against it
# three ways: CMake package (shared and static) and pkg-config.
# Usage: run.sh <build-dir> <consumer-source-dir> <scratch-dir> <c-compiler>
set -euo pipefail
build=$1 src=$2 scratch=$3 cc=$4
rm -rf "$scratch"
mkdir -p "$scratch"
prefix=$scratch/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
libdir=$(find "$prefix" -name libfipsmod.so -printf '%h\n' | head -n1)
test -n "$libdir"

# 1. find_package(fipsmod) -> fipsmod::fipsmod and fipsmod::fipsmod_static
cmake -S "$src" -B "$scratch/cmake-build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc" >/dev/null
cmake --build "$scratch/cmake-build" >/dev/null
LD_LIBRARY_PATH=$libdir "$scratch/cmake-build/consumer_shared"
"$scratch/cmake-build/consumer_static"
# The shared consumer must really use the installed libfipsmod.so. (Not grep -q on a pipe: with
# pipefail, ldd killed by SIGPIPE after an early match would fail the test.)
LD_LIBRARY_PATH=$libdir ldd "$scratch/cmake-build/consumer_shared" > "$scratch/ldd.txt"
grep -q "$libdir/libfipsmod.so" "$scratch/ldd.txt"

# 2. pkg-config
export PKG_CONFIG_PATH=$libdir/pkgconfig
"$cc" -o "$scratch/consumer_pc" "$src/main.c" $(pkg-config --cflags --libs fipsmod)
LD_LIBRARY_PATH=$libdir "$scratch/consumer_pc"
echo "install: 3 consumers built and passed"
