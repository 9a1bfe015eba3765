#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A PV guest's disk made into an HVM disk image (tools/pvshim-image) and
# booted by a plain VM's firmware: the Debian 12 image of
# tools/make-debian-image, under SeaBIOS (GRUB for BIOS from the BIOS
# boot partition) or OVMF (GRUB for UEFI from the ESP), on a virtio-blk
# or NVMe disk; GRUB starts pvshim, which gives the guest's partition to
# Debian's PV GRUB as xvda, and the guest boots to its login.  The
# session is tests/boot/debian-image.sh's (login, workload, network,
# power button), and its files are then found in the guest disk that
# pvshim-image extract gives back.
#
#   HVM_IMAGE=uefi-virtio (default), bios-nvme, uefi-nvme, bios-virtio:
#       one boot, one "PASS: hvm image (FIRMWARE, DISK): ..." line
#   HVM_IMAGE=bare: the image's file system alone as the guest's disk
#       (a bare filesystem, which the guest mounts as xvda1), UEFI on
#       virtio-blk
#   HVM_IMAGE=all: the four and bare, one after the other (a manual run:
#       each boot takes two to four minutes under TCG; make check runs
#       uefi-virtio and bios-nvme)
set -u
cd "$(dirname "$0")/../.." || exit 1

case ${HVM_IMAGE:-uefi-virtio} in
all) set -- uefi-virtio bios-nvme uefi-nvme bios-virtio uefi-virtio-bare ;;
bare) set -- uefi-virtio-bare ;;
bios-virtio|bios-nvme|uefi-virtio|uefi-nvme) set -- "${HVM_IMAGE:-uefi-virtio}" ;;
*) echo "FAIL: hvm image: HVM_IMAGE=$HVM_IMAGE unknown"; exit 1 ;;
esac
rc=0
for c in "$@"; do
    bare=
    case $c in *-bare) bare=1; c=${c%-bare} ;; esac
    DEBIAN_IMAGE_BOOT=hvm-${c%-*} DEBIAN_IMAGE_IF=${c#*-} \
        DEBIAN_IMAGE_BARE=$bare tests/boot/debian-image.sh || rc=1
done
exit $rc
