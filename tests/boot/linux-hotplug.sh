#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A disk and a NIC the host adds to the running VM (QEMU's drive_add,
# netdev_add and device_add, what libvirt's attach-disk and
# attach-interface do), as `xl block-attach` and `xl network-attach` add
# them to a running PV guest: the shim takes each new virtio device (ACPI
# PCI hotplug on QEMU's pc machine), its backends offer them to the
# guest as the next disk and vif, and Debian's Linux (tools/initramfs/init,
# pvshim_hotplug=1), which booted with xvda alone and no NIC, finds
# xvdb, reads it (the md5sum of its first MiB is the file's) and writes
# a MiB to it (which the file then has), then finds eth0 with the MAC
# given, takes a DHCP lease on the user network (restricted to the host)
# and pings its gateway.  Then the host takes both back (device_del, as
# xl block-detach and network-detach): the guest, which holds the disk
# open meanwhile, sees each go, QEMU gets each slot (the eject), and what
# their drivers took (memory, vectors) is freed a second later; a disk
# added again is xvdb again with its own contents, a NIC added again
# eth0, which takes a lease and pings; and the guest powers
# off with the shim's status 0.  LINUX_HOTPLUG_IF=nvme adds NVMe
# controllers instead; LINUX_HOTPLUG_MACHINE=q35 puts each device behind
# a PCIe port of its own, as libvirt does (the disk's a pcie-root-port,
# the NIC's an ioh3420; qboot leaves their windows closed, the shim opens
# them), which QEMU 7.2 hot-plugs through ACPI with a selector for each
# port; q35-native turns that off (ICH9-LPC's
# acpi-pci-hotplug-with-bridge-support, as QEMU before 6.1 and RHEL's
# machine types): the ports' own hot-plug controllers, the
# pcie-root-port's interrupting through MSI-X, the ioh3420's through MSI.
# LINUX_HOTPLUG_VCPUS (1), LINUX_HOTPLUG_SHIM_DIR (build/default) and
# LINUX_HOTPLUG_BASE (the logs' names) vary it.
#
#   PASS: linux: a disk and a NIC added and taken back while it runs (...)
#   FAIL: linux: a disk and a NIC added and taken back while it runs: why (console: ...)
#   SKIP: linux: a disk and a NIC added and taken back while it runs: no kernel or initramfs
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/boot/lib.sh     # watched_boot, linux_initrd

label="linux: a disk and a NIC added and taken back while it runs"
label+=${LINUX_HOTPLUG_IF:+ ($LINUX_HOTPLUG_IF)}
label+=${LINUX_HOTPLUG_MACHINE:+ ($LINUX_HOTPLUG_MACHINE)}
kernel=${LINUX_KERNEL:-build/linux/vmlinux}
# One per variant: make check runs them at once (they once shared one).
base=${LINUX_HOTPLUG_BASE:-build/check/linux-hotplug${LINUX_HOTPLUG_IF:+-$LINUX_HOTPLUG_IF}${LINUX_HOTPLUG_MACHINE:+-$LINUX_HOTPLUG_MACHINE}}
# Where each device goes, and the slot the shim names when it gives it
# back: bus 0's slots 4 and 5 on pc; on q35, device 0 behind each port,
# on the bus firmware gave it (read from the shim's log once it booted:
# the port's line for its slot number, or the first pci_dev line of the
# bus it puts behind 00:03.0 and 00:04.0).
q35=
case "${LINUX_HOTPLUG_MACHINE:-pc}" in
q35*)
    q35=${LINUX_HOTPLUG_MACHINE}
    machine=(-M q35 -device pcie-root-port,id=rp1,chassis=1,slot=1
             -device ioh3420,id=rp2,chassis=2,slot=2)
    [ "$q35" = q35 ] || machine+=(-global
        ICH9-LPC.acpi-pci-hotplug-with-bridge-support=off)
    on_disk=,bus=rp1 on_nic=,bus=rp2 ;;
*)
    machine=() on_disk= on_nic= disk_slot=00:04 nic_slot=00:05 ;;
esac
log=$base.log mon=$base-monitor a=$base-a.img b=$base-b.img c=$base-c.img
mkdir -p build/check

linux_initrd "$label" xen-blkfront xen-netfront

why=
fail() { why="${why:+$why; }$*"; }
has() { grep -aqE -- "$2" "$1" 2>/dev/null; }
monitor() { timeout 10 bash -c 'echo "$1" >"$2"' _ "$1" "$mon.in"; }
until_has() {           # until_has SECONDS FILE REGEX
    local end=$((SECONDS + $1))
    until has "$2" "$3"; do
        kill -0 $pid 2>/dev/null && [ $SECONDS -lt $end ] || return 1
        sleep 0.5
    done
}

rm -f "$a" "$b" "$c" "$mon.in" "$mon.out"
truncate -s 16M "$a" && head -c 4194304 /dev/urandom >"$b" &&
    head -c 2097152 /dev/urandom >"$c" || exit 1
mkfifo "$mon.in" "$mon.out" || exit 1
# Emptied here, not by the jobs below: no wait may find the last run's.
: >"$mon.log"
: >"$log"
cat "$mon.out" >"$mon.log" &
watched_boot "$log" 280 \
    tools/pvshim-run --shim-dir "${LINUX_HOTPLUG_SHIM_DIR:-build/default}" \
    "$kernel" --initrd "$initrd" --memory 256M \
    --vcpus "${LINUX_HOTPLUG_VCPUS:-1}" --disk "$a" \
    --timeout 300 --guest-cmdline "console=hvc0 pvshim_hotplug=1" -- \
    "${machine[@]}" -chardev "pipe,id=mon,path=$mon" -mon chardev=mon &
pid=$!

port_bus() {            # port_bus ADDR HOW: the bus behind that port
    tr -d '\r' <"$log" |
        sed -n "s/.*PCI: $1: hot-plug bus \([0-9a-f]*\)$2\$/\1/p" | head -n1
}
if [ "$q35" = q35 ]; then
    disk_how=' through ACPI (BSEL [0-9]*)' nic_how=$disk_how
else
    disk_how=', slot 1, MSI-X' nic_how=', slot 2, MSI'
fi
if ! until_has 200 "$log" '^pvshim-hotplug: ready'; then
    fail "the guest did not start with its xvda"
elif [ -n "$q35" ] && { disk_slot=$(port_bus 00:03.0 "$disk_how"):00
                        nic_slot=$(port_bus 00:04.0 "$nic_how"):00
                        [ "$disk_slot" = :00 ] || [ "$nic_slot" = :00 ]; }; then
    fail "the shim did not take the ports as it should ($disk_how; $nic_how)"
else
    monitor "drive_add 0 if=none,id=hp0,file=$b,format=raw"
    if [ "${LINUX_HOTPLUG_IF:-virtio}" = nvme ]; then
        monitor "device_add nvme,drive=hp0,serial=pvshimhp,id=hpd0$on_disk"
    else
        monitor "device_add virtio-blk-pci,drive=hp0,id=hpd0,disable-legacy=on$on_disk"
    fi
    until_has 120 "$log" '^pvshim-hotplug: (xvdb md5|no xvdb)' ||
        fail "the guest said nothing of an xvdb"
    has "$log" "PCI: $disk_slot: 1 function added by the host" ||
        fail "the shim saw no device"
    has "$log" 'blkback: .* added by the host: the guest.s xvdb' ||
        fail "the backend did not offer it as xvdb"
    want=$(head -c 1048576 "$b" | md5sum | cut -d' ' -f1)
    got=$(sed -n 's/^pvshim-hotplug: xvdb md5 \([0-9a-f]*\).*/\1/p' "$log" |
          tr -d '\r' | head -n1)
    [ -n "$got" ] && [ "$got" = "$want" ] ||
        fail "xvdb's first MiB is ${got:-unread}, the file's $want"
    until_has 60 "$log" '^pvshim-hotplug: written' ||
        fail "the guest could not write to xvdb"
    monitor "netdev_add user,id=hpn0,restrict=on"
    monitor "device_add virtio-net-pci,netdev=hpn0,id=hpn,disable-legacy=on,mac=52:54:00:12:34:99$on_nic"
    until_has 120 "$log" '^pvshim-hotplug: (eth0 52|no eth0)' ||
        fail "the guest said nothing of an eth0"
    has "$log" 'netback: .* added by the host: the guest.s vif1\.0' ||
        fail "the backend did not offer it as vif1.0"
    has "$log" '^pvshim-hotplug: eth0 52:54:00:12:34:99' ||
        fail "eth0 is not the NIC added"
    until_has 90 "$log" '^pvshim-hotplug: eth0 ping ok' ||
        fail "eth0 took no lease, or the gateway did not answer"
    # Both taken back (xl block-detach, network-detach): the guest lets
    # them go (Linux's blkfront since 5.19 even a disk held open, as on
    # Xen: it marks it dead), the shim gives each slot to QEMU.
    monitor "device_del hpd0"
    until_has 60 "$log" '^pvshim-hotplug: xvdb gone' ||
        fail "xvdb did not go from the guest"
    until_has 30 "$log" "PCI: $disk_slot: given back to the host" ||
        fail "the disk's slot was not given back"
    monitor "device_del hpn"
    until_has 60 "$log" '^pvshim-hotplug: eth0 gone' ||
        fail "eth0 did not go from the guest"
    until_has 30 "$log" "PCI: $nic_slot: given back to the host" ||
        fail "the NIC's slot was not given back"
    # What their drivers took (memory, vectors), free again for the next.
    for s in "$disk_slot" "$nic_slot"; do
        until_has 30 "$log" "PCI: $s\.0: its driver's [1-9][0-9]* KiB and [1-9][0-9]* vectors? freed" ||
            fail "$s.0's driver's memory and vectors were not freed"
    done
    # A disk again: xvdb, the first one's name and slot.
    monitor "drive_add 0 if=none,id=hp1,file=$c,format=raw"
    if [ "${LINUX_HOTPLUG_IF:-virtio}" = nvme ]; then
        monitor "device_add nvme,drive=hp1,serial=pvshimhp1,id=hpd1$on_disk"
    else
        monitor "device_add virtio-blk-pci,drive=hp1,id=hpd1,disable-legacy=on$on_disk"
    fi
    until_has 120 "$log" '^pvshim-hotplug: xvdb again md5' ||
        fail "the guest saw no disk added again"
    want=$(head -c 1048576 "$c" | md5sum | cut -d' ' -f1)
    got=$(sed -n 's/^pvshim-hotplug: xvdb again md5 \([0-9a-f]*\).*/\1/p' \
          "$log" | tr -d '\r' | head -n1)
    [ -n "$got" ] && [ "$got" = "$want" ] ||
        fail "the second xvdb's first MiB is ${got:-unread}, the file's $want"
    # A NIC again: vif 0's number and state used again, on frames the
    # first NIC's driver gave back.
    monitor "netdev_add user,id=hpn1,restrict=on"
    monitor "device_add virtio-net-pci,netdev=hpn1,id=hpn1,disable-legacy=on,mac=52:54:00:12:34:98$on_nic"
    until_has 120 "$log" '^pvshim-hotplug: eth0 again 52:54:00:12:34:98' ||
        fail "the guest saw no NIC added again"
    until_has 90 "$log" '^pvshim-hotplug: eth0 again ping ok' ||
        fail "the second eth0 took no lease, or the gateway did not answer"
    timeout 10 bash -c 'echo >"$1"' _ "$log.in"
fi
wait $pid
rc=$?
[ "$rc" = 0 ] || fail "exit status $rc"
! has "$log" 'Panic on CPU|FATAL TRAP' || fail "the shim itself failed"
[ "$(tail -c +1048577 "$b" | head -c 1048576 | md5sum)" = \
  "$(yes hotplug | head -c 1048576 | md5sum)" ] ||
    fail "the MiB the guest wrote is not in the file"

if [ -z "$why" ]; then
    echo "PASS: $label (xvdb read and written, eth0 pinged the gateway," \
         "both taken back and their drivers' memory freed, both added again)"
else
    echo "FAIL: $label: $why (console: $log)"
    tail -n 15 "$log" | sed 's/^/    | /'
fi
