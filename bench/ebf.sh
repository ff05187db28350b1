#!/usr/bin/env bash
# Effective branching factor from depth 8 on: (nodes to depth D / nodes to depth 8)^(1/(D-8)),
# for the start positions of chess and magi. `bench/ebf.sh [DEPTH]` (default 14).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
DEPTH=${1:-14}
for variant in chess magi; do
    target/release/magus analyze --variant "$variant" --depth "$DEPTH" --hash 64 |
        awk -v v="$variant" -v D="$DEPTH" '/^depth/ {split($2, d, "/"); for (i = 1; i <= NF; i++) if ($i == "nodes") n[d[1] + 0] = $(i + 1)}
            END { printf "%-6s nodes(8) %d nodes(%d) %d EBF %.2f\n", v, n[8], D, n[D], (n[D] / n[8]) ^ (1 / (D - 8)) }'
done
