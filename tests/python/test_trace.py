"""skipstone.trace gives the rows of `skipstone trace` (its CSV columns as fields, every value
equal), picks the grid point nearest to coords, and rejects bad choices as UsageErrors."""
import numpy as np
import pytest

import skipstone
from conftest import cli, example, write_config
from skipstone._trace import rows_of_csv

STADIUM = example("stadium", grid=[8, 6])
FIGURE18 = example("figure18", grid=[24, 16])


@pytest.mark.parametrize("name, config, index, sample", [
    ("stadium events", STADIUM, 5, None),
    ("figure18 steps", FIGURE18, 200, None),
    ("roll4:disc samples", example("figure20"), 0, 0.5),
])
def test_rows_equal_the_cli_csv(tmp_path, name, config, index, sample):
    path = write_config(tmp_path, config)
    args = ["trace", path, "--out", "-", "--index", index] + (["--sample", sample] if sample else [])
    expected = rows_of_csv(cli(*args).stdout)
    rows = skipstone.trace(path, index=index, sample=sample)
    assert len(rows) > 1, name
    assert rows.dtype == expected.dtype
    assert rows.tobytes() == expected.tobytes(), name


def test_columns_are_the_csv_header():
    rows = skipstone.trace(STADIUM, index=5)
    assert rows.dtype.names == ("event", "t", "x", "y", "ux", "uy", "spin", "contact_x", "contact_y")
    assert rows["event"].dtype == np.int64 and np.array_equal(rows["event"], np.arange(len(rows)))


def test_coords_pick_the_nearest_grid_point():
    v2 = np.linspace(-1, 1, 24)
    s12 = np.linspace(-1, 1, 16)
    i, j = 15, 9
    by_coords = skipstone.trace(FIGURE18, coords={"v2": v2[i] + 0.3 * (v2[1] - v2[0]), "S12": s12[j] - 0.4 * (s12[1] - s12[0])})
    by_index = skipstone.trace(FIGURE18, index=j * 24 + i)
    assert by_coords.tobytes() == by_index.tobytes()
    assert by_coords["v2"][0] == pytest.approx(v2[i])


def test_overrides_apply():
    default = skipstone.trace(FIGURE18, index=200)
    other = skipstone.trace(FIGURE18, index=200, overrides={"parameters.eta": 0.9})
    assert default.tobytes() != other.tobytes()


@pytest.mark.parametrize("kwargs, message", [
    (dict(coords={"v2": 0.1}), "S12 is missing"),
    (dict(coords={"v2": 0.1, "S12": 0.2, "eta": 0.5}), "eta is not scanned"),
    (dict(coords={"v2": 1.5, "S12": 0.2}), "outside the axis"),
    (dict(index=1, coords={"v2": 0.1, "S12": 0.2}), "give one of them"),
    (dict(index=24 * 16), "expected an integer in [0, 383]"),
    (dict(index=-1), "expected an integer >= 0"),
    (dict(index=0, sample=-1.0), "sample"),
])
def test_bad_choices_are_usage_errors(kwargs, message):
    with pytest.raises(skipstone.UsageError) as e:
        skipstone.trace(FIGURE18, **kwargs)
    assert message in str(e.value)


def test_coords_need_a_grid():
    with pytest.raises(skipstone.UsageError, match="random"):
        skipstone.trace(example("disc_random"), coords={"angle": 0.1})


def test_a_bad_config_is_a_config_error():
    with pytest.raises(skipstone.ConfigError) as e:
        skipstone.trace(FIGURE18, overrides={"parameters.eta": 2.0})
    assert e.value.key == "parameters.eta"
