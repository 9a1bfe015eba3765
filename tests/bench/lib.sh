# SPDX-License-Identifier: GPL-2.0-only
#
# Shared by the benchmark scripts (sourced from the repository's top).
#
# bench_results NAME: short (1 with BENCH_SHORT=1, make check's quick
# run, else empty), out (build/bench, or build/bench/short for a short
# run, made) and res ($out/NAME.txt, emptied for this run's figures).
bench_results() {
    short=${BENCH_SHORT:-0}
    [ "$short" = 1 ] || short=
    out=build/bench${short:+/short}
    mkdir -p "$out"
    res=$out/$1.txt
    : > "$res"
}
