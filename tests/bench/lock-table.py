#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The shim's lock profile (the 'l' key's output, Xen's format) per unit
of work: the last "lock profile info SHOW" in each FILE (a console log,
or a part's profile saved by io.sh), after an 'L' that began the part.

  lock-table.py [--vcpus N] COLUMN=FILE:DIVISOR...
      Two tables, one column per part: each lock's acquisitions per
      DIVISOR (the part's device requests, or MiB moved), and its share of
      the vCPUs' time spent waiting for it (block ns over N vCPUs times
      the profile's span, "total = NS"); locks never taken are left out.
  lock-table.py --waits [--vcpus N] FILE
      One line, each waited-for lock's share, the largest first:
      "domain_lock 5.5% flush_lock 0.1%", or "-" if none was waited for
      (tests/bench/flush-lock.sh's column).
"""
import re
import sys

HEAD = re.compile(r"lock profile info SHOW .*total = (\d+)")
LOCK = re.compile(r"(Global lock|Domain \d+) (\S+): addr=")
COUNTS = re.compile(r"lock:(\d+)\((\d+)\), block:(\d+)\((\d+)\)")


def parse(path):
    """(total ns, {name: (acquisitions, held ns, waits, waited ns)})."""
    total, locks, name = 0, {}, None
    for line in open(path, errors="replace"):
        m = HEAD.search(line)
        if m:
            total, locks, name = int(m.group(1)), {}, None
            continue
        m = LOCK.search(line)
        if m:
            name = m.group(2)
            continue
        m = COUNTS.search(line)
        if m and name:
            locks[name] = tuple(int(x) for x in m.groups())
            name = None
    return total, locks


def share(total, counts, vcpus):
    return 100.0 * counts[3] / (vcpus * total) if total > 0 else 0.0


def waits_line(path, vcpus):
    total, locks = parse(path)
    w = sorted(((share(total, c, vcpus), n) for n, c in locks.items()
                if c[3] > 0), reverse=True)
    return " ".join("%s %.1f%%" % (n, s) for s, n in w) or "-"


def main(args):
    vcpus = 1
    if args and args[0] == "--waits":
        args = args[1:]
        waits = True
    else:
        waits = False
    if len(args) >= 2 and args[0] == "--vcpus":
        vcpus = max(int(args[1]), 1)
        args = args[2:]
    if waits:
        print(waits_line(args[0], vcpus))
        return
    cols = []
    for a in args:
        name, rest = a.split("=", 1)
        path, div = rest.rsplit(":", 1)
        try:
            total, locks = parse(path)
        except OSError:
            total, locks = 0, {}
        cols.append((name, total, locks,
                     float(div) if div not in ("", "-") else 0))
    order = []
    for _, _, locks, _ in cols:
        for k in locks:
            if k not in order:
                order.append(k)
    order = [k for k in order if any(c[2].get(k, (0,))[0] for c in cols)]
    width = max([len(k) for k in order] + [20]) + 2
    head = "".join("%13s" % c[0] for c in cols)
    print("%-*s%s" % (width, "acquisitions", head))
    for k in order:
        cells = []
        for _, _, locks, div in cols:
            n = locks.get(k, (0, 0, 0, 0))[0]
            cells.append("%13s" % ("%.2f" % (n / div) if div > 0 else "-"))
        print("%-*s%s" % (width, k, "".join(cells)))
    print("%-*s%s" % (width, "wait share of the vCPUs' time", head))
    for k in order:
        cells = []
        for _, total, locks, _ in cols:
            c = locks.get(k, (0, 0, 0, 0))
            cells.append("%13s" % ("%.2f%%" % share(total, c, vcpus)
                                   if total > 0 else "-"))
        print("%-*s%s" % (width, k, "".join(cells)))


if __name__ == "__main__":
    main(sys.argv[1:])
