"""Shared helpers of the Python module's tests: the CLI binary and source tree (from CTest's
environment: SKIPSTONE_BINARY, SKIPSTONE_SOURCE_DIR), small versions of the example configs,
and running `skipstone run` on a config to compare with."""
import json
import os
import subprocess
from pathlib import Path

SOURCE_DIR = Path(os.environ.get("SKIPSTONE_SOURCE_DIR", Path(__file__).resolve().parents[2]))
BINARY = os.environ.get("SKIPSTONE_BINARY", str(SOURCE_DIR / "build" / "skipstone"))


def example(name, grid=None, **sections):
    """examples/<name>.json as a dict, with its grid axes' n set to `grid` (a list) or its
    random count set to `count`, and any section keys replaced by `sections`."""
    config = json.loads((SOURCE_DIR / "examples" / f"{name}.json").read_text())
    if grid is not None:
        for axis, n in zip(config["scan"]["axes"], grid):
            axis["n"] = n
    for section, values in sections.items():
        config.setdefault(section, {}).update(values)
    return config


def write_config(tmp_path, config, name="config.json"):
    path = tmp_path / name
    path.write_text(json.dumps(config))
    return path


def cli(*args, check=True):
    """Runs the skipstone binary; returns the CompletedProcess (text output)."""
    done = subprocess.run([BINARY, *map(str, args)], capture_output=True, text=True)
    if check and done.returncode != 0:
        raise AssertionError(f"skipstone {' '.join(map(str, args))} exited {done.returncode}: {done.stderr}")
    return done


def cli_run(config_path, out):
    cli("run", config_path, "--out", out, "--backend", "cpu", "--quiet")
    return out


def same_array(a, b):
    """Equal bit for bit: dtype, shape and every byte (NaN payloads included)."""
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
