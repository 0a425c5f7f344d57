"""skipstone.bench returns the document that `skipstone bench --json` writes: the same keys,
every workload measured; bad options are the CLI's UsageErrors."""
import json

import pytest

import skipstone
from conftest import cli


def keys(doc, depth=2):
    """The key paths of a JSON document down to `depth` levels."""
    if depth == 0 or not isinstance(doc, dict):
        return set()
    return {k for k in doc} | {f"{k}/{sub}" for k, v in doc.items() for sub in keys(v, depth - 1)}


def test_the_document_is_the_cli_json():
    doc = skipstone.bench(quick=True, backend="cpu", reps=1)
    cli_doc = json.loads(cli("bench", "--quick", "--backend", "cpu", "--reps", "1", "--json", "-").stdout)
    assert keys(doc) == keys(cli_doc)
    for name, workload in doc["benchmarks"].items():
        rates = [v for v in workload["backend"].values() if isinstance(v, dict) and "median" in v]
        assert rates and all(rate["median"] > 0 for rate in rates), name
    assert doc["command"].startswith("skipstone.bench(")


def test_bad_options_are_usage_errors():
    with pytest.raises(skipstone.UsageError, match="--reps 0"):
        skipstone.bench(reps=0)
    with pytest.raises(skipstone.UsageError, match="--precision half"):
        skipstone.bench(precision="half")
