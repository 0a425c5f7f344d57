#!/usr/bin/python3
"""Mean and variance of the height over time, over noise realisations.

Reads a skipstone output folder of a rolling run with the observable height_series
(outputs.height_series) on a grid with a `realisation` axis (examples/noisy_height_series.json).
The other axes (e.g. noise_sigma) pick the groups: for each group it gives, at every time of the
series, the number of finite values, their mean and variance over the realisations, and the
exponent a of var(t) ~ t^a fitted over the second half of the times (a = 1: diffusive spreading,
2: ballistic). A trajectory whose status is not ok has a NaN row and is left out of its group's
count, never averaged in.

Prints a Markdown table at a few times per group; with --plot FILE writes mean +- one standard
deviation against time, a curve per group.
Usage: height_over_time.py DIR [--times N] [--plot FILE]      (Debian's /usr/bin/python3)
"""
import argparse
import json
import warnings

import numpy as np


def groups(meta, series):
    """Yield (label, array of shape (realisations, points)) for each point of the other axes."""
    names = [ax["param"] for ax in meta["axes"]]
    if "realisation" not in names:
        raise SystemExit("expected a scan axis 'realisation', got %s" % names)
    # a grid over axes a0, a1, ... has the shape (..., n1, n0): axis j is array dimension -(j + 1)
    ndim = len(names)
    r_dim = ndim - 1 - names.index("realisation")
    x = np.moveaxis(series, r_dim, 0)  # (realisations, other axes in array order..., points)
    others = [names[ndim - 1 - d] for d in range(ndim) if d != r_dim]
    values = [meta["axes"][names.index(n)]["values"] for n in others]
    flat = x.reshape(x.shape[0], -1, x.shape[-1])
    for g in range(flat.shape[1]):
        idx = np.unravel_index(g, x.shape[1:-1]) if others else ()
        label = ", ".join("%s = %.4g" % (n, v[i]) for n, v, i in zip(others, values, idx)) or "all"
        yield label, flat[:, g, :]


def growth_exponent(times, mean, var):
    """The slope of log var against log t over the second half; NaN where the realisations do
    not spread (identical paths at sigma = 0: a variance of round-off)."""
    spread = var > 1e-20 * np.maximum(1.0, mean * mean)
    keep = (times >= times[-1] / 2) & (times > 0) & np.isfinite(var) & spread
    if keep.sum() < 2:
        return np.nan
    return np.polyfit(np.log(times[keep]), np.log(var[keep]), 1)[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--times", type=int, default=5, help="times per group in the table (default 5)")
    ap.add_argument("--plot", metavar="FILE")
    a = ap.parse_args()
    meta = json.load(open(f"{a.dir}/meta.json"))
    if "height_series" not in meta["observables"]:
        raise SystemExit("no height_series in %s: name it in observables, with outputs.height_series" % a.dir)
    times = np.array(meta["observables"]["height_series"]["times"])
    series = np.load(f"{a.dir}/height_series.npy")
    picks = np.linspace(0, len(times) - 1, a.times).round().astype(int)
    print("| group | t | n | mean height | variance |")
    print("|---|---|---|---|---|")
    curves = []
    for label, x in groups(meta, series):
        n = np.isfinite(x).sum(axis=0)
        with warnings.catch_warnings():  # a time no realisation reached: NaN, said by n = 0
            warnings.simplefilter("ignore", RuntimeWarning)
            mean = np.nanmean(x, axis=0)
            var = np.nanvar(x, axis=0, ddof=1)
        for k in picks:
            print("| %s | %.4g | %d | %.5g | %.4g |" % (label, times[k], n[k], mean[k], var[k]))
        print("| %s | growth exponent of the variance (second half) | | | %.3g |" % (label, growth_exponent(times, mean, var)))
        curves.append((label, mean, var))
    if a.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        for label, mean, var in curves:
            line, = plt.plot(times, mean, label=label)
            sd = np.sqrt(var)
            plt.fill_between(times, mean - sd, mean + sd, color=line.get_color(), alpha=0.2)
        plt.xlabel("t")
        plt.ylabel("height (mean +- one standard deviation over realisations)")
        plt.legend(fontsize="small")
        plt.savefig(a.plot, dpi=120)


if __name__ == "__main__":
    main()
