#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make check: build every configuration, run the host unit tests, the
# fuzzers, the guest and boot tests, every benchmark once and Debian's
# Linux boot, and end with "N passed, N failed" (", N skipped" when
# something could not run here).
set -u
cd "$(dirname "$0")/.."

passed=0 failed=0 skipped=0
failures=()
log=build/check
mkdir -p "$log"

pass() { passed=$((passed + 1)); echo "PASS: $1"; }
fail() { failed=$((failed + 1)); failures+=("$1"); echo "FAIL: $1"; }
skip() { skipped=$((skipped + 1)); echo "SKIP: $1"; }

# Count a suite's "PASS: name" / "FAIL: ..." / "SKIP: ..." lines from
# stdin, PREFIX before each name; any other line is shown as it is.
tally() {       # prefix
    local verdict rest
    while read -r verdict rest; do
        case "$verdict" in
        PASS:) pass "$1$rest" ;;
        FAIL:) fail "$1$rest" ;;
        SKIP:) skip "$1$rest" ;;
        *) echo "$verdict $rest" ;;
        esac
    done
}

# Every configuration must build without warnings (-Werror).
for c in configs/*.config; do
    c=$(basename "$c" .config)
    if make -s CONFIG="$c" >"$log/build-$c.log" 2>&1; then
        pass "build: $c"
    else
        cat "$log/build-$c.log"
        fail "build: $c"
    fi
done

# The PV MMU's hot paths make no indirect call, even with retpolines.
tally "" < <(ci/check-thunks.sh build/default)

# Host unit tests, under ASan and UBSan: one line per case.
if make -s unit >"$log/unit-build.log" 2>&1; then
    for t in build/unit/test-*; do
        [ -x "$t" ] || continue
        name=$(basename "$t")
        "$t" >"$log/$name.log" 2>&1
        rc=$?
        tally "unit: $name: " < "$log/$name.log"
        if [ $rc != 0 ] && ! grep -q '^FAIL:' "$log/$name.log"; then
            cat "$log/$name.log"
            fail "unit: $name exited $rc"
        fi
    done
else
    cat "$log/unit-build.log"
    fail "unit: build"
fi

# The fuzzers, a bounded and seeded run each.
tally "" < <(make -s fuzz-check 2>&1 | tee "$log/fuzz.log")

# PV test kernels, each booted on the shim.
if make -s guests >"$log/guests-build.log" 2>&1; then
    tally "" < <({ tests/guests/run.sh
                 # SMEP/SMAP and an AMD vendor; an Intel vendor, so PGE on.
                 GUEST_CPU=EPYC GUEST_SHIM_CMDLINE=mm-audit tests/guests/run.sh
                 GUEST_CPU=qemu64,vendor=GenuineIntel tests/guests/run.sh
                 # Multi-threaded TCG (a second, idle vCPU), frame table
                 # audited after every MMU hypercall.
                 GUEST_VCPUS=2 GUEST_SHIM_CMDLINE=mm-audit tests/guests/run.sh
                 # Four vCPUs, every contended wait halting at once (lost
                 # wake-ups would hang: arch/x86/smp.h).
                 GUEST_VCPUS=4 GUEST_SHIM_CMDLINE=spin-halt-us=0 \
                     tests/guests/run.sh
                 # Four vCPUs taking turns on one host thread.
                 GUEST_VCPUS=4 GUEST_TCG_THREADS=single tests/guests/run.sh
                 # The same tests as 32-bit PAE guests (the compat ABI):
                 # audited, on a CPU with SMEP/SMAP, and on two vCPUs.
                 GUEST_WIDTH=32 GUEST_CPU=EPYC GUEST_SHIM_CMDLINE=mm-audit \
                     tests/guests/run.sh
                 GUEST_WIDTH=32 GUEST_VCPUS=2 tests/guests/run.sh
                 # Real hardware virtualization, where this host has it.
                 if [ -d /sys/module/kvm_intel ] || [ -d /sys/module/kvm_amd ]
                 then
                     GUEST_ACCEL=kvm tests/guests/run.sh
                 fi
               } 2>&1 | tee "$log/guests.log")
else
    cat "$log/guests-build.log"
    fail "guests: build"
fi

# Every benchmark once, short (figures in build/bench/results.txt), so a
# benchmark can't break unnoticed.
tally "" < <(BENCH_SHORT=1 tests/bench/run.sh 2>&1 | tee "$log/bench.log")

# Boot tests under QEMU TCG.
tally "boot: " < <(tests/boot/run.sh 2>&1 | tee "$log/boot.log")

# Every CPU brought up, under TCG single- and multi-threaded, up to 64.
tally "boot: " < <(tests/boot/smp.sh 2>&1 | tee "$log/smp.log")

# PV GRUB (Debian's grub-x86_64-xen.bin): prompt, a command, halt;
# skipped when the package can't be fetched.
tally "" < <(tests/boot/pvgrub.sh 2>&1 | tee "$log/pvgrub.log")
# PV GRUB of both widths (grub-mkimage, Debian's grub-xen-bin) starting
# our test kernels, which must pass as when the shim builds them.
tally "" < <(tests/boot/pvgrub-guests.sh 2>&1 | tee "$log/pvgrub-guests.log")
tally "" < <(tests/boot/gnumach.sh 2>&1 | tee "$log/gnumach.log")

# Debian's Linux PV kernel, as far as the shim takes it today; skipped
# when the package can't be fetched (no network).
tally "" < <(tests/boot/linux.sh 2>&1 | tee "$log/linux-check.log")
# ... and on 4 vCPUs, twice this host's cores (the halting waits at work).
if [ -e build/linux/vmlinux ]; then
    tally "" < <(LINUX_VCPUS=4 LINUX_KERNEL=build/linux/vmlinux \
                 LINUX_LOG=build/check/linux-smp4.log \
                 LINUX_LABEL="linux: 4 vCPUs" tests/boot/linux.sh 2>&1 |
                 tee -a "$log/linux-check.log")
fi
# PV GRUB, as Xen users boot their kernels: Debian's grub-xen-bin made
# into an image (grub-mkimage) whose memdisk holds that Linux, which it
# loads and starts to the same milestones; skipped without the packages.
tally "" < <(tests/boot/pvgrub-linux.sh 2>&1 | tee "$log/pvgrub-linux.log")

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
