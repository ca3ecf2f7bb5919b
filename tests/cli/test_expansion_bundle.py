"""An expansion's bundle says one thing everywhere: the terminal, design.json, the BOM, the memo
and the workbook describe the increment (its own links, switches, servers and power), never the
whole installation, and no figure of the fresh design it was built from survives the restating."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook

from clustergen.cli.app import main

EXPANSIONS = {
    "64-plus-32": "we have 64 DGX H100 and want to add 32 more",
    "4-su-plus-1": "we have 4 SU of DGX H100 and want to add 1 more SU",
}


class Bundle:
    """The files of one expansion."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.design: dict[str, Any] = json.loads((out / "design.json").read_text())
        self.bom = list(csv.DictReader(io.StringIO((out / "bom.csv").read_text())))
        self.memo = (out / "memo.md").read_text()


@pytest.fixture(scope="module", params=sorted(EXPANSIONS))
def bundle(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
) -> Bundle:
    out = tmp_path_factory.mktemp(request.param) / "bundle"
    code = main(["design", EXPANSIONS[request.param], "--offline", "--out", str(out)])
    assert not code, request.param
    return Bundle(out)


def _lines(b: Bundle, category: str) -> list[dict[str, str]]:
    return [r for r in b.bom if r["category"] == category]


def test_it_is_an_expansion(bundle: Bundle) -> None:
    assert bundle.design["expansion"] is not None


def test_every_transceiver_and_cable_line_quotes_a_link_group_of_the_increment(
    bundle: Bundle,
) -> None:
    counts = {(g["fabric"], g["segment"], g["links"]) for g in bundle.design["links"]}
    for row in _lines(bundle, "transceiver") + _lines(bundle, "cable"):
        quoted = re.findall(r"([\d,]+) ([a-z-]+) links?\b", row["description"])
        assert quoted, row["description"]
        for n, segment in quoted:
            assert any(s == segment and c == int(n.replace(",", "")) for _, s, c in counts), row[
                "description"
            ]


def test_every_link_group_with_an_ordered_cable_has_its_cable_line(bundle: Bundle) -> None:
    cables = [r["description"] for r in _lines(bundle, "cable")]
    for g in bundle.design["links"]:
        if g["cable"] and g["cable_supply"] == "order" and g["links"]:
            said = f"{g['links']:,} {g['segment']} link"
            assert any(said in c and g["fabric"] in c for c in cables), said


def test_each_link_groups_ends_are_on_the_bom(bundle: Bundle) -> None:
    ends = [r["description"] for r in _lines(bundle, "transceiver")]
    for g in bundle.design["links"]:
        for end in (g["a"], g["b"]):
            if end["transceivers"] and end["supply"] == "order":
                said = f"{end['device']} end of {g['links']:,} {g['segment']} link"
                assert any(said in e for e in ends), said


def test_the_bom_switches_are_the_fabrics_switches(bundle: Bundle) -> None:
    fabrics = bundle.design["fabrics"]
    for name in ("compute", "storage"):
        f = fabrics[name]
        if f is None:
            continue
        bom = sum(
            int(r["quantity"])
            for r in _lines(bundle, "switch")
            if f", {name} fabric " in r["description"]
        )
        assert bom == f["total_switches"], name


def test_no_server_is_counted_that_the_bom_does_not_order(bundle: Bundle) -> None:
    servers = bundle.design["servers"]
    assert servers["management_servers"] == 0
    assert not _lines(bundle, "management-server")
    said = next(ln for ln in bundle.memo.splitlines() if ln.startswith("- Servers:"))
    assert not re.search(r"= \d+ servers", said), said


def test_every_power_estimate_names_a_bom_part(bundle: Bundle) -> None:
    names = {r["name"] for r in bundle.bom}
    for e in bundle.design["power"]["estimated"]:
        assert any(e.startswith(f"{n}: ") for n in names), e


def test_the_chosen_row_and_its_why_are_the_increments_power(bundle: Bundle) -> None:
    d = bundle.design
    it = d["power"]["it_total_w"]
    study = d["alternatives"]
    chosen = next(r for r in study["rows"] if r["chosen"])
    assert chosen["it_power_w"] == it
    assert chosen["facility_power_w"] == d["power"]["facility_total_w"]
    kw = f"{it / 1e3:,.1f} kW"
    for r in study["rows"]:
        for figure in re.findall(r"against ([\d,.]+ kW) IT", r["why_not"] or ""):
            assert figure == kw, r["why_not"]


def test_a_reused_fabric_manager_asks_for_no_node_slot(bundle: Bundle) -> None:
    assert not [w for w in bundle.design["warnings"] if "fabric manager" in w]


def test_the_workbook_says_it_is_an_expansion(bundle: Bundle) -> None:
    ws = load_workbook(bundle.out / "bom.xlsx")["Summary"]
    assert ws.cell(2, 1).value == "Expansion of"


def _plan_racks(b: Bundle) -> dict[str, list[dict[str, str]]]:
    racks: dict[str, list[dict[str, str]]] = {}
    for row in csv.DictReader(io.StringIO((b.out / "rack_plan.csv").read_text())):
        racks.setdefault(row["rack"], []).append(row)
    return racks


def test_the_rack_plan_places_what_the_racks_section_counts_and_powers(bundle: Bundle) -> None:
    racks = bundle.design["racks"]
    plan = _plan_racks(bundle)
    # a rack with PDUs is a new one (a standing compute rack takes new nodes in its free slots)
    fed = {name for name, rows in plan.items() if any(r["role"] == "power" for r in rows)}
    support = [name for name, rows in plan.items() if rows[0]["role"] != "compute"]
    assert len(fed) == racks["total_racks"]
    assert len(support) == racks["network_racks"]
    assert set(support) <= fed
    pdus = sum(1 for rows in plan.values() for r in rows if r["role"] == "power")
    assert pdus == racks["pdus"]


def test_the_bom_orders_the_racks_and_pdus_the_racks_section_counts(bundle: Bundle) -> None:
    racks = bundle.design["racks"]
    assert sum(int(r["quantity"]) for r in _lines(bundle, "rack")) == racks["total_racks"]
    assert sum(int(r["quantity"]) for r in _lines(bundle, "pdu")) == racks["pdus"]


def test_the_chosen_row_counts_the_increments_switches_and_racks(bundle: Bundle) -> None:
    d = bundle.design
    chosen = next(r for r in d["alternatives"]["rows"] if r["chosen"])
    fabrics = d["fabrics"]
    nets = (fabrics["compute"], fabrics["storage"], fabrics["inband"], fabrics["oob"])
    assert chosen["switches"] == sum(f["total_switches"] for f in nets if f)
    assert chosen["racks"] == d["racks"]["total_racks"]
