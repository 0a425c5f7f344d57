#!/usr/bin/python3
# Part of the skipstone benchmarks (benchmarks/run_all.sh); details in the docstring below.
"""SciPy baseline for the Figure-18 benchmark: the roll4:disc transversal system (Proposition 12,
kappa = -1/R, R = r = 1, eta = 0.5) integrated by solve_ivp(method="DOP853", rtol=1e-10,
atol=1e-12, dense_output=True) with terminal events, on a fixed-seed sample of initial
conditions uniform in the unit disc of (v2, S12) (speed 1, v1 = sqrt(1 - v2^2 - S12^2)).

  y = (v1, v2, S12, phi, s_arc)
  f_c = kappa cos(phi)/(1 - r kappa sin phi),  f_s = kappa sin(phi)/(1 - r kappa sin phi)
  v1' = -f_c v2^2 - eta f_s v2 S12,  v2' = f_c v1 v2 - (eta/r) v1 S12,
  S12' = eta (f_s + 1/r) v1 v2,      phi' = v1/r,  s' = v2/(1 - r kappa sin phi)
  events: phi = 0 while decreasing (exit_side +1, back to the entry side) and phi = pi while
  increasing (exit_side -1, the opposite side), both terminal; t_max = 200 (exit_side 0).

The timed run gives trajectories/s. With --reference K the first K points are integrated once
more (untimed) at rtol=1e-13, atol=1e-15: an independent reference for the accuracy comparison
in compare_figure18.py.

Usage: /usr/bin/python3 benchmarks/scipy_figure18.py [OUT.json] [--n 200] [--seed 18] [--reference K]
Writes JSON to OUT.json, or to stdout without it.
"""
import argparse
import json
import math
import platform
import sys
import time

import numpy as np
import scipy
from scipy.integrate import solve_ivp

R, r, ETA = 1.0, 1.0, 0.5
KAPPA = -1.0 / R
T_MAX = 200.0


def rhs(_t, y):
    v1, v2, S, phi, _s = y
    sp, cp = math.sin(phi), math.cos(phi)
    w = 1.0 / (1.0 - r * KAPPA * sp)
    fc = KAPPA * cp * w
    fs = KAPPA * sp * w
    return [-fc * v2 * v2 - ETA * fs * v2 * S,
            fc * v1 * v2 - (ETA / r) * v1 * S,
            ETA * (fs + 1.0 / r) * v1 * v2,
            v1 / r,
            v2 * w]


def back_to_entry(_t, y):
    return y[3]


back_to_entry.terminal = True
back_to_entry.direction = -1


def over_to_opposite(_t, y):
    return y[3] - math.pi


over_to_opposite.terminal = True
over_to_opposite.direction = 1


def integrate(v2, S12, rtol, atol):
    v1 = math.sqrt(1.0 - v2 * v2 - S12 * S12)
    sol = solve_ivp(rhs, (0.0, T_MAX), [v1, v2, S12, 0.0, 0.0], method="DOP853", rtol=rtol, atol=atol,
                    dense_output=True, events=(back_to_entry, over_to_opposite))
    if sol.status == -1:
        return {"exit_time": None, "exit_side": 0, "status": "integrator_failure", "nfev": int(sol.nfev)}
    if len(sol.t_events[0]):
        te, side = float(sol.t_events[0][0]), 1
    elif len(sol.t_events[1]):
        te, side = float(sol.t_events[1][0]), -1
    else:
        te, side = None, 0
    e = sol.y[0, -1] ** 2 + sol.y[1, -1] ** 2 + sol.y[2, -1] ** 2
    return {"exit_time": te, "exit_side": side, "status": "exited" if side else "finished",
            "nfev": int(sol.nfev), "energy_error": abs(e - 1.0)}


def sample(n, seed):
    rng = np.random.default_rng(seed)
    rad = np.sqrt(rng.uniform(0.0, 1.0, n)) * 0.999  # strictly inside the unit disc (v1 > 0)
    ang = rng.uniform(0.0, 2.0 * math.pi, n)
    return [(float(a * math.cos(b)), float(a * math.sin(b))) for a, b in zip(rad, ang)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", nargs="?", help="output JSON file (default: stdout)")
    ap.add_argument("--n", type=int, default=200, help="sample points")
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--rtol", type=float, default=1e-10)
    ap.add_argument("--atol", type=float, default=1e-12)
    ap.add_argument("--reference", type=int, default=0, metavar="K",
                    help="also integrate the first K points at rtol=1e-13, atol=1e-15 (untimed)")
    args = ap.parse_args()

    pts = sample(args.n, args.seed)
    integrate(0.1, 0.1, args.rtol, args.atol)  # warm-up (imports, first-call overheads)
    results = []
    t0 = time.perf_counter()
    for v2, S12 in pts:
        results.append(integrate(v2, S12, args.rtol, args.atol))
    wall = time.perf_counter() - t0

    points = []
    for (v2, S12), res in zip(pts, results):
        points.append({"v2": v2, "S12": S12, **res})
    ref_tol = {"rtol": 1e-13, "atol": 1e-15}
    for p in points[:args.reference]:
        ref = integrate(p["v2"], p["S12"], ref_tol["rtol"], ref_tol["atol"])
        p["reference"] = {"exit_time": ref["exit_time"], "exit_side": ref["exit_side"], "status": ref["status"]}

    out = {
        "benchmark": "scipy_figure18",
        "method": "DOP853", "rtol": args.rtol, "atol": args.atol, "dense_output": True,
        "t_max": T_MAX, "R": R, "r": r, "eta": ETA, "seed": args.seed,
        "n_points": len(points),
        "wall_seconds": wall,
        "trajectories_per_second": len(points) / wall,
        "threads": 1,
        "reference_tolerances": ref_tol if args.reference else None,
        "reference_points": min(args.reference, len(points)),
        "scipy": scipy.__version__, "numpy": np.__version__, "python": platform.python_version(),
        "points": points,
    }
    text = json.dumps(out, indent=1) + "\n"
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
        print(f"scipy_figure18: {len(points)} points in {wall:.2f} s -> {len(points) / wall:.1f} trajectories/s; "
              f"wrote {args.out}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
