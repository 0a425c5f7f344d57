#!/usr/bin/python3
"""Render the paper's rolling figures from `skipstone trace` CSVs (run with Debian's /usr/bin/python3).

Figure 2 left (roll3:inside-cylinder, classical), 11 (roll3:strip, Section 4.1), 16 and 17
(roll4:planes, Section 5.4), 19 and 20 (roll4:disc, Section 5.5; when their presets exist):
height against time and projections of the centre's path. Each figure is one FIGURES entry: its
preset in examples/, one curve per scan point of the preset (trace --index I, into a temporary
folder), and a plot kind. The closed-form models and Figure 20 (roll4:disc, parabolic flights
between rim passages) are traced with --sample DT so that the curves are smooth.

    /usr/bin/python3 scripts/plot_figures.py --skipstone build/skipstone [FIGURE ...]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# name -> preset, plot kind, trace sample step (None: the model's own events/steps)
FIGURES = {
    "figure2": {"preset": "inside_cylinder.json", "kind": "inside_cylinder", "sample": 0.02},
    "figure11": {"preset": "figure11.json", "kind": "strip", "sample": 0.02},
    "figure16": {"preset": "figure16.json", "kind": "planes", "sample": 0.02},
    "figure17": {"preset": "figure17.json", "kind": "planes", "sample": 0.02},
    "figure19": {"preset": "figure19.json", "kind": "disc_path", "sample": None},
    "figure20": {"preset": "figure20.json", "kind": "disc_height", "sample": 0.02},
}


def grid_points(cfg):
    """Per trajectory index, {axis param: value} (grid axes vary fastest-first, as scan_point.hpp)."""
    axes = cfg.get("scan", {}).get("axes", [])
    if cfg.get("scan", {}).get("type", "grid") != "grid":
        raise SystemExit("plot_figures: presets must use grid scans")
    sizes = [a["n"] for a in axes]
    points = []
    for index in range(int(np.prod(sizes)) if sizes else 1):
        rest, p = index, {}
        for a in axes:
            i = rest % a["n"]
            rest //= a["n"]
            p[a["param"]] = a["min"] if a["n"] <= 1 else a["min"] + (a["max"] - a["min"]) * i / (a["n"] - 1)
        points.append(p)
    return points


def trace(skipstone, preset_path, index, sample, work):
    out = os.path.join(work, f"trace{index}.csv")
    cmd = [skipstone, "trace", preset_path, "--out", out, "--index", str(index)]
    if sample:
        cmd += ["--sample", str(sample)]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return np.genfromtxt(out, delimiter=",", names=True)


def label(point):
    return ", ".join(f"{k} = {v:.3g}" for k, v in point.items())


def stadium_xy(sigma, L, r):
    """(x1, x_extra) of arc length sigma on the stadium of stadium_segments.hpp."""
    s = np.mod(sigma, 2 * L + 2 * np.pi * r)
    h = 0.5 * L
    out = np.empty((len(s), 2))
    for j, v in enumerate(s):
        if v < L:
            out[j] = (h - v, r)
        elif v < L + np.pi * r:
            phi = (v - L) / r
            out[j] = (-h - r * np.sin(phi), r * np.cos(phi))
        elif v < 2 * L + np.pi * r:
            out[j] = (-h + v - L - np.pi * r, -r)
        else:
            phi = (v - 2 * L - np.pi * r) / r
            out[j] = (h + r * np.sin(phi), -r * np.cos(phi))
    return out


def plot_planes(cfg, runs):
    n = len(runs)
    cols = min(n, 3)
    rows = (n + cols - 1) // cols
    fig, axs = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.2 * rows), squeeze=False)
    for ax, (point, d) in zip(axs.flat, runs):
        ax.plot(d["t"], d["z"], lw=0.9)
        ax.set_title(label(point), fontsize=10)
        ax.set_xlabel("t")
        ax.set_ylabel("x3")
    for ax in list(axs.flat)[n:]:
        ax.axis("off")
    return fig


def plot_path_and_height(runs, path, labels):
    """Per run: the 3D path of the centre (top row) and the height against time (bottom row).
    path(d) gives (x, y, height) arrays; labels: the 3D plot's three axis names, then the
    height axis name of the bottom row."""
    n = len(runs)
    fig = plt.figure(figsize=(4.2 * n, 7))
    for k, (point, d) in enumerate(runs):
        a, b, h = path(d)
        ax = fig.add_subplot(2, n, k + 1, projection="3d")
        ax.plot(a, b, h, lw=0.7)
        ax.set_title(label(point), fontsize=10)
        ax.set_xlabel(labels[0])
        ax.set_ylabel(labels[1])
        ax.set_zlabel(labels[2])
        ax2 = fig.add_subplot(2, n, n + k + 1)
        ax2.plot(d["t"], h, lw=0.9)
        ax2.set_xlabel("t")
        ax2.set_ylabel(labels[3])
    return fig


def plot_strip(cfg, runs):
    L, r = cfg["parameters"]["L"], cfg["parameters"]["r"]

    def path(d):
        xy = stadium_xy(d["x"], L, r)
        return xy[:, 0], xy[:, 1], d["y"]
    return plot_path_and_height(runs, path, ("x1", "x3", "height x2", "height x2"))


def plot_inside_cylinder(cfg, runs):
    return plot_path_and_height(runs, lambda d: (d["x"], d["y"], d["z"]), ("x", "y", "z", "height z"))


def plot_disc(cfg, runs, with_height):
    R = cfg["parameters"]["R"]
    n = len(runs)
    fig, axs = plt.subplots(n, 2 if with_height else 1, figsize=(9 if with_height else 4.6, 4.2 * n), squeeze=False)
    circle = np.linspace(0, 2 * np.pi, 400)
    for row, (point, d) in zip(axs, runs):
        ax = row[0]
        ax.plot(R * np.cos(circle), R * np.sin(circle), "k", lw=0.6)
        ax.plot(d["x"], d["y"], lw=0.5)
        ax.set_aspect("equal")
        ax.set_title(label(point) or "x1 x2 projection", fontsize=10)
        if with_height:
            row[1].plot(d["t"], d["z"], lw=0.8)
            row[1].set_xlabel("t")
            row[1].set_ylabel("x3")
    return fig


PLOTS = {
    "planes": plot_planes,
    "strip": plot_strip,
    "inside_cylinder": plot_inside_cylinder,
    "disc_path": lambda c, r: plot_disc(c, r, False),
    "disc_height": lambda c, r: plot_disc(c, r, True),
}


def render(name, entry, skipstone, out_dir):
    preset_path = os.path.join(ROOT, "examples", entry["preset"])
    with open(preset_path) as f:
        cfg = json.load(f)
    with tempfile.TemporaryDirectory() as work:
        runs = [(p, trace(skipstone, preset_path, i, entry["sample"], work)) for i, p in enumerate(grid_points(cfg))]
    fig = PLOTS[entry["kind"]](cfg, runs)
    fig.suptitle(f"{name}: {cfg['system']} (examples/{entry['preset']})")
    fig.tight_layout()
    path = os.path.join(out_dir, f"{name}.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    print("wrote", path)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("figures", nargs="*", help=f"any of {', '.join(FIGURES)} (default: all with a preset)")
    ap.add_argument("--skipstone", required=True, help="path of the skipstone binary")
    ap.add_argument("--out-dir", default=os.path.join(ROOT, "docs", "images"))
    a = ap.parse_args()
    names = a.figures or [n for n, e in FIGURES.items() if os.path.exists(os.path.join(ROOT, "examples", e["preset"]))]
    unknown = [n for n in names if n not in FIGURES]
    if unknown:
        sys.exit(f"plot_figures: unknown figure {unknown[0]}; known: {', '.join(FIGURES)}")
    os.makedirs(a.out_dir, exist_ok=True)
    for n in names:
        render(n, FIGURES[n], a.skipstone, a.out_dir)


if __name__ == "__main__":
    main()
