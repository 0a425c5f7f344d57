"""skipstone from Python: run a scan and get its maps as NumPy arrays, load a run's outputs,
trace one trajectory, benchmark the machine.

    import skipstone
    r = skipstone.run("examples/figure18.json", overrides={"scan.axes[0].n": 64, "scan.axes[1].n": 64})
    r["exit_side"]                    # shaped like the grid: (n1, n0), row = axis 1
    r.axes["v2"], r.status_counts, r.meta
    (r["status"] == skipstone.MASKED).sum()
    r2 = skipstone.load("out/figure18")   # the same Result from a `skipstone run` output folder
    rows = skipstone.trace("examples/figure18.json", coords={"v2": 0.1, "S12": 0.3})
    rows["t"], rows["v1"]

run() is `skipstone run CONFIG` in this process: the same config checks, kernels and outputs;
trace() and bench() are `skipstone trace` and `skipstone bench --json`; `python3 -m
skipstone.plot DIR` draws a run's maps for publication (docs/python.md).
"""
from ._bench import bench
from ._result import Result, load
from ._run import run
from ._skipstone import ConfigError, UsageError
from ._status import OK_STATUSES, STATUS_NAMES, Status, status_name
from ._trace import trace

__all__ = ["run", "load", "trace", "bench", "Result", "Status", "status_name", "STATUS_NAMES", "OK_STATUSES",
           "ConfigError", "UsageError"]

globals().update(Status.__members__)  # skipstone.FINISHED, ..., skipstone.MASKED
__all__ += list(Status.__members__)
