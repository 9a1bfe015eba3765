# SPDX-License-Identifier: GPL-2.0-only
# Sourced by the boot tests (run.sh, smp.sh, kvm-apic.sh, linux.sh,
# linux-blk.sh, linux-net.sh, linux-migrate.sh, linux-balloon.sh,
# linux-hotplug.sh, debian-image.sh) and the benchmarks
# (tests/bench/lib.sh): one verdict from a console, the shim's debug
# keys and a boot that types them if it hangs, free ports, the SMP
# bring-up's lines, blk-selftest's disk, the Linux tests' initramfs.
#
#   verdict NAME LOG WHY [+REGEX | -REGEX]...
#
# WHY is what is already wrong (the exit status), or empty.  +REGEX must
# match a line of LOG, -REGEX none (grep -E).  Prints "PASS: NAME", or
# "FAIL: NAME: why (console: LOG)" and the console's last lines.
verdict() {
    local name=$1 log=$2 why=$3 p
    shift 3
    for p in "$@"; do
        case "$p" in
        +*) grep -aqE -- "${p#+}" "$log" || why="${why:+$why; }no line matches '${p#+}'" ;;
        -*) ! grep -aqE -- "${p#-}" "$log" || why="${why:+$why; }a line matches '${p#-}'" ;;
        esac
    done
    if [ -z "$why" ]; then
        echo "PASS: $name"
    else
        echo "FAIL: $name: $why (console: $log)"
        tail -n 15 "$log" | sed 's/^/    | /'
    fi
}

# shim_keys KEY...: debug keys to the shim through the console's input on
# fd 3: CTRL-a three times (the shim takes the input), the keys, and
# CTRL-a three times (back to the guest).
shim_keys() {
    local k
    for k in $'\001' $'\001' $'\001' "$@" $'\001' $'\001' $'\001'; do
        printf '%s' "$k" >&3
        sleep 0.3
    done
}

# watched_boot LOG LIMIT COMMAND...: COMMAND (a tools/pvshim-run, in a
# session of its own) with its console in LOG and its input a FIFO held
# open on fd 3.  If it still runs after LIMIT seconds, the shim's debug
# keys q r e d a b go in (domain and vCPUs, run queues, event channels,
# each CPU's registers and stack, timers, xenstore and the backends)
# before it is stopped, and LOG says so: a rare hang leaves more than a
# timeout behind.  COMMAND's exit status, or 124 for a hang.
watched_boot() {
    local log=$1 limit=$2 pid rc start=$SECONDS
    shift 2
    rm -f "$log.in"
    mkfifo "$log.in" || return 1
    : >"$log"   # not the last run's: the job below empties it only once it runs
    setsid "$@" <"$log.in" >"$log" 2>&1 &
    pid=$!
    exec 3>"$log.in"
    while kill -0 $pid 2>/dev/null; do
        if [ $((SECONDS - start)) -ge "$limit" ]; then
            shim_keys q r e d a b
            sleep 3
            kill -- -$pid 2>/dev/null
            wait $pid 2>/dev/null
            echo "watched_boot: still running after ${limit}s: the shim's" \
                 "debug keys q r e d a b above, then stopped" >>"$log"
            exec 3>&-
            rm -f "$log.in"
            return 124
        fi
        sleep 1
    done
    wait $pid
    rc=$?
    exec 3>&-
    rm -f "$log.in"
    return $rc
}

# free_ports N: N ports of 127.0.0.1 free now (the kernel's choice, all
# held at once so they differ, then let go), on one line, for hostfwd.
free_ports() {
    python3 -c '
import socket, sys
s = [socket.socket() for _ in range(int(sys.argv[1]))]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])' "$1"
}

# A network namespace of a run's own for a tap device (linux-net.sh's
# LINUX_NET=tap, tests/bench/io.sh's IO_BENCH_NET=tap): its taps and a
# loopback, nothing else, so nothing leaves this machine.
# tap_ns_possible: whether this host lets us make one (unshare -Urn,
# /dev/net/tun) with a multi-queue tap in it.
tap_ns_possible() {
    unshare -Urn sh -c \
        'ip tuntap add pvtap0 mode tap multi_queue && ip link del pvtap0' \
        >/dev/null 2>&1
}
# tap_up NAME ADDR/PREFIX [multi_queue]: in the namespace, the loopback
# up and a tap NAME up at ADDR.
tap_up() {
    ip link set lo up && ip tuntap add "$1" mode tap ${3:-} &&
        ip addr add "$2" dev "$1" && ip link set "$1" up
}

# smp_up N: the lines that say all N CPUs came up, took an IPI, flushed
# their TLBs for another's flush_area_mask() (under flush_lock), and ran
# a timer from their own APIC timer's interrupt (smp.sh, kvm-apic.sh).
smp_up() {
    local n=$1
    printf '%s\n' "+ACPI: MADT: $n CPUs" "+Brought up $n CPUs" \
        "+Timers: the APIC timer fired on each of the $n CPU\\(s\\)"
    [ "$n" = 1 ] || printf '%s\n' "+SMP: an IPI reached each of the $n CPUs" \
        "+SMP: a TLB flush reached each of the $n CPUs"
}
# Nothing that says a CPU failed or differs from CPU 0.
smp_broken='not responding|stuck while coming up|did not answer an IPI|did not flush|timer did not fire|not CPU0.s|Panic on CPU|FATAL TRAP'

# A raw disk for blk-selftest (drivers/blk-selftest.c): 2048 sectors,
# sector n holding the 64-bit little-endian n in each of its 8-byte words.
make_disk() {
    python3 - "$1" <<'PY'
import struct, sys
with open(sys.argv[1], 'wb') as f:
    for n in range(2048):
        f.write(struct.pack('<Q', n) * 64)
PY
}

# linux_initrd LABEL [MODULE...]: the initramfs (tools/make-initramfs)
# in $initrd, with each MODULE's .ko in it, for the kernel $kernel; else
# a SKIP line for LABEL and exit 0.
linux_initrd() {
    local label=$1 m
    shift
    if [ ! -e "$kernel" ] || ! initrd=$(tools/make-initramfs 2>/dev/null)
    then
        echo "SKIP: $label: no kernel or initramfs (no network?)"
        exit 0
    fi
    for m in "$@"; do
        if ! grep -aq "lib/modules/$m.ko" "$initrd"; then
            echo "SKIP: $label: the initramfs has no $m.ko"
            exit 0
        fi
    done
}
