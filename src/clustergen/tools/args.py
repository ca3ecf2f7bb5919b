"""Argument models the built-in tools share, with the wording a model reads.

The engine's models (a request, design choices, fabric pins, a storage workload, a fleet) are the
arguments; these are subclasses of them whose fields carry descriptions written for a model (see
`clustergen.tools.schema.described`), so the engine stays as it is and every parameter a model or an
MCP client sees is described. Type checkers see the engine model each one extends. A request's
fields are the exception: `DesignRequest` declares each field's description for models itself
(with its human name and flag beside it), and `Requirements` takes them as they are.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, create_model

from clustergen.engine.calculators.fleet import FleetPolicy, Inventory
from clustergen.engine.model.compute import FabricChoices
from clustergen.engine.model.design import DesignChoices
from clustergen.engine.model.request import PARSE_FIELDS
from clustergen.engine.model.storage import IoWorkload
from clustergen.engine.request import DesignRequest
from clustergen.tools.schema import described


def _requirement(f: Any) -> tuple[Any, Any]:
    # the request's own field, its description for models included: declared once, on the model
    return (f.annotation, copy.copy(f))


# A request as structured fields: DesignRequest without the bookkeeping of how text was parsed.
Requirements: type[BaseModel] = create_model(  # type: ignore[call-overload]
    "Requirements",
    __config__=ConfigDict(extra="forbid", allow_inf_nan=False),
    __doc__="The customer's requirements; omit what the customer did not say.",
    **{
        name: _requirement(f)
        for name, f in DesignRequest.model_fields.items()
        if name not in PARSE_FIELDS
    },
)

# The request as text and/or fields, as `clustergen design` takes it: one argument per request
# field (built from DesignRequest's own declarations, so a new field is an argument at once).
DesignFields: type[BaseModel] = create_model(  # type: ignore[call-overload]
    "DesignFields",
    __config__=ConfigDict(extra="forbid", allow_inf_nan=False),
    __doc__="A request in plain words, fields, or both; a field overrides what the text says.",
    text=(
        str | None,
        Field(
            default=None,
            min_length=1,
            max_length=4000,
            description="the request in plain words, e.g. '512 GPUs training, 5 MW'",
        ),
    ),
    **{name: (f.annotation, copy.copy(f)) for name, f in Requirements.model_fields.items()},
)

#: the requirements the agent's first tools take: what a model corrects when the parser misread;
#: every other field (workload shape, dataset, checkpoints) keeps the request as read in a run
CORE_FIELDS = (
    "gpus",
    "nodes",
    "power_cap_w",
    "power_cap_basis",
    "pue",
    "workload",
    "gpu",
    "platform",
    "fabric",
    "oversubscription",
    "rack_power_kw",
    "cooling",
    "storage_tier",
    "model",
    "training_tokens_t",
    "training_days",
    "output_tokens_per_s",
)

CoreRequirements: type[BaseModel] = create_model(  # type: ignore[call-overload]
    "CoreRequirements",
    __config__=ConfigDict(extra="forbid", allow_inf_nan=False),
    __doc__="Corrections to the request as read; omit what it read right.",
    **{name: _requirement(DesignRequest.model_fields[name]) for name in CORE_FIELDS},
)

if TYPE_CHECKING:
    Choices = DesignChoices
else:
    Choices = described(
        DesignChoices,
        {
            "platform": "system id from the trade study, e.g. dgx-h100",
            "fabric": "compute fabric; omit to follow the platform's reference architecture",
            "oversubscription": "compute fabric oversubscription: 1 non-blocking, 2 for 2:1",
            "planes": "compute fabric planes; omit to follow the reference architecture",
            "storage_tier": "SuperPOD storage performance tier",
            "rack_power_kw": "power limit of one rack in kW",
            "cooling": "how racks are cooled",
        },
        name="Choices",
        doc="What you decide; the engine computes the rest.",
    )

if TYPE_CHECKING:
    FabricPins = FabricChoices
else:
    FabricPins = described(
        FabricChoices,
        {
            "switch": "switch id or name to use, e.g. qm9700",
            "technology": "fabric technology",
            "su_nodes": "nodes per scalable unit",
            "rail_optimized": "one leaf per GPU rail in each scalable unit",
            "oversubscription": "1 non-blocking, 2 for 2:1",
            "planes": "independent fabric planes",
            "port_speed_gbps": "link speed in Gb/s",
            "fabric_manager": "count the fabric-manager (UFM) hosts",
        },
        name="FabricPins",
        doc="Fabric choices to pin; omit any to follow the platform's reference architecture.",
    )


if TYPE_CHECKING:
    Io = IoWorkload
else:
    Io = described(
        IoWorkload,
        {
            "samples_per_s_per_gpu": "samples each GPU consumes per second",
            "read_pattern": "how the data loader reads",
            "layout": "how the training data is stored",
            "system": "kind of storage system",
            "target_read_gb_per_s": "read bandwidth of one storage target in GB/s",
            "metadata_servers": "metadata servers of the file system",
            "mds_ops_per_s": "metadata operations per second one server sustains",
            "storage_network_gb_per_s": "storage network bandwidth in GB/s",
            "checkpoint_gb": "one checkpoint in GB",
            "checkpoint_interval_s": "seconds between checkpoints",
        },
        name="Io",
    )


_POLICY_HELP = {
    "job_classes": "kinds of work, their tiers, quotas and provider preferences",
    "job_classes.name": "job class name",
    "job_classes.prefer_providers": "providers to place this class on first",
    "job_classes.description": "what the class runs",
    "ephemeral_sync_interval_s": "seconds between result syncs on ephemeral nodes",
    "ephemeral_max_job_minutes": "longest job, in minutes, placed on ephemeral nodes",
    "idle_threshold_minutes": "minutes before an idle GPU counts as free",
}

if TYPE_CHECKING:
    Policy = FleetPolicy
else:
    Policy = described(FleetPolicy, _POLICY_HELP, name="Policy")

if TYPE_CHECKING:
    Fleet = Inventory
else:
    Fleet = described(
        Inventory,
        {
            "name": "inventory name",
            "source": "where the inventory comes from",
            "providers": "provider name -> what holds for all its nodes",
            "providers.ephemeral": "the provider's nodes can vanish (spot)",
            "providers.notes": "anything else about the provider",
            "policy": "how to tier and share the fleet",
            **{f"policy.{k}": v for k, v in _POLICY_HELP.items()},
            "nodes": "the fleet's nodes",
            "nodes.name": "node name, unique",
            "nodes.provider": "cloud or site the node is in",
            "nodes.role": "what the node does, if not GPU work",
            "nodes.notes": "anything else about the node",
        },
        name="Fleet",
    )
