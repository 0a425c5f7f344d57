"""A scan of the no-slip stadium (examples/stadium.json) over boundary starts, written as the
CLI writes it and drawn with skipstone.plot: one publication figure per observable, with the
shape of the stadium (half_length) as a command-line choice.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/stadium_scan.py --out out/stadium [--small]
"""
import argparse
import os

import numpy as np

import skipstone
from skipstone.plot import plot

PRESET = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "stadium.json")

p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
p.add_argument("--half-length", type=float, default=1.0)
p.add_argument("--small", action="store_true", help="a 16 x 16 grid instead of 128 x 128 (a quick check)")
p.add_argument("--out", default="out/stadium_scan")
a = p.parse_args()
n = 16 if a.small else 128
run_dir = os.path.join(a.out, "run")
r = skipstone.run(PRESET, out=run_dir, overwrite=True,
                  overrides={"parameters.half_length": a.half_length, "scan.axes[0].n": n, "scan.axes[1].n": n})
ok = np.isin(r["status"], list(skipstone.OK_STATUSES))
print(f"{ok.sum()} of {ok.size} trajectories ended ok; z_max from {np.nanmin(r['z_max']):.3g} to {np.nanmax(r['z_max']):.3g}")
for path in plot(run_dir, out=os.path.join(a.out, "figures"), formats=("png", "pdf")):
    print(f"wrote {path}")
