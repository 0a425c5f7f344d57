"""Strong scaling of `mpirun -np N skipstone run` on this machine.

Runs the Figure-18 map (examples/figure18.json at N x N pixels) with 1 and 2 MPI ranks of
one CPU thread each, `--no-checkpoint`, a few repetitions each, and reports the median scan
time (meta.json wall_time_s: from the first chunk to the last result, without MPI start-up
and output writing) and the whole-command wall time, the speed-up and the parallel
efficiency T1 / (N T_N). Writes JSON to stdout.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def run(binary, config, ranks, out):
    cmd = ["mpirun", "--allow-run-as-root", "--oversubscribe", "-np", str(ranks), binary, "run", config,
           "--out", out, "--backend", "cpu", "--threads", "1", "--no-checkpoint", "--quiet"]
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    meta = json.load(open(os.path.join(out, "meta.json")))
    shutil.rmtree(out)
    return meta["wall_time_s"], wall


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", required=True)
    ap.add_argument("--pixels", type=int, default=512)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--ranks", default="1,2")
    a = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    cfg = json.load(open(os.path.join(root, "examples", "figure18.json")))
    for axis in cfg["scan"]["axes"]:
        axis["n"] = a.pixels
    tmp = tempfile.mkdtemp(prefix="skipstone_mpi_scaling.")
    config = os.path.join(tmp, "figure18.json")
    json.dump(cfg, open(config, "w"))
    points = []
    for ranks in [int(r) for r in a.ranks.split(",")]:
        run(a.binary, config, ranks, os.path.join(tmp, "warm"))
        scans, walls = zip(*[run(a.binary, config, ranks, os.path.join(tmp, "out")) for _ in range(a.reps)])
        points.append({"ranks": ranks, "scan_s": statistics.median(scans), "scan_s_min": min(scans),
                       "scan_s_max": max(scans), "command_s": statistics.median(walls)})
        print(f"{ranks} ranks: scan {points[-1]['scan_s']:.3f} s, command {points[-1]['command_s']:.3f} s",
              file=sys.stderr)
    one = points[0]
    for p in points:
        p["speedup"] = one["scan_s"] / p["scan_s"]
        p["efficiency"] = p["speedup"] / (p["ranks"] / one["ranks"])
        p["command_efficiency"] = one["command_s"] / p["command_s"] / (p["ranks"] / one["ranks"])
    shutil.rmtree(tmp)
    json.dump({"date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "workload": f"Figure 18 (roll4:disc-transversal), {a.pixels} x {a.pixels} grid, "
               "1 CPU thread per rank, --no-checkpoint", "reps": a.reps,
               "load_average": os.getloadavg(), "points": points}, sys.stdout, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
