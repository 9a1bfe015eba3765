#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Boot every PV test kernel in build/guests (64-bit) or, with
# GUEST_WIDTH=32, build/guests32 (32-bit PAE) on the shim under QEMU TCG
# and check its outcome: the launcher's exit status (default 0) and the
# "Test result:" line (default SUCCESS), as tests/guests/NAME/expect says:
#
#   status N          exit status of tools/pvshim-run (3: guest crashed)
#   result WORD       SUCCESS, SKIP, ...; "result none": no result line
#   shim-cmdline STR  extra shim options
#   guest-cmdline STR the guest kernel's command line; @pass@ in it is
#                     the pass's number (its place in the order below,
#                     from 1; 1 outside a pass), so that a fuzz test runs
#                     a seed of its own in each pass
#   initrd FILE       a second module
#   log REGEX         a console line that must appear (may repeat)
#   log-max N REGEX   at most N console lines may match REGEX (a log the
#                     guest could flood)
#   memory SIZE       the VM's memory (default 128M)
#   disk IF SIZE [OPT]... a disk (may repeat: xvda, xvdb...): a fresh raw
#                     image of SIZE (K or M) each run, every 512-byte
#                     sector n holding the 64-bit little-endian n in each
#                     of its 8-byte words, as a virtio-blk or NVMe device
#                     (IF virtio or nvme); OPTs are pvshim-run --disk's
#                     (ro: read-only to QEMU, discard, bs=4096, iops=N,
#                     queue-size=N), or parts=N: a GPT (sfdisk's) with N
#                     partitions of 1 MiB, partition k's first sector
#                     2048 * k (the pattern stays in them)
#   net SPEC          a NIC: pvshim-run's --net SPEC (user, restricted)
#   monitor REGEX ;; CMD  once a console line matches REGEX, CMD to QEMU's
#                     monitor (may repeat: each waits for the one before;
#                     the Nth --disk's device is pvshim-dev<N>)
#   min-vcpus N       run on at least N CPUs (--vcpus), whatever GUEST_VCPUS
#   passes WORD...    the passes besides pv64 and pv32 that run it (below)
#   pv64-only WHY     no 32-bit kernel (guests.mk builds none): its subject
#                     exists for 64-bit guests only
#   pv64: KEY VAL     a setting for the 64-bit kernel only
#   pv32: KEY VAL     a setting for the 32-bit kernel only
#
# One "PASS: NAME" / "FAIL: NAME: why" line per test; with GUEST_WIDTH=32
# each is tagged [pv32], a pv64-only test is a "SKIP: NAME" saying why,
# and so is every test while the shim refuses 32-bit kernels (its builder
# logs that it doesn't support them yet).  GUEST_ACCEL=kvm
# runs them under KVM where the host really has it; GUEST_CPU=MODEL under
# that QEMU CPU model (its name then tags each result); GUEST_SHIM_CMDLINE
# adds shim options to every test, before its own, which win (a test's
# mm-audit=16 stays so in a pass that audits; a failed audit fails it);
# GUEST_SHIM_DIR=DIR boots the shim built there (default build/default);
# GUEST_VCPUS=N runs on N CPUs (TCG thread=multi, unless
# GUEST_TCG_THREADS=single runs them all on one host thread);
# GUEST_TIMEOUT bounds each boot (default 300 s: the slowest test takes
# a minute alone, and make check runs as many as the host has cores).
# Arguments, if any, name the tests to run (default: all).
#
# Passes: make check runs each test in a few named configurations, the
# pv64 and pv32 ones always and the others only for tests whose expect
# file asks for them with a `passes` line (tests/guests/README.md):
#
#   pv64         64-bit kernels, qemu64 (an AMD vendor: global pages off)
#   pv32         32-bit PAE kernels, qemu64
#   epyc         64-bit, EPYC (SMEP, SMAP, Zen's DIV on exit), mm-audit
#   intel        64-bit, qemu64 with an Intel vendor (global pages on),
#                spec-ctrl=no (the entries and exit with no speculation
#                controls patched in: arch/x86/alternative.h)
#   smp2         64-bit, 2 CPUs (TCG thread=multi), mm-audit, the debug
#                build (build/debug: its ASSERT()s and lock order checked,
#                loglvl=all), as are all the SMP passes
#   smp4         64-bit, 4 CPUs, spin-halt-us=0 (every contended wait halts)
#   smp4-single  64-bit, 4 CPUs on one TCG thread, taking turns
#   pv32-epyc    32-bit, EPYC, mm-audit
#   pv32-smp2    32-bit, 2 CPUs, spec-ctrl=verw (the exit's copy with
#                the tested controls)
#   kvm          64-bit under KVM, only where the host has it (every test)
#
# and the groups a `passes` line may name instead: cpu-models (epyc intel
# pv32-epyc), smp (smp2 smp4 smp4-single pv32-smp2), mm-audit (the
# audited ones: epyc smp2 pv32-epyc), all.  GUEST_PASS=NAME runs that
# pass: its settings (instead of the GUEST_* above, but a GUEST_SHIM_DIR
# given wins over the pass's), the tests that ask for it (or those
# named), logs in build/check/guests/NAME/.
#   run.sh --passes          the passes this host runs, one a line
#   run.sh --jobs            "PASS TEST" for each test in each pass
#                            (make check's list); non-zero status if an
#                            expect file names an unknown pass
set -u
cd "$(dirname "$0")/../.."

# The passes: NAME and its settings.
declare -A pass_env=(
    [pv64]=""
    [pv32]="GUEST_WIDTH=32"
    [epyc]="GUEST_CPU=EPYC GUEST_SHIM_CMDLINE=mm-audit"
    [intel]="GUEST_CPU=qemu64,vendor=GenuineIntel GUEST_SHIM_CMDLINE=spec-ctrl=no"
    [smp2]="GUEST_VCPUS=2 GUEST_SHIM_CMDLINE=mm-audit GUEST_SHIM_DIR=build/debug"
    [smp4]="GUEST_VCPUS=4 GUEST_SHIM_CMDLINE=spin-halt-us=0 GUEST_SHIM_DIR=build/debug"
    [smp4-single]="GUEST_VCPUS=4 GUEST_TCG_THREADS=single GUEST_SHIM_DIR=build/debug"
    [pv32-epyc]="GUEST_WIDTH=32 GUEST_CPU=EPYC GUEST_SHIM_CMDLINE=mm-audit"
    [pv32-smp2]="GUEST_WIDTH=32 GUEST_VCPUS=2 GUEST_SHIM_CMDLINE=spec-ctrl=verw GUEST_SHIM_DIR=build/debug"
    [kvm]="GUEST_ACCEL=kvm"
)
pass_order="pv64 pv32 epyc intel smp2 smp4 smp4-single pv32-epyc pv32-smp2 kvm"
# Every test runs in these; a `passes` line adds others.
pass_default="pv64 pv32 kvm"
declare -A pass_group=(
    [cpu-models]="epyc intel pv32-epyc"
    [smp]="smp2 smp4 smp4-single pv32-smp2"
    [mm-audit]="epyc smp2 pv32-epyc"
    [all]="$pass_order"
)

# KVM only where it is hardware virtualization (as tools/pvshim-run).
have_kvm() {
    [ -c /dev/kvm ] && [ -w /dev/kvm ] &&
        { [ -d /sys/module/kvm_intel ] || [ -d /sys/module/kvm_amd ]; }
}

# test_passes NAME: the passes its expect file puts it in, one a line;
# status 1 (and a message) if it names a pass or group that doesn't exist.
test_passes() {
    local exp=tests/guests/$1/expect w p bad=0
    local -A on=()
    for p in $pass_default; do on[$p]=1; done
    if [ -r "$exp" ]; then
        for w in $(awk '$1 == "passes" { $1 = ""; print }' "$exp"); do
            if [ -n "${pass_group[$w]:-}" ]; then
                for p in ${pass_group[$w]}; do on[$p]=1; done
            elif [ -n "${pass_env[$w]+set}" ]; then
                on[$w]=1
            else
                echo "run.sh: $exp: no pass or group '$w'" >&2
                bad=1
            fi
        done
    fi
    for p in $pass_order; do [ -z "${on[$p]:-}" ] || echo "$p"; done
    return $bad
}

# The passes this host runs.
host_passes() {
    local p
    for p in $pass_order; do
        [ "$p" != kvm ] || have_kvm || continue
        echo "$p"
    done
}

case "${1:-}" in
--passes) host_passes; exit 0 ;;
--jobs)
    status=0
    declare -A here=()
    for p in $(host_passes); do here[$p]=1; done
    for d in tests/guests/*/main.c; do
        name=$(basename "$(dirname "$d")")
        [ "$name" != lib ] || continue
        ps=$(test_passes "$name") || status=1
        for p in $ps; do [ -z "${here[$p]:-}" ] || echo "$p $name"; done
    done
    exit $status ;;
esac

# GUEST_PASS: that pass's settings replace the GUEST_* variables (but
# the timeout, and the shim's directory if one is given).
pass=${GUEST_PASS:-}
if [ -n "$pass" ]; then
    [ -n "${pass_env[$pass]+set}" ] ||
        { echo "run.sh: GUEST_PASS: no pass '$pass'" >&2; exit 2; }
    unset GUEST_WIDTH GUEST_CPU GUEST_SHIM_CMDLINE GUEST_VCPUS \
          GUEST_TCG_THREADS GUEST_ACCEL
    for kv in ${pass_env[$pass]}; do
        [ "${kv%%=*}" != GUEST_SHIM_DIR ] || [ -z "${GUEST_SHIM_DIR:-}" ] ||
            continue
        export "${kv%%=*}=${kv#*=}"
    done
fi

logdir=build/check/guests${pass:+/$pass}
# The pass's number, for guest-cmdline's @pass@.
pass_nr=1
if [ -n "$pass" ]; then
    pass_nr=$(echo $pass_order | tr ' ' '\n' | grep -nx -- "$pass" | cut -d: -f1)
fi
mkdir -p "$logdir"
timeout=${GUEST_TIMEOUT:-300}
width=${GUEST_WIDTH:-64}
case "$width" in
64) elfdir=build/guests; tag= ;;
32) elfdir=build/guests32; tag=" [pv32]" ;;
*) echo "run.sh: GUEST_WIDTH is 64 or 32, not '$width'" >&2; exit 2 ;;
esac
# What the shim logs when its builder stops at a 32-bit kernel.
no_compat='guest kernel refused: 32-bit PAE \(compat\) guests are not supported yet'
accel=()
[ -z "${GUEST_ACCEL:-}" ] || accel=(--accel "$GUEST_ACCEL")
[ -z "${GUEST_SHIM_DIR:-}" ] || accel+=(--shim-dir "$GUEST_SHIM_DIR")
if [ -n "${GUEST_VCPUS:-}" ]; then
    accel+=(--vcpus "$GUEST_VCPUS")     # more than one: TCG thread=multi
    tag="$tag [smp$GUEST_VCPUS]"
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

# make_disk FILE IF SIZE [OPT]...: the image a `disk` line asks for.
make_disk() {
    local file=$1 o k
    python3 - "$1" "$3" <<'PY' || return
import struct, sys
size = sys.argv[2]
n = int(size[:-1]) * {'K': 1024, 'M': 1 << 20}[size[-1]] // 512
with open(sys.argv[1], 'wb') as f:
    for s in range(n):
        f.write(struct.pack('<Q', s) * 64)
PY
    shift 3
    for o in "$@"; do
        case $o in
        parts=[1-9])
            { echo 'label: gpt'
              for k in $(seq "${o#parts=}"); do
                  echo "start=$((2048 * k)), size=2048"
              done; } |
                sfdisk -q "$file" >/dev/null || return ;;
        esac
    done
}

# disk_opts IF SIZE [OPT]...: pvshim-run's --disk options for it.
disk_opts() {
    local o
    printf ',if=%s' "$1"
    shift 2
    for o in "$@"; do
        case $o in parts=*) ;; *) printf ',%s' "$o" ;; esac
    done
}

run_one() {
    local name=$1 elf=$elfdir/$1.elf exp=tests/guests/$1/expect
    local status=0 result= status_set= cmdline= logs=() log_max=() why= rc key val
    local memory=128M
    local extra=() disks=() d i=0 mons=() pid mon n
    local log=$logdir/$name.log

    # Outside a pass, one log per configuration.
    [ -n "$pass" ] ||
        log=$logdir/$name${width/64/}${GUEST_CPU:+-${GUEST_CPU%%,*}}${GUEST_VCPUS:+-smp$GUEST_VCPUS}${GUEST_TCG_THREADS:+-$GUEST_TCG_THREADS}${GUEST_ACCEL:+-$GUEST_ACCEL}.log

    if [ -r "$exp" ]; then
        while read -r key val; do
            # "pv64: KEY VAL" / "pv32: KEY VAL": for that width only.
            case "$key" in
            pv64:|pv32:)
                [ "$key" = "pv$width:" ] || continue
                read -r key val <<< "$val" ;;
            esac
            case "$key" in
            status) status=$val; status_set=1 ;;
            result) result=$val ;;
            shim-cmdline) cmdline=$val ;;
            guest-cmdline) extra+=(--guest-cmdline "${val//@pass@/$pass_nr}") ;;
            initrd) extra+=(--initrd "$val") ;;
            log) logs+=("$val") ;;
            log-max) log_max+=("$val") ;;
            memory) memory=$val ;;
            disk) disks+=("$val") ;;
            net) extra+=(--net "$val") ;;
            monitor) mons+=("$val") ;;
            min-vcpus) [ "${GUEST_VCPUS:-1}" -ge "$val" ] ||
                           extra+=(--vcpus "$val") ;;
            esac
        done < "$exp"
    fi
    for d in "${disks[@]}"; do
        make_disk "$log.disk$i.img" $d || return
        extra+=(--disk "$log.disk$i.img$(disk_opts $d)")
        i=$((i + 1))
    done
    # An explicit result line wins over the status default (none).
    [ -n "$result" ] || result=${status_set:+none}
    [ -n "$result" ] || result=SUCCESS

    # extra after accel: pvshim-run takes the last --vcpus, and min-vcpus
    # must win over a smaller GUEST_VCPUS.
    mon=$log.monitor
    if [ ${#mons[@]} -gt 0 ]; then
        rm -f "$mon.in" "$mon.out"
        mkfifo "$mon.in" "$mon.out" || return
        extra+=(-- -chardev "pipe,id=gmon,path=$mon" -mon chardev=gmon)
    fi
    : >"$log"   # emptied first: the monitor's waits read it
    tools/pvshim-run "$elf" --timeout "$timeout" --memory "$memory" \
        --shim-cmdline "${GUEST_SHIM_CMDLINE:-} $cmdline" "${accel[@]}" \
        "${extra[@]}" \
        </dev/null >"$log" 2>&1 &
    pid=$!
    for val in "${mons[@]}"; do
        until grep -aqE -- "${val%% ;; *}" "$log"; do
            kill -0 $pid 2>/dev/null || break 2
            sleep 0.5
        done
        timeout 10 bash -c 'echo "$1" >"$2"' _ "${val#* ;; }" "$mon.in"
    done
    wait $pid
    rc=$?
    rm -f "$mon.in" "$mon.out"
    if [ "$width" = 32 ] && grep -aqE "$no_compat" "$log"; then
        echo "SKIP: guest: $name$tag: the shim refuses 32-bit PAE guests" \
             "(console: $log)"
        return
    fi
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
    for val in "${log_max[@]}"; do
        n=$(grep -acE -- "${val#* }" "$log")
        [ "$n" -le "${val%% *}" ] ||
            why="${why:+$why; }$n lines match '${val#* }', at most ${val%% *} wanted"
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

# selected NAME: run it: named, or no name given and (in a pass) the
# test asks for that pass.
selected() {
    local want=$1 n
    shift
    if [ $# -eq 0 ]; then
        [ -z "$pass" ] || test_passes "$want" 2>/dev/null | grep -qx -- "$pass"
        return
    fi
    for n; do [ "$n" = "$want" ] && return 0; done
    return 1
}
# The kernels built (of those named), then the tests guests.mk builds no
# 32-bit kernel of, and why.
if [ $# -gt 0 ]; then
    elfs=("${@/#/$elfdir/}")
    elfs=("${elfs[@]/%/.elf}")
    exps=("${@/#/tests/guests/}")
    exps=("${exps[@]/%//expect}")
else
    elfs=("$elfdir"/*.elf)
    exps=(tests/guests/*/expect)
fi
for elf in "${elfs[@]}"; do
    [ -e "$elf" ] || continue
    name=${elf##*/}
    name=${name%.elf}
    [ -d "tests/guests/$name" ] || continue
    selected "$name" "$@" && run_one "$name"
done
if [ "$width" = 32 ]; then
    for exp in "${exps[@]}"; do
        [ -r "$exp" ] || continue
        why=
        while read -r key val; do
            [ "$key" != pv64-only ] || { why=$val; break; }
        done < "$exp"
        [ -n "$why" ] || continue
        name=${exp%/expect}
        name=${name##*/}
        selected "$name" "$@" || continue
        echo "SKIP: guest: $name$tag: pv64-only: $why"
    done
fi
