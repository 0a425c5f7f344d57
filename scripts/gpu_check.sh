#!/usr/bin/env bash
# The GPU check of skipstone, one script for a CUDA machine: runs the CUDA tests, a Figure-18
# map through `skipstone run` on the GPU and on the CPU compared map by map, the chunk pipeline
# (scripts/gpu_pipeline_check.sh: several chunks through both streams, a killed and resumed
# run, several devices where there are), presets of the newer paths on both backends compared
# (scripts/gpu_presets_check.sh: rolling tables' edge sections, holes and noisy edges and faces,
# coverage, 3D boundary maps, continued runs, impulse ratios, contact forces, noisy planes,
# strip, transversal disc and inside-cylinder, final_state's noise columns), the kernels' register use and spills (cuobjdump) with the register-limited occupancy, `skipstone bench
# --backend cuda --precision float`, `skipstone bench --scaling --backend cuda` (up to 1e8
# trajectories), the CPU bench of the same machine, and Nsight Compute's achieved occupancy
# where ncu works; writes $OUT_DIR with the JSON and gpu_results.md for benchmarks/RESULTS.md.
#
#   scripts/gpu_check.sh                builds with the CUDA backend first ($SKIPSTONE_BUILD_DIR,
#                                       default build-cuda; needs the Debian packages of setup.sh)
#   scripts/gpu_check.sh --bundle DIR   runs what scripts/gpu_bundle.sh built elsewhere: no build,
#                                       nothing installed (the lent H200 reaches no registry)
#   scripts/gpu_check.sh --cpu-only     the same without CUDA (CPU bench only), to try the script
#                                       on a machine without a GPU; combines with --bundle
#
# GPU_CHECK_QUICK=1 runs every bench with --quick (a smoke test of the script, not figures).
# GPU_CHECK_STEPS="tests registers run bench" runs only the steps named (of tests, registers,
# run, pipeline, presets, bench, scaling, cpubench, ncu; default all), so that a short lease can split the
# check over two calls into one OUT_DIR; GPU_CHECK_REPS=N times every bench N times (default 5).
# Each step has a time limit, so that one that hangs (ncu on some machines) does not take the
# others' time; a failed step is reported and the rest still run.
set -uo pipefail
cd "$(dirname "$0")/.."
mode=cuda bundle=""
while [ $# -gt 0 ]; do
  case "$1" in
    --cpu-only) mode=cpu ;;
    --bundle) bundle="${2:?--bundle needs a folder (made by scripts/gpu_bundle.sh)}"; shift ;;
    *) echo "gpu_check: unknown argument $1 (allowed: --cpu-only, --bundle DIR)" >&2; exit 2 ;;
  esac
  shift
done
quick=(); [ "${GPU_CHECK_QUICK:-0}" = 1 ] && quick=(--quick)
[ -n "${GPU_CHECK_REPS:-}" ] && quick+=(--reps "$GPU_CHECK_REPS")
steps=" ${GPU_CHECK_STEPS:-tests registers run pipeline presets bench scaling cpubench ncu} "
want() { [[ "$steps" == *" $1 "* ]]; }
py=python3  # one with numpy (benchmarks/compare_maps.py): the GPU image's, or Debian's
for c in python3 /usr/bin/python3; do if "$c" -c "import numpy" 2>/dev/null; then py="$c"; break; fi; done
failed=()
step() {  # step NAME SECONDS COMMAND...: runs with a time limit, records a failure
  local name="$1" limit="$2"; shift 2
  echo "== $name"
  timeout "$limit" "$@" || { echo "gpu_check: step '$name' failed or ran past ${limit} s (exit $?)"; failed+=("$name"); }
}

if [ -n "$bundle" ]; then
  [ -x "$bundle/bin/skipstone" ] || { echo "gpu_check: $bundle/bin/skipstone not found (make it with scripts/gpu_bundle.sh)" >&2; exit 1; }
  export LD_LIBRARY_PATH="$(cd "$bundle/lib" && pwd)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  bin="$bundle/bin/skipstone"
  tests="$bundle/bin/test_backends"
  kernels="$bin"
  out="${OUT_DIR:-$bundle/gpu-check}"
  mkdir -p "$out"
  cp "$bundle/BUILD_INFO" "$out/build_info.txt"
  "$bin" --help >/dev/null || { echo "gpu_check: the bundle's skipstone does not run here (ldd:)" >&2; ldd "$bin" >&2; exit 1; }
else
  build="${SKIPSTONE_BUILD_DIR:-build-cuda}"
  out="${OUT_DIR:-$build/gpu-check}"
  mkdir -p "$out"
  cuda_flag=OFF
  if [ "$mode" = cuda ]; then
    if [ -z "${CUDACXX:-}" ] && ! command -v nvcc >/dev/null 2>&1; then
      if [ -x /usr/local/cuda/bin/nvcc ]; then export CUDACXX=/usr/local/cuda/bin/nvcc PATH="/usr/local/cuda/bin:$PATH"
      else echo "gpu_check: no nvcc (CUDA toolkit) found; use --cpu-only on a machine without CUDA" >&2; exit 1; fi
    fi
    cuda_flag=ON
  fi
  echo "== build ($build, SKIPSTONE_CUDA=$cuda_flag, -j$(nproc))"
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DSKIPSTONE_CUDA="$cuda_flag" >"$out/configure.log" || exit 1
  cmake --build "$build" -j "$(nproc)" >"$out/build.log" || { tail -40 "$out/build.log"; exit 1; }
  bin="$build/skipstone"
  tests="$build/tests/test_backends"
  kernels="$build/libskipstone_kernels_cuda.a"
fi

if [ "$mode" = cuda ]; then
  command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv \
    | tee "$out/nvidia_smi.txt"
  # test_backends holds the CUDA tests (CUDA against the CPU backend, several devices) and the
  # CPU backend's own agreement tests, which take seconds
  want tests && step "CUDA tests (test_backends)" 300 bash -o pipefail -c "'$tests' 2>&1 | tee '$out/cuda_tests.txt'"

  if ! want registers; then :
  elif command -v cuobjdump >/dev/null 2>&1; then
    echo "== register use and occupancy"
    cuobjdump --dump-resource-usage "$kernels" >"$out/resource_usage.txt" 2>&1 || true
    # REG:n per kernel; the register-limited occupancy on sm_90 (65536 registers and 64 warps
    # per SM, registers allocated per warp in units of 256), block size not taken into account.
    awk '/Function/ {f=$2} /REG:/ { for (i = 1; i <= NF; i++) if ($i ~ /^REG:/) { r = substr($i, 5);
           w = int(65536 / (int((r * 32 + 255) / 256) * 256)); if (w > 64) w = 64;
           printf "%s: %d registers/thread, register-limited occupancy %d of 64 warps (%.0f%%)\n", f, r, w, 100 * w / 64 } }' \
      "$out/resource_usage.txt" >"$out/occupancy.txt"
    wc -l <"$out/occupancy.txt" | xargs echo "kernels listed:"
  else
    echo "cuobjdump not found: register use not recorded" | tee "$out/occupancy.txt"
  fi

  want run && step "skipstone run, Figure 18 1024 x 1024, CUDA and CPU, compared" 300 bash -o pipefail -c "
    '$bin' run examples/figure18.json --backend cuda --out '$out/run_cuda' --quiet &&
    '$bin' run examples/figure18.json --backend cpu --out '$out/run_cpu' --quiet &&
    '$py' benchmarks/compare_maps.py '$out/run_cpu' '$out/run_cuda' --json '$out/run_cuda_vs_cpu.json'"
  rm -rf "$out/run_cuda" "$out/run_cpu"  # the maps are large; the comparison keeps what matters

  want pipeline && step "chunk pipeline: 8 chunks over two streams, a killed and resumed run, several devices" 300 \
    scripts/gpu_pipeline_check.sh "$bin" "$out" "$py"

  want presets && step "presets on both backends: edge sections, holes, noisy edges and faces, coverage, 3D boundary map, continued runs, impulse ratios, contact forces, noise columns" 300 \
    bash -o pipefail -c "scripts/gpu_presets_check.sh '$bin' '$out' '$py' | tee '$out/presets.txt'"

  want bench && step "skipstone bench --backend cuda --precision float" 420 bash -o pipefail -c \
    "'$bin' bench --backend cuda --precision float ${quick[*]} --json '$out/bench_cuda.json' | tee '$out/bench_cuda.txt'"
  want scaling && step "skipstone bench --scaling --backend cuda" 300 bash -o pipefail -c \
    "'$bin' bench --scaling --backend cuda ${quick[*]} --json '$out/scaling_cuda.json' | tee '$out/scaling_cuda.txt'"
fi

want cpubench && step "skipstone bench --backend cpu" 300 bash -o pipefail -c \
  "'$bin' bench --backend cpu ${quick[*]} --json '$out/bench_cpu.json' | tee '$out/bench_cpu.txt'"

if [ "$mode" = cuda ] && want ncu && command -v ncu >/dev/null 2>&1; then
  step "Nsight Compute occupancy (quick bench)" 180 bash -o pipefail -c \
    "ncu --clock-control none --launch-count 4 --metrics launch__registers_per_thread,launch__block_size,sm__warps_active.avg.pct_of_peak_sustained_active,launch__occupancy_limit_registers \
       '$bin' bench --backend cuda --quick --reps 1 >'$out/ncu.txt' 2>&1"
  grep -E "registers_per_thread|block_size|warps_active|occupancy_limit" "$out/ncu.txt" >>"$out/occupancy.txt" || true
fi

if [ -n "$bundle" ]; then
  commit="$(sed -n 's/^commit: //p' "$bundle/BUILD_INFO") (bundle)"
else
  commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
  if [ -n "$(git status --porcelain 2>/dev/null)" ]; then commit="$commit (working tree with uncommitted changes)"; fi
fi
"$py" benchmarks/write_gpu_results.py --dir "$out" --commit "$commit" --out "$out/gpu_results.md"
echo "wrote $out/gpu_results.md"
if [ ${#failed[@]} -gt 0 ]; then
  echo "gpu_check: failed steps: ${failed[*]}" >&2
  exit 1
fi
