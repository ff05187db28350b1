#!/usr/bin/env bash
# Does a big Hash cost time? For each size (MB): the time `setoption name Hash` takes to
# answer `readyok` (the table is allocated and committed by every core), the time
# `ucinewgame` takes (it clears the table), and the time of one fixed search (chess, the
# start, depth DEPTH, one thread), each the median of RUNS runs (default 3).
# Usage: bench/hash.sh [DEPTH] [SIZE_MB...]   (default: 13, then 16 1024 16384)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
RUNS=${RUNS:-3}
DEPTH=${1:-13}
shift || true
SIZES=("$@")
[ ${#SIZES[@]} -eq 0 ] && SIZES=(16 1024 16384)
magus=target/release/magus

# Milliseconds from writing COMMAND to reading the line WANT, after SETUP has been answered.
# Prints three numbers: Hash set, ucinewgame, search.
one_run() { # SIZE
    python3 - "$magus" "$1" "$DEPTH" <<'EOF'
import subprocess, sys, time
magus, size, depth = sys.argv[1], sys.argv[2], sys.argv[3]
p = subprocess.Popen([magus, "uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def timed(command, want):
    start = time.perf_counter()
    p.stdin.write(command + "\n"); p.stdin.flush()
    for line in p.stdout:
        if line.startswith(want):
            return (time.perf_counter() - start) * 1000, line
    sys.exit("magus ended before " + want)
timed("uci", "uciok")
hash_ms, _ = timed(f"setoption name Hash value {size}\nisready", "readyok")
clear_ms, _ = timed("ucinewgame\nisready", "readyok")
search_ms, _ = timed(f"position startpos\ngo depth {depth}", "bestmove")
p.stdin.write("quit\n"); p.stdin.flush(); p.wait()
print(f"{hash_ms:.0f} {clear_ms:.0f} {search_ms:.0f}")
EOF
}

printf '%10s %14s %16s %18s\n' "Hash (MB)" "set (ms)" "ucinewgame (ms)" "depth $DEPTH (ms)"
for size in "${SIZES[@]}"; do
    for _ in $(seq "$RUNS"); do one_run "$size"; done | awk -v size="$size" '
        { h[NR] = $1; c[NR] = $2; s[NR] = $3 }
        function median(a, n,   i, j, t) {
            for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
            return a[int((n + 1) / 2)]
        }
        END { printf "%10s %14s %16s %18s\n", size, median(h, NR), median(c, NR), median(s, NR) }'
done
