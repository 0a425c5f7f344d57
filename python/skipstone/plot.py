"""Publication figures of a run's maps: `python3 -m skipstone.plot DIR [options]` (also
`skipstone plot DIR`). DIR is an output folder of `skipstone run`, `skipstone merge` or
skipstone.run(out=...); the figures go to DIR/plots/<observable>.<format> (or --out). Bad
input is reported on stderr with exit status 2, like the CLI's."""
import argparse
import os
import sys

import matplotlib.pyplot as plt

from ._plot_figure import PlotError, Style, figure
from ._result import load

FORMATS = ("png", "pdf")


def plot(dir, observables=None, out=None, formats=("png",), cmap="viridis", vmin=None, vmax=None, log=False):
    """Writes one figure per observable (default: every scalar one) of the run in `dir`;
    returns the paths written. A PlotError (a ValueError) names a bad observable or option."""
    result = load(dir)
    scalar = [n for n, a in result.observables.items() if a.ndim == len(result.meta["shape"])]
    for name in observables or []:
        if name not in scalar:
            raise PlotError(f"--observable {name}: not a scalar observable of this run; allowed: {', '.join(scalar)}")
    for f in formats:
        if f not in FORMATS:
            raise PlotError(f"--format {f}: allowed values are {', '.join(FORMATS)}")
    if cmap not in plt.colormaps():
        raise PlotError(f"--cmap {cmap}: not a matplotlib colour map (e.g. viridis, magma, cividis, RdBu_r)")
    if vmin is not None and vmax is not None and not vmin < vmax:
        raise PlotError(f"--vmin {vmin} --vmax {vmax}: expected vmin < vmax")
    if log and vmin is not None and vmin <= 0:
        raise PlotError(f"--vmin {vmin}: expected > 0 with --log")
    out = os.path.join(os.fspath(dir), "plots") if out is None else os.fspath(out)
    os.makedirs(out, exist_ok=True)
    written = []
    for name in observables or scalar:
        fig = figure(result, name, Style(cmap, vmin, vmax, log))
        for f in formats:
            path = os.path.join(out, f"{name}.{f}")
            fig.savefig(path, dpi=200)
            written.append(path)
        plt.close(fig)
    return written


def main(argv=None):
    p = argparse.ArgumentParser(prog="skipstone plot", description=__doc__.split("\n\n")[0])
    p.add_argument("dir", metavar="DIR", help="output folder of skipstone run or merge")
    p.add_argument("--observable", action="append", metavar="NAME", help="observable to draw (repeatable; default: all scalar ones)")
    p.add_argument("--cmap", default="viridis", help="matplotlib colour map of continuous maps (default viridis)")
    p.add_argument("--vmin", type=float, help="lower end of the colour (or y) range")
    p.add_argument("--vmax", type=float, help="upper end of the colour (or y) range")
    p.add_argument("--log", action="store_true", help="logarithmic colour (or y) scale")
    p.add_argument("--format", action="append", choices=FORMATS, help="png (default) or pdf; repeatable for both")
    p.add_argument("--out", metavar="FOLDER", help="where the figures go (default DIR/plots)")
    a = p.parse_args(argv)
    try:
        written = plot(a.dir, a.observable, a.out, a.format or ["png"], a.cmap, a.vmin, a.vmax, a.log)
    except (PlotError, OSError) as e:
        print(f"skipstone plot: {e}", file=sys.stderr)
        return 2
    for path in written:
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
