"""Peak memory of `skipstone run` against the scan size: bounded memory, measured.

Runs the Figure-18 map (examples/figure18.json at n x n pixels, CPU backend, --no-checkpoint)
under /usr/bin/time -v for several n and reads "Maximum resident set size". The run holds each
requested observable as one double per trajectory (the maps, 8 B x observables x N), and the
CPU backend's one worker (its OpenMP threads share it) holds a chunk of results and their
reduction (chunk_size x (152 + 8 x observables) B; chunk_size from meta.json, capped by the
free memory and by the scan). Writing needs no map-sized copies (the PNG colour range is an
exact radix selection, host/order_statistic.*; an int8 map is N bytes). So the expected peak
is 8 B x observables x N + the chunk + a constant (the program); the script reports the
measured peak next to that model and the least-squares slope of (peak - chunk) against N in
bytes per trajectory. Writes JSON to stdout.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

RESULT_BYTES = 152  # sizeof(TrajectoryResult), include/skipstone/result.hpp


def peak_rss_bytes(binary, config, out, threads):
    cmd = ["/usr/bin/time", "-v", binary, "run", config, "--out", out, "--backend", "cpu", "--threads",
           str(threads), "--no-checkpoint", "--quiet"]
    t0 = time.perf_counter()
    p = subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - t0
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", p.stderr)
    if not m:
        raise RuntimeError("no 'Maximum resident set size' in the output of /usr/bin/time -v:\n" + p.stderr)
    meta = json.load(open(os.path.join(out, "meta.json")))
    npy = sum(os.path.getsize(os.path.join(out, f)) for f in os.listdir(out) if f.endswith(".npy"))
    shutil.rmtree(out)
    return int(m.group(1)) * 1024, wall, meta, npy


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", required=True)
    ap.add_argument("--sizes", default="256,1024,2048,4096", help="grid sides n (n x n pixels)")
    ap.add_argument("--threads", type=int, default=2)
    a = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    base = json.load(open(os.path.join(root, "examples", "figure18.json")))
    observables = len(base["observables"])
    tmp = tempfile.mkdtemp(prefix="skipstone_peak_memory.")
    points = []
    for n in [int(s) for s in a.sizes.split(",")]:
        cfg = json.loads(json.dumps(base))
        for axis in cfg["scan"]["axes"]:
            axis["n"] = n
        config = os.path.join(tmp, f"figure18_{n}.json")
        json.dump(cfg, open(config, "w"))
        rss, wall, meta, npy = peak_rss_bytes(a.binary, config, os.path.join(tmp, "out"), a.threads)
        count = n * n
        maps = 8 * observables * count
        chunks = meta["chunk_size"] * (RESULT_BYTES + 8 * observables)
        model = maps + chunks
        points.append({"n": n, "trajectories": count, "peak_rss_bytes": rss, "wall_s": wall,
                       "chunk_size": meta["chunk_size"], "maps_in_memory_bytes": maps, "npy_bytes": npy,
                       "chunk_buffer_bytes": chunks, "model_bytes_without_constant": model,
                       "rest_bytes": rss - model})
        print(f"{n} x {n}: peak RSS {rss / 2**20:.0f} MiB, maps {maps / 2**20:.0f} MiB, chunk buffers "
              f"{chunks / 2**20:.0f} MiB, rest {(rss - model) / 2**20:.0f} MiB ({wall:.1f} s)", file=sys.stderr)
    shutil.rmtree(tmp)
    xs = [p["trajectories"] for p in points]
    ys = [p["peak_rss_bytes"] - p["chunk_buffer_bytes"] for p in points]  # the chunk stops growing at its cap
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx > 0 else float("nan")
    json.dump({"date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
               "workload": f"Figure 18 (roll4:disc-transversal, examples/figure18.json), {observables} observables, "
                           f"CPU backend, {a.threads} threads, --no-checkpoint",
               "observables": observables, "threads": a.threads, "result_bytes": RESULT_BYTES,
               "model_bytes_per_trajectory": 8 * observables, "fitted_bytes_per_trajectory": slope,
               "load_average": os.getloadavg(), "points": points}, sys.stdout, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
