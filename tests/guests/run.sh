#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Boot every PV test kernel in build/guests on the shim under QEMU TCG and
# check its outcome: the launcher's exit status (default 0) and the
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
#
# One "PASS: NAME" / "FAIL: NAME: why" line per test.  GUEST_ACCEL=kvm
# runs them under KVM where the host really has it; GUEST_CPU=MODEL under
# that QEMU CPU model (its name then tags each result); GUEST_SHIM_CMDLINE
# adds shim options to every test (with mm-audit, a failed audit fails it);
# GUEST_VCPUS=N runs on N CPUs (TCG thread=multi, unless
# GUEST_TCG_THREADS=single runs them all on one host thread).
set -u
cd "$(dirname "$0")/../.."

logdir=build/check/guests
mkdir -p "$logdir"
timeout=${GUEST_TIMEOUT:-120}
accel=()
[ -z "${GUEST_ACCEL:-}" ] || accel=(--accel "$GUEST_ACCEL")
tag=
if [ -n "${GUEST_VCPUS:-}" ]; then
    accel+=(--vcpus "$GUEST_VCPUS")     # more than one: TCG thread=multi
    tag=" [smp$GUEST_VCPUS]"
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
    local name=$1 elf=build/guests/$1.elf exp=tests/guests/$1/expect
    local status=0 result=SUCCESS cmdline= logs=() why= rc key val
    local memory=128M
    local extra=()
    local log=$logdir/$name${GUEST_CPU:+-${GUEST_CPU%%,*}}${GUEST_VCPUS:+-smp$GUEST_VCPUS}${GUEST_ACCEL:+-$GUEST_ACCEL}.log

    if [ -r "$exp" ]; then
        while read -r key val; do
            case "$key" in
            status) status=$val; result=none ;;
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
        # An explicit result line wins over the status default.
        grep -q '^result ' "$exp" && result=$(awk '$1=="result"{print $2}' "$exp")
    fi

    # extra after accel: pvshim-run takes the last --vcpus, and min-vcpus
    # must win over a smaller GUEST_VCPUS.
    tools/pvshim-run "$elf" --timeout "$timeout" --memory "$memory" \
        --shim-cmdline "$cmdline ${GUEST_SHIM_CMDLINE:-}" "${accel[@]}" \
        "${extra[@]}" \
        </dev/null >"$log" 2>&1
    rc=$?
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

for elf in build/guests/*.elf; do
    [ -e "$elf" ] || continue
    name=$(basename "$elf" .elf)
    [ -d "tests/guests/$name" ] && run_one "$name"
done
