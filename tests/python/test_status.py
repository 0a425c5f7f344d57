"""The status constants are the codes of the C++ enum (include/skipstone/status.hpp), read
here from the header itself."""
import re

import skipstone
from conftest import SOURCE_DIR, example

HEADER = (SOURCE_DIR / "include" / "skipstone" / "status.hpp").read_text()


def enum_codes():
    body = re.search(r"enum class Status[^{]*\{(.*?)\};", HEADER, re.S).group(1)
    return {name: int(code) for name, code in re.findall(r"^\s*(\w+)\s*=\s*(\d+)\s*,", body, re.M)}


def test_constants_are_the_enum_codes():
    codes = enum_codes()
    assert len(codes) == int(re.search(r"kStatusCount = (\d+);", HEADER).group(1))
    assert {m.name: int(m) for m in skipstone.Status} == {name.upper(): code for name, code in codes.items()}
    assert skipstone.FINISHED == 0 and skipstone.EXITED == 1 and skipstone.MASKED == 7
    for name, code in codes.items():
        assert getattr(skipstone, name.upper()) == code
        assert skipstone.status_name(code) == name == skipstone.STATUS_NAMES[code]


def test_ok_statuses_are_those_of_status_is_ok():
    body = re.search(r"status_is_ok\(Status s\) \{(.*?)\}", HEADER, re.S).group(1)
    assert {skipstone.Status[n.upper()] for n in re.findall(r"Status::(\w+)", body)} == skipstone.OK_STATUSES


def test_status_maps_use_the_constants():
    r = skipstone.run(example("figure18", grid=[16, 16]))
    status = r["status"]
    assert (status == skipstone.MASKED).sum() == r.status_counts["masked"] > 0
    assert (status == skipstone.EXITED).sum() == r.status_counts["exited"]
