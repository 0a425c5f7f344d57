"""Words for the figures of skipstone.plot: the title (system, observable, and the parameters
that differ from the system's defaults), axis labels, and the names of categorical values."""
from . import _skipstone
from ._status import STATUS_NAMES

# Parameters written as symbols (mathtext, DejaVu); the others keep their config names.
SYMBOLS = {"eta": r"$\eta$", "gamma": r"$\gamma$", "beta": r"$\beta$", "phi": r"$\varphi$", "S12": r"$S_{12}$",
           "v1": r"$v_1$", "v2": r"$v_2$"}

# Observables whose values are categories: value to name, drawn with a discrete colour map.
CATEGORIES = {
    "status": {code: name for code, name in enumerate(STATUS_NAMES)},
    "exit_side": {-1.0: "other side (-1)", 0.0: "no exit (0)", 1.0: "entry side (+1)"},
}


def symbol(name):
    return SYMBOLS.get(name, name)


def differing_parameters(meta):
    """'eta = 0.25, R = 2' for the config's parameters that differ from the system's defaults
    (or have none), without the scanned ones."""
    scanned = {a["param"] for a in meta["axes"]}
    defaults = _skipstone.parameter_defaults(meta["system"])
    parts = []
    for name, value in meta["config"].get("parameters", {}).items():
        if name in scanned or (name in defaults and defaults[name] == value):
            continue
        parts.append(f"{symbol(name)} = {value:g}" if isinstance(value, (int, float)) else f"{symbol(name)} = {value}")
    return ", ".join(parts)


def title(meta, observable):
    """Two lines: system and observable, then the differing parameters (when any)."""
    differing = differing_parameters(meta)
    return f"{meta['system']}: {observable}" + (f"\n{differing}" if differing else "")
