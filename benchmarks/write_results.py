#!/usr/bin/python3
# Part of the skipstone benchmarks (benchmarks/run_all.sh); details in the docstring below.
"""Writes benchmarks/RESULTS.md from the JSON outputs of one benchmarks/run_all.sh run
(skipstone bench --json, skipstone bench --scaling --json, numpy_disc.py, scipy_figure18.py,
compare_figure18.py).
Reports what was measured; a target that is not reached is marked as missed.

Usage: write_results.py --bench B.json --scaling SC.json --numpy N.json --scipy S.json
                        --compare C.json --commit HASH [--load "1.0 0.5 0.2"] [--raw DIR] --out RESULTS.md
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


def seconds(t):
    return f"{t:.3g} s" if t >= 1 else f"{1e3 * t:.3g} ms" if t >= 1e-3 else f"{1e6 * t:.3g} µs"


def rate(entry, name):
    """The spread of one rate of a bench measurement, with the measurement's CPU utilisation."""
    r = dict(entry[name])
    if "cpu_utilisation" in entry:
        r["cpu_utilisation"] = entry["cpu_utilisation"]
    return r


def fixed_cost_fit(sizes):
    """Least-squares fit of the time of one call, t = a + b N (relative residuals), over the sizes:
    a is what a call costs whatever its size (waking the threads, the chunk, the reduction), b the
    cost of one trajectory. Returns (a, b) in seconds, or None with fewer than two sizes."""
    if len(sizes) < 2:
        return None
    # minimise sum(((a + b N - t) / t)^2): normal equations of a 2x2 weighted linear fit
    saa = sab = sbb = sa = sb = 0.0
    for p in sizes:
        t, n = p["wall_seconds"]["median"], float(p["trajectories"])
        w = 1.0 / (t * t)
        saa += w
        sab += w * n
        sbb += w * n * n
        sa += w * t
        sb += w * t * n
    det = saa * sbb - sab * sab
    if det <= 0:
        return None
    return (sa * sbb - sb * sab) / det, (saa * sb - sab * sa) / det


def scaling_notes(s):
    """Plain-language reading of the scaling tables: where throughput drops, and why."""
    notes = []
    sizes = s["trajectories"]
    best = max(p["impacts"]["median"] for p in sizes)
    fit = fixed_cost_fit(sizes)
    if fit and fit[0] > 0:
        a, b = fit
        notes.append(f"- Time of one run against its size (least squares over the sizes): {1e6 * a:.0f} µs whatever the size "
                     f"(waking the threads, the chunk buffer, the reduction) plus {1e9 * b:.0f} ns per trajectory; "
                     f"the fixed part is {100 * a / (a + b * sizes[0]['trajectories']):.0f}% of a run of "
                     f"{sizes[0]['trajectories']:.0e} trajectories and {100 * a / (a + b * sizes[-1]['trajectories']):.2g}% "
                     f"of one of {sizes[-1]['trajectories']:.0e}: this is why small scans run below the best rate.")
    low = [p for p in sizes if p["impacts"]["median"] < 0.9 * best]
    if not low:
        notes.append(f"- Against the number of trajectories the rate stays within 10% of its best ({e(best)}).")
    for p in low:
        # the shortfall against the best rate, in parts: the fixed cost of a run (fit above), the
        # threads' time other jobs took (1 - cpu use), and what neither accounts for
        n = p["trajectories"]
        shortfall = 1.0 - p["impacts"]["median"] / best
        fixed = fit[0] / (fit[0] + fit[1] * n) if fit and fit[0] > 0 else 0.0
        load = max(0.0, 1.0 - p["cpu_utilisation"])
        rest = shortfall - fixed - load
        parts = []
        if fixed >= 0.01:
            parts.append(f"{100 * fixed:.0f} points the fixed cost of a run (fit above)")
        if load >= 0.01:
            parts.append(f"{100 * load:.0f} points other jobs on the cores (cpu use {100 * p['cpu_utilisation']:.0f}%)")
        parts.append(f"{100 * rest:.0f} points not explained by either" if rest > 0.03 else "nothing else")
        notes.append(f"- N = {n:.0e}: {100 * (1 - shortfall):.0f}% of the best rate; of the {100 * shortfall:.0f} points "
                     f"short: {', '.join(parts)}.")
    th = s.get("threads", [])
    if len(th) > 1:
        one = th[0]["impacts"]["median"]
        for p in th[1:]:
            eff = p["impacts"]["median"] / (p["threads"] * one)
            notes.append(f"- {p['threads']} threads: {p['impacts']['median'] / one:.2f}x the 1-thread rate "
                         f"({100 * eff:.0f}% parallel efficiency) at {100 * p['cpu_utilisation']:.0f}% cpu use"
                         + ("; the shortfall follows the cpu use, i.e. other jobs took the cores"
                            if eff < 0.9 and p["cpu_utilisation"] < 0.9 else "") + ".")
    return notes + [""]


def verdict(ok):
    return "**met**" if ok else "**missed**"


def memory_section(m):
    """Peak memory against scan size (benchmarks/peak_memory.py)."""
    mib = 2.0 ** 20
    L = ["## Peak memory against scan size", "",
         f"`benchmarks/peak_memory.py`: `/usr/bin/time -v skipstone run` on {m['workload']}, measured "
         f"{m['date']} (load average at the end: " + " ".join(f"{x:.2f}" for x in m["load_average"]) + "). "
         f"Maps: the {m['observables']} requested observables held as one double each per trajectory; chunk: "
         f"the worker's results and their reduction, chunk_size x ({m['result_bytes']} + 8 x {m['observables']}) B; "
         "rest: peak minus both.", "",
         "| Grid | Trajectories | Peak RSS (MiB) | Maps (MiB) | chunk_size | Chunk (MiB) | Rest (MiB) | Scan + writing (s) |",
         "|---|---|---|---|---|---|---|---|"]
    for p in m["points"]:
        L.append(f"| {p['n']} x {p['n']} | {p['trajectories']:.3g} | {p['peak_rss_bytes'] / mib:.0f} | "
                 f"{p['maps_in_memory_bytes'] / mib:.0f} | {p['chunk_size']} | {p['chunk_buffer_bytes'] / mib:.0f} | "
                 f"{p['rest_bytes'] / mib:.0f} | {p['wall_s']:.1f} |")
    rest = [p["rest_bytes"] / mib for p in m["points"]]
    L += ["", f"- Peak minus chunk grows by {m['fitted_bytes_per_trajectory']:.1f} B per trajectory (least squares; "
          f"the maps are {m['model_bytes_per_trajectory']} B); the rest stays between {min(rest):.0f} and "
          f"{max(rest):.0f} MiB: peak memory is the output maps plus the chunk (capped by the free memory) plus a "
          "constant, whatever the number of trajectories.", ""]
    return L


def kernels_section(k):
    """Registers, stack and spills of the CUDA kernels (benchmarks/kernel_resources.py)."""
    L = ["## CUDA kernels: registers and occupancy (from the compiler)", "",
         f"`benchmarks/kernel_resources.py`: ptxas -v of kernels/ensemble_cuda.cu for {k['arch']} ({k['nvcc']}), "
         f"measured {k['date']}, one kernel per model variant. Occupancy: register-limited, blocks of "
         f"{k['block_threads']} threads, 65536 registers and 64 warps per multiprocessor — a static figure "
         "(no GPU was used; Nsight's achieved occupancy is recorded by scripts/gpu_check.sh where ncu exists). "
         "Stack: local memory per thread (the scan point's parameter array, indexed at run time, and the "
         "integrator's arrays); spills: registers stored to local memory.", "",
         "Gravity: `any` is the kernel of no-slip scans with gravity somewhere (and of the rolling models), `none` "
         "the one of no-slip scans with g = 0 everywhere (compiled without the gravity code). Lyapunov: the "
         "kernel of scans that ask for Lyapunov exponents (carrying tangent vectors).", "",
         "| Model | Table | Precision | Gravity | Lyapunov | Registers | Stack (B) | Spill stores / loads (B) | Occupancy |",
         "|---|---|---|---|---|---|---|---|---|"]
    for r in k["kernels"]:
        L.append(f"| {r['model']} | {r['table']} | {r['precision']} | {r.get('gravity', 'any')} | "
                 f"{'yes' if r.get('lyapunov') else 'no'} | {r['registers']} | "
                 f"{r['stack_bytes']} | "
                 f"{r['spill_store_bytes']} / {r['spill_load_bytes']} | {100 * r['occupancy']:.1f}% |")
    L.append("")
    return L


def float_rows(L, w, label, rate_key, unit, accuracy_label, outcome_extra):
    """Rows of a workload's float run (skipstone bench --precision float): its throughput and its
    accuracy against the double run of the same trajectories."""
    f = w.get("float")
    if not isinstance(f, dict):
        return
    a = f["accuracy_vs_double"]
    rtol = f["config"]["options"]["rtol"]
    L.append(f"| {label.format(rtol=rtol)} | {spread(rate(f['backend'], rate_key))} | {unit} | float / double: "
             f"{ratio(f['throughput_float_over_double'])} | | |")
    diffs = "; ".join(f"\\|{name} difference\\| {e(o['abs_diff_max'])} max (median {e(o['abs_diff_median'], 2)}) "
                      f"over {o['compared']}" for name, o in a["observables"].items())
    outcome = "status" + (f" or {outcome_extra}" if outcome_extra else "")
    L.append(f"| {accuracy_label}: {diffs} trajectories ending alike | {outcome} differs on {a['outcome_differs']} of "
             f"{a['trajectories_compared']} ({100 * a['outcome_differs_fraction']:.2f}%) | trajectories | float energy "
             f"error max {e(a['energy_error_max_float'], 2)} | | |")


ROLLING_TABLES = [("roll4_table_disc_gravity", "roll4:stadium with half_length 0 (the disc through the general table model), "
                   "roll4:disc's setting"),
                  ("roll4_stadium_gravity", "roll4:stadium (half_length 1, R 1) with gravity, roll4:disc's setting"),
                  ("roll4_ellipse_gravity", "roll4:ellipse (a 2, b 1) with gravity, roll4:disc's setting"),
                  ("roll3_stadium_gravity", "roll3:stadium with in-plane gravity g_effective 1"),
                  ("roll3_ellipse_gravity", "roll3:ellipse (a 2, b 1) with in-plane gravity g_effective 1"),
                  ("roll3_stadium_rim_map", "roll3:stadium `rim_entry` exit map (8 wall points x v2 x S12)")]


def rolling_table_rows(L, b, thr):
    """Rows of the general rolling tables (the double kernels), with their rates over the dedicated disc
    kernel's of the same run (roll4:disc for roll4, the Figure-18 map for roll3)."""
    for key, title in ROLLING_TABLES:
        w = b.get(key)
        if w is None:
            continue
        first = "steps"
        per = (f"{e(w['backend']['trajectories']['median'])} trajectories/s" if "trajectories" in w["backend"]
               else f"{e(w['backend']['unmasked_points']['median'])} unmasked points/s")
        over = w.get("over_baseline", {})
        ratio_text = ""
        if "all_threads" in over:
            ratio_text = f"steps/s over {over['baseline']}: {ratio(over['all_threads'].get('steps'))}"
        L.append(f"| {title}, {w['trajectories']} trajectories ({w['steps']} GBS steps, {w['events']} edge passages per "
                 f"run), CPU backend, {thr} threads | {spread(rate(w['backend'], first))} | steps/s | {per}; {ratio_text} | | |")
        if "backend_1_thread" in w:
            L.append(f"| same, CPU backend, 1 thread | {spread(rate(w['backend_1_thread'], first))} | steps/s | "
                     f"scaling {thr} threads / 1: {ratio(w['scaling_all_over_1'])} | | |")


def lyapunov_rows(L, b, thr):
    """The cost of the tangent dynamics: cylinder:stadium with the largest Lyapunov exponent, its
    impacts/s over those of the plain run of the same scan (all threads, and on the CPU on 1 thread
    side by side)."""
    plain, lyap = b.get("cylinder_stadium"), b.get("cylinder_stadium_lyapunov")
    if plain is None or lyap is None:
        return
    L.append(f"| cylinder:stadium with gravity g = 0.4, CPU backend, {thr} threads ({plain['trajectories']} x "
             f"{plain['config']['stop']['max_events']} impacts) | {spread(rate(plain['backend'], 'impacts'))} | impacts/s | | | |")
    over = lyap.get("over_baseline", {})
    text = f"over the plain run: {ratio(over.get('all_threads', {}).get('impacts'))}"
    if "1_thread_side_by_side" in over:
        text += f"; 1 thread side by side: {ratio(over['1_thread_side_by_side'].get('impacts'))}"
    L.append(f"| same scan with `lyapunov` (tangent dynamics), CPU backend, {thr} threads | "
             f"{spread(rate(lyap['backend'], 'impacts'))} | impacts/s | {text} | | |")


def side_by_side_section(tp):
    """The rolling tables and their baselines timed side by side on one thread."""
    sbs = tp.get("side_by_side_1_thread")
    if not sbs:
        return []
    b = tp["benchmarks"]
    L = ["## Rolling tables against the dedicated disc kernels (1 thread, side by side)", "",
         f"`skipstone bench` times these runs again on one thread, one sample of each per round ({tp['reps']} rounds, "
         "samples of at least 0.1 s), so that other jobs on the machine slow them alike. Ratios: the median rate over "
         "the baseline's median rate (below 1: slower). roll4:disc runs 8 rim passages per SIMD register; its scalar "
         "loop and the general tables one trajectory at a time.", "",
         "| Run | steps/s | trajectories/s | cpu use | steps/s over baseline | over roll4:disc's scalar loop |",
         "|---|---|---|---|---|---|"]
    for run, m in sbs.items():
        if "steps" not in m:  # the Lyapunov pair (impacts/s): its ratio is in the figures
            continue
        key = run.split(" ")[0]
        over = b.get(key, {}).get("over_baseline", {}) if " " not in run else {}
        traj = m.get("trajectories", m.get("unmasked_points"))
        L.append(f"| {run} | {spread(m['steps'])} | {e(traj['median'])} | {100 * m['cpu_utilisation']:.0f}% | "
                 + (f"{ratio(over['1_thread_side_by_side'].get('steps'))} ({over['baseline']})"
                    if "1_thread_side_by_side" in over else "") + " | "
                 + (ratio(over["1_thread_side_by_side_over_scalar_loop"].get("steps"))
                    if "1_thread_side_by_side_over_scalar_loop" in over else "") + " |")
    L.append("")
    return L


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for k in ("bench", "scaling", "numpy", "scipy", "compare", "out", "commit"):
        ap.add_argument("--" + k, required=True)
    ap.add_argument("--load", default="")
    ap.add_argument("--raw", default="")
    ap.add_argument("--quiet", default="no wait for idle cores")
    ap.add_argument("--run-seconds", type=float, default=None)
    ap.add_argument("--mpi", default="", help="JSON of benchmarks/mpi_scaling.py (optional)")
    ap.add_argument("--memory", default="", help="JSON of benchmarks/peak_memory.py (optional)")
    ap.add_argument("--kernels", default="", help="JSON of benchmarks/kernel_resources.py (optional)")
    a = ap.parse_args()
    tp = json.load(open(a.bench))
    sc = json.load(open(a.scaling))
    npd = json.load(open(a.numpy))
    sp = json.load(open(a.scipy))
    cmp_ = json.load(open(a.compare))

    b = tp["benchmarks"]
    disc, cyl, f18, r4 = b["disc"], b["cylinder_disc_gravity"], b["figure18"], b["roll4_disc_gravity"]
    thr = disc["backend"]["threads"]
    d_all = disc["backend"]["impacts"]["median"]
    d_one = disc["backend_1_thread"]["impacts"]["median"] if "backend_1_thread" in disc else None
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
    pk = m["cpu_fp64_peak_measured"]

    L = []
    L.append("# Benchmark results")
    L.append("")
    L.append("Written by `benchmarks/run_all.sh` (`benchmarks/write_results.py`); every number below is a "
             "measurement of that run, nothing is edited by hand.")
    L.append("")
    L.append(f"- Date: {tp['date']}")
    L.append(f"- Machine: {m['cpu_model']}, {m['cores']} cores; CPU backend with {thr} OpenMP threads; measured "
             f"FP64 FMA peak ({pk['isa']}) {e(pk['flops_1_thread'])} flop/s on 1 thread, "
             f"{e(pk['flops_all_threads'])} on {pk['threads']}")
    L.append(f"- Load average (1/5/15 min) at the start of `skipstone bench`: {tp['loadavg_start']}, at its end: "
             f"{tp['loadavg_end']}; of the scaling run: {sc['loadavg_start']} and {sc['loadavg_end']}")
    if a.load:
        L.append(f"- Load average before the run (1/5/15 min): {a.load}; {a.quiet}. Other jobs sharing the "
                 "cores show up as spread, as weak thread scaling and as \"cpu use\" (process CPU time / "
                 "(wall x threads)) below 100%")
    util = [x.get("cpu_utilisation", 1.0) for w in b.values() for x in (w["backend"],)]
    if min(util) < 0.9:
        L.append(f"- **Measured under load**: other jobs shared the cores during this run (cpu use of the "
                 f"multi-threaded runs {100 * min(util):.0f}–{100 * max(util):.0f}% instead of ~100%), so every "
                 "rate below is lower, and the thread scaling weaker, than on an idle machine.")
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
             f"{disc['config']['stop']['max_events']} impacts) | {spread(rate(disc['backend'], 'impacts'))} | impacts/s | "
             f"| >= {e(TARGET_DISC_IMPACTS, 1)} impacts/s | {verdict(d_all >= TARGET_DISC_IMPACTS)} |")
    L.append(f"| (same runs) FP64 rate at {tp['flops_per_impact_disc']:g} flop per impact | "
             f"{e(disc['backend']['fp64_flops'])} | flop/s | {100 * disc['backend']['fraction_of_fp64_peak']:.1f}% of "
             f"the measured peak | | |")
    L.append(f"| NumPy baseline, same disc map, 1 thread (N = {npd['n_trajectories']}, "
             f"{npd['impacts_per_trajectory']} impacts each) | {spread(npd['impacts_per_second'])} | impacts/s | "
             f"backend {thr} threads / NumPy: {ratio(over_np)} | >= {TARGET_DISC_OVER_NUMPY:g}x NumPy | "
             f"{verdict(over_np >= TARGET_DISC_OVER_NUMPY)} |")
    if over_np_1 is not None:
        L.append(f"| (same, CPU backend on 1 thread vs NumPy on 1 thread) | | | {ratio(over_np_1)} | | |")
    L.append(f"| Scalar single-thread loop, one trajectory at a time (`simulate_variant`, no Thrust), same disc workload | "
             f"{spread(rate(disc['scalar_loop_1_thread'], 'impacts'))} | impacts/s | backend {thr} threads / scalar: "
             f"{ratio(disc['ratio_backend_over_scalar'])} | | |")
    if d_one:
        L.append(f"| No-slip disc, CPU backend, 1 thread | {spread(rate(disc['backend_1_thread'], 'impacts'))} | impacts/s | "
                 f"scaling {thr} threads / 1: {ratio(disc['scaling_all_over_1'])} | | |")
    float_rows(L, disc, f"No-slip disc, **float** kernel, CPU backend, {thr} threads", "impacts", "impacts/s",
               "No-slip disc float vs double, same trajectories", None)
    L.append(f"| cylinder:disc with gravity g = 1, CPU backend, {thr} threads ({cyl['trajectories']} x "
             f"{cyl['config']['stop']['max_events']} impacts) | {spread(rate(cyl['backend'], 'impacts'))} | impacts/s | | | |")
    if "backend_1_thread" in cyl:
        L.append(f"| cylinder:disc with gravity, CPU backend, 1 thread | {spread(rate(cyl['backend_1_thread'], 'impacts'))} | "
                 f"impacts/s | scaling {thr} threads / 1: {ratio(cyl['scaling_all_over_1'])} | | |")
    float_rows(L, cyl, f"cylinder:disc with gravity, **float** kernel, CPU backend, {thr} threads", "impacts", "impacts/s",
               "cylinder:disc float vs double, same trajectories", None)
    lyapunov_rows(L, b, thr)
    L.append(f"| Figure 18 (roll4:disc-transversal), {grid} grid, CPU backend, {thr} threads, per unmasked point "
             f"({f18['unmasked']} of {f18['trajectories']}) | {spread(rate(f18['backend'], 'unmasked_points'))} "
             f"| trajectories/s | | | |")
    L.append(f"| Figure 18, same runs, counted over all {f18['trajectories']} grid points (masked ones are free) | "
             f"{spread(f18['backend']['all_points'])} | trajectories/s | | | |")
    L.append(f"| Figure 18, same runs, GBS steps ({f18['steps']} per run, rejected ones included) | "
             f"{spread(f18['backend']['steps'])} | steps/s | | | |")
    if "fraction_of_fp64_peak" in f18["backend"]:
        L.append(f"| (same runs) FP64 rate at {tp['flops_per_step_figure18']:g} flop per GBS step (the step alone: "
                 f"a lower bound) | {e(f18['backend']['fp64_flops'])} | flop/s | "
                 f"{100 * f18['backend']['fraction_of_fp64_peak']:.1f}% of the measured peak | | |")
    if "backend_1_thread" in f18:
        L.append(f"| Figure 18, CPU backend, 1 thread, per unmasked point | "
                 f"{spread(rate(f18['backend_1_thread'], 'unmasked_points'))} | trajectories/s | scaling {thr} threads / 1: "
                 f"{ratio(f18['scaling_all_over_1'])} | | |")
    float_rows(L, f18, f"Figure 18 **float** kernel (rtol = atol = {{rtol:g}}), same grid, CPU backend, {thr} threads, "
               "per unmasked point", "unmasked_points", "trajectories/s", "Figure 18 float vs double (rtol 1e-11), same "
               "pixels", "exit side")
    L.append(f"| roll4:disc with gravity (Figure-20 setting, {r4['trajectories']} trajectories, t_max "
             f"{r4['config']['stop']['t_max']:g}; {r4['steps']} GBS steps and {r4['events']} rim passages per run), "
             f"CPU backend, {thr} threads | {spread(rate(r4['backend'], 'steps'))} | steps/s | "
             f"{e(r4['backend']['trajectories']['median'])} trajectories/s | | |")
    if "backend_1_thread" in r4:
        L.append(f"| roll4:disc with gravity, CPU backend, 1 thread | {spread(rate(r4['backend_1_thread'], 'steps'))} | "
                 f"steps/s | scaling {thr} threads / 1: {ratio(r4['scaling_all_over_1'])} | | |")
    float_rows(L, r4, f"roll4:disc with gravity, **float** kernel (rtol = atol = {{rtol:g}}), CPU backend, {thr} threads",
               "steps", "steps/s", "roll4:disc float vs double (rtol 1e-12), same trajectories", None)
    rolling_table_rows(L, b, thr)
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
    L += side_by_side_section(tp)
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
    s = sc["scaling"]
    L.append("## Scaling")
    L.append("")
    L.append(f"`skipstone bench --scaling` ({s['workload']}), median (min – max) of {sc['reps']} samples after a "
             "warm-up; a sample of a short scan repeats it until the sample lasts 0.25 s (calls per sample)"
             + ("; all points timed side by side, one sample of each per round, so that other jobs on the machine "
                "slow them alike" if s.get("interleaved") else "") + ":")
    L.append("")
    L.append("| Trajectories | Threads | impacts/s | time per call | calls per sample | cpu use |")
    L.append("|---|---|---|---|---|---|")
    for p in s["trajectories"] + s.get("threads", []):
        L.append(f"| {p['trajectories']:.0e} | {p['threads']} | {spread(p['impacts'])} | "
                 f"{seconds(p['wall_seconds']['median'])} | {p.get('calls_per_sample', 1)} | "
                 f"{100 * p['cpu_utilisation']:.0f}% |")
    L.append("")
    L += scaling_notes(s)
    if a.mpi:
        m = json.load(open(a.mpi))
        L.append("## Strong scaling over MPI ranks")
        L.append("")
        L.append(f"`benchmarks/mpi_scaling.py`: `mpirun -np N skipstone run` on {m['workload']}; median of "
                 f"{m['reps']} runs after a warm-up, measured {m.get('date', 'with the run above')} (load average at the end: "
                 + " ".join(f"{x:.2f}" for x in m["load_average"]) + "). Scan time: meta.json `wall_time_s`, from "
                 "the first chunk to the last result; command time: the whole mpirun, with MPI start-up and the "
                 "writing of the outputs, which rank 0 does alone.")
        L.append("")
        L.append("| Ranks | Scan time (s) | Speed-up | Efficiency | Target | Status | Command time (s) | Command efficiency |")
        L.append("|---|---|---|---|---|---|---|---|")
        for p in m["points"]:
            target = ">= 90%" if p["ranks"] > 1 else ""
            status = verdict(p["efficiency"] >= 0.9) if p["ranks"] > 1 else ""
            L.append(f"| {p['ranks']} | {p['scan_s']:.3f} ({p['scan_s_min']:.3f} – {p['scan_s_max']:.3f}) | "
                     f"{p['speedup']:.2f}x | {100 * p['efficiency']:.0f}% | {target} | {status} | "
                     f"{p['command_s']:.3f} | {100 * p['command_efficiency']:.0f}% |")
        L.append("")
    if a.memory:
        L += memory_section(json.load(open(a.memory)))
    if a.kernels:
        L += kernels_section(json.load(open(a.kernels)))
    L.append("## How it was measured")
    L.append("")
    L.append("- `skipstone bench --backend cpu` (host/bench_*.cpp) builds each config in code through "
             "`parse_config` and times the backend's `run_chunk` over the whole scan, in chunks through a reused "
             "buffer, with `std::chrono::steady_clock` "
             f"({thr} threads, then `cpu::set_threads(1)`). The disc uses gamma = 0.8164965809, boundary start, "
             "a random scan of angle in [-1.4, 1.4] and spin in [-1, 1]; impacts/s = sum of `events` / wall. "
             "The cylinder:disc run uses g = 1, impact start, angle in [0.8, 1.5], slip in [-0.2, 0.2], vz = 0. "
             "The kernel always computes every observable. The disc's flop count per impact is a hand count of "
             "the source (host/bench_workloads.hpp); the peak it is divided by is an FMA-throughput "
             "microbenchmark run just before (host/fma_peak.cpp), itself lowered when other jobs share the cores.")
    L.append("- Figure 18: R = r = 1, eta = 0.5, grid v2 x S12 over [-1, 1]^2, t_max 200, rtol = atol = 1e-11 "
             "(GBS order 12 with projection). Steps are the GBS steps tried (`TrajectoryResult::steps`); points outside the unit disc are `masked` (status 7) and cost "
             "nothing, hence two counts. The SciPy sample is uniform in the disc, so the per-unmasked-point "
             "rate is the one compared against the target.")
    L.append("- NumPy (benchmarks/numpy_disc.py): the same map vectorised over trajectories with in-place "
             "array operations, including the per-impact energy check and rescale, height and chord "
             "observables; NumPy runs on one thread.")
    L.append("- SciPy (benchmarks/scipy_figure18.py): the ODEs of Proposition 12 in plain Python, terminal "
             "events phi = 0 (decreasing) and phi = pi (increasing). compare_figure18.py evaluates the same "
             "points with skipstone (`skipstone_figure18_points`) and compares exit sides and "
             "times; the accuracy verdict uses an independent tight-tolerance DOP853 reference.")
    if a.run_seconds is not None:
        L.append(f"- Whole run (build check included): {a.run_seconds:.0f} s.")
    L.append("")
    L += kept_history(a.out)
    with open(a.out, "w") as f:
        f.write("\n".join(L))
    return 0


def kept_history(path):
    """The '## History' section of the RESULTS.md being replaced, kept as it is: earlier runs
    and one-off measurements are not regenerated by run_all.sh."""
    try:
        old = open(path).read()
    except FileNotFoundError:
        return []
    start = old.find("\n## History")
    return old[start + 1:].rstrip("\n").split("\n") + [""] if start >= 0 else []


if __name__ == "__main__":
    sys.exit(main())
