#!/usr/bin/env bash
# Builds the libFuzzer target for config parsing and validation (tests/fuzz/fuzz_config.cpp,
# clang with ASan and UBSan) and runs it for SECONDS (default 60) on one core, with a seed
# corpus from examples/*.json and the regression inputs in tests/fuzz/regressions/. Prints
# the executions and writes any crashing input to $FUZZ_DIR/crash-*; exit status non-zero on a finding.
#   scripts/fuzz.sh [SECONDS]        (FUZZ_DIR defaults to build-fuzz)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
dir="${FUZZ_DIR:-build-fuzz}"
command -v clang++ >/dev/null || { echo "fuzz.sh: clang++ not found (apt-get install -y clang)" >&2; exit 2; }
cmake -S . -B "$dir" -DSKIPSTONE_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$dir" --target fuzz_config -j 2
mkdir -p "$dir/corpus"
cp examples/*.json tests/fuzz/regressions/* "$dir/corpus/" 2>/dev/null || true
"$dir/tests/fuzz/fuzz_config" "$dir/corpus" -dict=tests/fuzz/config.dict -max_total_time="$seconds" \
  -timeout=5 -rss_limit_mb=2048 -max_len=4096 -artifact_prefix="$dir/" -print_final_stats=1
