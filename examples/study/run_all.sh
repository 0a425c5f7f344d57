#!/bin/sh
# Runs every config of the general-tables study (docs/findings.md, section 5), one at a time,
# into OUT/<name>/ (default out/study); made by examples/analysis/general_tables_configs.py.
# Usage: examples/study/run_all.sh [OUT] [NAME-PATTERN]
set -e
out=${1:-out/study}
pattern=${2:-*}
for cfg in examples/study/$pattern.json; do
  name=$(basename "$cfg" .json)
  [ -f "$out/$name/meta.json" ] && continue
  build/skipstone run "$cfg" --out "$out/$name" > /dev/null
  echo "$name done"
done
