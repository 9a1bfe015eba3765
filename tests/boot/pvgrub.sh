#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# PV GRUB on the shim: Debian's grub-x86_64-xen.bin and grub-i386-xen.bin
# (grub-xen-host, fetched by tools/fetch-pvgrub into build/pvgrub/: a
# 64-bit and a 32-bit PAE PV kernel), unmodified, each boot to its prompt
# (it looks for its config and disks through xenstore, draws on the
# console ring), run a command typed on the serial console, read a file
# and the md5sum of another (256 KiB) from an ext2 disk made here, which
# the shim's block backend serves it as xvda (GRUB's own Xen disk driver:
# a third party's blkfront, in the 32-bit ring ABI for the i386 one), and
# power the domain off with `halt`.  One line each:
#
#   PASS: pvgrub: x86_64: prompt, command, a disk read, halt
#   FAIL: pvgrub: i386: ...            (console in build/check/pvgrub-i386.log)
#   SKIP: pvgrub: no image (...)       no network, no package lists
set -u
cd "$(dirname "$0")/../.." || exit 1

mkdir -p build/check
fifo=build/check/pvgrub.in

img=$(tools/fetch-pvgrub 2>build/check/pvgrub-fetch.log)
case $? in
0) ;;
2) echo "SKIP: pvgrub: no image ($(tail -n1 build/check/pvgrub-fetch.log))"
   exit 0 ;;
*) echo "FAIL: pvgrub: tools/fetch-pvgrub failed (build/check/pvgrub-fetch.log)"
   exit 1 ;;
esac

# The disk: an ext2 file system (mke2fs -d, no root or loop device) with
# a line to cat and a blob to md5sum, both new each run.
disk=build/check/pvgrub-disk.img dir=build/check/pvgrub-disk
command -v mke2fs >/dev/null ||
    { echo "FAIL: pvgrub: no mke2fs (e2fsprogs)"; exit 1; }
rm -rf "$dir" "$disk"
mkdir -p "$dir"
line="pvshim-disk-$$-$RANDOM"
echo "$line" >"$dir/hello.txt"
head -c 262144 /dev/urandom >"$dir/blob"
blobsum=$(md5sum <"$dir/blob" | cut -d' ' -f1)
mke2fs -q -F -t ext2 -d "$dir" "$disk" 4M >build/check/pvgrub-mke2fs.log 2>&1 ||
    { echo "FAIL: pvgrub: mke2fs failed (build/check/pvgrub-mke2fs.log)"; exit 1; }

# One image: boot, prompt, a command, the disk, halt.
run_one() {     # arch image
    local arch=$1 img=$2 log=build/check/pvgrub-$1.log label="pvgrub: $1"
    local pid why rc proto=x86_64-abi

    [ "$arch" = i386 ] && proto=x86_32-abi
    rm -f "$fifo"
    mkfifo "$fifo" || return 1
    : >"$log"   # not the last run's: the job below empties it only once it runs
    tools/pvshim-run "$img" --timeout 180 --disk "$disk,ro" \
        <"$fifo" >"$log" 2>&1 &
    pid=$!
    exec 3>"$fifo"

    # wait_for REGEX SECONDS: the console shows REGEX before the deadline.
    wait_for() {
        local end=$((SECONDS + $2))

        while [ $SECONDS -lt $end ] && kill -0 $pid 2>/dev/null; do
            grep -aEq "$1" "$log" && return 0
            sleep 0.2
        done
        grep -aEq "$1" "$log"
    }

    why=
    if ! wait_for 'grub> ' 90; then
        why="no grub> prompt"
    else
        # Built by GRUB's own variable expansion, so the echo of the typed
        # line (which shows ${x}) can't match.
        printf 'set x=pvshim\r' >&3
        sleep 0.5
        printf 'echo ${x}-grub-ok\r' >&3
        if ! wait_for '(^|[^{])pvshim-grub-ok' 60; then
            why="the typed command gave no output"
        elif printf 'cat (xen/xvda)/hello.txt\r' >&3 &&
             ! wait_for "$line" 60; then
            why="no $line from (xen/xvda)/hello.txt"
        elif printf 'md5sum (xen/xvda)/blob\r' >&3 &&
             ! wait_for "$blobsum  \(xen/xvda\)/blob" 90; then
            why="no md5sum $blobsum of (xen/xvda)/blob"
        elif ! grep -aq "blkback: xvda: connected, protocol $proto" "$log"; then
            why="the disk not connected with protocol $proto"
        else
            printf 'halt\r' >&3
            wait $pid
            rc=$?
            pid=
            [ $rc = 0 ] || why="exit status $rc after halt, wanted 0"
            grep -aq 'd1: shutdown: poweroff' "$log" ||
                why="${why:+$why; }no poweroff"
        fi
    fi
    exec 3>&-
    [ -z "$pid" ] || { kill $pid 2>/dev/null; wait $pid 2>/dev/null; }
    rm -f "$fifo"
    if [ -z "$why" ]; then
        echo "PASS: $label: prompt, command, a disk read ($proto), halt"
    else
        echo "FAIL: $label: $why (console in $log)"
        return 1
    fi
}

failed=0
for arch in x86_64 i386; do
    run_one $arch "$(dirname "$img")/grub-$arch-xen.bin" || failed=1
done
[ $failed = 1 ] || rm -rf "$dir" "$disk"
exit $failed
