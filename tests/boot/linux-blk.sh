#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Debian's Linux PV kernel reading and writing xvda through its own
# xen-blkfront (a module, loaded by the test initramfs's /init with
# pvshim_blk=MODE: tools/initramfs/init) against the shim's block
# backend, over a virtio-blk disk (LINUX_BLK_IF=nvme: an NVMe one).  One
# boot, one check, chosen by LINUX_BLK_MODE:
#
#   basic  (default) the size blkfront sees, the md5sum of the whole disk
#          against the image's, a sector written and read back, and
#          afterwards the image file holding that sector and every other
#          one as made
#   write  64 MiB from the guest's /dev/urandom written and fsync'd, the
#          guest powered off: the image file's first 64 MiB have the md5
#          the guest printed, the rest is as made (four vCPUs)
#   read   64 MiB of the host's random data read back by the guest: its
#          md5 is the file's
#   ro     a read-only disk (--disk ...,ro) and a CD-ROM (--disk ...,cdrom,
#          xvdb): Linux sees both read-only, a write to either fails in
#          the guest, the CD-ROM alone answers CDROM_GET_CAPABILITY, the
#          CD-ROM reads whole, both files are unchanged
#   ext4   an ext4 filesystem made on the host (mke2fs) mounted by the
#          guest, files written, unmounted, powered off: e2fsck -fn is
#          clean and the files' contents are what the guest wrote (four
#          vCPUs)
#   resize the disk grown while the guest runs (QEMU's block_resize on a
#          monitor, once the guest says it waits): blkfront sees the new
#          size, the new last sector written lands at the file's end,
#          the old sectors are as made
#   many   18 disks (the last four on NVMe controllers of their own) and 5
#          NICs, every one the shim drives: Linux sees xvda to xvdr each
#          with its own file's sectors, in the order given (xvdq and xvdr
#          by xl's extended device ids), and eth0 to eth4 up with their
#          MACs; every disk connected
#   part   a GPT disk (sfdisk) whose second partition alone is xvda
#          (vbd=virtio-blk0:partlabel=guest; on NVMe vbd=partuuid=...,
#          no device named, and the primary GPT header's CRC broken, so
#          the backup header serves): blkfront sees the partition's size, the
#          md5sum of xvda is the partition's, sector 100 written lands
#          at the partition's sector 100, sectors 400-407 discarded
#          (--disk ...,discard: QEMU punches a hole) read as zeroes in
#          the file, and no other byte of the image file changes
#
#   PASS: linux: blkfront ...     FAIL: linux: blkfront: why (console ...)
#   SKIP: linux: blkfront: no kernel or initramfs (no network)
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/boot/lib.sh     # watched_boot, linux_initrd

iface=${LINUX_BLK_IF:-virtio}
mode=${LINUX_BLK_MODE:-basic}
case $mode in
basic) label="linux: blkfront ($iface)"; tag=$iface ;;
write|read|ro|ext4|part|resize|many) label="linux: blkfront $mode ($iface)"; tag=$mode-$iface ;;
*) echo "FAIL: linux: blkfront: unknown LINUX_BLK_MODE $mode"; exit 1 ;;
esac
log=build/check/linux-blk-$tag.log
img=build/check/linux-blk-$tag.img
kernel=${LINUX_KERNEL:-build/linux/vmlinux}
mkdir -p build/check

linux_initrd "$label" xen-blkfront
if [ "$mode" = ext4 ] && ! command -v mke2fs >/dev/null; then
    echo "SKIP: $label: no mke2fs (e2fsprogs) on the host"
    exit 0
fi
if [ "$mode" = part ] && ! command -v sfdisk >/dev/null; then
    echo "SKIP: $label: no sfdisk (fdisk) on the host"
    exit 0
fi

MIB64=67108864
why=
fail() { why="${why:+$why; }$*"; }

# pattern FILE FIRST COUNT: sectors FIRST.. of FILE, each sector n holding
# the 64-bit little-endian n in each word (appended).
pattern() {
    python3 - "$@" <<'PY'
import struct, sys
with open(sys.argv[1], 'ab') as f:
    first, count = int(sys.argv[2]), int(sys.argv[3])
    f.write(b''.join(struct.pack('<Q', n) * 64
                     for n in range(first, first + count)))
PY
}

# pattern_bad FILE FIRST COUNT: the first sectors of that range not as made.
pattern_bad() {
    python3 - "$@" <<'PY'
import struct, sys
first, count = int(sys.argv[2]), int(sys.argv[3])
with open(sys.argv[1], 'rb') as f:
    f.seek(first * 512)
    d = f.read(count * 512)
bad = [n for n in range(first, first + count)
       if d[(n - first) * 512:(n - first + 1) * 512] !=
          struct.pack('<Q', n) * 64]
print(' '.join(map(str, bad[:8])))
PY
}

rm -f "$img"
vcpus=1 opts= shimopts= extra=() gextra=
# The many mode's disks (the first on virtio-blk, the last MANY_NVME on
# NVMe, the rest on virtio-blk) and NICs: disk k's sectors from k * 1000.
MANY_DISKS=18 MANY_NVME=4 MANY_NICS=5
# The part mode's partition: sectors PSTART.. of the image, PSIZE of them.
PSTART=4096 PSIZE=8192
PUUID=6a0c1f0e-3d2b-4c5a-9e8f-0123456789ab
case $mode in
basic|ro|resize)
    pattern "$img" 0 8192
    if [ "$mode" = ro ]; then
        opts=,ro
        # The CD-ROM: sectors of its own, so neither reads as the other.
        rm -f "$img.cd"
        pattern "$img.cd" 10000 2048
        cdsum=$(md5sum <"$img.cd" | cut -d' ' -f1)
        extra=(--disk "$img.cd,if=$iface,cdrom")
    fi
    ;;
many)
    pattern "$img" 0 64
    for k in $(seq 1 $((MANY_DISKS - 1))); do
        rm -f "$img.$k"
        pattern "$img.$k" $((k * 1000)) 64
        on=virtio
        [ $k -ge $((MANY_DISKS - MANY_NVME)) ] && on=nvme
        extra+=(--disk "$img.$k,if=$on")
    done
    extra+=(--)
    for k in $(seq 0 $((MANY_NICS - 1))); do
        extra+=(-netdev "user,id=many$k,restrict=on"
                -device "virtio-net-pci,netdev=many$k,disable-legacy=on,mac=52:54:00:12:34:6$k")
    done
    gextra=" pvshim_many=$MANY_DISKS:$MANY_NICS"
    ;;
write)
    pattern "$img" 0 $((MIB64 / 512 + 2048))
    vcpus=4
    ;;
read)
    head -c $MIB64 /dev/urandom >"$img"
    pattern "$img" $((MIB64 / 512)) 2048
    ;;
ext4)
    mke2fs -q -F -t ext4 -L pvshim "$img" 64M >"$log.mke2fs" 2>&1 ||
        fail "mke2fs failed ($log.mke2fs)"
    vcpus=4
    ;;
part)
    pattern "$img" 0 16384
    printf '%s\n' 'label: gpt' \
        'start=2048, size=2048, name=other' \
        "start=$PSTART, size=$PSIZE, name=guest, uuid=$PUUID" |
        sfdisk -q "$img" >"$log.sfdisk" 2>&1 ||
        fail "sfdisk failed ($log.sfdisk)"
    # On NVMe, a primary header whose CRC is wrong: the backup serves.
    [ "$iface" = nvme ] &&
        printf 'X' | dd of="$img" bs=1 seek=$((512 + 40)) conv=notrunc 2>/dev/null
    cp "$img" "$img.before"
    opts=,discard
    if [ "$iface" = nvme ]; then
        shimopts="vbd=partuuid=$PUUID"
    else
        shimopts="vbd=virtio-blk0:partlabel=guest"
    fi
    ;;
esac
want=$(md5sum <"$img" | cut -d' ' -f1)
[ "$mode" = read ] && want=$(head -c $MIB64 "$img" | md5sum | cut -d' ' -f1)
[ "$mode" = part ] && want=$(dd if="$img" bs=512 skip=$PSTART count=$PSIZE \
                             2>/dev/null | md5sum | cut -d' ' -f1)

# The resize mode's QEMU monitor on a pipe pair (QEMU opens both ends
# read-write), and what types block_resize into it once the guest waits.
mon=${log%.log}-monitor resizer=
if [ "$mode" = resize ]; then
    rm -f "$mon.in" "$mon.out"
    mkfifo "$mon.in" "$mon.out" || exit 1
    : >"$log"   # the last run's "resize now" is not this one's
    extra=(-- -chardev "pipe,id=blkmon,path=$mon" -mon chardev=blkmon)
    (
        for _ in $(seq 600); do
            if grep -aq 'pvshim-blk: resize now' "$log" 2>/dev/null; then
                echo "block_resize pvshim-disk0 8M" >"$mon.in"
                exit 0
            fi
            sleep 0.5
        done
    ) &
    resizer=$!
fi

# A boot still running after 280 s is a hang: the shim's debug keys go
# into its console first (lib.sh).
watched_boot "$log" 280 \
    tools/pvshim-run "$kernel" --initrd "$initrd" --memory 512M --timeout 300 \
    --vcpus $vcpus --shim-cmdline "$shimopts" \
    --guest-cmdline "console=hvc0 pvshim_blk=$(case $mode in basic) echo 1 ;; *) echo "$mode" ;; esac)$gextra" \
    --disk "$img,if=$iface$opts" "${extra[@]}"
rc=$?
if [ -n "$resizer" ]; then
    kill $resizer 2>/dev/null
    wait $resizer 2>/dev/null
    rm -f "$mon.in" "$mon.out"
fi

if [ "$rc" = 124 ]; then
    fail "still running after 280 s (the shim's debug keys are in the console)"
elif [ "$rc" != 0 ]; then
    fail "exit status $rc"
fi
! grep -aqE 'Panic on CPU|FATAL TRAP' "$log" || fail "the shim itself failed"
sectors=$(($(stat -c %s "$img") / 512))
[ "$mode" = part ] && sectors=$PSIZE
[ "$mode" = resize ] && sectors=8192     # at first
[ "$mode" = many ] && sectors=64
grep -aqE "pvshim-blk: xvda sectors $sectors\b" "$log" ||
    fail "blkfront did not see $sectors sectors"
# What the guest printed after "pvshim-blk: KEY ".
printed() {
    sed -n "s/^pvshim-blk: $1 \([0-9a-f]*\).*/\1/p" "$log" | tr -d '\r' |
        head -n1
}

case $mode in
basic)
    grep -aq "pvshim-blk: md5 $want" "$log" ||
        fail "the md5sum of xvda is not the image's ($want)"
    grep -aq "pvshim-blk: read back pvshim-blk-written" "$log" ||
        fail "sector 100 did not read back"
    s100=$(printf 'pvshim-blk-written\n' | dd bs=512 conv=sync 2>/dev/null |
           md5sum)
    [ "$(dd if="$img" bs=512 skip=100 count=1 2>/dev/null | md5sum)" = \
      "$s100" ] || fail "sector 100 of the image is not what the guest wrote"
    bad=$(echo $(pattern_bad "$img" 0 100) $(pattern_bad "$img" 101 8091))
    [ -z "$bad" ] || fail "sectors $bad of the image wrong"
    done="xvda read whole (md5 as the image), written, the image file right"
    ;;
write)
    guest=$(printed md5)
    grep -aq "pvshim-blk: written $MIB64 bytes" "$log" ||
        fail "the guest's write did not finish"
    file=$(head -c $MIB64 "$img" | md5sum | cut -d' ' -f1)
    [ -n "$guest" ] && [ "$guest" = "$file" ] ||
        fail "the image's first 64 MiB have md5 $file," \
             "the guest wrote ${guest:-none}"
    bad=$(pattern_bad "$img" $((MIB64 / 512)) 2048)
    [ -z "$bad" ] || fail "sectors $bad past the written 64 MiB changed"
    done="64 MiB of random data written on 4 vCPUs, in the image as the"
    done="$done guest's md5 $file says"
    ;;
read)
    [ "$(printed md5)" = "$want" ] ||
        fail "the guest read md5 $(printed md5), the image's is $want"
    done="64 MiB of random data read back, md5 $want"
    ;;
part)
    grep -aq "pvshim-blk: md5 $want" "$log" ||
        fail "the md5sum of xvda is not the partition's ($want)"
    grep -aq "pvshim-blk: read back pvshim-blk-written" "$log" ||
        fail "sector 100 did not read back"
    s100=$(printf 'pvshim-blk-written\n' | dd bs=512 conv=sync 2>/dev/null |
           md5sum)
    [ "$(dd if="$img" bs=512 skip=$((PSTART + 100)) count=1 2>/dev/null |
         md5sum)" = "$s100" ] ||
        fail "the partition's sector 100 is not what the guest wrote"
    grep -aq "pvshim-blk: discarded 400-407" "$log" ||
        fail "the guest's discard failed"
    [ "$(dd if="$img" bs=512 skip=$((PSTART + 400)) count=8 2>/dev/null |
         tr -d '\0' | wc -c)" = 0 ] ||
        fail "the partition's sectors 400-407 are not zeroes after a discard"
    # Every byte outside those sectors as before the boot.
    changed=$(cmp -l "$img.before" "$img" |
              awk -v w=$(((PSTART + 100) * 512)) -v d=$(((PSTART + 400) * 512)) \
                  '!($1 - 1 >= w && $1 - 1 < w + 512) &&
                   !($1 - 1 >= d && $1 - 1 < d + 4096) { print $1 - 1; exit }')
    [ -z "$changed" ] || fail "byte $changed of the image changed"
    grep -aq "blkback: xvda (51712) is .* partition 2 (sectors $PSTART-" "$log" ||
        fail "the shim did not log partition 2 as xvda"
    if [ "$iface" = nvme ]; then
        grep -aq "blkback: nvme0n1: primary GPT: header CRC mismatch" "$log" ||
            fail "the shim did not refuse the primary GPT header"
        shimopts="$shimopts, from the backup GPT header"
    fi
    done="xvda is GPT partition 2 ($shimopts): its size and md5sum, a"
    done="$done sector written and 8 discarded inside it, no byte outside"
    done="$done changed"
    ;;
many)
    # Each disk once, in the order given (PCI order), its own sectors;
    # each NIC with its MAC.
    for k in $(seq 0 $((MANY_DISKS - 1))); do
        d=xvd$(printf "\\$(printf %o $((97 + k)))")
        w=$(printf %016x $((k * 1000 + 1)))
        grep -aqE "pvshim-blk: many $d sectors 64 word $w" "$log" ||
            fail "$d is not disk $k (64 sectors, word $w)"
    done
    for k in $(seq 0 $((MANY_NICS - 1))); do
        grep -aq "pvshim-blk: many eth$k mac 52:54:00:12:34:6$k carrier 1" "$log" ||
            fail "eth$k is not up with the MAC 52:54:00:12:34:6$k"
    done
    n=$(grep -ac "blkback: xvd[a-z]: connected" "$log")
    [ "$n" = "$MANY_DISKS" ] || fail "$n disks connected, not $MANY_DISKS"
    n=$(grep -ac "netback: vif1\.[0-9]: connected" "$log")
    [ "$n" = "$MANY_NICS" ] || fail "$n NICs connected, not $MANY_NICS"
    rm -f "$img".[0-9]*
    [ "$iface" = nvme ] && MANY_NVME=$((MANY_NVME + 1))   # xvda too
    done="$MANY_DISKS disks ($MANY_NVME on NVMe) as xvda-xvd$(printf "\\$(printf %o $((96 + MANY_DISKS)))") and $MANY_NICS NICs, each its own"
    ;;
resize)
    grep -aq "blkback: xvda: resized to 16384 sectors (were 8192)" "$log" ||
        fail "the shim did not log xvda's new size"
    grep -aq "pvshim-blk: resized to 16384" "$log" ||
        fail "blkfront did not see 16384 sectors"
    grep -aq "pvshim-blk: read back pvshim-blk-grown" "$log" ||
        fail "the new last sector did not read back"
    [ "$(stat -c %s "$img")" = 8388608 ] || fail "the image is not 8 MiB"
    s=$(printf 'pvshim-blk-grown\n' | dd bs=512 conv=sync 2>/dev/null | md5sum)
    [ "$(dd if="$img" bs=512 skip=16383 count=1 2>/dev/null | md5sum)" = \
      "$s" ] || fail "the file's last sector is not what the guest wrote"
    bad=$(pattern_bad "$img" 0 8192)
    [ -z "$bad" ] || fail "sectors $bad of the image wrong"
    done="xvda grown from 4 to 8 MiB while Linux ran: blkfront saw it,"
    done="$done its new last sector written at the file's end"
    ;;
ro)
    for d in xvda xvdb; do
        grep -aq "pvshim-blk: $d ro 1" "$log" ||
            fail "Linux did not see $d read-only"
        grep -aq "pvshim-blk: $d write refused" "$log" ||
            fail "a write to $d was not refused"
    done
    grep -aq "pvshim-blk: xvda is not a cdrom" "$log" ||
        fail "xvda, a disk, answered as a CD-ROM"
    grep -aq "pvshim-blk: xvdb is cdrom" "$log" ||
        fail "xvdb did not answer as a CD-ROM"
    [ "$(printed 'xvdb md5')" = "$cdsum" ] ||
        fail "xvdb read md5 $(printed 'xvdb md5'), the CD-ROM's is $cdsum"
    cdname=virtio-blk1
    [ "$iface" = nvme ] && cdname=nvme1n1
    grep -aq "blkback: xvdb (51728) is $cdname, 2048 sectors, CD-ROM" "$log" ||
        fail "the shim did not log xvdb as a CD-ROM"
    [ "$(md5sum <"$img" | cut -d' ' -f1)" = "$want" ] ||
        fail "the read-only image changed"
    [ "$(md5sum <"$img.cd" | cut -d' ' -f1)" = "$cdsum" ] ||
        fail "the CD-ROM's image changed"
    done="xvda read-only and xvdb a CD-ROM: writes refused, only xvdb a"
    done="$done CD-ROM to Linux, xvdb read whole, both images unchanged"
    ;;
ext4)
    grep -aq "pvshim-blk: mounted" "$log" || fail "the guest did not mount it"
    grep -aq "pvshim-blk: unmounted" "$log" ||
        fail "the guest did not unmount it"
    e2fsck -fn "$img" >"$log.fsck" 2>&1 ||
        fail "e2fsck -fn: status $? ($log.fsck)"
    for f in random dir/busybox; do
        key=${f#dir/}
        got=$(debugfs -R "cat /$f" "$img" 2>/dev/null | md5sum | cut -d' ' -f1)
        [ "$got" = "$(printed "$key")" ] ||
            fail "/$f has md5 $got, the guest wrote $(printed "$key")"
    done
    [ "$(debugfs -R "cat /dir/f63" "$img" 2>/dev/null)" = "file 63" ] ||
        fail "/dir/f63 is not as written"
    n=$(debugfs -R "ls /dir" "$img" 2>/dev/null | grep -oE '\bf[0-9]+\b' |
        sort -u | wc -l)
    [ "$n" = 63 ] || fail "/dir holds $n of the 63 files left"
    done="ext4 mounted on 4 vCPUs, files written and unmounted;"
    done="$done e2fsck -fn clean, contents as written"
    ;;
esac

if [ -z "$why" ]; then
    echo "PASS: $label: $done"
    rm -f "$img" "$img.before" "$img.cd"
else
    echo "FAIL: $label: $why (console: $log)"
    exit 1
fi
