"""The matplotlib `extent` of a map of grid points from meta.json's axes: each grid point
min + k (max - min) / (n - 1) lies at the centre of its cell, so the image reaches half a
spacing beyond the first and last points (one point: a cell of width 1 around it)."""


def axis_edges(axis):
    n = axis["n"]
    half = 0.5 * (axis["max"] - axis["min"]) / (n - 1) if n > 1 else 0.5
    return [axis["min"] - half, axis["max"] + half]


def grid_extent(x_axis, y_axis):
    """[left, right, bottom, top] for imshow(..., origin="lower", extent=...)."""
    return axis_edges(x_axis) + axis_edges(y_axis)
