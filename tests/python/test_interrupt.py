"""Ctrl-C (SIGINT) during skipstone.run stops it between chunks with KeyboardInterrupt; the
chunks finished so far stay in the checkpoint, and `skipstone run --resume` (with the same
--set values as the overrides) finishes the run with the outputs of an uninterrupted one."""
import os
import signal
import subprocess
import sys
import time

import numpy as np

from conftest import cli, example, write_config

# 12 chunks of 8192 disc trajectories of up to 1000 impacts, each about half a second on one thread.
CONFIG = dict(example("disc_random"), stop={"max_events": 1000},
              scan=dict(example("disc_random")["scan"], count=98304), options={"chunk_size": 8192})
SCRIPT = """
import sys, skipstone
try:
    skipstone.run(sys.argv[1], out=sys.argv[2], overrides={"parameters.gamma": 0.7}, threads=1)
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(3)
"""


def test_sigint_stops_the_run_and_resume_finishes_it(tmp_path):
    path = write_config(tmp_path, CONFIG)
    out = tmp_path / "out"
    child = subprocess.Popen([sys.executable, "-c", SCRIPT, str(path), str(out)], stdout=subprocess.PIPE, text=True,
                             env=os.environ)
    deadline = time.monotonic() + 120
    while not any((out / ".checkpoint").glob("chunk_*")) and time.monotonic() < deadline:
        time.sleep(0.02)
    child.send_signal(signal.SIGINT)
    stdout, _ = child.communicate(timeout=120)
    assert child.returncode == 3 and "interrupted" in stdout
    assert not (out / "meta.json").exists()
    assert any((out / ".checkpoint").glob("chunk_*"))
    cli("run", path, "--out", out, "--resume", "--backend", "cpu", "--quiet", "--set", "parameters.gamma=0.7")
    reference = tmp_path / "reference"
    cli("run", path, "--out", reference, "--backend", "cpu", "--quiet", "--set", "parameters.gamma=0.7")
    for name in ("status", "rho_even", "rho_odd"):
        assert np.load(out / f"{name}.npy").tobytes() == np.load(reference / f"{name}.npy").tobytes(), name
