#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# gen-symbols.sh NM-OUTPUT: turn `nm -n` output of the first link into the
# assembly table arch/x86/symbols.c searches (text symbols only, sorted).
set -eu
awk '
BEGIN { n = 0 }
$2 ~ /^[tTwW]$/ && $3 !~ /^\./ && $3 !~ /^__(text|rodata|data|bss|image)_/ {
    addr[n] = $1; name[n] = $3; n++
}
END {
    print "\t.section .rodata.symbols, \"a\", @progbits"
    print "\t.balign 8"
    print "\t.globl symbols_nr, symbols_addr, symbols_name_off, symbols_names"
    print "symbols_nr:\n\t.quad " n
    print "symbols_addr:"
    for ( i = 0; i < n; i++ ) print "\t.quad 0x" addr[i]
    print "symbols_name_off:"
    off = 0
    for ( i = 0; i < n; i++ ) { print "\t.long " off; off += length(name[i]) + 1 }
    print "symbols_names:"
    for ( i = 0; i < n; i++ ) print "\t.asciz \"" name[i] "\""
}' "$1"
