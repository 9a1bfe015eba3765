#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Boot every PV test kernel in build/guests (64-bit) or, with
# GUEST_WIDTH=32, build/guests32 (32-bit PAE) on the shim under QEMU TCG
# and check its outcome: the launcher's exit status (default 0) and the
# "Test result:" line (default SUCCESS), as tests/guests/NAME/expect says:
#
#   status N          exit status of tools/pvshim-run (3: guest crashed)
#   result WORD       SUCCESS, SKIP, ...; "result none": no result line
#   shim-cmdline STR  extra shim options
#   guest-cmdline STR the guest kernel's command line
#   initrd FILE       a second module
#   log REGEX         a console line that must appear (may repeat)
#   memory SIZE       the VM's memory (default 128M)
#   min-vcpus N       run on at least N CPUs (--vcpus), whatever GUEST_VCPUS
#   pv64-only WHY     no 32-bit kernel (guests.mk builds none): its subject
#                     exists for 64-bit guests only
#   pv64: KEY VAL     a setting for the 64-bit kernel only
#   pv32: KEY VAL     a setting for the 32-bit kernel only
#
# One "PASS: NAME" / "FAIL: NAME: why" line per test; with GUEST_WIDTH=32
# each is tagged [pv32], a pv64-only test is a "SKIP: NAME" saying why,
# and so is every test while the shim refuses 32-bit kernels (its builder
# logs that it doesn't support them yet).  GUEST_ACCEL=kvm
# runs them under KVM where the host really has it; GUEST_CPU=MODEL under
# that QEMU CPU model (its name then tags each result); GUEST_SHIM_CMDLINE
# adds shim options to every test (with mm-audit, a failed audit fails it);
# GUEST_SHIM_DIR=DIR boots the shim built there (default build/default);
# GUEST_VCPUS=N runs on N CPUs (TCG thread=multi, unless
# GUEST_TCG_THREADS=single runs them all on one host thread).
# Arguments, if any, name the tests to run (default: all).
set -u
cd "$(dirname "$0")/../.."

logdir=build/check/guests
mkdir -p "$logdir"
timeout=${GUEST_TIMEOUT:-120}
width=${GUEST_WIDTH:-64}
case "$width" in
64) elfdir=build/guests; tag= ;;
32) elfdir=build/guests32; tag=" [pv32]" ;;
*) echo "run.sh: GUEST_WIDTH is 64 or 32, not '$width'" >&2; exit 2 ;;
esac
# What the shim logs when its builder stops at a 32-bit kernel.
no_compat='guest kernel refused: 32-bit PAE \(compat\) guests are not supported yet'
accel=()
[ -z "${GUEST_ACCEL:-}" ] || accel=(--accel "$GUEST_ACCEL")
[ -z "${GUEST_SHIM_DIR:-}" ] || accel+=(--shim-dir "$GUEST_SHIM_DIR")
if [ -n "${GUEST_VCPUS:-}" ]; then
    accel+=(--vcpus "$GUEST_VCPUS")     # more than one: TCG thread=multi
    tag="$tag [smp$GUEST_VCPUS]"
fi
if [ -n "${GUEST_TCG_THREADS:-}" ]; then
    accel+=(--tcg-threads "$GUEST_TCG_THREADS")
    tag="$tag [tcg-$GUEST_TCG_THREADS]"
fi
if [ -n "${GUEST_ACCEL:-}" ]; then
    tag="$tag [$GUEST_ACCEL]"
fi
if [ -n "${GUEST_CPU:-}" ]; then
    accel+=(--cpu "$GUEST_CPU")
    tag="$tag [${GUEST_CPU%%,*}]"
fi

run_one() {
    local name=$1 elf=$elfdir/$1.elf exp=tests/guests/$1/expect
    local status=0 result= status_set= cmdline= logs=() why= rc key val
    local memory=128M
    local extra=()
    local log=$logdir/$name${width/64/}${GUEST_CPU:+-${GUEST_CPU%%,*}}${GUEST_VCPUS:+-smp$GUEST_VCPUS}${GUEST_ACCEL:+-$GUEST_ACCEL}.log

    if [ -r "$exp" ]; then
        while read -r key val; do
            # "pv64: KEY VAL" / "pv32: KEY VAL": for that width only.
            case "$key" in
            pv64:|pv32:)
                [ "$key" = "pv$width:" ] || continue
                read -r key val <<< "$val" ;;
            esac
            case "$key" in
            status) status=$val; status_set=1 ;;
            result) result=$val ;;
            shim-cmdline) cmdline=$val ;;
            guest-cmdline) extra+=(--guest-cmdline "$val") ;;
            initrd) extra+=(--initrd "$val") ;;
            log) logs+=("$val") ;;
            memory) memory=$val ;;
            min-vcpus) [ "${GUEST_VCPUS:-1}" -ge "$val" ] ||
                           extra+=(--vcpus "$val") ;;
            esac
        done < "$exp"
    fi
    # An explicit result line wins over the status default (none).
    [ -n "$result" ] || result=${status_set:+none}
    [ -n "$result" ] || result=SUCCESS

    # extra after accel: pvshim-run takes the last --vcpus, and min-vcpus
    # must win over a smaller GUEST_VCPUS.
    tools/pvshim-run "$elf" --timeout "$timeout" --memory "$memory" \
        --shim-cmdline "$cmdline ${GUEST_SHIM_CMDLINE:-}" "${accel[@]}" \
        "${extra[@]}" \
        </dev/null >"$log" 2>&1
    rc=$?
    if [ "$width" = 32 ] && grep -aqE "$no_compat" "$log"; then
        echo "SKIP: guest: $name$tag: the shim refuses 32-bit PAE guests" \
             "(console: $log)"
        return
    fi
    [ "$rc" = "$status" ] || why="exit status $rc, wanted $status"
    if [ "$result" = none ]; then
        ! grep -aq 'Test result:' "$log" ||
            why="${why:+$why; }unexpected $(grep -a -o 'Test result: .*' "$log")"
    elif ! grep -aq "Test result: $result\b" "$log"; then
        why="${why:+$why; }no 'Test result: $result'"
    fi
    for val in "${logs[@]}"; do
        grep -aqE -- "$val" "$log" || why="${why:+$why; }no line matches '$val'"
    done
    # Whatever the guest did, the shim must not have faulted or panicked,
    # nor its frame table gone inconsistent.
    ! grep -aqE 'Panic on CPU|FATAL TRAP' "$log" ||
        why="${why:+$why; }the shim itself failed"
    ! grep -aq 'mm audit: FAILED' "$log" ||
        why="${why:+$why; }the frame table audit failed"

    if [ -z "$why" ]; then
        echo "PASS: guest: $name$tag"
    else
        echo "FAIL: guest: $name$tag: $why (console: $log)"
        grep -a -E '\(d1\)|d1:' "$log" | tail -n 12 | sed 's/^/    | /'
    fi
}

# only NAME: run it (no argument: run every test).
only() {
    [ $# -eq 1 ] && return 0
    local want=$1; shift
    for n; do [ "$n" = "$want" ] && return 0; done
    return 1
}
for elf in "$elfdir"/*.elf; do
    [ -e "$elf" ] || continue
    name=$(basename "$elf" .elf)
    only "$name" "$@" || continue
    [ -d "tests/guests/$name" ] && run_one "$name"
done
# The tests guests.mk builds no 32-bit kernel of, and why.
if [ "$width" = 32 ]; then
    for exp in tests/guests/*/expect; do
        why=$(awk '$1=="pv64-only"{$1=""; sub(/^ /, ""); print; exit}' "$exp")
        [ -n "$why" ] || continue
        name=$(basename "$(dirname "$exp")")
        only "$name" "$@" || continue
        echo "SKIP: guest: $name$tag: pv64-only: $why"
    done
fi
