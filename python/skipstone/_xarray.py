"""Result.to_xarray: a Result as an xarray.Dataset, with the scanned parameters as coordinates."""
import json


def vector_dimension(name, info):
    """The last dimension of a vector observable and its coordinates: the state's columns
    (final_state), the times (height_series), the exponent's index (lyapunov_spectrum), the
    component x, y, z (annulus_axis)."""
    if "columns" in info:
        return "column", info["columns"]
    if "times" in info:
        return "time", info["times"]
    if name == "lyapunov_spectrum":
        return "exponent", list(range(5))
    return "component", ["x", "y", "z"]


def to_dataset(result):
    """One data variable per observable. A grid's dimensions are its parameters, last axis
    first as in the arrays ((n1, n0) for two axes), with the grid values as coordinates; a
    random scan has the dimension `trajectory` and each parameter as a coordinate along it.
    Vector observables have a further dimension (vector_dimension). The attributes hold
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
        extra = []
        if array.ndim > len(dims):
            dim, values = vector_dimension(name, meta["observables"].get(name, {}))
            extra = [dim]
            coords[dim] = values
        variables[name] = (dims + extra, array)
    attrs = {"system": meta["system"], "skipstone_version": meta["skipstone_version"],
             "config": json.dumps(meta["config"])}
    return xarray.Dataset(variables, coords=coords, attrs=attrs)
