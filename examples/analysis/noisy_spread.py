#!/usr/bin/python3
"""Distribution of an observable over noise realisations against the noise amplitude.

Reads a skipstone output folder of a run with noisy constraints on a grid whose axis 0 is
noise_sigma and axis 1 is realisation (examples/noisy_disc_transversal.json: exit_time;
examples/noisy_disc_caustics.json: caustic_gap, z_drift, bounded), arrays of shape
(n_realisation, n_sigma). For each sigma it gives the count of finite values, their mean,
standard deviation and 5/50/95 % quantiles, and the mean of `bounded` or of exit_side == +1
(the friendly roll) where the run has it.

Prints a Markdown table; with --plot FILE writes the quantiles against sigma.
Usage: noisy_spread.py DIR [--observable NAME] [--plot FILE]      (Debian's /usr/bin/python3)
"""
import argparse
import json
import os

import numpy as np


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--observable", default="exit_time")
    ap.add_argument("--plot", metavar="FILE")
    a = ap.parse_args()
    meta = json.load(open(f"{a.dir}/meta.json"))
    names = [ax["param"] for ax in meta["axes"]]
    if names[:2] != ["noise_sigma", "realisation"]:
        raise SystemExit("expected axes noise_sigma (axis 0) and realisation (axis 1), got %s" % names)
    sigmas = meta["axes"][0]["values"]
    x = np.load(f"{a.dir}/{a.observable}.npy")
    extra, extra_name = None, ""
    if os.path.exists(f"{a.dir}/bounded.npy"):
        extra, extra_name = np.load(f"{a.dir}/bounded.npy") == 1, "bounded"
    elif os.path.exists(f"{a.dir}/exit_side.npy"):
        extra, extra_name = np.load(f"{a.dir}/exit_side.npy") == 1, "same side"
    print("| sigma | n | mean %s | std | 5 %% | 50 %% | 95 %% | %s |" % (a.observable, extra_name))
    print("|---|---|---|---|---|---|---|---|")
    rows = []
    for k, sigma in enumerate(sigmas):
        xk = x[:, k][np.isfinite(x[:, k])]
        q = np.quantile(xk, [0.05, 0.5, 0.95]) if xk.size else [np.nan] * 3
        rows.append((sigma, q))
        frac = "%.3f" % np.mean(extra[:, k]) if extra is not None else ""
        print("| %.3g | %d | %.5g | %.3g | %.5g | %.5g | %.5g | %s |" % (
            sigma, xk.size, xk.mean() if xk.size else np.nan, xk.std() if xk.size else np.nan, q[0], q[1], q[2], frac))
    if a.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        s = [r[0] for r in rows]
        for i, label in enumerate(["5 %", "50 %", "95 %"]):
            plt.plot(s, [r[1][i] for r in rows], marker="o", label=label)
        plt.xlabel("noise_sigma")
        plt.ylabel(a.observable)
        plt.legend()
        plt.savefig(a.plot, dpi=120)


if __name__ == "__main__":
    main()
