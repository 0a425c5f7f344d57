#!/usr/bin/python3
"""Fraction of friendly rolls in Figure-18 exit maps as a function of eta.

Reads a skipstone output folder of roll4:disc-transversal with exit_side.npy and status.npy
from a three-axis grid (v2, S12, eta; e.g. examples/figure18_eta_sweep.json: shape
(n_eta, n_S12, n_v2)) or a plain two-axis Figure-18 map (eta from the config). For each eta it
counts the unmasked pixels (inside the unit energy disc) and the fractions that exit back to
the entry side (exit_side = +1, the friendly roll), over to the other side (-1) and not by
t_max (0, status finished); pixels that failed (any other status) are counted separately.
Fractions are of the unmasked pixels, i.e. for a uniform distribution of (v2, S12) on the disc.

Prints a JSON object and a Markdown table; with --plot PREFIX writes PREFIX_fraction.png
(fractions against eta) and PREFIX_maps.png (exit_side maps at up to six eta values).
Usage: friendly_vs_eta.py DIR [--plot PREFIX]      (Debian's /usr/bin/python3)
"""
import argparse
import json

import numpy as np

from grid_extent import grid_extent

MASKED, EXITED, FINISHED = 7, 1, 0  # include/skipstone/status.hpp


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--plot", metavar="PREFIX")
    a = ap.parse_args()
    meta = json.load(open(f"{a.dir}/meta.json"))
    side = np.load(f"{a.dir}/exit_side.npy")  # -1, 0, +1; NaN where masked or failed
    status = np.load(f"{a.dir}/status.npy").astype(int)
    axes = meta["axes"]
    names = [ax["param"] for ax in axes]
    if "eta" in names:
        if names.index("eta") != 2:
            raise SystemExit("eta must be axis 2 (the slowest) of a three-axis grid")
        etas = axes[2]["values"]
    else:
        side, status = side[None], status[None]
        etas = [meta["moment_of_inertia"]["eta"]]
    rows = []
    for k, eta in enumerate(etas):
        s, st = side[k], status[k]
        live = st != MASKED
        n = int(live.sum())
        ok = live & ((st == EXITED) | (st == FINISHED))
        rows.append({"eta": float(eta), "unmasked": n, "failed": int((live & ~ok).sum()),
                     "friendly": float(np.sum(ok & (s == 1)) / n),
                     "opposite": float(np.sum(ok & (s == -1)) / n),
                     "none_by_t_max": float(np.sum(ok & (s == 0)) / n)})
    print(json.dumps({"dir": a.dir, "grid": [ax["n"] for ax in axes], "t_max": meta["config"]["stop"].get("t_max"),
                      "status_counts": meta["status_counts"], "rows": rows}, indent=2))
    print("\n| eta | friendly (same side) | opposite side | none by t_max | pixels |")
    print("|---|---|---|---|---|")
    for r in rows:
        print("| %.2f | %.4f | %.4f | %.4f | %d |" % (r["eta"], r["friendly"], r["opposite"], r["none_by_t_max"],
                                                      r["unmasked"]))
    if a.plot:
        plot(a.plot, axes, etas, side, status, rows)


def plot(prefix, axes, etas, side, status, rows):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    e = [r["eta"] for r in rows]
    fig, ax = plt.subplots(figsize=(5.2, 3.6), constrained_layout=True)
    ax.plot(e, [r["friendly"] for r in rows], "o-", color="#5ec962", label="friendly roll (same side)")
    ax.plot(e, [r["opposite"] for r in rows], "s-", color="#3b528b", label="over to the other side")
    if any(r["none_by_t_max"] > 0 for r in rows):
        ax.plot(e, [r["none_by_t_max"] for r in rows], "^-", color="0.4", label="no exit by t_max")
    ax.set_xlabel("eta")
    ax.set_ylabel("fraction of the unit energy disc")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title("Figure-18 exit side against eta (r = R)", fontsize=10)
    fig.savefig(f"{prefix}_fraction.png", dpi=80)
    plt.close(fig)

    pick = np.unique(np.linspace(0, len(etas) - 1, min(6, len(etas))).round().astype(int))
    ext = grid_extent(axes[0], axes[1])
    cmap = matplotlib.colors.ListedColormap(["#3b528b", "#d9d9d9", "#5ec962", "#999999"])
    fig, ax = plt.subplots(1, len(pick), figsize=(2.3 * len(pick), 2.6), constrained_layout=True)
    ax = np.atleast_1d(ax)
    for axx, k in zip(ax, pick):
        img = np.where(np.isnan(side[k]), 2.0, side[k])  # -1, 0, +1; 2: masked or failed
        axx.imshow(img, origin="lower", extent=ext, cmap=cmap, vmin=-1.5, vmax=2.5, interpolation="nearest")
        axx.set_title("eta = %.2f: %.1f %% friendly" % (etas[k], 100 * rows[k]["friendly"]), fontsize=8)
        axx.set_xlabel(axes[0]["param"], fontsize=8)
        axx.tick_params(labelsize=7)
    ax[0].set_ylabel(axes[1]["param"], fontsize=8)
    fig.savefig(f"{prefix}_maps.png", dpi=70)
    plt.close(fig)


if __name__ == "__main__":
    main()
