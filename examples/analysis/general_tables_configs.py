#!/usr/bin/python3
"""Writes the configs of the general-tables study (docs/findings.md, section 5) to a folder.

Bounded height of a ball in a vertical cylinder over a disc, a stadium, an ellipse and a Sinai
cross-section: the no-slip ball (cylinder:<table>, beta = pi eta, g = 1) against the 4D
rolling ball (roll4:<table>, r = 0.05, the same eta, g_effective = 1), on the same initial
conditions, plus Figure-18 exit maps on the stadium (roll3:stadium rim_entry).

  bounded_<table>_noslip.json, bounded_<table>_roll4.json   (part 1)
      start on the plate at (x, 0), z = 0, horizontal velocity (-2, 1), vertical 0, spins
      S13 = 0, S23 = -1 (no-slip w = (S23, -S13, S12) = (-1, 0, S12)); axes: x across the
      table, S12 (= wz) in [-2, 2], eta. The rolling grid is every 8th no-slip point in x and
      S12 and every 4th eta, so the two models share 40 x 40 x 5 starts exactly.
  slip_<table>_noslip.json   (part 2)  cylinder:<table> `impact` at the wall point of TABLES,
      speed 2, axes slip in [-1, 1] (2001), incidence angle in [-1.5, 1.5] (31), eta (17).
  slip_<table>_roll4_eta<e>.json   the rolling equivalent at angle 0.5: a plate start 1e-9
      inside the wall at the same point, the same incoming velocity, and the spin the impact
      start gives (include/skipstone/noslip_model.hpp, cylinder_setup): with vz = slip_z =
      spin_normal = 0 it is w = gamma (u.tau - slip) e_z, gamma = tan(beta/2) the no-slip
      gamma, i.e. S12 = gamma (speed sin(angle) - slip), S13 = S23 = 0. S12 is the scan axis,
      running from slip = +1 to slip = -1 (2001 points, the no-slip slip grid reversed).
  slipcheck_<table>_noslip.json   the no-slip ball from that same hair-inside start (interior,
      w = (0, 0, S12)) at eta 0.5: must reproduce the impact start's column at angle 0.5.
  exit_stadium_<where>.json, exit_disc.json   (part 3) Figure-18 maps, 512 x 512 over (v2, S12),
      r = R = 1, eta 0.5, half_length 1: entries on the straight part (middle of the top
      segment), at the junction of the top segment and the left cap, on the cap (its middle).

Usage: general_tables_configs.py FOLDER        (Debian's /usr/bin/python3)
"""
import json
import math
import os
import sys

T_MAX = 200.0
DEPTH = 100.0          # bounded_depth H: bounded = height stayed above z0 - H up to T_MAX
R_ROLL = 0.05          # rolling ball radius
ETA_MIN, ETA_MAX, N_ETA = 0.1, 0.9, 17
N_ROLL, STRIDE = 40, 8     # rolling grid points per axis; no-slip has STRIDE (N_ROLL - 1) + 1
ETA_STRIDE = 4             # the rolling runs take every 4th eta: 0.1, 0.3, ..., 0.9
SLIP_MAX, N_SLIP = 1.0, 2001
SLIP_ANGLE, SLIP_SPEED = 0.5, 2.0
EPS = 1e-9             # the rolling slip start sits this far inside the wall

PERIM_STADIUM = 4.0 + 2.0 * math.pi  # half_length = R = 1

# table: parameters, the x range of the part-1 start line (y = 0), the part-2 wall point
# (boundary_s, position, inward normal nu).
TABLES = {
    "disc": {"size": {"R": 1.0}, "x": (-0.95, 0.95),
             "wall": (0.0, (1.0, 0.0), (-1.0, 0.0))},
    "stadium": {"size": {"half_length": 1.0, "R": 1.0}, "x": (-1.9, 1.9),
                "wall": ((4.0 + 1.5 * math.pi) / PERIM_STADIUM, (2.0, 0.0), (-1.0, 0.0))},
    "ellipse": {"size": {"a": 2.0, "b": 1.0}, "x": (-1.9, 1.9),
                "wall": (0.0, (2.0, 0.0), (-1.0, 0.0))},
    "sinai": {"size": {"side": 1.0, "radius": 0.25}, "x": (0.28, 0.72),
              "wall": (0.0, (0.25, 0.0), (1.0, 0.0))},
}
OBS = ["status", "events", "z_min", "z_drift", "bounded", "energy_error"]
OPTIONS = {"bounded_depth": DEPTH}
EXIT_S = {"straight": 1.0 / PERIM_STADIUM, "junction": 2.0 / PERIM_STADIUM,
          "cap": (2.0 + 0.5 * math.pi) / PERIM_STADIUM}


def noslip_gamma(eta):
    return math.tan(0.5 * math.pi * eta)


def axis(param, lo, hi, n):
    return {"param": param, "min": lo, "max": hi, "n": n}


def eta_values(stride):
    return ETA_MIN, ETA_MAX, (N_ETA - 1) // stride + 1


def part1(table, t):
    n_ns = STRIDE * (N_ROLL - 1) + 1
    lo, hi, _ = eta_values(1)
    noslip = {
        "description": "general-tables study part 1: no-slip shadow of bounded_%s_roll4.json" % table,
        "system": "cylinder:" + table, "parameters": dict(t["size"], g=1.0),
        "initial": {"start": "interior", "y": 0.0, "z": 0.0, "vx": -2.0, "vy": 1.0, "vz": 0.0,
                    "wx": -1.0, "wy": 0.0},
        "scan": {"type": "grid", "axes": [axis("x", *t["x"], n_ns), axis("wz", -2.0, 2.0, n_ns),
                                          axis("beta", math.pi * lo, math.pi * ETA_MAX, N_ETA)]},
        "stop": {"t_max": T_MAX}, "observables": OBS, "options": OPTIONS}
    lo, hi, n = eta_values(ETA_STRIDE)
    roll = {
        "description": "general-tables study part 1: rolling ball, every 8th start (every 4th eta) of bounded_%s_noslip.json" % table,
        "system": "roll4:" + table, "parameters": dict(t["size"], r=R_ROLL, g_effective=1.0),
        "initial": {"start": "plate", "x2": 0.0, "z": 0.0, "v1": -2.0, "v2": 1.0, "v3": 0.0,
                    "S13": 0.0, "S23": -1.0},
        "scan": {"type": "grid", "axes": [axis("x1", *t["x"], N_ROLL), axis("S12", -2.0, 2.0, N_ROLL),
                                          axis("eta", lo, hi, n)]},
        "stop": {"t_max": T_MAX}, "observables": OBS, "options": OPTIONS}
    return {"bounded_%s_noslip" % table: noslip, "bounded_%s_roll4" % table: roll}


def part2(table, t):
    s, (px, py), (nx, ny) = t["wall"]
    out = {"slip_%s_noslip" % table: {
        "description": "general-tables study part 2: no-slip impact at one wall point, slip x angle x eta",
        "system": "cylinder:" + table, "parameters": dict(t["size"], g=1.0),
        "initial": {"start": "impact", "boundary_s": s, "z": 0.0, "speed": SLIP_SPEED, "vz": 0.0,
                    "slip_z": 0.0, "spin_normal": 0.0},
        "scan": {"type": "grid", "axes": [axis("slip", -SLIP_MAX, SLIP_MAX, N_SLIP), axis("angle", -1.5, 1.5, 31),
                                          axis("beta", math.pi * ETA_MIN, math.pi * ETA_MAX, N_ETA)]},
        "stop": {"t_max": T_MAX}, "observables": OBS, "options": OPTIONS}}
    # incoming velocity of the impact start: speed (-cos a nu + sin a tau), tau = nu turned by +pi/2
    tx, ty = -ny, nx
    c, sn = math.cos(SLIP_ANGLE), math.sin(SLIP_ANGLE)
    ux, uy = SLIP_SPEED * (-c * nx + sn * tx), SLIP_SPEED * (-c * ny + sn * ty)
    u_tau = SLIP_SPEED * sn
    x0, y0 = px + EPS * nx, py + EPS * ny
    lo, hi, n = eta_values(ETA_STRIDE)
    for k in range(n):
        eta = lo + (hi - lo) * k / (n - 1)
        g = noslip_gamma(eta)
        s12_axis = axis("S12", g * (u_tau - SLIP_MAX), g * (u_tau + SLIP_MAX), N_SLIP)  # slip +1 ... -1
        out["slip_%s_roll4_eta%.1f" % (table, eta)] = {
            "description": "general-tables study part 2: rolling equivalent of the impact start, "
                           "S12 = tan(pi eta/2) (speed sin(angle) - slip)",
            "system": "roll4:" + table, "parameters": dict(t["size"], r=R_ROLL, eta=eta, g_effective=1.0),
            "initial": {"start": "plate", "x1": x0, "x2": y0, "z": 0.0, "v1": ux, "v2": uy, "v3": 0.0,
                        "S13": 0.0, "S23": 0.0},
            "scan": {"type": "grid", "axes": [s12_axis]},
            "stop": {"t_max": T_MAX}, "observables": OBS, "options": OPTIONS}
        if abs(eta - 0.5) < 1e-12:
            out["slipcheck_%s_noslip" % table] = {
                "description": "general-tables study part 2: the no-slip ball from the rolling slip start (eta 0.5)",
                "system": "cylinder:" + table, "parameters": dict(t["size"], g=1.0, beta=math.pi * eta),
                "initial": {"start": "interior", "x": x0, "y": y0, "z": 0.0, "vx": ux, "vy": uy, "vz": 0.0,
                            "wx": 0.0, "wy": 0.0},
                "scan": {"type": "grid", "axes": [dict(s12_axis, param="wz")]},
                "stop": {"t_max": T_MAX}, "observables": OBS, "options": OPTIONS}
    return out


def exit_grid(n):
    return {"type": "grid", "axes": [axis("v2", -1.0, 1.0, n), axis("S12", -1.0, 1.0, n)]}


def part3():
    grid = exit_grid(512)
    obs = ["status", "exit_time", "exit_arc", "exit_side", "energy_error"]
    out = {"exit_disc": {"description": "general-tables study part 3: Figure 18 on the disc",
                         "system": "roll4:disc-transversal", "parameters": {"R": 1.0, "r": 1.0, "eta": 0.5},
                         "initial": {"start": "rim_entry", "speed": 1.0}, "scan": grid,
                         "stop": {"t_max": T_MAX}, "observables": obs}}
    for where, s in EXIT_S.items():
        out["exit_stadium_" + where] = {
            "description": "general-tables study part 3: Figure 18 on the stadium, entry " + where,
            "system": "roll3:stadium", "parameters": {"half_length": 1.0, "R": 1.0, "r": 1.0, "eta": 0.5},
            "initial": {"start": "rim_entry", "boundary_s": s, "speed": 1.0},
            "scan": grid,
            "stop": {"t_max": T_MAX}, "observables": obs}
    return out


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    folder = sys.argv[1]
    os.makedirs(folder, exist_ok=True)
    configs = {}
    for table, t in TABLES.items():
        configs.update(part1(table, t))
        configs.update(part2(table, t))
    configs.update(part3())
    for name, cfg in sorted(configs.items()):
        with open(os.path.join(folder, name + ".json"), "w") as f:
            json.dump(cfg, f, indent=1)
            f.write("\n")
    print("%d configs in %s" % (len(configs), folder))


if __name__ == "__main__":
    main()
