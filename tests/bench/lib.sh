# SPDX-License-Identifier: GPL-2.0-only
#
# Shared by the benchmark scripts (sourced from the repository's top),
# with tests/boot/lib.sh's console helpers (shim_keys).
. tests/boot/lib.sh
#
# bench_results NAME: short (1 with BENCH_SHORT=1, make check's quick
# run, else empty), out (build/bench, or build/bench/short for a short
# run, made) and res ($out/NAME.txt, emptied for this run's figures).
bench_results() {
    short=${BENCH_SHORT:-0}
    [ "$short" = 1 ] || short=
    out=build/bench${short:+/short}
    mkdir -p "$out"
    res=$out/$1.txt
    : > "$res"
}

# perfc_save LOG FILE: key 'p' (a shim built with CONFIG=perfc), then its
# output out of the console log LOG into FILE: the counters' lines after
# the last SHOW header (each "NAME  TOTAL[ N]" or an array's "ARRnn[ N]"),
# once the last of them is there.
perfc_save() {
    local log=$1 n
    n=$(grep -ac 'Xen performance counters SHOW' "$log")
    shim_keys p
    for _ in $(seq 50); do
        [ "$(grep -ac 'Xen performance counters SHOW' "$log")" -gt "$n" ] &&
            grep -aq 'TSC ticks halted in the shim ' <(sed -n '/counters SHOW/h; /counters SHOW/!H; ${x;p}' "$log") &&
            break
        sleep 0.2
    done
    sed -n '/counters SHOW/h; /counters SHOW/!H; ${x;p}' "$log" | tr -d '\r' |
        sed -n 's/^(XEN) \(\[[ 0-9.]*\] \)\{0,1\}//; /TOTAL\[\|ARR[0-9]*\[/p' > "$2"
}

# lockprof_save LOG FILE: key 'l' (a shim booted with lock-profile), then
# its printout out of the console log LOG into FILE (the SHOW line and
# each lock's two, for tests/bench/lock-table.py), once the log has a new
# SHOW and has stopped growing.
lockprof_save() {
    local log=$1 n size=-1
    n=$(grep -ac 'lock profile info SHOW' "$log")
    shim_keys l
    for _ in $(seq 50); do
        if [ "$(grep -ac 'lock profile info SHOW' "$log")" -gt "$n" ]; then
            [ "$(stat -c %s "$log")" = "$size" ] && break
            size=$(stat -c %s "$log")
        fi
        sleep 0.2
    done
    sed -n '/lock profile info SHOW/h; /lock profile info SHOW/!H; ${x;p}' "$log" |
        tr -d '\r' | sed 's/^(XEN) \(\[[ 0-9.]*\] \)\{0,1\}//' |
        grep -aE 'lock profile info SHOW|: addr=|^  lock:' > "$2"
}

# QEMU's soft-TLB fills (tests/bench/tlb-fills.py): a uprobe on the
# installed QEMU's x86_cpu_tlb_fill() with each fill's address and MMU
# index (its second and fifth arguments), through perf probe (as root).
# fills_probe_add: 0 if the probe is there; fills_record PID FILE: record
# it in the background (into FILE.data, perf's pid in fills_pid);
# fills_stop FILE: stop that and write `perf script`'s lines to FILE;
# fills_probe_del: remove the probe.
fills_probe=probe_qemu:x86_cpu_tlb_fill
fills_probe_add() {
    perf probe -l 2>/dev/null | grep -q "$fills_probe" ||
        perf probe -q -x "$(command -v qemu-system-x86_64)" \
            --add 'x86_cpu_tlb_fill addr=%si:u64 mmu=%r8:s32' >/dev/null 2>&1
}
fills_record() {
    perf record -q -e "$fills_probe" -p "$1" -o "$2.data" >/dev/null 2>&1 &
    fills_pid=$!
    sleep 1                         # attached before the work starts
}
fills_stop() {
    kill -INT "$fills_pid" 2>/dev/null
    wait "$fills_pid" 2>/dev/null
    perf script -i "$1.data" -F trace > "$1" 2>/dev/null
    rm -f "$1.data"
}
fills_probe_del() {
    perf probe -q -d "$fills_probe" >/dev/null 2>&1
}
