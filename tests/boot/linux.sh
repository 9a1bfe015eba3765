#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make linux-check: boot Debian's Linux PV kernel (linux-image-cloud-amd64,
# fetched by tools/fetch-linux into build/linux/) on the shim with the
# busybox initramfs (tools/make-initramfs), drive its shell through the
# serial console, and report how far it got, by the milestones its console
# shows.  One line:
#
#   PASS: linux: reached MILESTONE (wanted at least EXPECTED) ...
#   FAIL: linux: ...                  (console in build/check/linux.log)
#   SKIP: linux: no kernel (...)      no network, no package lists
#
# LINUX_EXPECT is the milestone the shim must reach: raise it as the shim
# learns more (the last one, poweroff, is the whole issue-8 workload).
# Until the shell is up, the boot stops when it has stalled: its console
# quiet for LINUX_QUIET seconds (default 30) while the guest sat idle
# (its QEMU used less than a tenth of a host CPU meanwhile: every vCPU
# blocked, as in a lost wake-up), or quiet for LINUX_QUIET_BUSY seconds
# (default 240) however busy.  A guest that is only slow, on a loaded
# host, keeps using the CPU it gets and is never stopped for that.  Each
# shell step gets LINUX_STEP seconds (default 300: the balloon step
# sleeps in a loop for up to 90 s of its own); all of it LINUX_TIMEOUT
# (default 900).  LINUX_KERNEL boots another kernel (ELF or
# bzImage) instead; LINUX_DIR is where tools/fetch-linux keeps Debian's
# (build/linux).  Without busybox-static (no network) the kernel boots
# without an initrd; LINUX_INITRD=none boots it without one on purpose
# (a boot loader that brings its own: tests/boot/pvgrub-linux.sh).
# LINUX_CMDLINE replaces the kernel's command line; LINUX_WANT_LOG, a
# regex, must match a console line too (what the command line asked
# for happened), and LINUX_REFUSE_LOG must match none.
# Debian's own bzImage is booted second, through the shim's decompressor,
# and must reach the same milestone ("linux: bzImage", console in
# build/check/linux-bzimage.log); LINUX_IMAGE=elf or =bzimage boots only
# that one (make check runs them side by side).
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/boot/lib.sh       # shim_keys

LINUX_EXPECT=${LINUX_EXPECT:-poweroff}
timeout=${LINUX_TIMEOUT:-900}
quiet=${LINUX_QUIET:-30}
quiet_busy=${LINUX_QUIET_BUSY:-240}
step_limit=${LINUX_STEP:-300}
cmdline=${LINUX_CMDLINE:-console=hvc0 earlyprintk=xen}
image=${LINUX_IMAGE:-both}
case $image in
elf|bzimage|both) ;;
*) echo "FAIL: ${LINUX_LABEL:-linux}: LINUX_IMAGE=$image is none of elf, bzimage, both"
   exit 1 ;;
esac

# The milestones, in boot order: name, then what its console line matches.
# Early lines come through console_io as "(d1) ..."; once hvc0 takes over
# they come through the console ring as raw text, so none needs the prefix.
# The shell's markers are built by the shell ($i, $(...)), so the echo of
# a typed command never matches its own marker.  Linux prints nothing of
# xenstore at its default log level; poweroff is where it shows: the
# power button reaches Linux as control/shutdown, through its xenbus
# watch.
milestones=(
    entered     'Dom1: .*entering the guest at'
    started     'about to get started\.\.\.'
    banner      'Linux version [0-9]'
    xen-pv      'Booting (paravirtualized )?kernel on Xen'
    events      'xen:events: Using (FIFO-based|2-level) ABI'
    timer       '(installing Xen timer for CPU 0|clocksource: xen: mask)'
    calibrate   'Calibrating delay'
    clocksource 'clocksource: Switched to clocksource'
    grant-table '(Grant table initialized|Grant tables using version)'
    init        '(Run .* as init process|pvshim-initramfs: /init reached)'
    shell       'pvshim-initramfs: shell ready'
    fork-exec   'linux-check: fork-exec 200 ok'
    mmap        'touch-memory: 64 MiB x 4'
    static-keys 'linux-check: static keys flipped [0-9]+ times'
    balloon     'linux-check: balloon 64 MiB down and back up'
    cpuinfo     'linux-check: cpuinfo [1-9][0-9]* cpu'
    dmesg       'linux-check: dmesg has 0 bad lines'
    poweroff    'linux-check: powered off, exit status 0'
)

# What is typed at the shell, one command per step after "shell": each
# waits for the milestone of the same name.  The last is the shutdown:
# LINUX_SHUTDOWN=button (default) presses the VM's ACPI power button
# (QEMU's system_powerdown, through a monitor on a pipe), =poweroff types
# poweroff; either must end in the shim's exit status 0.
shutdown=${LINUX_SHUTDOWN:-button}
case $shutdown in
button) shutdown_cmd='@system_powerdown' ;;
poweroff) shutdown_cmd='poweroff' ;;
*) echo "FAIL: ${LINUX_LABEL:-linux}: LINUX_SHUTDOWN=$shutdown is neither button nor poweroff"
   exit 1 ;;
esac
# The balloon: its target 64 MiB down (decrease_reservation), then back
# up (populate_physmap); each way info/current_kb must get there within
# 45 s, so the line saying how far it got comes within the step's time.
# The sysfs files are those of Linux's drivers/xen/xen-balloon.c.
balloon_cmd='b=/sys/devices/system/xen_memory/xen_memory0; '
balloon_cmd+='mt() { awk "/^MemTotal/ { print \$2 }" /proc/meminfo; }; '
balloon_cmd+='cur() { cat $b/info/current_kb; }; '
balloon_cmd+='t=$(cat $b/target_kb); lo=$((t - 65536)); echo $lo >$b/target_kb; '
balloon_cmd+='i=0; while [ $(cur) -gt $lo ] && [ $i -lt 45 ]; do sleep 1; i=$((i + 1)); done; '
balloon_cmd+='d=$(cur) dm=$(mt); echo $t >$b/target_kb; '
balloon_cmd+='i=0; while [ $(cur) -lt $t ] && [ $i -lt 45 ]; do sleep 1; i=$((i + 1)); done; '
balloon_cmd+='u=$(cur) um=$(mt); '
balloon_cmd+='echo "linux-check: balloon target $t kB: down to $d (MemTotal $dm kB), up to $u (MemTotal $um kB)"; '
balloon_cmd+='[ $d -le $lo ] && [ $u -ge $t ] && echo "linux-check: balloon $((65536 / 1024)) MiB down and back up"'
# Static keys flipped while every other vCPU forks and execs: each flip
# is a text_poke_bp() of the scheduler's schedstats sites (int3, the
# rest, the first byte, each followed by IPIs to every CPU), which the
# other vCPUs run into.  LINUX_FLIPS times (default 20; ci/check.sh asks
# for more on 4 vCPUs, where a shim that let QEMU keep running a removed
# int3 hung within 600 to 1600 flips, every CPU in xen_asm_exc_int3).
flips=${LINUX_FLIPS:-20}
keys_cmd='f=/proc/sys/kernel/sched_schedstats; n=$(grep -c ^processor /proc/cpuinfo); rm -f /tmp/keys-done; '
keys_cmd+='c=1; while [ $c -lt $n ]; do (while [ ! -e /tmp/keys-done ]; do /bin/true; done) & c=$((c + 1)); done; '
keys_cmd+="i=0; while [ \$i -lt $flips ] && echo 1 >\$f && echo 0 >\$f; do i=\$((i + 1)); done; "
keys_cmd+="touch /tmp/keys-done; wait; [ \$i = $flips ] && echo \"linux-check: static keys flipped \$i times\" || "
keys_cmd+="echo \"linux-check: static keys: \$i of $flips flips, then a write to \$f failed\""
shell_steps=(
    fork-exec 'i=0; while [ $i -lt 200 ] && /bin/true; do i=$((i+1)); done; echo "linux-check: fork-exec $i ok"'
    mmap      '/bin/touch-memory 64 4'
    static-keys "$keys_cmd"
    balloon   "$balloon_cmd"
    cpuinfo   'grep -q "^flags" /proc/cpuinfo && echo "linux-check: cpuinfo $(grep -c ^processor /proc/cpuinfo) cpu"'
    dmesg     'dmesg | grep -E "BUG|WARNING|Oops"; echo "linux-check: dmesg has $(dmesg | grep -cE "BUG|WARNING|Oops") bad lines"'
    poweroff  "$shutdown_cmd"
)

# The bzImage alone: its own label and console.
if [ -z "${LINUX_KERNEL:-}" ] && [ "$image" = bzimage ]; then
    : "${LINUX_LOG:=build/check/linux-bzimage.log}"
    : "${LINUX_LABEL:=linux: bzImage}"
fi
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
    fetch_log=${log%.log}-fetch.log
    kernel=$(tools/fetch-linux "${LINUX_DIR:-build/linux}" 2>"$fetch_log")
    case $? in
    0) ;;
    2) echo "SKIP: $label: no kernel ($(tail -n1 "$fetch_log"))"
       exit 0 ;;
    *) echo "FAIL: $label: tools/fetch-linux failed ($fetch_log)"
       exit 1 ;;
    esac
    [ "$image" != bzimage ] || kernel=$(dirname "$kernel")/vmlinuz
fi
initrd=() initrd_note=
if [ "${LINUX_INITRD:-}" = none ]; then
    :
elif initramfs=$(tools/make-initramfs 2>"${log%.log}-initramfs.log"); then
    initrd=(--initrd "$initramfs")
else
    initrd_note="; no initramfs: $(tail -n1 "${log%.log}-initramfs.log")"
fi

# The furthest milestone the log shows: its index, or -1.
furthest() {
    local i best=-1
    for ((i = 0; i < ${#milestones[@]}; i += 2)); do
        grep -aqE -- "${milestones[i + 1]}" "$log" && best=$((i / 2))
    done
    echo $best
}

# The host CPU seconds the boot's processes (its session) have used.
cpu_seconds() {
    ps -s "$1" -o times= 2>/dev/null | awk '{ s += $1 } END { print s + 0 }'
}

# The serial console's input is a FIFO the script keeps open (fd 3), so
# QEMU sees no end of input between commands.  A second QEMU monitor on a
# pipe pair (QEMU opens both ends read-write: no blocking) presses the
# power button; a step starting with @ goes there.  Both are named after
# the console's log, so that boots may run side by side.
fifo=${log%.log}.in
mon=${log%.log}-monitor
rm -f "$fifo" "$mon.in" "$mon.out"
mkfifo "$fifo" "$mon.in" "$mon.out" || exit 1
# Boot in a process group of its own, so that stopping it stops QEMU too.
last=$(( ${#milestones[@]} / 2 - 1 ))
shell_at=$(index_of shell)
: >"$log"   # not the last run's: the job below empties it only once it runs
setsid tools/pvshim-run "$kernel" "${initrd[@]}" --memory 512M \
    --vcpus "${LINUX_VCPUS:-1}" \
    --timeout "$timeout" --guest-cmdline "$cmdline" \
    -- -chardev "pipe,id=linuxcheck,path=$mon" -mon chardev=linuxcheck \
    <"$fifo" >"$log" 2>&1 &
pid=$!
# Whatever stops this script stops the boot too.
trap 'kill -- -$pid 2>/dev/null' EXIT
trap 'exit 1' INT TERM
exec 3>"$fifo"
size=-1 quiet_since=$SECONDS cpu_then=0 stopped= step=0 sent_at=
# A second between looks, but none between a step's milestone and the
# next command (two naps a step were ten of the job's 26 s).
nap=1
while kill -0 $pid 2>/dev/null; do
    [ -z "$nap" ] || sleep 1
    nap=1
    now=$(stat -c %s "$log")
    if [ "$now" != "$size" ]; then
        quiet_since=$SECONDS cpu_then=$(cpu_seconds $pid)
    fi
    size=$now
    idle=$((SECONDS - quiet_since))
    got=$(furthest)
    if [ "$got" -lt "$shell_at" ]; then
        [ $idle -ge "$quiet" ] || continue
        # Stalled: quiet, and no CPU used (under a tenth of one).
        used=$(( $(cpu_seconds $pid) - cpu_then ))
        if [ $((used * 10)) -lt $idle ]; then
            stopped="stalled: quiet for ${idle}s, ${used}s of CPU meanwhile"
        elif [ $idle -ge "$quiet_busy" ]; then
            stopped="quiet for ${idle}s, busy (${used}s of CPU)"
        else
            continue
        fi
    elif [ $step -lt ${#shell_steps[@]} ]; then
        # One command at a time; the next once its milestone shows.
        name=${shell_steps[step]}
        if [ -z "$sent_at" ]; then
            cmd=${shell_steps[step + 1]}
            if [ "${cmd:0:1}" = @ ]; then
                printf '%s\n' "${cmd:1}" >"$mon.in"
            else
                printf '%s\n' "$cmd" >&3
            fi
            sent_at=$SECONDS
            continue
        fi
        if [ "$name" != poweroff ] &&
           grep -aqE -- "${milestones[$(index_of "$name") * 2 + 1]}" "$log"
        then
            step=$((step + 2)) sent_at= nap=
            continue
        fi
        [ $((SECONDS - sent_at)) -ge "$step_limit" ] || continue
        stopped="no answer to the $name step in ${step_limit}s"
    else
        continue
    fi
    # The shim's view of a boot that stopped moving, in its console, as
    # io.sh's: domain and vCPUs, run queues, event channels, each CPU's
    # registers and stack, timers, backends (a stall in CI seen once, on
    # 8 vCPUs, left nothing else to go on).
    shim_keys q r e d a b
    sleep 3
    stopped+="; the shim's debug keys q r e d a b are in the console"
    kill -- -$pid 2>/dev/null
    break
done
wait $pid 2>/dev/null
rc=$?
trap - EXIT
exec 3>&-
rm -f "$fifo" "$mon.in" "$mon.out"
if [ -z "$stopped" ]; then
    case $rc in
    0) stopped="the guest powered off"
       # Only a poweroff that was asked for is the last milestone.
       if [ $step -lt ${#shell_steps[@]} ] &&
          [ "${shell_steps[step]}" = poweroff ] && [ -n "$sent_at" ]; then
           echo "linux-check: powered off, exit status 0" >>"$log"
       fi ;;
    3) stopped="the guest crashed" ;;
    124) stopped="timed out after ${timeout}s" ;;
    120) stopped="the VM reset, no exit status" ;;
    *) stopped="tools/pvshim-run exited $rc" ;;
    esac
fi

got=$(furthest)
name=none
[ "$got" -lt 0 ] || name=${milestones[got * 2]}
what="reached $name (wanted at least $LINUX_EXPECT; $stopped$initrd_note)"
if grep -aqE 'Panic on CPU|FATAL TRAP' "$log"; then
    echo "FAIL: $label: the shim itself failed; $what (console: $log)"
elif [ -n "${LINUX_WANT_LOG:-}" ] &&
     ! grep -aqE -- "$LINUX_WANT_LOG" "$log"; then
    echo "FAIL: $label: no line matches '$LINUX_WANT_LOG'; $what" \
         "(console: $log)"
elif [ -n "${LINUX_REFUSE_LOG:-}" ] &&
     grep -aqE -- "$LINUX_REFUSE_LOG" "$log"; then
    echo "FAIL: $label: $(grep -aE -- "$LINUX_REFUSE_LOG" "$log" |
         head -n 1); $what (console: $log)"
elif [ "$got" -ge "$want" ]; then
    echo "PASS: $label: $what"
else
    echo "FAIL: $label: $what (console: $log)"
    grep -a '(d1)\|d1:' "$log" | tail -n 8 | sed 's/^/    | /'
fi

# Then the same kernel as Debian ships it: the bzImage, decompressed by
# the shim (tools/fetch-linux leaves it next to the ELF).
if [ -z "${LINUX_KERNEL:-}" ] && [ "$image" = both ] &&
   [ -r "$(dirname "$kernel")/vmlinuz" ]; then
    LINUX_KERNEL=$(dirname "$kernel")/vmlinuz \
        LINUX_LOG=build/check/linux-bzimage.log \
        LINUX_LABEL="linux: bzImage" exec "$0"
fi
