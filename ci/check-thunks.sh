#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The PV MMU's hot paths (validation, pin/unpin, entry updates, the
# page-type state machine) must make no indirect call even in a
# retpoline build: their iterators are always_inline, so each handler is a
# direct call.  Check the built objects of CONFIG=default (retpolines on)
# for any call or jump through an indirect-branch thunk; one line per
# object: "PASS: thunks: <obj>" or "FAIL: ...".
set -u
cd "$(dirname "$0")/.."

build=${1:-build/default}
for o in pv/mm/validate.o pv/mm/frame-table.o pv/mm/guest-flush.o \
         pv/mm/mm-update.o pv/mm/page-type.o pv/mm/mmu-hypercalls.o \
         pv/mm/mmuext.o; do
    obj=$build/$o
    if [ ! -e "$obj" ]; then
        echo "FAIL: thunks: $o: not built"
        continue
    fi
    hits=$(objdump -dr "$obj" | awk '
        /^[0-9a-f]+ <.*>:$/ { fn = $2 }
        /__x86_indirect_thunk/ { print fn }' | sort -u | tr '\n' ' ')
    if [ -z "$hits" ]; then
        echo "PASS: thunks: $o has no indirect-branch thunk call"
    else
        echo "FAIL: thunks: $o calls a thunk in $hits"
    fi
done
