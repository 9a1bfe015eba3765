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
set -eu
cd "$(dirname "$0")/../.."

n=${BENCH_ITERATIONS:-20000}
out=build/bench
mkdir -p "$out"
res=$out/results.txt
: > "$res"

say() { echo "$*" | tee -a "$res"; }

run_guest() {   # guest, config, extra qemu args...
    local guest=$1 config=$2
    shift 2
    tools/pvshim-run "build/guests/$guest.elf" --timeout 300 \
        --shim-dir "build/$config" --guest-cmdline "iterations=$n" \
        --memory 128M -- "$@" </dev/null 2>&1 |
        tee "$out/$guest-$config${*// /}.log" |
        grep -a 'bench: ' | sed 's/.*(d1) //'
}

make -s guests
say "xen_version(XENVER_version) round trip, $n iterations each"
say "(Xen 4.23 reference under the same TCG: 316 hypervisor-side"
say " instructions for 64-bit PV, 262 without speculation mitigations)"
for config in default no-thunk; do
    make -s CONFIG=$config >/dev/null
    say ""
    say "== CONFIG=$config, TCG -icount shift=0 (instructions)"
    run_guest bench-hypercall $config -icount shift=0 | tee -a "$res"
    say "== CONFIG=$config, TCG (TSC cycles)"
    run_guest bench-hypercall $config | tee -a "$res"
done

say ""
say "PV MMU (instructions, TCG -icount shift=0; totals seen by the guest)"
for config in default no-thunk; do
    say "== CONFIG=$config"
    n=200 run_guest bench-mmu $config -icount shift=0 | tee -a "$res"
done

say ""
say "== host-native dispatcher (pv/hypercall.c + pv/version.c), this CPU"
hostcc="cc -std=gnu11 -O2 -g -Wall -Wextra -Wno-unused-parameter -I. \
    -Ibuild/include -Ibuild/default/include -DSHIM_HOST_TEST \
    -D__XEN_INTERFACE_VERSION__=0x00040e00"
$hostcc tests/bench/host-dispatch.c -o $out/host-dispatch
$hostcc -mindirect-branch=thunk -mindirect-branch-register -fno-jump-tables \
    tests/bench/host-dispatch.c -o $out/host-dispatch-retpoline
say "plain:     $($out/host-dispatch)"
say "retpoline: $($out/host-dispatch-retpoline)"
