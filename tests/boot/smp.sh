#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# SMP boot tests: the shim brings up every CPU QEMU gives it (the MADT's
# count, "Brought up N CPUs", an IPI answered by each), under TCG both
# multi-threaded and single-threaded, on every boot path's firmware,
# each CPU's APIC timer firing,
# limited by maxcpus= and nosmp, and the guest on CPU 0 still passes.
# One "PASS: name" / "FAIL: name: why" line per case; consoles in
# build/check/boot/smp-*.log.
set -u
cd "$(dirname "$0")/../.."

logdir=build/check/boot
mkdir -p "$logdir"
timeout=${BOOT_TIMEOUT:-120}
. tests/boot/lib.sh
hello=build/guests/hello.elf
ok='\(d1\) Test result: SUCCESS'
clean='Shutting down the VM, exit status 0'

# expect NAME [+REGEX | -REGEX]... -- PVSHIM-RUN-ARGS...: exit status 0.
expect() {
    local name="smp: $1" log=$logdir/smp-${1//[^A-Za-z0-9_.-]/_}.log
    local pats=() why= rc
    shift
    while [ $# -gt 0 ] && [ "$1" != -- ]; do pats+=("$1"); shift; done
    shift

    tools/pvshim-run --timeout "$timeout" "$@" </dev/null >"$log" 2>&1
    rc=$?
    [ "$rc" = 0 ] || why="exit status $rc, wanted 0"
    verdict "$name" "$log" "$why" "${pats[@]}" "-$smp_broken"
}

for n in 1 2 4 8; do
    mapfile -t want < <(smp_up $n)
    expect "-smp $n" "${want[@]}" "+$ok" "+$clean" -- "$hello" --vcpus $n
done
mapfile -t want < <(smp_up 4)
expect "-smp 4, single-threaded TCG" "${want[@]}" "+$ok" \
    -- "$hello" --vcpus 4 --tcg-threads single
mapfile -t want < <(smp_up 64)
expect "-smp 64, thread=multi" "${want[@]}" "+$ok" \
    -- "$hello" --vcpus 64
# The lock-free flush design reaches every CPU as Xen's does.
for n in 8 64; do
    mapfile -t want < <(smp_up $n)
    expect "-smp $n, no-flush-lock" "${want[@]}" "+$ok" \
        -- "$hello" --vcpus $n --shim-cmdline "no-flush-lock"
done
# APIC IDs with a gap: QEMU numbers 2 sockets of 3 cores 0-2 and 4-6.
mapfile -t want < <(smp_up 6)
expect "-smp 6 as 2 sockets x 3 cores (APIC IDs 0-2, 4-6)" "${want[@]}" \
    "+Booting processor 3/4 eip [0-9a-f]+" "+Booting processor 5/6 eip" \
    "+$ok" -- "$hello" --vcpus 6 --shim-cmdline "loglvl=all" \
    -- -smp 6,sockets=2,cores=3,threads=1

# A guest with 64 vCPUs: the flush-storm guest brings every one up (32 and
# up with their vcpu_info registered), each going down again at once.
expect "-smp 64: the guest brings all 64 vCPUs up" \
    "+flush-storm: brought up 64 vCPUs" "+$ok" \
    -- build/guests/flush-storm.elf --vcpus 64 --guest-cmdline "bringup=1"

# Xen's limits: maxcpus= counts CPU 0; nosmp (and maxcpus=0) is CPU 0 alone.
expect "maxcpus=2 of 8" "+ACPI: MADT: 8 CPUs" "+Brought up 2 CPUs" \
    "+SMP: 6 CPU\(s\) not brought up \(maxcpus=2\)" \
    "+SMP: an IPI reached each of the 2 CPUs" "+$ok" \
    -- "$hello" --vcpus 8 --shim-cmdline "maxcpus=2"
expect "nosmp" "+Brought up 1 CPUs" \
    "+SMP: 3 CPU\(s\) not brought up \(nosmp\)" "+$ok" \
    -- "$hello" --vcpus 4 --shim-cmdline "nosmp"
expect "maxcpus=0" "+Brought up 1 CPUs" "+$ok" \
    -- "$hello" --vcpus 4 --shim-cmdline "maxcpus=0"

# Other firmware (SeaBIOS under GRUB starts the APs itself first), PVH, a
# debug build, SMEP and SMAP on each CPU, and a guest whose vCPU blocks,
# halting CPU 0 until its timer interrupt, while the others idle.
mapfile -t want < <(smp_up 4)
expect "-smp 4, grub-bios" "${want[@]}" "+$ok" \
    -- "$hello" --vcpus 4 --boot grub-bios
expect "-smp 4, pvh" "${want[@]}" "+$ok" -- "$hello" --vcpus 4 --boot pvh
expect "-smp 4, debug build, EPYC" "${want[@]}" "+SMEP on, SMAP on" "+$ok" \
    -- "$hello" --vcpus 4 --shim-dir build/debug --cpu EPYC
expect "-smp 8, sched-block guest" "+Brought up 8 CPUs" "+$ok" \
    -- build/guests/sched-block.elf --vcpus 8 --memory 128M
