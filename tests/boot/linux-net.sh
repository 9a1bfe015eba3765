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
# it on N vCPUs (netfront then asks for a queue each).  One line:
#
#   PASS: linux: netfront ...     FAIL: linux: netfront: why (console ...)
#   SKIP: linux: netfront: no kernel or initramfs (no network)
set -u
cd "$(dirname "$0")/../.." || exit 1

vcpus=${LINUX_VCPUS:-1}
label="linux: netfront${LINUX_VCPUS:+ ($vcpus vCPUs)}"
log=build/check/linux-net${LINUX_VCPUS:+-smp$vcpus}.log
kernel=${LINUX_KERNEL:-build/linux/vmlinux}
mkdir -p build/check

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

. tests/boot/lib.sh
# Two free ports on 127.0.0.1: the guest's HTTP server and nc listener.
read -r http push < <(free_ports 2)

# A boot still running after 880 s is a hang: the shim's debug keys go
# into its console first (lib.sh).
watched_boot "$log" 880 \
    tools/pvshim-run "$kernel" --initrd "$initrd" --memory 512M --timeout 900 \
    --vcpus "$vcpus" \
    --guest-cmdline "console=hvc0 pvshim_net=1" \
    --net "user,hostfwd=tcp:127.0.0.1:$http-:80,hostfwd=tcp:127.0.0.1:$push-:8081" &
qemu=$!

# The host's side: once the guest is ready, fetch the page and the big
# file, then push 64 MiB of our own; print what came and went.
host=$(python3 - "$log" "$http" "$push" $qemu <<'PY'
import hashlib, os, socket, sys, time, urllib.request
log = sys.argv[1]
http, push, pid = (int(a) for a in sys.argv[2:5])
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
    page = urllib.request.urlopen("http://127.0.0.1:%d/" % http, timeout=120).read()
    print("page", page.decode(errors="replace").strip())
    t = time.time()
    big = urllib.request.urlopen("http://127.0.0.1:%d/big" % http,
                                 timeout=600).read()
    print("fetched", len(big), hashlib.md5(big).hexdigest(),
          "%.1fs" % (time.time() - t))
except Exception as e:
    print("fetch-failed", repr(e).replace(" ", "_"))
data = os.urandom(64 << 20)
try:
    t = time.time()
    s = socket.create_connection(("127.0.0.1", push), timeout=600)
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
    why="${why:+$why; }no DHCP lease of 10.0.2.15"
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
    why="${why:+$why; }no reconnection and lease after rebinding xen-netfront"
! grep -aqE 'Panic on CPU|FATAL TRAP' "$log" ||
    why="${why:+$why; }the shim itself failed"
times=$(sed -n 's/^\(fetched\|pushed\) [0-9]* [0-9a-f]* \(.*\)/\1 in \2/p' \
        <<<"$host" | tr '\n' ' ')

if [ -z "$why" ]; then
    echo "PASS: $label: DHCP lease, httpd page, 64 MiB each way with md5" \
         "(${times% }), driver rebound"
else
    echo "FAIL: $label: $why; host: $(tr '\n' ' ' <<<"$host") (console: $log)"
    exit 1
fi
