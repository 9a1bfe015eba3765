#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The house's rules (docs/architecture.md, "Source layout"), checked on
# the sources' #include lines, one "PASS: layout: <rule>" or
# "FAIL: layout: <rule>: <file:line>..." line a rule:
#
#   - shim/ and backends/ see pv/ through pv/pv.h only;
#   - arch/x86/ and drivers/ include nothing of pv/ or backends/, and
#     drivers/ nothing of Xen's interface either;
#   - pv/ includes nothing of backends/;
#   - CPU definitions (EFLAGS, CR, DR and MSR bits and numbers) are
#     arch/x86/'s: no other folder defines its own (MSR_XEN_*, Xen's own
#     MSRs, are the PV ABI's), and no other folder runs an instruction
#     through inline asm of its own but for three that are no CPU
#     accessor: pv/mm/ro-page-fault.c's cmp_flags() (the flags an
#     emulated CMPXCHG leaves, worked out by the CPU), and the assembler
#     directives of pv/compat/layout-gen.c (data for the build) and
#     pv/emul/emul-inv-op.c (the #UD emulator's byte pattern);
#   - every line of the shim's sources (arch/, pv/, shim/, backends/,
#     drivers/, boot/) fits in 80 columns (STYLE.md's Xen style).
#
# And one rule of the test scripts: a job started in the background with
# its output in a log ("... >\"$log\" 2>&1 &") has that log emptied
# first (": >\"$log\"" in the eight lines before), since the job empties
# it only once it runs and the script's waits would read the last run's.
set -u
cd "$(dirname "$0")/.."

rule() {        # name, offending lines (file:line:text, one a line)
    if [ -z "$2" ]; then
        echo "PASS: layout: $1"
    else
        echo "FAIL: layout: $1:"
        echo "$2" | sed 's/^/    /'
    fi
}

src() {         # folders...: their C and assembly sources and headers
    local d
    for d in "$@"; do
        [ -d "$d" ] || continue
        find "$d" -name '*.[chS]' -print
    done | sort
}

incl() {        # ERE of included paths, folders...
    local re=$1
    shift
    src "$@" | xargs -r grep -nE "^#[[:space:]]*include[[:space:]]+[<\"]($re)" \
        /dev/null
}

rule "shim/ and backends/ include pv/pv.h alone of pv/" \
    "$(incl 'pv/' shim backends | grep -v '"pv/pv\.h"')"
rule "arch/x86/ includes nothing of pv/, backends/ or drivers/" \
    "$(incl 'pv/|backends/|drivers/' arch)"
rule "drivers/ includes nothing of pv/, backends/ or Xen's interface" \
    "$(incl 'pv/|backends/|xen/' drivers)"
rule "pv/ includes nothing of backends/" \
    "$(incl 'backends/' pv)"
rule "CPU definitions (X86_EFLAGS_, X86_CR, X86_DR, MSR_) only in arch/x86/" \
    "$(src pv shim backends drivers boot | xargs -r grep -nE \
        '^#[[:space:]]*define[[:space:]]+(X86_(EFLAGS|CR[0-9]|DR[0-9])_|MSR_)' \
        /dev/null | grep -v 'define[[:space:]]*MSR_XEN_')"
rule "inline asm only in arch/x86/" \
    "$(src pv shim backends drivers | grep -v '^shim/lib/' |
        grep -vxE 'pv/mm/ro-page-fault.c|pv/compat/layout-gen.c|pv/emul/emul-inv-op.c' |
        xargs -r grep -nE '(^|[^_[:alnum:]])(asm|__asm__)[[:space:]]*(volatile|__volatile__)?[[:space:]]*\(' \
        /dev/null)"
rule "the shim's sources within 80 columns" \
    "$(src arch pv shim backends drivers boot | LC_ALL=C xargs -r awk \
        'length($0) > 80 { print FILENAME ":" FNR ": " length($0) " columns" }')"
rule "test scripts empty a background job's log before starting it" \
    "$(find tests tools ci -name '*.sh' -print | sort | xargs -r awk '
        FNR == 1 { n = 0 }
        {
            if ( match($0, />[[:space:]]*"\$[{]?[[:alnum:]_]+[}]?"[[:space:]]+2>&1[[:space:]]*&[[:space:]]*(#.*)?$/) )
            {
                v = substr($0, RSTART, RLENGTH)
                sub(/^>[[:space:]]*/, "", v)
                sub(/[[:space:]]+2>&1.*$/, "", v)
                ok = 0
                for ( i = 1; i <= 8 && i <= n; i++ )
                    if ( index(last[(n - i) % 8], ": >" v) )
                        ok = 1
                if ( !ok )
                    print FILENAME ":" FNR ":" $0
            }
            last[n % 8] = $0
            n++
        }')"
