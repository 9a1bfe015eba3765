#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make bench: the hypercall round-trip baselines later entry-path work must
# beat.  For each build configuration that changes the entry path:
#   - QEMU TCG with -icount shift=0: rdtsc counts instructions retired, so
#     the median difference is an exact hypervisor-side instruction count;
#   - plain TCG: wall-clock TSC cycles, median and spread;
# and the dispatcher's C path compiled natively, timed on this CPU.
# Results go to stdout and build/bench/results.txt.
#
# BENCH_SHORT=1 (make check): every part once, with few iterations; the
# figures and logs go to build/bench/short/ (results.txt) only, so a real
# run's stay; stdout gets one PASS/FAIL line per part, and the exit status
# is non-zero when a part failed.
# It builds nothing but the host-native harness: make check has built the
# configurations and the guests already.
#
# BENCH_PARTS picks what runs (default "core flush-lock linux io
# io-tap"): core is this script's own (round trips, PV MMU, host-native
# dispatcher, lfence counts, guest memory set-up), flush-lock, linux and
# io the scripts it calls (io-tap: io.sh with IO_BENCH_NET=tap), which
# make check runs as jobs of their own.
set -eu
cd "$(dirname "$0")/../.."

parts=" ${BENCH_PARTS:-core flush-lock linux io io-tap} "

short=${BENCH_SHORT:-0}
[ "$short" = 1 ] || short=
# Whatever else stops the script must show as a failure too.
[ -z "$short" ] || trap 'echo "FAIL: bench: tests/bench/run.sh line $LINENO"' ERR
n=${BENCH_ITERATIONS:-${short:+200}}
n=${n:-20000}
n_mmu=${short:+5}
n_mmu=${n_mmu:-200}
host_args=${short:+3 1000}
out=build/bench${short:+/short}
mkdir -p "$out"
res=$out/results.txt
: > "$res"
failed=0

# Full mode: figures to stdout and the results.  Short mode: results only.
say() {
    if [ -n "$short" ]; then echo "$*" >> "$res"; else echo "$*" | tee -a "$res"; fi
}

# One part's verdict: short mode prints it; full mode only complains.
verdict() {     # ok(0/1), what, log
    if [ "$1" = 0 ]; then
        [ -z "$short" ] || echo "PASS: bench: $2"
        return
    fi
    failed=$((failed + 1))
    if [ -n "$short" ]; then
        echo "FAIL: bench: $2 ($3)"
    else
        echo "bench: $2 failed, see $3" >&2
    fi
}

# Boot a bench guest; its "bench:" lines are the figures.  The part
# passes only if the launcher and the guest both report success.
bench_guest() { # what, guest, config, extra qemu args...
    local what=$1 guest=$2 config=$3 log rc=0 gdir=${GUEST_DIR:-build/guests}
    shift 3
    log="$out/$guest${gdir#build/guests}-$config${*// /}${SHIM_CMDLINE:+-$SHIM_CMDLINE}.log"
    tools/pvshim-run "$gdir/$guest.elf" --timeout 300 \
        --shim-dir "build/$config" --guest-cmdline "iterations=$n" \
        --shim-cmdline "${SHIM_CMDLINE:-}" \
        --memory 128M -- "$@" </dev/null >"$log" 2>&1 || rc=$?
    grep -a 'bench: ' "$log" | sed 's/.*(d1) //' | while read -r l; do
        say "$l"
    done
    [ $rc = 0 ] && grep -aq 'Test result: SUCCESS' "$log" || rc=1
    verdict $rc "$what" "$log"
}

if [[ "$parts" = *" core "* ]]; then
    if [ -z "$short" ]; then make -s guests; fi
    say "xen_version(XENVER_version) round trip, $n iterations each"
    say "(Xen 4.23 reference under the same TCG: 316 hypervisor-side"
    say " instructions for 64-bit PV, 262 without speculation mitigations,"
    say " 305 for 32-bit PV; unified = one dispatcher for both widths with a"
    say " run-time 32-bit test, the split entries' \"before\")"
    for config in default no-thunk unified; do
        if [ -z "$short" ]; then make -s CONFIG=$config >/dev/null; fi
        for width in 64 32; do
            gd=build/guests
            [ $width = 64 ] || gd=build/guests32
            [ $width = 64 ] || [ $config != no-thunk ] || continue
            if [ ! -e "$gd/bench-hypercall.elf" ]; then
                [ -z "$short" ] || echo "SKIP: bench: bench-hypercall pv$width (no $gd/bench-hypercall.elf)"
                continue
            fi
            say ""
            say "== CONFIG=$config, pv$width, TCG -icount shift=0 (instructions)"
            GUEST_DIR=$gd bench_guest "bench-hypercall pv$width $config icount" \
                bench-hypercall $config -icount shift=0
            say "== CONFIG=$config, pv$width, TCG -icount shift=0, spec-ctrl=no"
            SHIM_CMDLINE=spec-ctrl=no GUEST_DIR=$gd bench_guest \
                "bench-hypercall pv$width $config icount spec-ctrl=no" \
                bench-hypercall $config -icount shift=0
            say "== CONFIG=$config, pv$width, TCG (TSC cycles)"
            GUEST_DIR=$gd bench_guest "bench-hypercall pv$width $config TCG" \
                bench-hypercall $config
        done
    done

    say ""
    say "PV MMU (instructions, TCG -icount shift=0; totals seen by the guest)"
    for config in default no-thunk; do
        say "== CONFIG=$config"
        n=$n_mmu bench_guest "bench-mmu $config icount" bench-mmu $config \
            -icount shift=0
    done

    say ""
    say "== host-native dispatcher (pv/hypercall.c + pv/version.c), this CPU"
    hostcc="cc -std=gnu11 -O2 -g -Wall -Wextra -Wno-unused-parameter -I. \
        -Ibuild/include -Ibuild/default/include -DSHIM_HOST_TEST \
        -D__XEN_INTERFACE_VERSION__=0x00040e00"

    # Build the harness with extra flags: a stub returning -ENOSYS for every
    # hypercall handler (do_*) it leaves undefined, so new handlers in the
    # dispatcher need no edit of the harness.
    build_host() {  # name, extra cc flags...
        local name=$1
        shift
        $hostcc "$@" -c tests/bench/host-dispatch.c -o "$out/$name.o" &&
        nm -u "$out/$name.o" | awk '$2 ~ /^(do|compat|xlat)_/ { print $2 }' |
            { echo "#include <xen/errno.h>"; while read -r sym; do
                echo "long $sym(void) { return -XEN_ENOSYS; }"
            done; } > "$out/$name-stubs.c" &&
        $hostcc -c "$out/$name-stubs.c" -o "$out/$name-stubs.o" &&
        $hostcc "$out/$name.o" "$out/$name-stubs.o" -o "$out/$name"
    }

    host_bench() {  # label, name, extra cc flags...
        local label=$1 name=$2 rc=0 line=
        shift 2
        if build_host "$name" "$@" >"$out/$name.log" 2>&1; then
            # shellcheck disable=SC2086
            line=$("$out/$name" $host_args 2>>"$out/$name.log") || rc=$?
        else
            rc=1
        fi
        [ -z "$line" ] || say "$(echo "$line" | sed "s/^/$label/")"
        verdict $rc "host-native $name" "$out/$name.log"
    }
    host_bench "split:     " host-dispatch
    host_bench "unified:   " host-dispatch-unified -DCONFIG_UNIFIED_HYPERCALL=1
    host_bench "retpoline: " host-dispatch-retpoline \
        -mindirect-branch=thunk -mindirect-branch-register -fno-jump-tables
    # The split entries against the unified "before" (targets: 15% fewer
    # cycles for pv64, 10% for pv32).
    for w in pv64 pv32; do
        s=$(grep -a "^split: *$w" "$res" | sed 's/.*: \([0-9.]*\) TSC.*/\1/')
        u=$(grep -a "^unified: *$w" "$res" | sed 's/.*: \([0-9.]*\) TSC.*/\1/')
        [ -n "$s" ] && [ -n "$u" ] || continue
        say "$(awk -v s="$s" -v u="$u" -v w="$w" 'BEGIN {
            printf "%s: split %.2f vs unified %.2f cycles: %.1f%% fewer\n",
                   w, s, u, (u - s) * 100 / u }')"
    done

    # The lfences each hypercall path runs, split and unified (the binary).
    say ""
    say "== lfence instructions per hypercall path (tools/lfence-count)"
    for config in default unified; do
        rc=0
        lf=$(tools/lfence-count "build/$config/pvshim-syms" 2>&1 | awk -v c="$config" '
            /^hypercall, / { w = ($2 == "64-bit") ? "pv64" : "pv32" }
            /runs:/ && w != "" { printf "%s %s: %s\n", c, w, $0; w = "" }') || rc=1
        [ -n "$lf" ] || rc=1
        say "$lf"
        verdict $rc "lfence-count $config" "tools/lfence-count build/$config/pvshim-syms"
    done

    # Guest memory set-up: the shim's log time from its frame allocator's
    # first line ("Frames:") to "entering the guest", for a small and a big
    # guest; the difference per GiB is what each GiB of guest memory costs
    # (frame table, M2P, the guest's p2m).  Target: at most 10 ms per GiB.
    mem_setup() {   # memory -> seconds, or nothing
        local log="$out/memory-$1.log"
        tools/pvshim-run build/guests/hello.elf --timeout 300 --memory "$1" \
            </dev/null >"$log" 2>&1 || return 1
        grep -aq 'Test result: SUCCESS' "$log" || return 1
        awk '/\(XEN\)/ { t = $3; sub(/\]/, "", t) }
             /Frames: / { s = t } /entering the guest/ { e = t }
             END { if (s != "" && e != "") printf "%.4f\n", e - s }' "$log"
    }
    big=${short:+4G}
    big=${big:-32G}
    small_s=$(mem_setup 1G) && big_s=$(mem_setup "$big") &&
        [ -n "$small_s" ] && [ -n "$big_s" ]
    rc=$?
    if [ $rc = 0 ]; then
        say ""
        say "== guest memory set-up (shim log, Frames: to entering the guest)"
        say "$(awk -v a="$small_s" -v b="$big_s" -v g="${big%G}" 'BEGIN {
            printf "1 GiB %.1f ms, %d GiB %.1f ms: %.1f ms per GiB (target 10;" \
                   " was 55-70)", a * 1000, g, b * 1000, (b - a) * 1000 / (g - 1)
        }')"
    fi
    verdict $rc "guest memory set-up" "$out/memory-*.log"
fi

# The flush_lock benchmark: the flush-storm guest and Debian's Linux
# running tlb-churn on several vCPUs (its own PASS/FAIL lines in short
# mode; figures in $out/flush-lock.txt).
if [[ "$parts" = *" flush-lock "* ]]; then
    if [ -z "$short" ]; then make -s guests; fi
    tests/bench/flush-lock.sh || failed=$((failed + 1))
fi

# Debian's Linux natively, PVH and on the shim (its own PASS/FAIL lines
# in short mode; figures in $out/linux.txt).
[[ "$parts" != *" linux "* ]] || tests/bench/linux.sh || failed=$((failed + 1))

# Disks and network through the PV backends against the same devices
# natively (its own PASS/FAIL lines in short mode; figures in $out/io.txt).
[[ "$parts" != *" io "* ]] || tests/bench/io.sh || failed=$((failed + 1))
# The same with the NIC on a tap with the virtio header (offloads both
# ways, as a KVM host's), in a network namespace of its own (io-tap.txt).
[[ "$parts" != *" io-tap "* ]] || IO_BENCH_NET=tap tests/bench/io.sh ||
    failed=$((failed + 1))

[ $failed = 0 ] || exit 1
