"""Random command-line cases for the whole-CLI fuzz driver (cli_fuzz.py), deterministic from a seed.

A case is a JSON-serialisable dict (the same format as the regression corpus, see README.md):
argv templates, the config file's text, how the output path is prepared, optional set-up steps
(shards to merge, an interrupted run to resume) and the expected exit class with the names an
exit-2 message must contain. Configs are the presets of examples/ made small enough to run in
well under a second, then mutated (keys deleted, renamed, duplicated, retyped; extreme numbers;
broken JSON text). The generator knows which mutations make the input invalid, so the oracle
can require a rejection (exit 2) naming the offending key or option.
"""
import copy
import json
import random
import re
from pathlib import Path

# Keys whose value selects what the other keys mean: changing one may make any other key wrong.
SELECTORS = {"system", "start", "type", "param", "precision"}

VALUE_OPTIONS = {
    "run": ["--backend", "--threads", "--chunk", "--shard", "--devices"],
    "trace": ["--index", "--sample"],
    "merge": [],
    "bench": ["--backend", "--precision", "--json", "--reps", "--max-trajectories"],
}
FLAG_OPTIONS = {
    "run": ["--quiet", "--resume", "--no-checkpoint"],
    "trace": [],
    "merge": ["--quiet"],
    "bench": ["--quick", "--scaling"],
}
BAD_INTEGERS = ["0", "-1", "1.5", "1e3", "", " 1", "1 ", "0x10", "99999999999", "2147483648",
                "18446744073709551616", "99999999999999999999999", "abc", "\u0661", "1_000", "-0", "nan"]
BAD_SHARDS = ["0/0", "1/1", "2/1", "-1/2", "a/b", "0/", "/2", "0/2/3", " 0/2", "0/18446744073709551616",
              "1/-2", "0.5/2", "", "0//2", "4294967296/4294967297"]
BAD_SAMPLES = ["0", "-1", "nan", "inf", "-inf", "1e-300", "", " 1", "1x", "1e400"]
ODD_SAMPLES = ["0x1p-3", "1e-3", "0.25", "5"]
UNKNOWN_OPTIONS = ["--oot", "--Out", "-o", "---out", "--thread", "--overwrite-all", "--OUT", "--out=out",
                   "--quiet=1", "--\u00fcber", "--\x01", "--" + "x" * 300]
OUT_KINDS = ["fresh", "fresh", "fresh", "existing_outputs", "existing_dir", "existing_file", "symlink_file",
             "symlink_dir", "dangling_symlink", "missing_parent", "under_file", "readonly_dir", "device_null",
             "device_full", "fifo", "dash", "option_like", "empty", "ro_mount", "tmpfs_full"]
HOSTILE_OUT_KINDS = {"existing_file", "under_file", "readonly_dir", "device_null", "device_full", "fifo",
                     "empty", "ro_mount", "tmpfs_full", "existing_dir", "dash", "option_like"}


def path_text(path):
    """A key path as skipstone prints it: scan.axes[1].max."""
    out = ""
    for p in path:
        if isinstance(p, int):
            out += "[%d]" % p
        else:
            out += ("." if out else "") + printable_key(p)
    return out


def printable_key(key):
    """skipstone's rendering of a key: control characters as \\u00XX."""
    return "".join(c if 0x20 <= ord(c) and ord(c) != 0x7F else "\\u%04x" % ord(c) for c in key)


INTEGER_PARAMS = {"noise", "realisation"}  # a grid over them must keep its points on integers


def small_config(cfg, rng):
    """An example config shrunk so that a run takes well under a second."""
    cfg = copy.deepcopy(cfg)
    scan = cfg.get("scan")
    if isinstance(scan, dict):
        if scan.get("type") == "random":
            scan["count"] = min(scan.get("count", 8), rng.choice([1, 3, 8]))
        for axis in scan.get("axes", []):
            if "n" in axis:
                axis["n"] = min(axis["n"], rng.choice([1, 2, 3, 4]) if len(scan["axes"]) <= 2 else 2)
                if axis.get("param") in INTEGER_PARAMS and "min" in axis:
                    axis["max"] = axis["min"] + max(axis["n"] - 1, 0)  # grid points on integers
    stop = cfg.setdefault("stop", {})
    if "max_events" in stop:
        stop["max_events"] = min(stop["max_events"], 40)
    if "t_max" in stop:
        stop["t_max"] = min(stop["t_max"], 3.0)
    opts = cfg.get("options")
    if isinstance(opts, dict) and "max_steps" in opts:
        opts["max_steps"] = min(opts["max_steps"], 20000)
    return cfg


def load_examples(source_dir):
    """The presets that run on their own: not those that start from another run's states (a
    state_file start names a file that only that run writes)."""
    presets = {p.stem: json.loads(p.read_text()) for p in sorted(Path(source_dir, "examples").glob("*.json"))}
    return {name: cfg for name, cfg in presets.items() if cfg.get("initial", {}).get("start") != "state_file"}


def all_paths(obj, prefix=()):
    """Every key path in a JSON value (objects and arrays), depth first."""
    out = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            out.append(prefix + (k,))
            out += all_paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out.append(prefix + (i,))
            out += all_paths(v, prefix + (i,))
    return out


def get_at(obj, path):
    for p in path:
        obj = obj[p]
    return obj


def set_at(obj, path, value):
    get_at(obj, path[:-1])[path[-1]] = value


def related_names(path, *, old=None):
    """The key paths an error about a mutation at `path` may name: it, its ancestors and (by
    prefix) its descendants; for a renamed key also the old name. A change of the start
    (`initial`, `initial.start`) changes which parameters the scan's axes may name, so an error
    may name those instead."""
    names = set()
    for p in [path] + ([old] if old else []):
        for i in range(1, len(p) + 1):
            names.add("config error: " + path_text(p[:i]))
        if tuple(p[:1]) == ("initial",) and len(p) <= 2:
            names.add("config error: scan.axes")
    return sorted(names)


# --- config mutations: each returns (config object or text, must_reject, names, description) ---

def holds_selector(value):
    """Whether a config subtree holds a key that decides what the other keys mean."""
    if isinstance(value, dict):
        return any(k in SELECTORS or holds_selector(v) for k, v in value.items())
    return isinstance(value, list) and any(holds_selector(v) for v in value)


def mut_delete(cfg, rng):
    paths = [p for p in all_paths(cfg) if not isinstance(p[-1], int) or len(get_at(cfg, p[:-1])) > 1]
    path = rng.choice(paths)
    parent = get_at(cfg, path[:-1])
    # a selector, or an observable a histogram refers to, may make another key the wrong one
    relaxed = path[-1] in SELECTORS or holds_selector(parent[path[-1]]) or path[0] == "observables"
    if isinstance(parent, list):
        parent.pop(path[-1])
    else:
        del parent[path[-1]]
    return cfg, False, (["config error: "] if relaxed else related_names(path)), "delete %s" % path_text(path)


def mut_rename(cfg, rng):
    paths = [p for p in all_paths(cfg) if isinstance(p[-1], str)]
    path = rng.choice(paths)
    parent = get_at(cfg, path[:-1])
    new = rng.choice([path[-1] + "_x", path[-1].upper() + "X", path[-1] + "\u0301", "\u00e9" + path[-1],
                      "\U0001F3B1", path[-1] + "\x00", " " + path[-1], path[-1] + " ", "k" * 5000, ""])
    if new in parent:
        new += "_y"
    relaxed = path[-1] in SELECTORS or holds_selector(parent[path[-1]]) or path[0] == "observables"
    parent[new] = parent.pop(path[-1])
    newpath = path[:-1] + (new,)
    names = related_names(newpath, old=path) + (["config error: "] if relaxed else [])
    return cfg, True, names, "rename %s to %r" % (path_text(path), new)


def mut_retype(cfg, rng):
    path = rng.choice(all_paths(cfg))
    v = get_at(cfg, path)
    choices = [True, None, [], {}, [v], "1.0", "", "NaN"]
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        choices.append(str(v))
    if isinstance(v, str):
        choices += [1, 0.0, v.upper(), v + " ", v + "\x00"]
    new = rng.choice(choices)
    set_at(cfg, path, new)
    # A string for a string, or a list holding the same list, may still be a valid value.
    must = type(new) is not type(v) and not (isinstance(v, str) and isinstance(new, str))
    relaxed = path[-1] in SELECTORS or (len(path) > 1 and path[-2] in SELECTORS)
    return cfg, must, (["config error: "] if relaxed else related_names(path)), "retype %s to %r" % (path_text(path), new)


def mut_number(cfg, rng):
    nums = [p for p in all_paths(cfg) if isinstance(get_at(cfg, p), (int, float)) and not isinstance(get_at(cfg, p), bool)]
    if not nums:
        return mut_retype(cfg, rng)
    path = rng.choice(nums)
    new = rng.choice([0, -0.0, -1, 1e308, -1e308, 5e-324, 1e-300, 0.5, 2 ** 53 + 1, 2 ** 63, 2 ** 64, -2 ** 63,
                      1e15, 3.7, 4.0, -2.5, 1e-9, 10 ** 30])
    set_at(cfg, path, new)
    return cfg, False, related_names(path), "number %s = %r" % (path_text(path), new)


def mut_huge_grid(cfg, rng):
    scan = cfg.get("scan")
    if not isinstance(scan, dict) or not isinstance(scan.get("axes"), list) or not scan["axes"]:
        cfg["scan"] = scan = {"type": "grid", "axes": [{"param": "speed", "min": 0.5, "max": 1.0, "n": 2}]}
        if isinstance(cfg.get("initial"), dict):
            cfg["initial"].pop("speed", None)  # the axis replaces it (a key given twice is refused)
    n = rng.choice([10 ** 12, 10 ** 13, 2 ** 40, 2 ** 63 - 1, 2 ** 64, 10 ** 15, 1e300, 10 ** 6])
    for axis in (a for a in scan["axes"] if isinstance(a, dict)):
        if "n" in axis or scan.get("type", "grid") == "grid":
            axis["n"] = n
        if scan.get("type") == "random":
            scan["count"] = n
    # Large enough that, if accepted, the outputs need far more than any disk: the run must stop
    # before computing (exit 1 naming the folder, or exit 2 for too many points, or for an output
    # whose memory grows with the trajectories, such as outputs.boundary_events, naming it).
    return cfg, False, ["config error: scan", "config error: outputs."], "huge grid n=%r" % n


def mut_empty(cfg, rng):
    cands = [p for p in all_paths(cfg) if isinstance(get_at(cfg, p), (list, dict))]
    if not cands:
        return mut_retype(cfg, rng)
    path = rng.choice(cands)
    new = [] if isinstance(get_at(cfg, path), list) else {}
    relaxed = holds_selector(get_at(cfg, path))
    set_at(cfg, path, new)
    return cfg, False, (["config error: "] if relaxed else related_names(path)), "empty %s" % path_text(path)


def mut_unknown_key(cfg, rng):
    objs = [()] + [p for p in all_paths(cfg) if isinstance(get_at(cfg, p), dict)]
    path = rng.choice(objs)
    key = rng.choice(["extra", "comment", "\u00fcber", "_", "R ", "n\u0000"])
    obj = get_at(cfg, path)
    if key in obj:
        key += "2"
    obj[key] = rng.choice([1, "x", None, {}])
    return cfg, True, related_names(path + (key,)), "unknown key %s" % path_text(path + (key,))


MUTATIONS = [mut_delete, mut_rename, mut_retype, mut_number, mut_number, mut_huge_grid, mut_empty, mut_unknown_key]


def duplicate_key_text(cfg, rng):
    """Config text with one key given twice in its object (second value differing or equal)."""
    objs = [p for p in [()] + all_paths(cfg) if isinstance(get_at(cfg, p), dict) and get_at(cfg, p)]
    path = rng.choice(objs)
    key = rng.choice(sorted(get_at(cfg, path)))
    marker = "__DUP_MARKER__"
    obj = get_at(cfg, path)
    value = obj[key]
    dup_value = rng.choice([value, 12345, "other"])
    items = list(obj.items())
    obj.clear()
    for k, v in items:
        obj[k] = v
        if k == key:
            obj[marker] = dup_value
    text = json.dumps(cfg, indent=1, ensure_ascii=False).replace(json.dumps(marker), json.dumps(key, ensure_ascii=False), 1)
    relaxed = key in SELECTORS or holds_selector(value) or holds_selector(dup_value)
    names = related_names(path + (key,)) + (["config error: "] if relaxed else [])
    return text, True, names, "duplicate key %s" % path_text(path + (key,))


def text_mutation(text, rng):
    """A text-level mutation: broken JSON, literals JSON does not have, odd encodings."""
    kind = rng.choice(["truncate", "nan", "trailing", "bom", "nest", "root", "empty", "binary", "bigint", "comment"])
    if kind == "truncate":
        at = rng.randrange(len(text))
        new = text[:at]
    elif kind == "nan":
        lit = rng.choice(["NaN", "Infinity", "-Infinity", "1e999", "0x10", "+1", ".5", "01", "1.", "-"])
        nums = list(re.finditer(r"(?<=: )-?\d[\d.eE+-]*", text))
        if not nums:
            return text + "x", "append x"
        m = rng.choice(nums)
        new = text[:m.start()] + lit + text[m.end():]
        kind += " " + lit
    elif kind == "trailing":
        new = text + rng.choice(["x", "{}", ",", "\x00", " // end"])
    elif kind == "bom":  # a UTF-8 byte order mark before the document: either answer is fine
        return "\ufeff" + text, kind, True
    elif kind == "nest":
        depth = rng.choice([1000, 100000])
        new = text.replace('"stop"', '"deep": ' + "[" * depth + "]" * depth + ', "stop"', 1)
    elif kind == "root":
        new = rng.choice(["[]", "1", '"disc"', "null", "true", "[" + text + "]"])
    elif kind == "empty":
        new = rng.choice(["", " ", "\n"])
    elif kind == "binary":
        new = "".join(chr(rng.randrange(256)) for _ in range(rng.randrange(1, 64)))
    elif kind == "bigint":
        new = text.replace(": 1.0", ": 1" + "0" * 400, 1)
    else:
        new = "/* c */" + text
    try:
        valid = json.loads(new) == json.loads(text)
    except Exception:
        valid = False
    return new, kind, valid


def config_text(cfg, rng):
    return json.dumps(cfg, indent=rng.choice([None, 1, 2]), ensure_ascii=rng.random() < 0.5)


class CaseGenerator:
    def __init__(self, source_dir):
        self.examples = load_examples(source_dir)

    def config_case(self, rng, allow_mutation=True):
        """(config text, must_reject, names, notes) for a small, possibly mutated preset."""
        name = rng.choice(sorted(self.examples))
        cfg = small_config(self.examples[name], rng)
        notes = ["preset " + name]
        must, names = False, []
        if not allow_mutation or rng.random() < 0.45:
            return config_text(cfg, rng), False, [], notes
        r = rng.random()
        if r < 0.12:
            text, m, nm, d = duplicate_key_text(cfg, rng)
            return text, m, nm, notes + [d]
        if r < 0.27:
            base = config_text(cfg, rng)
            text, kind, valid = text_mutation(base, rng)
            return text, not valid, ([] if valid else ["config error"]), notes + ["text " + kind]
        for _ in range(rng.choice([1, 1, 1, 2])):
            mutation = rng.choice(MUTATIONS)
            cfg, m, nm, d = mutation(cfg, rng)
            # a later deletion may remove what made the config bad
            must = m or (must and mutation not in (mut_delete, mut_empty))
            names += nm
            notes.append(d)
        return config_text(cfg, rng), must, sorted(set(names)), notes

    def option_mutation(self, cmd, argv, rng):
        """Adds one command-line mistake; returns (argv, names, description)."""
        values, flags = VALUE_OPTIONS[cmd], FLAG_OPTIONS[cmd]
        kind = rng.choice(["unknown", "repeat", "missing", "bad_number", "bad_number", "positional"])
        if kind == "unknown":
            opt = rng.choice(UNKNOWN_OPTIONS)
            return argv + [opt] if rng.random() < 0.5 else [opt] + argv, [opt.split("=")[0][:40]], "unknown option " + opt
        if kind == "repeat" and (values or flags):
            opts = [o for o in values + flags + ["--out"] if o in argv]
            if not opts:
                opts = flags or values
            opt = rng.choice(opts)
            if opt in flags:
                return argv + [opt, opt] if opt not in argv else argv + [opt], [opt], "repeated " + opt
            return argv + [opt, self.good_value(cmd, opt, rng)], [opt], "repeated " + opt
        if kind == "missing" and values:
            opt = rng.choice(values + ["--out"])
            return argv + [opt], [opt], "missing value " + opt
        if kind == "bad_number" and values:
            opt = rng.choice(values)
            bad = self.bad_value(opt, rng)
            return argv + [opt, bad], [opt], "bad value %s %r" % (opt, bad)
        extra = rng.choice(["extra.json", "{config}", "-", ""])
        return argv + [extra], ["argument", "CONFIG", extra or "argument"], "extra positional %r" % extra

    @staticmethod
    def good_value(cmd, opt, rng):
        return {"--backend": rng.choice(["cpu", "auto"]), "--threads": rng.choice(["1", "2"]), "--chunk": rng.choice(["1", "3", "4096"]),
                "--shard": rng.choice(["0/1", "0/2"]), "--devices": "0", "--index": rng.choice(["0", "1"]),
                "--sample": rng.choice(["0.5", "1"]), "--precision": rng.choice(["double", "float"]),
                "--json": "bench.json", "--reps": "1", "--max-trajectories": "1000", "--out": "{out}"}[opt]

    @staticmethod
    def bad_value(opt, rng):
        if opt == "--shard":
            return rng.choice(BAD_SHARDS)
        if opt == "--sample":
            return rng.choice(BAD_SAMPLES)
        if opt in ("--backend", "--precision"):
            return rng.choice(["", "CPU", "gpu", "cuda ", "single", "cuda"])
        if opt == "--devices":
            return rng.choice(["", "0,", "-1", "a", "0,0", "99"])
        if opt == "--json":
            return rng.choice(["", "/nonexistent/dir/b.json", "."])
        return rng.choice([v for v in BAD_INTEGERS if not (opt == "--index" and v == "0")])

    def generate(self, seed, index):
        """Case number `index` of the campaign with this seed."""
        rng = random.Random("%d:%d" % (seed, index))
        cmd = rng.choice(["run"] * 6 + ["trace"] * 3 + ["merge"] * 2 + ["bench", "help"])
        case = {"name": "seed%d-case%d" % (seed, index), "notes": [], "expect": {}}
        if cmd == "help":
            return self.help_case(case, rng)
        if cmd == "bench":
            return self.bench_case(case, rng)
        text, must, names, notes = self.config_case(rng, allow_mutation=(cmd != "merge" or rng.random() < 0.3))
        case["config"] = text
        case["notes"] += notes
        out_kind = rng.choice(OUT_KINDS) if rng.random() < 0.5 else "fresh"
        case["out_kind"] = out_kind
        if cmd == "run":
            argv = ["run", "{config}", "--out", "{out}"]
            for opt in rng.sample(["--threads", "--chunk", "--backend", "--shard", "--quiet", "--no-checkpoint", "--resume"], rng.randrange(0, 3)):
                argv += [opt] if opt in FLAG_OPTIONS["run"] else [opt, self.good_value("run", opt, rng)]
            if "--resume" in argv and "--no-checkpoint" in argv:
                must, names = True, names + ["--resume", "--no-checkpoint"]
            if "--resume" in argv and rng.random() < 0.6:
                self.add_interrupted_run(case, rng)
        elif cmd == "trace":
            argv = ["trace", "{config}", "--out", "{out}"]
            if rng.random() < 0.3:
                argv += ["--index", rng.choice(["0", "1", "7", "100000"])]
            if rng.random() < 0.3:
                argv += ["--sample", rng.choice(ODD_SAMPLES)]
        else:
            argv = self.merge_argv(case, rng)
            if "merge_must_reject" in case:
                must, names = True, names + case.pop("merge_must_reject")
        # An unmutated preset, options with valid values, an output path that can be written:
        # the command must succeed.
        index = argv[argv.index("--index") + 1] if "--index" in argv else "0"
        clean = not must and len(case["notes"]) == 1 and index == "0" and not ({"--resume", "--sample"} & set(argv)) and \
            out_kind in (("fresh", "symlink_dir", "existing_dir") if cmd != "trace" else ("fresh",))
        # an index past the scan, or --sample for a model without samples, is a reason to reject too
        names += [o for o in ("--index", "--sample") if o in argv]
        if rng.random() < 0.35:
            argv, opt_names, d = self.option_mutation(cmd, argv, rng)
            must, names, clean = True, names + opt_names, False
            case["notes"].append(d)
        if rng.random() < 0.1:
            argv.append("--overwrite")
            clean = False
        if rng.random() < 0.08:
            case["fsize"] = rng.choice([0, 100, 4096])
            case["fsize_signal"] = rng.choice(["ignore", "default"])
            clean = False
        if rng.random() < 0.04:
            case["config_kind"] = rng.choice(["dir", "missing", "device_null", "fifo_closed"])
            must, names, clean = True, names + ["{config}"], False
        case["argv"] = argv
        case["expect"] = {"exit": [2] if must else ([0] if clean else None), "names": sorted(set(names))}
        return case

    def help_case(self, case, rng):
        argv = rng.choice([[], ["--help"], ["-h"], ["--version"], ["help"], ["help", "run"], ["help", "nope"],
                           ["run", "--help"], ["trace", "--help"], ["merge", "--help"], ["bench", "--help"],
                           ["nope"], [""], ["-"], ["RUN"], ["--help", "--help"], ["run", "--help", "--bogus"]])
        case["argv"] = argv
        case["expect"] = {"exit": None, "names": []}
        return case

    def bench_case(self, case, rng):
        argv = ["bench"]
        if rng.random() < 0.2:
            argv += ["--quick", "--reps", "1", "--json", "{out}"]
            case["out_kind"] = rng.choice(OUT_KINDS)
            case["expect"] = {"exit": None, "names": []}
        else:  # option errors only: a real bench takes seconds
            # --reps 0 first: whatever the mutation, the bench must not start
            argv, names, d = self.option_mutation("bench", argv + ["--reps", "0", "--quick"], rng)
            names = names + ["--reps"]
            case["notes"].append(d)
            case["expect"] = {"exit": [2], "names": names}
        case["argv"] = argv
        return case

    def merge_argv(self, case, rng):
        case["setup"] = [{"argv": ["run", "{config}", "--out", "s0", "--shard", "0/2", "--quiet"]},
                         {"argv": ["run", "{config}", "--out", "s1", "--shard", "1/2", "--quiet"]}]
        argv = ["merge", "s0", "s1", "--out", "{out}"]
        r = rng.random()
        if r < 0.5:
            return argv
        fault = rng.choice(["missing", "twice", "other_config", "corrupt_meta", "delete_file", "out_is_shard", "not_shard"])
        case["notes"].append("merge fault " + fault)
        names = []
        if fault == "missing":
            argv = ["merge", "s1", "--out", "{out}"]
            names = ["shard 0/2"]
        elif fault == "twice":
            argv = ["merge", "s0", "s1", "s0", "--out", "{out}"]
            names = ["s0"]
        elif fault == "other_config":
            case["config2"] = json.dumps(small_config(self.examples["stadium"], rng))
            case["setup"][1] = {"argv": ["run", "{config2}", "--out", "s1", "--shard", "1/2", "--quiet"]}
            names = ["s1"]
        elif fault == "corrupt_meta":
            case["after_setup"] = [{"op": rng.choice(["truncate", "write"]), "path": "s1/meta.json",
                                    "text": rng.choice(["[]", "{}", "", '{"partial": 1}', "{"])}]
            names = ["s1"]
        elif fault == "delete_file":
            case["after_setup"] = [{"op": "delete", "path": rng.choice(["s1/range.json", "s1/status.values.npy", "s1/meta.json"])}]
            names = ["s1"]
        elif fault == "not_shard":
            case["setup"][1] = {"argv": ["run", "{config}", "--out", "s1", "--quiet"]}
            names = ["s1"]
        else:
            argv = ["merge", "s0", "s1", "--out", "s0"]
            return argv
        case["merge_must_reject"] = names
        return argv

    @staticmethod
    def add_interrupted_run(case, rng):
        """A run stopped by a file-size limit before its final writes: its checkpoint stays."""
        case.setdefault("setup", []).append({"argv": ["run", "{config}", "--out", "{out}", "--chunk", "1", "--quiet"],
                                             "fsize": rng.choice([0, 64, 300]), "may_fail": True})
