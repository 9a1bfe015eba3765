#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# docs/debugging.md's recipe, scripted: the xen-version test kernel
# booted on the shim under QEMU TCG with the gdbstub on a free port of
# 127.0.0.1 and the CPU held at reset (tools/pvshim-run --gdb), and a
# `gdb -batch` session that loads the shim's symbols
# (build/default/pvshim-syms) and the guest's beside them, stops at the
# hypercall entry for xen_version (a condition on the hypercall number),
# then in the handler do_xen_version(), reads the guest's registers from
# the saved frame (cpu_info.guest_regs) and the vCPU's state, then
# deletes its breakpoints and lets the guest run to its end.  Checked
# against the guest ELF's symbols (nm, readelf): the guest's RIP is the
# instruction after the `syscall` (`int $0x82`) of stub 17 of its
# hypercall page, and the return address on its stack lies in its text,
# in the function gdb names.  Once for a 64-bit guest, with the shim's
# ELF as gdb's file; once for a 32-bit one, with the guest's ELF as the
# file and `set architecture i386:x86-64`.  One "PASS: gdb: ..." or
# "FAIL: gdb: ...: why" line per check; logs in build/check/gdb/.
# GDB_SHIM_DIR=DIR runs the shim built there (default build/default).
set -u
cd "$(dirname "$0")/../.."

logdir=build/check/gdb
mkdir -p "$logdir"
shim_dir=${GDB_SHIM_DIR:-build/default}
shim=$shim_dir/pvshim-syms
# Only hangs end a run: a boot takes seconds alone, a minute on a loaded
# host; gdb evaluates its condition at a few dozen hypercalls.
timeout=${GDB_TIMEOUT:-600}
. tests/boot/lib.sh

command -v gdb >/dev/null || { echo "FAIL: gdb: no gdb (ci/deps.sh)"; exit 0; }

# The address of SYMBOL in ELF, as a number.
sym() {
    local a
    a=$(nm "$1" | awk -v s="$2" '$3 == s { print $1; exit }')
    [ -n "$a" ] && echo $((16#$a))
}

# The text symbol of ELF that holds ADDR: the last one at or below it.
nm_function() {
    local a t n f=
    while read -r a t n; do
        case $t in T|t) ;; *) continue ;; esac
        [ $((16#$a)) -le "$2" ] || break
        f=$n
    done < <(nm -n "$1")
    echo "$f"
}

# ELF's .text section as "START END", numbers.
text_range() {
    local a s
    read -r a s < <(readelf -SW "$1" |
        sed -n 's/^ *\[ *[0-9]*\] \.text  *PROGBITS  *\([0-9a-f]*\) [0-9a-f]* \([0-9a-f]*\) .*/\1 \2/p')
    [ -n "$a" ] && echo $((16#$a)) $((16#$a + 16#$s))
}

# gdb_value PREFIX LOG: the hex number after PREFIX on a line of LOG.
gdb_value() {
    sed -n "s/^$1\(0x[0-9a-f]*\).*/\1/p" "$2" | head -n 1
}

# listening PORT SID: whether a process of session SID listens on
# 127.0.0.1:PORT (/proc/net/tcp: the local address in hex, state 0A,
# the socket's inode; a process's descriptors name the inodes it holds).
listening() {
    local hex inode p
    hex=$(printf '0100007F:%04X' "$1")
    inode=$(awk -v a="$hex" '$2 == a && $4 == "0A" { print $10; exit }' \
        /proc/net/tcp)
    [ -n "$inode" ] || return 1
    for p in $(pgrep -s "$2"); do
        ls -l "/proc/$p/fd" 2>/dev/null | grep -q "socket:\[$inode\]" &&
            return 0
    done
    return 1
}

# start_vm GUEST LOG: the VM under the gdbstub, in a session of its own
# (so a failure can stop QEMU by its group); sets port and vm_pid once
# QEMU listens there.  A port someone took between free_ports and QEMU's
# bind makes QEMU exit at once: then another port, three times.
start_vm() {
    local guest=$1 log=$2 try
    for try in 1 2 3; do
        port=$(free_ports 1)
        : >"$log"   # not the last run's: the job below empties it only once it runs
        setsid tools/pvshim-run "$guest" --memory 128M --gdb "$port" \
            --shim-dir "$shim_dir" --timeout "$timeout" \
            </dev/null >"$log" 2>&1 &
        vm_pid=$!
        # Wait for the listening socket, or for QEMU to give up.
        while kill -0 "$vm_pid" 2>/dev/null; do
            listening "$port" "$vm_pid" && return 0
            sleep 0.1
        done
        wait "$vm_pid"
    done
    return 1
}

# result WHAT STATUS WHY: one check's line, for run_case's $name (its
# gdb output in $gdblog).
result() {
    if [ "$2" = 0 ]; then
        echo "PASS: gdb: $name: $1"
    else
        echo "FAIL: gdb: $name: $1: $3 (gdb: $gdblog)"
    fi
}

# run_case NAME WIDTH GUEST GDB-FILE GDB-SETUP: one boot, one gdb
# session, its checks.  GDB-FILE (the shim's ELF or the guest's) is
# gdb's main file, the other one added with add-symbol-file; GDB-SETUP
# is what the session runs before `target remote`.
run_case() {
    local name=$1 width=$2 guest=$3 file=$4 setup=$5 other=$3
    local tag=${name//[^A-Za-z0-9_.-]/_}
    local console=$logdir/$tag.console gdblog=$logdir/$tag.gdb
    local script=$logdir/$tag.cmds
    local entry frame ret page stub_end rc why= text f
    local frame_rip off t0 t1
    [ "$file" = "$guest" ] && other=$shim
    # The hypercall's entry and the guest's return address on its stack:
    # the 64-bit stub is push %rcx; push %r11; mov $17,%eax; syscall
    # (10 bytes), the 32-bit one mov $17,%eax; int $0x82 (7 bytes).
    if [ "$width" = 64 ]; then
        entry=pv_syscall frame=rdi stub_end=10
        ret='*(unsigned long *)($g->rsp + 16)'
    else
        entry=pv_int82 frame=rbx stub_end=7
        ret='*(unsigned int *)$g->rsp'
    fi

    if [ ! -r "$guest" ] || [ ! -r "$shim" ]; then
        echo "FAIL: gdb: $name: no $guest or $shim (make all guests)"
        return
    fi
    if ! start_vm "$guest" "$console"; then
        echo "FAIL: gdb: $name: QEMU's gdbstub never listened" \
            "(console: $console)"
        tail -n 5 "$console" | sed 's/^/    | /'
        return
    fi

    # GDB: lines are what the checks read.
    cat >"$script" <<EOF
set pagination off
set confirm off
set debuginfod enabled off
# A reply may be slow on a loaded host (gdb's default wait is 2 s).
set remotetimeout 60
$setup
target remote 127.0.0.1:$port
add-symbol-file $other
# The hypercall entry, for xen_version (17): XENVER_version is answered
# there (dispatch(), inline); the other commands reach do_xen_version().
break $entry if regs->rax == 17
continue
printf "GDB: entry nr=%lu cmd=%lu rip=%#lx\n", regs->rax, regs->$frame, regs->rip
delete
break do_xen_version
continue
backtrace
# The saved guest frame and the vCPU, as get_cpu_info() finds them.
set \$ci = (struct cpu_info *)(((unsigned long)\$rsp | 0xffff) + 1) - 1
set \$g = &\$ci->guest_regs
set \$v = (struct vcpu *)\$ci->current
printf "GDB: handler cmd=%u frame_cmd=%lu\n", cmd, \$g->$frame
printf "GDB: guest rip=%#lx cs=%#lx rsp=%#lx\n", \$g->rip, \$g->cs, \$g->rsp
info symbol \$g->rip
printf "GDB: return=%#lx\n", $ret
info symbol $ret
printf "GDB: vcpu=%u cpu=%u\n", \$v->id, \$ci->cpu_id
printf "GDB: kernel_mode=%d compat=%d\n", \$v->kernel_mode, dom.compat
delete
printf "GDB: continuing\n"
continue
EOF
    timeout -k 10 "$timeout" gdb -batch -nx -x "$script" "$file" \
        </dev/null >"$gdblog" 2>&1
    # gdb is gone: QEMU ends as the guest does, or now if gdb failed.
    if ! grep -aq '^GDB: continuing' "$gdblog"; then
        kill -- -"$vm_pid" 2>/dev/null
    fi
    wait "$vm_pid"
    rc=$?

    # What gdb printed, and the guest ELF's own word on it.
    page=$(sym "$guest" hypercall_page)
    off=$((17 * 32 + stub_end))
    frame_rip=$(gdb_value 'GDB: guest rip=' "$gdblog")
    ret=$(gdb_value 'GDB: return=' "$gdblog")
    read -r t0 t1 < <(text_range "$guest")
    [ -n "$frame_rip" ] && [ -n "$ret" ] || why="gdb printed no guest frame"
    [ -n "$page" ] && [ -n "${t1:-}" ] ||
        why="no hypercall_page or .text in $guest"

    # 1. Stopped at the hypercall entry on xen_version.
    grep -aqE '^GDB: entry nr=17 cmd=[0-9]+ rip=0x' "$gdblog"
    result "a conditional break at $entry() on xen_version" $? \
        "no stop there"

    # 2. In the handler, whose argument is the frame's: the right frame.
    grep -aqE '^GDB: handler cmd=([0-9]+) frame_cmd=\1$' "$gdblog" &&
        grep -aqE '^#0 .*do_xen_version \(' "$gdblog"
    result "do_xen_version() reached, its cmd the saved frame's" $? \
        "not stopped there with the frame's cmd"

    # 3. The guest's RIP: just past stub 17's hypercall instruction.
    [ -z "$why" ] && [ $((frame_rip)) = $((page + off)) ] &&
        grep -aqE "^hypercall_page \+ $off in section \.text" "$gdblog"
    result "the guest's RIP ${frame_rip:-?} is hypercall_page+$off (nm)" $? \
        "hypercall_page is $(printf '%#x' "${page:-0}")${why:+; $why}"

    # 4. The return address: in the guest's text, in the function nm and
    # gdb (with the guest's symbols) both name, outside the page.
    f=
    [ -z "$why" ] && f=$(nm_function "$guest" $((ret)))
    [ -n "$f" ] && [ "$f" != hypercall_page ] &&
        [ $((ret)) -ge "$t0" ] && [ $((ret)) -lt "$t1" ] &&
        grep -aqE "^$f \+ [0-9]+ in section \.text" "$gdblog"
    result "the guest's return address ${ret:-?} is in its text, in ${f:-?}()" \
        $? "not in .text [${t0:-?}, ${t1:-?}), or gdb and nm disagree${why:+; $why}"

    # 5. The vCPU's state: vCPU 0 on CPU 0, in kernel mode, of this width.
    grep -aqx 'GDB: vcpu=0 cpu=0' "$gdblog" &&
        grep -aqx "GDB: kernel_mode=1 compat=$((width == 32))" "$gdblog"
    result "the current vCPU and the domain read" $? \
        "not vCPU 0 on CPU 0 in kernel mode, compat=$((width == 32))"

    # 6. Breakpoints gone, continued: the guest ends as it does alone.
    # QEMU's isa-debug-exit ends the process under gdb's feet, which gdb
    # reports as a closed connection.
    text=
    [ "$rc" = 0 ] || text="exit status $rc, wanted 0"
    if ! grep -aq '^GDB: continuing' "$gdblog" ||
       ! tail -n 1 "$gdblog" | grep -aq 'Remote connection closed'; then
        text="${text:+$text; }gdb did not continue to QEMU's end ($gdblog)"
    fi
    verdict "gdb: $name: continued to a clean end" "$console" "$text" \
        '+\(d1\) Test result: SUCCESS' '+Shutting down the VM, exit status 0'
}

run_case "pv64 xen-version" 64 build/guests/xen-version.elf "$shim" ""
run_case "pv32 xen-version" 32 build/guests32/xen-version.elf \
    build/guests32/xen-version.elf "set architecture i386:x86-64"
