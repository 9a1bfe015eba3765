#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The installed pvshim, booting a guest from its installed files alone.
# First `make install` into a scratch PREFIX, whose pvshim-run boots the
# hello test kernel with the shim images it installed.  Then `make deb`
# (tools/make-deb: dpkg-buildpackage, lintian clean), the package
# installed by apt, with its dependencies, into a fresh Debian 12
# (bookworm) chroot, and that chroot's /usr/bin/pvshim-run booting
# hello as a 64-bit guest (multiboot1) and as a 32-bit one (PVH, the
# stripped pvshim-pvh) with the images in /usr/lib/pvshim.
#
# The chroot: a minbase system by mmdebstrap (root mode), kept as a
# tarball, build/deb/chroot/bookworm.tar, made again when its recipe
# below changes; each run unpacks it afresh, so the package and its
# dependencies go into a system that has never had them.  apt's
# downloads (qemu-system-x86 and what it needs) stay in
# build/deb/chroot/archives/, so a later run fetches no more than what
# changed on the mirror.  The chroot's /proc, /dev, /sys and that cache
# are mounted in a mount namespace of the test's own (unshare), so they
# vanish with it, even when it is killed.
#
# One "PASS: deb: ..." or "FAIL: deb: ...: why" line per check; "SKIP:"
# for the chroot's checks when this machine can't make one: not root
# (mmdebstrap's root mode, chroot), no mmdebstrap, no Debian mirror.
# Logs in build/check/deb/.
set -u
self=$(realpath "$0")
cd "$(dirname "$0")/../.." || exit 1

logdir=build/check/deb
cache=build/deb/chroot
root=$cache/root
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
suite=bookworm
# A boot takes seconds alone; only a hang should end one.
timeout=${DEB_TIMEOUT:-600}
guest64=build/guests/hello.elf
guest32=build/guests32/hello.elf
. tests/boot/lib.sh

# The chroot's checks, inside the mount namespace (see the end).
in_chroot() {
    local r=$root rc why apt_update=0 f files

    mount -t proc proc "$r/proc" && mount --rbind /dev "$r/dev" &&
        mount --rbind /sys "$r/sys" &&
        mount --bind "$cache/archives" "$r/var/cache/apt/archives" ||
        { echo "FAIL: deb: mounts for the chroot"; return; }
    # A clean environment: nothing of the host's (CI=, PATH) leaks in.
    ch() { chroot "$r" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
               HOME=/root LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }

    # No translations: mmdebstrap's lists have none, apt would fetch them.
    ch apt-get update -o Acquire::Languages=none \
        >"$logdir/apt-update.log" 2>&1 || apt_update=$?
    if ! ch apt-get install -y --no-install-recommends \
            "/tmp/${deb##*/}" >"$logdir/apt-install.log" 2>&1; then
        if [ $apt_update != 0 ]; then
            echo "SKIP: deb: apt in the chroot: no mirror" \
                "($(tail -n1 "$logdir/apt-update.log"))"
        else
            echo "FAIL: deb: apt-get install ${deb##*/} in a fresh" \
                "Debian 12 chroot ($logdir/apt-install.log)"
            tail -n 15 "$logdir/apt-install.log" | sed 's/^/    | /'
        fi
        return
    fi
    echo "PASS: deb: apt-get install ${deb##*/} in a fresh Debian 12 chroot"
    # Old versions' downloads out of the cache.
    ch apt-get autoclean >/dev/null 2>&1

    why=
    files=$(ch dpkg -L pvshim) || why="dpkg -L pvshim failed"
    for f in /usr/bin/pvshim-run /usr/lib/pvshim/pvshim \
             /usr/lib/pvshim/pvshim-pvh /usr/share/man/man1/pvshim-run.1.gz \
             /usr/share/doc/pvshim/copyright /usr/share/doc/pvshim/README.md.gz \
             /usr/share/doc/pvshim/docs/command-line.md.gz; do
        grep -qx "$f" <<<"$files" && [ -e "$r$f" ] ||
            why="${why:+$why; }no $f"
    done
    ch pvshim-run /tmp/hello64.elf --dry-run >"$logdir/dry-run.log" 2>&1
    grep -q -- '-kernel /usr/lib/pvshim/pvshim ' "$logdir/dry-run.log" ||
        why="${why:+$why; }its QEMU command boots no /usr/lib/pvshim/pvshim"
    if [ -z "$why" ]; then
        echo "PASS: deb: the package's files, pvshim-run's default shim"
    else
        echo "FAIL: deb: the package's files: $why"
    fi

    # The installed files boot a guest: 64-bit by multiboot1, 32-bit by
    # PVH.
    chroot_boot pv64 multiboot1 /tmp/hello64.elf
    chroot_boot pv32 PVH /tmp/hello32.elf --boot pvh
}

# The chroot's pvshim-run boots a hello kernel: width, boot, ELF, options.
chroot_boot() {
    local width=$1 boot=$2 rc why=
    shift 2
    ch pvshim-run "$@" --timeout "$timeout" \
        </dev/null >"$logdir/boot-$width.log" 2>&1
    rc=$?
    [ $rc = 0 ] || why="exit status $rc"
    verdict "deb: installed pvshim-run boots hello ($width, $boot)" \
        "$logdir/boot-$width.log" "$why" "+Test result: SUCCESS" \
        "+Shutting down the VM, exit status 0"
}

if [ "${1:-}" = --in-namespace ]; then
    deb=$2
    in_chroot
    exit 0
fi

rm -rf "$logdir"
mkdir -p "$logdir"
for g in "$guest64" "$guest32"; do
    [ -r "$g" ] || { echo "FAIL: deb: no $g (make guests)"; exit 0; }
done

# make install into a scratch PREFIX, and its pvshim-run.
prefix=$PWD/$logdir/prefix
why=
make -s install PREFIX="$prefix" >"$logdir/make-install.log" 2>&1 ||
    why="make install failed ($logdir/make-install.log)"
for f in bin/pvshim-run lib/pvshim/pvshim lib/pvshim/pvshim-pvh \
         share/man/man1/pvshim-run.1 share/doc/pvshim/README.md \
         share/doc/pvshim/docs/architecture.md; do
    [ -z "$why" ] && [ ! -e "$prefix/$f" ] && why="no PREFIX/$f"
done
if [ -n "$why" ]; then
    echo "FAIL: deb: make install PREFIX=$prefix: $why"
else
    "$prefix/bin/pvshim-run" "$guest64" --timeout "$timeout" \
        </dev/null >"$logdir/install-boot.log" 2>&1
    rc=$?
    [ $rc = 0 ] || why="exit status $rc"
    "$prefix/bin/pvshim-run" "$guest64" --dry-run 2>&1 |
        grep -q -- "-kernel $prefix/lib/pvshim/pvshim " ||
        why="${why:+$why; }its default shim is not PREFIX/lib/pvshim"
    verdict "deb: make install's pvshim-run boots hello with its shim" \
        "$logdir/install-boot.log" "$why" "+Test result: SUCCESS"
fi

# The package.
make -s deb >"$logdir/make-deb.log" 2>&1
rc=$?
deb=$(ls -1 build/deb/pvshim_*.deb 2>/dev/null | tail -n1)
case $rc in
0) echo "PASS: deb: make deb: dpkg-buildpackage, lintian clean" ;;
2) echo "SKIP: deb: make deb: $(tail -n1 "$logdir/make-deb.log")"; exit 0 ;;
*) echo "FAIL: deb: make deb ($logdir/make-deb.log, build/deb/)"
   tail -n 15 "$logdir/make-deb.log" | sed 's/^/    | /'
   exit 0 ;;
esac

# The chroot's tarball, made once per recipe.
skip() { echo "SKIP: deb: the package in a Debian 12 chroot: $*"; exit 0; }
[ "$(id -u)" = 0 ] || skip "needs root (mmdebstrap's root mode, chroot)"
command -v mmdebstrap >/dev/null && command -v unshare >/dev/null ||
    skip "needs mmdebstrap and unshare (ci/deps.sh)"
opts="--variant=minbase --mode=root --format=tar --skip=cleanup/apt/lists"
sum=$(sha256sum <<<"mmdebstrap $opts $suite $mirror" | cut -d' ' -f1)
tar=$cache/$suite.tar
mkdir -p "$cache/archives/partial"
if [ ! -s "$tar" ] || [ "$(cat "$cache/$suite.stamp" 2>/dev/null)" != "$sum" ]
then
    /usr/lib/apt/apt-helper download-file "$mirror/dists/$suite/Release" \
        "$cache/Release" >/dev/null 2>&1 || skip "cannot reach $mirror"
    rm -f "$cache/Release" "$tar" "$cache/$suite.stamp"
    # shellcheck disable=SC2086
    mmdebstrap $opts "$suite" "$tar.tmp" "$mirror" \
        >"$logdir/mmdebstrap.log" 2>&1 &&
        mv "$tar.tmp" "$tar" && echo "$sum" >"$cache/$suite.stamp" ||
        { echo "FAIL: deb: mmdebstrap $suite ($logdir/mmdebstrap.log)"
          tail -n 15 "$logdir/mmdebstrap.log" | sed 's/^/    | /'
          exit 0; }
fi

# A fresh chroot from it, the package and the guests copied in, then the
# checks in a mount namespace of their own.
rm -rf --one-file-system "$root"
mkdir -p "$root" && tar -xf "$tar" -C "$root" ||
    { echo "FAIL: deb: unpacking $tar"; exit 0; }
cp "$deb" "$root/tmp/" && cp "$guest64" "$root/tmp/hello64.elf" &&
    cp "$guest32" "$root/tmp/hello32.elf" &&
    cp -L /etc/resolv.conf "$root/etc/resolv.conf" ||
    { echo "FAIL: deb: copying into the chroot"; exit 0; }
out=$(unshare --mount --propagation private "$self" --in-namespace "$deb")
echo "$out"
# The chroot goes when everything passed; a failure's stays to be seen.
grep -q '^FAIL' <<<"$out" || rm -rf --one-file-system "$root"
