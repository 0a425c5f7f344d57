#!/usr/bin/python3
"""Render the paper's rolling figures from `skipstone trace` CSVs (run with Debian's /usr/bin/python3).

Figure 2 left (roll3:inside-cylinder, classical), 4 right (roll3:sinai), 11 (roll3:strip, Section
4.1), 16 and 17 (roll4:planes, Section 5.4), 19 and 20 (roll4:disc, Section 5.5; when their presets
exist): height against time and projections of the centre's path. Each figure is one FIGURES entry:
its preset in examples/, one curve per scan point of the preset (trace --index I, into a temporary
folder), and a plot kind. The closed-form models and Figure 20 (roll4:disc, parabolic flights
between rim passages) are traced with --sample DT so that the curves are smooth. The "shadow"
kind also traces each point's no-slip shadow (Theorem 8) and draws both paths on one axes.

    /usr/bin/python3 scripts/plot_figures.py --skipstone build/skipstone [FIGURE ...]
"""
import argparse
import json
import math
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
    "figure4": {"preset": "figure4.json", "kind": "shadow", "sample": None},
    "figure11": {"preset": "figure11.json", "kind": "strip", "sample": 0.02},
    "figure16": {"preset": "figure16.json", "kind": "planes", "sample": 0.02},
    "figure17": {"preset": "figure17.json", "kind": "planes", "sample": 0.02},
    "figure19": {"preset": "figure19.json", "kind": "disc_path", "sample": None},
    "figure20": {"preset": "figure20.json", "kind": "disc_height", "sample": 0.02},
    "roll4_stadium_shadow": {"preset": "roll4_stadium_shadow.json", "kind": "shadow", "sample": None},
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


def trace(skipstone, preset_path, index, sample, work, name="trace"):
    out = os.path.join(work, f"{name}{index}.csv")
    cmd = [skipstone, "trace", preset_path, "--out", out, "--index", str(index)]
    if sample:
        cmd += ["--sample", str(sample)]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return np.genfromtxt(out, delimiter=",", names=True)


# Keys of the rolling tables' "parameters" (the rest of a scan point belongs to "initial").
ROLLING_PARAMETERS = {"r", "eta", "gamma", "beta", "g", "g_effective", "R", "half_length", "a", "b", "side", "radius"}


def rolling_point(cfg, point):
    """The parameters and the initial keys of a rolling preset at one scan point."""
    params, init = dict(cfg["parameters"]), dict(cfg.get("initial", {}))
    for key, value in point.items():
        (params if key in ROLLING_PARAMETERS else init)[key] = value
    return params, init


def shadow_config(cfg, point):
    """The no-slip shadow of a roll3:<table> or roll4:<table> trajectory (Theorem 8, docs/models.md):
    <table> or cylinder:<table> with beta = pi eta, the rolling ball's effective gravity, the same
    table, and the flat-part state of the `plate` start (no-slip spin S12; in 3D w = (S23, -S13, S12))."""
    params, init = rolling_point(cfg, point)
    model, table = cfg["system"].split(":")
    if model not in ("roll3", "roll4") or init.get("start", "plate") != "plate":
        raise SystemExit(f"plot_figures: no no-slip shadow for {cfg['system']} with start {init.get('start')}")
    if "eta" in params:
        eta = params["eta"]
    elif "gamma" in params:
        eta = params["gamma"] / math.sqrt(1.0 + params["gamma"] ** 2)
    else:
        eta = math.sin(0.5 * params["beta"])  # gamma = tan(beta / 2)
    gamma2 = eta * eta / (1.0 - eta * eta)
    g_eff = params.get("g_effective", params.get("g", 0.0) / (1.0 + gamma2))
    if model == "roll3" and g_eff != 0.0:
        raise SystemExit("plot_figures: shadow paths are drawn as straight flights; roll3 with in-plane gravity is not")
    shadow = {k: v for k, v in params.items() if k not in {"r", "eta", "gamma", "beta", "g", "g_effective"}}
    shadow["beta"] = math.pi * eta
    if g_eff != 0.0:
        shadow["g"] = g_eff
    plate_defaults = (("x1", 0.0), ("x2", 0.0), ("v1", 1.0), ("v2", 0.0), ("S12", 0.0))
    x1, x2, v1, v2, S12 = (init.get(key, value) for key, value in plate_defaults)
    if model == "roll3":
        start = {"start": "interior", "x": x1, "y": x2, "angle": math.atan2(v2, v1), "speed": math.hypot(v1, v2),
                 "spin": S12}
    else:
        start = {"start": "interior", "x": x1, "y": x2, "z": init.get("z", 0.0), "vx": v1, "vy": v2,
                 "vz": init.get("v3", 0.0), "wx": init.get("S23", 0.0), "wy": -init.get("S13", 0.0), "wz": S12}
    system = table if model == "roll3" else f"cylinder:{table}"
    return {"system": system, "parameters": shadow, "initial": start, "stop": cfg["stop"]}


def trace_shadow(skipstone, cfg, point, index, work):
    path = os.path.join(work, f"shadow{index}.json")
    with open(path, "w") as f:
        json.dump(shadow_config(cfg, point), f)
    return trace(skipstone, path, 0, None, work, name=f"shadow{index}_")


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


def draw_table(ax, cfg, point, window):
    """The table in the (x1, x2) plane; on the Sinai torus, the hole of every cell that meets the
    window (x_lo, x_hi, y_lo, y_hi)."""
    p = rolling_point(cfg, point)[0]
    table = cfg["system"].split(":")[1]
    t = np.linspace(0.0, 2.0 * np.pi, 200)
    style = {"color": "0.45", "lw": 0.8}
    if table == "sinai":
        side, rho = p.get("side", 1.0), p.get("radius", 0.25)
        x_lo, x_hi, y_lo, y_hi = (math.floor(window[0] / side), math.ceil(window[1] / side),
                                  math.floor(window[2] / side), math.ceil(window[3] / side))
        for i in range(x_lo, x_hi + 1):
            for j in range(y_lo, y_hi + 1):
                ax.fill(i * side + rho * np.cos(t), j * side + rho * np.sin(t), color="0.88", ec="0.45", lw=0.8)
    elif table == "stadium":
        h, R = p.get("half_length", 1.0), p.get("R", 1.0)
        cap = np.linspace(-0.5 * np.pi, 0.5 * np.pi, 100)  # right cap upwards, left cap downwards
        x = np.r_[h + R * np.cos(cap), -h - R * np.cos(cap[::-1]), h]
        y = np.r_[R * np.sin(cap), R * np.sin(cap[::-1]), -R]
        ax.plot(x, y, **style)
    elif table == "disc":
        ax.plot(p.get("R", 1.0) * np.cos(t), p.get("R", 1.0) * np.sin(t), **style)
    else:
        ax.plot(p.get("a", 2.0) * np.cos(t), p.get("b", 1.0) * np.sin(t), **style)


def plot_shadow(cfg, runs):
    """Per scan point, the rolling centre's (x1, x2) path and its no-slip shadow's on one axes, all
    panels over the same window. Flights on the flat parts are straight in this plane (no in-plane
    gravity: shadow_config); on the rolling path's curved parts the rows are integrator steps."""
    n = len(runs)
    xs = np.concatenate([np.r_[d["x"], s["x"]] for _, (d, s) in runs])
    ys = np.concatenate([np.r_[d["y"], s["y"]] for _, (d, s) in runs])
    pad = 0.35
    window = (xs.min() - pad, xs.max() + pad, ys.min() - pad, ys.max() + pad)
    width = 4.0 * (window[1] - window[0]) / (window[3] - window[2])
    fig, axs = plt.subplots(1, n, figsize=(max(2.6, min(width, 6.0)) * n, 4.8), squeeze=False)
    model, table = cfg["system"].split(":")
    shadow_name = table if model == "roll3" else f"cylinder:{table}"
    for ax, (point, (d, s)) in zip(axs[0], runs):
        draw_table(ax, cfg, point, window)
        ax.plot(s["x"], s["y"], "--", color="k", lw=1.0, zorder=3, label=f"no-slip shadow {shadow_name}, beta = pi eta")
        ax.plot(d["x"], d["y"], color="C0", lw=1.1, label=cfg["system"])
        ax.plot(d["x"][:1], d["y"][:1], "o", color="C3", ms=4, label="start")
        ax.set_xlim(window[0], window[1])
        ax.set_ylim(window[2], window[3])
        ax.set_aspect("equal")
        ax.set_xlabel("x1")
        ax.set_ylabel("x2")
        ax.set_title(label(point), fontsize=10)
    handles, labels = axs[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=3, fontsize=9)
    fig.subplots_adjust(bottom=0.2)
    return fig


PLOTS = {
    "planes": plot_planes,
    "strip": plot_strip,
    "inside_cylinder": plot_inside_cylinder,
    "disc_path": lambda c, r: plot_disc(c, r, False),
    "disc_height": lambda c, r: plot_disc(c, r, True),
    "shadow": plot_shadow,
}


def render(name, entry, skipstone, out_dir):
    preset_path = os.path.join(ROOT, "examples", entry["preset"])
    with open(preset_path) as f:
        cfg = json.load(f)
    with tempfile.TemporaryDirectory() as work:
        runs = [(p, trace(skipstone, preset_path, i, entry["sample"], work)) for i, p in enumerate(grid_points(cfg))]
        if entry["kind"] == "shadow":
            runs = [(p, (d, trace_shadow(skipstone, cfg, p, i, work))) for i, (p, d) in enumerate(runs)]
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
