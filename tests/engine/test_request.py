"""Request parsing and merging: out-of-range values are RequestErrors, never tracebacks."""

from __future__ import annotations

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.request import merge_request, parse_request
from clustergen.errors import NotFoundError, RequestError


@pytest.mark.parametrize(
    ("text", "field"),
    [("0 GPUs for training", "gpus"), ("512 GPUs, 5 MW facility, PUE 0.5", "pue")],
)
def test_out_of_range_values_are_request_errors(text: str, field: str) -> None:
    with pytest.raises(RequestError, match=f"request field {field}"):
        parse_request(load_catalog(), text)


def test_merge_structured_fields_win_and_names_resolve() -> None:
    cat = load_catalog()
    req = merge_request(cat, "512 GPUs training, 5 MW", {"gpus": 256, "platform": "DGX H100"})
    assert (req.gpus, req.platform, req.power_cap_w) == (256, "dgx-h100", 5e6)
    assert merge_request(cat, None, {"nodes": 4, "gpu": "H100"}).gpu == "h100-sxm"
    with pytest.raises(RequestError, match="nothing to size"):
        merge_request(cat, None, {"workload": "training"})
    with pytest.raises(RequestError, match="request field gpus"):
        merge_request(cat, None, {"gpus": -1})
    with pytest.raises(NotFoundError):
        merge_request(cat, None, {"gpus": 8, "gpu": "H900"})
