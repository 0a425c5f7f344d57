"""skipstone.run: a scan in this process, as `skipstone run CONFIG` runs it."""
import json
import os

import numpy as np

from . import _skipstone
from ._config import config_arguments, describe_call
from ._result import Result, axes_of
from ._skipstone import UsageError

BACKENDS = ("auto", "cpu", "cuda")


def run(config, out=None, threads=None, progress=False, overrides=None, overwrite=False, backend="cpu"):
    """Runs a scan as `skipstone run CONFIG --backend BACKEND` does; returns a Result (with
    the outputs section's arrays in result.outputs, as load() reads them from a folder).

    config: a dict (the JSON config as Python values) or the path of a config file.
    out: an output folder to write as the CLI does (maps, heat maps, meta.json); one that holds
        another run's outputs is refused (UsageError) unless overwrite=True.
    threads: CPU threads (default: all cores, or OMP_NUM_THREADS).
    progress: print the CLI's progress lines on stderr.
    overrides: {key path: value} set in the config before it is checked, e.g.
        {"scan.axes[0].n": 64, "parameters.eta": 0.25} (the CLI's --set).
    backend: "cpu" (default), "auto" (CUDA when a device is present) or "cuda" (a UsageError,
        as from the CLI, when no device is present or the CUDA backend is not built).
    Ctrl-C stops the run between two chunks with KeyboardInterrupt; with out=, the chunks
    finished so far stay in out/.checkpoint for `skipstone run CONFIG --out OUT --resume`.
    Bad input raises ConfigError (with .key, the key path) or UsageError, both ValueErrors.
    """
    path, config, overrides = config_arguments(config, overrides)
    if backend not in BACKENDS:
        raise UsageError(f"backend {backend!r}: allowed values are {', '.join(BACKENDS)}")
    observables, meta_text, sampled, outputs = _skipstone.run(
        path, config, overrides, None if out is None else os.fspath(out), bool(overwrite),
        0 if threads is None else _threads(threads), bool(progress), backend, describe_call("run", path, overrides))
    meta = json.loads(meta_text)
    return Result(observables, axes_of(meta, sampled), meta, outputs)


def _threads(threads):
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or not 1 <= threads <= _skipstone.MAX_THREADS:
        raise UsageError(f"threads {threads!r}: expected an integer in [1, {_skipstone.MAX_THREADS}] or None (all cores)")
    return int(threads)
