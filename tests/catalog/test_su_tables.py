"""NVIDIA's per-SU tables as catalog data (catalog/su_tables.yaml, `SuTable`)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from clustergen.catalog import SuTable, load_catalog
from clustergen.catalog.architectures import SU_TABLE_COUNTS, SuTableRow

CAT = load_catalog()


def test_every_row_names_its_table_and_every_table_its_document() -> None:
    tables = CAT.all(SuTable)
    assert len(tables) >= 8
    for t in tables:
        assert t.source
        assert t.as_of
        for row in t.rows:
            assert len(row.source) > 10, (t.id, row.nodes)
            assert set(row.counts()) <= set(SU_TABLE_COUNTS)


def test_a_row_publishes_a_count_and_a_table_one_row_a_size() -> None:
    with pytest.raises(ValidationError, match="at least one count"):
        SuTableRow(nodes=16, source="a table without counts")
    row = {"nodes": 16, "oob_switches": 4, "source": "ERA-00010-001"}
    with pytest.raises(ValidationError, match="one row per node count"):
        SuTable(
            id="t",
            name="t",
            architecture="era-hgx-spectrum-x",
            rows=[row, row],
            source="test",
            as_of="2026-11",
        )


def test_the_h100_superpod_4su_row_is_tables_4_and_7() -> None:
    # H100 RA V11 Table 4 (4 SU, 127 nodes: 32 leaf, 16 spine) and Table 7 (16 storage QM9700,
    # 8 SN4600C, 8 SN2201, 4 UFM, 4 management servers, 38 racks): shared/golden/superpod.yaml
    row = CAT.get(SuTable, "dgx-superpod-h100-tables").row(127)
    assert row is not None
    assert row.counts() == {
        "compute_leaf": 32,
        "compute_spine": 16,
        "storage_switches": 16,
        "inband_switches": 8,
        "oob_switches": 8,
        "fabric_managers": 4,
        "management_servers": 4,
        "racks": 38,
    }


def test_the_b300_variants_are_tables_of_their_own() -> None:
    # RA-11337-001 (Spectrum-4, DC busbar) Table 3: 1 SU 64 nodes, 16 leaf, 8 spine;
    # RA-11339-001 (Quantum-X800, AC power) Table 3: 1 SU 72 nodes, 8 leaf, 4 spine
    busbar = CAT.get(SuTable, "dgx-superpod-b300-ethernet-tables")
    ac = CAT.get(SuTable, "dgx-superpod-b300-xdr-tables")
    assert busbar.variant
    assert "busbar" in busbar.variant
    assert ac.variant
    assert "AC" in ac.variant
    one_busbar, one_ac = busbar.row(64), ac.row(72)
    assert one_busbar is not None
    assert one_busbar.counts()["compute_leaf"] == 16
    assert one_ac is not None
    assert one_ac.counts()["compute_spine"] == 4
