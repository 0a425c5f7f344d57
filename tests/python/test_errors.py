"""Bad input raises the CLI's exit-2 errors as Python exceptions (ConfigError with the key path,
UsageError, both ValueErrors); the kernels run with the GIL released."""
import json
import threading
import time

import pytest

import skipstone
from conftest import cli, cli_run, example, write_config

SMALL = example("figure18", grid=[8, 8])


@pytest.mark.parametrize("edit, key", [
    (lambda c: c["parameters"].update(R=-1.0), "parameters.R"),
    (lambda c: c["scan"]["axes"][1].update(max=2.0, min=3.0), "scan.axes[1]"),
    (lambda c: c.update(observables=["status", "no_such_observable"]), "observables[1]"),
    (lambda c: c.update(sytem="disc"), "sytem"),
])
def test_config_error_has_the_cli_key_and_message(tmp_path, edit, key):
    config = example("figure18", grid=[8, 8])
    edit(config)
    path = write_config(tmp_path, config)
    done = cli("run", path, "--out", tmp_path / "out", check=False)
    assert done.returncode == 2
    for given in (config, path):
        with pytest.raises(skipstone.ConfigError) as e:
            skipstone.run(given)
        assert isinstance(e.value, ValueError)
        assert e.value.key.startswith(key)
        assert done.stderr == f"skipstone: {e.value}\n"
    assert not (tmp_path / "out").exists()


def test_a_missing_file_is_a_config_error_at_its_path(tmp_path):
    with pytest.raises(skipstone.ConfigError) as e:
        skipstone.run(tmp_path / "none.json")
    assert e.value.key == str(tmp_path / "none.json")
    assert "no such file" in str(e.value)


def test_an_output_folder_of_another_run_is_refused_without_overwrite(tmp_path):
    out = tmp_path / "out"
    cli_run(write_config(tmp_path, SMALL), out)
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    with pytest.raises(skipstone.UsageError, match="holds the outputs of a run"):
        skipstone.run(SMALL, out=out, overrides={"scan.axes[0].n": 4})
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    r = skipstone.run(SMALL, out=out, overrides={"scan.axes[0].n": 4}, overwrite=True)
    assert json.loads((out / "meta.json").read_text()) == r.meta
    assert r["status"].shape == (8, 4)


@pytest.mark.parametrize("threads", [0, -1, 5000, 1.5, True])
def test_bad_threads_are_refused(threads):
    with pytest.raises(skipstone.UsageError, match="threads"):
        skipstone.run(SMALL, threads=threads)


def test_the_gil_is_released_while_the_kernels_run():
    config = example("stadium", grid=[64, 64], stop={"max_events": 1000})
    ticks = []
    worker = threading.Thread(target=skipstone.run, args=(config,), kwargs={"threads": 1})
    start = time.perf_counter()
    worker.start()
    while worker.is_alive():
        ticks.append(time.perf_counter())
        time.sleep(0.001)
    duration = time.perf_counter() - start
    gaps = [b - a for a, b in zip([start] + ticks, ticks)]
    assert duration > 0.2, "the scan is too short to tell"
    assert max(gaps) < duration / 2


def test_backend_cuda_without_a_device_is_the_cli_error(tmp_path):
    path = write_config(tmp_path, SMALL)
    done = cli("run", path, "--out", tmp_path / "out", "--backend", "cuda", check=False)
    if done.returncode == 0:
        pytest.skip("this build has the CUDA backend and a device")
    with pytest.raises(skipstone.UsageError) as e:
        skipstone.run(path, backend="cuda")
    assert done.returncode == 2 and done.stderr.startswith(f"skipstone run: {e.value} (see")
    with pytest.raises(skipstone.UsageError, match="allowed values are auto, cpu, cuda"):
        skipstone.run(path, backend="gpu")
    assert skipstone.run(path, backend="auto").meta["backend"] == "cpu"
