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
# final states and the noisy roll3:inside-cylinder. Then, on small grids (at most 4096
# trajectories each, short t_max): the impulse ratios of the no-slip models (impulse_ratio_max,
# impulse_ratio_mean: cylinder:disc on the ensemble kernel, the 2D stadium with final_state on
# the collecting one); the contact-force observables (normal_force_min, friction_ratio_max,
# detach_time, slip_time) on roll3:inside-cylinder, roll4:disc, roll3:stadium and roll4:planes;
# roll4:disc-transversal with a rough rim and with slip; roll4:planes with rough edges and with
# slip, roll3:strip with slip; slip on the faces of roll3:stadium and roll4:disc; roll4:stadium's
# rough and slipping edges and faces with final_state; roll3:inside-cylinder with slip. A run
# with final_state on a noisy scan compares the noise columns (noise_n1, noise_n2: the noise
# process at t_end) on their own as well. Noise paths are drawn from (seed, trajectory,
# realisation) on either backend, so noisy runs are compared point by point as the others are;
# FMA contraction on the GPU moves the contact-force extremes (sampled at the integrator's
# steps) and chaotic paths by more than round-off, which the summary lines show: nothing here
# judges a difference; a run that fails or a comparison that cannot be made fails the script.
# One summary line per preset with the wall time of each backend; the folders are removed.
#
#   scripts/gpu_presets_check.sh SKIPSTONE OUT_DIR PYTHON
#
# GPU_PRESETS="NAME ..." runs only the presets named (the first word of their summary lines);
# GPU_PRESETS_BACKEND=cpu runs on the CPU what otherwise runs on CUDA (default cuda), to try the
# commands and comparisons on a machine without a GPU.
set -uo pipefail
bin="$1" out="$2" py="$3"
backend="${GPU_PRESETS_BACKEND:-cuda}"
fail=0
want() { [ -z "${GPU_PRESETS:-}" ] || [[ " $GPU_PRESETS " == *" $1 "* ]]; }
both() {  # both NAME CONFIG [ARGS...]: the run on both backends, compared into OUT_DIR/presets_NAME.json
  local name="$1" cfg="$2" side be t0 ms=()
  shift 2
  want "$name" || return 0
  for side in test cpu; do  # test: the backend checked ($backend); cpu: the reference
    be=cpu; [ "$side" = test ] && be="$backend"
    rm -rf "$out/presets_${name}_$side"
    t0=$(date +%s%N)
    "$bin" run "$cfg" "$@" --backend "$be" --out "$out/presets_${name}_$side" --quiet >/dev/null ||
      { echo "$name: the $be run failed"; fail=1; return; }
    ms+=("$(( ($(date +%s%N) - t0) / 1000000 ))")
  done
  "$py" benchmarks/compare_maps.py "$out/presets_${name}_cpu" "$out/presets_${name}_test" \
    --json "$out/presets_$name.json" >/dev/null || { echo "$name: no comparison"; fail=1; return; }
  "$py" - "$name" "$out/presets_$name.json" "$backend" "${ms[@]}" <<'EOF' || fail=1
import json, sys
name, r, be = sys.argv[1], json.load(open(sys.argv[2])), sys.argv[3].upper()
s_test, s_cpu = (int(x) / 1000 for x in sys.argv[4:6])
parts = []
for m, c in r["maps"].items():
    if "differs" in c:
        parts.append(f"{m} shape {c['shape_a']} vs {c['shape_b']}")
    elif "differ" in c:
        parts.append(f"{m} {c['differ']} of {c['values']} differ")
    else:
        parts.append(f"{m} rel {c['rel_diff_max']:.1e} ({c['defined_in_one_only']} defined in one only)")
print(f"{name} ({be} {s_test:.1f} s, CPU {s_cpu:.1f} s): status counts {be} {r['status_counts_b']}, "
      f"CPU {r['status_counts_a']}; " + "; ".join(parts))
EOF
  rm -rf "$out/presets_${name}_test" "$out/presets_${name}_cpu"
}
both edge_section examples/roll3_ellipse_edge_section.json
both stadium_escape examples/roll4_stadium_escape.json
both noisy_stadium examples/noisy_roll4_stadium.json
both slipping_stadium examples/noisy_roll4_stadium.json --set parameters.noise=1
both noisy_strip examples/noisy_roll3_strip.json
both stadium_coverage examples/stadium_escape.json
both sphere_boundary examples/sphere_boundary_map.json
if want continued_lyapunov; then
  rm -rf out/continue_roll3_a
  "$bin" run examples/continue_roll3_stadium_a.json --backend cpu --out out/continue_roll3_a --quiet >/dev/null ||
    { echo "continue_roll3_stadium_a failed"; fail=1; }
  both continued_lyapunov examples/continue_roll3_stadium_b.json \
    --set 'observables=["status","events","z_final","final_state","lyapunov"]'
fi
# the driven ball with its own inertia and centre of mass, its final states, and a run from them
# on the drive's clock (the driven state rows; a row holds no parameters, so the rows go on under
# the preset's own cm3 and drive rather than their scanned values: a comparison of the backends)
both driven_ball_unbalanced examples/driven_ball_unbalanced_map.json \
  --set 'observables=["status","energy_error","normal_force_min","friction_ratio_max","slip_time","final_state"]'
if want continued_driven_ball; then
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
fi
# the rolling ball round the corners of a pentagon (the passages' junction rule)
both polygon_junctions examples/roll3_polygon.json
# the height over time on a rough rim (the collecting kernel's samples, inside noisy passages too)
both noisy_height_series examples/noisy_height_series.json
# rubber:sphere's final states (its state rows)
both rubber_final_state examples/rubber_sphere_b.json --set 'observables=["status","events","final_state"]'
# the classical ball inside a cylinder on a rough wall (the stochastic run in the ensemble and
# collecting kernels)
both noisy_inside_cylinder examples/noisy_inside_cylinder.json

# --- small grids of paths not yet run on a GPU (each at most 4096 trajectories) ---
# the friction the no-slip impacts need: cylinder:disc under gravity, 64 x 64 to t = 50 (the
# ensemble kernel), and the 2D stadium, 64 x 64 starts of 20 impacts (few: the chaotic billiard
# separates paths that differ in round-off), with final_state so that it runs the collecting kernel
both impulse_ratio_cylinder examples/impulse_ratio_cylinder.json --set 'scan.axes[0].n=64' --set 'scan.axes[1].n=64'
both impulse_ratio_stadium examples/stadium.json --set 'scan.axes[0].n=64' --set 'scan.axes[1].n=64' \
  --set stop.max_events=20 \
  --set 'observables=["status","t_end","energy_error","impulse_ratio_max","impulse_ratio_mean","final_state"]'
# the contact force on the rolling ball: inside a cylinder (the wall pushes: all four defined),
# and on roll4:disc, roll3:stadium and roll4:planes (the edge passages pull: normal_force_min < 0,
# detach_time at the first passage); the extremes are sampled at the integrator's steps, which
# FMA contraction moves (test_backends leaves them out for that reason)
contact='observables=["status","events","z_min","normal_force_min","friction_ratio_max","detach_time","slip_time"]'
both contact_inside_cylinder examples/contact_force_inside_cylinder.json \
  --set 'scan.axes[0].n=64' --set 'scan.axes[1].n=64'
both contact_roll4_disc examples/caustic_drift_roll4.json --set 'scan.axes[0].n=32' --set 'scan.axes[1].n=32' \
  --set stop.t_max=20.0 --set parameters.mu_s=0.3 --set "$contact"
both contact_roll3_stadium examples/roll3_stadium.json --set 'scan.axes[0].n=32' --set 'scan.axes[1].n=32' \
  --set stop.t_max=10.0 --set parameters.mu_s=0.3 --set "$contact"
both contact_planes examples/lyapunov_roll4_planes.json --set 'scan.axes[0].n=32' --set 'scan.axes[1].n=32' \
  --set stop.t_max=100.0 --set parameters.mu_s=0.3 --set "$contact"
# one Figure-18 entry over a rough rim (11 amplitudes x 100 realisations to t = 200) and with
# slip (11 x 50 to t = 50)
both noisy_disc_transversal examples/noisy_disc_transversal.json --set 'scan.axes[1].max=99' --set 'scan.axes[1].n=100'
both slipping_disc_transversal examples/noisy_disc_transversal.json --set parameters.noise=1 \
  --set 'scan.axes[1].max=49' --set 'scan.axes[1].n=50' --set stop.t_max=50.0
# noisy roll4:planes (noisy_roll3_strip.json's plate, wall and noise with a 4D ball: 21 vertical
# velocities x 3 amplitudes x 4 realisations) with rough edges to t = 100 (the ensemble kernel)
# and with slip to t = 50 with final_state (the collecting kernel); roll3:strip with slip likewise
noisy_fs='observables=["status","events","energy_error","z_min","z_max","z_final","bounded","final_state"]'
small_strip=(--set 'scan.axes[1].n=3' --set 'scan.axes[2].max=3' --set 'scan.axes[2].n=4')
planes=(--set system=roll4:planes --set 'scan.axes[0].param=v3'
        --set 'initial={"start": "plate", "x1": 0.4, "z": 0.0, "v1": 1.0, "v2": 0.3, "S12": 0.2, "S13": -0.3, "S23": 0.25}')
both noisy_planes examples/noisy_roll3_strip.json "${planes[@]}" "${small_strip[@]}" --set stop.t_max=100.0 \
  --set 'observables=["status","events","energy_error","z_min","z_max","z_final","bounded"]'
both slipping_planes examples/noisy_roll3_strip.json "${planes[@]}" "${small_strip[@]}" --set parameters.noise=1 \
  --set stop.t_max=50.0 --set "$noisy_fs"
both slipping_strip examples/noisy_roll3_strip.json "${small_strip[@]}" --set parameters.noise=1 \
  --set stop.t_max=50.0 --set "$noisy_fs"
# slip on the faces of a roll3 table (roll3:stadium under in-plane gravity, sigma 0.1: 16 v1 x 8
# realisations to t = 10) and of roll4:disc (noisy_height_series.json with slip: 5 amplitudes x
# 8 realisations to t = 50, the height at 51 times), with final_state
both slipping_roll3_stadium examples/roll3_stadium.json --set parameters.noise=1 --set parameters.noise_sigma=0.1 \
  --set parameters.noise_tau=0.2 --set 'scan.axes[0].n=16' \
  --set 'scan.axes[1]={"param": "realisation", "min": 0, "max": 7, "n": 8}' --set stop.t_max=10.0 \
  --set options.max_steps=1000000 \
  --set 'observables=["status","events","energy_error","z_min","z_max","z_final","final_state"]'
both slipping_disc examples/noisy_height_series.json --set parameters.noise=1 --set 'scan.axes[1].max=7' \
  --set 'scan.axes[1].n=8' --set stop.t_max=50.0 --set outputs.height_series.points=51 \
  --set 'observables=["status","events","energy_error","z_drift","bounded","height_series","final_state"]'
# roll4:stadium's rough edges and its slipping edges and faces with final_state (roughness's n1
# is defined only where a run ends inside an edge passage): 9 v1 x 3 amplitudes x 4
# realisations to t = 50
small_stadium=(--set 'scan.axes[0].n=9' --set 'scan.axes[1].n=3' --set 'scan.axes[2].max=3' --set 'scan.axes[2].n=4'
               --set stop.t_max=50.0
               --set 'observables=["status","events","energy_error","z_min","z_final","exit_time","exit_arc","final_state"]')
both noisy_stadium_final_state examples/noisy_roll4_stadium.json "${small_stadium[@]}"
both slipping_stadium_final_state examples/noisy_roll4_stadium.json --set parameters.noise=1 "${small_stadium[@]}"
# the ball inside a cylinder with a slipping contact: 5 amplitudes x 8 realisations to t = 50,
# the height at 51 times, final_state
both slipping_inside_cylinder examples/noisy_inside_cylinder.json --set parameters.noise=1 \
  --set 'scan.axes[1].max=7' --set 'scan.axes[1].n=8' --set stop.t_max=50.0 --set outputs.height_series.points=51 \
  --set 'observables=["status","events","energy_error","z_min","z_max","z_drift","bounded","height_series","final_state"]'
exit $fail
