#!/usr/bin/env bash
# Runs fipsmod-speed against OpenSSL 3.5 on Debian 12, whose own libcrypto is OpenSSL 3.0 (no
# ML-KEM or ML-DSA): Debian 13's libcrypto (libssl3t64) and the C library it needs (libc6) are
# unpacked into the work folder by cmake/debian13-packages.sh, and a copy of fipsmod-speed is
# pointed at that loader and libcrypto with patchelf. The system is left as it was: nothing is
# installed, no apt state outside the work folder changes.
#
# usage: bench/openssl35.sh [--build DIR] [--work DIR] [fipsmod-speed options...]
#   --build DIR  the build folder holding bench/fipsmod-speed and libfipsmod.so (build/release)
#   --work DIR   where the packages, the unpacked files and the patched copy go
#                (DIR/openssl35 under the build folder by default; kept for the next run)
# Everything after these is passed to fipsmod-speed, for example:
#   bench/openssl35.sh -filter ML-KEM,ML-DSA -timeout 1
# Needs: apt-get (Debian's archive reachable), dpkg, patchelf (apt-get install patchelf).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build="$here/../build/release"
work=""
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build="$2"; shift 2 ;;
    --work) work="$2"; shift 2 ;;
    *) break ;;
  esac
done
build=$(cd "$build" && pwd)
[ -n "$work" ] || work="$build/openssl35"
speed="$build/bench/fipsmod-speed"
[ -x "$speed" ] || { echo "openssl35.sh: $speed not built (cmake --build $build --target fipsmod-speed)" >&2; exit 2; }
command -v patchelf >/dev/null || { echo "openssl35.sh: patchelf is missing (apt-get install patchelf)" >&2; exit 2; }

root="$work/root"
lib="$root/usr/lib/x86_64-linux-gnu"
if [ ! -e "$lib/libcrypto.so.3" ] || [ ! -e "$lib/ld-linux-x86-64.so.2" ]; then
  "$here/../cmake/debian13-packages.sh" amd64 "$work" libssl3t64 libc6
fi

copy="$work/fipsmod-speed-openssl35"
cp "$speed" "$copy"
# The copy finds libfipsmod.so in the build folder, libcrypto and libc in Debian 13's, and the
# rest (libuuid, zlib, zstd) in the system's.
patchelf --set-interpreter "$lib/ld-linux-x86-64.so.2" \
  --set-rpath "$lib:$build:/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu" "$copy"
version=$(grep -a -o -m1 'OpenSSL 3\.[0-9]*\.[0-9]* [0-9]* [A-Z][a-z]* [0-9]*' "$lib/libcrypto.so.3" | head -1 || true)
echo "openssl35.sh: peer libcrypto ${version:-(version unknown)} from $lib"
exec "$copy" "$@"
