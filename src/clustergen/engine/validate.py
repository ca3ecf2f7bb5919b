"""Checks: every rule a design is validated against, passed or failed, with the figure."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from clustergen.engine.fabric import FabricDesign


class Check(BaseModel):
    """One rule and how the design fared against it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    passed: bool
    figure: str
    detail: str
    severity: str = "error"  # "error" fails the design; "warning" informs


def check(name: str, passed: bool, figure: str, detail: str, severity: str = "error") -> Check:
    """Build a Check."""
    return Check(name=name, passed=passed, figure=figure, detail=detail, severity=severity)


def fabric_checks(label: str, f: FabricDesign) -> list[Check]:
    """Clos rules every fabric must satisfy."""
    out = [
        check(
            f"{label}: leaf ports within radix",
            f.max_ports_used["leaf"] <= f.leaf_radix,
            f"{f.max_ports_used['leaf']} of {f.leaf_radix}",
            "no leaf uses more ports than it has",
        )
    ]
    if f.tiers >= 2 and f.spine_radix:
        out.append(
            check(
                f"{label}: spine ports within radix",
                f.max_ports_used["spine"] <= f.spine_radix,
                f"{f.max_ports_used['spine']} of {f.spine_radix}",
                "no spine uses more ports than it has",
            )
        )
        per_plane_spines = (f.spines_per_pod or f.spine_switches // f.planes) or 1
        out.append(
            check(
                f"{label}: uplinks spread evenly",
                f.leaf_uplinks % per_plane_spines == 0,
                f"{f.leaf_uplinks} uplinks over {per_plane_spines} spines",
                "each leaf sends the same number of links to every spine it reaches",
            )
        )
    if f.tiers == 2:
        cap = f.max_host_ports_at_tiers
        hosts = f.host_links // f.planes
        out.append(
            check(
                f"{label}: 2-tier capacity",
                hosts <= cap,
                f"{hosts} host ports, limit {cap}",
                "a 2-tier fat tree of radix-k switches serves at most k^2/2 host ports",
            )
        )
    if f.tiers == 3 and f.core_radix:
        out.append(
            check(
                f"{label}: core ports within radix",
                f.max_ports_used["core"] <= f.core_radix,
                f"{f.max_ports_used['core']} of {f.core_radix}",
                "no core switch uses more ports than it has",
            )
        )
    return out
