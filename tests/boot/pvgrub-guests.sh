#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# PV GRUB starting our test kernels, both widths: tools/make-pvgrub makes
# a 32-bit (i386-xen) and a 64-bit (x86_64-xen) PV GRUB from Debian's
# grub-xen-bin, each with one test kernel of its width in its memdisk.
# The shim starts GRUB; GRUB's Xen loader builds the kernel's domain
# state itself (its own bootstrap page tables, start_info, relocation:
# mmu_update, mmuext_op, update_va_mapping from a third-party kernel, the
# 32-bit one through the compat ABI) and jumps to it.  The test kernel
# must then pass as when the shim builds it, with mm-audit recounting the
# frame table after every MMU hypercall.  One line each:
#
#   PASS: pvgrub-guests: i386: pae-rules
#   FAIL: pvgrub-guests: x86_64: hello: ...  (console in build/check/pvgrub-guests/)
#   SKIP: pvgrub-guests: no image (...)      no network, no package lists
#
# The kernels are ones that check the domain they find rather than the
# shim builder's exact layout: start-info, uvm, mm-hostile and mmu-update
# look for the builder's free L2 slot above the kernel, m2p for its p2m
# order, and GRUB lays the domain out otherwise, as it does on Xen.
set -u
cd "$(dirname "$0")/../.." || exit 1

kernels=(
    i386 pae-rules
    i386 mmuext-pin
    i386 ptwr
    i386 grant-map
    i386 evtchn-ops
    i386 xenstore-basic
    i386 timers
    x86_64 hello
    x86_64 mmuext-pin
    x86_64 ptwr
    x86_64 grant-map
    x86_64 xenstore-basic
)

logs=build/check/pvgrub-guests
mkdir -p "$logs" build/pvgrub-guests || exit 1
failed=0
for ((i = 0; i < ${#kernels[@]}; i += 2)); do
    arch=${kernels[i]} name=${kernels[i + 1]}
    guests=build/guests
    [ $arch = i386 ] && guests=build/guests32
    label="pvgrub-guests: $arch: $name"
    log=$logs/$arch-$name.log
    img=build/pvgrub-guests/$arch-$name.elf
    if [ ! -r "$guests/$name.elf" ]; then
        echo "FAIL: $label: no $guests/$name.elf (make guests)"
        failed=1
        continue
    fi
    tools/make-pvgrub $arch "$img" "$guests/$name.elf" -- console=hvc0 \
        2>"$logs/make-pvgrub.log"
    case $? in
    0) ;;
    2) echo "SKIP: pvgrub-guests: no image ($(tail -n1 "$logs/make-pvgrub.log"))"
       exit 0 ;;
    *) echo "FAIL: $label: tools/make-pvgrub failed ($logs/make-pvgrub.log)"
       failed=1
       continue ;;
    esac
    tools/pvshim-run "$img" --memory 256M --timeout 120 \
        --shim-cmdline mm-audit </dev/null >"$log" 2>&1
    rc=$?
    why=
    for want in 'pvgrub: booting' '\(d1\) Test result: SUCCESS' \
                'd1: shutdown: poweroff' 'mm audit: OK'; do
        grep -aEq "$want" "$log" || { why="no '$want'"; break; }
    done
    [ -n "$why" ] || [ $rc = 0 ] || why="exit status $rc, wanted 0"
    if [ -z "$why" ]; then
        echo "PASS: $label"
    else
        echo "FAIL: $label: $why (console in $log)"
        failed=1
    fi
done
exit $failed
