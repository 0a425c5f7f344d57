"""The height over time from Python: skipstone.run's height_series array (shape (..., points)),
its times in meta.json, and examples/analysis/height_over_time.py's mean and variance over the
realisations of examples/noisy_height_series.json on a small grid: no spread at sigma = 0 or at
t = 0, a spread under noise."""
import json
import subprocess
import sys

import numpy as np

import skipstone
from conftest import SOURCE_DIR, example


def small():
    config = example("noisy_height_series", grid=[2, 4], stop={"t_max": 20.0})
    config["outputs"]["height_series"]["points"] = 11
    return config


def test_height_series_mean_and_variance_over_realisations(tmp_path):
    result = skipstone.run(small(), out=tmp_path / "out")
    series = result.observables["height_series"]
    assert series.shape == (4, 2, 11)  # (realisation, noise_sigma, time)
    times = json.loads((tmp_path / "out" / "meta.json").read_text())["observables"]["height_series"]["times"]
    assert np.allclose(times, np.linspace(0.0, 20.0, 11), rtol=0, atol=1e-15)
    assert np.all(np.isfinite(series))
    assert np.all(series[:, :, 0] == 0.0)  # the start's height z
    assert np.ptp(series[:, 0, :], axis=0).max() == 0.0  # sigma = 0: every realisation the same
    assert np.ptp(series[:, 1, -1]) > 1e-3  # sigma = 0.1: other noise paths, other heights
    done = subprocess.run([sys.executable, str(SOURCE_DIR / "examples" / "analysis" / "height_over_time.py"),
                           str(tmp_path / "out"), "--plot", str(tmp_path / "height.png")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "| noise_sigma = 0.1 | 20 | 4 |" in done.stdout, done.stdout
    assert (tmp_path / "height.png").stat().st_size > 1000


def test_inside_cylinder_on_a_rough_wall_from_python(tmp_path):
    """examples/noisy_inside_cylinder.json on a small grid: sigma = 0 is the closed form's
    oscillation in [-3.2, 0] (amplitude g_eff / w^2 = 1.6 about -1.6), the same in every
    realisation; under roughness the realisations part and none rises above its start."""
    config = example("noisy_inside_cylinder", grid=[2, 4], stop={"t_max": 30.0})
    config["outputs"]["height_series"]["points"] = 301
    result = skipstone.run(config, out=tmp_path / "out")
    series = result.observables["height_series"]
    assert series.shape == (4, 2, 301)  # (realisation, noise_sigma, time)
    assert np.all(np.isfinite(series))
    assert np.ptp(series[:, 0, :], axis=0).max() == 0.0
    assert abs(series[0, 0, :].min() + 3.2) < 1e-2 and series[0, 0, :].max() <= 1e-12
    assert np.ptp(series[:, 1, -1]) > 1e-2  # sigma = 0.2
    assert result.observables["z_max"].max() <= 1e-12  # the energy keeps every path at or below its start
