#!/usr/bin/env bash
# The GPU check of skipstone, one script for a CUDA machine: builds with the CUDA backend
# ($SKIPSTONE_BUILD_DIR, default build-cuda), runs the CUDA tests (ctest -R Cuda), prints the
# kernels' register use and spills (cuobjdump) with the register-limited occupancy, and Nsight
# Compute's achieved occupancy when ncu is present, runs `skipstone bench --backend cuda`,
# `skipstone bench --scaling --backend cuda` (up to 1e8 trajectories) and the CPU bench, and
# writes $OUT_DIR (default $BUILD/gpu-check) with the JSON and gpu_results.md for
# benchmarks/RESULTS.md. --cpu-only: the same without CUDA (build with SKIPSTONE_CUDA=OFF, CPU
# bench only), e.g. to check the script on a machine without a GPU. GPU_CHECK_QUICK=1 runs
# every bench with --quick (a smoke test of the script, not figures).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=cuda
if [ "${1:-}" = "--cpu-only" ]; then mode=cpu; elif [ -n "${1:-}" ]; then
  echo "gpu_check: unknown argument $1 (allowed: --cpu-only)" >&2; exit 2; fi
build="${SKIPSTONE_BUILD_DIR:-build-cuda}"
out="${OUT_DIR:-$build/gpu-check}"
quick=(); [ "${GPU_CHECK_QUICK:-0}" = 1 ] && quick=(--quick)
jobs="$(nproc)"

if [ "$mode" = cuda ]; then
  if [ -z "${CUDACXX:-}" ] && ! command -v nvcc >/dev/null 2>&1; then
    if [ -x /usr/local/cuda/bin/nvcc ]; then export CUDACXX=/usr/local/cuda/bin/nvcc PATH="/usr/local/cuda/bin:$PATH"
    else echo "gpu_check: no nvcc (CUDA toolkit) found; use --cpu-only on a machine without CUDA" >&2; exit 1; fi
  fi
  cuda_flag=ON
else
  cuda_flag=OFF
fi
mkdir -p "$out"
echo "== build ($build, SKIPSTONE_CUDA=$cuda_flag, -j$jobs)"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DSKIPSTONE_CUDA="$cuda_flag" >"$out/configure.log"
cmake --build "$build" -j "$jobs" >"$out/build.log" || { tail -40 "$out/build.log"; exit 1; }
bin="$build/skipstone"

if [ "$mode" = cuda ]; then
  echo "== CUDA tests (ctest -R Cuda)"
  ctest --test-dir "$build" -R Cuda --output-on-failure 2>&1 | tee "$out/ctest_cuda.txt"

  echo "== register use and occupancy"
  lib="$build/libskipstone_kernels_cuda.a"
  if command -v cuobjdump >/dev/null 2>&1; then
    cuobjdump --dump-resource-usage "$lib" >"$out/resource_usage.txt" 2>&1 || true
    # REG:n per kernel; the register-limited occupancy on sm_90 (65536 registers and 64 warps
    # per SM, registers allocated per warp in units of 256), block size not taken into account.
    awk '/Function/ {f=$2} /REG:/ { for (i = 1; i <= NF; i++) if ($i ~ /^REG:/) { r = substr($i, 5);
           w = int(65536 / (int((r * 32 + 255) / 256) * 256)); if (w > 64) w = 64;
           printf "%s: %d registers/thread, register-limited occupancy %d of 64 warps (%.0f%%)\n", f, r, w, 100 * w / 64 } }' \
      "$out/resource_usage.txt" | tee "$out/occupancy.txt"
    grep -E "STACK|LOCAL" "$out/resource_usage.txt" | head -20 || true
  else
    echo "cuobjdump not found: register use not recorded" | tee "$out/occupancy.txt"
  fi
  if command -v ncu >/dev/null 2>&1; then
    ncu --launch-count 4 --metrics launch__registers_per_thread,launch__block_size,sm__warps_active.avg.pct_of_peak_sustained_active,launch__occupancy_limit_registers \
      "$bin" bench --backend cuda --quick --reps 1 >"$out/ncu.txt" 2>&1 || echo "ncu failed (see $out/ncu.txt)"
    grep -E "registers_per_thread|block_size|warps_active|occupancy_limit" "$out/ncu.txt" | tee -a "$out/occupancy.txt" || true
  fi

  echo "== skipstone bench --backend cuda --precision float (double, and float where a kernel exists)"
  "$bin" bench --backend cuda --precision float "${quick[@]}" --json "$out/bench_cuda.json" | tee "$out/bench_cuda.txt"
  echo "== skipstone bench --scaling --backend cuda"
  "$bin" bench --scaling --backend cuda "${quick[@]}" --json "$out/scaling_cuda.json" | tee "$out/scaling_cuda.txt"
fi

echo "== skipstone bench --backend cpu"
"$bin" bench --backend cpu "${quick[@]}" --json "$out/bench_cpu.json" | tee "$out/bench_cpu.txt"

commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(git status --porcelain 2>/dev/null)" ]; then commit="$commit (working tree with uncommitted changes)"; fi
/usr/bin/python3 benchmarks/write_gpu_results.py --dir "$out" --commit "$commit" --out "$out/gpu_results.md"
echo "wrote $out/gpu_results.md"
