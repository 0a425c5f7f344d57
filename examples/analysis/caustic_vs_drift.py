#!/usr/bin/python3
"""How well does the collapse of the two caustics (caustic_gap ~ 0) predict bounded height?

Reads a skipstone output folder holding caustic_gap.npy, z_drift.npy and status.npy (e.g. from
examples/cylinder_rolling_impact.json) and prints, by bins of caustic_gap, the number of
trajectories and the fraction whose |z_drift| is below a threshold, plus the rank correlation
of caustic_gap with |z_drift|. Usage: caustic_vs_drift.py DIR [drift_threshold]
"""
import json
import sys

import numpy as np


def main():
    out = sys.argv[1]
    thr = float(sys.argv[2]) if len(sys.argv) > 2 else 0.01
    gap = np.load(f"{out}/caustic_gap.npy").ravel()
    drift = np.abs(np.load(f"{out}/z_drift.npy").ravel())
    ok = np.isfinite(gap) & np.isfinite(drift)
    gap, drift = gap[ok], drift[ok]
    edges = np.quantile(gap, np.linspace(0.0, 1.0, 11))
    rows = []
    for lo, hi in zip(edges[:-1], edges[1:]):
        sel = (gap >= lo) & (gap <= hi)
        rows.append({"gap_from": float(lo), "gap_to": float(hi), "n": int(sel.sum()),
                     "bounded_fraction": float(np.mean(drift[sel] < thr)),
                     "median_abs_drift": float(np.median(drift[sel]))})
    rank = lambda a: np.argsort(np.argsort(a))
    rho = float(np.corrcoef(rank(gap), rank(drift))[0, 1])
    print(json.dumps({"trajectories": int(ok.sum()), "drift_threshold": thr,
                      "spearman_gap_vs_abs_drift": rho, "bins": rows}, indent=2))


if __name__ == "__main__":
    main()
