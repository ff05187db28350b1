#!/usr/bin/env bash
# Lazy SMP: time to reach the bench depth with 1 and with 2 threads, per bench position.
# Prints each position's speedup and the median. `bench/smp.sh [DEPTH]` (default 11).
# A position solved in under 20 ms with one thread is too short to time and is left out.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
DEPTH=${1:-11}
times() { target/release/magus bench "$DEPTH" "$1" 2>&1 >/dev/null | awk '/^Position/ {print $(NF-1)}'; }
# One after the other: run side by side, the two would share the cores being measured.
ONE=$(times 1)
TWO=$(times 2)
paste <(echo "$ONE") <(echo "$TWO") | awk '
    $1 < 20 { printf "position %2d: %6d ms, too short to time\n", NR, $1 > "/dev/stderr"; next }
    { s = ($2 > 0) ? $1 / $2 : 0; printf "position %2d: %6d ms -> %6d ms, x%.2f\n", NR, $1, $2, s > "/dev/stderr"; print s }' |
    sort -n | awk '{v[NR] = $1} END {m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "median speedup x%.2f over %d positions\n", m, NR}'
