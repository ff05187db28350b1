#!/usr/bin/env bash
# Search speed and the bench signature: `magus bench DEPTH THREADS [--variant VARIANT]`, RUNS
# times (default 5), median nodes/second. Usage: bench/search.sh [DEPTH] [THREADS] [VARIANT]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
RUNS=${RUNS:-5}
DEPTH=${1:-9}
THREADS=${2:-1}
ONLY=()
[ -n "${3:-}" ] && ONLY=(--variant "$3")
for _ in $(seq "$RUNS"); do
    target/release/magus bench "$DEPTH" "$THREADS" "${ONLY[@]}" 2>/dev/null | awk -F': ' '/Nodes searched/ {n=$2} /Nodes\/second/ {print $2, n}'
done | sort -n | awk '{a[NR]=$1; n[NR]=$2} END {m=int((NR+1)/2); print "median nodes/second:", a[m], " nodes:", n[m]}'
