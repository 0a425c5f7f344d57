"""The Figure-18 exit map (examples/figure18.json) at several eta, side by side: where a ball
entering the rim returns to its entry side (+1) or rolls over to the other side (-1).

    PYTHONPATH=build/python /usr/bin/python3 examples/python/figure18_eta.py --out out/eta [--small]
"""
import argparse
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import skipstone  # noqa: E402

PRESET = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "figure18.json")

p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
p.add_argument("--eta", type=float, nargs="+", default=[0.25, 0.5, 0.75, 0.9])
p.add_argument("--small", action="store_true", help="a 24 x 24 grid instead of 256 x 256 (a quick check)")
p.add_argument("--out", default="out/figure18_eta")
a = p.parse_args()
n = 24 if a.small else 256
os.makedirs(a.out, exist_ok=True)
fig, axes = plt.subplots(1, len(a.eta), figsize=(3.2 * len(a.eta), 3.4), sharey=True, layout="constrained")
for ax, eta in zip(axes if len(a.eta) > 1 else [axes], a.eta):
    r = skipstone.run(PRESET, overrides={"parameters.eta": eta, "scan.axes[0].n": n, "scan.axes[1].n": n})
    v2, s12 = r.axes["v2"], r.axes["S12"]
    ax.imshow(r["exit_side"], origin="lower", extent=(v2[0], v2[-1], s12[0], s12[-1]), cmap="coolwarm", vmin=-1, vmax=1)
    ax.set_title(f"$\\eta$ = {eta:g}: {r.status_counts['exited']} exits")
    ax.set_xlabel("$v_2$")
axes.flat[0].set_ylabel("$S_{12}$")
fig.savefig(os.path.join(a.out, "figure18_eta.png"), dpi=150)
print(f"wrote {os.path.join(a.out, 'figure18_eta.png')}")
