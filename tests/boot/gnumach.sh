#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# GNU Mach on the shim: Debian's Xen kernels of gnumach-image-1.8-xen-486
# (fetched by tools/fetch-gnumach into build/gnumach/), i386 (a 32-bit
# PAE PV kernel) and amd64, unmodified, with the shim's ptwr-l2 (they
# write their page directory directly: docs/command-line.md).  Each must
# print its banner and the hypervisor ABI it runs on, then come to its
# natural end without the Hurd's bootstrap modules ("No bootstrap code
# loaded") and shut down.  On the way its own Xen drivers (xen/block.c,
# xen/net.c: a third party's blkfront and netfront, which write no
# protocol node (the toolstack's, the guest's width, stands) and wait for
# the backend's states in their own order)
# must connect to the shim's backends: a writable and a read-only disk,
# a CD-ROM and a NIC, each named as GNU Mach names what it found.  Without the
# option, the i386 kernel's store must fault as on Xen, and the shim's
# log name the option.  One line each:
#
#   PASS: gnumach: i386: banner, memory, devices, three disks and a NIC, no bootstrap modules
#   FAIL: gnumach: amd64: ...          (console in build/check/gnumach-amd64.log)
#   SKIP: gnumach: no image (...)      no network, no package lists
set -u
cd "$(dirname "$0")/../.." || exit 1

mkdir -p build/check
img=$(tools/fetch-gnumach 2>build/check/gnumach-fetch.log)
case $? in
0) ;;
2) echo "SKIP: gnumach: no image ($(tail -n1 build/check/gnumach-fetch.log))"
   exit 0 ;;
*) echo "FAIL: gnumach: tools/fetch-gnumach failed (build/check/gnumach-fetch.log)"
   exit 1 ;;
esac

# Three disks (the second read-only, the third a CD-ROM) and a NIC for its
# drivers to find.
disk0=build/check/gnumach-xvda.img disk1=build/check/gnumach-xvdb.img
disk2=build/check/gnumach-xvdc.img
rm -f "$disk0" "$disk1" "$disk2"
truncate -s 64M "$disk0" && truncate -s 8M "$disk1" &&
    truncate -s 4M "$disk2" || exit 1

failed=0
for arch in i386 amd64; do
    abi=x86_32p proto=x86_32
    [ $arch = i386 ] || abi=x86_64 proto=x86_64
    log=build/check/gnumach-$arch.log
    why=
    tools/pvshim-run "$(dirname "$img")/gnumach-$arch.elf" --timeout 120 \
        --shim-cmdline ptwr-l2 --disk "$disk0" --disk "$disk1,ro" \
        --disk "$disk2,cdrom" \
        --net user </dev/null >"$log" 2>&1
    for want in 'GNU Mach 1\.[0-9]' "Running on xen-3\.0-$abi\." \
                'vm_page: page table size' \
                "blkback: xvda: connected, protocol $proto-abi" \
                "blkback: xvdb: connected, protocol $proto-abi" \
                "xvd0: dom0's VBD 51712 \(virtio-blk0,w\) 64MB" \
                "xvd1: dom0's VBD 51728 \(virtio-blk1,r\) 8MB" \
                "xvd2: dom0's VBD 51744 \(virtio-blk2,r, cdrom\) 4MB" \
                "eth0: dom0's VIF 0 52:54:00:12:34:56" \
                'netback: vif1\.0: connected, 1 queue' \
                'No bootstrap code loaded' 'd1: shutdown'; do
        grep -aEq "$want" "$log" || { why="no '$want'"; break; }
    done
    if [ -z "$why" ]; then
        echo "PASS: gnumach: $arch: banner, memory, devices, three disks and a NIC, no bootstrap modules"
    else
        echo "FAIL: gnumach: $arch: $why (console in $log)"
        failed=1
    fi
done
# Without the option, Xen's rule: the store is the kernel's own #PF (it
# dies before its console is up), and the shim says once what it was.
log=build/check/gnumach-i386-default.log
tools/pvshim-run "$(dirname "$img")/gnumach-i386.elf" --timeout 120 \
    </dev/null >"$log" 2>&1
hint='d1: kernel write to its L2 page table at [0-9a-f]+ .*ptwr-l2 would emulate it'
if ! grep -aEq "$hint" "$log"; then
    echo "FAIL: gnumach: i386 without ptwr-l2: no hint naming the option (console in $log)"
    failed=1
elif grep -aEq 'GNU Mach 1\.[0-9]' "$log"; then
    echo "FAIL: gnumach: i386 without ptwr-l2: it went on, Xen's rule not kept (console in $log)"
    failed=1
else
    echo "PASS: gnumach: i386 without ptwr-l2: its L2 store faults, the log names the option"
fi
exit $failed
