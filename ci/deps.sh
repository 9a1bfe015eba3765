#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Install the Debian 12 packages pvshim needs to build, run and test, then
# fetch the guests Debian ships as test data into build/ (as files, not
# installed: Linux PV and busybox-static for its initramfs), and build the
# Debian 12 disk image make run boots (tools/make-debian-image: a few
# minutes once, as root; sudo if need be).  Without a network the checks
# that need them skip.  Idempotent, and quiet when everything is already
# there.
set -eu
cd "$(dirname "$0")/.."

# Debian's Linux PV kernel and the busybox initramfs, cached in build/.
fetch_guests() {
    tools/fetch-linux >/dev/null 2>&1 || true
    tools/make-initramfs >/dev/null 2>&1 || true
    tools/make-debian-image --cached >/dev/null 2>&1 ||
        $sudo tools/make-debian-image >/dev/null || true
}

PACKAGES="
    gcc make binutils libc6-dev git clang libclang-rt-14-dev
    libxen-dev multiboot
    qemu-system-x86 qemu-system-data qemu-utils ovmf
    grub-common grub-pc-bin grub-efi-amd64-bin xorriso mtools
    lz4 xz-utils
    mmdebstrap fdisk e2fsprogs
    dpkg-dev debhelper lintian
    gnuplot-nox iperf3
    gdb
    libvirt-daemon-system libvirt-clients qemu-utils
"

sudo=
[ "$(id -u)" = 0 ] || sudo=sudo

missing=
for p in $PACKAGES; do
    dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
        grep -q '^install ok installed$' || missing="$missing $p"
done
if [ -z "$missing" ]; then
    fetch_guests
    exit 0
fi

echo "ci/deps.sh: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
fetch_guests
