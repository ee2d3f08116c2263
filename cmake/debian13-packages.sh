#!/usr/bin/env bash
# Unpacks packages of Debian 13 (trixie) into a folder, on a Debian 12 machine, without installing
# anything: apt-get download through a private sources list (apt's Dir::Etc::SourceList,
# Dir::State::Lists and Dir::Cache point into the folder), then dpkg -x. The system's apt state
# is left as it was. A merged-/usr root also gets its /lib and /lib64 links, so that a program's
# interpreter path (/lib/ld-linux-*.so.*) resolves inside it.
#
# usage: cmake/debian13-packages.sh ARCH DIR PACKAGE...
#   ARCH  a Debian architecture (amd64, arm64); DIR gets DIR/root (the unpacked files) and
#         DIR/apt (lists, cache and the downloaded .deb files)
# Used by bench/openssl35.sh (OpenSSL 3.5's libcrypto for the benchmark peer) and by the aarch64
# runs under qemu-user (Debian 13's glibc: README, "aarch64").
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: $0 ARCH DIR PACKAGE..." >&2; exit 2; }
arch=$1 dir=$2
shift 2
mkdir -p "$dir/apt/lists/partial" "$dir/apt/cache/archives/partial" "$dir/apt/debs" "$dir/root"
echo "deb [arch=$arch signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie main" \
  > "$dir/apt/sources.list"
apt_opts=(-o "Dir::Etc::SourceList=$dir/apt/sources.list" -o "Dir::Etc::SourceParts=/dev/null"
          -o "Dir::State::Lists=$dir/apt/lists" -o "Dir::Cache=$dir/apt/cache"
          -o "APT::Architecture=$arch" -o "APT::Architectures::=$arch"
          -o "APT::Sandbox::User=root")
apt-get "${apt_opts[@]}" update -qq
(cd "$dir/apt/debs" && apt-get "${apt_opts[@]}" download "$@")
for deb in "$dir"/apt/debs/*.deb; do dpkg -x "$deb" "$dir/root"; done
for l in lib lib64; do
  [ -e "$dir/root/$l" ] || [ ! -d "$dir/root/usr/$l" ] || ln -s "usr/$l" "$dir/root/$l"
done
