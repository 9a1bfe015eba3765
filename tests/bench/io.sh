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
# seconds per GiB moved; and the vCPU thread's alone against the part's
# time (QEMU started with -name debug-threads=on): "vCPU busy %", near
# 100 where the guest's and the shim's work bound the part.  The table
# (metric, native, pvshim, ratio, target: 0.8x for the disk, 0.7x for
# the network) goes to stdout and build/bench/io.txt; consoles to
# build/bench/io-{native,pvshim}.log.
#
# IO_BENCH_MIB and IO_BENCH_SECONDS set the region and each part's length
# (default 512 MiB, 20 s), IO_BENCH_ARGS more kernel arguments for both
# boots (e.g. xen_blkfront.max_indirect_segments=256).  IO_BENCH_PERF=1
# records QEMU with perf(1) during each part (every thread: the vCPU's
# TCG work and QEMU's I/O): build/bench/io-NAME-PART.perf and its
# report by symbol beside it (.txt), to see where the host's time goes.
# IO_BENCH_PROFILE=1 samples the vCPU's instruction pointer through
# QEMU's gdbstub during each part (tools/pvshim-profile, with the shim's
# symbols, and the guest kernel's: its /proc/kallsyms, which the guest
# writes past the region): build/bench/io-NAME-PART.profile, the share of
# the vCPU's time in the shim, the guest's kernel and its user space, by
# symbol.
# IO_BENCH_VCPUS=N boots every column on N vCPUs (TCG multi above one)
# and IO_BENCH_JOBS=M (default N) runs M fio jobs at once in each disk
# part (each its own share of the region for the sequential ones): how
# a disk's I/O from several vCPUs scales, natively over the device's
# queues and on pvshim over blkfront's rings ("vCPU busy %" then sums
# every vCPU thread's: up to N x 100).
# IO_BENCH_SHIM_DIR: the shim to boot (default build/default);
# IO_BENCH_SHIM_CMDLINE: its command line (e.g. no-backend-batch).
# IO_BENCH_PERFC=1 boots the shim built with Xen's performance counters
# (CONFIG=perfc, built here if missing) and types its debug keys 'P'
# before and 'p' after each part: build/bench/io-pvshim-PART.perfc, and
# a second table of what the shim counted per device request (traps,
# hypercalls by type, event upcalls, guest mode switches, interrupts).
# With IO_BENCH_ICOUNT=1 too, under -icount shift=0: its TSC ticks by
# entry are then the instructions the shim ran per request.
# IO_BENCH_LOCKS=1 boots the shim with lock-profile and types its debug
# keys 'L' before and 'l' after each part: build/bench/io-pvshim-PART.locks,
# and two more tables by tests/bench/lock-table.py, each lock's
# acquisitions per device request (disk) or MiB (TCP) and its share of
# the vCPUs' time spent waiting for it (the disk's and NIC's locks by the
# device's name: xvda->ring_lock[N], virtio-blk0->q[N].lock, ...).
# IO_BENCH_FILLS=1 records QEMU's soft-TLB fills during each part of
# each boot (a uprobe, tests/bench/lib.sh's fills_probe_add, as root:
# QEMU runs several times slower meanwhile, so no timing run) and adds
# a table of them per request or MiB by tests/bench/tlb-fills.py: the
# guest's, the shim's, and the page walks' for each.
# A full run boots native a second time with pti=on (column native+pti,
# IO_BENCH_PTI=0 leaves it out): the floor any 64-bit PV guest has under
# TCG, and pvshim's ratio to it.  IO_BENCH_ONLY=native, pti or pvshim
# boots only that one (the other columns stay empty).  A part that does not finish in time gets the shim's
# debug keys b, e, q and d typed on its console before QEMU is stopped.
#
# IO_BENCH_NET=tap puts the NIC on a tap with the virtio header
# (vnet_hdr) instead of QEMU's user network, as a KVM host gives a VM:
# checksum offload and TCP GSO both ways, which the user network never
# has.  The run then happens in a user and network namespace of its own
# (unshare -Urn) holding only the tap (10.0.2.2) and a loopback, so
# nothing leaves it, and iperf3 goes to 10.0.2.15 directly; the table
# in io-tap.txt.  Not with IO_BENCH_PERF or IO_BENCH_FILLS (perf and
# uprobes see no QEMU there).
# BENCH_SHORT=1: 64 MiB and 3 s per part, one PASS/FAIL line per boot
# (PASS when every figure is there; no timing is judged), figures in
# build/bench/short/io.txt only.  SKIP without the image or fio in it;
# without iperf3 on the host (ci/deps.sh) the network rows are empty and
# a SKIP line says why.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/boot/lib.sh      # free_ports (its verdict() is io.sh's own below)

net=${IO_BENCH_NET:-user}
bname=io                # the name in PASS/FAIL/SKIP lines
[ "$net" = user ] || bname="io $net"
case $net in
user) ;;
tap)
    if [ -z "${IO_BENCH_IN_NS:-}" ]; then
        tap_ns_possible || {
            echo "SKIP: bench: $bname: no network namespace with a tap here"
            exit 0
        }
        IO_BENCH_IN_NS=1 exec unshare -Urn "$0" "$@"
    fi
    tap_up pvtap0 10.0.2.2/24 ||
        { echo "FAIL: bench: $bname: cannot set the tap up"; exit 1; } ;;
*) echo "FAIL: bench: io: IO_BENCH_NET=$net: user or tap"; exit 1 ;;
esac

. tests/bench/lib.sh
# Each variant's files under its own name: make check runs io and io-tap
# at once, and a shared disk image, fifo or console log was one run's to
# delete under the other.
if [ "$net" = tap ]; then pfx=io-tap; else pfx=io; fi
bench_results $pfx
size=${IO_BENCH_MIB:-${short:+64}}
size=${size:-512}
secs=${IO_BENCH_SECONDS:-${short:+3}}
secs=${secs:-20}
# Seconds a boot may take, start to finish: only against a hang (a short
# run's native boot took over 300 s once beside a loaded make check).
limit=${IO_BENCH_TIMEOUT:-600}
work=$out/$pfx
say() {
    if [ -n "$short" ]; then echo "$*" >> "$res"; else echo "$*" | tee -a "$res"; fi
}
skip() { echo "SKIP: bench: $bname: $*"; exit 0; }
verdict() {     # ok(0/1), what
    if [ -n "$short" ]; then
        if [ "$1" = 0 ]; then echo "PASS: bench: $bname $2"
        else echo "FAIL: bench: $bname $2"; fi
    elif [ "$1" != 0 ]; then
        echo "bench: $bname $2" >&2
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
profile=
[ "${IO_BENCH_PROFILE:-0}" = 1 ] && profile=16     # MiB for the kallsyms
rm -f "$out"/$pfx-{native,pvshim}*.{samples,profile,kallsyms}
rm -f "$disk" "$kernel" "$initrd"
cp --sparse=always "$img" "$disk" &&
    truncate -s $(( (off + size + ${profile:-0}) * 1048576 )) "$disk" &&
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

# The NIC, and where the host's iperf3 finds the guest's server.
if [ "$net" = tap ]; then
    nic=(-- -netdev tap,id=io-net,ifname=pvtap0,script=no,downscript=no,vnet_hdr=on
         -device virtio-net-pci,netdev=io-net,disable-legacy=on)
    iperf_to=(10.0.2.15 -p 5201)
    via="through a tap (vnet_hdr)"
else
    port=$(free_ports 1)
    nic=(--net "user,hostfwd=tcp:127.0.0.1:$port-:5201")
    iperf_to=(127.0.0.1 -p "$port")
    via="through hostfwd"
fi
vcpus=${IO_BENCH_VCPUS:-1}
jobs=${IO_BENCH_JOBS:-$vcpus}
args="io_bench=DEV:$off:$size:$secs${profile:+:1} init=/root/io-bench ro quiet net.ifnames=0"
[ "$jobs" = 1 ] || args+=" io_bench_jobs=$jobs"
args+=${IO_BENCH_ARGS:+ $IO_BENCH_ARGS}   # more for both kernels
# The shim's QEMU command line; the native one differs in its kernel.
perfc=
shim_dir=${IO_BENCH_SHIM_DIR:-build/default}
if [ "${IO_BENCH_PERFC:-0}" = 1 ]; then
    perfc=1
    shim_dir=build/perfc
    make -s CONFIG=perfc >/dev/null || { verdict 1 "make CONFIG=perfc failed"; exit 1; }
    rm -f "$out"/$pfx-pvshim*.perfc
fi
locks=
shim_cmdline=${IO_BENCH_SHIM_CMDLINE:-}
if [ "${IO_BENCH_LOCKS:-0}" = 1 ]; then
    locks=1
    shim_cmdline+="${shim_cmdline:+ }lock-profile"
    rm -f "$out"/$pfx-pvshim*.locks
fi
eval "qemu=($(tools/pvshim-run "$kernel" --initrd "$initrd" --memory 1G \
    --vcpus "$vcpus" \
    --shim-dir "$shim_dir" ${shim_cmdline:+--shim-cmdline "$shim_cmdline"} \
    --disk "$disk" --dry-run \
    --guest-cmdline "root=/dev/xvda1 console=hvc0 ${args/DEV/\/dev\/xvda}" \
    "${nic[@]}" </dev/null))" || { verdict 1 "tools/pvshim-run --dry-run failed"; exit 1; }
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
# The threads by name ("CPU 0/TCG"), for the vCPU's share of each part.
qemu+=(-name io,debug-threads=on)
native+=(-name io,debug-threads=on)

# Around each part: IO_BENCH_PROFILE=1 samples the vCPU (pvshim-profile
# through the gdbstub), IO_BENCH_PERF=1 records QEMU (all its threads).
perf_pid= prof_pid= fills=
if [ "${IO_BENCH_FILLS:-0}" = 1 ]; then
    fills_probe_add && fills=1 ||
        echo "bench: io: no uprobe on QEMU's x86_cpu_tlb_fill: no fills" >&2
    rm -f "$out"/$pfx-{native,pvshim}*.fills
fi
shim_syms=$shim_dir/pvshim-syms
if [ "${IO_BENCH_PROFILE:-0}" = 1 ]; then
    gdb_port=$(free_ports 1)
    qemu+=(-gdb "tcp:127.0.0.1:$gdb_port")
    native+=(-gdb "tcp:127.0.0.1:$gdb_port")
fi
watch_start() {  # name, part
    if [ -n "$perfc" ] && [ "$1" = pvshim ]; then
        shim_keys P
        perfc_part=$2
    fi
    if [ -n "$locks" ] && [ "$1" = pvshim ]; then
        shim_keys L
        locks_part=$2
    fi
    if [ "${IO_BENCH_PROFILE:-0}" = 1 ]; then
        tools/pvshim-profile "127.0.0.1:$gdb_port" --seconds 3600 \
            --raw "$out/$pfx-$1-$2.samples" 2>/dev/null &
        prof_pid=$!
    fi
    if [ -n "$fills" ]; then
        fills_file=$out/$pfx-$1-$2.fills
        fills_record "$pid" "$fills_file"
    fi
    [ "${IO_BENCH_PERF:-0}" = 1 ] || return 0
    perf_data=$out/$pfx-$1-$2.perf
    perf record -q -F 999 -g -p "$pid" -o "$perf_data" >/dev/null 2>&1 &
    perf_pid=$!
}
watch_stop() {
    if [ -n "${fills_file:-}" ]; then
        fills_stop "$fills_file"
        fills_file=
    fi
    if [ -n "${perfc_part:-}" ]; then
        perfc_save "$out/$pfx-pvshim.log" "$out/$pfx-pvshim-$perfc_part.perfc"
        perfc_part=
    fi
    if [ -n "${locks_part:-}" ]; then
        lockprof_save "$out/$pfx-pvshim.log" "$out/$pfx-pvshim-$locks_part.locks"
        locks_part=
    fi
    if [ -n "$prof_pid" ]; then
        kill -INT "$prof_pid" 2>/dev/null
        wait "$prof_pid" 2>/dev/null
        prof_pid=
    fi
    [ -n "$perf_pid" ] || return 0
    kill -INT "$perf_pid" 2>/dev/null
    wait "$perf_pid" 2>/dev/null
    perf_pid=
    perf report -i "$perf_data" --stdio --no-children --sort comm,dso,sym \
        -g none 2>/dev/null | grep -v '^#' | grep -v '^$' | head -n 60 \
        > "${perf_data%.perf}.txt"
}
cputicks() { local f; read -r -a f < "/proc/$1/stat" 2>/dev/null && echo $((f[13] + f[14])); }
# The vCPU threads' share alone (QEMU names them "CPU N/TCG"), and the
# time now in clock ticks: a part whose vCPU is busy nearly all its time
# is bound by the guest's and the shim's work, one whose vCPU idles by
# QEMU's I/O threads or the host's side.
vcputicks() {
    local t c f n=0
    for t in /proc/$1/task/*; do
        read -r c < "$t/comm" 2>/dev/null || continue
        case $c in
        CPU\ */TCG) read -r -a f < "$t/stat" 2>/dev/null &&
                n=$((n + f[13] + f[14])) ;;
        esac
    done
    echo $n
}
hz=$(getconf CLK_TCK)
nowticks() { echo $(( $(date +%s%N) / (1000000000 / hz) )); }
declare -A bytes bw iops cpu vcpu wall reqs sects irqs ctxts

# One boot: wait for each marker, read QEMU's CPU time, let it go on.
boot() {        # name, command...
    local name=$1 log=$out/$pfx-$1.log pid end t0 t1 part rc=0 j rev
    shift
    rm -f "$work.in"
    mkfifo "$work.in" || return 1
    exec 3<>"$work.in"
    : >"$log"   # not the last run's: the job below empties it only once it runs
    "$@" <&3 >"$log" 2>&1 &
    pid=$!
    end=$((SECONDS + limit))
    wait_for() {
        while ! grep -aq -- "$1" "$log"; do
            kill -0 $pid 2>/dev/null && [ $SECONDS -lt $end ] || return 1
            sleep 0.1
        done
    }
    # A part that never ends: the shim's view of it in the console (the
    # backends' rings and devices, event channels, vCPUs, registers).
    keys() {
        [ $name = pvshim ] && kill -0 $pid 2>/dev/null || return 0
        shim_keys b e q d
        sleep 2
        echo "bench: io $name: $part did not finish; the shim's debug keys" \
             "b e q d are in $log" >&2
    }
    # @1 typed on the guest's console until it says @2 (a serial line
    # lost once in a loaded make check: the guest never saw its "go").
    type_until() {
        local next
        while :; do
            printf '%s\r' "$1" >&3
            next=$((SECONDS + 10))
            while ! grep -aq -- "$2" "$log"; do
                kill -0 $pid 2>/dev/null && [ $SECONDS -lt $end ] ||
                    return 1
                [ $SECONDS -lt $next ] || continue 2
                sleep 0.1
            done
            return 0
        done
    }
    for part in seqwrite seqread randread; do
        wait_for "io-bench: ready $part" || { rc=1; break; }
        t0=$(cputicks $pid) v0=$(vcputicks $pid) w0=$(nowticks)
        watch_start $name $part
        type_until "go $part" "io-bench: running $part" &&
            wait_for "io-bench: done $part" || { rc=1; keys; break; }
        t1=$(cputicks $pid) v1=$(vcputicks $pid) w1=$(nowticks)
        watch_stop
        type_until "next $part" "io-bench: counted $part" || { rc=1; break; }
        cpu[$name,$part]=$((t1 - t0))
        vcpu[$name,$part]=$((v1 - v0)) wall[$name,$part]=$((w1 - w0))
    done
    if [ $rc = 0 ] && wait_for 'io-bench: iperf3 ready' && [ -n "$iperf" ]; then
        for part in in out; do
            j=$out/$pfx-$name-iperf3-$part.json
            t0=$(cputicks $pid) v0=$(vcputicks $pid) w0=$(nowticks)
            watch_start $name tcp$part
            rev=()
            [ $part = in ] || rev=(-R)
            iperf3 -c "${iperf_to[@]}" -t "$secs" -J "${rev[@]}" > "$j" 2>&1
            t1=$(cputicks $pid) v1=$(vcputicks $pid) w1=$(nowticks)
            watch_stop
            cpu[$name,tcp$part]=$((t1 - t0))
            vcpu[$name,tcp$part]=$((v1 - v0)) wall[$name,tcp$part]=$((w1 - w0))
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
    end=$((SECONDS + 60))
    type_until quit 'io-bench: powering off'
    while kill -0 $pid 2>/dev/null && [ $SECONDS -lt $end ]; do sleep 1; done
    kill $pid 2>/dev/null
    wait $pid 2>/dev/null
    exec 3>&-
    rm -f "$work.in"
    if [ -n "$profile" ]; then
        # The guest's kallsyms, then each part's report with them.
        dd if="$disk" bs=1M skip=$((off + size)) count="$profile" 2>/dev/null |
            gunzip 2>/dev/null > "$out/$pfx-$name.kallsyms"
        for j in "$out/$pfx-$name"-*.samples; do
            [ -e "$j" ] || continue
            tools/pvshim-profile --report "$j" --syms "$shim_syms" \
                --syms "$out/$pfx-$name.kallsyms" --out "${j%.samples}.profile"
        done
    fi
    # "io-bench: result NAME bytes=B ms=T bw=BYTES/S iops=N"
    while read -r _ _ part b _ r i; do
        bytes[$name,$part]=${b#bytes=}
        bw[$name,$part]=${r#bw=}
        iops[$name,$part]=${i#iops=}
    done < <(grep -ao 'io-bench: result .*' "$log" | tr -d '\r')
    # "io-bench: requests NAME n=REQUESTS sectors=S irqs=I ctxt=C"
    while read -r _ _ part b r i c; do
        reqs[$name,$part]=${b#n=}
        sects[$name,$part]=${r#sectors=}
        irqs[$name,$part]=${i#irqs=}
        ctxts[$name,$part]=${c#ctxt=}
    done < <(grep -ao 'io-bench: requests .*' "$log" | tr -d '\r')
}

# The floor (a full run): native again with pti=on, so its kernel writes
# CR3 twice per user/kernel round trip as any 64-bit PV guest must (its
# kernel and user space have separate page tables), which under TCG
# flushes the whole soft TLB each time.  pvshim against it shows what
# the shim and the PV drivers cost beyond that.
pti=
[ -n "$short" ] || [ "${IO_BENCH_PTI:-1}" = 0 ] || pti=1
names=(native ${pti:+pti} pvshim)
floor=()
for ((i = 0; i < ${#native[@]}; i++)); do
    case ${native[i]} in
    -append) floor+=(-append "${native[i + 1]} pti=on"); i=$((i + 1)) ;;
    *) floor+=("${native[i]}") ;;
    esac
done
icount=         # IO_BENCH_ICOUNT=1: the shim's boot counts instructions
[ "${IO_BENCH_ICOUNT:-0}" = 1 ] && icount=1
load0=$(cut -d' ' -f1-3 /proc/loadavg)
case ${IO_BENCH_ONLY:-} in
''|native) boot native "${native[@]}" ;;
esac
case ${IO_BENCH_ONLY:-} in
''|pti) [ -z "$pti" ] || boot pti "${floor[@]}" ;;
esac
case ${IO_BENCH_ONLY:-} in
''|pvshim) boot pvshim "${qemu[@]}" ${icount:+-icount shift=0} ;;
esac
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
ratio() {       # a, b -> a / b, or "-"
    [ "$1" = - ] || [ "$2" = - ] || [ -z "$1" ] || [ -z "$2" ] &&
        { echo -; return; }
    awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", (b > 0 ? a / b : 0) }'
}
row() {         # metric, target, then one value per boot of $names
    local m=$1 t=$2 n p
    shift 2
    n=$1 p=${2:-} v=${3:-}
    [ -n "$pti" ] || { v=$p; p=; }
    if [ -n "$pti" ]; then
        say "$(printf '%-32s %10s %10s %10s %7s %7s %7s' "$m" "$n" "$p" "$v" \
            "$(ratio "$v" "$n")" "$(ratio "$v" "$p")" "$t")"
    else
        say "$(printf '%-32s %10s %10s %7s %7s' "$m" "$n" "$v" \
            "$(ratio "$v" "$n")" "$t")"
    fi
}
each() {        # function, args...: its value for every boot, in order
    local f=$1 name v
    shift
    for name in "${names[@]}"; do
        v=$("$f" "$name" "$@")      # one line each, whatever $f printed
        echo "$v"
    done
}
bw_of() { num "${bw[$1,$2]:-}" "$3"; }
iops_of() { num "${iops[$1,$2]:-}" 1; }
say "Debian 12 (Linux $kver) from its image, QEMU TCG, 1 GiB," \
    "$vcpus vCPU$([ "$vcpus" = 1 ] || echo s);" \
    "fio direct=1 libaio iodepth=16$([ "$jobs" = 1 ] || echo " x $jobs jobs")" \
    "over $size MiB of the raw disk, ${secs} s a part;" \
    "iperf3 ${secs} s each way $via"
say "$(date -u '+%Y-%m-%d %H:%M UTC'), host load average before $load0, after $load1"
if [ -n "$pti" ]; then
    say "$(printf '%-32s %10s %10s %10s %7s %7s %7s' metric native "native+pti" \
        pvshim ratio "to pti" target)"
else
    say "$(printf '%-32s %10s %10s %7s %7s' metric native pvshim ratio target)"
fi
mapfile -t v < <(each bw_of seqread 1e6); row "seq read 1 MiB (MB/s)" 0.8x "${v[@]}"
mapfile -t v < <(each bw_of seqwrite 1e6); row "seq write 1 MiB (MB/s)" 0.8x "${v[@]}"
mapfile -t v < <(each iops_of randread); row "rand read 4 KiB (IOPS)" 0.8x "${v[@]}"
mapfile -t v < <(each bw_of tcpin 1e6); row "TCP host to guest (Mbit/s)" 0.7x "${v[@]}"
mapfile -t v < <(each bw_of tcpout 1e6); row "TCP guest to host (Mbit/s)" 0.7x "${v[@]}"
for p in seqread:"seq read" seqwrite:"seq write" randread:"rand read" \
         tcpin:"TCP host to guest" tcpout:"TCP guest to host"; do
    mapfile -t v < <(each per_gib "${p%%:*}")
    row "CPU s/GiB, ${p#*:}" - "${v[@]}"
done
busy() {        # name, part -> the vCPU thread's share of the part, %
    local v=${vcpu[$1,$2]:-} w=${wall[$1,$2]:-}
    [ -n "$v" ] && [ -n "$w" ] && [ "$w" -gt 0 ] || { echo -; return; }
    awk -v v="$v" -v w="$w" 'BEGIN { printf "%.0f", 100 * v / w }'
}
for p in seqread:"seq read" seqwrite:"seq write" randread:"rand read" \
         tcpin:"TCP host to guest" tcpout:"TCP guest to host"; do
    mapfile -t v < <(each busy "${p%%:*}")
    row "vCPU busy %, ${p#*:}" - "${v[@]}"
done
[ -n "$iperf" ] || say "(no iperf3 on the host: ci/deps.sh installs it)"
# What the guest's driver made of fio's I/O: requests after merging (its
# /sys/block stat), their mean size, the disk's interrupts and the
# kernel's context switches each.
per_req() {     # name, part, what
    local n=${reqs[$1,$2]:-} v
    case $3 in
    kib) v=${sects[$1,$2]:-} ;;
    irq) v=${irqs[$1,$2]:-} ;;
    ctxt) v=${ctxts[$1,$2]:-} ;;
    esac
    [ -n "$n" ] && [ -n "$v" ] && [ "$n" -gt 0 ] || { echo -; return; }
    awk -v v="$v" -v n="$n" -v k="$3" \
        'BEGIN { printf "%.2f", (k == "kib" ? v / 2 : v) / n }'
}
for p in seqread:"seq read" seqwrite:"seq write" randread:"rand read"; do
    mapfile -t v < <(each per_req "${p%%:*}" kib)
    row "KiB per request, ${p#*:}" - "${v[@]}"
done
for p in seqread:"seq read" seqwrite:"seq write" randread:"rand read"; do
    mapfile -t v < <(each per_req "${p%%:*}" irq)
    row "interrupts per request, ${p#*:}" - "${v[@]}"
done
for p in seqread:"seq read" seqwrite:"seq write" randread:"rand read"; do
    mapfile -t v < <(each per_req "${p%%:*}" ctxt)
    row "context switches per req, ${p#*:}" - "${v[@]}"
done

# pvshim's saved per-part files with extension $1 as table columns, each
# with its divisor: device requests for the disk's parts, MiB for TCP.
pvshim_cols() {     # extension
    local p b
    cols=()
    for p in seqwrite seqread randread; do
        cols+=("$p/req=$out/$pfx-pvshim-$p.$1:${reqs[pvshim,$p]:--}")
    done
    for p in tcpin tcpout; do
        b=${bytes[pvshim,$p]:-}
        cols+=("$p/MiB=$out/$pfx-pvshim-$p.$1:${b:+$(awk -v b="$b" 'BEGIN { print b / 1048576 }')}")
    done
}

# IO_BENCH_PERFC=1: what the shim counted, per device request for the
# disk's parts and per MiB moved for the network's.
if [ -n "$perfc" ]; then
    pvshim_cols perfc
    say ""
    say "pvshim's performance counters per device request (disk) and MiB (TCP):"
    while IFS= read -r line; do say "$line"; done < <(tests/bench/perfc-table.py "${cols[@]}")
fi

# IO_BENCH_LOCKS=1: the lock profile per device request (disk) and MiB
# (TCP), and each lock's share of the vCPUs' waiting.
if [ -n "$locks" ]; then
    pvshim_cols locks
    say ""
    say "pvshim's lock profile per device request (disk) and MiB (TCP), $vcpus vCPU(s):"
    while IFS= read -r line; do say "$line"; done < <(tests/bench/lock-table.py --vcpus "$vcpus" "${cols[@]}")
fi

# IO_BENCH_FILLS=1: QEMU's soft-TLB fills per request (disk) and MiB (TCP).
if [ -n "$fills" ]; then
    fills_probe_del
    cols=()
    for name in "${names[@]}"; do
        for p in seqwrite seqread randread tcpin tcpout; do
            [ -s "$out/$pfx-$name-$p.fills" ] || continue
            case $p in
            tcp*) b=${bytes[$name,$p]:-}
                  b=${b:+$(awk -v b="$b" 'BEGIN { print b / 1048576 }')}
                  cols+=("$name $p/MiB=$out/$pfx-$name-$p.fills:${b:-0}") ;;
            *) cols+=("$name $p/req=$out/$pfx-$name-$p.fills:${reqs[$name,$p]:-0}") ;;
            esac
        done
    done
    say ""
    say "QEMU's soft-TLB fills per device request (disk) and MiB (TCP):"
    while IFS= read -r line; do say "$line"; done < <(tests/bench/tlb-fills.py \
        --syms "$shim_syms" --top "${IO_BENCH_FILLS_TOP:-12}" "${cols[@]}")
    [ -n "${IO_BENCH_FILLS_KEEP:-}" ] || rm -f "$out"/$pfx-{native,pvshim}*.fills   # tens of MB each
fi

failed=0
for name in "${names[@]}"; do
    case ${IO_BENCH_ONLY:-$name} in $name) ;; *) continue ;; esac  # not booted
    miss=
    for p in seqread seqwrite randread ${iperf:+tcpin tcpout}; do
        [ -n "${bw[$name,$p]:-}" ] && [ -n "${cpu[$name,$p]:-}" ] || miss+=" $p"
    done
    # The disk's parts took its ring's lock and the device queue's.
    if [ -n "$locks" ] && [ $name = pvshim ]; then
        for p in seqread seqwrite randread; do
            for l in 'xvda->ring_lock\[0\]' 'virtio-blk0->q\[0\]\.lock'; do
                grep -aA1 "Domain 1 $l: \|Global lock $l: " \
                    "$out/$pfx-pvshim-$p.locks" 2>/dev/null |
                    grep -aq '^  lock:[1-9]' || miss+=" $p's ${l//\\/} profile"
            done
        done
    fi
    if grep -aqE 'Panic on CPU|FATAL TRAP' "$out/$pfx-$name.log"; then
        verdict 1 "$name: the shim failed ($out/$pfx-$name.log)"; failed=1
    elif [ -n "$miss" ]; then
        verdict 1 "$name: no figure for$miss ($out/$pfx-$name.log)"; failed=1
    else
        verdict 0 "$name: seq read $(num "${bw[$name,seqread]}" 1e6) MB/s, write $(num "${bw[$name,seqwrite]}" 1e6) MB/s, rand read $(num "${iops[$name,randread]}" 1) IOPS${iperf:+, TCP in $(num "${bw[$name,tcpin]}" 1e6) out $(num "${bw[$name,tcpout]}" 1e6) Mbit/s}"
    fi
done
[ -n "$iperf" ] || [ -z "$short" ] || echo "SKIP: bench: $bname network: no iperf3 on the host"
rm -f "$disk" "$kernel" "$initrd"    # 44 MB the next run makes again
exit $failed
