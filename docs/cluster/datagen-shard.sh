#!/bin/sh
# Plays one shard of a `magus datagen` run on a scheduler's array job, as play-shard.sh does
# for a match: every task runs this same script, the scheduler tells it which shard it is, and
# the shards' files together hold the games of one unsharded run with the same settings.
#
#   Slurm:      SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_MIN, SLURM_ARRAY_TASK_COUNT
#   Kubernetes: JOB_COMPLETION_INDEX (from 0) and SHARDS (the Job's completions)
#
# Settings (environment):
#   MAGUS          the magus binary                        (default: magus on the PATH)
#   OUT            the folder shared by all tasks          (default: data)
#   DATAGEN_FLAGS  the run, the same for every shard: variant, --games (of the whole run),
#                  nodes and a fixed --seed
#
# Each shard writes OUT/shard-K.data. A task that was preempted, requeued, or stopped goes on
# where it stopped: datagen continues its file (a line cut short is played again). Give all
# the files to `magus tune`, which reads them as one run.
set -eu

if [ -n "${SLURM_ARRAY_TASK_ID:-}" ]; then
    K=$((SLURM_ARRAY_TASK_ID - ${SLURM_ARRAY_TASK_MIN:-1} + 1))
    N=${SLURM_ARRAY_TASK_COUNT:?SLURM_ARRAY_TASK_COUNT is not set}
elif [ -n "${JOB_COMPLETION_INDEX:-}" ]; then
    K=$((JOB_COMPLETION_INDEX + 1))
    N=${SHARDS:?set SHARDS to the number of completions}
else
    echo "datagen-shard.sh: run me as a Slurm array task or a Kubernetes Indexed Job" >&2
    exit 2
fi

MAGUS=${MAGUS:-magus}
OUT=${OUT:-data}
if [ -z "${DATAGEN_FLAGS:-}" ]; then
    DATAGEN_FLAGS="--variant magi --games 100000 --nodes 5000 --seed 2026"
    DATAGEN_FLAGS="$DATAGEN_FLAGS --threads ${SLURM_CPUS_PER_TASK:-1}"
fi

mkdir -p "$OUT"
# DATAGEN_FLAGS is split at spaces on purpose: it is a list of flags.
# shellcheck disable=SC2086
exec "$MAGUS" datagen $DATAGEN_FLAGS --shard "$K/$N" -o "$OUT/shard-$K.data"
