"""NVIDIA's published per-SU tables (catalog/su_tables.yaml) against a design: the row for the
design's RA, variant and size, the counts a sizing rule reads from it, and the check that
compares every count the row publishes with the design's own.

A row is the table's only word: a size no row publishes is derived by the rules, and the check
says so rather than passing; a count a row leaves out is derived the same way.
"""

from __future__ import annotations

from clustergen.catalog.architectures import SU_TABLE_COUNTS, SuTable, SuTableRow
from clustergen.engine.model.common import Check
from clustergen.engine.model.design import FabricsSection, RacksSection, ServersSection
from clustergen.engine.sizing.inputs import Inputs
from clustergen.units import plural

#: what each count is called in the check's figure
_WORDS = {
    "compute_leaf": "compute leaves",
    "compute_spine": "compute spines",
    "compute_core": "compute core switches",
    "storage_leaf": "storage leaves",
    "storage_spine": "storage spines",
    "storage_switches": "storage switches",
    "inband_switches": "in-band switches",
    "oob_switches": "out-of-band switches",
    "fabric_managers": "fabric managers",
    "management_servers": "management servers",
    "racks": "racks",
}

CHECK_NAME = "published RA table"

#: counts that follow the storage designed (its appliances' ports, their racks): the table's are
#: for the storage the RA was built with, so a difference there is a warning, not a failure
STORAGE_COUNTS = frozenset({"storage_leaf", "storage_spine", "storage_switches", "racks"})


def su_tables(inputs: Inputs, planes: int | None) -> list[SuTable]:
    """The tables published for the design's architecture, system and compute planes (a table
    of a variant names its planes; one that does not holds for the RA's own)."""
    arch = inputs.architecture
    if arch is None:
        return []
    return [
        t
        for t in inputs.catalog.all(SuTable)
        if t.architecture == arch.id
        and (not t.systems or inputs.system.id in t.systems)
        and (t.planes is None or t.planes == (planes or 1))
    ]


def published_row(inputs: Inputs, nodes: int, planes: int | None) -> SuTableRow | None:
    """The row NVIDIA publishes for this design's RA, variant and node count, or None."""
    return next((row for t in su_tables(inputs, planes) if (row := t.row(nodes)) is not None), None)


def published_count(inputs: Inputs, nodes: int, planes: int | None, count: str) -> int | None:
    """One count the published row gives for this design (`SU_TABLE_COUNTS`), or None."""
    row = published_row(inputs, nodes, planes)
    return None if row is None else row.counts().get(count)


def design_counts(
    fabrics: FabricsSection, servers: ServersSection, racks: RacksSection
) -> dict[str, int]:
    """The design's own figure for every count a table may publish."""
    cf, sf = fabrics.compute, fabrics.storage
    counts = {
        "compute_leaf": cf.leaf_switches if cf else 0,
        "compute_spine": cf.spine_switches if cf else 0,
        "compute_core": cf.core_switches if cf else 0,
        "storage_leaf": sf.leaf_switches if sf else 0,
        "storage_spine": sf.spine_switches if sf else 0,
        "storage_switches": sf.total_switches if sf else 0,
        "inband_switches": fabrics.inband.total_switches if fabrics.inband else 0,
        "oob_switches": fabrics.oob.total_switches if fabrics.oob else 0,
        "fabric_managers": servers.fabric_managers,
        "management_servers": servers.management_servers,
        "racks": racks.total_racks,
    }
    assert set(counts) == set(SU_TABLE_COUNTS)
    return counts


def su_table_check(
    inputs: Inputs,
    nodes: int,
    fabrics: FabricsSection,
    servers: ServersSection,
    racks: RacksSection,
    follows_ra: bool,
) -> Check:
    """The design against the table for its RA and size: PASS when every count the row
    publishes is the design's, FAIL naming each difference (WARN where only the counts that follow
    the storage designed differ); where no row publishes the size (or the design leaves its RA),
    INFO that the rule derived the counts, never a pass."""
    arch = inputs.architecture
    # a rack-scale system is one node a rack: its rows count racks
    unit = "rack" if inputs.system.kind == "nvl-rack" else "node"
    planes = fabrics.compute.planes if fabrics.compute else None
    tables = su_tables(inputs, planes) if follows_ra else []
    row = next((r for t in tables if (r := t.row(nodes)) is not None), None)
    if row is None:
        if arch is None or not follows_ra:
            why = "the design follows no reference architecture"
        elif not tables:
            why = f"no per-SU table of {arch.name} is in the catalog"
        else:
            sizes = sorted({r.nodes for t in tables for r in t.rows})
            why = (
                f"{arch.name} publishes no row at {plural(nodes, unit)} "
                f"(rows at {', '.join(f'{s:,}' for s in sizes)} {unit}s)"
            )
        return Check(
            name=CHECK_NAME,
            passed=False,
            figure="derived by rule: " + why,
            detail="every component count comes from the sizing rules, not a published table",
            severity="info",
        )
    ours = design_counts(fabrics, servers, racks)
    published = row.counts()
    differ = {k: v for k, v in published.items() if ours[k] != v}
    listed = ", ".join(f"{v:,} {_WORDS[k]}" for k, v in published.items())
    detail = f"{listed} at {plural(nodes, unit)}: {row.source}"
    storage_only = bool(differ) and set(differ) <= STORAGE_COUNTS
    if storage_only:
        detail += (
            "; the storage fabric and racks follow the storage designed, the table's the "
            "storage the RA was built with"
        )
    return Check(
        name=CHECK_NAME,
        passed=not differ,
        figure="; ".join(
            f"{_WORDS[k]} {ours[k]:,} where the table has {v:,}" for k, v in differ.items()
        )
        or f"{plural(len(published), 'count')} match",
        detail=detail,
        severity="warning" if storage_only else "error",
    )
