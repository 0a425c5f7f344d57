"""skipstone.trace: one trajectory's events (or samples) as a NumPy structured array whose
fields are the CSV columns of `skipstone trace`; the rows are recorded by the same code."""
import io
import warnings
from collections.abc import Mapping

import numpy as np

from . import _skipstone
from ._config import config_arguments
from ._skipstone import UsageError
from ._status import Status


def trace(config, index=None, coords=None, sample=None, overrides=None, max_rows=_skipstone.DEFAULT_MAX_ROWS):
    """Trajectory `index` of the scan (default 0) as `skipstone trace` records it.

    coords: instead of index, {param: value} for every scanned parameter of a grid scan: the
        grid point nearest to those values (a UsageError for a random scan or a value outside
        its axis).
    sample: a time step DT: the state at t = 0, DT, 2 DT, ... instead of the events (every
        system, as `skipstone trace --sample`).
    overrides, config: as for skipstone.run. max_rows: as --max-rows.
    Returns a structured array, one row per event (or sample or integrator step), the first
    field (event or step) int64 and the rest float64; its dtype.names are the CSV header.
    A masked start gives no rows and a warning.
    """
    path, config, overrides = config_arguments(config, overrides)
    if index is not None and coords is not None:
        raise UsageError("index and coords: give one of them")
    if index is not None and (isinstance(index, bool) or not isinstance(index, (int, np.integer)) or index < 0):
        raise UsageError(f"index {index!r}: expected an integer >= 0")
    if coords is not None and not isinstance(coords, Mapping):
        raise UsageError(f"coords: expected a dict of scanned parameters to values, got {type(coords).__name__}")
    if sample is not None and not (isinstance(sample, (int, float, np.number)) and np.isfinite(sample) and sample > 0):
        raise UsageError(f"sample {sample!r}: expected a finite number > 0")
    if isinstance(max_rows, bool) or not isinstance(max_rows, (int, np.integer)) or not 1 <= max_rows <= _skipstone.MAX_ROWS_LIMIT:
        raise UsageError(f"max_rows {max_rows!r}: expected an integer in [1, {_skipstone.MAX_ROWS_LIMIT}]")
    csv, index, status, _, _ = _skipstone.trace(
        path, config, overrides, -1 if index is None else int(index),
        None if coords is None else {str(k): float(v) for k, v in coords.items()},
        0.0 if sample is None else float(sample), int(max_rows))
    if status == Status.MASKED:
        warnings.warn(f"trajectory {index} is masked (its start lies outside the allowed set): no rows", stacklevel=2)
    return rows_of_csv(csv.decode())


def rows_of_csv(text):
    """The CSV text of a trace as a structured array: first column int64, the others float64."""
    header, _, body = text.partition("\n")
    names = header.split(",")
    dtype = np.dtype([(names[0], np.int64)] + [(n, np.float64) for n in names[1:]])
    if not body.strip():
        return np.zeros(0, dtype=dtype)
    return np.loadtxt(io.StringIO(body), delimiter=",", dtype=dtype, ndmin=1)
