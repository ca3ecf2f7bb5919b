"""The one place where a request's silences become numbers: every default a design depends on
(workload, PUE, cap basis and IT cap, storage tier, rack power, cooling) is resolved here once and
recorded once as an `Assumed`, and the planner, the trade study and the design all read it from
here, so they cannot disagree.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from clustergen.catalog.architectures import Architecture
from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import Gpu, System
from clustergen.engine.cache import Same, cached
from clustergen.engine.model.common import Assumed
from clustergen.engine.model.compute import CapBasis, NodePower
from clustergen.engine.model.request import FILLING
from clustergen.engine.sizing.platform import (
    gpu_system,
    it_cap_w,
    layout_nodes,
    node_power,
    whole_nodes,
)
from clustergen.errors import InfeasibleDesignError
from clustergen.units import plural, power_words

if TYPE_CHECKING:
    # annotations only: `fabric` and `power` size a platform without the design and workload
    # models or the workload estimator (~40 ms of their start)
    from clustergen.engine.model.design import DesignChoices
    from clustergen.engine.model.request import DesignRequest
    from clustergen.engine.model.workload import WorkloadEstimate


class RequestInputs(NamedTuple):
    """The defaults that do not depend on the platform: what the trade study weighs every
    candidate under."""

    request: DesignRequest
    workload: str
    pue: float
    cap_basis: CapBasis | None
    it_cap_w: float | None
    assumed: dict[str, Assumed]

    def assumptions(self, *names: str) -> list[Assumed]:
        """The recorded defaults among `names`, in that order."""
        return [self.assumed[n] for n in names if n in self.assumed]


def resolve_request_inputs(catalog: Catalog, request: DesignRequest) -> RequestInputs:
    """Workload, PUE, cap basis and IT cap, each default recorded. A workload no GPU can meet
    is refused here, before any platform is sized."""
    from clustergen.engine.sizing.workload import check_workload

    check_workload(catalog, request)
    assumed: dict[str, Assumed] = {}
    workload = request.workload or "training"
    if request.workload is None:
        assumed["workload"] = Assumed(
            field="workload", value="training", reason="workload not given"
        )
    pue = request.pue
    if pue is None:
        a = catalog.assumption("pue")
        pue = float(a.value)
        assumed["pue"] = Assumed(
            field="pue", value=f"{pue:g}", reason="PUE not given", source=a.source
        )
    cap_basis: CapBasis | None = request.power_cap_basis
    it_cap = None
    if request.power_cap_w:
        if cap_basis is None:
            cap_basis = "it"
            assumed["power_cap_basis"] = Assumed(
                field="power_cap_basis",
                value="it",
                reason=f"{power_words(request.power_cap_w, 3).replace('.000 MW', ' MW')} read as "
                f"IT power; facility {power_words(request.power_cap_w * pue)} at PUE {pue:g}",
            )
        it_cap = it_cap_w(request.power_cap_w, cap_basis, pue)
        if request.existing_power_w and it_cap is not None and not request.power_cap_scope:
            it_cap = _cap_left(request.existing_power_w, it_cap, assumed)
    return RequestInputs(
        request=request,
        workload=workload,
        pue=pue,
        cap_basis=cap_basis,
        it_cap_w=it_cap,
        assumed=assumed,
    )


def _cap_left(existing_w: float, it_cap: float, assumed: dict[str, Assumed]) -> float:
    """An increment on an installation that draws `existing_w` is sized under what the cap
    leaves it (the power checks add the installation's draw back)."""
    if existing_w >= it_cap:
        raise InfeasibleDesignError(
            f"the existing installation's {power_words(existing_w, 3)} already fills the "
            f"{power_words(it_cap, 3)} IT cap: nothing can be added",
            hint="raise the cap, or state the installation's draw if it is less",
        )
    assumed["existing_power_w"] = Assumed(
        field="existing_power_w",
        value=f"{existing_w / 1e6:.3f} MW",
        reason=f"the increment is sized under the {power_words(it_cap, 3)} IT cap less the "
        f"existing installation's draw: {power_words(it_cap - existing_w, 3)}",
    )
    return it_cap - existing_w


class Platform(NamedTuple):
    """The chosen system, its GPU, the reference architecture it may follow, and its node power."""

    system: System
    gpu: Gpu
    architecture: Architecture | None
    node_power: NodePower


class Inputs(NamedTuple):
    """Every input of one design: the request's defaults and the platform's."""

    catalog: Catalog
    request: DesignRequest
    choices: DesignChoices
    common: RequestInputs
    platform: Platform
    storage_tier: str
    rack_power_kw: float
    rack_layout_from_ra: bool
    cooling: str
    assumed: dict[str, Assumed]
    estimate: WorkloadEstimate | None
    estimate_assumed: list[Assumed]

    def for_nodes(self, nodes: int) -> Inputs:
        """These inputs for a cluster of `nodes` nodes: the same, unless another architecture
        covers that size (a cap-sized design learns its size only after the solve)."""
        arch = self.catalog.architecture_for(
            self.system.id, self.choices.fabric, nodes, self.request.compute_link_gbps
        )
        if arch is self.architecture:
            return self
        return resolve_inputs(self.catalog, self.request, self.choices, self.common, nodes)

    @property
    def workload(self) -> str:
        return self.common.workload

    @property
    def sized_gpus(self) -> int | None:
        """GPUs the request fixes: its own count, else what its workload needs on this platform
        (None when nodes or the cap size the design). The one answer to "is this design sized by
        its GPUs?"."""
        if self.request.gpus or self.request.nodes:
            return self.request.gpus
        if self.request.objective in FILLING and self._capped:
            # "the most we can serve within 20 MW": the cap sizes it, the workload is a floor
            return None
        return self.estimate.gpus_required if self.estimate else None

    @property
    def _capped(self) -> bool:
        request = self.request
        return (
            self.common.it_cap_w is not None
            or request.capital_budget_usd is not None
            or request.max_racks is not None
        )

    @property
    def cap_sized(self) -> bool:
        """Whether a cap sizes the design: a power cap, a capital budget or the site's rack
        positions, and no node count, GPU count or workload that fixes the size."""
        return self._capped and not (self.request.nodes or self.sized_gpus)

    @property
    def system(self) -> System:
        return self.platform.system

    @property
    def architecture(self) -> Architecture | None:
        return self.platform.architecture

    def assumptions(self, *names: str) -> list[Assumed]:
        """The recorded defaults among `names`, in that order."""
        out = self.common.assumptions(*names)
        return out + [self.assumed[n] for n in names if n in self.assumed]


def request_nodes(request: DesignRequest, system: System) -> int | None:
    """The nodes a request names (its node count, or its GPUs in whole nodes), else None."""
    if request.nodes:
        return request.nodes
    if request.gpus:
        return whole_nodes(request.gpus, system)
    return None


def resolve_inputs(
    catalog: Catalog,
    request: DesignRequest,
    choices: DesignChoices,
    common: RequestInputs | None = None,
    nodes: int | None = None,
) -> Inputs:
    """Every default of a design for the chosen platform, resolved once and recorded. The
    architecture is the one covering `nodes` (the request's own count when not given): a small
    DGX cluster follows DGX BasePOD, a large one the SuperPOD."""
    common = common or resolve_request_inputs(catalog, request)
    system = gpu_system(catalog, choices.platform)
    if nodes is None:
        nodes = request_nodes(request, system)
    # an increment follows the installation it joins: the architecture of the grown size
    joined = layout_nodes(catalog, request, system)
    arch_nodes = nodes if joined is None else (nodes or 0) + joined
    arch = catalog.architecture_for(
        system.id, choices.fabric, arch_nodes, request.compute_link_gbps
    )
    platform = Platform(
        system=system,
        gpu=catalog.gpu(system.gpu or ""),
        architecture=arch,
        # the system's own power, once per catalog for this very entry
        node_power=cached(catalog, ("node_power", Same(system)), lambda: node_power(system)),
    )
    assumed: dict[str, Assumed] = {}
    tier: str | None = choices.storage_tier or request.storage_tier
    if tier is None:
        tier = (arch.storage_tier_default if arch else None) or "better"
        assumed["storage_tier"] = Assumed(
            field="storage_tier", value=tier, reason="storage tier not given; the RA's default"
        )
    given_kw = choices.rack_power_kw or request.rack_power_kw
    rack_kw = given_kw
    if rack_kw is None:
        if arch and arch.rack_power_kw:
            rack_kw = arch.rack_power_kw
            reason, source = f"{arch.name} rack layout", arch.source
        else:
            a = catalog.assumption(
                "rack-power-kw-liquid" if system.cooling == "liquid" else "rack-power-kw-air"
            )
            rack_kw, reason, source = float(a.value), "rack limit not given", a.source
        assumed["rack_power_kw"] = Assumed(
            field="rack_power_kw", value=f"{rack_kw:g}", reason=reason, source=source
        )
    cooling = (
        choices.cooling or request.cooling or ("liquid" if system.cooling == "liquid" else "air")
    )
    from clustergen.engine.sizing.workload import design_estimate

    found = design_estimate(catalog, request, system)
    return Inputs(
        catalog=catalog,
        request=request,
        choices=choices,
        common=common,
        platform=platform,
        storage_tier=tier,
        rack_power_kw=rack_kw,
        rack_layout_from_ra=given_kw is None,
        cooling=cooling,
        assumed=assumed,
        estimate=found[0] if found else None,
        estimate_assumed=found[1] if found else [],
    )


class Notes:
    """What a design's sections record as they are built, in order: the defaults they took and
    the warnings they raise."""

    __slots__ = ("assumed", "warnings")

    def __init__(
        self, assumed: list[Assumed] | None = None, warnings: list[str] | None = None
    ) -> None:
        self.assumed: list[Assumed] = assumed if assumed is not None else []
        self.warnings: list[str] = warnings if warnings is not None else []


def stated_bandwidth_scale(inputs: Inputs, nodes: int) -> tuple[float, str]:
    """What a bandwidth stated per host or per GPU is multiplied by, and how it is said."""
    return stated_scale(inputs, nodes, inputs.request.storage_bandwidth_per)


def stated_capacity_tb(inputs: Inputs, nodes: int) -> tuple[float | None, str]:
    """The usable capacity the request states, in total for this design's `nodes` (a capacity
    stated per host or per GPU multiplied by them), and how it was multiplied."""
    tb = inputs.request.storage_capacity_tb
    times, each = stated_scale(inputs, nodes, inputs.request.storage_capacity_per)
    return (None if tb is None else tb * times), each


def stated_scale(inputs: Inputs, nodes: int, per: str | None) -> tuple[float, str]:
    """What a figure stated per host or per GPU is multiplied by, and how it is said: a host is
    a server, or a rack-scale system's compute tray (its hosts, as the catalog lists them)."""
    system = inputs.system
    if per == "gpu":
        gpus = nodes * system.gpus_per_node
        return gpus, f"the stated figure per GPU x {plural(gpus, 'GPU')}"
    if per == "node":
        trays = sum(p.count for p in system.included if p.tray == "compute") or 1
        hosts = nodes * trays
        host = "compute tray" if trays > 1 else "node"
        return hosts, f"the stated figure per {host} x {plural(hosts, host)}"
    return 1.0, ""
