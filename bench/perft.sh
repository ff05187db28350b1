#!/usr/bin/env bash
# Move-generator speed: perft from the start positions, one thread, bulk counting at the
# leaves. Prints the median wall time of RUNS runs (default 5) for each case.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
RUNS=${RUNS:-5}
bin=target/release/magus
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
run() {
    local label=$1; shift
    local times=()
    for _ in $(seq "$RUNS"); do
        local start end
        start=$(date +%s%N)
        nodes=$("$bin" perft "$@" | tail -1)
        end=$(date +%s%N)
        times+=($(( (end - start) / 1000000 )))
    done
    printf '%-44s %-28s median %6s ms\n' "$label" "$nodes" "$(printf '%s\n' "${times[@]}" | median)"
}
run "chess perft 6" --variant chess --depth 6
run "chess perft 5" --variant chess --depth 5
run "magi perft 5" --variant magi --depth 5
run "deathmatch perft 5" --variant deathmatch --depth 5
