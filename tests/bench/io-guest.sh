#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# init (PID 1) of the Debian image's copy for tests/bench/io.sh, started
# by the image's own initramfs with init=/root/io-bench in place of
# systemd, so nothing else runs while it measures.  The kernel's command
# line carries io_bench=DEV:OFFSET_MIB:SIZE_MIB:SECONDS[:SYMS]: the raw
# region of DEV past the file system that fio may overwrite, and each
# job's length (io_bench_jobs=N: N fio jobs at once, the sequential ones
# each on its own 1/N of the region); SYMS 1 (a profiling run) writes the
# kernel's text symbols
# (/proc/kallsyms, gzipped) to DEV just past the region, for the host.
# It prints "io-bench: ready NAME" before each fio job and "io-bench: done
# NAME" after it, each time waiting for the host's line on the console,
# "go NAME" and "next NAME" (the host reads QEMU's CPU time in between),
# and saying it got it ("io-bench: running NAME", "io-bench: counted
# NAME": a line the console lost is typed again, and one typed twice is
# passed over); then "io-bench: result ..." lines, and "io-bench:
# requests NAME n=N sectors=S irqs=I" (the disk's requests, sectors and
# interrupts during the job); then it serves iperf3 on port 5201 until
# the line "quit", and powers off.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
say() { echo "io-bench: $*"; }
# until_ok CMD...: CMD every 0.1 s until it succeeds, 30 s at most.
until_ok() {
    local i=0
    until "$@" || [ $i -ge 300 ]; do sleep 0.1; i=$((i + 1)); done
}
# Lines from the host until @1 (others, a repeat of an earlier one, are
# passed over); then @2 said.
wait_line() {
    while read -r l; do
        [ "$l" = "$1" ] && break
    done
    say "$2"
}

mountpoint -q /proc || mount -t proc proc /proc
mountpoint -q /sys || mount -t sysfs sysfs /sys
mountpoint -q /dev || mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp       # iperf3's buffers; the root stays read-only
v= jobs=1
for a in $(cat /proc/cmdline); do
    case $a in
    io_bench=*) v=${a#io_bench=} ;;
    io_bench_jobs=*) jobs=${a#io_bench_jobs=} ;;
    esac
done
IFS=: read -r dev off size secs syms <<EOF
$v
EOF
if [ "$syms" = 1 ]; then
    grep ' [tT] ' /proc/kallsyms | gzip -1 |
        dd of="$dev" bs=1M seek=$((off + size)) conv=fsync 2>/dev/null &&
        say "kallsyms written" || say "kallsyms not written"
fi

# The NIC: virtio-net natively, xen-netfront on the shim; no udev here.
modprobe -q virtio_net 2>/dev/null
modprobe -q xen-netfront 2>/dev/null
until_ok test -e /sys/class/net/eth0
ip link set lo up
ip addr add 10.0.2.15/24 dev eth0 && ip link set eth0 up &&
    ip route add default via 10.0.2.2 || say "no eth0"
say "start $dev ${off}M+${size}M ${secs}s"

# The disk's requests (after merging: what the driver sent) and sectors,
# from its /sys/block stat, and its interrupts (virtio-blk's "req" vector
# or blkfront's "blkif" event channel), and the kernel's context
# switches (/proc/stat ctxt), as one line of four numbers.
blk=/sys/block/${dev#/dev/}/stat
counts() {
    read -r rd _ rs _ wr _ ws _ <"$blk"
    # Every CPU's column: the numbers after the IRQ's name.
    irq=$(awk '/-req|blkif/ { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++)
                                  n += $i }
               END { print n + 0 }' /proc/interrupts)
    ctxt=$(awk '$1 == "ctxt" { print $2 }' /proc/stat)
    echo $((rd + wr)) $((rs + ws)) "$irq" "${ctxt:-0}"
}

run_fio() {     # name, rw, block size
    say "ready $1"
    wait_line "go $1" "running $1"
    set -- "$@" $(counts)
    fio --name="$1" --filename="$dev" --offset="${off}M" \
        --size="$((size / jobs))M" --offset_increment="$((size / jobs))M" \
        --numjobs="$jobs" --group_reporting \
        --rw="$2" --bs="$3" --direct=1 --ioengine=libaio --iodepth=16 \
        --time_based --runtime="$secs" --output-format=json \
        --output="/tmp/$1.json" >"/tmp/$1.err" 2>&1
    rc=$?
    say "done $1"
    wait_line "next $1" "counted $1"
    set -- "$@" $(counts)
    say "requests $1 n=$(($8 - $4)) sectors=$(($9 - $5)) irqs=$((${10} - $6)) ctxt=$((${11} - $7))"
    if [ $rc = 0 ]; then
        python3 - "/tmp/$1.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
for d in ("read", "write"):
    if j[d]["io_bytes"]:
        print("io-bench: result %s bytes=%d ms=%d bw=%d iops=%.1f" %
              (j["jobname"], j[d]["io_bytes"], j[d]["runtime"],
               j[d]["bw_bytes"], j[d]["iops"]))
PY
    else
        say "fio $1 failed: $(tail -n 3 "/tmp/$1.err" | tr '\n' ' ')"
    fi
}
# Written first, so the reads find data, not holes.
run_fio seqwrite write 1M
run_fio seqread read 1M
run_fio randread randread 4k

iperf3 -s -p 5201 >/tmp/iperf3.log 2>&1 &
# Ready once it listens (port 5201 is 1451 in /proc/net/tcp{,6}, state
# 0A): a fixed second was not always enough on a busy host, and the
# host's client then met a reset.
until_ok grep -qE ':1451 [0-9A-F]+:0000 0A' /proc/net/tcp /proc/net/tcp6
say "iperf3 ready"
wait_line quit "powering off"
sync
echo o >/proc/sysrq-trigger
sleep 60
