#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make check: build every configuration, then run the host unit tests,
# the fuzzers, the guest and boot tests, every benchmark once and Debian's
# Linux boots as independent jobs, as many at once as the host has cores;
# print the ten slowest and the five that waited longest (wall time less
# CPU time: build/check/cpu has every job's) and end with "N passed, N
# failed" (", N skipped" when something could not run here).
#
# CHECK_JOBS=N (or make check -jN) runs N jobs at once; the default is
# nproc.  A job is one command (a guest test in one pass, a boot script
# or a section of one, a fuzzer, a unit test) whose output goes to its
# own log, build/check/jobs/NAME.log; when it ends its result lines are
# counted and printed together, so lines never interleave.  Jobs start
# longest first, by the times of the last run (build/check/times, else
# ci/check-times); CHECK_TIMEOUT bounds each (default 1800 s).
# CHECK_ONLY=REGEX runs only the tests whose job names match (grep -E;
# the builds always run), e.g. CHECK_ONLY='^guest (smp4|pv32) ' or
# CHECK_ONLY='^(linux|boot keys)'.
set -u
cd "$(dirname "$0")/.."

# How many at once: CHECK_JOBS, else make's -jN, else the cores.
jobs=${CHECK_JOBS:-}
if [ -z "$jobs" ] && [[ " ${MAKEFLAGS:-} " =~ \ -j([0-9]+)\  ]]; then
    jobs=${BASH_REMATCH[1]}
fi
jobs=${jobs:-$(nproc)}
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] ||
    { echo "check.sh: CHECK_JOBS=$jobs is not a count" >&2; exit 2; }
limit=${CHECK_TIMEOUT:-1800}
# The makes below are this script's, not children of make check's
# jobserver (whose descriptors they would look for).
unset MAKEFLAGS MFLAGS MAKELEVEL

log=build/check
joblog=$log/jobs
rm -rf "$joblog"
mkdir -p "$joblog"
t_start=$EPOCHREALTIME

passed=0 failed=0 skipped=0
failures=()
pass() { passed=$((passed + 1)); echo "PASS: $1"; }
fail() { failed=$((failed + 1)); failures+=("$1"); echo "FAIL: $1"; }
skip() { skipped=$((skipped + 1)); echo "SKIP: $1"; }

# ---------------------------------------------------------------- jobs

# Each job: a name (its log's and its time's key), a prefix put before
# each result name it prints, and a command for bash -c.  A quiet job
# (quiet_job) may print nothing: it says something only if it fails.
j_name=() j_prefix=() j_cmd=() j_quiet=()
only=
job() {         # name, prefix, command
    [ -z "$only" ] || [[ "$1" =~ $only ]] || return 0
    j_name+=("$1") j_prefix+=("$2") j_cmd+=("$3") j_quiet+=("")
}
quiet_job() {   # name, command
    job "$1" "" "$2"
    j_quiet[-1]=1
}

# The last run's seconds per job, to start the longest first.
declare -A t_last=() t_took=() t_cpu=()
times_file=$log/times
[ -r "$times_file" ] || times_file=ci/check-times
if [ -r "$times_file" ]; then
    while IFS=$'\t' read -r secs name; do
        [ -n "$name" ] && t_last[$name]=$secs
    done < "$times_file"
fi

# A finished job: its result lines counted (with its prefix), the rest of
# its output shown as it is.  A job that printed no result, or exited
# non-zero without saying why, fails under its own name.
finish() {      # index, exit status, seconds
    local i=$1 rc=$2 f=$joblog/${j_name[$1]// /_}.log line n=0 nfail=0
    while IFS= read -r line; do
        case $line in
        "PASS: "*) pass "${j_prefix[i]}${line#PASS: }"; n=$((n + 1)) ;;
        "FAIL: "*) fail "${j_prefix[i]}${line#FAIL: }"; n=$((n + 1))
                   nfail=$((nfail + 1)) ;;
        "SKIP: "*) skip "${j_prefix[i]}${line#SKIP: }"; n=$((n + 1)) ;;
        *) echo "$line" ;;
        esac
    done < "$f"
    if [ "$rc" = 124 ]; then
        fail "${j_name[i]}: stopped after ${limit}s (log: $f)"
    elif [ "$rc" != 0 ] && [ $nfail = 0 ]; then
        fail "${j_name[i]}: exited $rc (log: $f)"
    elif [ $n = 0 ] && [ -z "${j_quiet[i]}" ]; then
        fail "${j_name[i]}: no result (log: $f)"
    fi
    t_took[${j_name[i]}]=$3
    t_cpu[${j_name[i]}]=$(job_cpu "${f%.log}.cpu")
}

# A job's CPU seconds, user and system, its own and its children's, from
# the `times` its shell wrote as it ended ("?" if it wrote none: it
# exited on its own, or was stopped).  Against its wall time this shows a
# job that sleeps or waits while holding one of the $jobs places.
job_cpu() {     # file
    local line s=0 t
    [ -r "$1" ] || { echo "?"; return; }
    while read -r line; do
        for t in $line; do
            [[ $t =~ ^([0-9]+)m([0-9]+)\.([0-9]+)s$ ]] || continue
            s=$((s + BASH_REMATCH[1] * 600 + 10#${BASH_REMATCH[2]} * 10 +
                 10#${BASH_REMATCH[3]:0:1}))
        done
    done < "$1"
    echo "$((s / 10)).$((s % 10))"
}

# Run the jobs from index $1 on, $jobs at once, longest first; each in a
# session of its own (so that stopping it stops its QEMUs) under a
# timeout, its input /dev/null.
declare -A running=()
stop_all() {
    local pid
    for pid in "${!running[@]}"; do kill -- -"$pid" 2>/dev/null; done
    echo "check.sh: stopped" >&2
    exit 130
}
trap stop_all INT TERM
run_jobs() {    # first index
    local order=() i pid rc next=0 us
    local -A start=()
    mapfile -t order < <(
        for ((i = $1; i < ${#j_name[@]}; i++)); do
            echo "${t_last[${j_name[i]}]:-1} $i"
        done | sort -k1,1gr -k2,2n | cut -d' ' -f2)
    while [ $next -lt ${#order[@]} ] || [ ${#running[@]} -gt 0 ]; do
        while [ ${#running[@]} -lt "$jobs" ] && [ $next -lt ${#order[@]} ]
        do
            i=${order[next]}
            next=$((next + 1))
            setsid timeout -k 30 "$limit" bash -c "${j_cmd[i]}"'
                rc=$?; times >"$0"; exit $rc' "$joblog/${j_name[i]// /_}.cpu" \
                </dev/null >"$joblog/${j_name[i]// /_}.log" 2>&1 &
            running[$!]=$i
            start[$!]=${EPOCHREALTIME/./}
        done
        wait -n -p pid
        rc=$?
        [ -n "${pid:-}" ] && [ -n "${running[$pid]+set}" ] || continue
        i=${running[$pid]}
        unset "running[$pid]"
        us=$(( ${EPOCHREALTIME/./} - ${start[$pid]} ))
        finish "$i" "$rc" "$((us / 1000000)).$((us / 100000 % 10))"
    done
}

# ---------------------------------------------------------------- builds

# The default configuration first: it makes what the others share
# (build/include).  Then the other configurations, the test kernels, the
# unit tests and the fuzzers side by side, and the guests' downloads
# (Debian's Linux, busybox, PV GRUB, GNU Mach: skipped tests if there is
# no network, so quietly here).
built() {       # what, log, make arguments...: a "build: what" line
    local what=$1 out=$2
    shift 2
    if make -s "$@" >"$out" 2>&1; then
        pass "build: $what"
    else
        cat "$out"
        fail "build: $what"
    fi
}
built default "$log/build-default.log" -j"$jobs" CONFIG=default
per=$(( jobs > 4 ? jobs / 4 : 1 ))
for c in configs/*.config; do
    c=$(basename "$c" .config)
    [ "$c" != default ] || continue
    job "build $c" "" "make -s -j$per CONFIG=$c >$log/build-$c.log 2>&1 &&
        echo 'PASS: build: $c' ||
        { cat $log/build-$c.log; echo 'FAIL: build: $c'; }"
done
quiet_job "build guests" "make -s -j$per guests >$log/guests-build.log 2>&1 ||
    { cat $log/guests-build.log; echo 'FAIL: guests: build'; }"
quiet_job "build unit" "make -s -j$per unit >$log/unit-build.log 2>&1 ||
    { cat $log/unit-build.log; echo 'FAIL: unit: build'; }"
quiet_job "build fuzz" "make -s -j$per fuzz-build >$log/fuzz-build.log 2>&1 ||
    { cat $log/fuzz-build.log; echo 'FAIL: fuzz: build'; }"
quiet_job "downloads" "{ tools/fetch-linux && tools/make-initramfs
                        tools/fetch-pvgrub; tools/fetch-gnumach
                        tools/make-pvgrub-linux; } >$log/downloads.log 2>&1
                      true"
run_jobs 0
built_ok() {    # what: the failure line its build would have given
    local f
    for f in "${failures[@]}"; do [ "$f" != "$1" ] || return 1; done
}

# ---------------------------------------------------------------- tests
first=${#j_name[@]}
only=${CHECK_ONLY:-}

# The PV MMU's hot paths make no indirect call, even with retpolines.
job thunks "" "ci/check-thunks.sh build/default"

# The house's rules on includes and CPU definitions (docs/architecture.md).
job layout "" "ci/check-layout.sh"

# Host unit tests, under ASan and UBSan: one line per case.
if built_ok "unit: build"; then
    for t in build/unit/test-*; do
        [ -x "$t" ] || continue
        name=$(basename "$t")
        job "unit $name" "unit: $name: " "$t"
    done
fi

# The fuzzers: each corpus, then a short seeded run.
if built_ok "fuzz: build"; then
    for f in tests/fuzz/fuzz-*.c; do
        n=$(basename "$f" .c)
        n=${n#fuzz-}
        job "fuzz $n" "" "make -s fuzz-check-$n"
    done
fi

# PV test kernels, each booted on the shim in each pass it asks for
# (tests/guests/README.md): one job a test and pass.
if built_ok "guests: build"; then
    pairs=$(tests/guests/run.sh --jobs 2>"$log/guests-jobs.log") ||
        fail "guests: an expect file names no pass ($log/guests-jobs.log)"
    while read -r p t; do
        [ -z "$t" ] || job "guest $p $t" "" "GUEST_PASS=$p tests/guests/run.sh $t"
    done <<< "$pairs"
fi

# Every benchmark once, short (figures in build/bench/short/), so a
# benchmark can't break unnoticed.
job "bench core" "" "BENCH_SHORT=1 BENCH_PARTS=core tests/bench/run.sh"
job "bench flush-lock" "" "BENCH_SHORT=1 tests/bench/flush-lock.sh"
job "bench linux" "" "BENCH_SHORT=1 tests/bench/linux.sh"
job "bench io" "" "BENCH_SHORT=1 tests/bench/io.sh"
# Over a tap with the virtio header: the shim alone (native is the same
# boot as above but for the NIC), with its lock profile around each part.
job "bench io tap" "" "BENCH_SHORT=1 IO_BENCH_NET=tap IO_BENCH_ONLY=pvshim IO_BENCH_LOCKS=1 tests/bench/io.sh"

# Boot tests under QEMU TCG, a job a section; every CPU brought up, under
# TCG single- and multi-threaded, up to 64.
for s in $(tests/boot/run.sh --list); do
    job "boot $s" "boot: " "tests/boot/run.sh $s"
done
job "boot smp" "boot: " "tests/boot/smp.sh"
# The shim's boot under KVM's APIC (x2APIC, TSC-deadline: what KVM users
# run, which QEMU 7.2's TCG lacks), where /dev/kvm is usable, PVM too.
job "boot kvm-apic" "boot: " "tests/boot/kvm-apic.sh"
# docs/debugging.md's recipe: gdb on QEMU's gdbstub with the shim's and
# a test guest's symbols, a break in the xen_version handler, the
# guest's registers read from its saved frame, and on to a clean end.
job gdb "" "tests/boot/gdb.sh"

# PV GRUB (Debian's grub-x86_64-xen.bin): prompt, a command, halt;
# PV GRUB of both widths (grub-mkimage, Debian's grub-xen-bin) starting
# our test kernels, which must pass as when the shim builds them; GNU
# Mach.  Each skipped when its package can't be fetched.
job pvgrub "" "tests/boot/pvgrub.sh"
job pvgrub-guests "" "tests/boot/pvgrub-guests.sh"
job gnumach "" "tests/boot/gnumach.sh"

# Debian's Linux PV kernel, as far as the shim takes it today (skipped
# when the package can't be fetched: no network); its bzImage through the
# shim's decompressor; on 4 and 8 vCPUs, two and four times this host's
# cores (the halting waits at work); and loaded by PV GRUB (Debian's grub-xen-bin made into
# an image whose memdisk holds that Linux).
job linux "" "LINUX_IMAGE=elf tests/boot/linux.sh"
if [ -r build/linux/vmlinuz ]; then
    job "linux bzImage" "" "LINUX_IMAGE=bzimage tests/boot/linux.sh"
fi
if [ -e build/linux/vmlinux ]; then
    # 4 vCPUs also flip static keys 300 times (about 20 s): the guest's
    # int3 code patching against QEMU's translations (pv/traps.c).
    for n in 4 8; do
        job "linux $n vCPUs" "" "LINUX_VCPUS=$n \
            LINUX_FLIPS=$((n == 4 ? 300 : 20)) \
            LINUX_KERNEL=build/linux/vmlinux LINUX_LOG=$log/linux-smp$n.log \
            LINUX_LABEL='linux: $n vCPUs' tests/boot/linux.sh"
    done
fi
# iommu=soft: its swiotlb-xen makes 64 MiB of DMA buffers machine-
# contiguous below 4 GiB with XENMEM_exchange, 256 KiB at a time.
job "linux iommu=soft" "" "LINUX_IMAGE=elf \
    LINUX_CMDLINE='console=hvc0 earlyprintk=xen iommu=soft' \
    LINUX_WANT_LOG='software IO TLB: mapped .*\(64MB\)' \
    LINUX_REFUSE_LOG='Failed to remap|contiguous memory for DMA' \
    LINUX_LOG=$log/linux-iommu-soft.log \
    LINUX_LABEL='linux: iommu=soft (swiotlb-xen, XENMEM_exchange)' \
    tests/boot/linux.sh"
job pvgrub-linux "" "tests/boot/pvgrub-linux.sh"
# Its xen-blkfront against the shim's block backend, over each device;
# then one boot each: 64 MiB written (checked in the image) and read,
# a read-only disk and a CD-ROM, an ext4 filesystem fsck-clean
# afterwards, a GPT partition as the whole disk, a disk grown under it,
# eighteen disks (two past xvdp) and five NICs at once.
job "linux blkfront" "" "tests/boot/linux-blk.sh"
job "linux blkfront nvme" "" "LINUX_BLK_IF=nvme tests/boot/linux-blk.sh"
for m in write read ro ext4 part resize many; do
    job "linux blkfront $m" "" "LINUX_BLK_MODE=$m tests/boot/linux-blk.sh"
done
# One GPT partition of the disk as xvda (vbd=...:partlabel=, partuuid=).
job "linux blkfront part nvme" "" \
    "LINUX_BLK_MODE=part LINUX_BLK_IF=nvme tests/boot/linux-blk.sh"
# QEMU's NVMe says nothing of a read-only drive: only vbd='s :ro does.
job "linux blkfront ro nvme" "" \
    "LINUX_BLK_MODE=ro LINUX_BLK_IF=nvme tests/boot/linux-blk.sh"
# The whole VM migrated by QEMU (as a cloud moves it) while
# blkfront's I/O is in flight: the guest goes on in the second QEMU.
job "linux migrate" "" "tests/boot/linux-migrate.sh"
# The host's balloon (QEMU's virtio-balloon) as xl mem-set: the guest's
# target down and up, its maximum held; two vCPUs, the debug build.
job "linux balloon" "" \
    "LINUX_BALLOON_VCPUS=2 LINUX_BALLOON_SHIM_DIR=build/debug tests/boot/linux-balloon.sh"
# A disk and a NIC added to the running VM and taken back (QEMU's
# device_add and device_del) as xl block-attach and block-detach: xvdb
# and eth0 work, then go, then a disk comes again.  Each way the host
# says it: ACPI PCI hotplug on pc's bus 0 and on q35's root ports (QEMU
# 7.2's default), the ports' native hot-plug (NVMe there).
job "linux hotplug" "" \
    "LINUX_HOTPLUG_VCPUS=2 LINUX_HOTPLUG_SHIM_DIR=build/debug tests/boot/linux-hotplug.sh"
job "linux hotplug q35" "" "LINUX_HOTPLUG_MACHINE=q35 tests/boot/linux-hotplug.sh"
job "linux hotplug nvme q35-native" "" \
    "LINUX_HOTPLUG_IF=nvme LINUX_HOTPLUG_MACHINE=q35-native tests/boot/linux-hotplug.sh"
# Its xen-netfront against the shim's network backend, over virtio-net.
job "linux netfront" "" "tests/boot/linux-net.sh"
job "linux netfront 2 vCPUs" "" "LINUX_VCPUS=2 tests/boot/linux-net.sh"
# The same over a tap with the virtio header and two queue pairs (TSO,
# checksum offload both ways), in a network namespace of its own.
job "linux netfront tap" "" "LINUX_NET=tap tests/boot/linux-net.sh"
# A Debian 12 disk image (tools/make-debian-image) booted as Xen users
# boot theirs, by PV GRUB from xvda, to a login, a workload and the power
# button; then fsck and the files checked on the host.  Over virtio-blk
# here; the same session over NVMe is the "hvm image bios nvme" job below
# (DEBIAN_IMAGE_IF=nvme runs it under pvshim-run by hand): a Debian boot
# is a minute or more of make check's time.
job "debian image" "" "tests/boot/debian-image.sh"
# The installed pvshim: make install's pvshim-run booting a test kernel
# with its own shim; make deb (dpkg-buildpackage, lintian clean), the
# package installed by apt into a fresh Debian 12 chroot (mmdebstrap's,
# cached as a tarball), and its pvshim-run booting the pv64 and pv32
# hello kernels from /usr/lib/pvshim.
job deb "" "tests/boot/deb.sh"
# The same image as a libvirt domain (docs/libvirt.md), under a libvirtd
# of the test's own: define, start, a login on virsh console, shutdown
# by the power button, start, destroy, undefine.
job libvirt "" "tests/boot/libvirt.sh"
# The same image made an HVM disk image (tools/pvshim-image), booted by
# OVMF and by SeaBIOS: GRUB, pvshim, the guest's partition as xvda; the
# files found in the extracted guest disk (HVM_IMAGE=all: all four).
job "hvm image uefi virtio" "" "HVM_IMAGE=uefi-virtio tests/boot/hvm-image.sh"
job "hvm image bios nvme" "" "HVM_IMAGE=bios-nvme tests/boot/hvm-image.sh"

run_jobs "$first"

# ---------------------------------------------------------------- summary

# Every job's time, for the next run's order (with the last run's for
# jobs this one left out); the ten slowest of this run.
for n in "${!t_took[@]}"; do t_last[$n]=${t_took[$n]}; done
for n in "${!t_last[@]}"; do
    printf '%s\t%s\n' "${t_last[$n]}" "$n"
done | sort -t $'\t' -k1,1gr -k2 > "$log/times"
us=$(( ${EPOCHREALTIME/./} - ${t_start/./} ))
echo
echo "Slowest of ${#j_name[@]} jobs, $jobs at once, $((us / 60000000))m$((us / 1000000 % 60))s in all (wall, CPU):"
# Every job's wall and CPU seconds in $log/cpu; the slowest ten, then
# the five that held their place longest without using a CPU (waiting:
# what a sleep or a timeout in a test costs make check).
for n in "${!t_took[@]}"; do
    printf '%s\t%s\t%s\n' "${t_took[$n]}" "${t_cpu[$n]:-?}" "$n"
done | sort -t $'\t' -k1,1gr -k3 > "$log/cpu"
head -n 10 "$log/cpu" | while IFS=$'\t' read -r secs cpu name; do
    printf '  %6.1f s  %6s s  %s\n' "$secs" "$cpu" "$name"
done
echo "Most time waiting (wall less CPU):"
awk -F'\t' '$2 != "?" { printf "%.1f\t%s\t%s\t%s\n", $1 - $2, $1, $2, $3 }' \
    "$log/cpu" | sort -t $'\t' -k1,1gr | head -n 5 |
while IFS=$'\t' read -r idle secs cpu name; do
    printf '  %6.1f s  of %.1f s  %s\n' "$idle" "$secs" "$name"
done

if [ $failed != 0 ]; then
    echo
    echo "Failures (logs in $log/):"
    printf '  %s\n' "${failures[@]}"
fi
echo
if [ $skipped = 0 ]; then
    echo "$passed passed, $failed failed"
else
    echo "$passed passed, $failed failed, $skipped skipped"
fi
[ $failed = 0 ]
