#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The shim's performance counters ('p' output saved by io.sh's
perfc_save) per unit of work: one column per part, each counter divided
by that part's divisor (its device requests, or MiB moved).  Hypercalls,
exceptions and the command arrays are broken out by name; rows that are
zero everywhere are left out.

usage: perfc-table.py COLUMN=FILE:DIVISOR...
"""
import re
import sys

ARRAY_NAMES = {
    "hypercalls": ("/usr/include/xen/xen.h", r"__HYPERVISOR_(\w+)"),
    "event_channel_op by command": ("/usr/include/xen/event_channel.h",
                                    r"EVTCHNOP_(\w+)"),
    "sched_op by command": ("/usr/include/xen/sched.h", r"SCHEDOP_(\w+)"),
    "grant_table_op by command": ("/usr/include/xen/grant_table.h",
                                  r"GNTTABOP_(\w+)"),
}
EXCEPTIONS = ["DE", "DB", "NMI", "BP", "OF", "BR", "UD", "NM", "DF", "09",
              "TS", "NP", "SS", "GP", "PF", "15", "MF", "AC", "MC", "XM",
              "VE", "CP"]


def names_of(header, prefix):
    out = {}
    try:
        text = open(header).read()
    except OSError:
        return out
    for m in re.finditer(r"#define\s+" + prefix + r"\s+(\d+)\b", text):
        out.setdefault(int(m.group(2)), m.group(1))
    return out


def exception_name(idx):
    return "#" + (EXCEPTIONS[idx] if idx < len(EXCEPTIONS) else str(idx))


def entry_name(idx):
    """shim/perfc.h's entry kinds: hypercalls, exceptions, the rest."""
    if idx < 64:
        return names_of(*ARRAY_NAMES["hypercalls"]).get(idx, str(idx))
    if idx < 96:
        return exception_name(idx - 64)
    return {96: "interrupt", 97: "guest system call"}.get(idx, "other")


def element_name(array, idx):
    if array == "exceptions":
        return exception_name(idx)
    if array == "TSC ticks in the shim by entry":
        return entry_name(idx)
    if array in ARRAY_NAMES:
        return names_of(*ARRAY_NAMES[array]).get(idx, str(idx))
    return str(idx)


def parse(path):
    """{row name: count}, arrays as 'array: element'."""
    rows, array = {}, None
    for line in open(path, errors="replace"):
        m = re.match(r"(.*?)\s+TOTAL\[\s*(\d+)\]", line)
        if m:
            array = m.group(1).strip()
            rows[array] = int(m.group(2))
            continue
        m = re.match(r"\s+ARR(\d+)\[\s*(\d+)\]", line)
        if m and array:
            rows["  " + array + ": " + element_name(array, int(m.group(1)))] = \
                int(m.group(2))
    return rows


def main(args):
    cols = []
    for a in args:
        name, rest = a.split("=", 1)
        path, div = rest.rsplit(":", 1)
        try:
            rows = parse(path)
        except OSError:
            rows = {}
        cols.append((name, rows, float(div) if div not in ("", "-") else 0))
    order = []
    for _, rows, _ in cols:
        for k in rows:
            if k not in order:
                order.append(k)
    print("%-52s" % "counter" + "".join("%11s" % c[0] for c in cols))
    for k in order:
        vals = [rows.get(k, 0) for _, rows, _ in cols]
        if not any(vals):
            continue
        cells = []
        for (_, rows, div), v in zip(cols, vals):
            cells.append("%11s" % ("%.2f" % (v / div) if div > 0 else "-"))
        print("%-52s" % k[:52] + "".join(cells))


if __name__ == "__main__":
    main(sys.argv[1:])
