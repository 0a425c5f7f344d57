#!/usr/bin/python3
"""Exit-time distribution over noise realisations against the noise amplitude.

Reads a skipstone output folder of roll4:disc-transversal with noisy constraints from a grid
whose axis 0 is noise_sigma and axis 1 is realisation (examples/noisy_disc_transversal.json:
exit_time.npy and exit_side.npy of shape (n_realisation, n_sigma)). For each sigma it gives the
mean, standard deviation and 5/50/95 % quantiles of the exit time over the realisations that
exited, and the fraction that exited back to the entry side (exit_side = +1).

Prints a Markdown table; with --plot FILE writes the quantiles against sigma.
Usage: noisy_exit_spread.py DIR [--plot FILE]      (Debian's /usr/bin/python3)
"""
import argparse
import json

import numpy as np


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--plot", metavar="FILE")
    a = ap.parse_args()
    meta = json.load(open(f"{a.dir}/meta.json"))
    names = [ax["param"] for ax in meta["axes"]]
    if names[:2] != ["noise_sigma", "realisation"]:
        raise SystemExit("expected axes noise_sigma (axis 0) and realisation (axis 1), got %s" % names)
    sigmas = meta["axes"][0]["values"]
    t = np.load(f"{a.dir}/exit_time.npy")
    side = np.load(f"{a.dir}/exit_side.npy")
    print("| sigma | exited | mean exit time | std | 5 % | 50 % | 95 % | same side |")
    print("|---|---|---|---|---|---|---|---|")
    rows = []
    for k, sigma in enumerate(sigmas):
        tk = t[:, k][np.isfinite(t[:, k])]
        q = np.quantile(tk, [0.05, 0.5, 0.95])
        rows.append((sigma, q))
        print("| %.2f | %d | %.4f | %.4f | %.4f | %.4f | %.4f | %.3f |" % (
            sigma, tk.size, tk.mean(), tk.std(), q[0], q[1], q[2], np.mean(side[:, k][np.isfinite(t[:, k])] == 1)))
    if a.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        s = [r[0] for r in rows]
        for i, label in enumerate(["5 %", "50 %", "95 %"]):
            plt.plot(s, [r[1][i] for r in rows], marker="o", label=label)
        plt.xlabel("noise_sigma")
        plt.ylabel("exit time")
        plt.legend()
        plt.savefig(a.plot, dpi=120)


if __name__ == "__main__":
    main()
