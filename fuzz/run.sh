#!/usr/bin/env bash
# Runs fuzz targets one after another, each for SECONDS (default 600), and prints the
# executions libFuzzer counted. Usage: fuzz/run.sh [SECONDS] [TARGET...]
# Logs go to fuzz/logs/TARGET.log; the growing corpus to fuzz/corpus/TARGET (not committed),
# starting from the committed seeds in fuzz/seeds/TARGET; crashes to fuzz/artifacts/TARGET.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fen wire_move san variant_file uci_line xboard_line crowded_search load_heredoc)
# Only the stable toolchain here: RUSTC_BOOTSTRAP lets it take the -Z flags cargo-fuzz passes.
export RUSTC_BOOTSTRAP=1
mkdir -p fuzz/logs
for t in "${targets[@]}"; do
    mkdir -p "fuzz/corpus/$t"
    nice -n 10 cargo fuzz build -O -a "$t"
    status=0
    nice -n 10 cargo fuzz run -O -a "$t" "fuzz/corpus/$t" "fuzz/seeds/$t" -- \
        -max_total_time="$seconds" -timeout=20 -print_final_stats=1 \
        >"fuzz/logs/$t.log" 2>&1 || status=$?
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "fuzz/logs/$t.log" | grep -o '[0-9]*$' || true)
    echo "$t: exit $status, ${runs:-?} executions in ${seconds} s"
done
