"""The figures of skipstone.plot, one per observable of a Result: a 1-axis grid as a line plot,
a 2-axis grid as a heat map (colour bar labelled, origin lower, extent from the axes), a
3-axis grid as small multiples (one heat map per value of axis 2, shared colours), a random
scan as a scatter plot; status and exit_side with a discrete colour map and a legend."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.colors as mcolors  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

from ._plot_labels import CATEGORIES, symbol, title  # noqa: E402

plt.rcParams.update({"font.family": "DejaVu Sans", "mathtext.fontset": "dejavusans", "font.size": 10,
                     "pdf.fonttype": 42})  # TrueType fonts embedded in PDFs
NAN_COLOUR = "#c8c8c8"  # masked and failed pixels
MAX_PANELS = 12         # small multiples drawn at most; more values of axis 2 are subsampled


class PlotError(ValueError):
    """Bad input to skipstone.plot: an observable or option it cannot draw."""


class Style:
    """The plot options: cmap, vmin, vmax, log."""

    def __init__(self, cmap="viridis", vmin=None, vmax=None, log=False):
        self.cmap, self.vmin, self.vmax, self.log = cmap, vmin, vmax, log


def _scale(observable, values, style):
    """(cmap, norm, legend handles or None) for an observable's values."""
    if observable in CATEGORIES:
        if style.log:
            raise PlotError(f"--log: {observable} is categorical")
        names = CATEGORIES[observable]
        keys = sorted(names)
        cmap = mcolors.ListedColormap(plt.get_cmap("tab10").colors[:len(keys)])
        cmap.set_bad(NAN_COLOUR)
        bounds = [keys[0] - 0.5] + [(a + b) / 2 for a, b in zip(keys, keys[1:])] + [keys[-1] + 0.5]
        norm = mcolors.BoundaryNorm(bounds, cmap.N)
        present = set(np.unique(values[np.isfinite(values)]).tolist())
        handles = [Patch(color=cmap(i), label=names[k]) for i, k in enumerate(keys) if k in present]
        if not np.all(np.isfinite(values)):
            handles.append(Patch(color=NAN_COLOUR, label="masked or failed"))
        return cmap, norm, handles
    cmap = plt.get_cmap(style.cmap).copy()
    cmap.set_bad(NAN_COLOUR)
    finite = values[np.isfinite(values)]
    if style.log:
        positive = finite[finite > 0]
        vmin = style.vmin if style.vmin is not None else (positive.min() if positive.size else 1.0)
        vmax = style.vmax if style.vmax is not None else (positive.max() if positive.size else 10.0)
        return cmap, mcolors.LogNorm(vmin=vmin, vmax=vmax), None
    return cmap, mcolors.Normalize(vmin=style.vmin, vmax=style.vmax), None


def _finish(fig, mappable, axes, observable, handles):
    if handles is not None:
        corner = axes if not isinstance(axes, np.ndarray) else axes[0, -1]
        corner.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, frameon=False,
                      title=observable)
    elif mappable is not None:
        fig.colorbar(mappable, ax=axes, label=observable)


def figure(result, observable, style):
    """The matplotlib Figure of one observable."""
    values = np.asarray(result[observable], dtype=np.float64)
    if values.ndim > len(result.meta["shape"]):
        raise PlotError(f"{observable} is a vector observable; plot draws scalar ones")
    names = list(result.axes)
    if len(names) > 3:
        raise PlotError(f"the scan has {len(names)} axes; plot draws 1 to 3")
    cmap, norm, handles = _scale(observable, values, style)
    if not result.meta["grid"]:
        return _scatter(result, observable, values, names, cmap, norm, handles)
    if len(names) == 1:
        return _line(result, observable, values, names[0], style)
    if len(names) == 2:
        fig, ax = plt.subplots(figsize=(6, 4.8), layout="constrained")
        image = _heat_map(ax, result, values, names, cmap, norm)
        ax.set_title(title(result.meta, observable))
        _finish(fig, image, ax, observable, handles)
        return fig
    return _small_multiples(result, observable, values, names, cmap, norm, handles)


def _line(result, observable, values, name, style):
    fig, ax = plt.subplots(figsize=(6, 4), layout="constrained")
    ax.plot(result.axes[name], values, lw=1.2, marker="." if values.size <= 64 else None)
    ax.set_xlabel(symbol(name))
    ax.set_ylabel(observable)
    if style.log:
        ax.set_yscale("log")
    ax.set_ylim(style.vmin, style.vmax)
    ax.set_title(title(result.meta, observable))
    return fig


def _edges(values):
    """(first, last) pixel edge of grid values: half a step beyond the first and last value."""
    half = (values[-1] - values[0]) / (2 * (len(values) - 1)) if len(values) > 1 else 0.5
    return values[0] - half, values[-1] + half


def _heat_map(ax, result, values, names, cmap, norm):
    image = ax.imshow(values, origin="lower", extent=(*_edges(result.axes[names[0]]), *_edges(result.axes[names[1]])),
                      aspect="auto", cmap=cmap, norm=norm, interpolation="nearest")
    ax.set_xlabel(symbol(names[0]))
    ax.set_ylabel(symbol(names[1]))
    return image


def _small_multiples(result, observable, values, names, cmap, norm, handles):
    third = result.axes[names[2]]
    picks = np.unique(np.linspace(0, len(third) - 1, min(len(third), MAX_PANELS)).round().astype(int))
    cols = min(4, len(picks))
    rows = -(-len(picks) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(3.2 * cols, 2.8 * rows + 0.6), layout="constrained",
                             sharex=True, sharey=True, squeeze=False)
    image = None
    for ax, k in zip(axes.flat, picks):
        image = _heat_map(ax, result, values[k], names, cmap, norm)
        ax.set_title(f"{symbol(names[2])} = {third[k]:.4g}", fontsize=9)
    for ax in axes.flat[len(picks):]:
        ax.set_visible(False)
    fig.suptitle(title(result.meta, observable))
    _finish(fig, image, axes, observable, handles)
    return fig


def _scatter(result, observable, values, names, cmap, norm, handles):
    fig, ax = plt.subplots(figsize=(6, 4.8), layout="constrained")
    x = result.axes[names[0]].ravel()
    if len(names) == 1:
        ax.scatter(x, values.ravel(), s=2)
        ax.set_ylabel(observable)
        points = None
    elif len(names) == 2:
        points = ax.scatter(x, result.axes[names[1]].ravel(), c=values.ravel(), s=2, cmap=cmap, norm=norm,
                            plotnonfinite=True)
        ax.set_ylabel(symbol(names[1]))
    else:
        raise PlotError("plot draws random scans of 1 or 2 axes")
    ax.set_xlabel(symbol(names[0]))
    ax.set_title(title(result.meta, observable))
    if points is not None:
        _finish(fig, points, ax, observable, handles)
    return fig
