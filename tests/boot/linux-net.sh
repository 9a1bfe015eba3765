#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Debian's Linux PV kernel on the network through its own xen-netfront
# (a module, loaded by the test initramfs's /init with pvshim_net=1:
# tools/initramfs/init) against the shim's network backend, over a
# virtio-net NIC on QEMU's user network restricted to this machine
# (restrict=on; hostfwd from 127.0.0.1 only): a DHCP lease (busybox
# udhcpc), the guest's busybox httpd fetched from the host, 64 MiB from
# the guest (its md5sum against the one the guest printed) and 64 MiB
# to it (the md5sum it prints against the host's), and a lease again
# after the driver is unbound and bound again (the vif closes and
# reconnects).  LINUX_VCPUS=N runs
# it on N vCPUs (netfront then asks for a queue each).
#
# LINUX_NET=tap puts the NIC a KVM host gives a VM in its place: a
# virtio-net device on a tap with the virtio header (vnet_hdr) and two
# queue pairs (LINUX_TAP_QUEUES), on 2 vCPUs unless LINUX_VCPUS says
# otherwise.  QEMU's user network offers neither checksum offload nor
# TSO nor more than one pair, so only here do the shim's paths for them
# meet a real device: the guest's GSO packets go to the device whole
# (VIRTIO_NET_F_HOST_TSO4), the host kernel's come whole too
# (VIRTIO_NET_F_GUEST_TSO4, switched on when netfront asks for GSO:
# VIRTIO_NET_CTRL_GUEST_OFFLOADS) with their checksums left to fill
# (VIRTIO_NET_HDR_F_NEEDS_CSUM, netback's NETRXF_csum_blank), and the
# vCPUs' netfront queues map onto the device's pairs; netback's counts
# must show GSO both ways and sums to fill.  A second NIC on a second tap
# becomes vif 1 (Linux's eth1), whose page the host fetches too.  The
# taps live in a user and network namespace of their own (unshare -Urn)
# that holds only them (10.0.2.2 and 10.0.3.2) and a loopback, so
# nothing the guest sends can leave this machine or reach the host's own
# addresses; the guest takes 10.0.2.15 and 10.0.3.15 (pvshim_net_addr=,
# pvshim_net_addr1=: no DHCP server there) and the host's side talks to
# it directly.  One line:
#
#   PASS: linux: netfront ...     FAIL: linux: netfront: why (console ...)
#   SKIP: linux: netfront: no kernel or initramfs (no network)
set -u
cd "$(dirname "$0")/../.." || exit 1

net=${LINUX_NET:-user}
if [ "$net" = tap ]; then
    vcpus=${LINUX_VCPUS:-2}
    queues=${LINUX_TAP_QUEUES:-2}
    label="linux: netfront over a tap (vnet_hdr, GSO both ways, $queues queue pairs, $vcpus vCPUs, two NICs)"
    log=build/check/linux-net-tap.log
else
    vcpus=${LINUX_VCPUS:-1}
    label="linux: netfront${LINUX_VCPUS:+ ($vcpus vCPUs)}"
    log=build/check/linux-net${LINUX_VCPUS:+-smp$vcpus}.log
fi
kernel=${LINUX_KERNEL:-build/linux/vmlinux}
mkdir -p build/check

if [ -z "${PVSHIM_TAP_NS:-}" ]; then
    if [ ! -e "$kernel" ] ||
       ! initrd=$(tools/make-initramfs ${INITRAMFS_DIR:+"$INITRAMFS_DIR"} \
                   2>/dev/null); then
        echo "SKIP: $label: no kernel or initramfs (no network?)"
        exit 0
    fi
    if ! grep -aq lib/modules/xen-netfront.ko "$initrd"; then
        echo "SKIP: $label: the initramfs has no xen-netfront.ko"
        exit 0
    fi
fi
. tests/boot/lib.sh
if [ "$net" = tap ] && [ -z "${PVSHIM_TAP_NS:-}" ]; then
    if ! tap_ns_possible; then
        echo "SKIP: $label: no private network namespace with a tap" \
             "device here (unshare -Urn, /dev/net/tun)"
        exit 0
    fi
    PVSHIM_TAP_NS=1 INITRD=$initrd exec unshare -Urn "$0" "$@"
fi

if [ "$net" = tap ]; then
    # In the namespace: the loopback and the tap, nothing else (no route
    # out of it exists).
    initrd=$INITRD
    mq=
    [ "$queues" -gt 1 ] && mq=multi_queue
    tap_up pvtap0 10.0.2.2/24 $mq && tap_up pvtap1 10.0.3.2/24 || {
        echo "FAIL: $label: cannot set the taps up in the namespace"
        exit 1
    }
    guest=10.0.2.15 http=80 push=8081 lease="address" second=10.0.3.15
    nic=(--guest-cmdline "console=hvc0 pvshim_net=1 pvshim_net_addr=$guest pvshim_net_addr1=$second"
         -- -netdev tap,id=tap0,ifname=pvtap0,script=no,downscript=no,vnet_hdr=on,queues=$queues
         -device virtio-net-pci,netdev=tap0,disable-legacy=on,mq=on,vectors=$((2 * queues + 2)),mac=52:54:00:12:34:56
         -netdev tap,id=tap1,ifname=pvtap1,script=no,downscript=no,vnet_hdr=on
         -device virtio-net-pci,netdev=tap1,disable-legacy=on,mac=52:54:00:12:34:57)
else
    # Two free ports on 127.0.0.1: the guest's HTTP server and nc listener.
    guest=127.0.0.1 lease="DHCP lease" second=
    read -r http push < <(free_ports 2)
    nic=(--guest-cmdline "console=hvc0 pvshim_net=1"
         --net "user,hostfwd=tcp:127.0.0.1:$http-:80,hostfwd=tcp:127.0.0.1:$push-:8081")
fi

# A boot still running after 880 s is a hang: the shim's debug keys go
# into its console first (lib.sh).
watched_boot "$log" 880 \
    tools/pvshim-run "$kernel" --initrd "$initrd" --memory 512M --timeout 900 \
    --vcpus "$vcpus" "${nic[@]}" &
qemu=$!

# The host's side: once the guest is ready, fetch the page and the big
# file, then push 64 MiB of our own; print what came and went.
host=$(python3 - "$log" "$guest" "$http" "$push" $qemu $second <<'PY'
import hashlib, os, socket, sys, time, urllib.request
log, guest = sys.argv[1:3]
http, push, pid = (int(a) for a in sys.argv[3:6])
second = sys.argv[6] if len(sys.argv) > 6 else None
def alive():
    try:
        os.kill(pid, 0)
        return True
    except OSError:
        return False
deadline = time.time() + 800
while b"pvshim-net: ready" not in open(log, "rb").read():
    if time.time() > deadline or not alive():
        print("guest-not-ready")
        sys.exit(0)
    time.sleep(1)
try:
    page = urllib.request.urlopen("http://%s:%d/" % (guest, http),
                                  timeout=120).read()
    print("page", page.decode(errors="replace").strip())
    t = time.time()
    big = urllib.request.urlopen("http://%s:%d/big" % (guest, http),
                                 timeout=600).read()
    print("fetched", len(big), hashlib.md5(big).hexdigest(),
          "%.1fs" % (time.time() - t))
except Exception as e:
    print("fetch-failed", repr(e).replace(" ", "_"))
data = os.urandom(64 << 20)
try:
    t = time.time()
    s = socket.create_connection((guest, push), timeout=600)
    s.sendall(data)
    s.shutdown(socket.SHUT_WR)
    s.settimeout(600)
    s.recv(1)
    s.close()
    print("pushed", len(data), hashlib.md5(data).hexdigest(),
          "%.1fs" % (time.time() - t))
except Exception as e:
    print("push-failed", repr(e).replace(" ", "_"))
if second:
    try:
        page = urllib.request.urlopen("http://%s:%d/" % (second, http),
                                      timeout=120).read()
        print("second-page", page.decode(errors="replace").strip())
    except Exception as e:
        print("second-fetch-failed", repr(e).replace(" ", "_"))
PY
)
wait $qemu
rc=$?

why=
if [ "$rc" = 124 ]; then
    why="still running after 880 s (the shim's debug keys are in the console)"
elif [ "$rc" != 0 ]; then
    why="exit status $rc"
fi
grep -aq "pvshim-net: lease 10.0.2.15" "$log" ||
    why="${why:+$why; }no $lease 10.0.2.15"
grep -q "^page pvshim-net-hello" <<<"$host" ||
    why="${why:+$why; }the guest's httpd page not fetched"
served=$(sed -n 's/.*pvshim-net: served md5 \([0-9a-f]*\).*/\1/p' "$log" | head -n1)
fetched=$(sed -n 's/^fetched 67108864 \([0-9a-f]*\) .*/\1/p' <<<"$host")
bad="64 MiB from the guest: md5 ${fetched:-none}, the guest's ${served:-none}"
[ -n "$served" ] && [ "$served" = "$fetched" ] || why="${why:+$why; }$bad"
pushed=$(sed -n 's/^pushed 67108864 \([0-9a-f]*\) .*/\1/p' <<<"$host")
got=$(sed -n 's/.*pvshim-net: received 67108864 bytes md5 \([0-9a-f]*\).*/\1/p' \
      "$log" | head -n1)
bad="64 MiB to the guest: md5 ${got:-none} there, ${pushed:-none} sent"
[ -n "$pushed" ] && [ "$pushed" = "$got" ] || why="${why:+$why; }$bad"
grep -aq "pvshim-net: reloaded, lease 10.0.2.15" "$log" &&
    [ "$(grep -ac 'netback: vif1.0: connected' "$log")" -ge 2 ] ||
    why="${why:+$why; }no reconnection and $lease after rebinding xen-netfront"
offloads=
if [ "$net" = tap ]; then
    # The offloads were used: the guest's GSO packets went to the TSO
    # device whole, the host kernel's came whole too (the device's GSO,
    # which netfront asked for), with their sums to fill.
    counts=$(grep -a -m1 'netback: vif1.0: disconnected' "$log")
    gso=$(sed -n 's/.*sent [0-9]* packets, \([0-9]*\) GSO.*/\1/p' <<<"$counts")
    rgso=$(sed -n 's/.*received [0-9]*, \([0-9]*\) GSO.*/\1/p' <<<"$counts")
    blank=$(sed -n 's/.* \([0-9]*\) to sum.*/\1/p' <<<"$counts")
    [ "${gso:-0}" -gt 0 ] && [ "${rgso:-0}" -gt 0 ] && [ "${blank:-0}" -gt 0 ] ||
        why="${why:+$why; }GSO not sent or not received, or no packet to sum (${counts:-no counts})"
    offloads=", GSO packets ${gso:-0} sent and ${rgso:-0} received, ${blank:-0} received to sum"
    # The second NIC: vif 1, eth1, its page fetched through it.
    grep -aq 'netback: vif1.1: connected' "$log" &&
        grep -aq "pvshim-net: eth1 mac 52:54:00:12:34:57 address $second" "$log" &&
        grep -q "^second-page pvshim-net-hello" <<<"$host" ||
        why="${why:+$why; }vif 1 (eth1) not connected or its page not fetched"
    offloads+=", vif 1's page fetched"
fi
! grep -aqE 'Panic on CPU|FATAL TRAP' "$log" ||
    why="${why:+$why; }the shim itself failed"
times=$(sed -n 's/^\(fetched\|pushed\) [0-9]* [0-9a-f]* \(.*\)/\1 in \2/p' \
        <<<"$host" | tr '\n' ' ')

if [ -z "$why" ]; then
    echo "PASS: $label: $lease, httpd page, 64 MiB each way with md5" \
         "(${times% })$offloads, driver rebound"
else
    echo "FAIL: $label: $why; host: $(tr '\n' ' ' <<<"$host") (console: $log)"
    exit 1
fi
