"""A rolling ball and its no-slip shadow: two roll4:stadium trajectories of
examples/roll4_stadium_shadow.json (v1 = 0.3 and 0.9) traced beside the cylinder:stadium
trajectories with beta = pi eta and g = g_effective started in the same state (Theorem 8,
docs/models.md), projected onto the table.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/rolling_vs_noslip.py --out out/shadow [--small]
"""
import argparse
import json
import math
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import skipstone  # noqa: E402

PRESET = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "roll4_stadium_shadow.json")

p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
p.add_argument("--small", action="store_true", help="up to t = 4 instead of the preset's t_max (a quick check)")
p.add_argument("--out", default="out/rolling_vs_noslip")
a = p.parse_args()
rolling = json.load(open(PRESET))
stop = {"stop.t_max": 4.0} if a.small else {}
par, init = rolling["parameters"], rolling["initial"]
fig, axes = plt.subplots(1, 2, figsize=(8, 4), layout="constrained")
for ax, v1 in zip(axes, (0.3, 0.9)):
    ball = skipstone.trace(rolling, coords={"v1": v1}, overrides=stop)
    shadow = {"system": "cylinder:stadium", "stop": rolling["stop"],
              "parameters": {"half_length": par["half_length"], "R": par["R"], "beta": math.pi * par["eta"],
                             "g": par["g_effective"]},
              "initial": {"start": "interior", "x": init["x1"], "y": init["x2"], "z": init["z"], "vx": v1, "vy": init["v2"],
                          "vz": init["v3"], "wx": init["S23"], "wy": -init["S13"], "wz": init["S12"]}}
    noslip = skipstone.trace(shadow, overrides=stop)
    ax.plot(ball["x"], ball["y"], label="roll4:stadium (rolling)")
    ax.plot(noslip["x"], noslip["y"], "--", label="cylinder:stadium (no-slip shadow)")
    ax.set_title(f"$v_1$ = {v1:g}")
    ax.set_xlabel("$x_1$")
    ax.set_aspect("equal")
axes[0].set_ylabel("$x_2$")
axes[0].legend(loc="lower left", fontsize=8)
os.makedirs(a.out, exist_ok=True)
fig.savefig(os.path.join(a.out, "rolling_vs_noslip.png"), dpi=150)
print(f"wrote {os.path.join(a.out, 'rolling_vs_noslip.png')}")
