#!/usr/bin/python3
# Part of the skipstone benchmarks (benchmarks/run_all.sh); details in the docstring below.
"""NumPy baseline for the no-slip disc benchmark (compared with the disc of `skipstone bench`).

The same map as the C++ kernel on the unit disc, vectorised over N trajectories (state arrays),
looping over impacts: chord time t = -2 x.u/|u|^2, move, inward normal nu = -x/|x|,
tau = J nu, (u_hat, u_bar, s) -> (-u_hat, c u_bar + s_b s, s_b u_bar - c s) with
c = (1 - g^2)/(1 + g^2), s_b = 2 g/(1 + g^2). Per impact it also does what the kernel does
per impact: the relative energy defect before the map (max kept, energy_tolerance flag), the
rescale onto the energy sphere after it, the height observables (min/max of y and the
least-squares sums of the z_drift fit) and the chord distance |x_prev x (x - x_prev)|/|x - x_prev|
summed by parity (rho_even, rho_odd). In-place operations on preallocated arrays throughout.

Output: one JSON object on stdout (impacts/s, median and spread over the repetitions), a summary
line on stderr.
Usage: /usr/bin/python3 benchmarks/numpy_disc.py [--n N] [--impacts K] [--reps R] [--seed S]
"""
import argparse
import json
import math
import platform
import sys
import time

import numpy as np

GAMMA = 0.8164965809  # sqrt(2/3), solid ball


def run(n, impacts, seed, gamma=GAMMA, energy_tolerance=1e-9):
    rng = np.random.default_rng(seed)
    angle = rng.uniform(-1.4, 1.4, n)
    s = rng.uniform(-1.0, 1.0, n)
    # boundary start at boundary_s = 0: x = (1, 0), inward normal (-1, 0), tau = J nu = (0, -1)
    x0 = np.ones(n)
    x1 = np.zeros(n)
    u0 = -np.cos(angle)
    u1 = -np.sin(angle)
    c = (1.0 - gamma * gamma) / (1.0 + gamma * gamma)
    sb = 2.0 * gamma / (1.0 + gamma * gamma)

    e2 = u0 * u0 + u1 * u1 + s * s  # 2 E (no gravity: constant)
    inv_e2 = 1.0 / e2
    t = np.zeros(n)
    y0 = x1.copy()
    y_min = x1.copy()
    y_max = x1.copy()
    st = np.zeros(n); sz = np.zeros(n); stt = np.zeros(n); stz = np.zeros(n)
    max_err = np.zeros(n)
    bad = np.zeros(n, dtype=bool)
    rho_sum = [np.zeros(n), np.zeros(n)]
    # scratch
    a = np.empty(n); b = np.empty(n); dt = np.empty(n)
    p0 = np.empty(n); p1 = np.empty(n); d0 = np.empty(n); d1 = np.empty(n)
    n0 = np.empty(n); n1 = np.empty(n); uh = np.empty(n); ub = np.empty(n); tmp = np.empty(n)
    flag = np.empty(n, dtype=bool)

    for k in range(impacts):
        # flight: t = -2 x.u / |u|^2
        np.multiply(u0, u0, out=a); np.multiply(u1, u1, out=b); a += b          # |u|^2
        np.multiply(x0, u0, out=dt); np.multiply(x1, u1, out=b); dt += b        # x.u
        dt /= a; dt *= -2.0
        p0[...] = x0; p1[...] = x1
        np.multiply(dt, u0, out=b); x0 += b
        np.multiply(dt, u1, out=b); x1 += b
        t += dt
        # inward normal and tangent tau = J nu = (-nu1, nu0)
        np.multiply(x0, x0, out=b); np.multiply(x1, x1, out=tmp); b += tmp
        np.sqrt(b, out=b)
        np.divide(x0, b, out=n0); n0 *= -1.0
        np.divide(x1, b, out=n1); n1 *= -1.0
        # energy defect before the map
        np.multiply(s, s, out=b); b += a; b -= e2; np.abs(b, out=b); b *= inv_e2
        np.maximum(max_err, b, out=max_err)
        np.greater(b, energy_tolerance, out=flag); bad |= flag
        # collision map
        np.multiply(u0, n0, out=uh); np.multiply(u1, n1, out=tmp); uh += tmp    # u . nu
        np.multiply(u1, n0, out=ub); np.multiply(u0, n1, out=tmp); ub -= tmp    # u . tau
        np.multiply(ub, c, out=a); np.multiply(s, sb, out=tmp); a += tmp        # new u_bar
        np.multiply(ub, sb, out=b); s *= c; np.subtract(b, s, out=s)            # new s
        # u = -u_hat nu + u_bar' tau, tau = (-n1, n0)
        np.multiply(uh, n0, out=u0); np.multiply(a, n1, out=tmp); u0 += tmp; u0 *= -1.0
        np.multiply(a, n0, out=u1); np.multiply(uh, n1, out=tmp); u1 -= tmp
        # rescale onto the energy sphere
        np.multiply(u0, u0, out=a); np.multiply(u1, u1, out=tmp); a += tmp
        np.multiply(s, s, out=tmp); a += tmp
        a -= e2; a *= inv_e2; a *= -0.5; a += 1.0
        u0 *= a; u1 *= a; s *= a
        # height observables at the event
        np.minimum(y_min, x1, out=y_min); np.maximum(y_max, x1, out=y_max)
        np.subtract(x1, y0, out=b)
        st += t; sz += b
        np.multiply(t, t, out=tmp); stt += tmp
        np.multiply(t, b, out=tmp); stz += tmp
        # chord distance from the centre, summed by parity
        np.subtract(x0, p0, out=d0); np.subtract(x1, p1, out=d1)
        np.multiply(p0, d1, out=a); np.multiply(p1, d0, out=tmp); a -= tmp; np.abs(a, out=a)
        np.multiply(d0, d0, out=b); np.multiply(d1, d1, out=tmp); b += tmp; np.sqrt(b, out=b)
        a /= b
        rho_sum[k & 1] += a

    cnt = float(impacts)
    m = cnt + 1.0  # the start is sampled too, as in the kernel
    st_t = st; sz_t = sz + 0.0  # start sample: t = 0, dz = 0
    z_drift = (m * stz - st_t * sz_t) / (m * stt - st_t * st_t)
    n_even = (impacts + 1) // 2
    n_odd = impacts // 2
    return {
        "impacts": n * impacts,
        "energy_error_max": float(max_err.max()),
        "energy_drift_flags": int(bad.sum()),
        "y_min": float(y_min.min()), "y_max": float(y_max.max()),
        "z_drift_mean": float(np.mean(z_drift)),
        "rho_even_mean": float(np.mean(rho_sum[0] / max(n_even, 1))),
        "rho_odd_mean": float(np.mean(rho_sum[1] / max(n_odd, 1))),
        "t_end_mean": float(np.mean(t)),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=100000, help="trajectories (vectorised)")
    ap.add_argument("--impacts", type=int, default=200, help="impacts per trajectory")
    ap.add_argument("--reps", type=int, default=5, help="timed repetitions after one warm-up")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    run(args.n, max(args.impacts // 10, 2), args.seed)  # warm-up (allocations, caches)
    walls = []
    info = None
    for _ in range(args.reps):
        t0 = time.perf_counter()
        info = run(args.n, args.impacts, args.seed)
        walls.append(time.perf_counter() - t0)
    rates = sorted(info["impacts"] / w for w in walls)
    med = rates[len(rates) // 2] if len(rates) % 2 else 0.5 * (rates[len(rates) // 2 - 1] + rates[len(rates) // 2])
    out = {
        "benchmark": "numpy_disc",
        "n_trajectories": args.n,
        "impacts_per_trajectory": args.impacts,
        "impacts_per_run": info["impacts"],
        "reps": args.reps,
        "warmup_runs": 1,
        "threads": 1,
        "impacts_per_second": {"median": med, "min": rates[0], "max": rates[-1], "unit": "impacts/s",
                               "samples": [info["impacts"] / w for w in walls]},
        "wall_seconds": walls,
        "observables_check": {k: v for k, v in info.items() if k != "impacts"},
        "numpy": np.__version__,
        "python": platform.python_version(),
    }
    if not all(math.isfinite(r) for r in rates):
        print("numpy_disc: non-finite rate", file=sys.stderr)
        return 1
    json.dump(out, sys.stdout, indent=2)
    sys.stdout.write("\n")
    print(f"numpy_disc: median {med:.3e} impacts/s (min {rates[0]:.3e}, max {rates[-1]:.3e}), "
          f"N = {args.n} x {args.impacts} impacts", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
