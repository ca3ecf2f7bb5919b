"""Compute: node power and the catalog-gap error when it is unknown."""

from __future__ import annotations

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.sizing.platform import node_power
from clustergen.errors import CatalogGapError, RequestError


def test_unknown_node_power_is_a_catalog_gap_not_a_request_error() -> None:
    cat = load_catalog()
    system = cat.system("dgx-h100").model_copy(update={"max_power_w": None, "power_terms": None})
    with pytest.raises(CatalogGapError) as err:
        node_power(system)
    assert not isinstance(err.value, RequestError)
    assert (err.value.entry, err.value.field) == ("dgx-h100", "max_power_w")
    assert err.value.to_dict()["error"]["type"] == "catalog_gap"


def test_published_maximum_is_the_node_power() -> None:
    p = node_power(load_catalog().system("dgx-h100"))
    assert (p.basis, p.node_w) == ("max", 10200)
