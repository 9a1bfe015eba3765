#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# pvshim under a real libvirt (docs/libvirt.md): Debian's libvirtd, started
# here as a session daemon of its own (qemu:///session, every directory it
# uses in build/check/libvirt/, so nothing system-wide is touched and other
# runs don't collide; as uid 65534 when run as root, since a root libvirtd
# is the system one), runs tools/pvshim-libvirt's domain: the shim with
# Debian's PV GRUB, the Debian 12 image as a virtio-blk disk (a qcow2
# overlay: the image itself is never written) and a virtio-net NIC on
# QEMU's user network restricted to the host.  virsh defines it, starts
# it, logs in as root on `virsh console` and runs a command (eth0's DHCP
# lease) and `reboot` (the shim resets the VM, libvirt keeps the domain
# running, and the guest boots to its login again), saves it to a file
# and restores it (`virsh save`, `virsh restore`: it goes on, a login and
# a command on its console again), takes 256 MiB back from it with
# `virsh setmem` (the shim's balloon: Linux's xen-balloon gives it) and
# gives it again, attaches a disk and detaches it (`virsh attach-disk`:
# the guest's xvdb connects; `detach-disk`: it is removed), shuts it down with the ACPI power button (the guest powers off
# cleanly: the domain is shut off for the reason "shutdown" and the
# shim's log says poweroff, status 0), starts it again and destroys it
# once PV GRUB reads the disk, and undefines it.  The domain is a q35
# one, as virt-install makes (each device on a PCIe root port of its own,
# two spare ones for the disk attached); LIBVIRT_MACHINE=pc an i440FX
# one.  LIBVIRT_IF=nvme: the disk is NVMe.  One line:
#
#   PASS: libvirt (virtio, q35): define, start, console login, reboot, save, restore, login, setmem down and up, attach-disk, detach-disk, shutdown (power button), start, destroy, undefine
#   FAIL: libvirt (virtio, q35): why (console: build/check/libvirt-virtio/console.log)
#   SKIP: libvirt (virtio, q35): no libvirtd (ci/deps.sh installs libvirt-daemon-system)
set -u
cd "$(dirname "$0")/../.." || exit 1

iface=${LIBVIRT_IF:-virtio}
machine=${LIBVIRT_MACHINE:-q35}
label="libvirt ($iface, $machine)"
work=$PWD/build/check/libvirt-$iface
log=$work/console.log
dom=pvshim-check-$iface

skip() { echo "SKIP: $label: $*"; exit 0; }
fail() {
    echo "FAIL: $label: $* (console: ${log#"$PWD/"})"
    tail -n 15 "$log" 2>/dev/null | sed 's/^/    | /'
    exit 1
}

for c in libvirtd virsh qemu-img setpriv; do
    command -v $c >/dev/null ||
        skip "no $c (ci/deps.sh installs libvirt-daemon-system, libvirt-clients, qemu-utils)"
done
rm -rf "$work"
mkdir -p "$work" || exit 1
img=$(tools/make-debian-image 2>"$work/build.log")
case $? in
0) ;;
2) skip "no image ($(tail -n1 "$work/build.log"))" ;;
*) echo "FAIL: $label: tools/make-debian-image failed ($work/build.log)"
   exit 1 ;;
esac
grub=$(tools/fetch-pvgrub 2>"$work/build.log")
case $? in
0) ;;
2) skip "no PV GRUB ($(tail -n1 "$work/build.log"))" ;;
*) echo "FAIL: $label: tools/fetch-pvgrub failed"; exit 1 ;;
esac
[ -r build/default/pvshim ] || fail "no build/default/pvshim: run make"

# The session daemon's directories, short: QEMU's monitor socket lives
# in them and a socket's path has room for 107 bytes.
state=$work/s
[ ${#state} -le 48 ] || state=$(mktemp -d "${TMPDIR:-/tmp}/pvshim-libvirt.XXXXXX")
mkdir -p "$state"/{c/libvirt,r,d,h,x}
# Its QEMU logs to files itself, with no virtlogd; no security driver
# (no AppArmor or SELinux labels in a session).
printf 'stdio_handler = "file"\nsecurity_driver = "none"\n' \
    >"$state/c/libvirt/qemu.conf"
export HOME=$state/h XDG_CONFIG_HOME=$state/c XDG_RUNTIME_DIR=$state/r \
    XDG_DATA_HOME=$state/d XDG_CACHE_HOME=$state/x LIBVIRT_AUTOSTART=0
unset LIBVIRT_DEFAULT_URI VIRSH_DEFAULT_CONNECT_URI

qemu-img create -q -f qcow2 -F raw -b "$(realpath "$img")" "$work/disk.qcow2" ||
    fail "qemu-img could not make an overlay of $img"
tools/pvshim-libvirt --name "$dom" --guest "$grub" --machine "$machine" \
    --disk "$work/disk.qcow2,format=qcow2,if=$iface" --net user \
    --console-log "$log" >"$work/domain.xml" || fail "pvshim-libvirt failed"

# A root libvirtd is the system daemon (/etc/libvirt, /run/libvirt):
# as root, the daemon and virsh run as nobody, which must read the
# shim, PV GRUB and the image, and owns everything in $work.
as=()
if [ "$(id -u)" = 0 ]; then
    as=(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all)
    chown -R 65534:65534 "$work" "$state" || fail "chown to 65534 failed"
    for f in build/default/pvshim "$grub" "$img"; do
        "${as[@]}" test -r "$f" || skip "uid 65534 cannot read $f"
    done
fi
virsh() { "${as[@]}" virsh -q -c qemu:///session "$@"; }

# --timeout: should this script die unseen, the daemon ends once idle.
"${as[@]}" libvirtd --timeout 1800 >"$work/libvirtd.log" 2>&1 &
daemon=$!
cleanup() {
    virsh destroy "$dom" >/dev/null 2>&1
    virsh undefine "$dom" >/dev/null 2>&1
    kill "$daemon" 2>/dev/null
    wait "$daemon" 2>/dev/null
    # A QEMU the daemon left behind, by its pid file.
    local q
    q=$(cat "$state/r/libvirt/qemu/run/$dom.pid" 2>/dev/null) &&
        [ -n "$q" ] && kill "$q" 2>/dev/null
    [ "$state" = "$work/s" ] || rm -rf "$state"
}
trap cleanup EXIT

# poll SECONDS COMMAND...: until COMMAND succeeds, at most SECONDS.
poll() {
    local end=$((SECONDS + $1))
    shift
    until "$@"; do
        [ $SECONDS -lt $end ] || return 1
        sleep 1
    done
}
alive() { kill -0 "$daemon" 2>/dev/null || fail "libvirtd died ($work/libvirtd.log)"; }
up() { alive; virsh uri >/dev/null 2>&1; }
poll 120 up || fail "libvirtd did not answer in 120 s ($work/libvirtd.log)"

state_is() { [[ "$(virsh domstate --reason "$dom" 2>/dev/null)" == $1 ]]; }
console_has() {
    state_is 'running*' || fail "the domain stopped: $(virsh domstate --reason "$dom" 2>&1)"
    grep -aqE -- "$1" "$log"
}

virsh define "$work/domain.xml" >"$work/virsh.log" 2>&1 ||
    fail "virsh define: $(cat "$work/virsh.log")"
virsh start "$dom" >"$work/virsh.log" 2>&1 ||
    fail "virsh start: $(cat "$work/virsh.log")"

# The login on virsh console (a pty for it: it won't run on a pipe).
# The getty may have printed its prompt before the console attached, so
# wait for it in the log, then press Enter for a fresh one, and again
# every 3 s while none comes: right after `virsh restore` what is typed
# in the first seconds never reaches the VM (libvirt's, every time: the
# same QEMU migration done by hand takes the first Enter at once), and
# waiting 20 s for the second cost the test that long.  Under a loaded
# TCG host GRUB, the kernel and systemd take minutes.
poll 1500 console_has 'pvshim-debian login: ' || fail "no login prompt"
# console_as_root LOG: tests/boot/pty-chat.py on virsh console (its
# transcript in LOG), logged in as root, then the steps on stdin.
console_as_root() {
    {
        printf '%s\n' 'expect 60 Escape character' 'send \r' 'resend 3 \r' \
            'expect 300 pvshim-debian login: ' 'send root\r' \
            'expect 120 Password: ' 'send root\r' \
            'expect 300 root@pvshim-debian:~# '
        cat
    } | tests/boot/pty-chat.py "$1" \
        "${as[@]}" virsh -c qemu:///session console --force "$dom" \
        2>"$work/pty-chat.log"
}
console_as_root "$work/virsh-console.log" <<'EOF' ||
send for i in $(seq 120); do ip -4 -o addr show eth0 | grep -q 'inet 10.0.2.15/' && break; sleep 1; done; ip -4 -o addr show eth0; echo console-$((6 * 7))\r
expect 600 console-42
send reboot\r
expect 600 Rebooting the VM
expect 1500 pvshim-debian login: 
send \x1d
wait 60
EOF
    fail "virsh console: $(tail -n1 "$work/pty-chat.log") ($work/virsh-console.log)"
grep -aq 'eth0 *inet 10\.0\.2\.15/' "$work/virsh-console.log" ||
    fail "eth0 took no DHCP lease ($work/virsh-console.log)"
# The guest's reboot reset the VM (no debug-exit device: the shim resets
# it, <on_reboot>restart</on_reboot>), and it came up again.
state_is 'running*' ||
    fail "after the guest's reboot: $(virsh domstate --reason "$dom")"
grep -aq 'd1: shutdown: reboot' "$log" || fail "the guest did not reboot"
[ "$(grep -ac 'Reading (xen/xvda,msdos1)/boot/grub/grub.cfg' "$log")" -ge 2 ] ||
    fail "PV GRUB did not start again after the guest's reboot"

# Saved and restored (QEMU's migration into a file, as `virsh save`
# does it), with systemd and the guest's disk and NIC up: the domain
# runs on from where it stopped, in a new QEMU (the console's log starts
# again), and takes a login and a command; eth0 keeps its lease.
virsh save "$dom" "$work/saved" >"$work/virsh.log" 2>&1 ||
    fail "virsh save: $(cat "$work/virsh.log")"
state_is 'shut off (saved)' ||
    fail "after virsh save: $(virsh domstate --reason "$dom")"
virsh restore "$work/saved" >"$work/virsh.log" 2>&1 ||
    fail "virsh restore: $(cat "$work/virsh.log")"
state_is 'running (restored)' ||
    fail "after virsh restore: $(virsh domstate --reason "$dom")"
rm -f "$work/saved"
console_as_root "$work/virsh-console-restored.log" <<'EOF' ||
send ip -4 -o addr show eth0; echo restored-$((6 * 7))\r
expect 120 restored-42
send exit\r
expect 300 pvshim-debian login: 
send \x1d
wait 60
EOF
    fail "virsh console after the restore: $(tail -n1 "$work/pty-chat.log") ($work/virsh-console-restored.log)"
grep -aq 'eth0 *inet 10\.0\.2\.15/' "$work/virsh-console-restored.log" ||
    fail "eth0 lost its lease across the restore ($work/virsh-console-restored.log)"
grep -aqE 'pvshim [0-9a-f]+ .* starting|Linux version' "$log" &&
    fail "the restored domain booted again"

# The host's balloon (virsh setmem, QEMU's virtio-balloon): the shim
# lowers the guest's memory/target, Linux's xen-balloon gives the memory
# back, and libvirt sees it given (dommemstat's actual); then all back.
actual_is() { virsh dommemstat "$dom" 2>/dev/null | grep -q "^actual $1\$"; }
for kib in 786432 1048576; do
    virsh setmem "$dom" $kib --live >"$work/virsh.log" 2>&1 ||
        fail "virsh setmem $kib: $(cat "$work/virsh.log")"
    poll 300 actual_is $kib ||
        fail "the balloon did not reach $kib KiB: $(virsh dommemstat "$dom" 2>&1 | grep actual)"
done
grep -aq 'd1: memory target' "$log" || fail "the shim set the guest no target"

# A disk attached to the running domain (virsh attach-disk: QEMU's
# device_add, ACPI PCI hotplug; on q35 into a spare root port): the
# shim's block backend offers it as xvdb, as xl block-attach would, and
# Debian's blkfront connects to it.
truncate -s 8M "$work/extra.img" && chown 65534:65534 "$work/extra.img" 2>/dev/null
virsh attach-disk "$dom" "$work/extra.img" vdb --targetbus virtio --live \
    >"$work/virsh.log" 2>&1 || fail "virsh attach-disk: $(cat "$work/virsh.log")"
xvdb_up() { grep -aq 'blkback: xvdb: connected' "$log"; }
poll 120 xvdb_up || fail "the attached disk did not connect as xvdb"
# And detached (xl block-detach's order: the guest's blkfront closes, the
# shim removes xvdb, QEMU gets the device back).
virsh detach-disk "$dom" vdb --live >"$work/virsh.log" 2>&1 ||
    fail "virsh detach-disk: $(cat "$work/virsh.log")"
vdb_gone() { ! virsh domblklist "$dom" 2>/dev/null | grep -q '^ *vdb '; }
poll 120 vdb_gone || fail "vdb still attached: $(virsh domblklist "$dom" 2>&1)"
grep -aq 'blkback: xvdb: removed' "$log" || fail "the shim did not remove xvdb"

# The power button: the shim gives Linux control/shutdown "poweroff",
# systemd unmounts the root and the shim ends the VM with ACPI S5.
virsh shutdown --mode acpi "$dom" >"$work/virsh.log" 2>&1 ||
    fail "virsh shutdown: $(cat "$work/virsh.log")"
poll 600 state_is 'shut off*' ||
    fail "still $(virsh domstate "$dom") 600 s after virsh shutdown"
state_is 'shut off (shutdown)' ||
    fail "after virsh shutdown: $(virsh domstate --reason "$dom")"
grep -aq 'd1: shutdown: poweroff' "$log" || fail "the guest did not power off"
grep -aq 'Shutting down the VM, exit status 0' "$log" ||
    fail "the shim did not end the VM with status 0"
grep -aqE 'Panic on CPU|FATAL TRAP' "$log" && fail "the shim itself failed"

# Again, and destroyed once PV GRUB reads the disk.
virsh start "$dom" >"$work/virsh.log" 2>&1 ||
    fail "virsh start, the second time: $(cat "$work/virsh.log")"
poll 600 console_has 'Reading \(xen/xvda,msdos1\)/boot/grub/grub.cfg' ||
    fail "PV GRUB did not read grub.cfg the second time"
virsh destroy "$dom" >"$work/virsh.log" 2>&1 ||
    fail "virsh destroy: $(cat "$work/virsh.log")"
state_is 'shut off (destroyed)' ||
    fail "after virsh destroy: $(virsh domstate --reason "$dom")"
virsh undefine "$dom" >"$work/virsh.log" 2>&1 ||
    fail "virsh undefine: $(cat "$work/virsh.log")"
[ -z "$(virsh list --all --name)" ] || fail "a domain is left after undefine"
rm -f "$work/disk.qcow2" "$work/extra.img"
echo "PASS: $label: define, start, console login, reboot, save, restore, login, setmem down and up, attach-disk, detach-disk, shutdown (power button), start, destroy, undefine"
