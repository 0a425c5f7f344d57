"""skipstone.run gives what `skipstone run` writes, bit for bit: every observable's array
(dtype, shape, bytes), the axes and the status counts; with out=, the same output folder."""
import json

import numpy as np
import pytest

import skipstone
from conftest import cli_run, example, same_array, write_config

# Small versions of examples with every kind of map: a rolling exit map with NaNs (Figure 18,
# unequal axes so that a transposed layout would show), a no-slip table with the uint64
# events count, a 3D ball with a vector observable, a rubber rolling ball with its Lyapunov
# exponents, and a random scan.
CONFIGS = {
    "figure18": lambda: example("figure18", grid=[24, 16]),
    "stadium": lambda: dict(example("stadium", grid=[20, 12]),
                            observables=["status", "events", "t_end", "z_max", "energy_error"]),
    "sphere": lambda: example("sphere", grid=[12, 10]),
    "rubber_stadium": lambda: example("rubber_stadium", grid=[12, 10]),
    "disc_random": lambda: dict(example("disc_random"), scan=dict(example("disc_random")["scan"], count=3000)),
}

VOLATILE = {"created", "command", "wall_time_s", "throughput"}  # differ between any two runs


@pytest.mark.parametrize("name", CONFIGS)
def test_observables_axes_and_counts_equal_the_cli_outputs(tmp_path, name):
    path = write_config(tmp_path, CONFIGS[name]())
    cli_dir = cli_run(path, tmp_path / "cli")
    meta = json.loads((cli_dir / "meta.json").read_text())
    r = skipstone.run(path)
    assert list(r.observables) == meta["config"]["observables"]
    for obs, array in r.observables.items():
        assert same_array(array, np.load(cli_dir / f"{obs}.npy")), obs
    assert list(r.axes) == [a["param"] for a in meta["axes"]]
    for a in meta["axes"]:
        expected = np.asarray(a["values"]) if meta["grid"] else np.load(cli_dir / a["file"])
        assert same_array(r.axes[a["param"]], expected), a["param"]
    assert r.status_counts == meta["status_counts"]
    assert {k: v for k, v in r.meta.items() if k not in VOLATILE} == {k: v for k, v in meta.items() if k not in VOLATILE}


def test_out_writes_the_folder_the_cli_writes(tmp_path):
    path = write_config(tmp_path, CONFIGS["figure18"]())
    cli_dir = cli_run(path, tmp_path / "cli")
    py_dir = tmp_path / "py"
    r = skipstone.run(path, out=py_dir)
    names = sorted(p.name for p in cli_dir.iterdir())
    assert sorted(p.name for p in py_dir.iterdir()) == names
    for n in names:
        if n != "meta.json":
            assert (py_dir / n).read_bytes() == (cli_dir / n).read_bytes(), n
    py_meta = json.loads((py_dir / "meta.json").read_text())
    cli_meta = json.loads((cli_dir / "meta.json").read_text())
    assert py_meta == r.meta
    assert py_meta["command"].startswith("skipstone.run(")
    assert {k: v for k, v in py_meta.items() if k not in VOLATILE} == {k: v for k, v in cli_meta.items() if k not in VOLATILE}


def test_point_outputs_equal_the_cli_files(tmp_path):
    """The outputs section from Python is the arrays the CLI writes: the 3D boundary outputs
    (where and how a ball's impacts land on the sphere, their coordinates named in meta) and
    the survival counts of a table with a hole."""
    path = write_config(tmp_path, example("sphere_boundary_map", grid=[8, 6]))
    cli_dir = cli_run(path, tmp_path / "cli")
    r = skipstone.run(path)
    for name in ("boundary_map", "boundary_events"):
        assert same_array(r.outputs[name], np.load(cli_dir / f"{name}.npy")), name
    for name in ("mean_free_time", "coverage"):
        assert same_array(r[name], np.load(cli_dir / f"{name}.npy")), name
    assert r.meta["boundary_events"]["columns"][-7:] == ["s", "cos_theta", "p", "p_up", "spin_n", "spin_t", "spin_up"]
    assert [c["name"] for c in r.meta["boundary_map"]["coords"]] == ["s", "cos_theta"]
    assert r.outputs["boundary_map"].shape == (360, 180)
    assert r.outputs["boundary_map"].sum() == r.meta["boundary_map"]["impacts"] == 8 * 6 * 1000
    escape = write_config(tmp_path, dict(example("stadium_escape"), scan=dict(example("stadium_escape")["scan"], count=500)),
                          "escape.json")
    cli_dir = cli_run(escape, tmp_path / "escape")
    r = skipstone.run(escape)
    assert sorted(r.outputs) == ["survival", "survival_times"]
    for name in r.outputs:
        assert same_array(r.outputs[name], np.load(cli_dir / f"{name}.npy")), name


def test_a_dict_config_runs_as_its_file(tmp_path):
    config = CONFIGS["figure18"]()
    from_file = skipstone.run(write_config(tmp_path, config))
    from_dict = skipstone.run(config)
    for obs in from_file.observables:
        assert same_array(from_dict[obs], from_file[obs]), obs


def test_results_do_not_depend_on_threads(tmp_path):
    config = CONFIGS["stadium"]()
    one, two = skipstone.run(config, threads=1), skipstone.run(config, threads=2)
    for obs in one.observables:
        assert same_array(one[obs], two[obs]), obs


def test_threads_apply_to_one_run_only():
    config = CONFIGS["figure18"]()
    default = skipstone.run(config).meta["device"]
    assert skipstone.run(config, threads=1).meta["device"].endswith(" 1 threads")
    assert skipstone.run(config).meta["device"] == default
