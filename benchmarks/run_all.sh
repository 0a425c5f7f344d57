#!/usr/bin/env bash
# Runs every benchmark and writes benchmarks/RESULTS.md: builds skipstone and
# skipstone_figure18_points (scripts/setup.sh, into build/ or $SKIPSTONE_BUILD_DIR), runs
# `skipstone bench --backend cpu --precision float` and `skipstone bench --scaling --backend cpu` (sizes up to
# $BENCH_SCALING_MAX trajectories, default 1e8), the NumPy disc baseline, the SciPy Figure-18
# baseline and the Figure-18 comparison, then formats the table. Raw JSON goes to
# $BUILD/bench-results/. It also measures strong scaling over MPI ranks (when built with MPI) and
# the peak memory of `skipstone run` at several grid sizes ($BENCH_MEMORY_SIZES, default
# 256,1024,2048,4096; about 3 minutes) and, where nvcc is present, the CUDA kernels' registers,
# stack and spills from ptxas (benchmarks/kernel_resources.py, a few minutes; BENCH_KERNEL_RESOURCES=0
# skips it).
# Before timing it waits up to $BENCH_IDLE_WAIT seconds (default 45, 0: no wait) for the cores
# to be idle (busy < 15% over 2 s), since other jobs on the machine distort the figures.
# The benchmarks themselves take about 4 minutes on 2 idle cores (the scaling run half of it); a build after source changes can take
# several minutes when nvcc is present (the CUDA backend). The benchmarks use only the CPU
# backend, so e.g. SKIPSTONE_BUILD_DIR=build-cpu SKIPSTONE_CMAKE_ARGS=-DSKIPSTONE_CUDA=OFF
# (both passed through to scripts/setup.sh) builds without it.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)

scripts/setup.sh --target skipstone skipstone_figure18_points
build="${SKIPSTONE_BUILD_DIR:-build}"
skipstone="$build/skipstone"
points_bin="$build/benchmarks/skipstone_figure18_points"
raw="$build/bench-results"
mkdir -p "$raw"
py=/usr/bin/python3

# Fraction of CPU time busy over 2 s (from /proc/stat), in percent.
busy_percent() {
  local a b
  read -r -a a < <(grep '^cpu ' /proc/stat)
  sleep 2
  read -r -a b < <(grep '^cpu ' /proc/stat)
  local total=0 idle i
  for i in 1 2 3 4 5 6 7 8; do total=$(( total + b[i] - a[i] )); done
  idle=$(( b[4] - a[4] + b[5] - a[5] ))
  echo $(( total > 0 ? 100 * (total - idle) / total : 0 ))
}
wait_max="${BENCH_IDLE_WAIT:-45}"
waited=0
busy=$(busy_percent)
while [ "$busy" -ge 15 ] && [ "$waited" -lt "$wait_max" ]; do
  echo "run_all: cores ${busy}% busy with other jobs; waiting ($waited s of $wait_max)"
  sleep 3
  waited=$(( waited + 5 ))
  busy=$(busy_percent)
done
quiet="cores ${busy}% busy just before timing (waited ${waited} s of at most ${wait_max})"
load=$(cut -d' ' -f1-3 /proc/loadavg)
echo "run_all: $quiet"

echo "== skipstone bench (C++ CPU backend)"
"$skipstone" bench --backend cpu --precision float --json "$raw/bench.json" | tee "$raw/bench.txt"

echo "== skipstone bench --scaling"
"$skipstone" bench --scaling --backend cpu --max-trajectories "${BENCH_SCALING_MAX:-1e8}" --reps 3 \
  --json "$raw/scaling.json" | tee "$raw/scaling.txt"

echo "== NumPy disc baseline"
"$py" benchmarks/numpy_disc.py >"$raw/numpy_disc.json"

echo "== SciPy DOP853 Figure-18 baseline"
"$py" benchmarks/scipy_figure18.py "$raw/scipy_figure18.json" --n 200 --reference 200

echo "== Figure-18 comparison"
"$py" benchmarks/compare_figure18.py --scipy "$raw/scipy_figure18.json" --bench "$raw/bench.json" \
  --binary "$points_bin" --out "$raw/compare_figure18.json"

mpi_args=()
if command -v mpirun >/dev/null 2>&1 && ldd "$skipstone" | grep -q libmpi; then
  echo "== MPI strong scaling (1 and 2 ranks, 1 thread each)"
  "$py" benchmarks/mpi_scaling.py --binary "$skipstone" >"$raw/mpi_scaling.json"
  mpi_args=(--mpi "$raw/mpi_scaling.json")
fi

echo "== peak memory against scan size (Figure 18, ${BENCH_MEMORY_SIZES:-256,1024,2048,4096} pixels a side)"
"$py" benchmarks/peak_memory.py --binary "$skipstone" --sizes "${BENCH_MEMORY_SIZES:-256,1024,2048,4096}" >"$raw/peak_memory.json"

kernel_args=()
nvcc_bin="$(command -v nvcc || true)"; [ -z "$nvcc_bin" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc_bin=/usr/local/cuda/bin/nvcc
if [ -n "$nvcc_bin" ] && [ "${BENCH_KERNEL_RESOURCES:-1}" != 0 ]; then
  echo "== CUDA kernel registers and stack (ptxas -v; a few minutes, no GPU needed)"
  "$py" benchmarks/kernel_resources.py --nvcc "$nvcc_bin" >"$raw/kernel_resources.json"
  kernel_args=(--kernels "$raw/kernel_resources.json")
fi

commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(git status --porcelain 2>/dev/null)" ]; then commit="$commit (working tree with uncommitted changes)"; fi
"$py" benchmarks/write_results.py --bench "$raw/bench.json" --scaling "$raw/scaling.json" --numpy "$raw/numpy_disc.json" \
  --scipy "$raw/scipy_figure18.json" --compare "$raw/compare_figure18.json" --commit "$commit" \
  --load "$load" --quiet "$quiet" --raw "$raw" --run-seconds "$(( $(date +%s) - start ))" --memory "$raw/peak_memory.json" "${mpi_args[@]}" "${kernel_args[@]}" --out benchmarks/RESULTS.md
echo "wrote benchmarks/RESULTS.md ($(( $(date +%s) - start )) s)"
