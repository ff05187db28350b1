#!/bin/sh
# Plays one shard of a `magus match` on a scheduler's array job: a Slurm job array or a
# Kubernetes Indexed Job. Every task runs this same script; the scheduler tells it which
# shard it is, and the shards together play every game of the match once.
#
#   Slurm:      SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_MIN, SLURM_ARRAY_TASK_COUNT
#   Kubernetes: JOB_COMPLETION_INDEX (from 0) and SHARDS (the Job's completions)
#
# Settings (environment):
#   MAGUS        the magus binary                         (default: magus on the PATH)
#   OUT          the folder shared by all tasks           (default: results)
#   MATCH_FLAGS  the match, the same for every shard: engines, limit, rounds, openings and a
#                fixed --seed (so that all shards draw the same openings)
#
# Each shard appends its games to OUT/shard-K.pgn and OUT/shard-K.txt as they finish and is
# started with --resume: a task that was preempted, requeued, or stopped by SIGTERM goes on
# where it stopped. Merge the shards with merge-shards.sh.
set -eu

if [ -n "${SLURM_ARRAY_TASK_ID:-}" ]; then
    K=$((SLURM_ARRAY_TASK_ID - ${SLURM_ARRAY_TASK_MIN:-1} + 1))
    N=${SLURM_ARRAY_TASK_COUNT:?SLURM_ARRAY_TASK_COUNT is not set}
elif [ -n "${JOB_COMPLETION_INDEX:-}" ]; then
    K=$((JOB_COMPLETION_INDEX + 1))
    N=${SHARDS:?set SHARDS to the number of completions}
else
    echo "play-shard.sh: run me as a Slurm array task or a Kubernetes Indexed Job" >&2
    exit 2
fi

MAGUS=${MAGUS:-magus}
OUT=${OUT:-results}
if [ -z "${MATCH_FLAGS:-}" ]; then
    CORES=${SLURM_CPUS_PER_TASK:-1}
    MATCH_FLAGS="--variant magi --engine name=dev,cmd=./magus-dev --engine name=base,cmd=./magus-base"
    MATCH_FLAGS="$MATCH_FLAGS --tc 10+0.1 --rounds 2000 --random-plies 8 --opening-balance 150"
    MATCH_FLAGS="$MATCH_FLAGS --seed 2026 --concurrency $CORES"
fi

mkdir -p "$OUT"
# MATCH_FLAGS is split at spaces on purpose: it is a list of flags.
# shellcheck disable=SC2086
exec "$MAGUS" match $MATCH_FLAGS --shard "$K/$N" \
    --pgnout "$OUT/shard-$K.pgn" --results "$OUT/shard-$K.txt" --resume
