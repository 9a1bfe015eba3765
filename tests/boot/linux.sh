#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make linux-check: boot Debian's Linux PV kernel (linux-image-cloud-amd64,
# fetched by tools/fetch-linux into build/linux/) on the shim and report
# how far it got, by the milestones its console shows.  One line:
#
#   PASS: linux: reached MILESTONE (wanted at least EXPECTED) ...
#   FAIL: linux: ...                  (console in build/check/linux.log)
#   SKIP: linux: no kernel (...)      no network, no package lists
#
# LINUX_EXPECT is the milestone the shim must reach: raise it as the shim
# learns more.  The kernel never ends by itself yet (it waits for xenstore
# at best), so the boot stops when the console has been quiet for
# LINUX_QUIET seconds, when the last milestone shows, or after
# LINUX_TIMEOUT seconds.  LINUX_KERNEL boots another kernel (ELF or
# bzImage) instead; LINUX_DIR is where tools/fetch-linux keeps Debian's
# (build/linux).  Debian's own bzImage is booted second, through the
# shim's decompressor, and must reach the same milestone ("linux: bzImage",
# console in build/check/linux-bzimage.log).
set -u
cd "$(dirname "$0")/../.." || exit 1

LINUX_EXPECT=${LINUX_EXPECT:-grant-table}
timeout=${LINUX_TIMEOUT:-300}
quiet=${LINUX_QUIET:-20}
cmdline=${LINUX_CMDLINE:-console=hvc0 earlyprintk=xen}

# The milestones, in boot order: name, then what its console line matches.
# Early lines come through console_io as "(d1) ..."; once hvc0 takes over
# they come through the console ring as raw text, so none needs the prefix.
milestones=(
    entered     'Dom1: .*entering the guest at'
    started     'about to get started\.\.\.'
    banner      'Linux version [0-9]'
    xen-pv      'Booting paravirtualized kernel on Xen'
    events      'xen:events: Using (FIFO-based|2-level) ABI'
    timer       '(installing Xen timer for CPU 0|clocksource: xen: mask)'
    calibrate   'Calibrating delay'
    clocksource 'clocksource: Switched to clocksource'
    grant-table '(Grant table initialized|Grant tables using version)'
    xenstore    'xenbus(_probe_frontend)?: '
    init        '(Run .* as init process|Freeing unused kernel)'
)

log=${LINUX_LOG:-build/check/linux.log}
label=${LINUX_LABEL:-linux}
mkdir -p "$(dirname "$log")"

index_of() {    # milestone name: its index, or nothing
    local i
    for ((i = 0; i < ${#milestones[@]}; i += 2)); do
        [ "${milestones[i]}" = "$1" ] && { echo $((i / 2)); return; }
    done
}

want=$(index_of "$LINUX_EXPECT")
if [ -z "$want" ]; then
    echo "FAIL: $label: LINUX_EXPECT=$LINUX_EXPECT is no milestone"
    exit 1
fi

kernel=${LINUX_KERNEL:-}
if [ -z "$kernel" ]; then
    kernel=$(tools/fetch-linux "${LINUX_DIR:-build/linux}" \
             2>build/check/linux-fetch.log)
    case $? in
    0) ;;
    2) echo "SKIP: $label: no kernel ($(tail -n1 build/check/linux-fetch.log))"
       exit 0 ;;
    *) echo "FAIL: $label: tools/fetch-linux failed" \
            "(build/check/linux-fetch.log)"
       exit 1 ;;
    esac
fi

# The furthest milestone the log shows: its index, or -1.
furthest() {
    local i best=-1
    for ((i = 0; i < ${#milestones[@]}; i += 2)); do
        grep -aqE -- "${milestones[i + 1]}" "$log" && best=$((i / 2))
    done
    echo $best
}

# Boot in a process group of its own, so that stopping it stops QEMU too.
last=$(( ${#milestones[@]} / 2 - 1 ))
setsid tools/pvshim-run "$kernel" --memory 512M --timeout "$timeout" \
    --guest-cmdline "$cmdline" </dev/null >"$log" 2>&1 &
pid=$!
size=-1 idle=0 stopped=
while kill -0 $pid 2>/dev/null; do
    sleep 1
    now=$(stat -c %s "$log")
    if [ "$now" = "$size" ]; then idle=$((idle + 1)); else idle=0; fi
    size=$now
    if [ $idle -ge "$quiet" ]; then
        stopped="quiet for ${quiet}s"
    elif [ "$(furthest)" = $last ]; then
        stopped="the last milestone showed"
    else
        continue
    fi
    kill -- -$pid 2>/dev/null
    break
done
wait $pid 2>/dev/null
rc=$?
if [ -z "$stopped" ]; then
    case $rc in
    0) stopped="the guest powered off" ;;
    3) stopped="the guest crashed" ;;
    124) stopped="timed out after ${timeout}s" ;;
    120) stopped="the VM reset, no exit status" ;;
    *) stopped="tools/pvshim-run exited $rc" ;;
    esac
fi

got=$(furthest)
name=none
[ "$got" -lt 0 ] || name=${milestones[got * 2]}
what="reached $name (wanted at least $LINUX_EXPECT; $stopped)"
if grep -aqE 'Panic on CPU|FATAL TRAP' "$log"; then
    echo "FAIL: $label: the shim itself failed; $what (console: $log)"
elif [ "$got" -ge "$want" ]; then
    echo "PASS: $label: $what"
else
    echo "FAIL: $label: $what (console: $log)"
    grep -a '(d1)\|d1:' "$log" | tail -n 8 | sed 's/^/    | /'
fi

# Then the same kernel as Debian ships it: the bzImage, decompressed by
# the shim (tools/fetch-linux leaves it next to the ELF).
if [ -z "${LINUX_KERNEL:-}" ] && [ -r "$(dirname "$kernel")/vmlinuz" ]; then
    LINUX_KERNEL=$(dirname "$kernel")/vmlinuz \
        LINUX_LOG=build/check/linux-bzimage.log \
        LINUX_LABEL="linux: bzImage" exec "$0"
fi
