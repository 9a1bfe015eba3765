# SPDX-License-Identifier: GPL-2.0-only
# Sourced by the boot tests (run.sh, smp.sh, kvm-apic.sh, linux-net.sh,
# debian-image.sh) and tests/bench/io.sh: one verdict from a console,
# free ports, the SMP bring-up's lines, blk-selftest's disk.
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

# free_ports N: N ports of 127.0.0.1 free now (the kernel's choice, all
# held at once so they differ, then let go), on one line, for hostfwd.
free_ports() {
    python3 -c '
import socket, sys
s = [socket.socket() for _ in range(int(sys.argv[1]))]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])' "$1"
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
