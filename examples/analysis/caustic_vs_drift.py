#!/usr/bin/python3
"""How well does the collapse of the two caustics (caustic_gap ~ 0) predict bounded height?

Reads a skipstone output folder holding caustic_gap.npy, z_drift.npy and status.npy (and
bounded.npy when the run asked for it; e.g. examples/caustic_drift_cylinder.json,
examples/caustic_drift_roll4.json, examples/cylinder_rolling_impact.json) and prints JSON with

- `bins` (deciles of caustic_gap, as before): count, fraction with |z_drift| < threshold,
  median |z_drift|;
- `log_bins`: the same on declared log-spaced gap bins, plus the fraction with bounded = 1
  (z stayed above z0 - bounded_depth for the whole run) when bounded.npy is there;
- `prediction`: for gap thresholds tau, the classifier "bounded iff caustic_gap < tau" scored
  against bounded (or |z_drift| < threshold without bounded.npy): precision, recall, and the
  bounded fraction below and above tau;
- `split` (with --split PARAM:LO:HI): the prediction table separately for trajectories whose
  scan parameter PARAM lies in [LO, HI] and for the rest;
- Spearman rank correlation of caustic_gap with |z_drift|.

With --plot PREFIX it writes PREFIX_maps.png (z_drift and caustic_gap side by side, two-axis
grids only), PREFIX_hist2d.png (2D histogram of log10 caustic_gap against log10 |z_drift|) and
PREFIX_bounded_by_gap.png (bounded fraction per gap bin, with counts).

Usage: caustic_vs_drift.py DIR [drift_threshold] [--plot PREFIX] [--split PARAM:LO:HI]
       [--title TEXT]
Run with Debian's /usr/bin/python3 (numpy, matplotlib).
"""
import argparse
import json

import numpy as np

from grid_extent import grid_extent

LOG_EDGES = [0.0, 1e-4, 3e-4, 1e-3, 3e-3, 1e-2, 3e-2, 1e-1, 3e-1, np.inf]
TAUS = [1e-3, 3e-3, 1e-2, 3e-2, 1e-1]


def load(out):
    meta = json.load(open(f"{out}/meta.json"))
    gap = np.load(f"{out}/caustic_gap.npy")
    drift = np.load(f"{out}/z_drift.npy")
    status = np.load(f"{out}/status.npy")
    try:
        bounded = np.load(f"{out}/bounded.npy")
    except FileNotFoundError:
        bounded = None
    return meta, gap, drift, status, bounded


def prediction(gap, good):
    rows = []
    for tau in TAUS:
        pred = gap < tau
        tp = int(np.sum(pred & good))
        rows.append({"tau": tau, "n_below": int(pred.sum()), "n_above": int((~pred).sum()),
                     "precision": tp / pred.sum() if pred.any() else None,
                     "recall": tp / good.sum() if good.any() else None,
                     "bounded_fraction_below": float(np.mean(good[pred])) if pred.any() else None,
                     "bounded_fraction_above": float(np.mean(good[~pred])) if (~pred).any() else None})
    return rows


def ridge(axes, gap2, drift2):
    """Per column (axis-0 value): where along axis 1 is |z_drift| smallest, and how far is that
    from the nearest local minimum of caustic_gap along the same column (in grid steps)?"""
    dist, gap_at = [], []
    for j in range(gap2.shape[1]):
        d, g = np.abs(drift2[:, j]), gap2[:, j]
        if not (np.isfinite(d).any() and np.isfinite(g).any()):
            continue
        i = int(np.nanargmin(d))
        gg = np.where(np.isfinite(g), g, np.inf)
        mins = [k for k in range(len(gg)) if gg[k] <= gg[max(k - 1, 0)] and gg[k] <= gg[min(k + 1, len(gg) - 1)]]
        dist.append(min(abs(k - i) for k in mins))
        gap_at.append(float(g[i]))
    dist = np.asarray(dist)
    return {"columns": int(len(dist)), "step_axis1": (axes[1]["max"] - axes[1]["min"]) / (axes[1]["n"] - 1),
            "drift_min_to_nearest_gap_min_steps": {"median": float(np.median(dist)), "p90": float(np.quantile(dist, 0.9)),
                                                   "max": int(dist.max()), "fraction_within_1": float(np.mean(dist <= 1))},
            "gap_at_drift_min": {"median": float(np.median(gap_at)), "max": float(np.max(gap_at))}}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("drift_threshold", nargs="?", type=float, default=0.01)
    ap.add_argument("--plot", metavar="PREFIX")
    ap.add_argument("--split", metavar="PARAM:LO:HI")
    ap.add_argument("--title", default=None)
    a = ap.parse_args()
    thr = a.drift_threshold
    meta, gap2, drift2, status2, bounded2 = load(a.dir)

    gap, drift = gap2.ravel(), np.abs(drift2.ravel())
    ok = np.isfinite(gap) & np.isfinite(drift)
    flat = drift < thr
    have_b = bounded2 is not None
    good_all = (bounded2.ravel() == 1.0) if have_b else flat
    g, d, f, good = gap[ok], drift[ok], flat[ok], good_all[ok]

    edges = np.quantile(g, np.linspace(0.0, 1.0, 11))
    deciles = []
    for lo, hi in zip(edges[:-1], edges[1:]):
        sel = (g >= lo) & (g <= hi)
        deciles.append({"gap_from": float(lo), "gap_to": float(hi), "n": int(sel.sum()),
                        "bounded_fraction": float(np.mean(f[sel])),
                        "median_abs_drift": float(np.median(d[sel]))})
    log_bins = []
    for lo, hi in zip(LOG_EDGES[:-1], LOG_EDGES[1:]):
        sel = (g >= lo) & (g < hi)
        row = {"gap_from": lo, "gap_to": None if np.isinf(hi) else hi, "n": int(sel.sum())}
        if sel.any():
            row["flat_drift_fraction"] = float(np.mean(f[sel]))
            if have_b:
                row["bounded_fraction"] = float(np.mean(good[sel]))
            row["median_abs_drift"] = float(np.median(d[sel]))
        log_bins.append(row)
    rank = lambda x: np.argsort(np.argsort(x))
    rho = float(np.corrcoef(rank(g), rank(d))[0, 1])
    res = {"dir": a.dir, "system": meta.get("system"), "trajectories": int(ok.sum()),
           "status_counts": meta.get("status_counts"), "drift_threshold": thr,
           "bounded_criterion": ("bounded.npy (z_min >= z0 - %g)" % meta["config"]["options"]["bounded_depth"])
           if have_b else "|z_drift| < %g" % thr,
           "bounded_total_fraction": float(np.mean(good)),
           "spearman_gap_vs_abs_drift": rho, "bins": deciles, "log_bins": log_bins,
           "prediction": prediction(g, good)}

    axes = meta.get("axes", [])
    if a.split:
        pname, lo, hi = a.split.split(":")
        lo, hi = float(lo), float(hi)
        k = [ax["param"] for ax in axes].index(pname)
        grids = np.meshgrid(*[np.asarray(ax["values"]) for ax in axes[::-1]], indexing="ij")
        pv = grids[len(axes) - 1 - k].ravel()[ok]
        inside = (pv >= lo) & (pv <= hi)
        res["split"] = {"param": pname, "inside": [lo, hi],
                        "inside_prediction": prediction(g[inside], good[inside]),
                        "outside_prediction": prediction(g[~inside], good[~inside])}
    if len(axes) == 2:
        res["ridge"] = ridge(axes, gap2, drift2)
    print(json.dumps(res, indent=2))
    if a.plot:
        plot(a, meta, gap2, drift2, status2, bounded2, g, d, good, have_b, thr)


def plot(a, meta, gap2, drift2, status2, bounded2, g, d, good, have_b, thr):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    title = a.title or meta.get("system", "")
    axes = meta.get("axes", [])
    if len(axes) == 2:
        x0, x1 = axes[0], axes[1]
        ext = grid_extent(x0, x1)
        fig, ax = plt.subplots(1, 3 if have_b else 2, figsize=(13 if have_b else 9, 3.9),
                               constrained_layout=True)
        cm = plt.get_cmap("viridis").copy()
        cm.set_bad("0.6")
        ld = np.log10(np.abs(drift2) + 1e-6)
        im = ax[0].imshow(ld, origin="lower", extent=ext, aspect="auto", cmap=cm)
        fig.colorbar(im, ax=ax[0], label="log10 |z_drift|")
        lg = np.log10(gap2 + 1e-6)
        im = ax[1].imshow(lg, origin="lower", extent=ext, aspect="auto", cmap=cm)
        fig.colorbar(im, ax=ax[1], label="log10 caustic_gap")
        panels = ["|z_drift| (height per unit time)", "caustic_gap = |rho_even - rho_odd|"]
        if have_b:
            bm = np.where(np.isfinite(bounded2), bounded2, np.nan)
            im = ax[2].imshow(bm, origin="lower", extent=ext, aspect="auto",
                              cmap=matplotlib.colors.ListedColormap(["#440154", "#fde725"]),
                              vmin=-0.5, vmax=1.5)
            cb = fig.colorbar(im, ax=ax[2], ticks=[0, 1])
            cb.ax.set_yticklabels(["fell", "bounded"])
            panels.append("bounded (z >= z0 - %g)" % meta["config"]["options"]["bounded_depth"])
        for axx, p in zip(ax, panels):
            axx.set_xlabel(x0["param"])
            axx.set_ylabel(x1["param"])
            axx.set_title(p, fontsize=10)
        fig.suptitle(title, fontsize=11)
        fig.savefig(f"{a.plot}_maps.png", dpi=80)
        plt.close(fig)

    fig, ax = plt.subplots(figsize=(5.2, 4.2), constrained_layout=True)
    h = ax.hist2d(np.log10(g + 1e-6), np.log10(d + 1e-6), bins=[120, 120], cmin=1,
                  norm=matplotlib.colors.LogNorm(), cmap="viridis")
    fig.colorbar(h[3], ax=ax, label="trajectories")
    ax.set_xlabel("log10 caustic_gap")
    ax.set_ylabel("log10 |z_drift|")
    ax.set_title(title, fontsize=10)
    fig.savefig(f"{a.plot}_hist2d.png", dpi=80)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(5.6, 3.8), constrained_layout=True)
    labels, frac, counts = [], [], []
    for lo, hi in zip(LOG_EDGES[:-1], LOG_EDGES[1:]):
        sel = (g >= lo) & (g < hi)
        labels.append(("<%g" % hi) if lo == 0 else ((">%g" % lo) if np.isinf(hi) else "%g-%g" % (lo, hi)))
        frac.append(np.mean(good[sel]) if sel.any() else np.nan)
        counts.append(int(sel.sum()))
    bars = ax.bar(range(len(labels)), frac, color="#21918c")
    for b, c in zip(bars, counts):
        ax.text(b.get_x() + b.get_width() / 2, (0 if np.isnan(b.get_height()) else b.get_height()) + 0.02,
                str(c), ha="center", fontsize=7)
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, rotation=35, fontsize=8)
    ax.set_ylim(0, 1.1)
    ax.set_xlabel("caustic_gap bin (number above bar: trajectories)")
    ax.set_ylabel("bounded fraction" if have_b else "fraction |z_drift| < %g" % thr)
    ax.set_title(title, fontsize=10)
    fig.savefig(f"{a.plot}_bounded_by_gap.png", dpi=80)
    plt.close(fig)


if __name__ == "__main__":
    main()
