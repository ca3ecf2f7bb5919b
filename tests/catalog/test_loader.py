"""Catalog loading rules that guard a contributor's new entry."""

from __future__ import annotations

from pathlib import Path

from clustergen.catalog import validate_catalog


def test_a_name_that_already_finds_another_entry_is_a_problem(tmp_path: Path) -> None:
    (tmp_path / "switches.yaml").write_text(
        "- id: my-leaf\n"
        "  name: My leaf\n"
        '  aliases: ["Quantum-2 QM9700"]\n'
        "  vendor: Example\n"
        "  technology: infiniband\n"
        "  ports: 64\n"
        "  port_speed_gbps: 400\n"
        "  source: test\n"
        "  as_of: 2026-01\n",
        encoding="utf-8",
    )
    catalog, problems = validate_catalog(tmp_path)
    assert catalog is None
    assert [(p.file, p.entry, p.field) for p in problems] == [
        ("switches.yaml", "my-leaf", "aliases")
    ]
    assert "'qm9700'" in problems[0].message


def test_a_new_entry_with_its_own_names_loads(tmp_path: Path) -> None:
    (tmp_path / "switches.yaml").write_text(
        "- {id: my-leaf, name: My leaf, aliases: [MYLEAF-64], vendor: Example, "
        "technology: infiniband, ports: 64, port_speed_gbps: 400, source: test, as_of: 2026-01}\n",
        encoding="utf-8",
    )
    catalog, problems = validate_catalog(tmp_path)
    assert catalog is not None, problems
    assert catalog.switch("myleaf64").id == "my-leaf"
