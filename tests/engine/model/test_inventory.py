"""The part-kind table: every kind described once, every role it names described."""

from typing import get_args

from clustergen.engine.model.design import PowerSection
from clustergen.engine.model.inventory import PARTS, ROLES, PartKind, Role


def test_every_part_kind_is_in_the_table() -> None:
    assert set(PARTS) == set(PartKind)


def test_every_role_is_described_and_every_kind_names_one() -> None:
    assert set(ROLES) == set(get_args(Role))
    assert {p.role for p in PARTS.values()} - {None} <= set(ROLES)


def test_a_kind_that_stands_somewhere_is_a_device_with_a_role() -> None:
    for kind, spec in PARTS.items():
        assert (spec.stands == "none") == (spec.role is None), kind


def test_a_power_term_is_a_field_of_the_power_section() -> None:
    terms = {p.power_term for p in PARTS.values()} - {None}
    assert terms
    assert terms <= set(PowerSection.model_fields)
