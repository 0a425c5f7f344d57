#!/usr/bin/env bash
# Runs a skipstone scan as a Slurm job array without MPI: each array task runs one shard
# (`skipstone run --shard I/N`), a dependent job merges them into the outputs of one run.
#
#   examples/slurm_array.sh CONFIG.json OUT_DIR [SHARDS]     # submits both jobs (default 8 shards)
#
# The same by hand:
#   sbatch --array=0-7 --wrap 'skipstone run CONFIG.json --out OUT.shards/$SLURM_ARRAY_TASK_ID --shard $SLURM_ARRAY_TASK_ID/8 --resume --quiet'
#   skipstone merge OUT.shards/* --out OUT
set -euo pipefail
config="${1:?usage: $0 CONFIG.json OUT_DIR [SHARDS]}"
out="${2:?usage: $0 CONFIG.json OUT_DIR [SHARDS]}"
shards="${3:-8}"
skipstone="${SKIPSTONE:-skipstone}"
mkdir -p "$out.shards"

# --resume: a task requeued after a node failure continues from its checkpoint.
array_job=$(sbatch --parsable --job-name=skipstone-shards --array="0-$((shards - 1))" \
  --cpus-per-task="${CPUS_PER_TASK:-8}" --time="${TIME_LIMIT:-04:00:00}" --requeue \
  --output="$out.shards/slurm-%A_%a.log" \
  --wrap "$skipstone run '$config' --out '$out.shards/'\$SLURM_ARRAY_TASK_ID --shard \$SLURM_ARRAY_TASK_ID/$shards --resume --quiet")

dirs=""
for ((i = 0; i < shards; i++)); do dirs+=" '$out.shards/$i'"; done
sbatch --parsable --job-name=skipstone-merge --dependency="afterok:$array_job" \
  --output="$out.shards/slurm-merge-%j.log" --wrap "$skipstone merge$dirs --out '$out'"
echo "submitted array job $array_job ($shards shards); the merged outputs will be in $out/"
