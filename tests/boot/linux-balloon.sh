#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The host's balloon: the VM has a virtio-balloon device and the host
# asks for memory back through QEMU's monitor (`balloon MIB`, what
# libvirt's `virsh setmem` does), as `xl mem-set` asks a PV guest on Xen.
# Debian's Linux (tools/initramfs/init, pvshim_balloon=1) must follow the
# target the shim writes to its xenstore (xen-balloon: current_kb down to
# the target the shim logs), QEMU must then see the memory as given
# (`info balloon`: actual = the size asked for); the guest raising its
# own target gets no more than 1 MiB past the host's (the shim lowered
# its maximum reservation, as libxl does); the host giving the memory
# back brings the guest to its first size, whose pages then hold what is
# written to them; and the guest powers off with the shim's status 0.
# LINUX_BALLOON_VCPUS (1), LINUX_BALLOON_SHIM_DIR (build/default) and
# LINUX_BALLOON_BASE (the logs' names) vary it.
#
#   PASS: linux: the host's balloon (...)
#   FAIL: linux: the host's balloon: why (console: ...)
#   SKIP: linux: the host's balloon: no kernel or initramfs (no network)
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/boot/lib.sh     # watched_boot, linux_initrd

label="linux: the host's balloon"
kernel=${LINUX_KERNEL:-build/linux/vmlinux}
base=${LINUX_BALLOON_BASE:-build/check/linux-balloon}   # (parallel runs: one each)
log=$base.log mon=$base-monitor
vm_mib=512 low_mib=432
mkdir -p build/check

linux_initrd "$label"

why=
fail() { why="${why:+$why; }$*"; }
has() { grep -aqE -- "$2" "$1" 2>/dev/null; }
# say LINE: a line to the guest's console.
say() { timeout 10 bash -c 'echo "$1" >"$2"' _ "$1" "$log.in"; }
# monitor LINE: a line to QEMU's monitor.
monitor() { timeout 10 bash -c 'echo "$1" >"$2"' _ "$1" "$mon.in"; }
# The shim's 'b' key (the backends and the balloon) into the log.
shim_b() {
    local k
    for k in $'\001' $'\001' $'\001' b $'\001' $'\001' $'\001'; do
        timeout 10 bash -c 'printf "%s" "$1" >"$2"' _ "$k" "$log.in"
        sleep 0.3
    done
}
# The guest's balloon sizes as it last showed them: "CURRENT TARGET".
sizes() {
    sed -n 's/^pvshim-balloon: [a-z]* current \([0-9]*\) target \([0-9]*\).*/\1 \2/p' \
        "$log" | tail -n1
}
# The VM's size in MiB as QEMU's monitor last said it.
actual() {
    sed -n 's/.*balloon: actual=\([0-9]*\).*/\1/p' "$mon.log" | tail -n1
}
# The guest's target the shim last wrote, in KiB.
shim_target() {
    sed -n 's/.*d1: memory target \([0-9]*\) KiB.*/\1/p' "$log" | tail -n1
}
# until_ok SECONDS COMMAND...: run COMMAND each second until it succeeds.
until_ok() {
    local end=$((SECONDS + $1))
    shift
    until "$@"; do
        kill -0 $pid 2>/dev/null && [ $SECONDS -lt $end ] || return 1
        sleep 1
    done
}
# Each asks the guest and QEMU again, then checks what they said last.
guest_at() {            # guest_at MAX_KB MIN_KB: current within them
    local s
    say show
    sleep 1
    s=$(sizes)
    [ -n "$s" ] && [ "${s% *}" -le "$1" ] && [ "${s% *}" -ge "$2" ]
}
qemu_at() {             # qemu_at MIB
    monitor "info balloon"
    sleep 0.5
    [ "$(actual)" = "$1" ]
}

rm -f "$mon.in" "$mon.out"
mkfifo "$mon.in" "$mon.out" || exit 1
# Emptied here, not by the jobs below: the waits that follow must never
# find a line of the last run's.
: >"$mon.log"
: >"$log"
cat "$mon.out" >"$mon.log" &
watched_boot "$log" 280 \
    tools/pvshim-run --shim-dir "${LINUX_BALLOON_SHIM_DIR:-build/default}" \
    "$kernel" --initrd "$initrd" --memory ${vm_mib}M \
    --vcpus "${LINUX_BALLOON_VCPUS:-1}" \
    --timeout 300 --guest-cmdline "console=hvc0 pvshim_balloon=1" -- \
    -device virtio-balloon-pci \
    -chardev "pipe,id=mon,path=$mon" -mon chardev=mon &
pid=$!

start=
if ! until_ok 200 has "$log" '^pvshim-balloon: start current'; then
    fail "the guest did not start"
else
    start=$(sizes)
    start=${start% *}
    has "$log" 'PCI: .* virtio-balloon' || fail "the shim found no balloon"
    # Down: the shim's target for the host's wish, the guest at it.
    monitor "balloon $low_mib"
    until_ok 30 has "$log" 'd1: memory target' ||
        fail "the shim wrote no target"
    t=$(shim_target)
    if [ -n "$t" ]; then
        until_ok 90 guest_at "$t" 0 ||
            fail "the guest did not come down to $t KiB ($(sizes))"
    fi
    until_ok 60 qemu_at $low_mib ||
        fail "QEMU's balloon is at $(actual) MiB, not $low_mib"
    shim_b
    # The guest wants its memory back: no more than 1 MiB past the target.
    say "raise $start"
    until_ok 20 has "$log" '^pvshim-balloon: raised' ||
        fail "the guest could not raise its target"
    sleep 5
    [ -z "$t" ] || guest_at $((t + 1024)) 0 ||
        fail "the guest took more than its maximum ($(sizes), target $t)"
    qemu_at $low_mib || fail "the host lost memory it had ($(actual) MiB)"
    # Up again: all of it back, and usable.
    monitor "balloon $vm_mib"
    until_ok 60 qemu_at $vm_mib ||
        fail "QEMU's balloon is at $(actual) MiB, not $vm_mib"
    until_ok 90 guest_at "$start" "$start" ||
        fail "the guest did not come back to $start KiB ($(sizes))"
    say "touch 100"
    until_ok 120 has "$log" '^pvshim-balloon: touched 100 MiB' ||
        fail "the guest could not fill 100 MiB"
    ! has "$log" 'MISMATCH' || fail "the guest's memory read back wrong"
    say off
fi
wait $pid
rc=$?

[ "$rc" = 0 ] || fail "exit status $rc"
! has "$log" 'Panic on CPU|FATAL TRAP' || fail "the shim itself failed"
has "$log" '^pvshim-balloon: bad dmesg lines 0' || fail "dmesg has bad lines"

if [ -z "$why" ]; then
    echo "PASS: $label (${start:-?} KiB, down to ${t:-?} KiB for" \
         "$low_mib MiB of $vm_mib, a raise held, back, 100 MiB written)"
else
    echo "FAIL: $label: $why (console: $log)"
    tail -n 15 "$log" | sed 's/^/    | /'
fi
