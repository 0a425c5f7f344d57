"""Result.to_xarray: the maps as an xarray.Dataset with the grid values as coordinates
(skipped where xarray is not installed)."""
import numpy as np
import pytest

import skipstone
from conftest import example



def test_without_xarray_the_error_says_what_to_install(monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "xarray", None)  # import xarray then fails
    with pytest.raises(ImportError, match="python3-xarray"):
        skipstone.run(example("figure18", grid=[4, 4])).to_xarray()


def test_dataset_has_the_maps_and_the_axes():
    pytest.importorskip("xarray")
    r = skipstone.run(example("figure18", grid=[12, 8]))
    ds = r.to_xarray()
    assert list(ds.data_vars) == list(r.observables)
    assert ds["exit_side"].dims == ("S12", "v2")
    assert np.array_equal(ds["v2"].values, r.axes["v2"])
    assert np.array_equal(ds["exit_side"].sel(v2=r.axes["v2"][3], S12=r.axes["S12"][5]).values, r["exit_side"][5, 3],
                          equal_nan=True)
    assert ds.attrs["system"] == "roll4:disc-transversal"


def test_vector_observables_get_their_own_dimensions():
    pytest.importorskip("xarray")
    config = example("noisy_height_series", grid=[2, 4], stop={"t_max": 5.0})
    config["outputs"]["height_series"]["points"] = 6
    config["observables"] = ["status", "height_series", "final_state"]
    r = skipstone.run(config)
    ds = r.to_xarray()
    assert ds["height_series"].dims == ("realisation", "noise_sigma", "time")
    assert np.allclose(ds["time"].values, np.linspace(0.0, 5.0, 6))
    assert ds["final_state"].dims == ("realisation", "noise_sigma", "column")
    assert list(ds["column"].values) == r.meta["observables"]["final_state"]["columns"]
    assert np.array_equal(ds["height_series"].values, r["height_series"])
