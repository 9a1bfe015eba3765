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
# BENCH_SHORT=1: 2 vCPUs, both designs, global pages off, 200 ms each; one
# PASS/FAIL line per run, figures in build/bench/short/flush-lock.txt.
# FLUSH_BENCH_MS and FLUSH_BENCH_CPUS change a full run's length and
# vCPU counts.
set -u
cd "$(dirname "$0")/../.."

short=${BENCH_SHORT:-0}
[ "$short" = 1 ] || short=
out=build/bench${short:+/short}
mkdir -p "$out"
res=$out/flush-lock.txt
: > "$res"
guest=build/guests/flush-storm.elf
ms=${FLUSH_BENCH_MS:-${short:+200}}
ms=${ms:-1000}
if [ -n "$short" ]; then
    cpus_list="2" gp_list="0" designs="lock lockless"
else
    cpus_list=${FLUSH_BENCH_CPUS:-1 2 4 8 16} gp_list="1 0"
    designs="lock lockless"
fi

say() {
    if [ -n "$short" ]; then echo "$*" >> "$res"; else echo "$*" | tee -a "$res"; fi
}

declare -A acq hold block flat upd
failed=0

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
    # "Global lock flush_lock: ..." then "  lock:N(T), block:N(T)", after
    # the RESET: the storm's acquisitions only.
    line=$(sed -n '/lock profile info RESET/,$p' "$log" |
           grep -a -A1 'Global lock flush_lock:' | grep -a 'lock:' | tail -n1)
    if [ -z "$line" ] || [ $rc != 0 ]; then
        failed=$((failed + 1))
        [ -z "$short" ] || echo "FAIL: bench: flush-lock $n vCPUs gp=$gp $design ($log)"
        return
    fi
    read -r a ta b tb < <(sed -E 's/.*lock: *([0-9]+)\(([0-9]+)\), block: *([0-9]+)\(([0-9]+)\).*/\1 \2 \3 \4/' <<< "$line")
    acq[$key]=$a
    hold[$key]=$(( a ? ta / a : 0 ))
    block[$key]=$(( b ? tb / b : 0 ))
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

say "flush_lock under the flush-storm guest, QEMU TCG thread=multi, ${ms} ms a run"
say "(lock-profile read with the debug keys: CTRL-a x3, L at start, l at the end)"
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
[ -n "$short" ] || plot
[ $failed = 0 ]
