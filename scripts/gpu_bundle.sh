#!/usr/bin/env bash
# Builds, on a machine without a GPU, what `scripts/gpu_check.sh --bundle DIR` runs on a GPU
# machine that can neither install packages nor afford the build: the lent H200 reaches no
# package registry (no Eigen, nlohmann-json, GoogleTest or libpng there), and its minutes are
# better spent measuring than compiling. The bundle (default gpu-bundle/, ignored by git) holds
# skipstone and test_backends built with the CUDA backend (sm_90 code), portable CPU
# code (-march=x86-64-v3 instead of -march=native: the GPU machine's CPU is another one), the C++
# library linked in, without MPI, stripped; lib/ with the shared libraries they need beyond the
# C library (libgomp, libpng, zlib; run with LD_LIBRARY_PATH=DIR/lib, as gpu_check.sh does); and
# BUILD_INFO (commit, compilers, flags, the newest glibc symbol version each file needs).
# Pass it to the device run with `carry`. Each program holds all the kernels' device code, sm_90
# code only (no PTX: the lent machines are Hopper GPUs, and with PTX each program grew past what
# one device call carries beside the working tree), so the two programs do not travel together:
# carry bin/test_backends (with lib/ and BUILD_INFO) in one call and bin/skipstone (with lib/
# and BUILD_INFO) in the next, and pick gpu_check.sh's steps with GPU_CHECK_STEPS.
set -euo pipefail
cd "$(dirname "$0")/.."
bundle="${1:-gpu-bundle}"
build="${SKIPSTONE_BUNDLE_BUILD_DIR:-build-gpu-bundle}"
portable_flags="-march=x86-64-v3"
# The C++ library linked in: Debian 12's libstdc++ needs glibc 2.36, which an Ubuntu 22.04 image
# (glibc 2.35) lacks; the programs themselves need glibc 2.34.
static_runtime="-static-libstdc++"

SKIPSTONE_BUILD_DIR="$build" \
SKIPSTONE_CMAKE_ARGS="-DSKIPSTONE_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90-real -DSKIPSTONE_MPI=OFF -DSKIPSTONE_PYTHON=OFF -DSKIPSTONE_NATIVE=OFF -DSKIPSTONE_BENCHMARKS=OFF -DCMAKE_CXX_FLAGS=$portable_flags -DCMAKE_EXE_LINKER_FLAGS=$static_runtime" \
  scripts/setup.sh --target skipstone test_backends

rm -rf "$bundle"
mkdir -p "$bundle/bin" "$bundle/lib"
for exe in "$build/skipstone" "$build/tests/test_backends"; do
  strip -o "$bundle/bin/$(basename "$exe")" "$exe"
done
# Every shared library the two programs load except those of the C library and compiler runtime
# (libc, libm, the loader, libpthread, libdl, librt, libgcc_s), which every Linux has: a copy of
# Debian's would ask for Debian's glibc version.
for exe in "$bundle"/bin/*; do
  ldd "$exe" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }'
done | sort -u | while read -r lib; do
  case "$(basename "$lib")" in
    libc.so.*|libm.so.*|ld-linux*|libpthread.so.*|libdl.so.*|librt.so.*|libgcc_s.so.*) ;;
    *) cp -L "$lib" "$bundle/lib/" ;;
  esac
done

commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(git status --porcelain 2>/dev/null)" ]; then commit="$commit (working tree with uncommitted changes)"; fi
nvcc_bin="$(grep -E '^CMAKE_CUDA_COMPILER:' "$build/CMakeCache.txt" | cut -d= -f2)"
{
  echo "commit: $commit"
  echo "built: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -m), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
  echo "c++: $(c++ --version | head -1)"
  echo "nvcc: $("$nvcc_bin" --version | tail -2 | head -1)"
  grep -o "CUDA backend ON, architectures .*" "$build.configure.log" | sed 's/^CUDA backend ON, architectures/cuda architectures:/'
  echo "cpu flags: $portable_flags (SKIPSTONE_NATIVE=OFF); MPI off"
  echo "libraries: $(ls "$bundle/lib" | tr '\n' ' ')"
  for f in "$bundle"/bin/* "$bundle"/lib/*; do
    echo "needs $(objdump -T "$f" | grep -o 'GLIBC_[0-9.]*' | sort -V -u | tail -1): $(basename "$f")"
  done
} >"$bundle/BUILD_INFO"
cat "$bundle/BUILD_INFO"
echo "gpu_bundle: wrote $bundle ($(du -sh "$bundle" | cut -f1))"
