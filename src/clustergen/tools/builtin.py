"""The built-in tools: catalog look-ups, sizing, storage and fleet analysis, and designs.

Each tool is one function declared with `@tool`: its name is the function's, its description the
docstring, its argument and result models the annotations, and the declaration says who is offered it
(see `clustergen.tools.registry`). It validates nothing by hand (its argument model did that), calls
one engine function and returns the engine's model. Docstrings and field descriptions here are what a
model reads, written for one that has never seen clustergen, and short: a self-hosted server reads
every schema of the first request before it writes a token. Quantities carry their unit in the field
name, the same unit for the same quantity in every tool (power in W, rack power in kW).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from clustergen.catalog.architectures import RaPattern
from clustergen.catalog.models import Switch, System
from clustergen.engine.calculators.fleet import FleetPlan
from clustergen.engine.calculators.fleet import plan_fleet as engine_plan_fleet
from clustergen.engine.calculators.ra import WORKLOADS, RaResult, recommend
from clustergen.engine.calculators.specs import GpuSpec, gpu_spec
from clustergen.engine.model.bounds import MAX_GPUS, MAX_NODES
from clustergen.engine.model.common import Check
from clustergen.engine.model.compute import PlatformFabric, PowerFirstResult
from clustergen.engine.model.design import Design, TradeStudy
from clustergen.engine.model.sensitivity import Sensitivity
from clustergen.engine.model.storage import StorageAnalysis, StorageTargets
from clustergen.engine.report.documents.summary import DesignSummary, summarize
from clustergen.engine.request import DesignRequest, merge_request
from clustergen.engine.request import parse_request as engine_parse_request
from clustergen.engine.search.planner import plan_design
from clustergen.engine.search.proposal import design_from_choices, request_from_fields
from clustergen.engine.search.sensitivity import sensitivity as engine_sensitivity
from clustergen.engine.search.trade_study import candidate_platforms, top_rows, trade_study
from clustergen.engine.sizing.fabric import platform_fabric
from clustergen.engine.sizing.storage import analyze_storage as engine_analyze_storage
from clustergen.engine.sizing.storage import storage_targets as engine_storage_targets
from clustergen.engine.solve.power_first import most_under_cap
from clustergen.tools.args import (
    Choices,
    CoreRequirements,
    DesignFields,
    FabricPins,
    Fleet,
    Io,
    Policy,
    Requirements,
)
from clustergen.tools.registry import Registry, ToolContext

Workload = Literal["training", "fine-tuning", "inference", "mixed"]
assert set(WORKLOADS) == {"training", "fine-tuning", "inference", "mixed"}


#: This module's tools; `toolsets.default_registry` joins it with the others.
TOOLS = Registry()
tool = TOOLS.tool


class _Args(BaseModel):
    # Lengths are checked here; the schemas a model reads leave them out (grammar-safe).
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


def _request(ctx: ToolContext, req: BaseModel) -> DesignRequest:
    """The requirements given, over the run's request as read (in a design run): a model that
    leaves them out designs for the request as the user stated it."""
    given = {k: v for k, v in req.model_dump().items() if v is not None}
    return request_from_fields(ctx.catalog, {**ctx.stated(), **given}, text=ctx.text())


# ---------------------------------------------------------------- reading the request


class ParseArgs(_Args):
    text: str = Field(
        min_length=1, max_length=4000, description="the request as written, at most 4000 chars"
    )


@tool(title="Parse a request")
def parse_request(ctx: ToolContext, a: ParseArgs) -> DesignRequest:
    """Read a free-text request with clustergen's parser: the fields it understood and the words
    it did not."""
    return engine_parse_request(ctx.catalog, a.text)


# ---------------------------------------------------------------- catalog look-ups


class NameArgs(_Args):
    name: str = Field(
        min_length=1, max_length=200, description="a name or id; look-ups are forgiving ('H100')"
    )


class PlatformInfo(BaseModel):
    """A GPU platform the catalog knows."""

    id: str
    name: str
    kind: str
    gpu: str | None
    gpus_per_node: int
    cooling: str | None
    max_power_w: float | None
    architecture: str | None = Field(description="the reference architecture it follows, if any")


class PlatformList(BaseModel):
    platforms: list[PlatformInfo]


class ListPlatformsArgs(_Args):
    gpu: str | None = Field(
        default=None, max_length=200, description="only systems built on this GPU"
    )
    cooling: Literal["air", "liquid"] | None = Field(
        default=None, description="air excludes liquid-only"
    )
    rack_power_kw: float | None = Field(
        default=None, gt=0, le=1000, description="rack power limit in kW; excludes systems above it"
    )


@tool(title="List GPU platforms")
def list_platforms(ctx: ToolContext, a: ListPlatformsArgs) -> PlatformList:
    """GPU platforms (DGX/HGX nodes, NVL72 racks, PCIe servers) that fit a GPU, cooling and rack
    power limit, with the reference architecture each follows."""
    req = request_from_fields(ctx.catalog, a.model_dump())
    out = []
    for s in candidate_platforms(ctx.catalog, req):
        arch = ctx.catalog.architecture_for(s.id)
        out.append(
            PlatformInfo(
                id=s.id,
                name=s.name,
                kind=s.kind,
                gpu=s.gpu,
                gpus_per_node=s.gpus_per_node,
                cooling=s.cooling,
                max_power_w=s.max_power_w,
                architecture=arch.id if arch else None,
            )
        )
    return PlatformList(platforms=out)


@tool(title="Look up a GPU", mcp="first")
def lookup_gpu(ctx: ToolContext, a: NameArgs) -> GpuSpec:
    """Catalog facts of one GPU: memory, bandwidth, dense BF16/FP8 TFLOPS, TDP, source."""
    return gpu_spec(ctx.catalog, a.name)


@tool(title="Look up a system", mcp="first")
def lookup_system(ctx: ToolContext, a: NameArgs) -> System:
    """Catalog facts of one system (server, NVL rack, fabric manager): GPUs, ports, power."""
    return ctx.catalog.system(a.name)


@tool(title="Look up a switch")
def lookup_switch(ctx: ToolContext, a: NameArgs) -> Switch:
    """Catalog facts of one switch: ports, speed, breakouts, power, roles."""
    return ctx.catalog.switch(a.name)


class NoArgs(_Args):
    pass


class RaPatternList(BaseModel):
    patterns: list[RaPattern]


@tool(title="List Enterprise RA patterns")
def list_ra_patterns(ctx: ToolContext, a: NoArgs) -> RaPatternList:
    """NVIDIA Enterprise RA node patterns (C-G-N-B naming) with node ranges and bandwidth."""
    return RaPatternList(patterns=ctx.catalog.all(RaPattern))


class RecommendArgs(_Args):
    gpus: int = Field(ge=1, le=MAX_GPUS, description="GPUs wanted")
    workload: Workload = Field(default="training", description="what the cluster mostly runs")


@tool(title="Recommend an Enterprise RA pattern")
def recommend_ra(ctx: ToolContext, a: RecommendArgs) -> RaResult:
    """Recommend an Enterprise RA pattern and node count for a GPU count and workload."""
    return recommend(ctx.catalog, a.gpus, a.workload)


# ---------------------------------------------------------------- sizing


class FabricArgs(_Args):
    platform: str = Field(
        max_length=200, description="system id or name, e.g. dgx-h100, gb200-nvl72, or a GPU"
    )
    nodes: int = Field(ge=1, le=MAX_NODES, description="nodes (NVL racks count as one node)")
    choices: FabricPins = Field(
        default_factory=FabricPins, description="pin switch, oversubscription, planes, ..."
    )


@tool(title="Size a compute fabric")
def size_fabric(ctx: ToolContext, a: FabricArgs) -> PlatformFabric:
    """Size the compute fabric (Clos, rail-optimized where the platform's RA says so) for a
    platform and node count: tiers, leaf/spine/core switches, links, optics, power."""
    return platform_fabric(ctx.catalog, a.platform, a.nodes, a.choices)


class PowerArgs(_Args):
    platform: str = Field(max_length=200, description="system id or name")
    power_cap_w: float = Field(gt=0, le=1e10, description="power cap in W (5 MW = 5000000)")
    power_cap_basis: Literal["it", "facility"] = Field(
        default="it", description="it: the cap is for IT load; facility: for IT x PUE"
    )
    pue: float | None = Field(
        default=None,
        ge=1.0,
        le=3.0,
        description="PUE for a facility cap; catalog default if omitted",
    )
    whole_scalable_units: bool = Field(default=False, description="round down to whole SUs")
    choices: FabricPins = Field(default_factory=FabricPins, description="fabric choices to pin")


@tool(title="Most GPUs under a power cap")
def power_first(ctx: ToolContext, a: PowerArgs) -> PowerFirstResult:
    """The most GPUs of a platform whose IT power (nodes, switches, optics) fits a power cap."""
    return most_under_cap(
        ctx.catalog,
        a.platform,
        a.power_cap_w,
        choices=a.choices,
        cap_basis=a.power_cap_basis,
        pue=a.pue,
        whole_su=a.whole_scalable_units,
    )


class TargetsArgs(_Args):
    tier: Literal["good", "better", "best"] = Field(description="SuperPOD storage performance tier")
    nodes: int = Field(ge=1, le=MAX_NODES, description="GPU nodes reading from storage")
    su_nodes: int | None = Field(
        default=None,
        ge=1,
        le=MAX_NODES,
        description="nodes per scalable unit; the platform's if omitted",
    )


@tool(title="Storage bandwidth targets")
def storage_targets(ctx: ToolContext, a: TargetsArgs) -> StorageTargets:
    """Storage read/write bandwidth targets for a node count at a SuperPOD guidance tier."""
    return engine_storage_targets(ctx.catalog, a.tier, a.nodes, a.su_nodes)


@tool(title="Analyze a storage data path")
def analyze_storage(ctx: ToolContext, a: Io) -> StorageAnalysis:
    """Will storage keep the GPUs fed: bandwidth, IOPS, metadata load, checkpoint time, GPU
    utilisation the data path allows, the binding limit and the fixes."""
    return engine_analyze_storage(ctx.catalog, a)


class FleetArgs(_Args):
    inventory: Fleet = Field(description="the fleet's nodes and policy")
    policy: Policy | None = Field(default=None, description="overrides the inventory's policy")


@tool(title="Plan a GPU fleet", agent=None)
def plan_fleet(ctx: ToolContext, a: FleetArgs) -> FleetPlan:
    """Tier a heterogeneous GPU fleet by memory and share it among job classes by quota."""
    return engine_plan_fleet(ctx.catalog, a.inventory, a.policy)


# ---------------------------------------------------------------- designs


_REQUIREMENTS_HELP = (
    "the customer's requirements; in a design run, omitted fields keep the request as read"
)


class CompareArgs(_Args):
    requirements: CoreRequirements = Field(
        default_factory=CoreRequirements, description=_REQUIREMENTS_HELP
    )


#: trade-study rows a model is shown: the best ones, well inside its tool-result budget
_STUDY_ROWS = 24


@tool(title="Compare alternatives", agent="core")
def compare_alternatives(ctx: ToolContext, a: CompareArgs) -> TradeStudy:
    """Trade study: each platform x fabric x oversubscription that fits the requirements, with
    GPUs, nodes and power, best first (the first row is the planner's choice); every other row
    says why it was not chosen; the lowest-ranked rows are left off."""
    return top_rows(trade_study(ctx.catalog, _request(ctx, a.requirements)), _STUDY_ROWS)


class SensitivityArgs(_Args):
    requirements: Requirements = Field(
        description="must include a power cap (power_cap_w); the sweeps hold it fixed"
    )


@tool(title="Sensitivity at a fixed power cap")
def sensitivity(ctx: ToolContext, a: SensitivityArgs) -> Sensitivity:
    """GPUs per MW for each platform and fabric option, GPUs lost per +X% GPU power, which
    option wins as optics power is scaled, and GPUs against the cap (exact, fast)."""
    return engine_sensitivity(ctx.catalog, _request(ctx, a.requirements))


class DesignArgs(_Args):
    requirements: Requirements = Field(default_factory=Requirements, description=_REQUIREMENTS_HELP)
    choices: Choices | None = Field(
        default=None, description="your choices; omit to build the planner's own design"
    )


def _design(ctx: ToolContext, a: DesignArgs | SubmitArgs) -> Design:
    request = _request(ctx, a.requirements)
    if a.choices is None:
        return plan_design(ctx.catalog, request)
    return design_from_choices(ctx.catalog, request, a.choices)


@tool(title="Build a design")
def build_design(ctx: ToolContext, a: DesignArgs) -> DesignSummary:
    """Build and check a design: its key figures and failed checks. Try choices here."""
    return summarize(_design(ctx, a))


class Validation(BaseModel):
    passed: bool = Field(description="every error-severity check passed")
    checks: list[Check]


@tool(title="Check a design")
def validate_design(ctx: ToolContext, a: DesignArgs) -> Validation:
    """Every check a design from these requirements and choices passes or fails."""
    d = _design(ctx, a)
    return Validation(
        passed=all(c.passed or c.severity != "error" for c in d.checks), checks=d.checks
    )


class SubmitArgs(_Args):
    requirements: CoreRequirements = Field(
        default_factory=CoreRequirements, description=_REQUIREMENTS_HELP
    )
    choices: Choices = Field(description="your choices")
    memo: str = Field(
        min_length=1,
        max_length=20_000,
        description="customer memo, markdown, under 400 words; numbers only from tool results",
    )
    reason: str = Field(
        default="", max_length=2000, description="why this platform and fabric, one sentence"
    )


class Submission(BaseModel):
    accepted: bool
    summary: DesignSummary


@tool(title="Submit the design", agent="core", mcp=False)
def submit_design(ctx: ToolContext, a: SubmitArgs) -> Submission:
    """Finish: submit requirements, choices and the memo. The engine rebuilds and checks the
    design and every number in the memo."""
    s = summarize(_design(ctx, a))
    return Submission(accepted=not s.checks_failed, summary=s)


# ---------------------------------------------------------------- for other agents


@tool(title="Design a GPU cluster", agent=None, mcp="first")
def design_cluster(ctx: ToolContext, a: DesignFields) -> Design:
    """Design a GPU cluster with clustergen's deterministic planner, from a request in plain words
    ('512 GPUs training, 5 MW'), fields, or both (a field overrides what the text says): the
    validated design (platform, fabrics, racks, power, storage, checks, trade study). An
    infeasible or unreadable request is refused with the reason."""
    fields = a.model_dump(exclude_none=True)
    text = fields.pop("text", None)
    return plan_design(ctx.catalog, merge_request(ctx.catalog, text, fields))
