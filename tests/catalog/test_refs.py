"""Catalog kinds and references are declared on the models; the loader follows from them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import pytest

import clustergen.catalog
from clustergen.catalog import Cdu, validate_catalog
from clustergen.catalog.loader import FILES
from clustergen.catalog.models import KINDS, Entry
from clustergen.catalog.refs import Ref, Reference, referenced_kinds
from clustergen.errors import NotFoundError


def test_every_reference_names_a_kind() -> None:
    for stem, model in FILES.items():
        assert referenced_kinds(model) <= set(FILES), stem
    # the walk sees through `| None`, `list[...]` and nested models
    assert referenced_kinds(FILES["architectures"]) == {"systems", "switches", "storage_tiers"}
    assert referenced_kinds(FILES["systems"]) == {"gpus", "cdus", "nics", "systems"}


def test_every_kind_is_exported_by_the_package() -> None:
    for model in FILES.values():
        assert getattr(clustergen.catalog, model.__name__) is model
        assert model.__name__ in clustergen.catalog.__all__


def test_a_kind_is_found_by_its_class() -> None:
    catalog, problems = validate_catalog()
    assert catalog is not None, problems
    default = str(catalog.get(FILES["assumptions"], "cdu").value)
    assert catalog.get(Cdu, default).id == default
    assert catalog.all(Cdu) == catalog.all("cdus", Cdu)
    with pytest.raises(NotFoundError, match="unknown CDU 'no-such-unit'"):
        catalog.get(Cdu, "no-such-unit")
    # the older spelling: a file stem and the model (or a base) its entries come back as
    assert catalog.all("cdus", Entry) == catalog.all(Cdu)
    assert catalog.get("cdus", Entry, default, "unit") is catalog.get(Cdu, default)
    with pytest.raises(NotFoundError, match="unknown unit"):
        catalog.get("cdus", Entry, "no-such-unit", "unit")


@pytest.mark.parametrize(
    ("stem", "row", "field"),
    [
        ("architectures", "- id: dgx-superpod-h100\n  systems: [dgx-h100, dgx-h999]\n", "systems"),
        (
            "architectures",
            "- id: dgx-superpod-h100\n  compute_fabric: {technology: infiniband, switch: qm0}\n",
            "compute_fabric.switch",
        ),
        (
            "ra_patterns",
            "- id: 2-8-5-200\n  networking: {fabric: ethernet, platform: x, leaf_switch: qm0}\n",
            "networking.leaf_switch",
        ),
        (
            "systems",
            "- id: dgx-h100\n  compute: {ports: 8, port_speed_gbps: 400, nic: qm0}\n",
            "compute.nic",
        ),
    ],
)
def test_a_nested_reference_is_located(tmp_path: Path, stem: str, row: str, field: str) -> None:
    (tmp_path / f"{stem}.yaml").write_text(row, encoding="utf-8")
    catalog, problems = validate_catalog(tmp_path)
    assert catalog is None
    assert [(p.file, p.field) for p in problems] == [(f"{stem}.yaml", field)], problems
    assert "is not an id in" in problems[0].message


@pytest.fixture
def ups_kind() -> Iterator[type[Entry]]:
    """A kind declared the way a contributor adds one: its class line and its fields."""

    class Ups(Entry, kind="test_ups", file="test_ups.yaml", noun="UPS"):
        vendor: str
        cdu: Annotated[str, Ref("cdus")] | None = None

    try:
        yield Ups
    finally:
        del KINDS["test_ups"]


def test_a_new_kind_is_loaded_checked_and_found_from_its_class(
    tmp_path: Path, ups_kind: type[Entry]
) -> None:
    row = "- {id: ups-1, name: Site UPS, vendor: Site, source: site design, as_of: 2026-11"
    (tmp_path / "test_ups.yaml").write_text(row + ", cdu: no-such-cdu}\n", encoding="utf-8")
    catalog, problems = validate_catalog(tmp_path)
    assert catalog is None
    assert [(p.file, p.entry, p.field, p.message) for p in problems] == [
        ("test_ups.yaml", "ups-1", "cdu", "'no-such-cdu' is not an id in cdus.yaml")
    ]

    (tmp_path / "test_ups.yaml").write_text(row + "}\n", encoding="utf-8")
    catalog, problems = validate_catalog(tmp_path)
    assert catalog is not None, problems
    assert catalog.get(ups_kind, "site ups").id == "ups-1"
    with pytest.raises(NotFoundError, match="unknown UPS"):
        catalog.get(ups_kind, "nothing like it")


def test_a_kind_is_declared_once() -> None:
    with pytest.raises(TypeError, match="already Cdu"):

        class Again(Entry, kind="cdus"):
            pass


def test_an_assumption_naming_an_entry_is_a_reference() -> None:
    catalog, _ = validate_catalog()
    assert catalog is not None
    refs = list(catalog.get(FILES["assumptions"], "cdu").references())
    assert refs == [Reference("value", "cdus", str(catalog.assumption("cdu").value))]
