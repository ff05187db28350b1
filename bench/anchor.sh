#!/usr/bin/env bash
# magus against Fairy-Stockfish at node odds (docs/search.md, "Against Fairy-Stockfish at node
# odds"): magus at 30,000 nodes a move, Fairy-Stockfish at 12,000, where magus scores about
# 40 % in chess; near half the points a game says the most, so 400 games (six to ten minutes) measure a
# change against another engine's judgement instead of magus's own. A fixed node count makes
# every move independent of the machine's load.
#
#   FSF=PATH bench/anchor.sh VARIANT [GAMES] [SEED] [MAGUS-OPTIONS]
#
#   FSF=~/fsf bench/anchor.sh chess 400 4206                              as it is
#   FSF=~/fsf bench/anchor.sh chess 400 4206 "option.ProbCut=false"       one part off
#   FSF=~/fsf bench/anchor.sh chess 400 4206 "option.VariantPath=old.toml" other weights
#   FSF=~/fsf-largeboards FSF_OPTIONS="option.VariantPath=magi.ini" bench/anchor.sh magi
#
# FSF is a Fairy-Stockfish binary built from its public source (a `largeboards` build for
# Magi, with FSF_OPTIONS naming its definition of Magi, ../shared/anchors/fairy-stockfish/magi.ini).
# NODES and FSF_NODES change the odds; at the odds above magus scored about 40 % in chess and
# about half the points in Magi (200 games). Two games at a time. Writes
# anchor-VARIANT-SEED.pgn here.
set -euo pipefail
VARIANT=${1:?give the variant}
GAMES=${2:-400}
SEED=${3:-4206}
MAGUS_OPTIONS=${4:-}
FSF=${FSF:?set FSF to a Fairy-Stockfish binary}
NODES=${NODES:-30000}
FSF_NODES=${FSF_NODES:-12000}
HERE=$PWD
cd "$(dirname "$0")/.."
cargo build --release --quiet
target/release/magus match --variant "$VARIANT" \
    --engine "name=magus,option.Hash=64${MAGUS_OPTIONS:+,$MAGUS_OPTIONS}" \
    --engine "name=fairy-stockfish,cmd=$FSF,option.Hash=64,nodes=$FSF_NODES${FSF_OPTIONS:+,$FSF_OPTIONS}" \
    --nodes "$NODES" --games 2 --rounds $((GAMES / 2)) --random-plies 8 --opening-balance 100 \
    --seed "$SEED" --concurrency 2 --void-illegal fairy-stockfish \
    --pgnout "$HERE/anchor-$VARIANT-$SEED.pgn"
