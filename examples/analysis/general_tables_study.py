#!/usr/bin/python3
"""Bounded fractions and exit maps of the general-tables study (docs/findings.md, section 5).

Reads the run folders made by examples/study/run_all.sh from the configs of
general_tables_configs.py (OUT/<config name>/ with .npy maps and meta.json) and prints
Markdown tables: per table and eta the bounded fraction of the no-slip ball (all its starts,
and the starts it shares with the rolling run) and of the rolling ball (part 1); the bounded
fraction against the contact-point slip at incidence angle 0.5, no-slip vs rolling (part 2),
with the check that the rolling start's spin reproduces the impact start; Figure-18 exit-side
fractions on the stadium and the disc (part 3); trajectories, statuses and run times.
Fractions are of the starts that ended ok (finished); the other statuses are counted.
With --plot PREFIX writes PREFIX_bounded_eta.png, PREFIX_bounded_maps.png,
PREFIX_slip.png and PREFIX_exit_maps.png.
Usage: general_tables_study.py OUT [--plot PREFIX]      (Debian's /usr/bin/python3)
"""
import argparse
import json
import os

import numpy as np

from grid_extent import grid_extent

FINISHED, EXITED, MASKED = 0, 1, 7  # include/skipstone/status.hpp
TABLES = ["disc", "stadium", "ellipse", "sinai"]
SLIP_ANGLE = 0.5


def load(out, name, *obs):
    d = os.path.join(out, name)
    meta = json.load(open(os.path.join(d, "meta.json")))
    return meta, [np.load(os.path.join(d, o + ".npy")) for o in ("status",) + obs]


def runs_summary(out):
    rows = []
    for name in sorted(os.listdir(out)):
        p = os.path.join(out, name, "meta.json")
        if os.path.exists(p):
            m = json.load(open(p))
            n = int(sum(m["status_counts"].values()))
            other = {k: v for k, v in m["status_counts"].items() if v and k not in ("finished", "exited")}
            rows.append((name, n, m["wall_time_s"], other))
    return rows


def frac(b, ok):
    n = int(ok.sum())
    return (float(np.sum(b[ok] == 1)) / n if n else float("nan")), n


def part1(out):
    res = {}
    for t in TABLES:
        mn, (sn, bn) = load(out, "bounded_%s_noslip" % t, "bounded")
        mr, (sr, br) = load(out, "bounded_%s_roll4" % t, "bounded")
        n_ns, n_r = mn["axes"][0]["n"], mr["axes"][0]["n"]
        stride = (n_ns - 1) // (n_r - 1)
        e_ns = np.array(mn["axes"][2]["values"]) / np.pi
        e_r = np.array(mr["axes"][2]["values"])
        rows = []
        for k, eta in enumerate(e_ns):
            f_all, n_all = frac(bn[k], sn[k] == FINISHED)
            row = {"eta": float(eta), "noslip": f_all, "noslip_n": n_all,
                   "noslip_failed": int(np.sum(sn[k] != FINISHED))}
            kr = np.flatnonzero(np.abs(e_r - eta) < 1e-9)
            if kr.size:
                kr = int(kr[0])
                sub_b, sub_s = bn[k, ::stride, ::stride], sn[k, ::stride, ::stride]
                okr = sr[kr] == FINISHED
                row["noslip_shared"], row["shared_n"] = frac(sub_b, sub_s == FINISHED)
                row["roll4"], row["roll4_n"] = frac(br[kr], okr)
                row["roll4_failed"] = int(np.sum(~okr))
                both = okr & (sub_s == FINISHED)
                row["agree"] = float(np.mean(br[kr][both] == sub_b[both]))
            rows.append(row)
        res[t] = {"rows": rows, "noslip_map": bn, "roll4_map": br, "axes_ns": mn["axes"], "axes_r": mr["axes"],
                  "eta_ns": e_ns, "eta_r": e_r}
    return res


def part2(out):
    res = {}
    for t in TABLES:
        mn, (sn, bn) = load(out, "slip_%s_noslip" % t, "bounded")
        slip = np.array(mn["axes"][0]["values"])
        angles = np.array(mn["axes"][1]["values"])
        ka = int(np.argmin(np.abs(angles - SLIP_ANGLE)))
        e_ns = np.array(mn["axes"][2]["values"]) / np.pi
        t_res = {"slip": slip, "eta_ns": e_ns, "noslip": bn[:, ka, :], "noslip_status": sn[:, ka, :],
                 "noslip_all": bn, "noslip_all_status": sn, "roll4": {}, "angle": float(angles[ka])}
        for eta in (0.1, 0.3, 0.5, 0.7, 0.9):
            mr, (sr, br) = load(out, "slip_%s_roll4_eta%.1f" % (t, eta), "bounded")
            t_res["roll4"][eta] = (br[::-1], sr[::-1])  # the S12 axis runs from slip +1 to -1
        mc, (sc, bc) = load(out, "slipcheck_%s_noslip" % t, "bounded")
        k5 = int(np.argmin(np.abs(e_ns - 0.5)))
        ok = (sc[::-1] == FINISHED) & (sn[k5, ka, :] == FINISHED)
        t_res["check_agree"] = float(np.mean(bc[::-1][ok] == bn[k5, ka, :][ok]))
        t_res["check_n"] = int(ok.sum())
        res[t] = t_res
    return res


def part3(out):
    res = {}
    for name in ["exit_disc", "exit_stadium_straight", "exit_stadium_junction", "exit_stadium_cap"]:
        m, (s, side, et) = load(out, name, "exit_side", "exit_time")
        live = s != MASKED
        n = int(live.sum())
        res[name] = {"n": n, "friendly": float(np.sum(side == 1) / n), "over": float(np.sum(side == -1) / n),
                     "none": float(np.sum((side == 0) & live) / n),
                     "failed": {k: v for k, v in m["status_counts"].items() if v and k not in ("exited", "masked")},
                     "median_time": float(np.nanmedian(et)), "side": side, "time": et, "axes": m["axes"],
                     "wall": m["wall_time_s"]}
    return res


def print_tables(p1, p2, p3, runs):
    print("## part 1: bounded fraction (finished starts), no-slip all / no-slip on the shared starts / roll4")
    for t in TABLES:
        print("\n%s\n\n| eta | no-slip (n) | no-slip, shared starts | roll4 (n) | same verdict | failed ns/roll |" % t)
        print("|---|---|---|---|---|---|")
        for r in p1[t]["rows"]:
            if "roll4" in r:
                print("| %.2f | %.4f (%d) | %.4f | %.4f (%d) | %.3f | %d / %d |" % (
                    r["eta"], r["noslip"], r["noslip_n"], r["noslip_shared"], r["roll4"], r["roll4_n"], r["agree"],
                    r["noslip_failed"], r["roll4_failed"]))
            else:
                print("| %.2f | %.4f (%d) | | | | %d / |" % (r["eta"], r["noslip"], r["noslip_n"], r["noslip_failed"]))
    print("\n## part 2: bounded fraction against slip at angle %.2f" % SLIP_ANGLE)
    bands = [(0.0, 0.0), (0.0, 0.01), (0.01, 0.05), (0.05, 0.2), (0.2, 1.0)]
    for t in TABLES:
        r = p2[t]
        print("\n%s (check: no-slip from the rolling start agrees with the impact start on %.4f of %d)" % (
            t, r["check_agree"], r["check_n"]))
        print("\n| eta | model | " + " | ".join("|slip| %s" % ("= 0" if hi == 0 else "in (%g, %g]" % (lo, hi))
                                                for lo, hi in bands) + " | all | failed |")
        print("|---|---|" + "---|" * (len(bands) + 2))
        for eta in (0.1, 0.3, 0.5, 0.7, 0.9):
            k = int(np.argmin(np.abs(r["eta_ns"] - eta)))
            for model, (b, s) in (("no-slip", (r["noslip"][k], r["noslip_status"][k])), ("roll4", r["roll4"][eta])):
                cells = []
                for lo, hi in bands:
                    sel = (np.abs(r["slip"]) <= hi + 1e-12) & ((np.abs(r["slip"]) > lo + 1e-12) if hi > 0 else True)
                    f, n = frac(b[sel], s[sel] == FINISHED)
                    cells.append("%.3f (%d)" % (f, n))
                f, n = frac(b, s == FINISHED)
                print("| %.1f | %s | %s | %.3f (%d) | %d |" % (eta, model, " | ".join(cells), f, n,
                                                             int(np.sum(s != FINISHED))))
        b, s = r["noslip_all"], r["noslip_all_status"]
        f, n = frac(b, s == FINISHED)
        z = np.abs(r["slip"]) < 1e-12
        f0, n0 = frac(b[:, :, z], s[:, :, z] == FINISHED)
        print("\nno-slip over all angles and eta: bounded %.4f of %d; at slip = 0: %.4f of %d" % (f, n, f0, n0))
    print("\n## part 3: Figure-18 exit side (r = R = 1, eta 0.5)\n")
    print("| map | unmasked | friendly | over | no exit | other statuses | median exit_time | run time |")
    print("|---|---|---|---|---|---|---|---|")
    for name, r in p3.items():
        print("| %s | %d | %.4f | %.4f | %.4f | %s | %.3f | %.1f s |" % (
            name, r["n"], r["friendly"], r["over"], r["none"], r["failed"] or "-", r["median_time"], r["wall"]))
    print("\n## runs\n\n| run | trajectories | wall time | statuses other than finished/exited |\n|---|---|---|---|")
    for name, n, w, other in runs:
        print("| %s | %d | %.1f s | %s |" % (name, n, w, other or "-"))
    print("\ntotal: %d trajectories, %.0f s" % (sum(r[1] for r in runs), sum(r[2] for r in runs)))


def running_mean(b, width=41):
    """Mean of the bounded flags over a window of `width` neighbouring slips (failed ones left out)."""
    ok = ~np.isnan(b)
    k = np.ones(width)
    return np.convolve(np.where(ok, b, 0.0), k, "same") / np.maximum(np.convolve(ok, k, "same"), 1)


def plot(prefix, p1, p2, p3):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    colors = dict(zip(TABLES, ["#440154", "#3b528b", "#21918c", "#e3a019"]))
    fig, ax = plt.subplots(figsize=(5.6, 3.8), constrained_layout=True)
    for t in TABLES:
        rows = p1[t]["rows"]
        ax.plot([r["eta"] for r in rows], [r["noslip"] for r in rows], "-", color=colors[t], label=t + " no-slip")
        rr = [r for r in rows if "roll4" in r]
        ax.plot([r["eta"] for r in rr], [r["roll4"] for r in rr], "o--", color=colors[t], label=t + " roll4")
    ax.set_xlabel("eta (no-slip: beta = pi eta)")
    ax.set_ylabel("bounded fraction")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, ncol=2)
    ax.set_title("bounded height up to t = 200 (H = 100), start line x, S12", fontsize=9)
    fig.savefig(prefix + "_bounded_eta.png", dpi=80)
    plt.close(fig)

    fig, ax = plt.subplots(2, 4, figsize=(11, 5.2), constrained_layout=True)
    for j, t in enumerate(TABLES):
        d = p1[t]
        k_ns = int(np.argmin(np.abs(d["eta_ns"] - 0.5)))
        k_r = int(np.argmin(np.abs(d["eta_r"] - 0.5)))
        for i, (img, axes, lab) in enumerate(((d["noslip_map"][k_ns], d["axes_ns"], "no-slip"),
                                              (d["roll4_map"][k_r], d["axes_r"], "roll4 r = 0.05"))):
            ax[i, j].imshow(np.nan_to_num(img, nan=0.5), origin="lower", extent=grid_extent(axes[0], axes[1]),
                            cmap="viridis", vmin=0, vmax=1, interpolation="nearest", aspect="auto")
            ax[i, j].set_title("%s %s, eta 0.5: %.3f bounded" % (t, lab, np.nanmean(img)), fontsize=8)
            ax[i, j].tick_params(labelsize=7)
        ax[1, j].set_xlabel("start x", fontsize=8)
    ax[0, 0].set_ylabel("S12 = wz", fontsize=8)
    ax[1, 0].set_ylabel("S12 = wz", fontsize=8)
    fig.savefig(prefix + "_bounded_maps.png", dpi=70)
    plt.close(fig)

    fig, ax = plt.subplots(1, 4, figsize=(12, 3.3), constrained_layout=True, sharey=True)
    for j, t in enumerate(TABLES):
        r = p2[t]
        for eta, c in zip((0.1, 0.5, 0.9), ("#3b528b", "#21918c", "#e3a019")):
            k = int(np.argmin(np.abs(r["eta_ns"] - eta)))
            ax[j].plot(r["slip"], running_mean(r["noslip"][k]), "-", color=c, lw=1, label="no-slip eta %.1f" % eta)
            ax[j].plot(r["slip"], running_mean(r["roll4"][eta][0]), "--", color=c, lw=1, label="roll4 eta %.1f" % eta)
        ax[j].set_ylim(-0.02, 1.02)
        ax[j].set_title("%s: wall point %s, angle 0.5" % (t, "s = 0" if t != "stadium" else "cap middle"), fontsize=8)
        ax[j].set_xlabel("contact-point slip", fontsize=8)
        ax[j].tick_params(labelsize=7)
    ax[0].set_ylabel("bounded fraction, running mean over 41 slips", fontsize=8)
    ax[0].legend(fontsize=6)
    fig.savefig(prefix + "_slip.png", dpi=80)
    plt.close(fig)

    names = list(p3)
    cmap = matplotlib.colors.ListedColormap(["#3b528b", "#d9d9d9", "#5ec962", "#999999"])
    fig, ax = plt.subplots(2, 4, figsize=(11, 5.6), constrained_layout=True)
    for j, name in enumerate(names):
        r = p3[name]
        ext = grid_extent(r["axes"][0], r["axes"][1])
        img = np.where(np.isnan(r["side"]), 2.0, r["side"])
        ax[0, j].imshow(img, origin="lower", extent=ext, cmap=cmap, vmin=-1.5, vmax=2.5, interpolation="nearest")
        ax[0, j].set_title("%s: %.1f %% friendly" % (name.replace("exit_", ""), 100 * r["friendly"]), fontsize=8)
        im = ax[1, j].imshow(np.log10(r["time"]), origin="lower", extent=ext, cmap="magma", vmin=-0.5, vmax=1.5,
                             interpolation="nearest")
        ax[1, j].set_title("log10 exit_time", fontsize=8)
        for a in ax[:, j]:
            a.set_xlabel("v2", fontsize=8)
            a.tick_params(labelsize=7)
    ax[0, 0].set_ylabel("S12", fontsize=8)
    ax[1, 0].set_ylabel("S12", fontsize=8)
    fig.colorbar(im, ax=ax[1, :], shrink=0.8)
    fig.savefig(prefix + "_exit_maps.png", dpi=70)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("--plot", metavar="PREFIX")
    ap.add_argument("--parts", default="123")
    a = ap.parse_args()
    p1 = part1(a.out) if "1" in a.parts else None
    p2 = part2(a.out) if "2" in a.parts else None
    p3 = part3(a.out) if "3" in a.parts else {}
    if p1 is None or p2 is None:  # partial runs: print what is there
        if p2:
            print_tables({t: {"rows": []} for t in TABLES}, p2, p3, runs_summary(a.out))
        return
    print_tables(p1, p2, p3, runs_summary(a.out))
    if a.plot:
        plot(a.plot, p1, p2, p3)


if __name__ == "__main__":
    main()
