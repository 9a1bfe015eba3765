#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The whole VM migrated while its PV guest works, as a cloud moves a VM
# between hosts or libvirt saves and restores one: QEMU's own migration,
# which knows nothing of the shim inside.  Debian's Linux on two vCPUs
# (TCG multi; LINUX_MIGRATE_VCPUS, LINUX_MIGRATE_TCG=single|multi) with
# xen-blkfront over a virtio-blk disk and xen-netfront over virtio-net
# (tools/initramfs/init, pvshim_migrate=1) writes and reads back rounds
# of 1 MiB with O_DIRECT.  Once three rounds are done, the first QEMU is
# stopped wherever it is, migrates to a file through its monitor
# (`stop`, `migrate -d`: not live, see below), and quits; a second QEMU
# with the same command line takes the file (`-incoming`) and goes on:
# the rounds continue from where they were, every one read back as
# written, across both QEMUs, no boot happens again, the gateway answers
# a ping, and after a line on the console the guest prints the md5sum of
# the disk's first 8 MiB, which the image file has, and powers off with
# the shim's status 0.
#
#   PASS: linux: migrated with its disk busy (...)
#   FAIL: linux: migrated ...: why (console: ...)
#   SKIP: linux: migrated ...: no kernel or initramfs (no network)
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/boot/lib.sh     # watched_boot, linux_initrd

label="linux: migrated with its disk busy"
kernel=${LINUX_KERNEL:-build/linux/vmlinux}
base=${LINUX_MIGRATE_BASE:-build/check/linux-migrate}   # (parallel runs: one each)
img=$base.img state=$base.state
mkdir -p build/check

linux_initrd "$label" xen-blkfront xen-netfront

why=
fail() { why="${why:+$why; }$*"; }
rm -f "$img" "$state"
truncate -s 16M "$img" || exit 1

# has LOG REGEX: a line of LOG matches.
has() { grep -aqE -- "$2" "$1" 2>/dev/null; }
# until_has SECONDS PID LOG REGEX: wait for the line while PID lives.
until_has() {
    local end=$((SECONDS + $1))
    until has "$3" "$4"; do
        kill -0 "$2" 2>/dev/null && [ $SECONDS -lt $end ] || return 1
        sleep 0.5
    done
}
# The last round LOG says was read back.
last_round() {
    sed -n 's/^pvshim-migrate: round \([0-9]*\) ok.*/\1/p' "$1" | tail -n1
}

# boot NAME EXTRA...: one QEMU with its monitor on a pipe pair
# ($base-NAME-monitor.in/.out, drained into .log), in the background;
# its console in $base-NAME.log.
boot() {
    local name=$1 mon=$base-$1-monitor
    shift
    rm -f "$mon.in" "$mon.out"
    mkfifo "$mon.in" "$mon.out" || exit 1
    # Emptied here, not by the jobs below: the waits that follow must
    # never find a line of the last run's (it once found "round 3 ok"
    # there and migrated a VM that had not started).
    : >"$mon.log"
    : >"$base-$name.log"
    cat "$mon.out" >"$mon.log" &
    watched_boot "$base-$name.log" 280 \
        tools/pvshim-run "$kernel" --initrd "$initrd" --memory 256M \
        --timeout 300 --vcpus ${LINUX_MIGRATE_VCPUS:-2} ${LINUX_MIGRATE_TCG:+--tcg-threads $LINUX_MIGRATE_TCG} --net user \
        --guest-cmdline "console=hvc0 pvshim_migrate=1" --disk "$img" -- \
        -chardev "pipe,id=mon,path=$mon" -mon chardev=mon "$@" &
}
# monitor NAME COMMAND: a line to that QEMU's monitor (bounded: with no
# QEMU left to read the pipe, opening it would wait for ever).
monitor() {
    timeout 10 bash -c 'echo "$1" >"$2"' _ "$2" "$base-$1-monitor.in"
}

boot a
a=$!
if ! until_has 200 $a "$base-a.log" '^pvshim-migrate: round 3 ok'; then
    fail "the first QEMU did no three rounds"
else
    # Stopped first: QEMU before 9.0 loses pages the vCPUs write while
    # TCG migrates a running VM (its commit 03bfc2188f, "physmem: Fix
    # migration dirty bitmap coherency with TCG memory access": stale
    # virtqueue indexes, stale stacks), which no guest could survive.
    # The shim can't tell the two apart: requests in flight at the stop
    # are carried over either way.
    monitor a stop
    monitor a "migrate -d \"exec:cat >$state\""
    end=$((SECONDS + 120))
    until has "$base-a-monitor.log" 'Migration status: (completed|failed)'; do
        [ $SECONDS -lt $end ] || break
        monitor a "info migrate"
        sleep 1
    done
    has "$base-a-monitor.log" 'Migration status: completed' ||
        fail "the migration did not complete ($base-a-monitor.log)"
fi
monitor a quit
wait $a
! has "$base-a.log" 'Panic on CPU|FATAL TRAP|MISMATCH' ||
    fail "the first QEMU's console has a failure"
before=$(last_round "$base-a.log")

if [ -z "$why" ]; then
    boot b -incoming "exec:cat $state"
    b=$!
    # The VM arrives stopped, as it left: on once it has arrived.
    end=$((SECONDS + 120))
    until has "$base-b-monitor.log" 'VM status: paused'; do
        kill -0 $b 2>/dev/null && [ $SECONDS -lt $end ] || break
        monitor b "info status"
        sleep 1
    done
    monitor b cont
    # A round the second QEMU finished, then the line that ends them.
    next='^pvshim-migrate: round ([0-9]+) ok'
    until_has 120 $b "$base-b.log" "$next" ||
        fail "no round after the migration"
    timeout 10 bash -c 'echo >"$1"' _ "$base-b.log.in"
    wait $b
    rc=$?
    [ "$rc" = 0 ] || fail "the second QEMU's exit status $rc"
    log=$base-b.log
    ! has "$log" 'Panic on CPU|FATAL TRAP' || fail "the shim itself failed"
    ! has "$log" 'MISMATCH' || fail "a round read back wrong"
    ! has "$log" 'pvshim [0-9a-f]+ .* starting|Linux version' ||
        fail "the second QEMU booted again instead of going on"
    first=$(sed -n 's/^pvshim-migrate: round \([0-9]*\) .*/\1/p' "$log" |
            head -n1)
    after=$(last_round "$log")
    [ -n "$first" ] && [ -n "$before" ] && [ "$first" = $((before + 1)) ] ||
        fail "the rounds did not go on from ${before:-none} (next ${first:-none})"
    has "$log" '^pvshim-migrate: ping ok' || fail "the gateway did not answer"
    guest=$(sed -n 's/^pvshim-migrate: md5 \([0-9a-f]*\).*/\1/p' "$log" |
            tr -d '\r' | head -n1)
    file=$(head -c 8388608 "$img" | md5sum | cut -d' ' -f1)
    [ -n "$guest" ] && [ "$guest" = "$file" ] ||
        fail "the image's first 8 MiB have md5 $file, the guest read ${guest:-none}"
    has "$log" 'Shutting down the VM, exit status 0' ||
        fail "the shim did not power off"
else
    log=$base-a.log
fi
rm -f "$state"

if [ -n "$why" ]; then
    echo "FAIL: $label: $why (console: $log)"
    tail -n 15 "$log" | sed 's/^/    | /'
    exit 1
fi
n=${LINUX_MIGRATE_VCPUS:-2}
echo "PASS: $label (rounds 1-$before before, $first-$after after; $n vCPU$([ "$n" = 1 ] || echo s), the disk's md5 as the guest read it)"
