#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# GNU Mach on the shim: Debian's Xen kernels of gnumach-image-1.8-xen-486
# (fetched by tools/fetch-gnumach into build/gnumach/), i386 (a 32-bit
# PAE PV kernel) and amd64, unmodified, with the shim's ptwr-l2 (they
# write their page directory directly: docs/command-line.md).  Each must
# print its banner and the hypervisor ABI it runs on, then come to its
# natural end without the Hurd's bootstrap modules ("No bootstrap code
# loaded") and shut down.  One line each:
#
#   PASS: gnumach: i386: banner, memory, devices, no bootstrap modules
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

failed=0
for arch in i386 amd64; do
    abi=x86_32p
    [ $arch = i386 ] || abi=x86_64
    log=build/check/gnumach-$arch.log
    why=
    tools/pvshim-run "$(dirname "$img")/gnumach-$arch.elf" --timeout 120 \
        --shim-cmdline ptwr-l2 </dev/null >"$log" 2>&1
    for want in 'GNU Mach 1\.[0-9]' "Running on xen-3\.0-$abi\." \
                'vm_page: page table size' 'No bootstrap code loaded' \
                'd1: shutdown'; do
        grep -aEq "$want" "$log" || { why="no '$want'"; break; }
    done
    if [ -z "$why" ]; then
        echo "PASS: gnumach: $arch: banner, memory, devices, no bootstrap modules"
    else
        echo "FAIL: gnumach: $arch: $why (console in $log)"
        failed=1
    fi
done
exit $failed
