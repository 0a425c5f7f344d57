#!/usr/bin/env bash
# Installs what skipstone needs (Debian packages, only those missing) and builds it in
# build/ (or $SKIPSTONE_BUILD_DIR). Called by scripts/main.sh and scripts/test.sh. With
# --python first (test.sh), also the Python module and its tests' packages, and the module is
# required (SKIPSTONE_PYTHON=ON); otherwise it is built where they happen to be installed.
set -euo pipefail
cd "$(dirname "$0")/.."

python=AUTO
if [ "${1:-}" = "--python" ]; then python=ON; shift; fi
packages=(cmake make g++ libeigen3-dev nlohmann-json3-dev libgtest-dev libgmock-dev libbenchmark-dev libpng-dev
          zlib1g-dev python3-numpy python3-scipy python3-matplotlib libopenmpi-dev openmpi-bin)
if [ "$python" = ON ]; then packages+=(python3-dev pybind11-dev python3-pytest); fi
# Without the CUDA toolkit the CPU backend still builds against Debian's Thrust.
if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then packages+=(libthrust-dev); fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# nvcc is often not on PATH; CMake finds it through CUDACXX.
if [ -z "${CUDACXX:-}" ] && ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
  export CUDACXX=/usr/local/cuda/bin/nvcc
fi
build="${SKIPSTONE_BUILD_DIR:-build}"
# SKIPSTONE_CUDA (AUTO, ON, OFF; default AUTO: built wherever nvcc is found) is passed on every
# call, so that a build folder configured by main.sh without CUDA gets it back from test.sh;
# likewise machine code for the kernels, which test.sh turns off where no GPU can run them.
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DSKIPSTONE_CUDA="${SKIPSTONE_CUDA:-AUTO}" -DSKIPSTONE_CUDA_PTX_ONLY=OFF -DSKIPSTONE_PYTHON="$python" ${SKIPSTONE_CMAKE_ARGS:-} >"$build.configure.log" 2>&1 || {
  cat "$build.configure.log" >&2; exit 1; }
grep -E "skipstone:" "$build.configure.log" >&2 || true
cmake --build "$build" -j "$(nproc)" "$@"
