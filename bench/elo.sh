#!/usr/bin/env bash
# The strength levels against Stockfish 15.1's UCI_Elo (README, "Strength levels against
# Stockfish"): magus at an Elo number (or a skill level) plays Stockfish limited to an Elo
# number, chess at 10 s + 0.1 s, two games at a time.
#
#   bench/elo.sh ELO [GAMES] [SEED]              magus UCI_Elo=ELO against Stockfish at ELO
#   LEVEL=8 bench/elo.sh ELO [GAMES] [SEED]      magus at Skill Level 8 instead
#
# Needs /usr/games/stockfish (Debian's stockfish, 15.1). Writes elo-ELO.pgn here.
set -euo pipefail
ELO=${1:?give the Elo number}
GAMES=${2:-100}
SEED=${3:-2712}
STOCKFISH=${STOCKFISH:-/usr/games/stockfish}
cd "$(dirname "$0")/.."
cargo build --release --quiet
if [ -n "${LEVEL:-}" ]; then
    MAGUS="name=magus-level$LEVEL,option.Skill Level=$LEVEL"
else
    MAGUS="name=magus$ELO,option.UCI_LimitStrength=true,option.UCI_Elo=$ELO"
fi
target/release/magus match --variant chess \
    --engine "$MAGUS,option.Threads=1,option.Hash=64" \
    --engine "name=sf$ELO,cmd=$STOCKFISH,option.Threads=1,option.Hash=64,option.UCI_LimitStrength=true,option.UCI_Elo=$ELO" \
    --tc 10+0.1 --games 2 --rounds $((GAMES / 2)) --random-plies 8 --opening-balance 100 \
    --seed "$SEED" --adjudicate-resign 1000,5 --max-plies 400 --concurrency 2 \
    --rating-interval 0 --pgnout "elo-$ELO.pgn"
