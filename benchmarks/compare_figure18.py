#!/usr/bin/python3
# Part of the skipstone benchmarks (benchmarks/run_all.sh); details in the docstring below.
"""Figure-18 comparison of skipstone with the SciPy DOP853 baseline (scipy_figure18.py).

Evaluates the SciPy sample points with skipstone (skipstone_figure18_points, one
single-trajectory config per point) at the benchmark tolerances (rtol = atol = 1e-11, as in the
256 x 256 grid of `skipstone bench`) and once more at rtol = atol = 1e-13 (a cross-check of the
reference), then reports
  * exit-side agreement and max/median |exit_time difference| SciPy vs skipstone over the
    points where both exited on the same side;
  * when the SciPy file has reference solutions (--reference K there: DOP853 at rtol 1e-13,
    atol 1e-15), the exit-time error of SciPy and of skipstone against that reference, and
    whether skipstone's accuracy is equal or better;
  * points whose exit times differ by more than 1e-6 (a different exit, not integration error),
    with the crossings of phi = 0 and phi = pi along a tight non-terminal SciPy solution;
  * trajectories/s ratios: skipstone CPU backend on the full grid (from the `skipstone bench` JSON;
    over unmasked points, and over all grid points) / SciPy, and the same sample evaluated one
    trajectory at a time on 1 thread / SciPy (1 thread).

Usage: compare_figure18.py --scipy S.json --bench B.json --binary PATH [--out C.json]
(JSON to --out and a summary on stdout; without --out the JSON goes to stdout.)
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile


def skipstone_points(binary, scipy_path, tol):
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        path = f.name
    try:
        subprocess.run([binary, scipy_path, "--rtol", str(tol), "--atol", str(tol),
                        "--out", path], check=True)
        with open(path) as f:
            return json.load(f)
    finally:
        os.unlink(path)


GROSS = 1e-6  # an exit-time difference above this is not integration error but a different exit


def differences(a_points, b_points, a_key=None, b_key=None):
    """|exit_time| differences over points where both exited on the same side."""
    diffs, worst, side_mismatch, both_exited, gross = [], None, 0, 0, []
    for i, (a, b) in enumerate(zip(a_points, b_points)):
        a = a[a_key] if a_key else a
        b = b[b_key] if b_key else b
        if a["exit_side"] != b["exit_side"]:
            side_mismatch += 1
            continue
        if a["exit_side"] == 0 or a["exit_time"] is None or b["exit_time"] is None:
            continue
        both_exited += 1
        d = abs(a["exit_time"] - b["exit_time"])
        diffs.append(d)
        if d > GROSS:
            gross.append(i)
        if worst is None or d > worst[0]:
            worst = (d, i)
    fine = [d for d in diffs if d <= GROSS]
    out = {"compared": both_exited, "side_mismatches": side_mismatch,
           "max_abs_diff": max(diffs) if diffs else None,
           "median_abs_diff": statistics.median(diffs) if diffs else None,
           "gross_threshold": GROSS, "gross_differences": len(gross), "gross_indices": gross,
           "max_abs_diff_without_gross": max(fine) if fine else None}
    if worst:
        out["worst_point_index"] = worst[1]
    return out


def diagnose(v2, S12, t_skipstone, t_scipy):
    """Crossings of phi = 0 and phi = pi along the (non-terminal) SciPy solution up to the later of
    the two exit times, sampled finely: shows an exit one of the two codes did not see."""
    import math
    import numpy as np
    from scipy.integrate import solve_ivp
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import scipy_figure18 as sf
    t_end = max(t_skipstone or 0.0, t_scipy or 0.0) + 0.5
    v1 = math.sqrt(1.0 - v2 * v2 - S12 * S12)
    sol = solve_ivp(sf.rhs, (0.0, t_end), [v1, v2, S12, 0.0, 0.0], method="DOP853", rtol=1e-12, atol=1e-14,
                    dense_output=True)
    t = np.linspace(1e-9, sol.t[-1], 200001)
    phi = sol.sol(t)[3]
    crossings = []
    for level, name in ((0.0, "phi=0"), (math.pi, "phi=pi")):
        sgn = np.sign(phi - level)
        for k in np.nonzero(sgn[1:] != sgn[:-1])[0]:
            crossings.append((float(t[k]), name, "down" if phi[k + 1] < phi[k] else "up"))
    crossings.sort()
    first = crossings[0] if crossings else None
    out = {"crossings": [{"t": c[0], "level": c[1], "direction": c[2]} for c in crossings[:6]]}
    if first and len(crossings) > 1 and first[1] == "phi=0":
        seg = (t >= first[0]) & (t <= crossings[1][0])
        out["first_excursion"] = {"from": first[0], "to": crossings[1][0],
                                  "min_phi": float(phi[seg].min()) if seg.any() else None}
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scipy", required=True)
    ap.add_argument("--bench", required=True, help="JSON of skipstone bench")
    ap.add_argument("--binary", required=True, help="path of skipstone_figure18_points")
    ap.add_argument("--tol", type=float, default=1e-11, help="skipstone rtol = atol (the benchmark's)")
    ap.add_argument("--out")
    args = ap.parse_args()

    with open(args.scipy) as f:
        sp = json.load(f)
    with open(args.bench) as f:
        tp = json.load(f)
    pts = sp["points"]
    cpp = skipstone_points(args.binary, args.scipy, args.tol)
    cpp_tight = skipstone_points(args.binary, args.scipy, 1e-13)
    for p in cpp["points"] + cpp_tight["points"]:
        if p["status"] != "exited":
            p["exit_time"] = None

    res = {
        "points": len(pts),
        "scipy": {"method": sp["method"], "rtol": sp["rtol"], "atol": sp["atol"]},
        "skipstone": {"rtol": args.tol, "atol": args.tol,
                      "status_counts": {s: sum(p["status"] == s for p in cpp["points"])
                                        for s in sorted({p["status"] for p in cpp["points"]})}},
        "scipy_vs_skipstone": differences(pts, cpp["points"]),
    }
    ref_idx = [i for i, p in enumerate(pts) if "reference" in p]
    if ref_idx:
        ref = [pts[i] for i in ref_idx]
        res["reference"] = {
            "source": "SciPy DOP853", **sp["reference_tolerances"], "points": len(ref_idx),
            "scipy_error": differences([pts[i] for i in ref_idx], ref, b_key="reference"),
            "skipstone_error": differences([cpp["points"][i] for i in ref_idx], ref, b_key="reference"),
            "skipstone_1e-13_vs_reference": differences([cpp_tight["points"][i] for i in ref_idx], ref,
                                                        b_key="reference"),
        }
        se, ce = res["reference"]["scipy_error"], res["reference"]["skipstone_error"]
        res["reference"]["skipstone_equal_or_better"] = (
            se["max_abs_diff"] is not None and ce["max_abs_diff"] is not None and
            ce["side_mismatches"] <= se["side_mismatches"] and ce["max_abs_diff"] <= se["max_abs_diff"])

    gross = res["scipy_vs_skipstone"]["gross_indices"]
    res["gross_points"] = []
    for i in gross[:10]:
        p, c = pts[i], cpp["points"][i]
        res["gross_points"].append({
            "index": i, "v2": p["v2"], "S12": p["S12"], "scipy_exit_time": p["exit_time"],
            "reference_exit_time": p.get("reference", {}).get("exit_time"), "skipstone_exit_time": c["exit_time"],
            "skipstone_1e-13_exit_time": cpp_tight["points"][i]["exit_time"], "exit_side": p["exit_side"],
            "diagnosis": diagnose(p["v2"], p["S12"], c["exit_time"], p["exit_time"])})

    f18 = tp["benchmarks"]["figure18"]["backend"]
    scipy_rate = sp["trajectories_per_second"]
    res["rates"] = {
        "scipy_trajectories_per_second": scipy_rate,
        "skipstone_grid_unmasked_trajectories_per_second": f18["unmasked_points"]["median"],
        "skipstone_grid_all_points_trajectories_per_second": f18["all_points"]["median"],
        "skipstone_threads": f18.get("threads"),
        "ratio_grid_unmasked_over_scipy": f18["unmasked_points"]["median"] / scipy_rate,
        "ratio_grid_all_points_over_scipy": f18["all_points"]["median"] / scipy_rate,
        "skipstone_sample_1_thread_trajectories_per_second": cpp["trajectories_per_second_1_thread"]["median"],
        "ratio_sample_1_thread_over_scipy": cpp["trajectories_per_second_1_thread"]["median"] / scipy_rate,
    }
    text = json.dumps(res, indent=2) + "\n"
    if not args.out:
        sys.stdout.write(text)
        return 0
    with open(args.out, "w") as f:
        f.write(text)
    sv, rt = res["scipy_vs_skipstone"], res["rates"]
    print(f"  SciPy {rt['scipy_trajectories_per_second']:.1f} trajectories/s; skipstone grid (unmasked) / SciPy "
          f"{rt['ratio_grid_unmasked_over_scipy']:.0f}x, all grid points {rt['ratio_grid_all_points_over_scipy']:.0f}x, "
          f"same sample on 1 thread {rt['ratio_sample_1_thread_over_scipy']:.0f}x")
    print(f"  max |exit_time difference| {sv['max_abs_diff']:.2e} over {sv['compared']} points, "
          f"{sv['side_mismatches']} side mismatches, {sv['gross_differences']} differences > {GROSS:g}")
    for g in res["gross_points"]:
        print(f"    v2 {g['v2']:.6f} S12 {g['S12']:.6f}: SciPy {g['scipy_exit_time']:.10g}, reference "
              f"{g['reference_exit_time']}, skipstone {g['skipstone_exit_time']:.10g}; phi crossings "
              + ", ".join(f"{c['level']} {c['direction']} at {c['t']:.4f}" for c in g["diagnosis"]["crossings"]))
    if "reference" in res:
        rf = res["reference"]
        print(f"  error vs reference: SciPy {rf['scipy_error']['max_abs_diff']:.2e}, skipstone "
              f"{rf['skipstone_error']['max_abs_diff']:.2e} (equal or better: {rf['skipstone_equal_or_better']})")
    print(f"  wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
