"""Result, the maps of a finished scan as NumPy arrays, and load(), which reads them from an
output folder of `skipstone run` or `skipstone merge`."""
import json
import os

import numpy as np

from ._status import STATUS_NAMES


# The outputs section's files that meta.json lists (by their key there).
POINT_OUTPUTS = ("boundary_map", "boundary_events", "section_map", "section_events")


class Result:
    """A finished scan: observables as NumPy arrays, axes, status counts and meta.json.

    result[name] (or result.observables[name]) is the map of an observable, with the dtype
    and shape of its .npy file: a grid over axes a0, a1 has shape (n1, n0); vector
    observables have a last dimension (3: annulus_axis, 5: lyapunov_spectrum); a random scan
    is one row per sample.
    result.axes maps each scanned parameter (axis 0 first) to its values: the grid values,
    or for a random scan the sampled value of every trajectory (shaped like the maps).
    result.outputs maps the config's outputs (boundary_map, boundary_events, section_map,
    section_events; docs/config.md "Outputs") to their arrays, as their .npy files hold them;
    their coordinates and columns are in result.meta[name]. A table with holes and outputs.survival adds
    "survival" (trajectories still inside at each time) and "survival_times" (the time grid);
    the escape summary is result.meta["escape"].
    """

    status_names = STATUS_NAMES

    def __init__(self, observables, axes, meta, outputs=None):
        self.observables = observables
        self.outputs = outputs or {}
        self.axes = axes
        self.meta = meta
        self.status_counts = {name: int(meta["status_counts"][name]) for name in STATUS_NAMES}

    def __getitem__(self, name):
        return self.observables[name]

    def __contains__(self, name):
        return name in self.observables

    def __repr__(self):
        shape = "x".join(str(n) for n in self.meta["shape"])
        return f"<skipstone.Result {self.meta['system']} {shape}: {', '.join(self.observables)}>"

    def to_xarray(self):
        """The observables as an xarray.Dataset (python3-xarray); see skipstone._xarray."""
        from ._xarray import to_dataset
        return to_dataset(self)


def axes_of(meta, sampled):
    """Parameter name to values: a grid's values from meta.json, a random scan's `sampled` ones."""
    if meta["grid"]:
        return {a["param"]: np.asarray(a["values"], dtype=np.float64) for a in meta["axes"]}
    return {a["param"]: sampled[a["param"]] for a in meta["axes"]}


def load(dir):
    """The Result of a `skipstone run` (or merge) output folder: meta.json and its .npy files."""
    dir = os.fspath(dir)
    with open(os.path.join(dir, "meta.json")) as f:
        meta = json.load(f)
    if "partial" in meta:
        raise ValueError(f"{dir} holds one shard of a run, not a whole one: combine the shards with skipstone merge")
    order = meta["config"]["observables"]
    observables = {name: np.load(os.path.join(dir, meta["observables"][name]["file"])) for name in order}
    sampled = {} if meta["grid"] else {a["param"]: np.load(os.path.join(dir, a["file"])) for a in meta["axes"]}
    outputs = {name: np.load(os.path.join(dir, meta[name]["file"])) for name in POINT_OUTPUTS if name in meta}
    survival = meta.get("escape", {}).get("survival")
    if survival:
        outputs["survival"] = np.load(os.path.join(dir, survival["file"]))
        outputs["survival_times"] = np.load(os.path.join(dir, survival["times_file"]))
    return Result(observables, axes_of(meta, sampled), meta, outputs)
