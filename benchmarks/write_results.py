#!/usr/bin/python3
# Part of the skipstone benchmarks (benchmarks/run_all.sh); details in the docstring below.
"""Writes benchmarks/RESULTS.md from the JSON outputs of one benchmarks/run_all.sh run
(skipstone_throughput --json, numpy_disc.py, scipy_figure18.py, compare_figure18.py).
Reports what was measured; a target that is not reached is marked as missed.

Usage: write_results.py --throughput T.json --numpy N.json --scipy S.json --compare C.json
                        --commit HASH [--load "1.0 0.5 0.2"] [--raw DIR] --out RESULTS.md
"""
import argparse
import json
import sys

# Targets from the project's issues.
TARGET_DISC_IMPACTS = 1e8       # impacts/s, no-slip disc
TARGET_DISC_OVER_NUMPY = 6.0    # x the NumPy baseline
TARGET_FIG18_OVER_SCIPY = 1000  # x SciPy DOP853 trajectories/s, at equal or better exit_time accuracy


def e(x, digits=3):
    return "n/a" if x is None else f"{x:.{digits - 1}e}"


def ratio(x):
    return "n/a" if x is None else (f"{x:.2f}x" if x < 100 else f"{x:.0f}x")


def spread(s, digits=3):
    text = f"{e(s['median'], digits)} ({e(s['min'], 2)} – {e(s['max'], 2)})"
    if "cpu_utilisation" in s:
        text += f", cpu use {100 * s['cpu_utilisation']:.0f}%"
    return text


def verdict(ok):
    return "**met**" if ok else "**missed**"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for k in ("throughput", "numpy", "scipy", "compare", "out", "commit"):
        ap.add_argument("--" + k, required=True)
    ap.add_argument("--load", default="")
    ap.add_argument("--raw", default="")
    ap.add_argument("--quiet", default="no wait for idle cores")
    ap.add_argument("--run-seconds", type=float, default=None)
    a = ap.parse_args()
    tp = json.load(open(a.throughput))
    npd = json.load(open(a.numpy))
    sp = json.load(open(a.scipy))
    cmp_ = json.load(open(a.compare))

    b = tp["benchmarks"]
    disc, cyl, f18 = b["disc"], b["cylinder_disc_gravity"], b["figure18"]
    thr = disc["backend_all_threads"]["threads"]
    d_all = disc["backend_all_threads"]["median"]
    d_one = disc.get("backend_1_thread", {}).get("median")
    d_sc = disc["scalar_loop_1_thread"]["median"]
    np_rate = npd["impacts_per_second"]["median"]
    over_np = d_all / np_rate
    over_np_1 = d_one / np_rate if d_one else None
    rates = cmp_["rates"]
    ref = cmp_.get("reference")
    acc_ok = bool(ref and ref["skipstone_equal_or_better"])
    f18_ratio = rates["ratio_grid_unmasked_over_scipy"]
    f18_ok = f18_ratio >= TARGET_FIG18_OVER_SCIPY and acc_ok
    sv = cmp_["scipy_vs_skipstone"]
    f18_cfg = f18["config"]
    axes = f18_cfg["scan"]["axes"]
    grid = " x ".join(str(ax["n"]) for ax in axes)
    m = tp["machine"]

    L = []
    L.append("# Benchmark results")
    L.append("")
    L.append("Written by `benchmarks/run_all.sh` (`benchmarks/write_results.py`); every number below is a "
             "measurement of that run, nothing is edited by hand.")
    L.append("")
    L.append(f"- Date: {tp['date']}")
    L.append(f"- Machine: {m['cpu_model']}, {m['nproc']} cores (nproc); CPU backend with {thr} OpenMP threads")
    if a.load:
        L.append(f"- Load average before the run (1/5/15 min): {a.load}; {a.quiet}. Other jobs sharing the "
                 "cores show up as spread, as weak thread scaling and as \"cpu use\" (process CPU time / "
                 "(wall x threads)) below 100%")
    L.append(f"- Commit: `{a.commit}`")
    L.append(f"- Repetitions: 1 warm-up run, then {tp['reps']} timed runs per figure (C++ and NumPy); shown as "
             "median (min – max)")
    if a.raw:
        L.append(f"- Raw JSON of this run: `{a.raw}/`")
    L.append("")
    L.append("## Figures")
    L.append("")
    L.append("| Benchmark | Measured: median (min – max) | Unit | Ratio | Target | Status |")
    L.append("|---|---|---|---|---|---|")
    L.append(f"| No-slip disc, CPU backend, {thr} threads ({disc['trajectories']} trajectories x "
             f"{disc['config']['stop']['max_events']} impacts) | {spread(disc['backend_all_threads'])} | impacts/s | "
             f"| >= {e(TARGET_DISC_IMPACTS, 1)} impacts/s | {verdict(d_all >= TARGET_DISC_IMPACTS)} |")
    L.append(f"| NumPy baseline, same disc map, 1 thread (N = {npd['n_trajectories']}, "
             f"{npd['impacts_per_trajectory']} impacts each) | {spread(npd['impacts_per_second'])} | impacts/s | "
             f"backend {thr} threads / NumPy: {ratio(over_np)} | >= {TARGET_DISC_OVER_NUMPY:g}x NumPy | "
             f"{verdict(over_np >= TARGET_DISC_OVER_NUMPY)} |")
    if over_np_1 is not None:
        L.append(f"| (same, CPU backend on 1 thread vs NumPy on 1 thread) | | | {ratio(over_np_1)} | | |")
    L.append(f"| Scalar single-thread loop over `simulate_trajectory` (no Thrust), same disc workload | "
             f"{spread(disc['scalar_loop_1_thread'])} | impacts/s | backend {thr} threads / scalar: "
             f"{ratio(disc['ratio_backend_over_scalar'])} | | |")
    if d_one:
        L.append(f"| No-slip disc, CPU backend, 1 thread | {spread(disc['backend_1_thread'])} | impacts/s | "
                 f"scaling {thr} threads / 1: {ratio(disc['scaling_all_over_1'])} | | |")
    L.append(f"| cylinder:disc with gravity g = 1, CPU backend, {thr} threads ({cyl['trajectories']} x "
             f"{cyl['config']['stop']['max_events']} impacts) | {spread(cyl['backend_all_threads'])} | impacts/s | | | |")
    if "backend_1_thread" in cyl:
        L.append(f"| cylinder:disc with gravity, CPU backend, 1 thread | {spread(cyl['backend_1_thread'])} | "
                 f"impacts/s | scaling {thr} threads / 1: {ratio(cyl['scaling_all_over_1'])} | | |")
    L.append(f"| Figure 18 (roll4:disc-transversal), {grid} grid, CPU backend, {thr} threads, per unmasked point "
             f"({f18['unmasked']} of {f18['trajectories']}) | {spread(dict(f18['backend_all_threads']['unmasked_points'], cpu_utilisation=f18['backend_all_threads']['cpu_utilisation']))} "
             f"| trajectories/s | | | |")
    L.append(f"| Figure 18, same runs, counted over all {f18['trajectories']} grid points (masked ones are free) | "
             f"{spread(f18['backend_all_threads']['all_points'])} | trajectories/s | | | |")
    if "backend_1_thread" in f18:
        L.append(f"| Figure 18, CPU backend, 1 thread, per unmasked point | "
                 f"{spread(dict(f18['backend_1_thread']['unmasked_points'], cpu_utilisation=f18['backend_1_thread']['cpu_utilisation']))} | trajectories/s | scaling {thr} threads / 1: "
                 f"{ratio(f18['scaling_all_over_1'])} | | |")
    L.append(f"| SciPy `solve_ivp` DOP853 (rtol {sp['rtol']:g}, atol {sp['atol']:g}, dense events), "
             f"{sp['n_points']} points in the unit disc, 1 thread | {e(sp['trajectories_per_second'])} | trajectories/s | "
             f"skipstone grid (unmasked) / SciPy: {ratio(f18_ratio)}; over all grid points: "
             f"{ratio(rates['ratio_grid_all_points_over_scipy'])} | >= {TARGET_FIG18_OVER_SCIPY}x at equal or better "
             f"exit_time accuracy | {verdict(f18_ok)} |")
    L.append(f"| skipstone on the same {sp['n_points']} points, one at a time, 1 thread | "
             f"{e(rates['skipstone_sample_1_thread_trajectories_per_second'])} | trajectories/s | 1 thread / SciPy "
             f"(1 thread): {ratio(rates['ratio_sample_1_thread_over_scipy'])} | | |")
    L.append(f"| Max \\|exit_time difference\\| SciPy vs skipstone (rtol = atol = {cmp_['skipstone']['rtol']:g}), "
             f"{sv['compared']} points exited on the same side, {sv['side_mismatches']} side mismatches | "
             f"{e(sv['max_abs_diff'])} (median {e(sv['median_abs_diff'], 2)}) | time units | | | |")
    see = ", see below" if cmp_.get("gross_points") else ""
    L.append(f"| points of those with \\|difference\\| > {sv['gross_threshold']:g} (a different exit{see}); "
             f"max \\|difference\\| over the others | {sv['gross_differences']}; "
             f"{e(sv['max_abs_diff_without_gross'])} | points; time units | | | |")
    if ref:
        se, ce, ct = ref["scipy_error"], ref["skipstone_error"], ref["skipstone_1e-13_vs_reference"]
        L.append(f"| Exit-time error vs reference (DOP853 at rtol {ref['rtol']:g}, atol {ref['atol']:g}; "
                 f"{ref['points']} points): SciPy benchmark setting | {e(se['max_abs_diff'])} max "
                 f"(median {e(se['median_abs_diff'], 2)}) | time units | | | |")
        L.append(f"| same: skipstone benchmark setting | {e(ce['max_abs_diff'])} max (median "
                 f"{e(ce['median_abs_diff'], 2)}; differences > {ce['gross_threshold']:g} at {ce['gross_differences']} of "
                 f"{ce['compared']} points, "
                 f"max over the others {e(ce['max_abs_diff_without_gross'])}) | time units | | skipstone error <= "
                 f"SciPy error | {verdict(ref['skipstone_equal_or_better'])} |")
        L.append(f"| reference cross-check: skipstone at rtol = atol = 1e-13 vs the SciPy reference | "
                 f"{e(ct['max_abs_diff'])} max | time units | | | |")
    L.append("")
    gp = cmp_.get("gross_points", [])
    if gp:
        L.append("## Exit-time disagreements")
        L.append("")
        L.append(f"{sv['gross_differences']} of the {sv['compared']} sample points: exit times differing by more "
                 f"than {sv['gross_threshold']:g} between SciPy and skipstone with the same exit side. Crossings of "
                 "phi = 0 and phi = pi along a tight (rtol 1e-12) non-terminal DOP853 solution, from "
                 "compare_figure18.py:")
        L.append("")
        L.append("| v2 | S12 | SciPy exit_time | reference | skipstone 1e-11 | skipstone 1e-13 | crossings of the "
                 "non-terminal solution |")
        L.append("|---|---|---|---|---|---|---|")
        for g in gp:
            cr = ", ".join(f"{c['level']} {c['direction']} at t = {c['t']:.4f}" for c in g["diagnosis"]["crossings"])
            ex = g["diagnosis"].get("first_excursion")
            if ex:
                cr += f" (first excursion below phi = 0 lasts {ex['to'] - ex['from']:.3f}, min phi {ex['min_phi']:.3g})"
            L.append(f"| {g['v2']:.6f} | {g['S12']:.6f} | {g['scipy_exit_time']:.10g} | "
                     f"{g['reference_exit_time'] if g['reference_exit_time'] is None else format(g['reference_exit_time'], '.10g')} | "
                     f"{g['skipstone_exit_time']:.10g} | {g['skipstone_1e-13_exit_time']:.10g} | {cr} |")
        L.append("")
        missed = [g for g in gp if g["diagnosis"].get("first_excursion") and g["skipstone_exit_time"] is not None
                  and g["skipstone_exit_time"] > g["diagnosis"]["first_excursion"]["from"] + 1e-6]
        if missed:
            text = (f"In {len(missed)} of {len(gp)} the first crossing starts an excursion below phi = 0 (its "
                    "duration is in the table) and skipstone reports a later crossing: its exit detection (the "
                    "sign of sin phi is tested only at the ends of integrator steps, "
                    "include/skipstone/rolling/disc_transversal.hpp) stepped over the exit that SciPy's event "
                    "location found.")
            if ref:
                se, ce = ref["scipy_error"], ref["skipstone_error"]
                rest = ce["max_abs_diff_without_gross"]
                if se["gross_differences"] == 0 and rest is not None and rest <= se["max_abs_diff"]:
                    text += (f" Without those points skipstone's error against the reference ({e(rest)}) would be "
                             f"below SciPy's ({e(se['max_abs_diff'])}); the verdict counts them.")
            L.append(text)
            L.append("")
    L.append("## How it was measured")
    L.append("")
    L.append("- `skipstone_throughput` (benchmarks/throughput.cpp) builds each config in code through "
             "`parse_config` and times `cpu::run_chunk` over the whole scan with `std::chrono::steady_clock` "
             f"({thr} threads, then `cpu::set_threads(1)`). The disc uses gamma = 0.8164965809, boundary start, "
             "a random scan of angle in [-1.4, 1.4] and spin in [-1, 1]; impacts/s = sum of `events` / wall. "
             "The cylinder:disc run uses g = 1, impact start, angle in [0.8, 1.5], slip in [-0.2, 0.2], vz = 0. "
             "The kernel always computes every observable.")
    L.append("- Figure 18: R = r = 1, eta = 0.5, grid v2 x S12 over [-1, 1]^2, t_max 200, rtol = atol = 1e-11 "
             "(GBS order 12 with projection). The integrator's step count is not exposed, so only "
             "trajectories/s is reported; points outside the unit disc are `masked` (status 7) and cost "
             "nothing, hence two counts. The SciPy sample is uniform in the disc, so the per-unmasked-point "
             "rate is the one compared against the target.")
    L.append("- NumPy (benchmarks/numpy_disc.py): the same map vectorised over trajectories with in-place "
             "array operations, including the per-impact energy check and rescale, height and chord "
             "observables; NumPy runs on one thread.")
    L.append("- SciPy (benchmarks/scipy_figure18.py): the ODEs of Proposition 12 in plain Python, terminal "
             "events phi = 0 (decreasing) and phi = pi (increasing). compare_figure18.py evaluates the same "
             "points with skipstone (`skipstone_throughput --figure18-points`) and compares exit sides and "
             "times; the accuracy verdict uses an independent tight-tolerance DOP853 reference.")
    if a.run_seconds is not None:
        L.append(f"- Whole run (build check included): {a.run_seconds:.0f} s.")
    L.append("")
    with open(a.out, "w") as f:
        f.write("\n".join(L))
    return 0


if __name__ == "__main__":
    sys.exit(main())
