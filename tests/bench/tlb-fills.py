#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""QEMU's soft-TLB fills per unit of work, by whose access they were.

Input: `perf script -F trace` of a uprobe on QEMU's x86_cpu_tlb_fill()
that records each fill's virtual address and MMU index (linux.sh adds it
as "addr=%si:u64 mmu=%r8:s32").  Under TCG every CR3 write empties the
soft TLB, so each page touched after one costs a fill: a page walk in
QEMU (and the walk's own reads of the page tables, which QEMU 7.2 makes
through the TLB too, in its physical MMU index).  The columns:

  guest   the guest's own accesses (kernel and user)
  walks   the reads of page tables by the walks for them (QEMU fills
          these in its physical MMU index, MMU_PHYS_IDX, nested in the
          fill that walks, so each is the preceding access's)
  shim    the accesses to the shim's area (the PV ABI's reserved range,
          0xffff800000000000-0xffff87ffffffffff: the shim's own, and the
          guest's reads of the M2P), which a native boot does not have;
          with --syms, its image's pages are named after the symbol at
          which each was first touched
  walks   the walks for those

usage: tlb-fills.py [--syms ELF] [--top N] NAME=FILE:DIVISOR...
"""
import bisect
import collections
import re
import subprocess
import sys

MMU_PHYS_IDX = 6                # QEMU 7.2, target/i386/cpu.h
SHIM_AREA = (0xffff800000000000, 0xffff880000000000)
LINE = re.compile(r"addr=(\d+) mmu=(-?\d+)")


def symbols(elf):
    out = []
    nm = subprocess.run(["nm", "-n", elf], capture_output=True, text=True,
                        check=True).stdout
    for line in nm.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] not in "aAuU":
            out.append((int(f[0], 16), f[2]))
    return out


def count(path, syms):
    cols = collections.Counter()
    pages = collections.Counter()
    last = "guest"
    addrs = [s[0] for s in syms]
    with open(path) as f:
        for line in f:
            m = LINE.search(line)
            if not m:
                continue
            addr, mmu = int(m.group(1)), int(m.group(2))
            if mmu == MMU_PHYS_IDX:
                cols[last + " walks"] += 1
            elif SHIM_AREA[0] <= addr < SHIM_AREA[1]:
                cols["shim"] += 1
                last = "shim"
                i = bisect.bisect_right(addrs, addr) - 1
                if syms and i >= 0 and addr - addrs[i] < (1 << 22):
                    pages[(addr >> 12, syms[i][1])] += 1
            else:
                cols["guest"] += 1
                last = "guest"
    return cols, pages


def main(argv):
    syms, top, parts = [], 0, []
    while argv:
        a = argv.pop(0)
        if a == "--syms":
            syms = symbols(argv.pop(0))
        elif a == "--top":
            top = int(argv.pop(0))
        else:
            name, rest = a.rsplit("=", 1)
            path, div = rest.rsplit(":", 1)
            parts.append((name, path, float(div)))
    if not parts:
        sys.exit(__doc__)
    print("%-30s %9s %9s %9s %9s %9s" %
          ("soft-TLB fills", "total", "guest", "walks", "shim", "walks"))
    tops = []
    for name, path, div in parts:
        cols, pages = count(path, syms)
        total = sum(cols.values())
        print("%-30s %9.1f %9.1f %9.1f %9.1f %9.1f" %
              (name, total / div, cols["guest"] / div,
               cols["guest walks"] / div, cols["shim"] / div,
               cols["shim walks"] / div))
        if top and pages:
            tops.append((name, div, pages))
    for name, div, pages in tops:
        print("%s, the shim's pages most filled (page, first symbol, fills):"
              % name)
        for (page, sym), n in pages.most_common(top):
            print("  %x000 %-36s %8.2f" % (page, sym, n / div))


if __name__ == "__main__":
    main(sys.argv[1:])
