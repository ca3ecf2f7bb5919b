"""A price layer prices a BOM line by its part's catalog id, in whichever catalog file holds the
part; a line that names no catalog part cannot be priced, and the cost says which and why."""

from __future__ import annotations

from pathlib import Path

from clustergen.catalog import load_catalog
from clustergen.engine.report.documents.cost import cost_section
from clustergen.engine.request import merge_request
from clustergen.engine.search.planner import plan_design

LAYER = {
    "systems.yaml": "- id: dgx-h100\n  price_usd: 199000\n  price_source: test\n",
    "switches.yaml": "- id: qm9700\n  price_usd: 30000\n  price_source: test\n",
    "racks.yaml": "- id: legrand-nvidpd13\n  price_usd: 3000\n  price_source: test\n",
}


def test_a_layer_prices_lines_by_catalog_id_and_names_the_lines_it_cannot(tmp_path: Path) -> None:
    for name, text in LAYER.items():
        (tmp_path / name).write_text(text)
    cat = load_catalog(tmp_path)
    d = plan_design(cat, merge_request(cat, "512 GPUs training, 5 MW", {"platform": "dgx-h100"}))
    priced = {ln.part for ln in d.bom if ln.total_price_usd is not None}
    assert {"dgx-h100", "qm9700", "legrand-nvidpd13"} <= priced
    assert d.cost is not None
    # every orderable line without a part is unpriceable, and only those
    no_part = {ln.description for ln in d.bom if ln.status == "order" and ln.part is None}
    assert set(d.cost.unpriceable) == no_part
    assert d.cost.capital_usd is None  # a lower bound while any line is unpriced
    memo = "\n".join(cost_section(d))
    if no_part:
        assert "No price layer can price" in memo
        assert all(f"- {u}" in memo for u in no_part)
    assert "`qm9700`" not in memo  # priced by the layer, so not listed as unpriced
