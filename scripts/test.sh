#!/usr/bin/env bash
# The test command of the README: installs dependencies, builds from scratch if needed and
# runs every test through CTest, the Python module's included (tests/python). CUDA tests skip
# cleanly where no GPU is present.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --python
build="${SKIPSTONE_BUILD_DIR:-build}"
ctest --test-dir "$build" --output-on-failure -j "$(nproc)" --timeout 900
