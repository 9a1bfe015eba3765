#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The shim's boot under KVM's local APIC, in each of its four modes:
# x2APIC or xAPIC, the timer TSC-deadline or one-shot.  QEMU 7.2's TCG
# has only xAPIC with a one-shot timer, so the paths KVM users run (the
# x2APIC MSRs, the TSC-deadline MSR, x2APIC IPIs) run nowhere else in
# make check.  Two vCPUs: each case wants the mode's "APIC:" line, an IPI
# and a TLB flush reaching both CPUs, each CPU's timer firing
# (timer_check_cpus()), and the guest entered.  Then the devices under
# KVM's interrupt delivery, in x2APIC mode: a virtio-blk and an NVMe
# disk and a virtio-net NIC (QEMU user networking, restrict=on), each on
# MSI-X, blk-selftest's I/O (a queue's completion on CPU 1, the MSI
# message naming that CPU's x2APIC ID) and net-selftest's ARP and ICMP.
#
# Where /dev/kvm is PVM (kvm_pvm, a software virtualizer: DESIGN.md) the
# guest itself cannot run: the hello guest's first hypercall (syscall
# from ring 3) never reaches the shim, and its domain crashes there
# (exit status 3), which the case then expects; PVM's instruction
# emulator also lacks CLAC/STAC, so the shim runs with no-smap (and
# no-smep, as XenServer's shims may).  On real KVM the guest must pass.
# Without a usable /dev/kvm: SKIP.  Consoles: build/check/boot/kvm-*.log.
set -u
cd "$(dirname "$0")/../.."

logdir=build/check/boot
mkdir -p "$logdir"
timeout=${BOOT_TIMEOUT:-120}
. tests/boot/lib.sh
hello=build/guests/hello.elf

if ! [ -c /dev/kvm ] || ! [ -w /dev/kvm ]; then
    echo "SKIP: kvm-apic: no usable /dev/kvm"
    exit 0
fi
if [ -d /sys/module/kvm_intel ] || [ -d /sys/module/kvm_amd ]; then
    pvm=
elif [ -d /sys/module/kvm_pvm ]; then
    pvm=1
else
    echo "SKIP: kvm-apic: /dev/kvm is neither kvm_intel, kvm_amd nor kvm_pvm"
    exit 0
fi

# kvm_case NAME CPU APIC TIMER [+REGEX | -REGEX]... [-- SHIM-OPTIONS
# [PVSHIM-RUN-ARGS...]]: boot with -cpu qemu64,CPU under -accel kvm.
# pvshim-run only takes KVM where it is hardware virtualization, so its
# QEMU command line (--dry-run) is run with the accelerator changed.
kvm_case() {
    local name="kvm-apic: $1" cpu=$2 apic=$3 timer=$4
    local log=$logdir/kvm-${1//[^A-Za-z0-9_.-]/_}.log rc why= i
    local args=("$hello" --vcpus 2 --memory 128M --cpu "qemu64,$cpu")
    local want=() line cmd=()
    local opts= pats=()

    shift 4
    while [ $# -gt 0 ] && [ "$1" != -- ]; do pats+=("$1"); shift; done
    [ $# -eq 0 ] || { shift; opts=${1:-}; shift; args+=("$@"); }
    [ -z "$pvm" ] || opts="no-smap no-smep${opts:+ $opts}"
    [ -z "$opts" ] || args+=(--shim-cmdline "$opts")
    line=$(tools/pvshim-run --dry-run "${args[@]}") ||
        { echo "FAIL: $name: pvshim-run --dry-run failed"; return; }
    eval "cmd=($line)"
    for i in "${!cmd[@]}"; do
        [ "${cmd[$i]}" = -accel ] && cmd[i + 1]=kvm
    done
    timeout --foreground -k 5 "$timeout" "${cmd[@]}" </dev/null >"$log" 2>&1
    rc=$?
    # The shim's status as pvshim-run gives it (QEMU exits 2 * status + 3).
    [ $((rc & 1)) = 0 ] || [ $rc -ge 128 ] || [ $rc = 1 ] || rc=$(((rc - 3) / 2))
    mapfile -t want < <(smp_up 2)
    want+=("+APIC: $apic, id 0, timer $timer" "+Dom1: .* entering the guest at"
           "-$smp_broken")
    if [ -n "$pvm" ]; then
        # PVM: the guest's first syscall lands in guest mode, not the shim.
        [ "$rc" = 3 ] || why="exit status $rc, wanted 3 (PVM)"
        want+=("+d1: domain crash: #PF .* with no handler registered")
    else
        [ "$rc" = 0 ] || why="exit status $rc, wanted 0"
        want+=("+\\(d1\\) Test result: SUCCESS")
    fi
    verdict "$name" "$log" "$why" "${want[@]}" "${pats[@]}"
}

kvm_case "x2APIC, TSC-deadline" +x2apic,+tsc-deadline x2APIC TSC-deadline
kvm_case "x2APIC, one-shot" +x2apic,-tsc-deadline x2APIC one-shot
kvm_case "xAPIC, TSC-deadline" -x2apic,+tsc-deadline xAPIC TSC-deadline
kvm_case "xAPIC, one-shot" -x2apic,-tsc-deadline xAPIC one-shot
# The PVH entry (32-bit protected mode, the start info in %ebx) under KVM.
kvm_case "x2APIC, PVH entry" +x2apic,+tsc-deadline x2APIC TSC-deadline \
    "+Booted by pvh" -- "" --boot pvh
make_disk "$logdir/kvm-virtio.img"
make_disk "$logdir/kvm-nvme.img"
kvm_case "x2APIC, virtio-blk, NVMe, virtio-net" +x2apic,+tsc-deadline \
    x2APIC TSC-deadline \
    "+PCI: .* virtio-blk, .* MSI-X" "+PCI: .* NVMe .* MSI-X" \
    "+PCI: .* virtio-net, .* MSI-X" \
    "+blk-selftest: virtio-blk0: queue 1: read from CPU 1, completed on CPU 1" \
    "+blk-selftest: virtio-blk0: passed" \
    "+blk-selftest: nvme0n1: queue 1: read from CPU 1, completed on CPU 1" \
    "+blk-selftest: nvme0n1: passed" "+net-selftest: virtio-net0: passed" \
    "-FAILED" \
    -- "loglvl=all blk-selftest net-selftest" \
    --disk "$logdir/kvm-virtio.img" --disk "$logdir/kvm-nvme.img,if=nvme" \
    --net user
