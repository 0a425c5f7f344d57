"""skipstone.bench: the benchmark of `skipstone bench`, its JSON report as a dict."""
import json
import shlex

from . import _skipstone


def bench(quick=True, backend="auto", reps=None, precision="double", scaling=False, max_trajectories=None,
          progress=False):
    """Runs `skipstone bench` with these options in this process; returns the document that
    `skipstone bench --json FILE` writes (docs/performance.md): the machine, and per workload
    its rates with median and spread (doc["benchmarks"]["disc"]["backend"]["impacts"]).

    quick: the tiny workloads of --quick (seconds; the default, unlike the CLI's).
    backend, reps, precision, scaling, max_trajectories: the CLI's options (errors name them).
    progress: print the CLI's report on standard output while it runs.
    """
    args = ["--backend", str(backend), "--precision", str(precision)]
    if quick:
        args.append("--quick")
    if scaling:
        args.append("--scaling")
    if reps is not None:
        args += ["--reps", str(reps)]
    if max_trajectories is not None:
        args += ["--max-trajectories", str(max_trajectories)]
    command = "skipstone.bench(" + shlex.join(args) + ")"
    return json.loads(_skipstone.bench(args, bool(progress), command))
