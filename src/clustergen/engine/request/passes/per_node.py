"""GPUs written per node: "16 servers, each with 8 GPUs" is 128 GPUs, never a cluster of 8."""

from __future__ import annotations

from clustergen.engine.request.draft import Draft
from clustergen.errors import RequestError


def read_gpus_per_node(r: Draft) -> None:
    """A GPUs-per-node phrase with a node count is the cluster's GPUs (nodes x GPUs a node);
    without one it says only which nodes. A pass: the product needs the node count, read by
    another rule anywhere in the request."""
    per = r.fields.pop("_gpus_per_node", None)
    r.phrases.pop("_gpus_per_node", None)
    if not isinstance(per, int) or per < 1:
        return
    nodes, gpus = r.fields.get("nodes"), r.fields.get("gpus")
    if not isinstance(nodes, int):
        return
    total = nodes * per
    if isinstance(gpus, int) and gpus not in (total, per):
        raise RequestError(
            f"{nodes} nodes of {per} GPUs are {total:,} GPUs, not {gpus:,}",
            hint="state the GPU count once, or the nodes and their GPUs",
        )
    r.fields["gpus"] = total
    r.understood.append(
        f"{nodes} node{'s' if nodes != 1 else ''} x {per} GPUs per node -> {total:,} GPUs"
    )
