#!/usr/bin/python3
"""Fuzz campaign of the whole skipstone command line: commands, options and their combinations,
output paths and mutated configs (case_gen.py), each run checked against the invariants in
case_run.py. Runs the regression corpus first (every entry must pass), then random cases
deterministic from --seed, for --cases N or --seconds S. A new finding is minimised and, with
--save DIR, written there as a corpus entry. Findings that match tests/cli_fuzz/known_open.json
(bugs being fixed) are counted but do not fail the run.

  cli_fuzz.py --binary build/host/skipstone --corpus tests/cli_fuzz/corpus --seed 1 --cases 200
Exit status 0 when the corpus passes and no new finding turned up, 1 otherwise.
"""
import argparse
import copy
import json
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from case_gen import CaseGenerator  # noqa: E402
from case_run import execute  # noqa: E402


def signature(case, inv, detail):
    """What makes two findings the same bug: invariant, command, mutation kind and the message
    with numbers, quoted text and key paths blanked."""
    cmd = case["argv"][0] if case.get("argv") else "-"
    kinds = sorted({re.split(r"[ :]", n)[0] for n in case.get("notes", [])[1:]})
    msg = re.sub(r"config error: [^:]*:", "config error: K:", detail)
    msg = re.sub(r"'[^']*'|\"[^\"]*\"|\[[^\]]*\]", "Q", msg)
    msg = re.sub(r"--?[\w\u0080-\uffff=-]+", "OPT", msg)
    msg = re.sub(r"[-+]?\d[\d.eE+x/]*", "N", msg)
    msg = re.sub(r"\b(out|bench\.json|out\.csv|config\.json)\b\S*", "P", msg)[:120]
    return "%s|%s|%s|%s|%s" % (inv, cmd, case.get("out_kind", "fresh") if inv in ("clobber", "odd-name", "exit1-input") else "",
                               ",".join(kinds) if inv in ("exit", "names", "leftover") else "", msg)


def matches_known(case, inv, detail, known):
    text = json.dumps(case, ensure_ascii=False) + " " + detail
    for k in known:
        if inv in k["invariant"] and all(s in text for s in k.get("all_of", [])) and \
                (not k.get("any_of") or any(s in text for s in k["any_of"])):
            return k["id"]
    return None


def still_fails(binary, case, sig, rc, work, timeout):
    r = execute(binary, case, work, timeout)
    return not r["skipped"] and r["rc"] == rc and any(signature(case, *f) == sig for f in r["findings"])


def minimise(binary, case, sig, rc, work, timeout, budget=60):
    """Greedy: drop options, set-up steps, the output-path kind, the file-size limit and config
    keys while the same finding (signature and exit status) remains. Options and key paths the
    case's expected message names stay: they are what makes the input bad."""
    tries = 0
    protected = set(case.get("expect", {}).get("names", []))
    protected_keys = {n[len("config error: "):] for n in protected if n.startswith("config error: ")}

    def attempt(c):
        nonlocal tries
        tries += 1
        return tries <= budget and still_fails(binary, c, sig, rc, work, timeout)

    case = copy.deepcopy(case)
    for key in ("fsize", "out_kind", "setup", "after_setup", "config_kind"):
        if key in case and not (key == "out_kind" and case[key] in ("dash", "option_like", "empty")):
            c = copy.deepcopy(case)
            del c[key]
            if attempt(c):
                case = c
    i = 2
    while i < len(case.get("argv", [])):
        a = case["argv"]
        width = 2 if i + 1 < len(a) and a[i].startswith("--") and not a[i + 1].startswith("--") and a[i] != "--out" else 1
        if a[i] in ("--out", "{out}", "{config}") or a[i - 1] == "--out" or a[i] in protected:
            i += 1
            continue
        c = copy.deepcopy(case)
        del c["argv"][i:i + width]
        if attempt(c):
            case = c
        else:
            i += width
    try:
        cfg = json.loads(case.get("config") or "null")
    except ValueError:
        cfg = None
    if isinstance(cfg, dict):
        for top in list(cfg):
            sub = cfg[top]
            targets = [(top,)] + ([(top, k) for k in sub] if isinstance(sub, dict) else [])
            for path in reversed(targets):
                text = ".".join(path)
                if any(k == text or k.startswith(text + ".") or k.startswith(text + "[") for k in protected_keys):
                    continue
                trial = copy.deepcopy(cfg)
                obj = trial
                for p in path[:-1]:
                    obj = obj[p]
                if path[-1] not in obj:
                    continue
                del obj[path[-1]]
                c = copy.deepcopy(case)
                c["config"] = json.dumps(trial)
                # keep text-level mutations (duplicates, broken JSON): only shrink parsed configs
                if json.loads(case["config"]) is not None and "duplicate" not in " ".join(case.get("notes", [])) and attempt(c):
                    case, cfg = c, trial
    return case


def reproduction(case):
    """A shell line that reproduces the case by hand (config written next to it)."""
    from case_run import out_name, substitute
    setup = " && ".join("skipstone " + " ".join(map(shell_quote, substitute(s["argv"], case))) for s in case.get("setup", []))
    main = "skipstone " + " ".join(map(shell_quote, substitute(case.get("argv", []), case)))
    extra = []
    if case.get("out_kind", "fresh") != "fresh":
        extra.append("output path %r prepared as %s" % (out_name(case), case["out_kind"]))
    if case.get("fsize") is not None:
        extra.append("ulimit -f %s (SIGXFSZ %s)" % (case["fsize"], case.get("fsize_signal", "ignore")))
    return (setup + " && " if setup else "") + main + ("   # " + "; ".join(extra) if extra else "")


def shell_quote(s):
    return s if re.fullmatch(r"[\w./{}=:-]+", s) else "'" + s.replace("'", "'\\''") + "'"


def run_corpus(binary, dirs, work, timeout, verbose):
    failures = []
    count = 0
    for d in dirs:
        for f in sorted(Path(d).glob("*.json")):
            case = json.loads(f.read_text())
            r = execute(binary, case, work / "corpus", timeout)
            count += 1
            if r.get("unsupported"):
                print("skip %s/%s: %s" % (Path(d).name, f.name, r["stderr"].strip()[:200]))
                continue
            bad = r["findings"] or r["skipped"]
            if bad:
                failures.append((f.name, r["findings"] or [("skipped", "set-up failed: " + r["stderr"][-200:])]))
            if verbose or bad:
                print("%s %s/%s %s" % ("FAIL" if bad else "pass", Path(d).name, f.name,
                                       "; ".join("%s: %s" % x for x in (r["findings"] or [])) or ""))
    return count, failures


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--binary", required=True)
    ap.add_argument("--source-dir", default=str(Path(__file__).resolve().parents[2]))
    ap.add_argument("--corpus", action="append", default=[], help="corpus folder (every entry must pass)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cases", type=int, default=0, help="random cases to run")
    ap.add_argument("--seconds", type=float, default=0, help="run random cases for this long instead")
    ap.add_argument("--known-open", default=str(Path(__file__).resolve().parent / "known_open.json"))
    ap.add_argument("--save", help="folder for minimised new findings (corpus format)")
    ap.add_argument("--report", help="write the campaign summary as JSON here")
    ap.add_argument("--timeout", type=float, default=20.0)
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--no-minimise", action="store_true", help="report findings as generated")
    args = ap.parse_args()
    binary = str(Path(args.binary).resolve())
    known = json.loads(Path(args.known_open).read_text()) if Path(args.known_open).is_file() else []
    gen = CaseGenerator(args.source_dir)
    with tempfile.TemporaryDirectory(prefix="skipstone-cli-fuzz-") as tmp:
        work = Path(tmp)
        t0 = time.monotonic()
        n_corpus, corpus_failures = run_corpus(binary, args.corpus, work, args.timeout, args.verbose)
        print("corpus: %d entries, %d failed (%.1f s)" % (n_corpus, len(corpus_failures), time.monotonic() - t0))
        t0 = time.monotonic()
        execs, skipped, findings, per_inv, harness_errors = 0, 0, {}, {}, 0
        i = 0
        while (args.seconds and time.monotonic() - t0 < args.seconds) or (not args.seconds and i < args.cases):
            try:
                case = gen.generate(args.seed, i)
            except Exception as e:  # a bug of the generator, not of skipstone: report it and go on
                print("HARNESS ERROR generating case %d of seed %d: %r" % (i, args.seed, e))
                harness_errors += 1
                i += 1
                continue
            i += 1
            r = execute(binary, case, work / "case", args.timeout)
            execs += 1
            if r["skipped"]:
                skipped += 1
                continue
            for inv, detail in r["findings"]:
                per_inv[inv] = per_inv.get(inv, 0) + 1
                sig = signature(case, inv, detail)
                if sig in findings:
                    findings[sig]["hits"] += 1
                    continue
                k = matches_known(case, inv, detail, known)
                small = case if k or args.no_minimise else minimise(binary, case, sig, r["rc"], work / "min", args.timeout)
                small["name"] = "%s-%s" % (case["name"], inv)
                findings[sig] = {"invariant": inv, "detail": detail, "known_open": k, "hits": 1, "case": small,
                                 "reproduce": reproduction(small)}
                print("%s %s [%s] (%s): %s\n    %s" % ("known " + k if k else "NEW", inv, case["name"], "; ".join(case.get("notes", [])),
                                                     detail, reproduction(small)))
                if args.save and not k:
                    Path(args.save).mkdir(parents=True, exist_ok=True)
                    Path(args.save, small["name"] + ".json").write_text(json.dumps(small, indent=1, ensure_ascii=False) + "\n")
        secs = time.monotonic() - t0
    new = [f for f in findings.values() if not f["known_open"]]
    print("random: seed %d, %d executions (%d skipped: set-up failed) in %.1f s = %.1f exec/s; %d distinct findings "
          "(%d known open, %d new); broken invariants per execution: %s"
          % (args.seed, execs, skipped, secs, execs / secs if secs else 0, len(findings), len(findings) - len(new), len(new),
             json.dumps(per_inv, sort_keys=True)))
    if args.report:
        Path(args.report).write_text(json.dumps({"seed": args.seed, "executions": execs, "skipped": skipped, "seconds": secs,
                                                 "corpus_entries": n_corpus, "corpus_failures": corpus_failures,
                                                 "per_invariant": per_inv, "findings": list(findings.values())},
                                                indent=1, ensure_ascii=False) + "\n")
    return 1 if corpus_failures or new or harness_errors else 0


if __name__ == "__main__":
    sys.exit(main())
