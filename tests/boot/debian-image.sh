#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A whole Debian 12 guest from its own disk, as a Xen user boots it:
# tools/make-debian-image's image (on a copy, never the cached image),
# Debian's PV GRUB (grub-x86_64-xen.bin, unmodified) as the shim's one
# kernel.  GRUB finds xvda through the shim's block backend, reads the
# image's /boot/grub/grub.cfg and loads the installed kernel and initrd;
# Linux mounts its root from xvda1 and systemd gives a login on hvc0.
# The test logs in as root on the console, writes two files (8 MiB
# random, whose sha256 the guest prints, and 4 MiB of a known pattern),
# syncs, loads Linux's xen_wdt and stops it again (the shim's
# SCHEDOP_watchdog), waits for eth0's DHCP lease (a virtio-net NIC on QEMU's user
# network restricted to the host, under the shim's network backend),
# fetches rand.bin from an HTTP server in the guest through hostfwd on
# 127.0.0.1 and compares its checksum, and presses the VM's power button (the QEMU monitor's
# system_powerdown): the guest must shut down cleanly and the VM exit
# with status 0.  Then, on the host, without mounting: e2fsck -fn of the
# partition is clean, and debugfs reads both files back with the right
# checksums.  DEBIAN_IMAGE_IF=nvme: the disk is NVMe, not virtio-blk.
# DEBIAN_IMAGE_BOOT=hvm-bios|hvm-uefi (tests/boot/hvm-image.sh): the image
# made into an HVM disk image by tools/pvshim-image, which SeaBIOS or OVMF
# boots (GRUB, pvshim, PV GRUB on the guest's partition as xvda); the
# files are then checked in the guest disk pvshim-image extract gives
# back.  DEBIAN_IMAGE_BARE=1 with those: the guest's disk is the image's
# file system alone (a bare filesystem, as Xen users keep some), which
# the guest mounts as xvda1.  One line:
#
#   PASS: debian image (virtio): login, workload, network, power button, fsck clean, files intact
#   FAIL: debian image (virtio): why (console: build/check/debian-image-virtio.log)
#   SKIP: debian image (virtio): no image (...)      no network
set -u
cd "$(dirname "$0")/../.." || exit 1

iface=${DEBIAN_IMAGE_IF:-virtio}
boot=${DEBIAN_IMAGE_BOOT:-pvgrub}
case $boot in
pvgrub)
    label="debian image ($iface)"
    work=build/check/debian-image-$iface
    ;;
hvm-bios|hvm-uefi)
    bare=${DEBIAN_IMAGE_BARE:+, bare filesystem}
    label="hvm image (${boot#hvm-}, $iface$bare)"
    work=build/check/hvm-image-${boot#hvm-}-$iface${DEBIAN_IMAGE_BARE:+-bare}
    ;;
*) echo "FAIL: debian image: DEBIAN_IMAGE_BOOT=$boot unknown"; exit 1 ;;
esac
log=$work.log
disk=$work.img
mkdir -p build/check

skip() { echo "SKIP: $label: $*"; exit 0; }
# A failure while the VM runs (a guest that stopped answering) leaves the
# shim's debug keys q r e d a b in the console after what the guest
# printed (domain and vCPUs, run queues, event channels, each CPU's
# registers and stack, timers, the console ring and the backends), as
# watched_boot does; the tail shown is the guest's, from before them.
fail() {
    local bytes keys=

    bytes=$(stat -c %s "$log" 2>/dev/null)
    if [ -n "${pid:-}" ] && kill -0 "$pid" 2>/dev/null; then
        shim_keys q r e d a b
        sleep 3
        keys="; the shim's debug keys q r e d a b after byte ${bytes:-0}"
    fi
    echo "FAIL: $label: $* (console: $log$keys)"
    head -c "${bytes:-0}" "$log" 2>/dev/null | tail -n 15 |
        awk '{ print "    | " $0 }'
    exit 1
}

img=$(tools/make-debian-image 2>"$work-build.log")
case $? in
0) ;;
2) skip "no image ($(tail -n1 "$work-build.log"))" ;;
*) echo "FAIL: $label: tools/make-debian-image failed ($work-build.log)"
   exit 1 ;;
esac
grub=$(tools/fetch-pvgrub 2>"$work-build.log")
case $? in
0) ;;
2) skip "no PV GRUB ($(tail -n1 "$work-build.log"))" ;;
*) echo "FAIL: $label: tools/fetch-pvgrub failed"; exit 1 ;;
esac
if [ "$boot" = pvgrub ]; then
    cp --sparse=always "$img" "$disk" || fail "cannot copy $img"
    run=("$grub")
else
    [ "$boot" = hvm-bios ] || [ -r /usr/share/ovmf/OVMF.fd ] ||
        [ -r /usr/share/qemu/OVMF.fd ] || skip "no OVMF (Debian's ovmf)"
    guest=$img
    if [ -n "${DEBIAN_IMAGE_BARE:-}" ]; then
        # Its first partition's file system alone.
        read -r pstart psize < <(sfdisk -d "$img" |
            sed -n 's/.*start= *\([0-9]*\), *size= *\([0-9]*\),.*/\1 \2/p')
        guest=$work.fs
        dd if="$img" of="$guest" bs=512 skip="$pstart" count="$psize" \
            conv=sparse status=none && truncate -s $((psize * 512)) "$guest" ||
            fail "cannot copy the file system out of $img"
    fi
    tools/pvshim-image create --pvgrub "$grub" "$guest" "$disk" \
        >"$work-image.log" 2>&1 ||
        fail "tools/pvshim-image create failed ($work-image.log)"
    [ -z "${DEBIAN_IMAGE_BARE:-}" ] || rm -f "$guest"
    run=(--boot "disk-${boot#hvm-}")
fi

# The console on a FIFO (stdin), the monitor on two (QEMU's pipe:PATH
# opens PATH.in and PATH.out), all held open read-write here.
rm -f "$work.in" "$work.mon.in" "$work.mon.out"
mkfifo "$work.in" "$work.mon.in" "$work.mon.out" || fail "mkfifo failed"
exec 3<>"$work.in" 4<>"$work.mon.in" 5<>"$work.mon.out"
. tests/boot/lib.sh
# A free port on 127.0.0.1 for the guest's HTTP server.
http=$(free_ports 1)
: >"$log"   # not the last run's: the job below empties it only once it runs
tools/pvshim-run "${run[@]}" --memory 1G --timeout 1700 --disk "$disk,if=$iface" \
    --net "user,hostfwd=tcp:127.0.0.1:$http-:8000" -- -chardev "pipe,id=testmon,path=$work.mon" -mon chardev=testmon \
    <&3 >"$log" 2>&1 &
pid=$!
cleanup() {   # QEMU quits from its monitor (killing pvshim-run would leave it)
    if [ -n "$pid" ]; then
        echo quit >&4
        sleep 2
        kill $pid 2>/dev/null
        wait $pid 2>/dev/null
    fi
    exec 3>&- 4>&- 5>&-
    rm -f "$work.in" "$work.mon.in" "$work.mon.out"
}
trap cleanup EXIT

# wait_for REGEX SECONDS: the console shows REGEX before the deadline.
wait_for() {
    local end=$((SECONDS + $2))

    while [ $SECONDS -lt $end ] && kill -0 $pid 2>/dev/null; do
        grep -aEq -- "$1" "$log" && return 0
        sleep 1
    done
    grep -aEq -- "$1" "$log"
}
type() { printf '%s\r' "$1" >&3; }

# Under a loaded TCG host, GRUB, the kernel and systemd take minutes.
wait_for 'Reading \(xen/xvda(,msdos1|1)\)/boot/grub/grub.cfg' 300 ||
    fail "PV GRUB did not read grub.cfg from xvda"
wait_for 'pvshim-debian login: ' 1500 || fail "no login prompt"
type root
wait_for '^Password: ' 120 || fail "no password prompt"
type root
# The shell's prompt, then a marker that only its expansion prints.
wait_for 'root@pvshim-debian:~# ' 300 || fail "no shell after logging in"
type "head -c 8388608 /dev/urandom >/root/rand.bin &&
yes pvshim-debian-image | head -c 4194304 >/root/yes.txt &&
sha256sum /root/rand.bin /root/yes.txt && sync &&
echo workload-done-\$((6 * 7))"
wait_for 'workload-done-42' 600 || fail "the workload did not finish"
rand=$(grep -aoE "[0-9a-f]{64}  /root/rand.bin" "$log" | cut -c1-64)
yes=$(grep -aoE "[0-9a-f]{64}  /root/yes.txt" "$log" | cut -c1-64)
want_yes=$(yes pvshim-debian-image | head -c 4194304 | sha256sum | cut -c1-64)
[ -n "$rand" ] || fail "the guest printed no checksum of rand.bin"
[ "$yes" = "$want_yes" ] ||
    fail "the guest's yes.txt has sha256 '$yes', not $want_yes"

# Linux's xen_wdt on the shim's SCHEDOP_watchdog: probed, started by the
# open, stopped by the magic close ('V'), so the poweroff below is not
# a watchdog's shutdown.
type "modprobe xen_wdt && printf V >/dev/watchdog &&
dmesg | grep -m1 'xen_wdt.*initialized' && echo watchdog-ok-\$((6 * 7))"
wait_for 'watchdog-ok-42' 300 ||
    fail "Linux's xen_wdt found no watchdog (SCHEDOP_watchdog)"

# The network: eth0 (the shim's network backend over the VM's
# virtio-net) has its DHCP lease from ifupdown, and the host fetches
# rand.bin from a server in the guest through hostfwd on 127.0.0.1.
type "for i in \$(seq 120); do ip -4 -o addr show eth0 |
grep -q 'inet 10.0.2.15/' && break; sleep 1; done; ip -4 -o addr show eth0;
(cd /root && exec python3 -m http.server 8000 >/dev/null 2>&1 &);
sleep 2; echo net-ready-\$((6 * 7))"
wait_for 'net-ready-42' 600 || fail "the network step did not finish"
grep -aq 'eth0 *inet 10\.0\.2\.15/' "$log" || fail "eth0 took no DHCP lease"
got=$(python3 - "$http" <<'PY'
import hashlib, sys, time, urllib.request
url = "http://127.0.0.1:%s/rand.bin" % sys.argv[1]
for i in range(30):
    try:
        data = urllib.request.urlopen(url, timeout=300).read()
        print(hashlib.sha256(data).hexdigest())
        break
    except OSError:
        time.sleep(2)
PY
)
[ "$got" = "$rand" ] ||
    fail "rand.bin fetched over the network: sha256 '$got', the guest's $rand"

# The power button: Linux's xenbus watch on control/shutdown runs
# systemd's poweroff, which unmounts the root and powers the domain off.
echo system_powerdown >&4
end=$((SECONDS + 600))
while kill -0 $pid 2>/dev/null && [ $SECONDS -lt $end ]; do sleep 1; done
kill -0 $pid 2>/dev/null && fail "the VM still runs 600 s after the power button"
wait $pid
rc=$?
pid=
[ $rc = 0 ] || fail "exit status $rc after the power button, wanted 0"
grep -aq 'd1: shutdown: poweroff' "$log" || fail "the guest did not power off"
grep -aqE 'Panic on CPU|FATAL TRAP' "$log" && fail "the shim itself failed"

# The guest's own disk: the image, or what pvshim-image extract gives.
if [ "$boot" != pvgrub ]; then
    tools/pvshim-image extract "$disk" "$work.guest.img" \
        >"$work-image.log" 2>&1 ||
        fail "tools/pvshim-image extract failed ($work-image.log)"
    mv "$work.guest.img" "$disk" || fail "cannot move the guest's disk"
fi
# The host's view of the partition, at its offset: clean, files intact.
if [ -n "${DEBIAN_IMAGE_BARE:-}" ]; then
    start=0
else
    start=$(sfdisk -d "$disk" | sed -n 's/.*start= *\([0-9]*\),.*/\1/p' | head -n1)
fi
[ -n "$start" ] || fail "no partition in $disk"
fs="$disk?offset=$((start * 512))"
e2fsck -fn "$fs" >"$work.fsck" 2>&1 ||
    fail "e2fsck -fn of the partition: not clean ($work.fsck)"
got=$(debugfs -R 'cat /root/rand.bin' "$fs" 2>/dev/null | sha256sum | cut -c1-64)
[ "$got" = "$rand" ] || fail "rand.bin on the host: sha256 $got, the guest's $rand"
got=$(debugfs -R 'cat /root/yes.txt' "$fs" 2>/dev/null | sha256sum | cut -c1-64)
[ "$got" = "$want_yes" ] || fail "yes.txt on the host: sha256 $got, wanted $want_yes"
rm -f "$disk"
where=
[ "$boot" = pvgrub ] || where=" in the extracted guest disk"
echo "PASS: $label: login, workload, network, power button, fsck clean, files intact$where"
