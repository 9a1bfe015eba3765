#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Disks and network through the PV backends against the same devices
# natively (make bench; make check runs it short).  The Debian 12 image
# (tools/make-debian-image; a copy, never the cached image) with 1 GiB
# appended past its partition, booted twice in the same QEMU TCG:
#   native  the image's own kernel and initramfs (read out of it with
#           debugfs) by QEMU's direct kernel boot, root=/dev/vda1: the
#           disk a virtio-blk device, the NIC a virtio-net one
#   pvshim  the same kernel and initramfs as the shim's PV guest,
#           root=/dev/xvda1: the same devices under the shim's block
#           and network backends (blkfront, netfront)
# Both QEMU command lines come from tools/pvshim-run --dry-run, so they
# differ only in -kernel, -initrd and -append (the same memory, vCPU,
# CPU model, TCG, firmware, -drive cache mode and user network with
# restrict=on and hostfwd on 127.0.0.1 only).
# In each, init=/root/io-bench (tests/bench/io-guest.sh, written into the
# copy) instead of systemd runs fio (direct=1, libaio, queue depth 16)
# over the appended raw region: sequential write and read of 1 MiB
# blocks, random read of 4 KiB; then an iperf3 server, which the host's
# iperf3 client drives each way (-R) through hostfwd.  Around each part
# the host reads QEMU's CPU time (/proc/PID/stat utime + stime): CPU
# seconds per GiB moved.  The table (metric, native, pvshim, ratio,
# target: 0.8x for the disk, 0.7x for the network) goes to stdout and
# build/bench/io.txt; consoles to build/bench/io-{native,pvshim}.log.
#
# IO_BENCH_MIB and IO_BENCH_SECONDS set the region and each part's length
# (default 512 MiB, 20 s), IO_BENCH_ARGS more kernel arguments for both
# boots (e.g. xen_blkfront.max_indirect_segments=256).
#
# BENCH_SHORT=1: 64 MiB and 3 s per part, one PASS/FAIL line per boot
# (PASS when every figure is there; no timing is judged), figures in
# build/bench/short/io.txt only.  SKIP without the image or fio in it;
# without iperf3 on the host (ci/deps.sh) the network rows are empty and
# a SKIP line says why.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/boot/lib.sh      # free_ports (its verdict() is io.sh's own below)

short=${BENCH_SHORT:-0}
[ "$short" = 1 ] || short=
out=build/bench${short:+/short}
mkdir -p "$out"
res=$out/io.txt
: > "$res"
size=${IO_BENCH_MIB:-${short:+64}}
size=${size:-512}
secs=${IO_BENCH_SECONDS:-${short:+3}}
secs=${secs:-20}
limit=${IO_BENCH_TIMEOUT:-${short:+300}}  # seconds a boot, start to finish
limit=${limit:-600}
work=$out/io
say() {
    if [ -n "$short" ]; then echo "$*" >> "$res"; else echo "$*" | tee -a "$res"; fi
}
skip() { echo "SKIP: bench: io: $*"; exit 0; }
verdict() {     # ok(0/1), what
    if [ -n "$short" ]; then
        if [ "$1" = 0 ]; then echo "PASS: bench: io $2"
        else echo "FAIL: bench: io $2"; fi
    elif [ "$1" != 0 ]; then
        echo "bench: io $2" >&2
    fi
}

img=$(tools/make-debian-image --cached 2>/dev/null) ||
    img=$(tools/make-debian-image 2>"$work-build.log")
case $? in
0) ;;
2) skip "no image ($(tail -n1 "$work-build.log"))" ;;
*) verdict 1 "tools/make-debian-image failed ($work-build.log)"; exit 1 ;;
esac
start=$(sfdisk -d "$img" | sed -n 's/.*start= *\([0-9]*\),.*/\1/p' | head -n1)
[ -n "$start" ] || { verdict 1 "no partition in $img"; exit 1; }
fs_of() { echo "$1?offset=$((start * 512))"; }
debugfs -R 'stat /usr/bin/fio' "$(fs_of "$img")" 2>/dev/null | grep -q regular ||
    skip "no fio in $img"
kver=$(debugfs -R 'ls /boot' "$(fs_of "$img")" 2>/dev/null |
       grep -o 'vmlinuz-[^ ]*' | sed 's/^vmlinuz-//' | sort -V | tail -n1)
[ -n "$kver" ] || { verdict 1 "no /boot/vmlinuz-* in $img"; exit 1; }
iperf=1
command -v iperf3 >/dev/null || iperf=

# The copy: the file system as built, the raw region fio overwrites
# appended after it (whole MiB), and the guest's init written in.
disk=$work.img
kernel=$work-vmlinuz initrd=$work-initrd.img
off=$(( ($(stat -c %s "$img") + 1048575) / 1048576 ))
rm -f "$disk" "$kernel" "$initrd"
cp --sparse=always "$img" "$disk" &&
    truncate -s $(( (off + size) * 1048576 )) "$disk" &&
    debugfs -R "dump /boot/vmlinuz-$kver $kernel" "$(fs_of "$disk")" 2>/dev/null &&
    debugfs -R "dump /boot/initrd.img-$kver $initrd" "$(fs_of "$disk")" 2>/dev/null &&
    [ -s "$kernel" ] && [ -s "$initrd" ] &&
    debugfs -w -f - "$(fs_of "$disk")" >/dev/null 2>&1 <<DBG &&
cd /root
rm io-bench
write tests/bench/io-guest.sh io-bench
sif io-bench mode 0100755
DBG
    debugfs -R 'stat /root/io-bench' "$(fs_of "$disk")" 2>/dev/null | grep -q regular ||
    { verdict 1 "cannot prepare $disk"; exit 1; }

port=$(free_ports 1)
args="io_bench=DEV:$off:$size:$secs init=/root/io-bench ro quiet net.ifnames=0"
args+=${IO_BENCH_ARGS:+ $IO_BENCH_ARGS}   # more for both kernels
# The shim's QEMU command line; the native one differs in its kernel.
eval "qemu=($(tools/pvshim-run "$kernel" --initrd "$initrd" --memory 1G \
    --disk "$disk" --net "user,hostfwd=tcp:127.0.0.1:$port-:5201" \
    --guest-cmdline "root=/dev/xvda1 console=hvc0 ${args/DEV/\/dev\/xvda}" \
    --dry-run </dev/null))" || { verdict 1 "tools/pvshim-run --dry-run failed"; exit 1; }
native=()
for ((i = 0; i < ${#qemu[@]}; i++)); do
    case ${qemu[i]} in
    -kernel) native+=(-kernel "$kernel"); i=$((i + 1)) ;;
    -initrd) native+=(-initrd "$initrd"); i=$((i + 1)) ;;
    -append) native+=(-append "root=/dev/vda1 console=ttyS0 ${args/DEV/\/dev\/vda}")
             i=$((i + 1)) ;;
    *) native+=("${qemu[i]}") ;;
    esac
done

cputicks() { local f; read -r -a f < "/proc/$1/stat" 2>/dev/null && echo $((f[13] + f[14])); }
hz=$(getconf CLK_TCK)
declare -A bytes bw iops cpu reqs sects irqs

# One boot: wait for each marker, read QEMU's CPU time, let it go on.
boot() {        # name, command...
    local name=$1 log=$out/io-$1.log pid end t0 t1 part rc=0 j rev
    shift
    rm -f "$work.in"
    mkfifo "$work.in" || return 1
    exec 3<>"$work.in"
    "$@" <&3 >"$log" 2>&1 &
    pid=$!
    end=$((SECONDS + limit))
    wait_for() {
        while ! grep -aq -- "$1" "$log"; do
            kill -0 $pid 2>/dev/null && [ $SECONDS -lt $end ] || return 1
            sleep 0.1
        done
    }
    for part in seqwrite seqread randread; do
        wait_for "io-bench: ready $part" || { rc=1; break; }
        t0=$(cputicks $pid)
        printf 'go\r' >&3
        wait_for "io-bench: done $part" || { rc=1; break; }
        t1=$(cputicks $pid)
        printf 'go\r' >&3
        cpu[$name,$part]=$((t1 - t0))
    done
    if [ $rc = 0 ] && wait_for 'io-bench: iperf3 ready' && [ -n "$iperf" ]; then
        for part in in out; do
            j=$out/io-$name-iperf3-$part.json
            t0=$(cputicks $pid)
            rev=()
            [ $part = in ] || rev=(-R)
            iperf3 -c 127.0.0.1 -p "$port" -t "$secs" -J "${rev[@]}" > "$j" 2>&1
            t1=$(cputicks $pid)
            cpu[$name,tcp$part]=$((t1 - t0))
            read -r bytes[$name,tcp$part] bw[$name,tcp$part] < <(python3 - "$j" <<'PY'
import json, sys
try:
    s = json.load(open(sys.argv[1]))["end"]["sum_received"]
    print(int(s["bytes"]), s["bits_per_second"])
except (OSError, ValueError, KeyError):
    pass
PY
)
        done
    fi
    printf 'quit\r' >&3
    end=$((SECONDS + 60))
    while kill -0 $pid 2>/dev/null && [ $SECONDS -lt $end ]; do sleep 1; done
    kill $pid 2>/dev/null
    wait $pid 2>/dev/null
    exec 3>&-
    rm -f "$work.in"
    # "io-bench: result NAME bytes=B ms=T bw=BYTES/S iops=N"
    while read -r _ _ part b _ r i; do
        bytes[$name,$part]=${b#bytes=}
        bw[$name,$part]=${r#bw=}
        iops[$name,$part]=${i#iops=}
    done < <(grep -ao 'io-bench: result .*' "$log" | tr -d '\r')
    # "io-bench: requests NAME n=REQUESTS sectors=S irqs=I"
    while read -r _ _ part b r i; do
        reqs[$name,$part]=${b#n=}
        sects[$name,$part]=${r#sectors=}
        irqs[$name,$part]=${i#irqs=}
    done < <(grep -ao 'io-bench: requests .*' "$log" | tr -d '\r')
}

load0=$(cut -d' ' -f1-3 /proc/loadavg)
boot native "${native[@]}"
boot pvshim "${qemu[@]}"
load1=$(cut -d' ' -f1-3 /proc/loadavg)

# The table.
num() {         # key, scale -> value / scale, or "-"
    local v=$1
    [ -n "$v" ] || { echo -; return; }
    awk -v v="$v" -v s="$2" 'BEGIN { printf "%.1f", v / s }'
}
per_gib() {     # name, part -> CPU seconds per GiB
    local t=${cpu[$1,$2]:-} b=${bytes[$1,$2]:-}
    [ -n "$t" ] && [ -n "$b" ] && [ "$b" -gt 0 ] || { echo -; return; }
    awk -v t="$t" -v b="$b" -v hz="$hz" \
        'BEGIN { printf "%.2f", t / hz / (b / 1073741824) }'
}
row() {         # metric, native, pvshim, target
    local r=-
    [ "$2" = - ] || [ "$3" = - ] ||
        r=$(awk -v a="$3" -v b="$2" 'BEGIN { printf "%.2fx", (b > 0 ? a / b : 0) }')
    say "$(printf '%-32s %10s %10s %7s %7s' "$1" "$2" "$3" "$r" "$4")"
}
say "Debian 12 (Linux $kver) from its image, QEMU TCG, 1 GiB, 1 vCPU;" \
    "fio direct=1 libaio iodepth=16 over $size MiB of the raw disk, ${secs} s a part;" \
    "iperf3 ${secs} s each way through hostfwd"
say "$(date -u '+%Y-%m-%d %H:%M UTC'), host load average before $load0, after $load1"
say "$(printf '%-32s %10s %10s %7s %7s' metric native pvshim ratio target)"
row "seq read 1 MiB (MB/s)" "$(num "${bw[native,seqread]:-}" 1e6)" \
    "$(num "${bw[pvshim,seqread]:-}" 1e6)" 0.8x
row "seq write 1 MiB (MB/s)" "$(num "${bw[native,seqwrite]:-}" 1e6)" \
    "$(num "${bw[pvshim,seqwrite]:-}" 1e6)" 0.8x
row "rand read 4 KiB (IOPS)" "$(num "${iops[native,randread]:-}" 1)" \
    "$(num "${iops[pvshim,randread]:-}" 1)" 0.8x
row "TCP host to guest (Mbit/s)" "$(num "${bw[native,tcpin]:-}" 1e6)" \
    "$(num "${bw[pvshim,tcpin]:-}" 1e6)" 0.7x
row "TCP guest to host (Mbit/s)" "$(num "${bw[native,tcpout]:-}" 1e6)" \
    "$(num "${bw[pvshim,tcpout]:-}" 1e6)" 0.7x
for p in seqread:"seq read" seqwrite:"seq write" randread:"rand read" \
         tcpin:"TCP host to guest" tcpout:"TCP guest to host"; do
    row "CPU s/GiB, ${p#*:}" "$(per_gib native "${p%%:*}")" \
        "$(per_gib pvshim "${p%%:*}")" -
done
[ -n "$iperf" ] || say "(no iperf3 on the host: ci/deps.sh installs it)"
# What the guest's driver made of fio's I/O: requests after merging (its
# /sys/block stat), their mean size, and the disk's interrupts each.
per_req() {     # name, part, what
    local n=${reqs[$1,$2]:-} v
    case $3 in
    kib) v=${sects[$1,$2]:-} ;;
    irq) v=${irqs[$1,$2]:-} ;;
    esac
    [ -n "$n" ] && [ -n "$v" ] && [ "$n" -gt 0 ] || { echo -; return; }
    awk -v v="$v" -v n="$n" -v k="$3" \
        'BEGIN { printf "%.2f", (k == "kib" ? v / 2 : v) / n }'
}
for p in seqread:"seq read" seqwrite:"seq write" randread:"rand read"; do
    row "KiB per request, ${p#*:}" "$(per_req native "${p%%:*}" kib)" \
        "$(per_req pvshim "${p%%:*}" kib)" -
done
for p in seqread:"seq read" seqwrite:"seq write" randread:"rand read"; do
    row "interrupts per request, ${p#*:}" "$(per_req native "${p%%:*}" irq)" \
        "$(per_req pvshim "${p%%:*}" irq)" -
done

failed=0
for name in native pvshim; do
    miss=
    for p in seqread seqwrite randread ${iperf:+tcpin tcpout}; do
        [ -n "${bw[$name,$p]:-}" ] && [ -n "${cpu[$name,$p]:-}" ] || miss+=" $p"
    done
    if grep -aqE 'Panic on CPU|FATAL TRAP' "$out/io-$name.log"; then
        verdict 1 "$name: the shim failed ($out/io-$name.log)"; failed=1
    elif [ -n "$miss" ]; then
        verdict 1 "$name: no figure for$miss ($out/io-$name.log)"; failed=1
    else
        verdict 0 "$name: seq read $(num "${bw[$name,seqread]}" 1e6) MB/s, write $(num "${bw[$name,seqwrite]}" 1e6) MB/s, rand read $(num "${iops[$name,randread]}" 1) IOPS${iperf:+, TCP in $(num "${bw[$name,tcpin]}" 1e6) out $(num "${bw[$name,tcpout]}" 1e6) Mbit/s}"
    fi
done
[ -n "$iperf" ] || [ -z "$short" ] || echo "SKIP: bench: io network: no iperf3 on the host"
rm -f "$disk"
exit $failed
