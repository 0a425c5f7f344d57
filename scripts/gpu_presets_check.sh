#!/usr/bin/env bash
# The newer CUDA paths through the CLI on a GPU (scripts/gpu_check.sh runs this): presets run on
# the CUDA and on the CPU backend and compared map by map (benchmarks/compare_maps.py): a section
# crossed only inside the edge passages of roll3:ellipse (the collecting path, its maps counted
# in device memory), escape through a hole in roll4:stadium's edge, rough edges on roll4:stadium
# (the noisy table kernel), a roll3:stadium scan continued from its final states (face and
# edge rows) with the Lyapunov exponent, and escape from the specular stadium with the
# observables mean_free_time and coverage (each GPU thread stamping its own cells). One summary line per preset; the folders are removed.
#
#   scripts/gpu_presets_check.sh SKIPSTONE OUT_DIR PYTHON
set -uo pipefail
bin="$1" out="$2" py="$3"
fail=0
both() {  # both NAME CONFIG [ARGS...]: the run on both backends, compared into OUT_DIR/presets_NAME.json
  local name="$1" cfg="$2" be
  shift 2
  for be in cuda cpu; do
    rm -rf "$out/presets_${name}_$be"
    "$bin" run "$cfg" "$@" --backend "$be" --out "$out/presets_${name}_$be" --quiet >/dev/null ||
      { echo "$name: the $be run failed"; fail=1; return; }
  done
  "$py" benchmarks/compare_maps.py "$out/presets_${name}_cpu" "$out/presets_${name}_cuda" \
    --json "$out/presets_$name.json" >/dev/null || { echo "$name: no comparison"; fail=1; return; }
  "$py" - "$name" "$out/presets_$name.json" <<'EOF' || fail=1
import json, sys
name, r = sys.argv[1], json.load(open(sys.argv[2]))
parts = []
for m, c in r["maps"].items():
    if "differs" in c:
        parts.append(f"{m} shape {c['shape_a']} vs {c['shape_b']}")
    elif "differ" in c:
        parts.append(f"{m} {c['differ']} of {c['values']} differ")
    else:
        parts.append(f"{m} rel {c['rel_diff_max']:.1e} ({c['defined_in_one_only']} defined in one only)")
print(f"{name}: status counts CUDA {r['status_counts_b']}, CPU {r['status_counts_a']}; " + "; ".join(parts))
EOF
  rm -rf "$out/presets_${name}_cuda" "$out/presets_${name}_cpu"
}
both edge_section examples/roll3_ellipse_edge_section.json
both stadium_escape examples/roll4_stadium_escape.json
both noisy_stadium examples/noisy_roll4_stadium.json
both stadium_coverage examples/stadium_escape.json
both sphere_boundary examples/sphere_boundary_map.json
rm -rf out/continue_roll3_a
"$bin" run examples/continue_roll3_stadium_a.json --backend cpu --out out/continue_roll3_a --quiet >/dev/null ||
  { echo "continue_roll3_stadium_a failed"; fail=1; }
both continued_lyapunov examples/continue_roll3_stadium_b.json \
  --set 'observables=["status","events","z_final","final_state","lyapunov"]'
rm -rf out/continue_roll3_a
exit $fail
