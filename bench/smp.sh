#!/usr/bin/env bash
# Lazy SMP: time to reach the bench depth with 1 and with 2 threads, per bench position.
# Prints each position's speedup and the median. `bench/smp.sh [DEPTH]` (default 11).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
DEPTH=${1:-11}
times() { target/release/magus bench "$DEPTH" "$1" 2>&1 >/dev/null | awk '/^Position/ {print $(NF-1)}'; }
paste <(times 1) <(times 2) | awk '
    { s = ($2 > 0) ? $1 / $2 : 0; printf "position %2d: %6d ms -> %6d ms, x%.2f\n", NR, $1, $2, s > "/dev/stderr"; print s }' |
    sort -n | awk '{v[NR] = $1} END {m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "median speedup x%.2f\n", m}'
