"""How a trajectory ended: the codes of status.npy, from the C++ enum (include/skipstone/status.hpp)."""
import enum

from . import _skipstone

STATUS_NAMES = _skipstone.STATUS_NAMES
Status = enum.IntEnum("Status", [(name.upper(), code) for code, name in enumerate(STATUS_NAMES)])
Status.__doc__ = "How a trajectory ended: the codes of status.npy (docs/usage.md)."
# The statuses whose observables are valid numbers (the others' floating values are NaN).
OK_STATUSES = frozenset(Status(code) for code in _skipstone.OK_STATUSES)


def status_name(code):
    """The name of a status code, as meta.json's status_counts spell it (7 -> 'masked')."""
    return STATUS_NAMES[Status(code)]
