#!/usr/bin/env bash
# Prepares this x86-64 Debian 12 machine to run the aarch64 cross build's whole test suite under
# qemu-user (README, "aarch64"):
#  - DIR/root gets Debian 13's glibc for arm64 (cmake/debian13-packages.sh): under qemu-user,
#    Debian 12's glibc 2.36 never returns from fork() in the child of a dynamically linked
#    program (it loops in its stack-list walk), and 2.41's does;
#  - qemu-aarch64 is registered with binfmt_misc (as root, or through sudo), so that a test
#    program that starts another aarch64 program with execve (itself, with other arguments) runs
#    it under qemu too. An existing registration is kept.
# Then configure with -DFIPSMOD_QEMU_SYSROOT=DIR/root.
#
# usage: cmake/aarch64-qemu-setup.sh DIR
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 DIR" >&2; exit 2; }
dir=$1
here=$(cd "$(dirname "$0")" && pwd)
if [ ! -e "$dir/root/lib/ld-linux-aarch64.so.1" ]; then
  "$here/debian13-packages.sh" arm64 "$dir" libc6
fi

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
binfmt=/proc/sys/fs/binfmt_misc
if [ ! -e "$binfmt/register" ]; then
  $sudo mount -t binfmt_misc binfmt_misc "$binfmt"
fi
if [ ! -e "$binfmt/qemu-aarch64" ]; then
  qemu=$(command -v qemu-aarch64 || command -v qemu-aarch64-static)
  # ELF64, little-endian, ET_EXEC or ET_DYN, EM_AARCH64 (183).
  magic='\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00'
  mask='\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff'
  echo ":qemu-aarch64:M::$magic:$mask:$qemu:" | $sudo tee "$binfmt/register" >/dev/null
fi
echo "aarch64-qemu-setup: guest root $dir/root; binfmt: $(head -2 "$binfmt/qemu-aarch64" | tr '\n' ' ')"
