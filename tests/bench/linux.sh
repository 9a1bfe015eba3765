#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The Linux timing harness (make bench; make check runs it short): the
# same Debian kernel and busybox initramfs (tools/make-initramfs) under
# the same QEMU TCG, booted four ways:
#   native  the bzImage by QEMU's direct kernel boot, console=ttyS0
#   pti     the same, with pti=on: kernel and user page tables apart, a
#           CR3 write on every entry and every exit, as a 64-bit PV guest
#           must have (its kernel and user mode have their own L4s).
#           QEMU TCG flushes its whole soft TLB and jump cache on every
#           CR3 write, so this is the floor under any PV design here
#   pvh     the same kernel's ELF by QEMU's PVH boot (its PHYS32_ENTRY note)
#   pvshim  the ELF as a Xen PV guest on the shim, console=hvc0
# With pvshim_bench=N:MIB:ROUNDS the initramfs's /init runs N fork/exec
# of /bin/true and touches ROUNDS x MIB MiB of fresh anonymous memory,
# printing a marker line before and after each part, then powers off.
# Each console line is timestamped on arrival (bash's $EPOCHREALTIME, no
# fork), so every figure is host wall-clock time from QEMU's launch:
#   launch to /init, fork/exec, page faults
# and the ratios against the targets (DESIGN.md): fork/exec 1.3x native,
# page faults 2x native, launch to /init within 1.2x of PVH; the first
# two with the pti boot's ratio beside them, the floor.  A pvshim boot
# that doesn't get there says "not reached" and is no failure; the
# others must finish.
#
# Then, unless LINUX_BENCH_COUNT=0, the shim's counts per fork/exec and
# per page touched: pvshim once more, its performance counters built in
# (CONFIG=perfc) and under -icount shift=0, where the TSC counts
# instructions; pvshim_bench=...:count makes /init wait on the console
# before and after each part while the script types the debug keys 'P'
# (reset) and 'p' (print).  The table (build/bench/linux-count.txt, and
# in linux.txt) gives each counter per fork/exec and per page: the
# guest's hypercalls and traps into the shim, the CR3 loads and TLB
# flushes, and the instructions the shim ran ("TSC ticks in the shim",
# halts left out).  The perfc build's timing hooks make it no timing run.
#
# Then the same work spread over vCPUs: SHELLS shells at once, each N
# fork/execs (pvshim_shells=SHELLS:N, 4:50), on 1, 2 and 4 vCPUs
# (LINUX_BENCH_SMP), TCG multi above one, booted with pti=on and on
# pvshim; "N over 1" is the 1-vCPU time over the N-vCPU one (issue 19:
# more vCPUs must finish it sooner).
#
# LINUX_BENCH_BOOTS="native pti pvh pvshim" picks the timed boots.
#
# BENCH_SHORT=1: 20 fork/exec and 2 x 16 MiB, shells 4:5 on 1 and 2
# vCPUs, one PASS/FAIL line per boot on stdout, figures in
# build/bench/short/linux.txt only.  Without the kernel or busybox (no
# network) it says SKIP.
set -u
cd "$(dirname "$0")/../.." || exit 1

. tests/bench/lib.sh
bench_results linux
work=${short:+20:16:2}
work=${work:-200:128:2}
limit=${LINUX_BENCH_TIMEOUT:-${short:+240}}
limit=${limit:-600}
quiet=${LINUX_BENCH_QUIET:-${short:+30}}
quiet=${quiet:-20}
qboot=/usr/share/qemu/qboot.rom

say() {
    if [ -n "$short" ]; then echo "$*" >> "$res"; else echo "$*" | tee -a "$res"; fi
}
verdict() {     # ok(0/1), what
    if [ -n "$short" ]; then
        if [ "$1" = 0 ]; then echo "PASS: bench: linux $2"
        else echo "FAIL: bench: linux $2"; fi
    fi
}

elf=$(tools/fetch-linux 2>"$out/linux-fetch.log")
case $? in
0) ;;
2) echo "SKIP: bench: linux: no kernel ($(tail -n1 "$out/linux-fetch.log"))"
   exit 0 ;;
*) verdict 1 "kernel ($out/linux-fetch.log)"; exit 1 ;;
esac
initrd=$(tools/make-initramfs 2>"$out/linux-initramfs.log")
case $? in
0) ;;
2) echo "SKIP: bench: linux: no busybox ($(tail -n1 "$out/linux-initramfs.log"))"
   exit 0 ;;
*) verdict 1 "initramfs ($out/linux-initramfs.log)"; exit 1 ;;
esac

# The bzImage itself, for the native boot: from the package fetch-linux
# cached (it keeps only the ELF).
version=$(readlink "$elf")
version=${version#vmlinux-}
bz=build/linux/vmlinuz-$version
if [ ! -s "$bz" ]; then
    deb=$(ls -1 build/linux/debs/linux-image-"$version"_*.deb 2>/dev/null |
          sort -V | tail -n1)
    if [ -z "$deb" ] || ! dpkg-deb --fsys-tarfile "$deb" |
            tar -xO "./boot/vmlinuz-$version" > "$bz.tmp"; then
        rm -f "$bz.tmp"
        verdict 1 "no bzImage for $version"
        exit 1
    fi
    mv "$bz.tmp" "$bz"
fi

# Timestamp each console line: "SECONDS-SINCE-LAUNCH line", in bash
# arithmetic on microseconds (no fork per line, so no lag).
stamp() {       # t0 in microseconds
    local line us
    while IFS= read -r line; do
        us=$(( ${EPOCHREALTIME/./} - $1 ))
        printf '%d.%03d %s\n' $((us / 1000000)) $((us % 1000000 / 1000)) \
            "$line"
    done
}
bc_sub() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a - b }'; }

# The time of the first line matching a pattern, or nothing.
at() {          # log, pattern
    grep -a -m1 -E -- "$2" "$1" | cut -d' ' -f1
}

# Boot in a process group of its own; stop it when the console has been
# quiet for $quiet seconds (a guest that hangs).
declare -A t_init t_fork t_touch t_shells
run() {         # name, command...
    local name=$1 log=$out/linux-$1.log pid size=-1 now idle=0 s e
    shift
    : > "$log"
    setsid bash -c "$(declare -f stamp)"'
                    t0=${EPOCHREALTIME/./}
                    "${@:2}" </dev/null 2>&1 | stamp "$t0" > "$1"' \
        run "$log" timeout -k 5 "$limit" "$@" &
    pid=$!
    while kill -0 $pid 2>/dev/null; do
        sleep 1
        now=$(stat -c %s "$log")
        if [ "$now" = "$size" ]; then idle=$((idle + 1)); else idle=0; fi
        size=$now
        [ $idle -lt "$quiet" ] || { kill -- -$pid 2>/dev/null; break; }
    done
    wait $pid 2>/dev/null
    t_init[$name]=$(at "$log" 'pvshim-initramfs: /init reached')
    s=$(at "$log" 'pvshim-bench: fork-exec start')
    e=$(at "$log" 'pvshim-bench: fork-exec done')
    [ -z "$s" ] || [ -z "$e" ] || t_fork[$name]=$(bc_sub "$e" "$s")
    s=$(at "$log" 'pvshim-bench: touch done')
    [ -z "$s" ] || [ -z "$e" ] || t_touch[$name]=$(bc_sub "$s" "$e")
    s=$(at "$log" 'pvshim-shells: start')
    e=$(at "$log" 'pvshim-shells: done')
    [ -z "$s" ] || [ -z "$e" ] || t_shells[$name]=$(bc_sub "$e" "$s")
    if [[ $name = smp-* ]]; then
        if [ -n "${t_shells[$name]:-}" ]; then
            verdict 0 "$name: ${t_shells[$name]}s for $shells_work"
        else
            verdict 1 "$name: shells not finished ($log)"
        fi
        return
    fi
    if grep -aqE 'Panic on CPU|FATAL TRAP' "$log"; then
        verdict 1 "$name: the shim failed ($log)"
    elif [ -n "${t_touch[$name]:-}" ]; then
        verdict 0 "$name: /init ${t_init[$name]}s, fork/exec ${t_fork[$name]}s, touch ${t_touch[$name]}s"
    elif [ "$name" = pvshim ]; then
        # Not there yet: reported, not failed, until Linux gets to /init.
        verdict 0 "$name: /init not reached ($log)"
    else
        verdict 1 "$name: workload not finished ($log)"
    fi
}

bios=()
[ -r "$qboot" ] && bios=(-bios "$qboot")
qemu=(qemu-system-x86_64 -display none -no-reboot -m 512M -nic none
      -cpu qemu64 "${bios[@]}" -serial stdio -monitor none)
# LINUX_BENCH_BOOTS: which of the four timed boots to run (all).
boots=" ${LINUX_BENCH_BOOTS:-native pti pvh pvshim} "
[[ $boots != *" native "* ]] ||
    run native "${qemu[@]}" -accel tcg -kernel "$bz" -initrd "$initrd" \
        -append "console=ttyS0 pvshim_bench=$work"
[[ $boots != *" pti "* ]] ||
    run pti "${qemu[@]}" -accel tcg -kernel "$bz" -initrd "$initrd" \
        -append "console=ttyS0 pti=on pvshim_bench=$work"
[[ $boots != *" pvh "* ]] ||
    run pvh "${qemu[@]}" -accel tcg -kernel "$elf" -initrd "$initrd" \
        -append "console=ttyS0 pvshim_bench=$work"
[[ $boots != *" pvshim "* ]] ||
    run pvshim tools/pvshim-run "$elf" --initrd "$initrd" --memory 512M \
        --guest-cmdline "console=hvc0 pvshim_bench=$work"

# The SMP part: the same work, SHELLS shells at once each doing N
# fork/execs (/init's pvshim_shells=SHELLS:N), on 1, 2 and 4 vCPUs
# (LINUX_BENCH_SMP), TCG multi above one, natively with pti=on and on
# pvshim: more vCPUs should finish it sooner (issue 19).
if [ -n "$short" ]; then smp_cpus=${LINUX_BENCH_SMP-1 2}
else smp_cpus=${LINUX_BENCH_SMP-1 2 4}; fi
shells_work=${short:+4:5}
shells_work=${shells_work:-4:50}
for v in $smp_cpus; do
    threads=single
    [ "$v" = 1 ] || threads=multi
    [[ $boots != *" pti "* ]] ||
        run "smp-pti-$v" "${qemu[@]}" -accel "tcg,thread=$threads" -smp "$v" \
            -kernel "$bz" -initrd "$initrd" \
            -append "console=ttyS0 pti=on pvshim_shells=$shells_work"
    [[ $boots != *" pvshim "* ]] ||
        run "smp-pvshim-$v" tools/pvshim-run "$elf" --initrd "$initrd" \
            --memory 512M --vcpus "$v" --tcg-threads "$threads" \
            --guest-cmdline "console=hvc0 pvshim_shells=$shells_work"
done

# The counted boot (above).  Its console's input comes through a FIFO on
# fd 3, for the debug keys and for /init's lines.
count_run() {
    local log=$out/linux-count.log fifo=$out/linux-count.in pid end step
    make -s CONFIG=perfc all >/dev/null 2>&1 ||
        { verdict 1 "count: make CONFIG=perfc failed"; return; }
    rm -f "$fifo" "$out"/linux-count-*.perfc
    mkfifo "$fifo" || { verdict 1 "count: no FIFO"; return; }
    exec 3<>"$fifo"
    : >"$log"   # not the last run's: the job below empties it only once it runs
    setsid timeout -k 5 "$limit" tools/pvshim-run "$elf" --initrd "$initrd" \
        --memory 512M --shim-dir build/perfc \
        --guest-cmdline "console=hvc0 pvshim_bench=$work:count" \
        -- -icount shift=0 <&3 >"$log" 2>&1 &
    pid=$!
    end=$((SECONDS + limit))
    step() {    # console line to wait for, then the keys and a line
        while ! grep -aq -- "pvshim-bench: $1" "$log"; do
            kill -0 $pid 2>/dev/null && [ $SECONDS -lt $end ] || return 1
            sleep 0.2
        done
        case $2 in
        P) shim_keys P ;;
        p) perfc_save "$log" "$out/linux-count-$3.perfc" ;;
        esac
        printf '\n' >&3
    }
    step "ready fork-exec" P && step "fork-exec counted" p fork &&
        step "ready touch" P && step "touch counted" p touch
    local ok=$?
    wait $pid 2>/dev/null
    exec 3>&-
    rm -f "$fifo"
    if [ $ok != 0 ] || grep -aqE 'Panic on CPU|FATAL TRAP' "$log"; then
        verdict 1 "count: the counted boot did not finish ($log)"
        return
    fi
    IFS=: read -r n mib rounds <<< "$work"
    tests/bench/perfc-table.py "fork/exec=$out/linux-count-fork.perfc:$n" \
        "page=$out/linux-count-touch.perfc:$((mib * rounds * 256))" \
        > "$out/linux-count.txt" ||
        { verdict 1 "count: perfc-table.py failed"; return; }
    # Each page touched is one fault of the guest's and, at munmap, one
    # emulated page-table write: about two #PF a page, or the counting
    # (or the workload) is broken.
    local pf ticks
    pf=$(awk '$1 == "page" && $2 == "faults" { print $NF }' "$out/linux-count.txt")
    ticks=$(awk '/^TSC ticks in the shim/ { print $(NF - 1) " and " $NF }' \
        "$out/linux-count.txt")
    if ! awk -v pf="${pf:-0}" 'BEGIN { exit !(pf >= 1.5 && pf <= 3) }' ||
            [ -z "$ticks" ]; then
        verdict 1 "count: ${pf:-no} page faults a page, ticks '${ticks}' ($out/linux-count.txt)"
        return
    fi
    verdict 0 "count: $ticks shim instructions per fork/exec and per page, $pf #PF a page"
}
[ "${LINUX_BENCH_COUNT:-1}" = 0 ] || count_run

# QEMU's soft-TLB fills per fork/exec and per page touched, the pti=on
# floor's and pvshim's (full runs only; LINUX_BENCH_FILLS=0 leaves them
# out): a uprobe on QEMU's x86_cpu_tlb_fill() (perf probe, as root)
# records each fill's address and MMU index while /init's counted parts
# run, and tests/bench/tlb-fills.py sorts them into the guest's, the
# page walks' and the shim's.  Every CR3 write empties the soft TLB, so
# these are the pages each crossing touches again (docs/benchmarks.md,
# "Issue 19, part 13").  No probe (not root, no uprobes): left out.
# Less work than the timed boots (a fill is a perf sample here):
fills_work=50:16:2
fills_boot() {  # name, command...
    local name=$1 log=$out/linux-fills-$1.log fifo=$out/linux-fills.in
    local pid end perf= part ok=0
    shift
    rm -f "$fifo"
    mkfifo "$fifo" || return 1
    exec 3<>"$fifo"
    : >"$log"   # not the last run's: the job below empties it only once it runs
    setsid timeout -k 5 "$limit" "$@" <&3 >"$log" 2>&1 &
    pid=$!
    end=$((SECONDS + limit))
    for part in fork-exec touch; do
        until grep -aq -- "pvshim-bench: ready $part" "$log"; do
            kill -0 $pid 2>/dev/null && [ $SECONDS -lt $end ] || break 2
            sleep 0.2
        done
        fills_record "$(pgrep -s $pid -x qemu-system-x86)" \
            "$out/linux-fills-$name-$part.txt"
        perf=$fills_pid
        printf '\n' >&3
        until grep -aq -- "pvshim-bench: $part counted" "$log"; do
            kill -0 $pid 2>/dev/null && [ $SECONDS -lt $end ] || break 2
            sleep 0.2
        done
        fills_stop "$out/linux-fills-$name-$part.txt"; perf=
        printf '\n' >&3
        [ $part = touch ] && ok=1
    done
    [ -z "$perf" ] || { kill -INT $perf; wait $perf 2>/dev/null; }
    [ $ok = 1 ] || kill -- -$pid 2>/dev/null
    wait $pid 2>/dev/null
    exec 3>&-
    rm -f "$fifo"
    [ $ok = 1 ]
}
fills_run() {
    local n mib rounds pages b
    fills_probe_add ||
        { say "(soft-TLB fills: no uprobe on QEMU's x86_cpu_tlb_fill, left out)"; return; }
    fills_boot pti "${qemu[@]}" -accel tcg -kernel "$bz" -initrd "$initrd" \
        -append "console=ttyS0 pti=on pvshim_bench=$fills_work:count" &&
    fills_boot pvshim tools/pvshim-run "$elf" --initrd "$initrd" --memory 512M \
        --guest-cmdline "console=hvc0 pvshim_bench=$fills_work:count"
    b=$?
    fills_probe_del
    [ $b = 0 ] || { say "(soft-TLB fills: a counted boot did not finish)"; return; }
    IFS=: read -r n mib rounds <<< "$fills_work"
    pages=$((mib * rounds * 256))
    tests/bench/tlb-fills.py --syms build/default/pvshim-syms --top 12 \
        "pti=on, per fork/exec=$out/linux-fills-pti-fork-exec.txt:$n" \
        "pvshim, per fork/exec=$out/linux-fills-pvshim-fork-exec.txt:$n" \
        "pti=on, per page=$out/linux-fills-pti-touch.txt:$pages" \
        "pvshim, per page=$out/linux-fills-pvshim-touch.txt:$pages" \
        > "$out/linux-fills.txt"
    rm -f "$out"/linux-fills-*-*.txt     # tens of MB each
}
[ -n "$short" ] || [ "${LINUX_BENCH_FILLS:-1}" = 0 ] || fills_run

fig() { [ -n "$1" ] && echo "${1}s" || echo "not reached"; }
ratio() {       # value, reference
    [ -n "$1" ] && [ -n "$2" ] || { echo "-"; return; }
    awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", (b > 0 ? a / b : 0) }'
}
IFS=: read -r n mib rounds <<< "$work"
say "Debian Linux $version, QEMU TCG, 512 MiB, 1 CPU (host wall clock)"
say "$(printf '%-28s %12s %12s %12s %12s' '' native pti=on pvh pvshim)"
for part in "launch to /init" "$n fork/exec of /bin/true" \
            "touch $rounds x $mib MiB"; do
    case $part in
    launch*) declare -n t=t_init ;;
    *fork*) declare -n t=t_fork ;;
    *) declare -n t=t_touch ;;
    esac
    say "$(printf '%-28s %12s %12s %12s %12s' "$part" \
        "$(fig "${t[native]:-}")" "$(fig "${t[pti]:-}")" \
        "$(fig "${t[pvh]:-}")" "$(fig "${t[pvshim]:-}")")"
    unset -n t
done
say "pvshim / native, fork/exec:   $(ratio "${t_fork[pvshim]:-}" \
    "${t_fork[native]:-}") (target 1.3x; Linux PV on Xen 2.8x;" \
    "floor, pti=on: $(ratio "${t_fork[pti]:-}" "${t_fork[native]:-}"))"
say "pvshim / native, page faults: $(ratio "${t_touch[pvshim]:-}" \
    "${t_touch[native]:-}") (target 2x; Linux PV on Xen 7.4x;" \
    "floor, pti=on: $(ratio "${t_touch[pti]:-}" "${t_touch[native]:-}"))"
say "pvshim / PVH, launch to /init: $(ratio "${t_init[pvshim]:-}" \
    "${t_init[pvh]:-}") (target 1.2x; Xen 7.5 s vs PVH 3.1 s)"
if [ -n "$smp_cpus" ]; then
    IFS=: read -r sh sn <<< "$shells_work"
    say "The same work on more vCPUs ($sh shells at once, each $sn fork/execs;" \
        "TCG multi above one vCPU, $(nproc) host cores):"
    line=$(printf '%-28s' "")
    for v in $smp_cpus; do line+=$(printf ' %11s' "$v vCPU"); done
    for v in $smp_cpus; do
        [ "$v" = 1 ] || line+=$(printf ' %9s' "$v over 1")
    done
    say "$line"
    for b in pti pvshim; do
        [[ $boots = *" $b "* ]] || continue
        line=$(printf '%-28s' "${b/pti/pti=on}")
        for v in $smp_cpus; do
            line+=$(printf ' %11s' "$(fig "${t_shells[smp-$b-$v]:-}")")
        done
        for v in $smp_cpus; do
            [ "$v" = 1 ] || line+=$(printf ' %9s' \
                "$(ratio "${t_shells[smp-$b-1]:-}" "${t_shells[smp-$b-$v]:-}")")
        done
        say "$line"
    done
    say "(N over 1: the 1-vCPU time over the N-vCPU time, above 1x when more vCPUs finish sooner)"
fi
if [ -s "$out/linux-fills.txt" ]; then
    say "QEMU's soft-TLB fills (a uprobe on x86_cpu_tlb_fill), per fork/exec" \
        "and per page touched ($fills_work):"
    while IFS= read -r line; do say "$line"; done < "$out/linux-fills.txt"
fi
if [ -s "$out/linux-count.txt" ]; then
    say "The shim's counts per fork/exec and per page touched (perfc, -icount):"
    while IFS= read -r line; do say "$line"; done < "$out/linux-count.txt"
fi
exit 0
