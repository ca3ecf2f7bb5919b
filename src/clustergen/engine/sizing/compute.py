"""Compute: how many nodes a design gets, and its compute section."""

from __future__ import annotations

from clustergen.engine.model.common import Assumed
from clustergen.engine.model.compute import PowerFirstResult
from clustergen.engine.model.design import ComputeSection
from clustergen.engine.sizing.inputs import Inputs, Notes
from clustergen.engine.sizing.platform import whole_nodes
from clustergen.engine.sizing.workload import workload_gpus
from clustergen.errors import InfeasibleDesignError, RequestError
from clustergen.units import plural


def compute_nodes(inputs: Inputs, cap_solve: PowerFirstResult | None, notes: Notes) -> int:
    """Nodes from the request's node or GPU count (whole nodes), or the GPUs its workload needs,
    and the spares asked for beside them; else the most under the cap, spares among them."""
    spares = inputs.request.spare_nodes or 0
    if cap_solve is not None and not (inputs.request.nodes or inputs.sized_gpus):
        nodes = _sized_nodes(inputs, cap_solve, notes)
        if spares >= nodes:
            raise InfeasibleDesignError(
                f"{plural(spares, 'spare node')} leave none of the {nodes} that fit under the cap"
            )
        return nodes
    return _sized_nodes(inputs, cap_solve, notes) + spares


def _sized_nodes(inputs: Inputs, cap_solve: PowerFirstResult | None, notes: Notes) -> int:
    request, system = inputs.request, inputs.system
    if request.nodes:
        return request.nodes
    gpus = inputs.sized_gpus
    if gpus:
        nodes = whole_nodes(gpus, system)
        if nodes * system.gpus_per_node != gpus:
            notes.warnings.append(
                f"{gpus:,} GPUs round up to {plural(nodes, system.id + ' node')} "
                f"({nodes * system.gpus_per_node:,} GPUs)"
            )
        return nodes
    if cap_solve is not None:
        notes.assumed.append(
            Assumed(
                field="gpus",
                value=f"{cap_solve.gpus:,}",
                reason="no GPU count given: the most that fit under the cap",
            )
        )
        return cap_solve.nodes
    if inputs.estimate is not None:  # a workload this platform cannot meet: its own reason
        why = workload_gpus(inputs.catalog, request, system)[1] or "no GPU count meets it"
        raise InfeasibleDesignError(f"{system.id} cannot size the workload: {why}")
    raise RequestError("nothing to size: give GPUs, nodes or a power cap")  # pragma: no cover


def compute_section(
    inputs: Inputs,
    nodes: int,
    scalable_units: int,
    su_nodes: int | None,
    cap_solve: PowerFirstResult | None,
) -> ComputeSection:
    """The compute section: nodes, GPUs, SUs, node power and what fits under the cap."""
    gpus_per_node = inputs.system.gpus_per_node
    return ComputeSection(
        nodes=nodes,
        gpus=nodes * gpus_per_node,
        requested_gpus=inputs.request.gpus,
        spare_nodes=inputs.request.spare_nodes or 0,
        scalable_units=scalable_units,
        su_nodes=su_nodes,
        node_power=inputs.platform.node_power,
        max_nodes_under_cap=cap_solve.nodes if cap_solve else None,
        max_gpus_under_cap=cap_solve.gpus if cap_solve else None,
    )
