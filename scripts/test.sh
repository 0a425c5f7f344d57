#!/usr/bin/env bash
# The test command of the README: installs dependencies, builds from scratch if needed and
# runs every test through CTest, the Python module's included (tests/python). CUDA tests skip
# cleanly where no GPU is present.
set -euo pipefail
cd "$(dirname "$0")/.."
# Without a GPU the tests cannot run the CUDA kernels, so they are compiled to PTX only: the
# compile check of every kernel without the machine-code assembler (most of nvcc's time) and
# with the device optimiser at its fastest-compile level (CMakeLists.txt). With
# a GPU (or SKIPSTONE_CUDA_PTX_ONLY=OFF) they get sm_90 machine code as in any build.
if [ -z "${SKIPSTONE_CUDA_PTX_ONLY:-}" ]; then
  SKIPSTONE_CUDA_PTX_ONLY=ON
  if [ -e /dev/nvidia0 ] || nvidia-smi -L >/dev/null 2>&1; then SKIPSTONE_CUDA_PTX_ONLY=OFF; fi
fi
export SKIPSTONE_CMAKE_ARGS="${SKIPSTONE_CMAKE_ARGS:-} -DSKIPSTONE_CUDA_PTX_ONLY=$SKIPSTONE_CUDA_PTX_ONLY"
scripts/setup.sh --python
build="${SKIPSTONE_BUILD_DIR:-build}"
ctest --test-dir "$build" --output-on-failure -j "$(nproc)" --timeout 900
