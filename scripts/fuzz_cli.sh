#!/usr/bin/env bash
# Fuzz campaign of the whole skipstone command line (tests/cli_fuzz/): commands, options, output
# paths and mutated example configs against build/skipstone, for SECONDS (default 600), after
# the regression corpus. Prints each finding with a reproduction and the executions per second;
# minimised new findings go to $FUZZ_DIR/findings (corpus format), the summary to
# $FUZZ_DIR/report.json. Exit status non-zero on a new finding or a failing corpus entry.
#   scripts/fuzz_cli.sh [SECONDS] [SEED]     (FUZZ_DIR defaults to build-fuzz-cli)
# Set PENDING=1 to also run tests/cli_fuzz/pending/ (expected behaviour not yet implemented).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-600}"
seed="${2:-$(date +%s)}"
dir="${FUZZ_DIR:-build-fuzz-cli}"
binary="${SKIPSTONE:-build/skipstone}"
[ -x "$binary" ] || { echo "fuzz_cli.sh: $binary not found (cmake --build build --target skipstone)" >&2; exit 2; }
mkdir -p "$dir"
corpus=(--corpus tests/cli_fuzz/corpus)
[ "${PENDING:-0}" = 1 ] && corpus+=(--corpus tests/cli_fuzz/pending)
exec /usr/bin/python3 tests/cli_fuzz/cli_fuzz.py --binary "$binary" "${corpus[@]}" --seed "$seed" \
  --seconds "$seconds" --save "$dir/findings" --report "$dir/report.json"
