#!/usr/bin/python3
# Part of the skipstone benchmarks (scripts/gpu_check.sh); details in the docstring below.
"""Writes gpu_results.md from one scripts/gpu_check.sh run: the `skipstone bench` figures on the
CUDA backend and on the CPU of the same machine side by side (GPU / CPU ratios), the fraction of
the FP64 peak, the issue targets, the CUDA scaling and the register use / occupancy, for
benchmarks/RESULTS.md.

Usage: write_gpu_results.py --dir OUT_DIR --commit HASH --out gpu_results.md
(reads from OUT_DIR whichever of these the check wrote: bench_cpu.json, bench_cuda.json,
scaling_cuda.json, run_cuda_vs_cpu.json (benchmarks/compare_maps.py), occupancy.txt,
cuda_tests.txt (test_backends' output), nvidia_smi.txt, build_info.txt)
"""
import argparse
import json
import os
import sys

TARGET_GPU_DISC = 1e11   # impacts/s, no-slip disc on an H200 (double)
TARGET_GPU_FIG18_S = 1.0  # seconds for the 4096 x 4096 Figure-18 map

# workload key -> the rates shown (JSON key, unit)
RATES = {"disc": [("impacts", "impacts/s")], "cylinder_disc_gravity": [("impacts", "impacts/s")],
         "figure18": [("all_points", "trajectories/s"), ("steps", "steps/s")],
         "roll4_disc_gravity": [("steps", "steps/s")], "roll4_table_disc_gravity": [("steps", "steps/s")],
         "roll4_stadium_gravity": [("steps", "steps/s")], "roll4_ellipse_gravity": [("steps", "steps/s")],
         "roll3_stadium_gravity": [("steps", "steps/s")], "roll3_ellipse_gravity": [("steps", "steps/s")],
         "roll3_stadium_rim_map": [("all_points", "trajectories/s")]}


def load(d, name):
    p = os.path.join(d, name)
    return json.load(open(p)) if os.path.exists(p) else None


def e(x):
    return "n/a" if x is None else f"{x:.3e}"


def med(doc, key, rate):
    if doc is None or key not in doc["benchmarks"]:
        return None
    return doc["benchmarks"][key]["backend"][rate]["median"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", required=True)
    ap.add_argument("--commit", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    cpu, gpu, scal = load(a.dir, "bench_cpu.json"), load(a.dir, "bench_cuda.json"), load(a.dir, "scaling_cuda.json")
    first = cpu or gpu
    if first is None:
        print("write_gpu_results: neither bench_cpu.json nor bench_cuda.json in " + a.dir, file=sys.stderr)
        return 1
    m = first["machine"]
    L = ["# GPU check", "", f"- Date: {first['date']}; commit `{a.commit}`",
         f"- CPU: {m['cpu_model']}, {m['cores']} cores"
         + (f"; load average at the CPU bench {cpu['loadavg_start']}" if cpu else "; the CPU bench did not run")]
    if gpu:
        g = gpu["machine"]["gpu"]
        L.append(f"- GPU: {g['name']} (sm {g['compute_capability']}, {g['multiprocessors']} SMs, "
                 f"{g['clock_mhz']:.0f} MHz); FP64 peak {e(g['fp64_peak_flops'])} flop/s (data sheet)")
    else:
        L.append("- GPU: none (CPU-only run)")
    if (cpu and cpu.get("quick")) or (gpu and gpu.get("quick")):
        L.append("- **--quick run: smoke-test sizes, not figures**")
    L += ["", "| Workload | Rate | CUDA median | CPU median | CUDA / CPU |", "|---|---|---|---|---|"]
    for key, rates in RATES.items():
        for rate, unit in rates:
            c, gv = med(cpu, key, rate), med(gpu, key, rate)
            r = f"{gv / c:.1f}x" if c and gv else "n/a"
            L.append(f"| {key} | {unit} | {e(gv)} | {e(c)} | {r} |")
    L.append("")
    if gpu:
        d = gpu["benchmarks"]["disc"]["backend"]
        f18 = gpu["benchmarks"]["figure18"]
        n = " x ".join(str(ax["n"]) for ax in f18["config"]["scan"]["axes"])
        wall = f18["backend"]["wall_seconds"]["median"]
        L.append(f"- Disc FP64 rate ({gpu['flops_per_impact_disc']:g} flop/impact): {e(d.get('fp64_flops'))} flop/s, "
                 f"{100 * d['fraction_of_fp64_peak']:.2f}% of peak" if "fraction_of_fp64_peak" in d
                 else "- Disc FP64 fraction of peak: GPU not in the peak table")
        fb = f18["backend"]
        if "fraction_of_fp64_peak" in fb:
            L.append(f"- Figure-18 FP64 rate ({gpu['flops_per_step_figure18']:g} flop/GBS step, a lower bound): "
                     f"{e(fb['fp64_flops'])} flop/s, {100 * fb['fraction_of_fp64_peak']:.2f}% of peak")
        ok = med(gpu, "disc", "impacts") >= TARGET_GPU_DISC
        L.append(f"- Target >= {TARGET_GPU_DISC:.0e} impacts/s (disc): {'met' if ok else 'missed'}")
        L.append(f"- Figure-18 map {n}: {wall:.3f} s per map (results copied back included); target <= "
                 f"{TARGET_GPU_FIG18_S:g} s for 4096 x 4096: {'met' if n == '4096 x 4096' and wall <= 1 else 'missed'}")
        L.append("")
    if gpu:
        floats = [(k, w["float"]) for k, w in gpu["benchmarks"].items() if isinstance(w.get("float"), dict)]
        if floats:
            L += ["## CUDA float kernels against double (same trajectories)", "",
                  "| Workload | Rate | float median | float / double | outcome differs | max \\|float - double\\| |",
                  "|---|---|---|---|---|---|"]
            for key, f in floats:
                rate, unit = RATES[key][0]
                a_ = f["accuracy_vs_double"]
                diffs = ", ".join(f"{n} {e(o['abs_diff_max'])}" for n, o in a_["observables"].items())
                L.append(f"| {key} | {unit} | {e(f['backend'][rate]['median'])} | "
                         f"{f['throughput_float_over_double']:.2f}x | {a_['outcome_differs']} of "
                         f"{a_['trajectories_compared']} | {diffs} |")
            L.append("")
    if scal:
        L += ["## CUDA scaling (no-slip disc, 100 impacts per trajectory)", "",
              "| Trajectories | impacts/s | time per call | calls per sample |", "|---|---|---|---|"]
        L += [f"| {p['trajectories']:.0e} | {e(p['impacts']['median'])} | {e(p['wall_seconds']['median'])} s | "
              f"{p.get('calls_per_sample', 1)} |" for p in scal["scaling"]["trajectories"]]
        L.append("")
    runs = load(a.dir, "run_cuda_vs_cpu.json")
    if runs:
        L += ["## `skipstone run examples/figure18.json`: CUDA maps against the CPU backend's", "",
              f"Status counts: CUDA {json.dumps(runs['status_counts_b'])}, CPU {json.dumps(runs['status_counts_a'])}", "",
              "| Map | values | differ / defined in one run only | max \\|diff\\| | median \\|diff\\| | max relative |",
              "|---|---|---|---|---|---|"]
        for name, c in runs["maps"].items():
            if "differ" in c:
                L.append(f"| {name} | {c.get('values', 'n/a')} | {c['differ']} | | | |")
            else:
                L.append(f"| {name} | {c['values']} | {c['defined_in_one_only']} | {e(c['abs_diff_max'])} | "
                         f"{e(c['abs_diff_median'])} | {e(c['rel_diff_max'])} |")
        L.append("")
    for name, title in (("occupancy.txt", "Register use and occupancy"), ("cuda_tests.txt", "CUDA tests (test_backends)"),
                        ("nvidia_smi.txt", "nvidia-smi"), ("build_info.txt", "Build (scripts/gpu_bundle.sh)")):
        p = os.path.join(a.dir, name)
        if os.path.exists(p):
            lines = open(p).read().strip().splitlines()
            if name == "cuda_tests.txt":  # gtest's verdicts and the agreement margins it printed
                lines = [l for l in lines if l.startswith(("[  PASSED", "[  FAILED", "[  SKIPPED", "[==========]"))
                         or "vs CPU" in l or "Failure" in l] or lines[-3:]
            L += [f"## {title}", "", "```", *lines, "```", ""]
    with open(a.out, "w") as f:
        f.write("\n".join(L))
    return 0


if __name__ == "__main__":
    sys.exit(main())
