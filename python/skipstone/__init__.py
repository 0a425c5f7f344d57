"""skipstone from Python: run a scan and get its maps as NumPy arrays, or load a run's outputs.

    import skipstone
    r = skipstone.run("examples/figure18.json", overrides={"scan.axes[0].n": 64, "scan.axes[1].n": 64})
    r["exit_side"]                    # shaped like the grid: (n1, n0), row = axis 1
    r.axes["v2"], r.status_counts, r.meta
    (r["status"] == skipstone.MASKED).sum()
    r2 = skipstone.load("out/figure18")   # the same Result from a `skipstone run` output folder

run() is `skipstone run CONFIG --backend cpu` in this process: the same config checks, kernels
and outputs (docs/python.md).
"""
import enum
import json
import os
from collections.abc import Mapping

import numpy as np

from . import _skipstone
from ._skipstone import ConfigError, UsageError

__all__ = ["run", "load", "Result", "Status", "status_name", "STATUS_NAMES", "OK_STATUSES",
           "ConfigError", "UsageError"]

# How a trajectory ended: the codes of status.npy (include/skipstone/status.hpp).
STATUS_NAMES = _skipstone.STATUS_NAMES
Status = enum.IntEnum("Status", [(name.upper(), code) for code, name in enumerate(STATUS_NAMES)])
Status.__doc__ = "How a trajectory ended: the codes of status.npy (docs/usage.md)."
globals().update(Status.__members__)  # skipstone.FINISHED, ..., skipstone.MASKED
__all__ += list(Status.__members__)
# The statuses whose observables are valid numbers (the others' floating values are NaN).
OK_STATUSES = frozenset(Status(code) for code in _skipstone.OK_STATUSES)


def status_name(code):
    """The name of a status code, as meta.json's status_counts spell it (7 -> 'masked')."""
    return STATUS_NAMES[Status(code)]


class Result:
    """A finished scan: observables as NumPy arrays, axes, status counts and meta.json.

    result[name] (or result.observables[name]) is the map of an observable, with the dtype
    and shape of its .npy file: a grid over axes a0, a1 has shape (n1, n0); vector
    observables have a last dimension (3: annulus_axis, 5: lyapunov_spectrum); a random scan is one row per sample.
    result.axes maps each scanned parameter (axis 0 first) to its values: the grid values,
    or for a random scan the sampled value of every trajectory (shaped like the maps).
    """

    status_names = STATUS_NAMES

    def __init__(self, observables, axes, meta):
        self.observables = observables
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


def _axes(meta, sampled):
    if meta["grid"]:
        return {a["param"]: np.asarray(a["values"], dtype=np.float64) for a in meta["axes"]}
    return {a["param"]: sampled[a["param"]] for a in meta["axes"]}


def run(config, out=None, threads=None, progress=False, overrides=None, overwrite=False):
    """Runs a scan on the CPU backend, as `skipstone run CONFIG --backend cpu` does; returns a Result.

    config: a dict (the JSON config as Python values) or the path of a config file.
    out: an output folder to write as the CLI does (maps, heat maps, meta.json); one that holds
        another run's outputs is refused (UsageError) unless overwrite=True.
    threads: CPU threads (default: all cores, or OMP_NUM_THREADS).
    progress: print the CLI's progress lines on stderr.
    overrides: {key path: value} set in the config before it is checked, e.g.
        {"scan.axes[0].n": 64, "parameters.eta": 0.25}.
    Bad input raises ConfigError (with .key, the key path) or UsageError, both ValueErrors.
    """
    path = os.fspath(config) if isinstance(config, (str, os.PathLike)) else None
    overrides = {} if overrides is None else overrides
    if not isinstance(overrides, Mapping):
        raise TypeError(f"overrides: expected a dict of key paths to values, got {type(overrides).__name__}")
    command = "skipstone.run(" + (repr(path) if path is not None else "<dict>")
    command += f", overrides={dict(overrides)!r})" if overrides else ")"
    observables, meta_text, sampled = _skipstone.run(
        path, None if path is not None else config, dict(overrides), None if out is None else os.fspath(out),
        bool(overwrite), 0 if threads is None else _threads(threads), bool(progress), command)
    meta = json.loads(meta_text)
    return Result(observables, _axes(meta, sampled), meta)


def _threads(threads):
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or not 1 <= threads <= _skipstone.MAX_THREADS:
        raise UsageError(f"threads {threads!r}: expected an integer in [1, {_skipstone.MAX_THREADS}] or None (all cores)")
    return int(threads)


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
    return Result(observables, _axes(meta, sampled), meta)
