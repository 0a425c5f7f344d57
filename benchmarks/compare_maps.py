#!/usr/bin/python3
# Part of the skipstone benchmarks (scripts/gpu_check.sh); details in the docstring below.
"""Compares two `skipstone run` output folders of the same config map by map, e.g. the CUDA
backend's against the CPU backend's: for each observable .npy in both (not the axes), how many
values differ (status and exit_side: any difference, NaN in both counting as equal; real maps:
defined in one run only, or undefined in both but differently (+inf against NaN), and the largest and median |difference| and relative difference |a - b| / (1 + |a|) where both are
defined), and the status counts of both meta.json files. The noise columns of final_state.npy
(noise_n1, noise_n2: the noise process at t_end of a noisy run, named in meta.json
observables.final_state.columns) are compared on their own as well, as the maps
final_state.noise_n1 and final_state.noise_n2, so that the noise state's agreement is not lost
in the largest difference over the whole row.

Usage: compare_maps.py DIR_A DIR_B [--json OUT.json]   (A is the reference)
"""
import argparse
import json
import os
import sys

import numpy as np

EXACT = ("status", "exit_side")  # maps of categories: compared for equality


def compare(name, a, b):
    if a.shape != b.shape:
        return {"shape_a": list(a.shape), "shape_b": list(b.shape), "differs": "shape"}
    if name in EXACT or not np.issubdtype(a.dtype, np.floating):
        same = a == b
        if np.issubdtype(a.dtype, np.floating):
            same |= np.isnan(a) & np.isnan(b)  # masked or undefined in both
        return {"values": int(a.size), "differ": int(a.size - np.count_nonzero(same))}
    fa, fb = np.isfinite(a), np.isfinite(b)
    both = fa & fb
    d = np.abs(a[both] - b[both])
    rel = d / (1.0 + np.abs(a[both]))
    # +inf (e.g. friction_ratio_max where no finite coefficient holds the ball) against NaN or -inf
    undefined_differ = ~fa & ~fb & ~((a == b) | (np.isnan(a) & np.isnan(b)))
    return {"values": int(a.size), "defined_in_both": int(both.sum()),
            "defined_in_one_only": int(np.count_nonzero(fa != fb) + np.count_nonzero(undefined_differ)),
            "abs_diff_max": float(d.max()) if d.size else 0.0,
            "abs_diff_median": float(np.median(d)) if d.size else 0.0,
            "rel_diff_max": float(rel.max()) if rel.size else 0.0}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--json", default="")
    o = ap.parse_args()
    meta = [json.load(open(os.path.join(d, "meta.json"))) for d in (o.a, o.b)]
    out = {"a": o.a, "b": o.b, "backend_a": meta[0].get("backend"), "backend_b": meta[1].get("backend"),
           "status_counts_a": meta[0].get("status_counts"), "status_counts_b": meta[1].get("status_counts"),
           "maps": {}}
    for f in sorted(os.listdir(o.a)):
        name = f[:-4]
        if not f.endswith(".npy") or name.startswith("axis_") or not os.path.exists(os.path.join(o.b, f)):
            continue
        a, b = np.load(os.path.join(o.a, f)), np.load(os.path.join(o.b, f))
        out["maps"][name] = compare(name, a, b)
        if name == "final_state" and a.shape == b.shape:
            columns = meta[0].get("observables", {}).get("final_state", {}).get("columns", [])
            for i, c in enumerate(columns):
                if c.startswith("noise_") and i < a.shape[-1]:
                    out["maps"][f"final_state.{c}"] = compare(c, a[..., i], b[..., i])
    text = json.dumps(out, indent=1)
    print(text)
    if o.json:
        with open(o.json, "w") as fh:
            fh.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
