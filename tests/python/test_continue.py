"""A scan continued from Python: the final_state array of skipstone.run, saved with numpy and
given back as a state file, continues the run where a single run of the summed length ends (the
no-slip stadium, driven:ball on its drive's clock, the rubber ball over a sphere, a noisy ball
inside a cylinder with its noise process); the row layout is the one meta.json names."""
import json

import numpy as np
import pytest

import skipstone

# tolerances of the C++ continuation tests (tests/test_state_file.cpp, test_state_file_driven.cpp,
# test_state_file_rubber.cpp)
CASES = {
    "stadium": ({"system": "stadium", "parameters": {"half_length": 1.0, "R": 1.0, "gamma": 0.8165},
                 "initial": {"start": "interior", "x": 0.2, "y": 0.1, "speed": 1.0, "spin": 0.3},
                 "scan": {"axes": [{"param": "angle", "min": 0.1, "max": 3.0, "n": 6}]}}, 3.0, 1e-12),
    "driven_ball": ({"system": "driven:ball",
                     "parameters": {"gamma": 1.0, "drive": 2.0, "d1_ratio": 0.7, "cm3": -0.1},
                     "initial": {"start": "rolling", "lean": 0.2, "wz": 0.5, "theta": -1.2},
                     "scan": {"axes": [{"param": "wy", "min": -1.0, "max": 1.0, "n": 6}]},
                     "options": {"rtol": 1e-12, "atol": 1e-12}}, 0.15, 1e-9),
    "rubber_sphere": ({"system": "rubber:sphere", "parameters": {"a": 1.0, "b": -0.4, "I1": 1.0, "I2": 1.4, "I3": 2.1},
                       "initial": {"start": "body", "phi": 0.4, "wx": 0.3, "wy": 1.1, "wz": -0.6},
                       "scan": {"axes": [{"param": "theta", "min": 0.3, "max": 2.8, "n": 6}]},
                       "options": {"rtol": 1e-12, "atol": 1e-12}}, 2.5, 1e-10),
    # a slipping contact whose noise process barely moves (tau 1e16): the rows' noise columns
    # carry it on (tests/test_noisy_continuation.cpp: 2.3e-8)
    "noisy_inside_cylinder": ({"system": "roll3:inside-cylinder",
                               "parameters": {"R": 1.0, "r": 0.2, "gamma": 0.6325, "g": 1.0, "noise": 1,
                                              "noise_sigma": 0.1, "noise_tau": 1e16, "noise_dt": 1e-4},
                               "initial": {"start": "wall", "angle": 0.0, "z": 0.0, "v1": 1.0, "spin": 0.0},
                               "scan": {"axes": [{"param": "v2", "min": -1.0, "max": 1.0, "n": 6}]}}, 2.5, 1e-6),
}


def with_stop(config, t_max):
    return dict(config, stop={"t_max": t_max}, observables=["status", "t_end", "final_state"])


@pytest.mark.parametrize("name", CASES)
def test_final_states_fed_back_continue_the_run(tmp_path, name):
    config, half, tolerance = CASES[name]
    whole = skipstone.run(with_stop(config, 5.0))
    first = skipstone.run(with_stop(config, half), out=tmp_path / "first")
    rows = first.observables["final_state"]
    columns = json.loads((tmp_path / "first" / "meta.json").read_text())["observables"]["final_state"]["columns"]
    assert rows.shape == (6, len(columns))
    np.save(tmp_path / "rows.npy", rows)
    rest = {k: v for k, v in config.items() if k != "scan"}
    rest["initial"] = {"start": "state_file", "file": str(tmp_path / "rows.npy")}
    second = skipstone.run(with_stop(rest, 5.0 - half))
    a, b = whole.observables["final_state"], second.observables["final_state"]
    assert np.all(np.isfinite(a))
    assert np.max(np.abs(a - b) / np.maximum(1.0, np.abs(a))) <= tolerance
    assert np.allclose(second.observables["t_end"], 5.0 - half, rtol=0, atol=1e-13)
