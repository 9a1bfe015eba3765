#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# PV GRUB booting Linux on the shim: tools/make-pvgrub-linux's image
# (Debian's GRUB 2 for x86_64-xen, unpatched, with Debian's Linux, the
# busybox initramfs and a grub.cfg in its memdisk) is the PV kernel the
# shim starts; GRUB's Xen loader loads Linux and its initrd, builds their
# page tables, maps them read-only (update_va_mapping), switches to them
# (mmuext_op: pin, NEW_BASEPTR, unpin its own) and jumps to Linux, which
# must then go as far as tests/boot/linux.sh takes Debian's Linux booted
# directly (same milestones, same shell steps, LINUX_EXPECT as there).
# Linux must have been started by GRUB: GRUB's banner and its "booting"
# marker come before Linux's first line.
# linux.sh's variables apply (LINUX_VCPUS=N, LINUX_EXPECT, LINUX_LOG,
# LINUX_LABEL, ...).  One line:
#
#   PASS: pvgrub-linux: reached MILESTONE (wanted at least EXPECTED) ...
#   FAIL: pvgrub-linux: ...       (console in build/check/pvgrub-linux.log)
#   SKIP: pvgrub-linux: no image (...)   no network, no package lists
set -u
cd "$(dirname "$0")/../.." || exit 1

log=${LINUX_LOG:-build/check/pvgrub-linux.log}
label=${LINUX_LABEL:-pvgrub-linux}
mkdir -p build/check

img=$(tools/make-pvgrub-linux 2>build/check/pvgrub-linux-build.log)
case $? in
0) ;;
2) echo "SKIP: $label: no image" \
        "($(tail -n1 build/check/pvgrub-linux-build.log))"
   exit 0 ;;
*) echo "FAIL: $label: tools/make-pvgrub-linux failed" \
        "(build/check/pvgrub-linux-build.log)"
   exit 1 ;;
esac

# The initrd is in GRUB's memdisk, so the shim gets no module but GRUB.
out=$(LINUX_KERNEL=$img LINUX_INITRD=none LINUX_LOG=$log LINUX_LABEL=$label \
      tests/boot/linux.sh 2>&1)

# line_of REGEX: the first console line matching it, or nothing.
line_of() { grep -anE -m1 -- "$1" "$log" | cut -d: -f1; }
why=
grub=$(line_of 'Welcome to GRUB')
booting=$(line_of 'pvgrub: booting')
banner=$(line_of 'Linux version [0-9]')
if [ -z "$grub" ]; then
    why="GRUB did not start"
elif [ -z "$booting" ]; then
    why="GRUB did not load Linux and its initrd"
elif [ -n "$banner" ] && [ "$banner" -lt "$booting" ]; then
    why="Linux's banner came before GRUB's boot"
fi

case $out in
PASS:*)
    if [ -n "$why" ]; then
        echo "FAIL: $label: $why, yet ${out#PASS: $label: } (console: $log)"
        exit 1
    fi
    echo "$out" ;;
*)  echo "$out"
    [ -z "$why" ] || echo "    | $why"
    case $out in SKIP:*) exit 0 ;; esac
    exit 1 ;;
esac
