#!/usr/bin/env bash
# Two threads: time to reach the bench depth with 1 and with 2 threads, per bench position.
# `RUNS=7 bench/smp.sh [DEPTH]` (default depth 11, 7 runs). Two threads search differently
# from run to run, so each position's speedup is the median over the runs; the figure is the
# median over the positions. A position solved in under 20 ms with one thread is too short
# to time and is left out.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
DEPTH=${1:-11}
RUNS=${RUNS:-7}
times() { target/release/magus bench "$DEPTH" "$1" 2>&1 >/dev/null | awk '/^Position/ {print $(NF-1)}'; }
for run in $(seq "$RUNS"); do
    # One after the other: run side by side, the two would share the cores being measured.
    ONE=$(times 1)
    TWO=$(times 2)
    paste <(echo "$ONE") <(echo "$TWO") | awk -v run="$run" '$1 >= 20 && $2 > 0 {printf "%d %d %d %d\n", NR, run, $1, $2}'
done | sort -k1,1n -k2,2n | awk -v runs="$RUNS" '
    function median(a, n,    i, j, t) {
        for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
        return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    function flush() {
        if (n == 0) return
        m = median(s, n); printf "position %2d: x%.2f (median of %d runs; one thread %d ms)\n", pos, m, n, one > "/dev/stderr"
        all[++k] = m; n = 0
    }
    $1 != pos { flush(); pos = $1 }
    { s[++n] = $3 / $4; one = $3 }
    END { flush(); printf "median speedup x%.2f over %d positions, %d runs\n", median(all, k), k, runs }'
