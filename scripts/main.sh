#!/usr/bin/env bash
# The main job of the README: installs dependencies, builds, and computes the Figure-18 map
# of the paper (roll4:disc transversal system, r = R, 1024 x 1024 on the unit energy sphere)
# on the CPU, writing NPY maps and PNG pictures to out/figure18/.
set -euo pipefail
cd "$(dirname "$0")/.."
# The CPU run needs no CUDA kernels: on a machine without an NVIDIA GPU they are not compiled
# (nvcc takes minutes); scripts/test.sh still builds and tests them wherever nvcc is present.
if [ -z "${SKIPSTONE_CUDA:-}" ] && ! { [ -e /dev/nvidia0 ] || nvidia-smi -L >/dev/null 2>&1; }; then
  export SKIPSTONE_CUDA=OFF
fi
scripts/setup.sh --target skipstone
build="${SKIPSTONE_BUILD_DIR:-build}"
out="${1:-out/figure18}"
"$build/skipstone" run examples/figure18.json --out "$out" --backend cpu --overwrite  # a rerun replaces the map
echo "pictures: $out/exit_time.png $out/exit_arc.png $out/exit_side.png"
