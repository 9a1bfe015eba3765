#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Debian's Linux PV kernel on the network through xen-netfront, as
# linux-net.sh, but over the NIC a KVM host gives a VM: a virtio-net
# device on a tap with the virtio header (vnet_hdr) and two queue pairs.
# QEMU's user network offers neither checksum offload towards the host
# kernel nor TSO nor more than one queue pair, so only here do the
# shim's paths for them meet a real device: the guest's GSO packets go
# to the device whole (VIRTIO_NET_F_HOST_TSO4), the host kernel's come
# whole too (VIRTIO_NET_F_GUEST_TSO4, switched on when netfront asks for
# GSO: VIRTIO_NET_CTRL_GUEST_OFFLOADS) with their checksums left to fill
# (VIRTIO_NET_HDR_F_NEEDS_CSUM, netback's NETRXF_csum_blank), and the
# two vCPUs' netfront queues map onto the device's two pairs.
#
# The tap lives in a user and network namespace of its own (unshare
# -Urn): the namespace holds only its loopback and the tap, so nothing
# the guest sends can leave this machine or even reach the host's own
# addresses.  The host's end (10.0.2.2 on the tap) fetches the guest's
# httpd page and 64 MiB from it and pushes 64 MiB to it, each with its
# md5sum; the guest (10.0.2.15, static: no DHCP server here) rebinds
# netfront in between (the vif closes and reconnects).  LINUX_VCPUS=N
# (default 2) and LINUX_TAP_QUEUES=N (the device's pairs, default 2)
# change the shape.  One line:
#
#   PASS: linux: netfront over a tap ...   FAIL: ...: why (console ...)
#   SKIP: ...: no kernel, no initramfs, or no namespace with a tap here
set -u
cd "$(dirname "$0")/../.." || exit 1

vcpus=${LINUX_VCPUS:-2}
queues=${LINUX_TAP_QUEUES:-2}
label="linux: netfront over a tap (vnet_hdr, GSO both ways, $queues queue pairs, $vcpus vCPUs)"
log=build/check/linux-tap.log
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
    if ! unshare -Urn sh -c \
         'ip tuntap add pvtap0 mode tap multi_queue && ip link del pvtap0' \
         >/dev/null 2>&1; then
        echo "SKIP: $label: no private network namespace with a tap" \
             "device here (unshare -Urn, /dev/net/tun)"
        exit 0
    fi
    PVSHIM_TAP_NS=1 INITRD=$initrd exec unshare -Urn "$0" "$@"
fi

# In the namespace: the loopback and the tap, nothing else (no route
# out of it exists).
initrd=$INITRD
mq=
[ "$queues" -gt 1 ] && mq=multi_queue
ip link set lo up &&
    ip tuntap add pvtap0 mode tap $mq &&
    ip addr add 10.0.2.2/24 dev pvtap0 &&
    ip link set pvtap0 up || {
    echo "FAIL: $label: cannot set the tap up in the namespace"
    exit 1
}

. tests/boot/lib.sh

# A boot still running after 880 s is a hang: the shim's debug keys go
# into its console first (lib.sh).
watched_boot "$log" 880 \
    tools/pvshim-run "$kernel" --initrd "$initrd" --memory 512M --timeout 900 \
    --vcpus "$vcpus" \
    --guest-cmdline "console=hvc0 pvshim_net=1 pvshim_net_addr=10.0.2.15" \
    -- -netdev tap,id=tap0,ifname=pvtap0,script=no,downscript=no,vnet_hdr=on,queues=$queues \
    -device virtio-net-pci,netdev=tap0,disable-legacy=on,mq=on,vectors=6,mac=52:54:00:12:34:56 &
qemu=$!

# The host's side, as linux-net.sh's, to the guest's address.
host=$(python3 - "$log" $qemu <<'PY'
import hashlib, os, socket, sys, time, urllib.request
log = sys.argv[1]
pid = int(sys.argv[2])
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
    page = urllib.request.urlopen("http://10.0.2.15/", timeout=120).read()
    print("page", page.decode(errors="replace").strip())
    t = time.time()
    big = urllib.request.urlopen("http://10.0.2.15/big", timeout=600).read()
    print("fetched", len(big), hashlib.md5(big).hexdigest(),
          "%.1fs" % (time.time() - t))
except Exception as e:
    print("fetch-failed", repr(e).replace(" ", "_"))
data = os.urandom(64 << 20)
try:
    t = time.time()
    s = socket.create_connection(("10.0.2.15", 8081), timeout=600)
    s.sendall(data)
    s.shutdown(socket.SHUT_WR)
    s.settimeout(600)
    s.recv(1)
    s.close()
    print("pushed", len(data), hashlib.md5(data).hexdigest(),
          "%.1fs" % (time.time() - t))
except Exception as e:
    print("push-failed", repr(e).replace(" ", "_"))
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
    why="${why:+$why; }eth0 not up as 10.0.2.15"
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
    why="${why:+$why; }no reconnection after rebinding xen-netfront"
# The offloads were used: the guest's GSO packets went to the TSO device
# whole, the host kernel's came whole too (the device's GSO, which
# netfront asked for), with their sums to fill.
counts=$(grep -a -m1 'netback: vif1.0: disconnected' "$log")
gso=$(sed -n 's/.*sent [0-9]* packets, \([0-9]*\) GSO.*/\1/p' <<<"$counts")
rgso=$(sed -n 's/.*received [0-9]*, \([0-9]*\) GSO.*/\1/p' <<<"$counts")
blank=$(sed -n 's/.* \([0-9]*\) to sum.*/\1/p' <<<"$counts")
[ "${gso:-0}" -gt 0 ] && [ "${rgso:-0}" -gt 0 ] && [ "${blank:-0}" -gt 0 ] ||
    why="${why:+$why; }GSO not sent or not received, or no packet to sum (${counts:-no counts})"
! grep -aqE 'Panic on CPU|FATAL TRAP' "$log" ||
    why="${why:+$why; }the shim itself failed"
times=$(sed -n 's/^\(fetched\|pushed\) [0-9]* [0-9a-f]* \(.*\)/\1 in \2/p' \
        <<<"$host" | tr '\n' ' ')

if [ -z "$why" ]; then
    echo "PASS: $label: page, 64 MiB each way with md5" \
         "(${times% }), GSO packets $gso sent and $rgso received," \
         "$blank received to sum," \
         "driver rebound"
else
    echo "FAIL: $label: $why; host: $(tr '\n' ' ' <<<"$host") (console: $log)"
    exit 1
fi
