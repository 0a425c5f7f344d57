"""The scripts of examples/python run on a small grid and write their figures."""
import os
import subprocess
import sys

import pytest

from conftest import SOURCE_DIR

SCRIPTS = {"figure18_eta.py": ["figure18_eta.png"], "rolling_vs_noslip.py": ["rolling_vs_noslip.png"],
           "stadium_scan.py": ["figures/status.png", "figures/z_max.pdf"]}


@pytest.mark.parametrize("script", SCRIPTS)
def test_example_runs_small(tmp_path, script):
    done = subprocess.run([sys.executable, str(SOURCE_DIR / "examples" / "python" / script), "--small", "--out", str(tmp_path)],
                          capture_output=True, text=True, env=os.environ)
    assert done.returncode == 0, done.stderr
    for name in SCRIPTS[script]:
        assert (tmp_path / name).stat().st_size > 1000, name


def test_every_example_is_tested():
    assert sorted(p.name for p in (SOURCE_DIR / "examples" / "python").glob("*.py")) == sorted(SCRIPTS)
