"""Result.to_xarray: a Result as an xarray.Dataset, with the scanned parameters as coordinates."""
import json


def to_dataset(result):
    """One data variable per observable. A grid's dimensions are its parameters, last axis
    first as in the arrays ((n1, n0) for two axes), with the grid values as coordinates; a
    random scan has the dimension `trajectory` and each parameter as a coordinate along it.
    Vector observables have the further dimension `component` (x, y, z). The attributes hold
    the system, the version and the resolved config (JSON text)."""
    try:
        import xarray
    except ImportError as e:
        raise ImportError("Result.to_xarray needs xarray: install python3-xarray (Debian) or xarray (pip)") from e
    meta = result.meta
    if meta["grid"]:
        dims = [name for name in reversed(list(result.axes))]
        coords = {name: values for name, values in result.axes.items()}
    else:
        dims = ["trajectory"]
        coords = {name: ("trajectory", values) for name, values in result.axes.items()}
    variables = {}
    for name, array in result.observables.items():
        extra = ["component"] if array.ndim > len(dims) else []
        variables[name] = (dims + extra, array)
    if any(array.ndim > len(dims) for array in result.observables.values()):
        coords["component"] = ["x", "y", "z"]
    attrs = {"system": meta["system"], "skipstone_version": meta["skipstone_version"],
             "config": json.dumps(meta["config"])}
    return xarray.Dataset(variables, coords=coords, attrs=attrs)
