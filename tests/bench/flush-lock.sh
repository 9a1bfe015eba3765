#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The flush_lock benchmark (issue 9; make bench, and make check short):
# the flush-storm guest (tests/guests/flush-storm) on 1, 2, 4, 8 and 16
# vCPUs under TCG thread=multi, with global pages on and off, and with
# Xen's flush design (flush-lock) and the lock-free one (no-flush-lock).
# Around each storm the lock profile is read through the debug keys, as
# on Xen: CTRL-a three times and 'L' when the guest says "start", 'l'
# when it says "done".  Prints, per run: flush_lock acquisitions per
# second, their average hold and block time, and what a guest flush-all
# and PTE update took; then the global-pages off/on hold-time ratio
# (Xen's measurement: 0.32) and the lock-free design's flush latency
# against the global lock's block time.  Figures to stdout and
# build/bench/flush-lock.txt; logs build/bench/flush-lock-*.log.
#
# Then Debian's Linux PV kernel (tools/fetch-linux) with the busybox
# initramfs (tools/make-initramfs): pvshim_tlb=MS makes its /init run
# tlb-churn (tools/initramfs/tlb-churn.c), which on every vCPU at once
# forks and execs a tiny static program in a loop, and maps, touches and
# unmaps memory from one thread per vCPU of a shared process, so each
# munmap is a real TLB shootdown (Linux PV's MMUEXT_INVLPG_MULTI and
# MMUEXT_TLB_FLUSH_MULTI); it also counts reads through translations a
# shootdown should have removed (stale reads: the run fails).  It prints
# "ready" and waits for a line on the console: the script resets the
# profile (CTRL-a x3, L, CTRL-a x3) and types "go"; after "done" it shows
# the profile (CTRL-a x3, l, CTRL-a x3) and types a line, and /init
# powers off.  Rows: flush_lock acquisitions per second of the workload,
# average hold and block time, the workload's fork/exec and unmap cycles
# per second, the host's load, and each profiled lock's share of the
# vCPUs' time spent waiting for it; then the same off/on ratios, and
# lock-free over flush_lock throughput.  Each configuration runs with one
# TCG thread per vCPU (multi, as the storms), and with one TCG thread for
# all vCPUs (single), at every count.  With more vCPUs than host cores,
# multi runs on threads the host takes turns with (before the halting
# waits, 3 vCPUs on 2 cores never reached /init: each spinning waiter
# kept a core the holder needed); single is the steadier measure there,
# but only multi lets the stale-read check see anything (under single no
# other vCPU runs while one checks).
#
# BENCH_SHORT=1: 2 vCPUs, both designs, global pages off, 200 ms each; and
# Linux on 2 vCPUs (TCG multi), global pages off, flush_lock, 3000 ms of
# workload; one PASS/FAIL line per run, figures in
# build/bench/short/flush-lock.txt.  About 25 s in all on a quiet 2-core
# host, a minute with its load average at 5 (the Linux boot is stopped
# after 60 s of console silence, or 300 s in all: make check runs it
# beside other boots).  Without the kernel or busybox (no network) the
# Linux run says SKIP.
#
# FLUSH_BENCH_MS and FLUSH_BENCH_CPUS change a full run's flush-storm
# length and vCPU counts; FLUSH_LINUX_MS (10000), FLUSH_LINUX_CPUS (1 2 4
# 8 16), FLUSH_LINUX_GP (1 0), FLUSH_LINUX_DESIGNS (lock lockless) and
# FLUSH_LINUX_TCG (multi single) the Linux runs', and
# FLUSH_LINUX_SHIM_ARGS adds to their shim command line (spin-halt-us=,
# say); FLUSH_BENCH_PARTS ("storm linux") which parts run.  A full run takes about 20 minutes
# on this 2-core host with its load average at 4 to 5: the 20 storms 3,
# the 40 Linux boots 17.
set -u
cd "$(dirname "$0")/../.."

. tests/bench/lib.sh
bench_results flush-lock
guest=build/guests/flush-storm.elf
ms=${FLUSH_BENCH_MS:-${short:+200}}
ms=${ms:-1000}
lms=${FLUSH_LINUX_MS:-${short:+3000}}
lms=${lms:-10000}
parts=${FLUSH_BENCH_PARTS:-storm linux}
if [ -n "$short" ]; then
    cpus_list="2" gp_list="0" designs="lock lockless"
    linux_cpus="2" linux_gp="0" linux_designs="lock" linux_tcg="multi"
else
    cpus_list=${FLUSH_BENCH_CPUS:-1 2 4 8 16} gp_list="1 0"
    designs="lock lockless"
    linux_cpus=${FLUSH_LINUX_CPUS:-1 2 4 8 16}
    linux_gp=${FLUSH_LINUX_GP:-1 0}
    linux_designs=${FLUSH_LINUX_DESIGNS:-lock lockless}
    linux_tcg=${FLUSH_LINUX_TCG:-multi single}
fi
[[ " $parts " = *" storm "* ]] || cpus_list=
[[ " $parts " = *" linux "* ]] || linux_cpus=

say() {
    if [ -n "$short" ]; then echo "$*" >> "$res"; else echo "$*" | tee -a "$res"; fi
}

declare -A acq hold block flat upd
failed=0

# One lock's profile after the RESET (the run's acquisitions only):
# "Global lock flush_lock: ..." or "Domain 1 domain_lock: ..." then
# "  lock:N(T), block:N(T)", printed as "N T N T"; nothing if none.
lock_prof() {   # log, lock line's head
    sed -n '/lock profile info RESET/,$p' "$1" | grep -a -A1 "$2:" |
        grep -a 'lock:' | tail -n1 |
        sed -E 's/.*lock: *([0-9]+)\(([0-9]+)\), block: *([0-9]+)\(([0-9]+)\).*/\1 \2 \3 \4/'
}

# Each profiled lock's share of the vCPUs' time spent waiting for it
# (block time over vCPUs x the profile's span, "total = NS" since the
# RESET), the largest first: "domain_lock 5.5% flush_lock 0.1%"; "-"
# if no lock was waited for.
lock_waits() {  # log, cpus
    tests/bench/lock-table.py --waits --vcpus "$2" "$1"
}

# flush_lock's into acq/hold/block[key]; false if the log has none.
profile() {     # log, key
    local a ta b tb
    read -r a ta b tb < <(lock_prof "$1" 'Global lock flush_lock')
    [ -n "$tb" ] || return 1
    acq[$2]=$a
    hold[$2]=$(( a ? ta / a : 0 ))
    block[$2]=$(( b ? tb / b : 0 ))
}

# One storm; its figures into the tables above, keyed "cpus:gp:design".
storm() {       # cpus, global-pages (0/1), design (lock/lockless)
    local n=$1 gp=$2 design=$3 key="$1:$2:$3" log fifo pid rc=0 line
    local opt="lock-profile global-pages=$gp"
    local sent_reset= sent_show=
    [ "$design" = lock ] || opt="$opt no-flush-lock"
    log=$out/flush-lock-$n-gp$gp-$design.log
    fifo=$out/flush-lock.in
    rm -f "$fifo"
    mkfifo "$fifo" || return 1
    : >"$log"   # not the last run's: the job below empties it only once it runs
    tools/pvshim-run "$guest" --vcpus "$n" --timeout 600 \
        --shim-cmdline "$opt" \
        --guest-cmdline "ms=$ms linger_ms=3000" <"$fifo" >"$log" 2>&1 &
    pid=$!
    exec 4>"$fifo"
    while kill -0 $pid 2>/dev/null; do
        sleep 0.2
        if [ -z "$sent_reset" ] && grep -aq 'flush-storm: start' "$log"; then
            printf '\001\001\001L' >&4
            sent_reset=1
        fi
        if [ -z "$sent_show" ] && grep -aq 'flush-storm: done' "$log"; then
            printf 'l\001\001\001' >&4
            sent_show=1
        fi
    done
    wait $pid || rc=$?
    exec 4>&-
    rm -f "$fifo"
    grep -aq 'Test result: SUCCESS' "$log" || rc=1
    if ! profile "$log" "$key" || [ $rc != 0 ]; then
        failed=$((failed + 1))
        [ -z "$short" ] || echo "FAIL: bench: flush-lock $n vCPUs gp=$gp $design ($log)"
        return
    fi
    line=$(grep -a -o 'flush-storm: done .*' "$log")
    flat[$key]=$(sed -E 's/.*flush-all \(([0-9]+) ns each\).*/\1/' <<< "$line")
    upd[$key]=$(sed -E 's/.*pte-update-all \(([0-9]+) ns each\).*/\1/' <<< "$line")
    [ -z "$short" ] || echo "PASS: bench: flush-lock $n vCPUs gp=$gp $design"
}

for n in $cpus_list; do
    for gp in $gp_list; do
        for design in $designs; do
            storm "$n" "$gp" "$design"
        done
    done
done

[ -z "$cpus_list" ] ||
    say "flush_lock under the flush-storm guest, QEMU TCG thread=multi, ${ms} ms a run"
[ -z "$cpus_list" ] ||
    say "(lock-profile read with the debug keys: CTRL-a x3, L at start, l at the end)"
[ -z "$cpus_list" ] ||
    say "$(printf '%5s %4s %9s %12s %12s %12s %14s %14s' vCPUs gp design \
           'acq/s' 'hold ns' 'block ns' 'flush-all ns' 'pte-update ns')"
for n in $cpus_list; do
    for gp in $gp_list; do
        for design in $designs; do
            k="$n:$gp:$design"
            [ -n "${acq[$k]:-}" ] || continue
            say "$(printf '%5s %4s %9s %12s %12s %12s %14s %14s' "$n" \
                   "$([ "$gp" = 1 ] && echo on || echo off)" "$design" \
                   "$(( ${acq[$k]} * 1000 / ms ))" "${hold[$k]}" \
                   "${block[$k]}" "${flat[$k]}" "${upd[$k]}")"
        done
    done
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else printf "-" }'; }
for n in $cpus_list; do
    on="$n:1:lock" off="$n:0:lock" free="$n:0:lockless"
    if [ "${acq[$on]:-0}" -gt 0 ] && [ "${acq[$off]:-0}" -gt 0 ]; then
        say "$n vCPUs: global pages off/on, flush_lock hold $(ratio "${hold[$off]}" "${hold[$on]}")x, block $(ratio "${block[$off]}" "${block[$on]}")x (Xen: 0.32x, 0.24x)"
    fi
    if [ -n "${flat[$free]:-}" ] && [ "${block[$off]:-0}" -gt 0 ]; then
        say "$n vCPUs: lock-free flush-all latency / flush_lock block time: $(ratio "${flat[$free]}" "${block[$off]}")x (target at 16 vCPUs: 0.1x)"
    fi
done

# The Linux part: Debian's kernel and the busybox initramfs, as
# tests/bench/linux.sh finds them; no kernel or no busybox is a SKIP.
linux_ok=
if [ -n "$linux_cpus" ]; then
    elf=$(tools/fetch-linux 2>"$out/flush-lock-linux-fetch.log")
    case $? in
    0) initrd=$(tools/make-initramfs 2>"$out/flush-lock-linux-initramfs.log")
       case $? in
       0) linux_ok=1 ;;
       2) echo "SKIP: bench: flush-lock linux: no busybox" \
               "($(tail -n1 "$out/flush-lock-linux-initramfs.log"))" ;;
       *) failed=$((failed + 1))
          echo "FAIL: bench: flush-lock linux: initramfs" \
               "($out/flush-lock-linux-initramfs.log)" ;;
       esac ;;
    2) echo "SKIP: bench: flush-lock linux: no kernel" \
            "($(tail -n1 "$out/flush-lock-linux-fetch.log"))" ;;
    *) failed=$((failed + 1))
       echo "FAIL: bench: flush-lock linux: kernel" \
            "($out/flush-lock-linux-fetch.log)" ;;
    esac
fi
# A boot that hangs: stopped after this long in all, or this long with a
# quiet console (boot and workload print now and then).
linux_limit=${FLUSH_LINUX_TIMEOUT:-${short:+300}}
linux_limit=$(( ${linux_limit:-600} + lms / 1000 ))
linux_quiet=${FLUSH_LINUX_QUIET:-${short:+60}}
linux_quiet=${linux_quiet:-120}
per_s() {       # count, ms
    awk -v a="$1" -v ms="$2" 'BEGIN { printf "%.0f", (ms > 0 ? a * 1000 / ms : 0) }'
}

# Boot Linux with tlb-churn and drive it through the console; $why says
# what went wrong, if anything.
linux_boot() {  # cpus, shim command line, log, TCG threads (multi/single)
    local fifo=$out/flush-lock.in pid rc=0 sent_reset= sent_show=
    local size=-1 now idle=0
    rm -f "$fifo"
    mkfifo "$fifo" || { why="no FIFO"; return; }
    : >"$3"     # not the last run's: the job below empties it only once it runs
    # In a process group of its own, so that stopping it stops QEMU.
    setsid tools/pvshim-run "$elf" --initrd "$initrd" --memory 512M \
        --vcpus "$1" --tcg-threads "$4" --timeout "$linux_limit" \
        --shim-cmdline "$2" \
        --guest-cmdline "console=hvc0 pvshim_tlb=$lms" \
        <"$fifo" >"$3" 2>&1 &
    pid=$!
    exec 4>"$fifo"
    while kill -0 $pid 2>/dev/null; do
        sleep 0.2
        # The keys go to the shim, CTRL-a x3 gives the console back to
        # the guest, and the line lets tlb-churn go on.
        if [ -z "$sent_reset" ] && grep -aq 'tlb-churn: ready' "$3"; then
            printf '\001\001\001L\001\001\001go\n' >&4
            sent_reset=1
        fi
        if [ -z "$sent_show" ] &&
           grep -aq 'tlb-churn: unmap cycles per CPU' "$3"; then
            printf '\001\001\001l\001\001\001end\n' >&4
            sent_show=1
        fi
        now=$(stat -c %s "$3")
        if [ "$now" = "$size" ]; then idle=$((idle + 1)); else idle=0; fi
        size=$now
        if [ $idle -ge $((linux_quiet * 5)) ]; then
            why="console quiet for ${linux_quiet}s"
            kill -- -$pid 2>/dev/null
            break
        fi
    done
    wait $pid || rc=$?
    exec 4>&-
    rm -f "$fifo"
    [ -n "$why" ] || [ $rc = 0 ] || why="tools/pvshim-run exited $rc"
}

# The run's figures from its log into the tables, keyed
# "Ltcg:cpus:gp:design"; or $why, if it went wrong.
linux_figures() {   # cpus, design, key, log
    local line ms e u tb total
    line=$(grep -a -o 'tlb-churn: done .*' "$4" | tr -d '\r')
    if [[ "$line" =~ ,\ ([1-9][0-9]*)\ stale\ reads ]]; then
        why="${BASH_REMATCH[1]} stale reads: a TLB shootdown missed"
        return
    fi
    grep -aq 'pvshim-tlb: exit status 0' "$4" ||
        { why="tlb-churn failed or never ran"; return; }
    profile "$4" "$3" || { why="no flush_lock profile"; return; }
    # On more than one vCPU the workload must flush other vCPUs' TLBs:
    # with Xen's design each such flush takes flush_lock.
    if [ "$1" -gt 1 ] && [ "$2" = lock ] && [ "${acq[$3]}" = 0 ]; then
        why="no flush_lock acquisition: no cross-CPU flush"
        return
    fi
    read -r ms e u < <(sed -E 's/.*done ([0-9]+) ms, [0-9]+ CPUs, ([0-9]+) fork.exec.*, ([0-9]+) unmap cycles.*/\1 \2 \3/' <<< "$line")
    acq_s[$3]=$(per_s "${acq[$3]}" "$ms")
    exec_s[$3]=$(per_s "$e" "$ms")
    unmap_s[$3]=$(per_s "$u" "$ms")
    waits[$3]=$(lock_waits "$4" "$1")
    load[$3]=$(cut -d' ' -f1 /proc/loadavg)
}

linux_run() {   # TCG threads, cpus, global-pages (0/1), design
    local tcg=$1 n=$2 gp=$3 design=$4 log t0=$SECONDS
    local opt="lock-profile global-pages=$gp${FLUSH_LINUX_SHIM_ARGS:+ $FLUSH_LINUX_SHIM_ARGS}" what="$2 vCPUs gp=$3 $4"
    [ "$design" = lock ] || opt="$opt no-flush-lock"
    [ "$tcg" = multi ] || what="$what, TCG $tcg"
    log=$out/flush-lock-linux-$tcg-$n-gp$gp-$design.log
    why=
    linux_boot "$n" "$opt" "$log" "$tcg"
    [ -n "$why" ] ||
        linux_figures "$n" "$design" "L$tcg:$n:$gp:$design" "$log"
    if [ -n "$why" ]; then
        failed=$((failed + 1))
        if [ -n "$short" ]; then
            echo "FAIL: bench: flush-lock linux $what: $why ($log)"
        else
            echo "flush-lock linux $what: $why ($log)" >&2
        fi
    elif [ -n "$short" ]; then
        echo "PASS: bench: flush-lock linux $what ($((SECONDS - t0)) s)"
    fi
}

# The vCPU counts a TCG mode runs: every count, in either mode.
linux_counts() {    # TCG threads
    printf '%s ' $linux_cpus
}

declare -A acq_s exec_s unmap_s waits load
if [ -n "$linux_ok" ]; then
    for tcg in $linux_tcg; do
        for n in $(linux_counts "$tcg"); do
            for gp in $linux_gp; do
                for design in $linux_designs; do
                    linux_run "$tcg" "$n" "$gp" "$design"
                done
            done
        done
    done
    say ""
    say "flush_lock under Debian's Linux (tlb-churn: fork/exec and munmap" \
        "on every vCPU), ${lms} ms a run"
    say "(tcg: QEMU's TCG threads, one per vCPU or one for all; load: the" \
        "host's load average after the run;"
    say " waits: each profiled lock's share of the vCPUs' time spent" \
        "waiting for it, largest first)"
    fmt='%6s %5s %4s %9s %8s %9s %9s %7s %7s %5s  %s'
    say "$(printf "$fmt" tcg vCPUs gp design 'acq/s' 'hold ns' \
           'block ns' 'exec/s' 'unmap/s' load waits)"
    for tcg in $linux_tcg; do
        for n in $(linux_counts "$tcg"); do
            for gp in $linux_gp; do
                for design in $linux_designs; do
                    k="L$tcg:$n:$gp:$design"
                    [ -n "${exec_s[$k]:-}" ] || continue
                    say "$(printf "$fmt" "$tcg" "$n" \
                           "$([ "$gp" = 1 ] && echo on || echo off)" \
                           "$design" "${acq_s[$k]}" "${hold[$k]}" \
                           "${block[$k]}" "${exec_s[$k]}" "${unmap_s[$k]}" \
                           "${load[$k]}" "${waits[$k]}")"
                done
            done
        done
    done
    for tcg in $linux_tcg; do
        for n in $(linux_counts "$tcg"); do
            [ "$n" -gt 1 ] || continue      # no cross-CPU flush on one
            on="L$tcg:$n:1:lock" off="L$tcg:$n:0:lock"
            free="L$tcg:$n:0:lockless"
            if [ "${acq[$on]:-0}" -gt 0 ] && [ "${acq[$off]:-0}" -gt 0 ]; then
                say "Linux $n vCPUs, TCG $tcg: global pages off/on," \
                    "flush_lock hold $(ratio "${hold[$off]}" "${hold[$on]}")x," \
                    "block $(ratio "${block[$off]}" "${block[$on]}")x" \
                    "(Xen: 0.32x, 0.24x)"
            fi
            if [ -n "${exec_s[$free]:-}" ] && [ -n "${exec_s[$off]:-}" ]; then
                say "Linux $n vCPUs, TCG $tcg: lock-free / flush_lock," \
                    "unmap/s $(ratio "${unmap_s[$free]}" "${unmap_s[$off]}")x," \
                    "exec/s $(ratio "${exec_s[$free]}" "${exec_s[$off]}")x" \
                    "(global pages off)"
            fi
        done
    done
fi

# Plots (full runs only): docs/bench/flush-lock-hold.png, the average
# flush_lock hold time against vCPUs with global pages on and off (Xen's
# design); docs/bench/flush-latency.png, a guest flush-all's latency
# with each design (global pages off).
plot() {
    local dat=$out/flush-lock.dat n
    command -v gnuplot >/dev/null || { say "(no gnuplot: no plots)"; return; }
    mkdir -p docs/bench
    for n in $cpus_list; do
        echo "$n ${hold[$n:1:lock]:-NaN} ${hold[$n:0:lock]:-NaN}" \
             "${flat[$n:0:lock]:-NaN} ${flat[$n:0:lockless]:-NaN}"
    done > "$dat"
    gnuplot <<GP
set terminal png size 800,500 noenhanced
set logscale y
set xlabel "vCPUs"
set grid
set output "docs/bench/flush-lock-hold.png"
set title "flush_lock average hold time (ns), Xen's flush design, QEMU TCG"
plot "$dat" using 1:2 with linespoints title "global pages on", \
     "$dat" using 1:3 with linespoints title "global pages off"
set output "docs/bench/flush-latency.png"
set title "guest MMUEXT_TLB_FLUSH_ALL latency (ns), global pages off"
plot "$dat" using 1:4 with linespoints title "flush_lock (Xen's)", \
     "$dat" using 1:5 with linespoints title "lock-free"
GP
    say "plots: docs/bench/flush-lock-hold.png, docs/bench/flush-latency.png"
}
[ -n "$short" ] || [ -z "$cpus_list" ] || plot
[ $failed = 0 ]
