#!/usr/bin/env bash
# The newer CUDA paths through the CLI on a GPU (scripts/gpu_check.sh runs this): presets run on
# the CUDA and on the CPU backend and compared map by map (benchmarks/compare_maps.py): a section
# crossed only inside the edge passages of roll3:ellipse (the collecting path, its maps counted
# in device memory), escape through a hole in roll4:stadium's edge, rough edges on roll4:stadium
# (the noisy table kernel) and on roll3:strip (its noisy kernel, the strip's wall), a roll3:stadium scan continued from its final states (face and
# edge rows) with the Lyapunov exponent, escape from the specular stadium with the
# observables mean_free_time and coverage (each GPU thread stamping its own cells), the 3D
# boundary map of the sphere, the unbalanced driven ball and a run continued from its final
# states, the junctions of roll3:polygon, the height series on a rough rim, rubber:sphere's
# final states and the noisy roll3:inside-cylinder. One summary line per preset; the folders are
# removed.
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
both slipping_stadium examples/noisy_roll4_stadium.json --set parameters.noise=1
both noisy_strip examples/noisy_roll3_strip.json
both stadium_coverage examples/stadium_escape.json
both sphere_boundary examples/sphere_boundary_map.json
rm -rf out/continue_roll3_a
"$bin" run examples/continue_roll3_stadium_a.json --backend cpu --out out/continue_roll3_a --quiet >/dev/null ||
  { echo "continue_roll3_stadium_a failed"; fail=1; }
both continued_lyapunov examples/continue_roll3_stadium_b.json \
  --set 'observables=["status","events","z_final","final_state","lyapunov"]'
# the driven ball with its own inertia and centre of mass, its final states, and a run from them
# on the drive's clock (the driven state rows; a row holds no parameters, so the rows go on under
# the preset's own cm3 and drive rather than their scanned values: a comparison of the backends)
both driven_ball_unbalanced examples/driven_ball_unbalanced_map.json \
  --set 'observables=["status","energy_error","normal_force_min","friction_ratio_max","slip_time","final_state"]'
rm -rf out/continue_driven_a
"$bin" run examples/driven_ball_unbalanced_map.json --backend cpu --out out/continue_driven_a --quiet \
  --set stop.t_max=10.0 --set 'observables=["status","final_state"]' >/dev/null ||
  { echo "driven_ball_unbalanced first half failed"; fail=1; }
"$py" - <<'EOF' || fail=1
import json
c = json.load(open("examples/driven_ball_unbalanced_map.json"))
del c["scan"]
c["initial"] = {"start": "state_file", "file": "out/continue_driven_a/final_state.npy"}
c["stop"]["t_max"] = 10.0
c["observables"] = ["status", "energy_error", "friction_ratio_max", "final_state"]
json.dump(c, open("out/continue_driven_a/continue.json", "w"))
EOF
both continued_driven_ball out/continue_driven_a/continue.json
rm -rf out/continue_driven_a
# the rolling ball round the corners of a pentagon (the passages' junction rule)
both polygon_junctions examples/roll3_polygon.json
# the height over time on a rough rim (the collecting kernel's samples, inside noisy passages too)
both noisy_height_series examples/noisy_height_series.json
# rubber:sphere's final states (its state rows)
both rubber_final_state examples/rubber_sphere_b.json --set 'observables=["status","events","final_state"]'
# the classical ball inside a cylinder on a rough wall (the stochastic run in the ensemble and
# collecting kernels)
both noisy_inside_cylinder examples/noisy_inside_cylinder.json
exit $fail
