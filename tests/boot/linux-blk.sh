#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Debian's Linux PV kernel reading and writing xvda through its own
# xen-blkfront (a module, loaded by the test initramfs's /init with
# pvshim_blk=1: tools/initramfs/init) against the shim's block backend,
# over a virtio-blk disk (LINUX_BLK_IF=nvme: an NVMe one): the size
# blkfront sees, the md5sum of the whole disk against the image's, a
# sector written and read back, and afterwards the image file holding
# that sector and every other one as made.  One line:
#
#   PASS: linux: blkfront ...     FAIL: linux: blkfront: why (console ...)
#   SKIP: linux: blkfront: no kernel or initramfs (no network)
set -u
cd "$(dirname "$0")/../.." || exit 1

iface=${LINUX_BLK_IF:-virtio}
label="linux: blkfront ($iface)"
log=build/check/linux-blk-$iface.log
img=build/check/linux-blk-$iface.img
kernel=${LINUX_KERNEL:-build/linux/vmlinux}
mkdir -p build/check

if [ ! -e "$kernel" ] || ! initrd=$(tools/make-initramfs 2>/dev/null); then
    echo "SKIP: $label: no kernel or initramfs (no network?)"
    exit 0
fi
if ! grep -aq lib/modules/xen-blkfront.ko "$initrd"; then
    echo "SKIP: $label: the initramfs has no xen-blkfront.ko"
    exit 0
fi

# 8192 sectors, sector n holding the 64-bit little-endian n in each word.
python3 - "$img" <<'PY'
import struct, sys
with open(sys.argv[1], 'wb') as f:
    for n in range(8192):
        f.write(struct.pack('<Q', n) * 64)
PY
want=$(md5sum <"$img" | cut -d' ' -f1)

tools/pvshim-run "$kernel" --initrd "$initrd" --memory 512M --timeout 300 \
    --guest-cmdline "console=hvc0 pvshim_blk=1" --disk "$img,if=$iface" \
    </dev/null >"$log" 2>&1
rc=$?

why=
[ "$rc" = 0 ] || why="exit status $rc"
grep -aq "pvshim-blk: xvda sectors 8192" "$log" ||
    why="${why:+$why; }blkfront did not see 8192 sectors"
grep -aq "pvshim-blk: md5 $want" "$log" ||
    why="${why:+$why; }the md5sum of xvda is not the image's ($want)"
grep -aq "pvshim-blk: read back pvshim-blk-written" "$log" ||
    why="${why:+$why; }sector 100 did not read back"
! grep -aqE 'Panic on CPU|FATAL TRAP' "$log" ||
    why="${why:+$why; }the shim itself failed"
bad=$(python3 - "$img" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
bad = [n for n in range(8192) if n != 100 and
       d[n * 512:(n + 1) * 512] != struct.pack('<Q', n) * 64]
if d[100 * 512:101 * 512] != b'pvshim-blk-written\n'.ljust(512, b'\0'):
    bad.insert(0, 100)
print(' '.join(map(str, bad[:8])))
PY
)
[ -z "$bad" ] || why="${why:+$why; }sectors $bad of the image wrong"

if [ -z "$why" ]; then
    echo "PASS: $label: xvda read whole (md5 as the image), written, the image file right"
else
    echo "FAIL: $label: $why (console: $log)"
    exit 1
fi
