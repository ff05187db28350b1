#!/usr/bin/env bash
# Mutation testing of one layer (docs/mutants.md): cargo-mutants breaks the layer's code one
# change at a time and runs the tests that guard that layer; a mutant no test notices
# "survives". The run's results go to mutants-LAYER/ (mutants.out/outcomes.json, caught.txt,
# missed.txt, timeout.txt, unviable.txt).
#
#   bench/mutants.sh rules|eval|search [more cargo-mutants options, e.g. --shard 1/4 or --iterate]
#
# For eval and search it runs twice: a screen by the bench signature alone, then the layer's
# whole test selection on the mutants the screen missed. With --iterate both passes skip
# the mutants earlier runs caught: an interrupted run goes on, a run after new tests
# retries only what was missed.
#
# Needs cargo-mutants (`cargo install cargo-mutants`). Uses both cores for an hour or more.
set -euo pipefail
LAYER=${1:?give the layer: rules, eval or search}
shift
cd "$(dirname "$0")/.."
case "$LAYER" in
    # The rules are guarded by the perft counts, the variants' own rule tests, the reference
    # move generators of random_play, and FEN and notation round trips.
    rules) TESTS=(--lib --test=perft_suite --test=chess_rules --test=magi_rules --test=deathmatch
                  --test=magician_chess --test=royal_magician --test=random_play --test=fen
                  --test=notation) ;;
    # The evaluation: its own tests, the search's pinned bench signature (every term moves the
    # tree), the tuner's trace of the evaluation, the learned evaluation and the endgame.
    eval) TESTS=(--lib --test=eval --test=search --test=tune --test=nnue --test=horizon) ;;
    # The search: its own tests (the signature, mates, draws, limits, threads, what each
    # selective part keeps, the horizon) and the protocol transcripts that drive the engine
    # facade.
    search) TESTS=(--lib --test=search --test=search_behaviour --test=horizon --test=nnue
                   --test=uci_transcript --test=xboard_transcript) ;;
    *) echo "unknown layer '$LAYER': give rules, eval or search" >&2; exit 2 ;;
esac
# As cargo arguments, not test arguments, so that each mutant also builds only these binaries.
CARGO_ARGS=()
for t in "${TESTS[@]}"; do CARGO_ARGS+=("--cargo-arg=$t"); done
RUN=(cargo mutants --file "src/$LAYER/**" --output "mutants-$LAYER" --jobs 2)
if [[ $LAYER == rules ]]; then
    "${RUN[@]}" "${CARGO_ARGS[@]}" "$@"
    exit
fi
# The screen: almost every change to the evaluation or the search moves the tree, which the
# pinned bench signature notices in under a second, with one test binary to link. Only the
# mutants it misses go on to the whole selection (`--iterate` skips the caught ones). With
# --iterate the screen too skips what earlier runs caught, so an interrupted run resumes.
# The signature takes under a second, so a mutant that makes it run 30 s has hung it.
"${RUN[@]}" --cargo-arg=--test=search --timeout 30 "$@" -- the_bench_signature_is_pinned || true
OTHERS=()
for a in "$@"; do [[ $a == --iterate ]] || OTHERS+=("$a"); done
"${RUN[@]}" --iterate "${CARGO_ARGS[@]}" "${OTHERS[@]}"
