"""run(overrides=...): key paths set in the config before it is checked; a bad path or value
raises ConfigError naming the key path."""
import pytest

import skipstone
from conftest import example, same_array

SMALL = example("figure18", grid=[16, 8])


def test_overrides_equal_the_edited_config():
    edited = example("figure18", grid=[12, 10], parameters={"eta": 0.25})
    r = skipstone.run(SMALL, overrides={"scan.axes[0].n": 12, "scan.axes[1].n": 10, "parameters.eta": 0.25})
    expected = skipstone.run(edited)
    assert r["exit_time"].shape == (10, 12)
    assert r.meta["config"] == expected.meta["config"]
    for obs in expected.observables:
        assert same_array(r[obs], expected[obs]), obs


def test_an_override_may_add_a_key_and_a_section():
    r = skipstone.run(example("stadium", grid=[8, 4]), overrides={"stop.max_events": 20, "options.chunk_size": 4096})
    assert r.meta["config"]["stop"]["max_events"] == 20
    assert r.meta["config"]["options"]["chunk_size"] == 4096


@pytest.mark.parametrize("path, message", [
    ("scan.axes[5].n", "index 5 is outside scan.axes, which has 2 elements"),
    ("system.name", "system is string, not an object"),
    ("parameters[0]", "parameters is object, not an array"),
    ("scan..axes", "malformed key path"),
    ("scan.axes[x].n", "malformed key path"),
    ("", "empty key path"),
])
def test_a_bad_path_raises_config_error_naming_it(path, message):
    with pytest.raises(skipstone.ConfigError) as e:
        skipstone.run(SMALL, overrides={path: 1})
    assert e.value.key == path
    assert message in str(e.value)


@pytest.mark.parametrize("path, value, message", [
    ("scan.axes[0].n", -3, "scan.axes[0].n"),
    ("parameters.eta", "half", "parameters.eta"),
    ("parameters.eta", float("nan"), "parameters.eta"),
    ("stop.t_mx", 3.0, "stop.t_mx"),
    ("initial.speed", object(), "a Python object is not a config value"),
])
def test_a_bad_value_raises_config_error_naming_the_key(path, value, message):
    with pytest.raises(skipstone.ConfigError) as e:
        skipstone.run(SMALL, overrides={path: value})
    assert e.value.key == path
    assert message in str(e.value)


def test_numpy_values_are_accepted():
    import numpy as np
    r = skipstone.run(SMALL, overrides={"scan.axes[0].n": np.int64(4), "parameters.eta": np.float32(0.25)})
    assert r["status"].shape == (8, 4)
    assert r.meta["config"]["parameters"]["eta"] == 0.25
