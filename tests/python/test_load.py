"""skipstone.load(dir): the Result of a CLI output folder equals run()'s for the same config."""
import numpy as np
import pytest

import skipstone
from conftest import cli, cli_run, example, same_array, write_config


@pytest.mark.parametrize("config", [
    example("figure18", grid=[12, 8]),
    dict(example("disc_random"), scan=dict(example("disc_random")["scan"], count=2000)),
], ids=["grid", "random"])
def test_load_round_trips_a_run(tmp_path, config):
    path = write_config(tmp_path, config)
    loaded = skipstone.load(cli_run(path, tmp_path / "out"))
    ran = skipstone.run(path)
    assert list(loaded.observables) == list(ran.observables)
    for obs in ran.observables:
        assert same_array(loaded[obs], ran[obs]), obs
    assert list(loaded.axes) == list(ran.axes)
    for name in ran.axes:
        assert same_array(loaded.axes[name], ran.axes[name]), name
    assert loaded.status_counts == ran.status_counts
    assert loaded.meta["config"] == ran.meta["config"]
    assert loaded.status_names == ran.status_names == skipstone.STATUS_NAMES


def test_load_reads_what_run_wrote(tmp_path):
    r = skipstone.run(example("sphere", grid=[6, 5]), out=tmp_path / "out")
    loaded = skipstone.load(tmp_path / "out")
    assert loaded.meta == r.meta
    for obs in r.observables:
        assert same_array(loaded[obs], r[obs]), obs


def test_load_refuses_a_shard(tmp_path):
    path = write_config(tmp_path, example("figure18", grid=[8, 8]))
    cli("run", path, "--out", tmp_path / "shard", "--shard", "0/2", "--backend", "cpu", "--quiet")
    with pytest.raises(ValueError, match="skipstone merge"):
        skipstone.load(tmp_path / "shard")


def test_load_reads_the_section_outputs(tmp_path):
    path = write_config(tmp_path, example("roll4_stadium_section", grid=[6, 4]))
    loaded = skipstone.load(cli_run(path, tmp_path / "out"))
    assert set(loaded.outputs) == {"section_map", "section_events"}
    assert list(loaded.outputs["section_map"].shape) == [c["bins"] for c in loaded.meta["section_map"]["coords"]]
    events = loaded.outputs["section_events"]
    assert events.shape == (loaded.meta["section_events"]["rows"], len(loaded.meta["section_events"]["columns"]))
    assert events.shape[0] > 0


def test_load_reads_the_survival_counts(tmp_path):
    config = example("stadium_escape", scan=dict(example("stadium_escape")["scan"], count=3000))
    loaded = skipstone.load(cli_run(write_config(tmp_path, config), tmp_path / "out"))
    counts, times = loaded.outputs["survival"], loaded.outputs["survival_times"]
    assert counts.shape == times.shape == (loaded.meta["escape"]["survival"]["points"],)
    assert times[0] == 0.0 and times[-1] == loaded.meta["config"]["stop"]["t_max"]
    # P(t) counts the ok trajectories whose escape_time is NaN or later than t
    escape = loaded["escape_time"]
    ok = escape[~np.isnan(escape)]
    inside = np.isnan(escape) & np.isin(loaded["status"], [int(s) for s in skipstone.OK_STATUSES])
    for k in (0, len(times) // 2, len(times) - 1):
        assert counts[k] == int(np.count_nonzero(ok > times[k])) + int(np.count_nonzero(inside))
