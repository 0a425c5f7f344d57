#!/usr/bin/env bash
# The chunk pipeline on a GPU (scripts/gpu_check.sh runs this): a Figure-18 map of 256 x 256
# in chunks of 8192 (8 chunks through both slots and streams of the CUDA engine), compared
# with the CPU map; the same run killed once its first chunk is checkpointed and resumed, which
# must equal the uninterrupted CUDA run byte for byte; a run of one large chunk whose progress
# lines must move inside the chunk (the kernel's count of finished trajectories, passed on while
# the chunk runs); and, with several GPUs, --devices over all of them, which must equal one
# device byte for byte.
#
#   scripts/gpu_pipeline_check.sh SKIPSTONE OUT_DIR PYTHON
set -uo pipefail
bin="$1" out="$2" py="$3"
cfg=examples/figure18.json
grid=(--set 'scan.axes[0].n=256' --set 'scan.axes[1].n=256' --chunk 8192)
fail=0
same() {  # same A B WHAT: every .npy of A equals B's byte for byte
  local f bad=0
  for f in "$1"/*.npy; do cmp -s "$f" "$2/$(basename "$f")" || { echo "$3: $(basename "$f") differs"; bad=1; }; done
  [ $bad = 0 ] && echo "$3: every .npy identical" || fail=1
}
rm -rf "$out"/pipe_*
"$bin" run $cfg "${grid[@]}" --backend cuda --out "$out/pipe_cuda" --quiet || exit 1
"$bin" run $cfg "${grid[@]}" --backend cpu --out "$out/pipe_cpu" --quiet || exit 1
"$py" benchmarks/compare_maps.py "$out/pipe_cpu" "$out/pipe_cuda" --json "$out/pipeline_cuda_vs_cpu.json" || fail=1

# killed once the first chunk is saved (a second run if the first finished too soon), then resumed
"$bin" run $cfg "${grid[@]}" --backend cuda --out "$out/pipe_resumed" --quiet &
pid=$!
for _ in $(seq 1 2000); do
  compgen -G "$out/pipe_resumed/.checkpoint/chunk_*" >/dev/null && break
  kill -0 $pid 2>/dev/null || break
  sleep 0.01
done
kill -9 $pid 2>/dev/null && echo "killed with $(ls -d "$out"/pipe_resumed/.checkpoint/chunk_* 2>/dev/null | wc -l) chunks saved" \
  || echo "the run finished before it could be killed: the resume below starts from a complete run"
wait $pid 2>/dev/null
if [ -d "$out/pipe_resumed/.checkpoint" ]; then
  "$bin" run $cfg "${grid[@]}" --backend cuda --out "$out/pipe_resumed" --resume || fail=1
  same "$out/pipe_cuda" "$out/pipe_resumed" "resumed CUDA run vs uninterrupted"
fi

# one chunk of 2048 x 2048 with a long t_max; off a terminal a progress line comes once a second
"$bin" run $cfg --set 'scan.axes[0].n=2048' --set 'scan.axes[1].n=2048' --set 'stop.t_max=2000' --chunk 4194304 \
  --backend cuda --no-checkpoint --out "$out/pipe_progress" >/dev/null 2>"$out/pipe_progress.err" || fail=1
lines=$(grep -cE '[0-9]+\.[0-9]%' "$out/pipe_progress.err")
inside=$(grep -oE '[0-9]+\.[0-9]%' "$out/pipe_progress.err" | grep -cvE '^(0\.0|100\.0)%$')
if [ "$inside" -gt 0 ]; then
  echo "progress inside one chunk: $inside of $lines progress lines between 0% and 100%"
elif [ "$lines" -lt 3 ]; then
  echo "progress inside one chunk: not seen, the run printed $lines progress lines only (too short a run to tell)"
else
  echo "progress inside one chunk: all $lines progress lines at 0% or 100%: the kernel's count was not passed on"
  fail=1
fi

gpus=$(nvidia-smi -L 2>/dev/null | wc -l)
if [ "$gpus" -gt 1 ]; then
  "$bin" run $cfg "${grid[@]}" --backend cuda --devices "$(seq -s, 0 $((gpus - 1)))" --out "$out/pipe_devices" --quiet || fail=1
  same "$out/pipe_cuda" "$out/pipe_devices" "$gpus devices vs one"
else
  echo "one GPU: --devices over several not checked"
fi
rm -rf "$out"/pipe_*
exit $fail
