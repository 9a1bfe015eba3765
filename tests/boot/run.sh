#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Boot tests: boot the shim under QEMU TCG through tools/pvshim-run and
# check its exit status and console.  One "PASS: name" / "FAIL: name" line
# per case; a failing case's console is kept in build/check/boot/NAME.log.
#
#   expect NAME STATUS [+REGEX | -REGEX]... -- PVSHIM-RUN-ARGS...
#
# STATUS may be an alternation ("3|124"); BOOT_TIMEOUT bounds each boot.
# +REGEX must match a console line, -REGEX must match none (grep -E).
#
# The cases come in sections, independent of each other: arguments name
# the sections to run (default: all), --list prints their names (make
# check runs each as a job of its own).
set -u
cd "$(dirname "$0")/../.."

logdir=build/check/boot
mkdir -p "$logdir"
demo=build/guests/hello.elf
notakernel=tests/demo/hello.txt
timeout=${BOOT_TIMEOUT:-120}
. tests/boot/lib.sh

expect() {
    local name=$1 want=$2 log=$logdir/${1//[^A-Za-z0-9_.-]/_}.log
    local pats=() why= rc
    shift 2
    while [ $# -gt 0 ] && [ "$1" != -- ]; do pats+=("$1"); shift; done
    shift

    tools/pvshim-run --timeout "$timeout" "$@" </dev/null >"$log" 2>&1
    rc=$?
    [[ "$rc" =~ ^($want)$ ]] || why="exit status $rc, wanted $want"
    verdict "$name" "$log" "$why" "${pats[@]}"
}

# What the console-ring-input guest prints before it blocks for input.
waiting='console-ring-input: waiting for a line'

# until_console LOG REGEX: wait until a line of LOG matches REGEX (at most
# the boot's timeout), then half a second more.
until_console() {
    local end=$((SECONDS + timeout))

    until grep -aqE -- "$2" "$1" || [ $SECONDS -ge $end ]; do
        sleep 0.1
    done
    sleep 0.5
}

input_case() {
    local name=$1 when=$2 text=$3 log=$logdir/${1//[^A-Za-z0-9_.-]/_}.log
    local why= p pats=()
    shift 3
    while [ $# -gt 0 ] && [ "$1" != -- ]; do pats+=("$1"); shift; done
    shift
    : >"$log"
    { if [ "$when" = blocked ]; then until_console "$log" "$waiting"
      else sleep "$when"; fi
      printf '%s' "$text"
    } | tools/pvshim-run --timeout "$timeout" "$@" >"$log" 2>&1
    for p in "${pats[@]}"; do
        grep -aqE -- "$p" "$log" || why="${why:+$why; }no line matches '$p'"
    done
    if [ -z "$why" ]; then
        echo "PASS: $name"
    else
        echo "FAIL: $name: $why (console: $log)"
    fi
}

typed_case() {
    local name=$1 keys=$2 log=$logdir/${1//[^A-Za-z0-9_.-]/_}.log
    local k pats=()
    shift 2
    while [ $# -gt 0 ] && [ "$1" != -- ]; do pats+=("$1"); shift; done
    shift
    : >"$log"
    { until_console "$log" "$waiting"
      for k in $keys; do
          k=${k//^A/$'\001'}
          printf '%s' "${k//^M/$'\r'}"
          sleep 0.3
      done
    } | tools/pvshim-run --timeout "$timeout" "$@" >"$log" 2>&1
    verdict "$name" "$log" "" "${pats[@]}"
}

# monitor_case NAME COMMAND [+REGEX | -REGEX]... -- PVSHIM-RUN-ARGS...:
# the console-ring-input guest, COMMAND typed into a QEMU monitor (on a
# FIFO pair, which QEMU opens read-write) once it waits for its line;
# exit status 0 wanted.
monitor_case() {
    local name=$1 cmd=$2 log=$logdir/${1//[^A-Za-z0-9_.-]/_}.log
    local mon=$logdir/${1//[^A-Za-z0-9_.-]/_}.monitor pats=() pid rc why=
    shift 2
    while [ $# -gt 0 ] && [ "$1" != -- ]; do pats+=("$1"); shift; done
    shift
    rm -f "$mon.in" "$mon.out"
    mkfifo "$mon.in" "$mon.out" || { echo "FAIL: $name: mkfifo"; return; }
    : >"$log"
    tools/pvshim-run --timeout "$timeout" "$@" \
        -- -chardev "pipe,id=boottest,path=$mon" -mon chardev=boottest \
        </dev/null >"$log" 2>&1 &
    pid=$!
    until_console "$log" "$waiting"
    # Not if QEMU is gone: nothing would open the FIFO.
    kill -0 $pid 2>/dev/null &&
        timeout 10 bash -c 'printf "%s\n" "$1" >"$2"' - "$cmd" "$mon.in"
    wait $pid
    rc=$?
    rm -f "$mon.in" "$mon.out"
    [ $rc = 0 ] || why="exit status $rc, wanted 0"
    verdict "$name" "$log" "$why" "${pats[@]}"
}

banner='\(XEN\) \[ *[0-9]+\.[0-9]{6}\] pvshim .* starting'
clean='Shutting down the VM, exit status 0'

guest_ok='\(d1\) Test result: SUCCESS'

# The three entry paths (and GRUB from BIOS too): banner, memory map,
# modules, command line, then the demo PV guest to a clean ACPI poweroff.
section_entry() {
    for boot in multiboot1 grub-bios grub-uefi; do
        expect "entry: $boot" 0 "+$banner" "+Physical memory map:" \
            "+ \[0000000000200000, [0-9a-f]+\] \(shim\)" "+Modules: 1" \
            "+module 0: .*command line \"console=hvc0 earlyprintk\"" \
            "+Command line: loglvl=all" \
            "+\(d1\)   cmd_line +\"console=hvc0 earlyprintk\"" \
            "+$guest_ok" "+$clean" \
            -- "$demo" --boot "$boot" --shim-cmdline "loglvl=all" \
            --guest-cmdline "console=hvc0 earlyprintk"
    done
    expect "entry: pvh" 0 "+$banner" "+Booted by pvh" "+Physical memory map:" \
        "+Modules: 1" "+Command line: loglvl=all" \
        "+Guest command line extra \(after \"--\"\): console=hvc0" \
        "+\(d1\)   cmd_line +\"console=hvc0\"" "+$guest_ok" "+$clean" \
        -- "$demo" --boot pvh --shim-cmdline "loglvl=all" \
        --guest-cmdline "console=hvc0"
    expect "entry: multiboot1 with initrd" 0 "+Modules: 2" \
        "+module 1: tests/demo/hello.txt" "+\(d1\)   module +0x[0-9a-f]+, 139 bytes" \
        "+$guest_ok" "+$clean" -- "$demo" --initrd "$notakernel"
    expect "entry: multiboot1, module string with a comma" 0 \
        "+command line \"a,b\"" -- "$demo" --guest-cmdline "a,b"
    expect "entry: a module that is no kernel is refused" 6 \
        "+d1: guest kernel refused: " "+exit status 6" -- "$notakernel"
}

# bzImages (tools/mkbzimage around the demo): the shim decompresses gzip,
# LZ4, XZ and zstd payloads itself; malformed ones are refused with
# status 6.
section_bzimage() {
    bz=build/check/boot/bz
    mkdir -p "$bz"
    for f in gzip lz4 xz zstd; do
        tools/mkbzimage "$f" "$demo" "$bz/hello-$f"
        expect "bzimage: $f payload boots" 0 \
            "+Dom1 kernel: bzImage \(boot protocol 2\.15\), $f payload" \
            "+$guest_ok" "+$clean" -- "$bz/hello-$f"
    done
    tools/mkbzimage lz4 "$demo" "$bz/sects0" setup_sects=0
    expect "bzimage: setup_sects 0 means 4" 0 "+$guest_ok" -- "$bz/sects0"
    bad() {     # name, refusal, mkbzimage format and fields
        local name=$1 why=$2 f=$3
        shift 3
        tools/mkbzimage "$f" "$demo" "$bz/$name" "$@"
        expect "bzimage: $name is refused" 6 \
            "+d1: guest kernel refused: .*$why" "+exit status 6" -- "$bz/$name"
    }
    bad truncated "payload lies outside the image" lz4 truncate=20000
    bad huge-trailer "uncompressed size is absurd" lz4 trailer=0x40000000
    bad short-trailer "output larger than announced" lz4 trailer=1000
    bad long-trailer "shorter than its trailer says" lz4 \
        trailer=$(( $(stat -c %s "$demo") + 100000 ))
    bad gzip-corrupt "its gzip payload: " gzip corrupt=3000
    bad lz4-corrupt "its lz4 payload: " lz4 corrupt=4
    bad old-protocol "boot protocol older than 2.08" lz4 version=0x207
    bad payload-offset "payload lies outside the image" gzip \
        payload_offset=0xfffffff0
    bad bzip2 "compression format not supported" bzip2
}

section_config() {
    for c in debug no-thunk; do
        expect "config: $c boots" 0 "+$banner" "+$clean" \
            -- "$demo" --shim-dir "build/$c"
    done
    expect "config: debug build says so in its banner" 0 \
        "+debug build" -- "$demo" --shim-dir build/debug
    # Its lock order check is live: two locks out of order at boot panic,
    # naming both; a release build only warns.
    expect "config: debug build refuses locks out of order" 4 \
        "+lock order: taking event_lock \(rank [0-9]+\) while holding page_alloc_lock \(rank [0-9]+\)" \
        "-$guest_ok" -- "$demo" --shim-dir build/debug \
        --shim-cmdline lock-order-selftest
    expect "config: release build has no lock order check" 0 \
        "+lock-order-selftest: this build has no lock order check" \
        "+$guest_ok" -- "$demo" --shim-cmdline lock-order-selftest
}

# The TSC's reference clock and the local APIC timer.
section_time() {
    expect "time: TSC calibrated against the PIT" 0 \
        "+TSC: [0-9]+\.[0-9]{3} MHz, PIT, within [0-9]+ ppm" \
        "+APIC: xAPIC, id 0, timer one-shot, [0-9]+\.[0-9]{3} MHz" \
        "+$guest_ok" -- "$demo"
    expect "time: no PIT -> the ACPI PM timer" 0 \
        "+TSC: [0-9]+\.[0-9]{3} MHz, ACPI PM timer" "+$guest_ok" \
        -- "$demo" -- -machine pit=off
    expect "time: clocksource=acpi" 0 \
        "+TSC: [0-9]+\.[0-9]{3} MHz, ACPI PM timer" "+$guest_ok" \
        -- "$demo" --shim-cmdline clocksource=acpi
    expect "time: clocksource=hpet is not supported, default kept" 0 \
        "+clocksource=hpet: not supported" "+TSC: [0-9.]+ MHz, PIT" \
        "+$guest_ok" -- "$demo" --shim-cmdline clocksource=hpet
}

# CPU and hypervisor detection, and the global-pages default both ways.
section_global_pages() {
    expect "global-pages: EPYC is AMD, virtualized -> off" 0 \
        "+CPU: AuthenticAMD \(AMD\)" "+Hypervisor: QEMU TCG" \
        "+global-pages: off \(AMD, running virtualized\)" \
        -- "$demo" --cpu EPYC
    expect "global-pages: qemu64 is AMD, virtualized -> off" 0 \
        "+global-pages: off \(AMD, running virtualized\)" -- "$demo" --cpu qemu64
    expect "global-pages: Intel -> on" 0 "+CPU: GenuineIntel \(Intel\)" \
        "+global-pages: on \(not AMD/Hygon\)" \
        -- "$demo" --cpu qemu64,vendor=GenuineIntel
    expect "global-pages: Hygon, virtualized -> off" 0 \
        "+CPU: HygonGenuine \(Hygon\)" \
        "+global-pages: off \(Hygon, running virtualized\)" \
        -- "$demo" --cpu qemu64,vendor=HygonGenuine
    expect "global-pages: no hypervisor bit -> on" 0 \
        "+Hypervisor: none detected" "+global-pages: on \(not virtualized\)" \
        -- "$demo" --cpu qemu64,-hypervisor
    expect "global-pages: global-pages=1 overrides AMD" 0 \
        "+global-pages: on \(command line\)" -- "$demo" --cpu EPYC \
        --shim-cmdline "global-pages=1"
    expect "global-pages: no-global-pages overrides Intel" 0 \
        "+global-pages: off \(command line\)" \
        -- "$demo" --cpu qemu64,vendor=GenuineIntel \
        --shim-cmdline "no-global-pages"
    expect "global-pages: global-pages=maybe is rejected, default kept" 0 \
        "+parameter \"global-pages\" has invalid value \"maybe\"" \
        "+global-pages: off \(AMD, running virtualized\)" "+$clean" \
        -- "$demo" --cpu EPYC --shim-cmdline "global-pages=maybe"
}

# smep= and smap= (Xen's): on where the CPU has them (EPYC does), off by
# option or as "hvm" (HVM guests only: none here), the guest's user-mode
# and grant copies passing either way; a bad value keeps the default.
section_smep_smap() {
    local smx='NX on, text RX, rodata RO, stack guard page' opts t

    expect "smep/smap: on by default where the CPU has them" 0 \
        "+$smx, SMEP on, SMAP on" "+$guest_ok" -- "$demo" --cpu EPYC
    for opts in "no-smep no-smap" "smep=hvm smap=hvm" "smep=0 smap=false"
    do
        for t in user-syscall grant-copy; do
            expect "smep/smap: $opts: $t" 0 "+$smx" "-SMEP on" \
                "-SMAP on" "+$guest_ok" -- build/guests/$t.elf --cpu EPYC \
                --shim-cmdline "$opts"
            expect "smep/smap: $opts: $t [pv32]" 0 "+$smx" "-SMEP on" \
                "-SMAP on" "+$guest_ok" \
                -- build/guests32/$t.elf --cpu EPYC --shim-cmdline "$opts"
        done
    done
    expect "smep/smap: smep only" 0 "+$smx, SMEP on" "-SMAP on" \
        "+$guest_ok" -- "$demo" --cpu EPYC --shim-cmdline "no-smap"
    expect "smep/smap: smep=maybe is rejected, default kept" 0 \
        "+parameter \"smep\" has invalid value \"maybe\"" \
        "+$smx, SMEP on, SMAP on" -- "$demo" --cpu EPYC \
        --shim-cmdline "smep=maybe"
}

# Speculation controls: Xen's PV defaults for what TCG offers (none of the
# features, so the RSB overwrite, and Zen 1's DIV on EPYC), spec-ctrl=.
section_spec_ctrl() {
    expect "spec-ctrl: qemu64 -> RSB overwrite on entry" 0 \
        "+Speculative mitigation facilities:" "+SPEC_CTRL: No, Other:" \
        "+Support for PV VMs: RSB" "+PV entry: RSB LFENCE, exit: nothing" \
        "+alternatives: 0 sites patched" \
        "-Not implemented" "+$guest_ok" "+$clean" -- "$demo"
    expect "spec-ctrl: EPYC is Zen 1 -> DIV on exit" 0 \
        "+PV entry: RSB LFENCE, exit: DIV" "-alternatives: 0 sites" \
        "+$guest_ok" "+$clean" -- "$demo" --cpu EPYC
    expect "spec-ctrl: Intel without RDCL_NO -> Xen's XPTI, not done" 0 \
        "+Not implemented, Xen would use: XPTI" "+$guest_ok" \
        -- "$demo" --cpu qemu64,vendor=GenuineIntel
    expect "spec-ctrl=no: nothing on entry or exit" 0 \
        "+Support for PV VMs: None" "+PV entry: nothing, exit: nothing" \
        "-alternatives: 0 sites" \
        "+$guest_ok" "+$clean" -- "$demo" --cpu EPYC --shim-cmdline spec-ctrl=no
    expect "spec-ctrl=verw: VERW on exit without MD_CLEAR" 0 \
        "+PV entry: RSB LFENCE, exit: VERW" "-alternatives: 0 sites" \
        "+$guest_ok" "+$clean" -- "$demo" --shim-cmdline spec-ctrl=verw
    expect "spec-ctrl: an unknown sub-option is refused, the rest applies" 0 \
        "+parameter \"spec-ctrl\" has invalid value \"bti-thunk=jmp,rsb=0\"" \
        "+PV entry: nothing, exit: nothing" "+$guest_ok" \
        -- "$demo" --shim-cmdline spec-ctrl=bti-thunk=jmp,rsb=0
}

# Deliberate faults: register dump with symbol names, exit status 5.
section_fault() {
    for f in pf:14 gp:13 ud:6 de:0 bp:3; do
        expect "test-fault=${f%:*}" 5 "+FATAL TRAP: vector = ${f#*:} " \
            "+RIP: +\[<ffff82d0[0-9a-f]+>\] arch_test_fault\+0x" \
            "+Xen call trace:" "+\] start_shim\+0x[0-9a-f]+/0x" \
            "+rax: [0-9a-f]{16} +rbx: " "+Shutting down the VM, exit status 5" \
            -- "$demo" --shim-cmdline "test-fault=${f%:*}"
    done
    # Stack overflow: the #PF on the guard page can't be delivered on the
    # same stack, so it becomes a #DF on its own IST stack.
    expect "test-fault=df (stack overflow into the guard page)" 5 \
        "+FATAL TRAP: vector = 8 \(double fault\)" \
        "+RIP: +\[<ffff82d0[0-9a-f]+>\] overflow_stack" \
        "+Shutting down the VM, exit status 5" \
        -- "$demo" --shim-cmdline "test-fault=df"
    expect "test-fault: unknown kind is reported" 0 \
        "+test-fault: unknown fault \"zz\"" "+$clean" \
        -- "$demo" --shim-cmdline "test-fault=zz"
    expect "test-fault=pf via pvh" 5 "+FATAL TRAP: vector = 14 " \
        -- "$demo" --boot pvh --shim-cmdline "test-fault=pf"
}

# A shim that dies without a status (a triple fault, before its IDT is up:
# tests/boot/triple-fault.S stands in for it) resets the VM, and QEMU
# exits 0 under -no-reboot: the launcher must say "no status" (120), not 0.
section_launcher() {
    triple=build/boot/triple-fault
    mkdir -p "$triple"
    if gcc -m32 -c tests/boot/triple-fault.S -o "$triple/triple-fault.o" &&
       ld -m elf_i386 -Ttext=0x100000 -e _start -z max-page-size=0x1000 \
           -z noexecstack --build-id=none -o "$triple/pvshim" \
           "$triple/triple-fault.o"; then
        expect "launcher: a triple fault is no clean exit (120, not 0)" 120 \
            "-Shutting down the VM" -- "$demo" --shim-dir "$triple"
    else
        echo "FAIL: launcher: building tests/boot/triple-fault.S"
    fi
    # Every status comes through isa-debug-exit, poweroff included.
    expect "launcher: QEMU's own failure is 1" 1 -- "$demo" -- -cpu no-such-cpu
    # --disk ...,ro and ,cdrom: every disk named in a vbd= of the
    # launcher's own, by drivers/' names (virtio-blk and NVMe counted
    # apart, an NVMe controller a disk; --dry-run prints commas as \,);
    # a CD-ROM beside the user's own vbd= is refused, as it could not be
    # marked.
    local d=$logdir/launcher-disk
    truncate -s 1M "$d-0.img" "$d-1.img" "$d-2.img" "$d-3.img"
    expect "launcher: ro and cdrom disks named in a vbd=" 0 \
        '+vbd=virtio-blk0\\?,nvme0n1:ro\\?,virtio-blk1:cdrom\\?,nvme1n1' \
        -- "$demo" --dry-run --disk "$d-0.img" --disk "$d-1.img,if=nvme,ro" \
        --disk "$d-2.img,cdrom" --disk "$d-3.img,if=nvme"
    expect "launcher: no vbd= for plain disks" 0 "-vbd=" \
        -- "$demo" --dry-run --disk "$d-0.img" --disk "$d-1.img,if=nvme"
    expect "launcher: a user's vbd= stays, a read-only disk beside it" 0 \
        "+-append vbd=nvme0n1 " "-vbd=virtio-blk0" \
        -- "$demo" --dry-run --shim-cmdline vbd=nvme0n1 --disk "$d-0.img,ro"
    expect "launcher: a cdrom beside the user's own vbd= is refused" 125 \
        "+mark the CD-ROM there" \
        -- "$demo" --dry-run --shim-cmdline vbd=virtio-blk0 --disk "$d-0.img,cdrom"
}

# Malformed command lines are reported, and boot goes on.
section_cmdline() {
    expect "cmdline: unknown option" 0 "+parameter \"frobnicate\" unknown!" \
        "+parameter \"no-such-thing\" unknown!" "+global-pages: on \(command" \
        "+$clean" -- "$demo" \
        --shim-cmdline "frobnicate no-such-thing=3 global-pages"
    expect "cmdline: huge and malformed numbers" 0 \
        "+parameter \"com1\" has invalid value \"99999999999999999999999\"" \
        "+parameter \"com1\" has invalid value \"115200,8x1\"" "+$clean" \
        -- "$demo" --shim-cmdline "com1=99999999999999999999999 com1=115200,8x1"
    # <boolean> or <integer>: every Nth call (the end's audit always).
    expect "cmdline: mm-audit=16, a bad count refused" 0 \
        "+parameter \"mm-audit\" has invalid value \"16x\"" \
        "+parameter \"mm-audit\" has invalid value \"99999999999999999999\"" \
        "+mm audit: OK" "+$clean" -- "$demo" \
        --shim-cmdline "mm-audit=16x mm-audit=99999999999999999999 mm-audit=16"
    expect "cmdline: mm-audit=0 is off" 0 "-mm audit" "+$clean" \
        -- "$demo" --shim-cmdline "mm-audit=8 mm-audit=0"
    long=$(printf 'x%.0s' $(seq 1 4096))
    expect "cmdline: a 4 KiB line" 0 "+truncated" "+$clean" \
        -- "$demo" --shim-cmdline "global-pages=1 $long"
    expect "cmdline: loglvl=warning hides info" 0 \
        "-Physical memory map" "-$banner" \
        -- "$demo" --shim-cmdline "loglvl=warning"
    expect "cmdline: console=none is silent" 0 "-\(XEN\)" \
        -- "$demo" --shim-cmdline "console=none"
    expect "cmdline: com1 settings accepted" 0 "-invalid value" "+$clean" \
        -- "$demo" --shim-cmdline "com1=115200,8n1,0x3f8,4 console=com1"
    expect "cmdline: console_timestamps=none" 0 "+^\(XEN\) pvshim .* starting" \
        -- "$demo" --shim-cmdline "console_timestamps=none"
}

# Malformed and unsupported kernels (the fuzzer's seeds): the bad ones are
# refused with a reason (status 6); the well-formed ones hold no real
# kernel, so they run until they crash as a guest (3) or spin (124 after
# a short timeout).  The shim itself never fails.
section_kernel() {
    for f in tests/fuzz/corpus/elf/*; do
        name=$(basename "$f")
        case "$name" in
        bad-*|truncated-*|legacy-variants)
            expect "kernel: $name" 6 "+d1: guest kernel refused: " \
                "-FATAL TRAP|Panic on CPU" -- "$f" ;;
        *)
            timeout=10 expect "kernel: $name runs, the shim survives" "3|124" \
                "+entering the guest" "-FATAL TRAP|Panic on CPU" -- "$f" ;;
        esac
    done
}

# Guest memory: what guest-mem= asks, cut to what the shim can give, and a
# guest too small for its own kernel refused rather than a shim failure.
section_guest_mem() {
    expect "guest-mem: 16M" 0 "+Dom1: 16 MiB, 4096 pages" "+$guest_ok" \
        -- "$demo" --memory 128M --shim-cmdline "guest-mem=16M"
    expect "guest-mem: more than there is is cut down" 0 \
        "+guest-mem: 102400 MiB asked, [0-9]+ MiB can be given" "+$guest_ok" \
        -- "$demo" --memory 128M --shim-cmdline "guest-mem=100G"
    # The largest guest issue 9 asks for: 64 GiB (the host reserves nothing up
    # front: pvshim-run's reserve=off), its frames in runs around the PCI hole.
    expect "guest-mem: a 64 GiB guest" 0 \
        "+Dom1: 6[45][0-9]{3} MiB, [0-9]+ pages; entering" "+$guest_ok" \
        -- "$demo" --memory 64G
    expect "guest-mem: too small for the kernel is refused" 6 \
        "+d1: guest kernel refused: its initial mapping needs" \
        -- "$demo" --memory 128M --shim-cmdline "guest-mem=1M"
    expect "cmdline: console=vga alone keeps com1" 0 "+$banner" \
        "+console: nothing usable asked, keeping com1" "+$guest_ok" \
        -- "$demo" --shim-cmdline "console=vga"
    expect "cmdline: com1 baud too low for a 16-bit divisor" 0 \
        "+parameter \"com1\" has invalid value \"50/4000000\"" \
        -- "$demo" --shim-cmdline "com1=50/4000000"
}

# Console input: a line typed into the serial port reaches the guest
# through CONSOLEIO_read (the shim's input buffer, Xen's dom0 path), typed
# before the guest starts or while it polls; and through its console ring
# while it is blocked in SCHEDOP_block (the UART's interrupt wakes it).
#   input_case NAME WHEN TEXT REGEX... -- PVSHIM-RUN-ARGS...
# WHEN: seconds after launch, or "blocked": once console-ring-input says
# it waits for a line (it blocks at once), however long the boot took.
section_console_input() {
    local woken='after [0-9]+ block\(s\), [1-9][0-9]* woken by input'

    input_case "console: serial input reaches the guest" 0 $'typed into com1\n' \
        'console-echo: got "typed into com1"' 'Test result: SUCCESS' \
        -- build/guests/console-echo.elf
    input_case "console: serial input while the guest polls" 0.2 $'typed later\n' \
        'console-echo: got "typed later"' 'Test result: SUCCESS' \
        -- build/guests/console-echo.elf
    input_case "console: ring input wakes a blocked guest" blocked \
        $'typed while blocked\r' 'console: serial input by interrupt' \
        "console-ring-input: got \"typed while blocked\" $woken" \
        'Test result: SUCCESS' \
        -- build/guests/console-ring-input.elf --guest-cmdline "wait=60"
}

# Debug keys, as Xen's: CTRL-a three times gives the serial input to the
# shim ("Xen"), each key prints what Xen's prints, and CTRL-a three times
# gives it back: the guest, blocked on its console ring meanwhile, then
# gets exactly the line typed after that.
#   typed_case NAME KEYS [+REGEX | -REGEX]... -- PVSHIM-RUN-ARGS...
# KEYS: one word a write to the serial port, 0.3 s apart once the
# console-ring-input guest waits for its line; ^A stands for CTRL-a, ^M
# for a carriage return.
# The counters of the first 'p' add up (each array's total is the sum of
# its elements), and the second 'p', after 'P', counts fewer hypercalls.
perfc_check() {
    local why
    why=$(tr -d '\r' < "$1" | python3 -c '
import re, sys
shows, cur, arr = [], None, None
for line in sys.stdin:
    line = re.sub(r"^\(XEN\) (\[[ 0-9.]+\] )?", "", line)
    if "counters SHOW" in line:
        cur = {}; shows.append(cur); continue
    if cur is None:
        continue
    m = re.match(r"(.*?)\s+TOTAL\[\s*(\d+)\]", line)
    if m:
        arr = m.group(1).strip(); cur[arr] = [int(m.group(2)), 0]; continue
    m = re.match(r"\s+ARR\d+\[\s*(\d+)\]", line)
    if m and arr:
        cur[arr][1] += int(m.group(1))
if len(shows) != 2:
    sys.exit("%d SHOW outputs, not 2" % len(shows))
for name in ("hypercalls", "exceptions"):
    t, s = shows[0].get(name, [0, 0])
    if t != s:
        sys.exit("%s: total %d, elements %d" % (name, t, s))
if shows[1]["hypercalls"][0] >= shows[0]["hypercalls"][0]:
    sys.exit("hypercalls not reset: %d then %d" % (shows[0]["hypercalls"][0],
                                                   shows[1]["hypercalls"][0]))
' 2>&1)
    if [ -z "$why" ]; then
        echo "PASS: keys: the counters add up and 'P' resets them"
    else
        echo "FAIL: keys: the counters add up and 'P' resets them: $why"
    fi
}

section_keys() {
    local to_xen="\*\*\* Serial input to Xen \(type 'CTRL-a' three times to switch input\)"
    local to_dom1="\*\*\* Serial input to DOM1 \(type 'CTRL-a' three times to switch input\)"
    typed_case "keys: CTRL-a x3, h l L l d q e t r a, CTRL-a x3, input back to the guest" \
        "^A^A^A h l L l d q e t r a ^A^A^A back-to-the-guest^M" \
        "+$to_dom1" "+$to_xen" \
        "+'h' pressed -> showing installed handlers" \
        "+ key 'l' \(ascii '6c'\) => print lock profile info" \
        "+ key 'q' \(ascii '71'\) => dump domain \(and guest debug\) info" \
        "+Xen lock profile info SHOW  \(now = [0-9]+ total = [0-9]+\)" \
        "+Global lock flush_lock: addr=ffff82d0[0-9a-f]{8}, lockval=[0-9a-f]{8}, not locked" \
        "+Domain 1 event_lock: addr=ffff82d0[0-9a-f]{8}, lockval=[0-9a-f]{8}, not locked" \
        "+^\(XEN\) \[[ 0-9.]+\]   lock:[1-9][0-9]*\([0-9]+\), block:0\(0\)" \
        "+Xen lock profile info RESET \(now = [0-9]+\)" \
        "+'d' pressed -> dumping registers" \
        "+\*\*\* Dumping CPU0 guest state \(d1v0\): \*\*\*" "+CONTEXT: guest" \
        "+'q' pressed -> dumping domain info \(now = [0-9]+\)" \
        "+General information for domain 1:" \
        "+    VCPU0: CPU0 \[has=[TF]\] poll=[0-9-]+ upcall_pend=0[01] upcall_mask=0[01]" \
        "-UNIT1 affinities" \
        "+'e' pressed -> dumping event-channel info" \
        "+Event channel information for domain 1:" \
        "+       2 \[[01]/[01]/[01]\]: s=3 n=0 x=0 d=0 p=2" \
        "+Synced stime skew: max=[0-9]+ns avg=[0-9]+ns samples=1 current=[0-9]+ns" \
        "+Scheduler: null Scheduler \(null\)" \
        "+CPU\[00\] sibling=\{0\}, core=\{0\}, unit=d1v0" \
        "+Dumping timer queues:" \
        '+console-ring-input: got "back-to-the-guest"' '+Test result: SUCCESS' \
        -- build/guests/console-ring-input.elf --guest-cmdline "wait=60" \
        --shim-cmdline "lock-profile"
    # With four CPUs, 'd' and 't' reach the other three by IPI; 'n' counts
    # each one's NMIs (none).
    typed_case "keys: 'd' and 't' reach every CPU of four, 'n' lists them" \
        "^A^A^A d t n ^A^A^A back-to-the-guest^M" \
        "+\*\*\* Dumping CPU0 guest state \(d1v0\): \*\*\*" \
        "+\*\*\* Dumping CPU1 host state: \*\*\*" \
        "+\*\*\* Dumping CPU2 host state: \*\*\*" \
        "+\*\*\* Dumping CPU3 host state: \*\*\*" "-did not answer" \
        "+Synced stime skew: max=[0-9]+ns avg=[0-9]+ns samples=1 current=[0-9]+ns" \
        "+CPU[[:space:]]+NMI" \
        "+  3[[:space:]]+  0" "+d1v0: NMI neither pending nor masked" \
        '+console-ring-input: got "back-to-the-guest"' '+Test result: SUCCESS' \
        -- build/guests/console-ring-input.elf --guest-cmdline "wait=60" --vcpus 4
    # After 'L' every count is zero again: the second 'l' shows it.
    if sed -n '/lock profile info RESET/,$p' \
           "$logdir/keys__CTRL-a_x3__h_l_L_l_d_q_e_t_r_a__CTRL-a_x3__input_back_to_the_guest.log" |
       grep -a -A1 'Domain 1 page_alloc_lock' | grep -aq '  lock:0(0), block:0(0)'
    then
        echo "PASS: keys: 'L' resets the lock profile"
    else
        echo "FAIL: keys: 'L' resets the lock profile"
    fi
    # 'p' and 'P' (the debug build has the performance counters): what
    # the guest did until then, by hypercall; after 'P' the counts start
    # again from zero.
    typed_case "keys: 'p' and 'P' show and reset the performance counters" \
        "^A^A^A p P p ^A^A^A back-to-the-guest^M" \
        "+Xen performance counters SHOW  \(now = [0-9]+\)" \
        "+hypercalls +TOTAL\[ *[1-9][0-9]*\]  CPU00\[ *[1-9][0-9]*\]" \
        "+^\(XEN\) \[[ 0-9.]+\] +ARR18\[ *[1-9][0-9]*\]" \
        "+Xen performance counters RESET \(now = [0-9]+\)" \
        '+console-ring-input: got "back-to-the-guest"' '+Test result: SUCCESS' \
        -- build/guests/console-ring-input.elf --guest-cmdline "wait=60" \
        --shim-dir build/debug
    perfc_check "$logdir/keys___p__and__P__show_and_reset_the_performance_counters.log"
    # 'b': the console ring (the guest's input goes there: it has
    # written to it), the serial input (all taken), the xenstore ring
    # (this guest uses none: all quiet), each vbd and vif (not
    # connected: it has no frontends) and their devices' queues,
    # virtio-blk, NVMe and virtio-net.
    truncate -s 1M "$logdir/keys-b-0.img" "$logdir/keys-b-1.img"
    typed_case "keys: 'b' dumps the console, xenstore, the block and network backends" \
        "^A^A^A b ^A^A^A back-to-the-guest^M" \
        "+'b' pressed -> dumping the console, xenstore, block and network backends" \
        "+console: out cons (0|0x[0-9a-f]+) prod (0|0x[0-9a-f]+), in cons (0|0x[0-9a-f]+) prod (0|0x[0-9a-f]+); input to the ring" \
        "+serial input: buffer cons (0|0x[0-9a-f]+) prod (0|0x[0-9a-f]+) \(0 waiting\), by interrupt" \
        "+xenstore: req cons 0 prod 0, rsp cons 0 prod 0, connection 0, error 0; 0 bytes of a request in, 0 of replies queued, 0 watch events dropped" \
        "+blkback: xvda \(51712\) on virtio-blk0: 2048 sectors, state 2, not connected, 0 in flight, 0 answered" \
        "+virtio-blk0 vq0: avail 0 \(kicked at 0\), used 0 \(taken to 0\), [0-9]+/[0-9]+ free" \
        "+virtio-blk0 vq0: 0 interrupts" \
        "+virtio-blk0: 2048 sectors, 0 configuration changes" \
        "+blkback: xvdb \(51728\) on nvme0n1: 2048 sectors, state 2, not connected" \
        "+nvme0n1 queue 1: SQ tail 0, CQ head 0 phase 1, 0 of [0-9]+ commands outstanding" \
        "+netback: vif1.0 on virtio-net0: state 2, not connected, 0 queues" \
        "+virtio-net0 vq0: avail [0-9]+ " "+virtio-net0 vq1: avail 0 " \
        "+virtio-net0 pair 0: [0-9]+ interrupts" "-lock held" \
        '+console-ring-input: got "back-to-the-guest"' '+Test result: SUCCESS' \
        -- build/guests/console-ring-input.elf --guest-cmdline "wait=60" \
        --disk "$logdir/keys-b-0.img" --disk "$logdir/keys-b-1.img,if=nvme" \
        --net user
    rm -f "$logdir/keys-b-0.img" "$logdir/keys-b-1.img"
    profile_case
    typed_case "keys: conswitch=ax keeps input with the shim; no 'l' without lock-profile" \
        "h ^A^A^A typed-after-h^M" \
        "+$to_xen" "+ key 'd' \(ascii '64'\) => dump registers" \
        "- key 'l' " "+$to_dom1" '+console-ring-input: got "typed-after-h"' \
        -- build/guests/console-ring-input.elf --guest-cmdline "wait=60" \
        --shim-cmdline "conswitch=ax"
}

# tools/pvshim-profile through QEMU's gdbstub: the console-ring-input
# guest blocked on its line (the shim's idle loop) for 2 s of samples,
# named from the shim's symbols; then the VM runs on (the profiler hangs
# up without stopping it) and takes the line.
profile_case() {
    local name="profile: tools/pvshim-profile samples the vCPU by symbol"
    local log=$logdir/profile.log prof=$logdir/profile.txt port why=
    port=$(free_ports 1)
    : >"$log"
    { until_console "$log" "$waiting"
      tools/pvshim-profile "127.0.0.1:$port" --seconds 2 --hz 100 \
          --syms build/default/pvshim-syms --out "$prof" 2>>"$prof.err"
      printf 'after-the-profile\r'
    } | tools/pvshim-run --timeout "$timeout" \
        build/guests/console-ring-input.elf --guest-cmdline "wait=60" \
        -- -gdb "tcp:127.0.0.1:$port" >"$log" 2>&1
    grep -qE '^[0-9]+ samples of 1 vCPU at 100 Hz' "$prof" ||
        why="no sample count in $prof"
    grep -qE '^ *[0-9.]+%  shim$' "$prof" || why="${why:+$why; }no shim area"
    grep -qE '^ *[0-9.]+%  shim: [a-z_][a-z0-9_]*$' "$prof" ||
        why="${why:+$why; }no shim symbol"
    verdict "$name" "$log" "$why" \
        '+console-ring-input: got "after-the-profile"' '+Test result: SUCCESS'
}

# A guest's "\r\n" line ends: one line end on the ring's raw stream, and
# no stray character for the '\r' in console_io's "(d1)" lines.
section_console() {
    expect "console: \\r\\n line ends print cleanly" 0 \
        "+^console-ring: a CRLF line" "+\(d1\) console_io: a CRLF line" \
        "-$(printf '\r\r')" "-console_io: a CRLF line\?" \
        -- build/guests/console-ring.elf

    # The VM's ACPI power button (QEMU's system_powerdown) raises the SCI;
    # with no xenstore yet to ask the guest, the shim logs the press.  It
    # is pressed once the guest runs: the shim acknowledges any earlier
    # press as it enables the SCI.  The guest then waits 4 s for input
    # that never comes (the press takes milliseconds, and the test waits
    # out the guest: 10 s was idle time).
    monitor_case "acpi: the power button is seen" system_powerdown \
        "+ACPI: power button on the SCI" "+power button pressed" \
        -- build/guests/console-ring-input.elf --guest-cmdline "wait=4"
}

# disk_case NAME WRITTEN: the disk file after blk-selftest: if WRITTEN
# (yes), sector 20 holds its pattern (byte i is i * 7 + 1) and sectors
# 24-25 are zeroes; every other sector it didn't discard is as made.
disk_case() {
    local why
    why=$(python3 - "$logdir/$2.img" "$3" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
written = sys.argv[2] == 'yes'
bad = []
for n in range(2048):
    s = d[n * 512:(n + 1) * 512]
    if written and n == 20:
        ok = s == bytes((i * 7 + 1) & 0xff for i in range(512))
    elif written and n in (24, 25):
        ok = s == bytes(512)
    elif written and 32 <= n < 40:
        ok = s in (bytes(512), struct.pack('<Q', n) * 64)
    else:
        ok = s == struct.pack('<Q', n) * 64
    if not ok:
        bad.append(n)
if len(d) != 2048 * 512 or bad:
    print('sectors %s wrong, %d bytes' % (bad[:8], len(d)))
PY
)
    if [ -z "$why" ]; then
        echo "PASS: $1"
    else
        echo "FAIL: $1: $why ($logdir/$2.img)"
    fi
}

# hole_case NAME DISK: blk-selftest's discard of sectors 32-39 (one 4 KiB
# block of the file) went through QEMU's discard=unmap to the host: the
# file has a hole there, and the sectors read as zeroes.
hole_case() {
    local why
    why=$(python3 - "$logdir/$2.img" <<'PY'
import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
try:
    hole = os.lseek(fd, 32 * 512, os.SEEK_HOLE)
finally:
    os.close(fd)
d = open(sys.argv[1], 'rb').read()
if hole != 32 * 512:
    print('no hole at sector 32 (the next one at byte %d)' % hole)
elif d[32 * 512:40 * 512] != bytes(8 * 512):
    print('sectors 32-39 are not zeroes')
PY
)
    if [ -z "$why" ]; then
        echo "PASS: $1"
    else
        echo "FAIL: $1: $why ($logdir/$2.img)"
    fi
}

# selftest_case NAME DISK DEVICE [+REGEX | -REGEX]... -- PVSHIM-RUN-ARGS
# [-- QEMU-ARGS]: the demo guest with blk-selftest, over a fresh disk
# DISK as the drive disk0 of the QEMU -device DEVICE.
selftest_case() {
    local name=$1 disk=$2 dev=$3 pats=() run=()
    shift 3
    while [ $# -gt 0 ] && [ "$1" != -- ]; do pats+=("$1"); shift; done
    shift
    while [ $# -gt 0 ] && [ "$1" != -- ]; do run+=("$1"); shift; done
    [ $# -eq 0 ] || shift
    make_disk "$logdir/$disk.img"
    expect "$name" 0 "${pats[@]}" "+$guest_ok" "+$clean" \
        -- "$demo" --shim-cmdline "loglvl=all blk-selftest" "${run[@]}" \
        -- "$@" \
        -drive "file=$logdir/$disk.img,if=none,id=disk0,format=raw,discard=unmap" \
        -device "$dev"
}

# blk_case NAME DISK DEVICE-OPTIONS ...: selftest_case's, the disk a
# virtio-blk PCI device with DEVICE-OPTIONS.
blk_case() {
    local name=$1 disk=$2 dev=$3
    shift 3
    selftest_case "$name" "$disk" "virtio-blk-pci,drive=disk0,$dev" "$@"
}

# poweroff_case NAME IF: the blkback guest (poweroff-writes=1) queues 32
# page writes at sectors 5000-5255 of a 4 MiB xvda (IF virtio or nvme),
# announces half of them and powers off without waiting or flushing:
# the shim serves the ring, completes and flushes them before QEMU ends,
# so the file holds them (page i's byte k is (i * 13 + k * 7 + 1) & 0xff)
# and every other sector as made.
poweroff_case() {
    local name=$1 img=$logdir/poweroff-$2.img why
    python3 - "$img" <<'PY'
import struct, sys
with open(sys.argv[1], 'wb') as f:
    for n in range(8192):
        f.write(struct.pack('<Q', n) * 64)
PY
    expect "$name" 0 "+blkback: 32 writes queued, powering off" \
        "+blkback: xvda: drained, [0-9]+ requests completed at the end, flushed" \
        "+d1: shutdown: poweroff" "+$clean" \
        -- build/guests/blkback.elf --memory 128M \
        --guest-cmdline "poweroff-writes=1" --disk "$img,if=$2"
    why=$(python3 - "$img" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
bad = []
for n in range(8192):
    s = d[n * 512:(n + 1) * 512]
    if 5000 <= n < 5256:
        i, off = (n - 5000) // 8, (n - 5000) % 8 * 512
        ok = s == bytes((i * 13 + (off + k) * 7 + 1) & 0xff for k in range(512))
    else:
        ok = s == struct.pack('<Q', n) * 64
    if not ok:
        bad.append(n)
if bad:
    print('sectors %s wrong' % bad[:8])
PY
)
    if [ -z "$why" ]; then
        echo "PASS: $name: the writes are in the file"
    else
        echo "FAIL: $name: $why ($img)"
    fi
}

# The container's disks (drivers/): a virtio-blk PCI device found through
# port I/O (pc) and ECAM (q35), read, written, flushed, zeroed and
# discarded at boot by blk-selftest, the bytes then checked in the file;
# several queues, each completing on its own CPU; no MSI-X (polled); a
# legacy-only device refused; probing off; a failing device and a stuck
# one.  The guest boots every time.
section_virtio_blk() {
    local passed='blk-selftest: virtio-blk0: passed'

    blk_case "virtio-blk: pc, port I/O configuration" blk-pc \
        disable-legacy=on \
        "+PCI: [0-9]+ functions, configuration through ports 0xcf8/0xcfc" \
        "+PCI: 00:0[0-9a-f]\.0 1af4:1042 virtio-blk, 2048 sectors of 512 bytes, 1 queue, MSI-X" \
        "+blk-selftest: virtio-blk0: reads ok" \
        "+blk-selftest: virtio-blk0: wrote sector 20, read it back" \
        "+virtio-blk0: flushed" "+virtio-blk0: zeroed sectors 24-25" \
        "+virtio-blk0: discarded sectors 32-39" "+$passed" \
        -- --memory 256M -- -M pc
    disk_case "virtio-blk: pc, the written bytes are in the file" blk-pc yes
    hole_case "virtio-blk: pc, the discard punched a hole in the file" blk-pc

    blk_case "virtio-blk: q35, ECAM, 2 queues on 2 vCPUs" blk-q35 \
        disable-legacy=on,num-queues=2 \
        "+PCI: [0-9]+ functions, configuration through ECAM \(MCFG\)" \
        "+virtio-blk, 2048 sectors of 512 bytes, 2 queues, MSI-X" \
        "+queue 1: read from CPU 1, completed on CPU 1" "+$passed" \
        -- --vcpus 2 --memory 256M -- -M q35
    disk_case "virtio-blk: q35, the written bytes are in the file" blk-q35 yes

    # Behind a PCIe root port, as libvirt lays out q35: qboot opens no
    # bridge window and places no BAR; the shim opens the port's window,
    # places the disk's BARs in it and lets the port forward them and the
    # disk's DMA and interrupts.
    blk_case "virtio-blk: q35, behind a PCIe root port (window opened)" \
        blk-port disable-legacy=on,bus=rp1 \
        "+PCI: 01:00\.0 1af4:1042 virtio-blk, 2048 sectors of 512 bytes, 1 queue, MSI-X" \
        "+PCI: 00:0[0-9a-f]\.0: hot-plug bus 01 through ACPI" "+$passed" \
        -- --memory 256M -- -M q35 \
        -device pcie-root-port,id=rp1,chassis=1,slot=1
    disk_case "virtio-blk: q35 root port, the written bytes are in the file" \
        blk-port yes

    blk_case "virtio-blk: no MSI-X, completions polled" blk-polled \
        disable-legacy=on,vectors=0 \
        "+queue 0: no MSI-X, completions polled" "+1 queue, polled" \
        "+$passed" -- --memory 256M
    disk_case "virtio-blk: polled, the written bytes are in the file" \
        blk-polled yes

    # Two MSI-X entries for two queues on 2 vCPUs: entry 0 is for
    # configuration changes, so queue 1 gets none and is polled from the
    # boot CPU's timer (the device is not given up): CPU 1's read
    # completes on CPU 0.
    blk_case "virtio-blk: fewer MSI-X vectors than queues, the last polled" \
        blk-mixed disable-legacy=on,num-queues=2,vectors=2 \
        "+queue 1: no MSI-X vector, completions polled" \
        "+virtio-blk, 2048 sectors of 512 bytes, 2 queues, MSI-X" \
        "+queue 1: read from CPU 1, completed on CPU 0" "+$passed" \
        -- --vcpus 2 --memory 256M -- -M q35
    disk_case "virtio-blk: mixed, the written bytes are in the file" \
        blk-mixed yes

    blk_case "virtio-blk: a legacy-only device is refused" blk-legacy \
        disable-modern=on \
        "+virtio: 00:0[0-9a-f]\.0 1af4:1001 has no virtio 1.x \(modern\) interface: legacy-only devices are not used" \
        "+blk-selftest: no block device" -- --memory 256M
    disk_case "virtio-blk: legacy-only, the file is untouched" blk-legacy no

    blk_case "virtio-blk: pci-probe=0 leaves the disk alone" blk-off \
        disable-legacy=on "+PCI: device probing off \(pci-probe=0\)" \
        "-virtio-blk," "+blk-selftest: no block device" \
        -- --memory 256M --shim-cmdline "loglvl=all blk-selftest pci-probe=0"
    disk_case "virtio-blk: pci-probe=0, the file is untouched" blk-off no

    # One disk more than the shim drives (xvda to xvdz): the 27th is
    # left alone, said once, and the guest boots.
    local many=()
    make_disk "$logdir/blk-many.img"
    for i in $(seq 0 26); do
        many+=(-drive "file=$logdir/blk-many.img,if=none,id=m$i,format=raw,readonly=on"
               -device "virtio-blk-pci,drive=m$i,disable-legacy=on")
    done
    expect "virtio-blk: a 27th disk is not used" 0 \
        "+virtio-blk25: " "-virtio-blk26" \
        "+virtio-blk: more than 26 disks: the rest are not used" \
        "+$guest_ok" "+$clean" -- "$demo" --memory 256M -- "${many[@]}"

    # A device that fails reads (QEMU's blkdebug), and one that holds a
    # request 11 s (null-co's latency): each reported, the boot goes on.
    printf '[inject-error]\nevent = "read_aio"\nerrno = "5"\n' \
        >"$logdir/blk-eio.cfg"
    make_disk "$logdir/blk-eio.img"
    expect "virtio-blk: an I/O error is reported" 0 \
        "+blk-selftest: virtio-blk0: read sector 0: FAILED: I/O error" \
        "-$passed" "+$guest_ok" "+$clean" \
        -- "$demo" --memory 256M --shim-cmdline "blk-selftest" \
        -- -drive "file=blkdebug:$logdir/blk-eio.cfg:$logdir/blk-eio.img,if=none,id=disk0,format=raw" \
        -device virtio-blk-pci,drive=disk0,disable-legacy=on
    expect "virtio-blk: a request that never completes times out" 0 \
        "+blk-selftest: virtio-blk0: read sector 0: FAILED: no completion in 2 s" \
        "+blk-selftest: stopped: a request is still the device's" \
        "-$passed" "+$guest_ok" "+$clean" \
        -- "$demo" --memory 256M \
        --shim-cmdline "blk-selftest blk-selftest-timeout=2" \
        -- -drive driver=null-co,size=1M,latency-ns=4000000000,if=none,id=disk0 \
        -device virtio-blk-pci,drive=disk0,disable-legacy=on

    poweroff_case "virtio-blk: a guest's unflushed writes reach the file at poweroff" virtio
}

# nvme_case NAME DISK DEVICE-OPTIONS ...: selftest_case's, the disk the
# namespace of an NVMe controller with DEVICE-OPTIONS.
nvme_case() {
    local name=$1 disk=$2 dev=$3
    shift 3
    selftest_case "$name" "$disk" "nvme,serial=pvshim0,drive=disk0${dev:+,$dev}" "$@"
}

# NVMe (drivers/nvme/): QEMU's controller found through port I/O (pc)
# and ECAM (q35), read (PRP entries, PRP lists, a segment PRPs can't
# express refused), written, flushed, zeroed and discarded by
# blk-selftest, the bytes then checked in the file; an I/O queue pair
# per vCPU, each completing on its own CPU; two namespaces; one MSI-X
# vector (I/O queues polled) or two for two pairs; MDTS; a failing read.  The guest boots every time.
section_nvme() {
    local passed='blk-selftest: nvme0n1: passed'
    local ctrl='PCI: 00:0[0-9a-f]\.0 1b36:0010 NVMe "QEMU NVMe Ctrl" serial "pvshim0"'

    nvme_case "nvme: pc, port I/O configuration" nvme-pc "" \
        "+PCI: [0-9]+ functions, configuration through ports 0xcf8/0xcfc" \
        "+$ctrl, 1 I/O queue pair of 64, MSI-X" \
        "+nvme0n1: 2048 blocks of 512 bytes, flush, discard, write-zeroes, up to 1024 sectors a transfer" \
        "+blk-selftest: nvme0n1: a segment ending mid-page is refused" \
        "+blk-selftest: nvme0n1: reads ok" \
        "+blk-selftest: nvme0n1: wrote sector 20, read it back" \
        "+nvme0n1: flushed" "+nvme0n1: zeroed sectors 24-25" \
        "+nvme0n1: discarded sectors 32-39" "+$passed" \
        -- --memory 256M -- -M pc
    disk_case "nvme: pc, the written bytes are in the file" nvme-pc yes
    hole_case "nvme: pc, the discard punched a hole in the file" nvme-pc

    nvme_case "nvme: q35, ECAM, 2 queue pairs on 2 vCPUs" nvme-q35 "" \
        "+PCI: [0-9]+ functions, configuration through ECAM \(MCFG\)" \
        "+$ctrl, 2 I/O queue pairs of 64, MSI-X" \
        "+queue 1: read from CPU 1, completed on CPU 1" "+$passed" \
        -- --vcpus 2 --memory 256M -- -M q35
    disk_case "nvme: q35, the written bytes are in the file" nvme-q35 yes

    # Two namespaces on one controller: two block devices, sharing its
    # queues, each tested.
    make_disk "$logdir/nvme-ns1.img"
    make_disk "$logdir/nvme-ns2.img"
    expect "nvme: two namespaces, two block devices" 0 \
        "+nvme0n1: 2048 blocks of 512 bytes" \
        "+nvme0n2: 2048 blocks of 512 bytes" \
        "+blk-selftest: nvme0n1: passed" "+blk-selftest: nvme0n2: passed" \
        "+nvme0n2: queue 1: read from CPU 1, completed on CPU 1" \
        "+$guest_ok" "+$clean" \
        -- "$demo" --vcpus 2 --memory 256M \
        --shim-cmdline "loglvl=all blk-selftest" \
        -- -M q35 \
        -drive "file=$logdir/nvme-ns1.img,if=none,id=disk1,format=raw,discard=unmap" \
        -drive "file=$logdir/nvme-ns2.img,if=none,id=disk2,format=raw,discard=unmap" \
        -device nvme,id=nvme0,serial=pvshim0 \
        -device nvme-ns,drive=disk1,bus=nvme0,nsid=1 \
        -device nvme-ns,drive=disk2,bus=nvme0,nsid=2
    disk_case "nvme: namespace 1, the written bytes are in the file" \
        nvme-ns1 yes
    disk_case "nvme: namespace 2, the written bytes are in the file" \
        nvme-ns2 yes

    # One MSI-X vector (the admin queue's): the I/O queues are polled.
    nvme_case "nvme: one MSI-X vector, I/O queues polled" nvme-polled \
        msix_qsize=1 \
        "+nvme0: I/O queue 1: no MSI-X vector, completions polled" \
        "+$passed" -- --memory 256M
    disk_case "nvme: polled, the written bytes are in the file" \
        nvme-polled yes

    # Two vectors on 2 vCPUs: pair 1's interrupt on CPU 0, pair 2 polled
    # from the boot CPU's timer, so CPU 1's read completes on CPU 0.
    nvme_case "nvme: two MSI-X vectors on 2 vCPUs, the second pair polled" \
        nvme-mixed msix_qsize=2 \
        "+nvme0: I/O queue 2: no MSI-X vector, completions polled" \
        "+$ctrl, 2 I/O queue pairs of 64, MSI-X" \
        "+queue 1: read from CPU 1, completed on CPU 0" "+$passed" \
        -- --vcpus 2 --memory 256M -- -M q35

    # MDTS 1: two 4 KiB pages a transfer; a longer read is refused.
    nvme_case "nvme: MDTS bounds a transfer" nvme-mdts mdts=1 \
        "+nvme0n1: .*, up to 16 sectors a transfer" \
        "+blk-selftest: nvme0n1: a read of 24 sectors, over its limit of 16, is refused" \
        "+$passed" -- --memory 256M
    disk_case "nvme: MDTS 1, the written bytes are in the file" \
        nvme-mdts yes

    # A controller whose reads fail (QEMU's blkdebug): reported, the boot
    # goes on.
    printf '[inject-error]\nevent = "read_aio"\nerrno = "5"\n' \
        >"$logdir/nvme-eio.cfg"
    make_disk "$logdir/nvme-eio.img"
    expect "nvme: an I/O error is reported" 0 \
        "+blk-selftest: nvme0n1: read sector 0: FAILED: I/O error" \
        "-$passed" "+$guest_ok" "+$clean" \
        -- "$demo" --memory 256M --shim-cmdline "blk-selftest" \
        -- -drive "file=blkdebug:$logdir/nvme-eio.cfg:$logdir/nvme-eio.img,if=none,id=disk0,format=raw" \
        -device nvme,serial=pvshim0,drive=disk0

    poweroff_case "nvme: a guest's unflushed writes reach the file at poweroff" nvme
}

# net_case NAME DEVICE-OPTIONS [+REGEX | -REGEX]... -- PVSHIM-RUN-ARGS
# [-- QEMU-ARGS]: the demo guest with net-selftest, over QEMU's user
# network restricted to this machine (restrict=on: slirp answers for its
# gateway 10.0.2.2 and nothing leaves the host) and a virtio-net PCI
# device with DEVICE-OPTIONS; $net_shim, if set, more shim options.
net_case() {
    local name=$1 dev=$2 pats=() run=()
    shift 2
    while [ $# -gt 0 ] && [ "$1" != -- ]; do pats+=("$1"); shift; done
    shift
    while [ $# -gt 0 ] && [ "$1" != -- ]; do run+=("$1"); shift; done
    [ $# -eq 0 ] || shift
    expect "$name" 0 "${pats[@]}" "+$guest_ok" "+$clean" \
        -- "$demo" --memory 256M \
        --shim-cmdline "loglvl=all net-selftest${net_shim:+ $net_shim}" \
        "${run[@]}" -- -netdev user,id=n0,restrict=on \
        -device "virtio-net-pci,netdev=n0,$dev" "$@"
}

# The container's NIC (drivers/): a virtio-net PCI device on pc and q35,
# its MAC read from it, ARP and pings to QEMU's user-network gateway at
# boot by net-selftest through drivers/net.h: scatter-gather, a checksum
# left to the offload (QEMU offers none for slirp, so to net.c's
# software sum), a reply in one 2 KiB mergeable buffer or over two of
# 1 KiB (virtio-net-rxbuf=), a wrong checksum
# unanswered; multiqueue as far as slirp allows (one pair), no MSI-X
# (polled), no mergeable buffers, the device's MTU, no checksum offload,
# a legacy-only device refused, a gateway that never answers, and no NIC
# at all; which NICs the network backend gives the guest (vif=).  The
# guest boots every time.
section_virtio_net() {
    local passed='net-selftest: virtio-net0: passed'
    local mac='MAC 52:54:00:0a:0b:0c'
    local steps=(
        "+net-selftest: virtio-net0: $mac, link up"
        "+net-selftest: virtio-net0: a runt, an oversized frame and GSO of no TCP are refused"
        "+net-selftest: virtio-net0: ARP: 10.0.2.2 is at 52:55:0a:00:02:02"
        "+net-selftest: virtio-net0: ICMP echo in 3 fragments: reply in 1 receive buffer"
        "+net-selftest: virtio-net0: ICMP echo with its checksum left to (the device|software \(no device offload\)): reply"
        "+net-selftest: virtio-net0: an ICMP echo with a wrong checksum gets no reply"
        "+$passed")

    net_case "virtio-net: pc, mergeable receive buffers" \
        disable-legacy=on,mac=52:54:00:0a:0b:0c \
        "+PCI: 00:0[0-9a-f]\.0 1af4:1041 virtio-net, $mac, MTU 1500, 1 queue pair, MSI-X, mergeable receive buffers" \
        "+virtio-net0: up to 63 fragments, 256 queue entries, 2048-byte receive buffers, indirect descriptors, event index, link up" \
        "${steps[@]}" \
        "+net-selftest: virtio-net0: ICMP echo of 1400 bytes: reply in 1 receive buffer[[:space:]]*$" \
        -- -- -M pc

    # virtio-net-rxbuf=: 1 KiB buffers, so a full frame spans two and the
    # driver puts it together; a size it doesn't take keeps 2 KiB.
    net_shim=virtio-net-rxbuf=1k net_case \
        "virtio-net: 1 KiB mergeable buffers, a frame over two" \
        disable-legacy=on,mac=52:54:00:0a:0b:0c \
        "+virtio-net0: .*, 1024-byte receive buffers" "${steps[@]}" \
        "+net-selftest: virtio-net0: ICMP echo of 1400 bytes: reply in 2 receive buffers" --
    net_shim=virtio-net-rxbuf=3k net_case \
        "virtio-net: virtio-net-rxbuf=3k is refused, 2 KiB kept" \
        disable-legacy=on,mac=52:54:00:0a:0b:0c \
        "+virtio-net-rxbuf: 3072 bytes is not 1, 2 or 4 KiB: 2048 bytes" \
        "+virtio-net0: .*, 2048-byte receive buffers" "+$passed" --

    net_case "virtio-net: q35, ECAM, multiqueue on 2 vCPUs" \
        disable-legacy=on,mac=52:54:00:0a:0b:0c,mq=on,vectors=6 \
        "+PCI: [0-9]+ functions, configuration through ECAM \(MCFG\)" \
        "+virtio-net, $mac, MTU 1500, 1 queue pair, MSI-X" \
        "+virtio-net0: .*, multiqueue: the device has 1 pair" \
        "${steps[@]}" -- --vcpus 2 -- -M q35

    net_case "virtio-net: no MSI-X, completions polled" \
        disable-legacy=on,mac=52:54:00:0a:0b:0c,vectors=0 \
        "+queue 0: no MSI-X, completions polled" \
        "+virtio-net, $mac, MTU 1500, 1 queue pair, polled" \
        "${steps[@]}" \
        "+ICMP echo of 1400 bytes: reply in 1 receive buffer[[:space:]]*$" --

    net_case "virtio-net: no mergeable buffers, a frame a buffer" \
        disable-legacy=on,mac=52:54:00:0a:0b:0c,mrg_rxbuf=off \
        "+virtio-net, $mac, MTU 1500, 1 queue pair, MSI-X[[:space:]]*$" \
        "+virtio-net0: .*, 2048-byte receive buffers" \
        "${steps[@]}" \
        "+ICMP echo of 1400 bytes: reply in 1 receive buffer[[:space:]]*$" --

    # The device's MTU (VIRTIO_NET_F_MTU): without mergeable buffers, one
    # buffer must hold a frame of it.
    net_case "virtio-net: the device's MTU sizes the buffers" \
        disable-legacy=on,mac=52:54:00:0a:0b:0c,host_mtu=4000,mrg_rxbuf=off \
        "+virtio-net, $mac, MTU 4000, 1 queue pair, MSI-X" \
        "+virtio-net0: .*, 4032-byte receive buffers" "${steps[@]}" --

    net_case "virtio-net: no checksum offload, the sum in software" \
        disable-legacy=on,mac=52:54:00:0a:0b:0c,csum=off,guest_csum=off \
        "-checksum offload" \
        "+ICMP echo with its checksum left to software \(no device offload\): reply" \
        "${steps[@]}" --

    net_case "virtio-net: a legacy-only device is refused" disable-modern=on \
        "+virtio: 00:0[0-9a-f]\.0 1af4:1000 has no virtio 1.x \(modern\) interface: legacy-only devices are not used" \
        "+net-selftest: no network device" "-virtio-net," --

    # Slirp on another subnet: nobody answers for 10.0.2.2.  Reported
    # after the timeout (2 s here, not the default 5: make check's time);
    # the boot goes on.
    expect "virtio-net: no ARP reply times out" 0 \
        "+net-selftest: virtio-net0: ARP: FAILED: no reply from 10.0.2.2 in 2 s" \
        "-$passed" "+$guest_ok" "+$clean" \
        -- "$demo" --memory 256M \
        --shim-cmdline "net-selftest net-selftest-timeout=2" \
        -- -netdev user,id=n0,restrict=on,net=10.9.0.0/24 \
        -device virtio-net-pci,netdev=n0,disable-legacy=on

    # The network backend's choice of NICs (vif=): every one by default,
    # none, and a name no device has skipped with a warning.
    expect "virtio-net: the guest's vif 0 by default" 0 \
        "+netback: vif1.0 is virtio-net0, MAC 52:54:00:0a:0b:0c, up to 1 queue" \
        "+$guest_ok" "+$clean" \
        -- "$demo" --memory 256M \
        -- -netdev user,id=n0,restrict=on \
        -device virtio-net-pci,netdev=n0,disable-legacy=on,mac=52:54:00:0a:0b:0c
    expect "virtio-net: vif=none gives the guest no NIC" 0 \
        "-netback: vif" "+$guest_ok" "+$clean" \
        -- "$demo" --memory 256M --shim-cmdline "vif=none" \
        -- -netdev user,id=n0,restrict=on \
        -device virtio-net-pci,netdev=n0,disable-legacy=on
    expect "virtio-net: vif= names the NICs, an unknown one skipped" 0 \
        '+netback: vif=: no network device "eth9"' \
        "+netback: vif1.0 is virtio-net1, MAC 52:54:00:0a:0b:0d" \
        "+netback: vif1.1 is virtio-net0, MAC 52:54:00:0a:0b:0c" \
        "+netback: vif=: virtio-net1 named twice" \
        "+$guest_ok" "+$clean" \
        -- "$demo" --memory 256M \
        --shim-cmdline "vif=eth9,virtio-net1,virtio-net0,virtio-net1" \
        -- -netdev user,id=n0,restrict=on -netdev user,id=n1,restrict=on \
        -device virtio-net-pci,netdev=n0,disable-legacy=on,mac=52:54:00:0a:0b:0c \
        -device virtio-net-pci,netdev=n1,disable-legacy=on,mac=52:54:00:0a:0b:0d

    expect "virtio-net: no NIC at all" 0 "+net-selftest: no network device" \
        "+$guest_ok" "+$clean" \
        -- "$demo" --memory 256M --shim-cmdline "loglvl=all net-selftest" \
        -- -nic none
}

# reboot_case NAME BOOTS SHIM-CMDLINE [+REGEX | -REGEX]... -- [QEMU-ARGS]:
# the shutdown-reboot guest as a VM with no launcher reading statuses
# (pvshim-run's QEMU line without isa-debug-exit and -no-reboot, as
# libvirt or a cloud runs it): BOOTS shim boots (each guest reboot
# restarting the VM), then QEMU is stopped; BOOTS 1 wants QEMU to end by
# itself after one.
reboot_case() {
    local name=$1 boots=$2 cmdline=$3 log=$logdir/${1//[^A-Za-z0-9_.-]/_}.log
    local pats=() line qemu pid n end why=
    shift 3
    while [ $# -gt 0 ] && [ "$1" != -- ]; do pats+=("$1"); shift; done
    shift
    line=$(tools/pvshim-run build/guests/shutdown-reboot.elf \
               --shim-cmdline "$cmdline" --dry-run -- "$@" |
           sed -e 's/ -no-reboot / /' \
               -e 's/ -device isa-debug-exit[^ ]* / /')
    [[ "$line" != *debug-exit* && "$line" != *-no-reboot* ]] ||
        { echo "FAIL: $name: pvshim-run --dry-run's line changed"; return; }
    eval "qemu=($line)"
    : >"$log"
    # A session of its own (this script's background jobs share its
    # process group, so setsid needn't fork): QEMU's pid is its group.
    setsid "${qemu[@]}" </dev/null >"$log" 2>&1 &
    pid=$!
    end=$((SECONDS + timeout))
    while kill -0 $pid 2>/dev/null && [ $SECONDS -lt $end ]; do
        n=$(grep -ac 'd1: shutdown: reboot' "$log")
        [ "$n" -ge "$boots" ] && [ "$boots" -gt 1 ] && break
        sleep 0.2
    done
    if kill -0 $pid 2>/dev/null; then
        [ "$boots" -gt 1 ] || why="QEMU still running after one boot"
        kill -- -$pid 2>/dev/null
    fi
    wait $pid 2>/dev/null
    n=$(grep -acE "$banner" "$log")
    if [ "$boots" -gt 1 ]; then
        [ "$n" -ge "$boots" ] || why="${why:+$why; }$n boots, wanted $boots"
    else
        [ "$n" = 1 ] || why="${why:+$why; }$n boots, wanted 1"
    fi
    verdict "$name" "$log" "$why" "${pats[@]}"
}

# A guest's reboot: with isa-debug-exit (pvshim-run) the VM ends with
# status 2; without it nothing reads statuses, so the VM restarts as
# reboot= says (Xen's machine_restart()), and the guest boots again.
section_reboot() {
    local reset='Rebooting the VM: ACPI reset register'
    local kbd='Rebooting the VM: keyboard controller'
    local cf9='Rebooting the VM: port 0xcf9' triple='Rebooting the VM: triple fault'

    expect "reboot: the launcher gets status 2" 2 \
        "+Shutting down the VM, exit status 2" "-Rebooting the VM" \
        -- build/guests/shutdown-reboot.elf
    # pvshim-run --on-reboot restart: a new QEMU for each reboot, until
    # --timeout (this guest reboots for ever).
    expect "reboot: pvshim-run --on-reboot restart" 124 \
        "+starting the VM again \(--on-reboot restart, run 3\)" \
        "+timed out after 20s" \
        -- build/guests/shutdown-reboot.elf --on-reboot restart --timeout 20
    # q35's FADT has a reset register (0xcf9), i440fx's (revision 1) none.
    reboot_case "reboot: q35, the ACPI reset register" 3 "" \
        "+ACPI: reset via I/O port 0xcf9, value 0xf" "+$reset" "-$kbd" \
        -- -machine q35
    reboot_case "reboot: i440fx, the keyboard controller after ACPI" 3 "" \
        "-ACPI: reset via" "+$kbd" "-$triple" -- -machine pc
    reboot_case "reboot=t: a triple fault" 3 "reboot=t" "+$triple" "-$kbd"
    reboot_case "reboot=pci: port 0xcf9" 3 "reboot=pci" "+$cf9" "-$kbd" \
        -- -machine q35
    reboot_case "reboot=k,warm: the keyboard controller" 3 "reboot=k,warm" \
        "+$kbd" "-$reset" -- -machine q35
    reboot_case "reboot=no: powered off, not restarted" 1 "reboot=no" \
        "+Not rebooting \(reboot=no\): powering the VM off" "-Rebooting the VM"
    reboot_case "reboot=bios: refused, the default kept" 3 "reboot=bios" \
        "+parameter \"reboot\" has invalid value \"bios\"" "+$reset" \
        -- -machine q35
}

sections=(entry bzimage config time global-pages smep-smap spec-ctrl fault
          launcher cmdline kernel guest-mem console-input keys console
          virtio-blk nvme virtio-net reboot)
case "${1:-}" in
--list) printf '%s\n' "${sections[@]}"; exit 0 ;;
esac
[ $# -gt 0 ] || set -- "${sections[@]}"
for section; do
    if ! declare -F "section_${section//-/_}" >/dev/null; then
        echo "FAIL: tests/boot/run.sh: no section '$section'"
        continue
    fi
    "section_${section//-/_}"
done
