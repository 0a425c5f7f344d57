"""Runs one command-line fuzz case (see case_gen.py and README.md) in a fresh folder and checks
the invariants of the skipstone command line; returns the broken ones.

Invariants (ids as reported):
  crash        exit status outside {0, 1, 2}, a signal, or a message of an uncaught internal error
  timeout      the command ran past the time limit
  exit         the exit status is not the one the case expects (a must-reject input accepted, a
               valid input rejected)
  names        exit 2 without naming the offending key path or option
  exit1-input  exit 1 where nothing in the environment failed (bad input must be exit 2), or an
               exit-1 message that does not name the output path
  leftover     exit 2 left a new, removed or changed file behind
  clobber      a file that existed before was changed or removed (exit 0 without --overwrite,
               or exit 1), or a symlink, device or FIFO at an output path lost its kind
  tempfile     a temporary file (*.tmp.*, .skipstone-write-test*) outlived the command
  odd-name     a file named "-" or "--..." appeared (an option or stdout taken as a path)
  outputs      exit 0 whose outputs are missing or malformed (meta.json, .npy headers, CSV)
"""
import hashlib
import json
import os
import re
import shutil
import signal
import stat
import subprocess
import time
from pathlib import Path

INTERNAL_ERRORS = ["bad_alloc", "stoull", "stoll", "stoi", "stod", "basic_string", "basic_filebuf", "json.exception",
                   "vector::", "terminate called", "std::", "out_of_range", "invalid_argument", "bad_function_call"]
# Output kinds where the environment itself may fail a write (exit 1 is then legitimate).
ENV_FAIL_KINDS = {"existing_file", "existing_dir", "symlink_dir", "under_file", "readonly_dir", "ro_mount", "tmpfs_full",
                  "device_null", "device_full", "fifo", "missing_parent", "dangling_symlink", "symlink_file"}
# Output paths a command may refuse as its first check (exit 2 naming --out or --json): empty,
# an option, a folder where a file goes, an existing file or a link to one without --overwrite.
REFUSED_OUT_KINDS = {"empty", "option_like", "existing_file", "symlink_file", "existing_dir", "symlink_dir", "dash"}
TEMP_RE = re.compile(r"(\.tmp\.|\.skipstone-write-test)")
LISTING = ".mount-listing"


def out_name(case):
    cmd = case["argv"][0] if case.get("argv") else ""
    base = "out" if cmd in ("run", "merge") else ("bench.json" if cmd == "bench" else "out.csv")
    return {"missing_parent": "missing/sub/" + base, "under_file": "afile/" + base, "readonly_dir": "ro/" + base,
            "ro_mount": "rom/" + base, "tmpfs_full": "tiny/" + base, "dash": "-", "option_like": "--quiet",
            "empty": ""}.get(case.get("out_kind", "fresh"), base)


def substitute(items, case):
    subs = {"{config}": "config.json", "{config2}": "config2.json", "{out}": out_name(case)}
    return [subs.get(a, a) for a in items]


def prepare(case, d):
    """Creates the case folder: config files and whatever lies at the output path."""
    d.mkdir(parents=True)
    kind = case.get("config_kind", "file")
    if case.get("config") is not None:
        cfg = d / "config.json"
        if kind == "file":
            cfg.write_bytes(case["config"].encode("utf-8", "surrogatepass"))
        elif kind == "dir":
            cfg.mkdir()
        elif kind == "device_null":
            os.mknod(cfg, 0o644 | stat.S_IFCHR, os.makedev(1, 3))
        elif kind == "fifo_closed":  # a FIFO nobody writes to would block any reader: make it a dangling link
            cfg.symlink_to("nowhere.json")
    if case.get("config2") is not None:
        (d / "config2.json").write_text(case["config2"])
    k = case.get("out_kind", "fresh")
    out = d / out_name(case) if out_name(case) not in ("", "-", "--quiet") else None
    if k == "existing_outputs":
        if case["argv"][0] in ("run", "merge"):
            out.mkdir()
            (out / "meta.json").write_text('{"old": true}\n')
            (out / "status.npy").write_text("old map\n")
            (out / "notes.txt").write_text("keep me\n")
        else:
            out.write_text("old contents\n")
    elif k == "existing_dir":
        out.mkdir()
        (out / "notes.txt").write_text("keep me\n")
    elif k == "existing_file":
        out.write_text("old contents\n")
    elif k == "symlink_file":
        (d / "target.txt").write_text("target contents\n")
        out.symlink_to("target.txt")
    elif k == "symlink_dir":
        (d / "realdir").mkdir()
        (d / "realdir" / "notes.txt").write_text("keep me\n")
        out.symlink_to("realdir")
    elif k == "dangling_symlink":
        out.symlink_to("newtarget")
    elif k == "under_file":
        (d / "afile").write_text("a file\n")
    elif k == "readonly_dir":
        (d / "ro").mkdir()
        os.chmod(d / "ro", 0o555)
    elif k == "device_null":
        os.mknod(out, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    elif k == "device_full":
        os.mknod(out, 0o666 | stat.S_IFCHR, os.makedev(1, 7))
    elif k == "fifo":
        os.mkfifo(out)
    elif k == "ro_mount":
        (d / "rom").mkdir()
    elif k == "tmpfs_full":
        (d / "tiny").mkdir()


def snapshot(d):
    """Every entry under d: kind, size, content hash or link target."""
    snap = {}
    for root, dirs, files in os.walk(d):
        for name in dirs + files:
            p = Path(root, name)
            rel = str(p.relative_to(d))
            if rel == LISTING:
                continue
            st = os.lstat(p)
            if stat.S_ISLNK(st.st_mode):
                snap[rel] = ("link", os.readlink(p))
            elif stat.S_ISREG(st.st_mode):
                snap[rel] = ("file", hashlib.sha1(p.read_bytes()).hexdigest())
            elif stat.S_ISDIR(st.st_mode):
                snap[rel] = ("dir",)
            else:
                snap[rel] = ("special", stat.S_IFMT(st.st_mode), st.st_rdev)
    return snap


def command(binary, case, argv):
    """The process to start: the binary, inside a private mount namespace for the mount kinds."""
    k = case.get("out_kind")
    if k == "ro_mount":
        script = 'mount --bind rom rom && mount -o remount,ro,bind rom || exit 97; "$@"; rc=$?; exit $rc'
    elif k == "tmpfs_full":
        script = ('mount -t tmpfs -o size=12k tmpfs tiny || exit 97; "$@"; rc=$?; '
                  '(cd tiny && find . -mindepth 1 -printf "%y %p\\n") > ' + LISTING + '; exit $rc')
    else:
        return [binary] + argv
    return ["unshare", "-m", "sh", "-c", script, "sh", binary] + argv


def run_process(binary, case, argv, d, timeout, fsize=None, fsize_signal="ignore"):
    def limits():
        if fsize is not None:
            import resource
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN if fsize_signal == "ignore" else signal.SIG_DFL)
    start = time.monotonic()
    p = subprocess.Popen(command(binary, case, argv), cwd=d, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, preexec_fn=limits, start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        timed_out = True
    rc = p.returncode
    if case.get("out_kind") in ("ro_mount", "tmpfs_full") and rc is not None and rc > 128:
        rc = -(rc - 128)  # the shell reports a signal as 128 + n
    return rc, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), timed_out, time.monotonic() - start


def npy_shape(path):
    with open(path, "rb") as f:
        head = f.read(10)
        if head[:6] != b"\x93NUMPY":
            raise ValueError("no NPY magic")
        n = int.from_bytes(head[8:10], "little") if head[6] == 1 else int.from_bytes(head[8:10] + f.read(2), "little")
        header = f.read(n).decode("latin1")
    m = re.search(r"'shape': \(([^)]*)\)", header)
    if not m:
        raise ValueError("no shape in header " + header)
    return tuple(int(x) for x in m.group(1).split(",") if x.strip())


def check_outputs(case, argv, d, stdout):
    """Problems with the outputs of a successful command (empty list when they are fine)."""
    cmd = argv[0] if argv else ""
    if cmd not in ("run", "merge", "trace", "bench") or "--help" in argv:
        return []
    o = len(argv) - argv[::-1].index("--out") if "--out" in argv else None  # the last --out
    if cmd == "bench":
        if "--json" not in argv:
            return []
        target = argv[argv.index("--json") + 1]
        path = d / target
        if target != "-" and path.exists() and not path.is_file():
            return []
        try:
            json.loads(stdout if target == "-" else path.read_text())
        except Exception as e:
            return ["bench --json file unreadable: %s" % e]
        return []
    path = d / argv[o]
    if path.exists() and not path.is_file() and not path.is_dir():
        return []  # written into a device or FIFO: nothing to read back
    if cmd == "trace":
        m = re.search(r"wrote (\d+) rows", stdout)
        text = stdout if argv[o] == "-" else (path.read_text() if path.is_file() else None)
        if text is None:
            return ["trace wrote no file at %s" % argv[o]]
        lines = text.splitlines()
        if m and argv[o] != "-" and len(lines) != int(m.group(1)) + 1:
            return ["trace CSV has %d lines for %s rows" % (len(lines), m.group(1))]
        return []
    try:
        meta = json.loads((path / "meta.json").read_text())
    except Exception as e:
        return ["meta.json unreadable: %s" % e]
    problems = []
    if "partial" in meta:
        if not (path / "range.json").is_file():
            problems.append("shard output without range.json")
        return problems
    shape = tuple(meta.get("shape", ()))
    for name, info in meta.get("observables", {}).items():
        f = path / info.get("file", "")
        try:
            s = npy_shape(f)
        except Exception as e:
            problems.append("%s: %s" % (info.get("file"), e))
            continue
        # vector observables: the lengths of the fixed ones, or the columns or times meta.json names
        length = {"annulus_axis": (3,), "lyapunov_spectrum": (5,)}.get(name, ())
        per_row = info.get("columns", info.get("times"))
        want = shape + ((len(per_row),) if per_row is not None else length)
        if s != want:
            problems.append("%s: shape %s, meta.json says %s" % (info.get("file"), s, want))
    if (path / ".checkpoint").exists():
        problems.append(".checkpoint left after a completed run")
    return problems


def first_line(text):
    return (text.strip().splitlines() or [""])[-1][:300]


def check(case, argv, d, before, after, rc, stdout, stderr, timed_out, listing):
    """The broken invariants: list of (id, detail)."""
    found = []
    expect = case.get("expect", {})
    overwrite = "--overwrite" in argv
    if timed_out:
        return [("timeout", "no exit within the limit")]
    if rc not in (0, 1, 2):
        found.append(("crash", "exit status %s; stderr: %s" % (rc, first_line(stderr))))
    internal = [w for w in INTERNAL_ERRORS if w in stderr]
    if internal and rc != 2:
        found.append(("crash", "internal error text %r: %s" % (internal[0], first_line(stderr))))
    env = case.get("out_kind") in ENV_FAIL_KINDS or case.get("fsize") is not None or "bytes free" in stderr
    outs = [argv[i + 1] for i in range(len(argv) - 1) if argv[i] == "--out"]
    outp = outs[-1] if outs else out_name(case)
    env_named = env and outp and (outp in stderr or Path(outp).name in stderr)
    # A failing output location may stop the command before it looks at a bad input.
    if expect.get("exit") is not None and rc not in expect["exit"] and not (rc == 1 and env_named and 2 in expect["exit"]):
        found.append(("exit", "exit %s, expected %s; stderr: %s" % (rc, expect["exit"], first_line(stderr))))
    if rc == 2:
        names = substitute(expect.get("names", []), case) + (["--overwrite"] if overwrite else [])
        if case.get("out_kind") in REFUSED_OUT_KINDS:  # refused before the config and other options are read
            names += ["--out", "--json"]
        if case.get("out_kind") == "existing_outputs" and outp:  # files no run of ours wrote: refused naming them
            # run and merge name the output folder; trace and bench the file given to --out
            names += ["output folder " + Path(outp).name] if argv[:1] in (["run"], ["merge"]) else ["--out " + outp]
        if names and not any(n in stderr for n in names):
            found.append(("names", "stderr names none of %s: %s" % (names[:6], first_line(stderr))))
        if not stderr.strip():
            found.append(("names", "exit 2 with an empty stderr"))
    if rc == 1 and not env_named:
        found.append(("exit1-input", "exit 1 (%s): %s" % ("names no output path" if env else "no failing environment",
                                                          first_line(stderr))))
    created = sorted(set(after) - set(before))
    removed = sorted(set(before) - set(after))
    changed = sorted(k for k in set(before) & set(after) if before[k] != after[k])
    if listing:
        created += ["tiny/" + line.split(" ", 1)[1][2:] for line in listing.splitlines() if " " in line]
    temps = [p for p in created if TEMP_RE.search(p)]
    if temps:
        found.append(("tempfile", "left behind: %s" % temps[:3]))
    odd = [p for p in created if Path(p).name == "-" or Path(p).name.startswith("--")]
    if odd:
        found.append(("odd-name", "created %s" % odd[:3]))
    if rc == 2 and (created or removed or changed):
        found.append(("leftover", "exit 2 but created %s removed %s changed %s" % (created[:4], removed[:4], changed[:4])))
    # Entries that existed before: untouched on failure and, without --overwrite, on success;
    # a checkpoint is consumed by a successful --resume.
    touched = [p for p in removed + changed if not (rc == 0 and "/.checkpoint" in "/" + p)]
    if rc != 2 and touched and (rc == 1 or not overwrite):
        found.append(("clobber", "exit %s %s: removed %s changed %s" % (rc, "with --overwrite" if overwrite else "without --overwrite",
                                                                      removed[:4], changed[:4])))
    if rc == 0 and overwrite and outp in before and before[outp][0] in ("link", "special") and \
            after.get(outp, ("gone",))[0] != before[outp][0]:
        found.append(("clobber", "%s at the output path replaced by %s" % (before[outp][0], after.get(outp, ("nothing",))[0])))
    if rc == 0 and case.get("out_kind") != "tmpfs_full":  # a private mount is gone by now
        for p in check_outputs(case, argv, d, stdout):
            found.append(("outputs", p))
    return found


def execute(binary, case, workdir, timeout=20.0):
    """Runs the case; returns dict(rc, findings, seconds, stderr, skipped)."""
    d = Path(workdir)
    if d.exists():
        make_writable(d)
        shutil.rmtree(d)
    try:
        prepare(case, d)
    except PermissionError as e:  # mknod needs root: this machine cannot stage the case
        return {"rc": None, "findings": [], "seconds": 0, "stderr": str(e), "skipped": True, "unsupported": True}
    findings = []
    for step in case.get("setup", []):
        argv = substitute(step["argv"], case)
        rc, out, err, to, _ = run_process(binary, {}, argv, d, timeout, step.get("fsize"), "ignore")
        if to or rc not in (0, 1, 2):
            return {"rc": rc, "findings": [("crash" if not to else "timeout", "set-up %s: %s" % (argv, first_line(err)))],
                    "seconds": 0, "stderr": err, "skipped": False}
        if rc != 0 and not step.get("may_fail"):
            return {"rc": rc, "findings": [], "seconds": 0, "stderr": err, "skipped": True}
    for op in case.get("after_setup", []):
        p = d / op["path"]
        if op["op"] == "delete" and p.exists():
            p.unlink()
        elif op["op"] == "truncate" and p.exists():
            p.write_bytes(p.read_bytes()[: len(p.read_bytes()) // 2])
        elif op["op"] == "write":
            p.write_text(op["text"])
    argv = substitute(case["argv"], case)
    before = snapshot(d)
    rc, out, err, timed_out, secs = run_process(binary, case, argv, d, timeout, case.get("fsize"),
                                                case.get("fsize_signal", "ignore"))
    if case.get("out_kind") in ("ro_mount", "tmpfs_full") and (rc == 97 or err.startswith("unshare:")):
        # no private mount namespace here (needs root)
        return {"rc": rc, "findings": [], "seconds": secs, "stderr": err, "skipped": True, "unsupported": True}
    listing = (d / LISTING).read_text() if (d / LISTING).exists() else ""
    after = snapshot(d)
    findings += check(case, argv, d, before, after, rc, out, err, timed_out, listing)
    return {"rc": rc, "findings": findings, "seconds": secs, "stderr": err, "stdout": out, "skipped": False}


def make_writable(d):
    for root, dirs, _ in os.walk(d):
        for name in dirs:
            p = Path(root, name)
            if not p.is_symlink():
                os.chmod(p, 0o755)
