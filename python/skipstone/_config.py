"""The config argument shared by run() and trace(): a path or a dict, with overrides."""
import os
from collections.abc import Mapping


def config_arguments(config, overrides):
    """(path or None, dict config or None, overrides as a dict) for the compiled functions."""
    path = os.fspath(config) if isinstance(config, (str, os.PathLike)) else None
    overrides = {} if overrides is None else overrides
    if not isinstance(overrides, Mapping):
        raise TypeError(f"overrides: expected a dict of key paths to values, got {type(overrides).__name__}")
    return path, None if path is not None else config, dict(overrides)


def describe_call(function, path, overrides):
    """The call as meta.json's `command` records it, e.g. skipstone.run('a.json', overrides={...})."""
    text = f"skipstone.{function}(" + (repr(path) if path is not None else "<dict>")
    return text + (f", overrides={overrides!r})" if overrides else ")")
