"""What the customer asked for, as typed fields."""

from collections.abc import Mapping
from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, model_validator

from clustergen.engine.model.bounds import (
    MAX_GPUS,
    MAX_NODES,
    MAX_POWER_W,
    TINY,
    Oversubscription,
    Pue,
    RackKw,
)
from clustergen.engine.model.storage import Layout
from clustergen.engine.model.storage import System as StorageSystem
from clustergen.factories import empty_list

#: longest request text read (a request is a paragraph; a book is not a request)
MAX_REQUEST_CHARS = 20_000

Workload = Literal["training", "fine-tuning", "inference", "mixed"]


Fabric = Literal["infiniband", "ethernet"]
#: the compute fabric technologies, in the order a message lists them
OWN_FABRICS: tuple[Fabric, ...] = ("infiniband", "ethernet")


Cooling = Literal["air", "liquid"]


Tier = Literal["good", "better", "best"]


Objective = Literal["most-gpus", "most-tokens", "perf-per-watt"]
#: objectives that fill the cap (or budget, or racks) with as many GPUs as fit
FILLING = frozenset({"most-gpus", "most-tokens"})
Precision = Literal["bf16", "fp16", "fp8", "fp4"]
TrainingMethod = Literal["full", "lora", "qlora", "continued-pretraining"]
#: the serving engines whose efficiency the catalog states (assumptions.yaml `serving-engine-*`)
ServingEngine = Literal["tensorrt-llm", "vllm", "sglang", "dynamo"]


#: fields that record how a request's text was read, not what it asks for: no flag, file or
#: tool sets them
PARSE_FIELDS = frozenset({"text", "understood", "not_understood", "su_architecture"})

#: how the serving load's note in `understood` begins: the first lines and the memo's summary
#: show what a serving design was sized for
LOAD_NOTE = "serving load sized for"

#: fields that, with a model, say what to size its workload for: training tokens or days, a
#: budget, a serving target, limit or request shape
WORKLOAD_TARGETS = (
    "training_tokens_t",
    "training_days",
    "budget_usd",
    "output_tokens_per_s",
    "ttft_ms",
    "tpot_ms",
    "isl_tokens",
    "osl_tokens",
)


#: fields that size a design on their own: a count, or a cap (power, capital, the site's rack
#: positions) to fill
SIZE_FIELDS = ("gpus", "nodes", "compute_pflops", "power_cap_w", "capital_budget_usd", "max_racks")


#: fields that describe an existing installation the design extends
EXISTING_FIELDS = (
    "existing_platform",
    "existing_gpus",
    "existing_nodes",
    "existing_sus",
    "existing_fabric",
    "existing_spine_free_ports",
    "existing_power_w",
)


def extends(request: "DesignRequest") -> bool:
    """Whether the request extends an existing installation (any existing_* field given)."""
    return any(getattr(request, f) is not None for f in EXISTING_FIELDS)


def sizes_workload(fields: Mapping[str, object]) -> bool:
    """Whether request fields name a model and something to size it for (or say inference)."""
    if not (fields.get("model") or fields.get("model_params_b")):
        return False
    return fields.get("workload") == "inference" or any(fields.get(f) for f in WORKLOAD_TARGETS)


class DesignRequest(BaseModel):
    """What the customer asked for. Every field is optional; the planner fills and reports gaps."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    #: the nodes of the installation an increment joins, by which the increment's reference
    #: architecture is chosen (the expansion planner sets it on the request it plans the
    #: increment with, whose installation fields it clears); no field of the contract
    _layout_nodes: int | None = PrivateAttr(default=None)

    @property
    def layout_nodes(self) -> int | None:
        """The installation's nodes the increment's layout follows, when the planner set them."""
        return self._layout_nodes

    def joining(self, nodes: int) -> "DesignRequest":
        """A copy that plans an increment on an installation of `nodes` nodes."""
        out = self.model_copy()
        out._layout_nodes = nodes
        return out

    text: str | None = Field(
        default=None, max_length=MAX_REQUEST_CHARS, description="the request as written"
    )
    gpus: int | None = Field(default=None, ge=1, le=MAX_GPUS, description="GPUs wanted")
    nodes: int | None = Field(
        default=None, ge=1, le=MAX_NODES, description="nodes wanted (an NVL72 rack is one node)"
    )
    # at most 10 GW: a larger cap reads as a unit slip
    power_cap_w: float | None = Field(
        default=None, ge=1, le=MAX_POWER_W, description="power cap in W (5 MW = 5000000)"
    )
    power_cap_basis: Literal["it", "facility"] | None = Field(
        default=None, description="it: the cap is for IT load; facility: for IT x PUE"
    )
    pue: Pue | None = Field(default=None, description="power usage effectiveness of the facility")
    workload: Workload | None = Field(default=None, description="what the cluster mostly runs")
    gpu: str | None = Field(default=None, description="GPU id or name, e.g. h100-sxm, B200")
    platform: str | None = Field(default=None, description="system id, e.g. dgx-h100, gb200-nvl72")
    fabric: Fabric | None = Field(default=None, description="compute fabric technology")
    oversubscription: Oversubscription | None = Field(
        default=None, description="compute fabric oversubscription: 1 non-blocking, 2 for 2:1"
    )
    compute_planes: int | None = Field(
        default=None,
        ge=1,
        le=8,
        description="compute-fabric planes asked for ('single-plane' is 1, 'dual-plane' 2): on a "
        "platform whose RA splits each port over planes, one plane runs one link a port at the "
        "lane speed; None follows the platform's RA",
    )
    fabric_tiers: int | None = Field(
        default=None,
        ge=2,
        le=3,
        description="compute fabric switch tiers the request asks for ('a 3-tier fat tree'); "
        "the design builds the tiers its size needs and a check says when they differ",
    )
    compute_pflops: float | None = Field(
        default=None,
        gt=0,
        le=1e7,
        description="dense compute to deliver, in PFLOPS at `precision` (BF16 when none is "
        "given): '1 exaflop of FP8' is 1000 with precision fp8; each platform gets the GPUs "
        "its dense peak at that precision needs",
    )
    compute_link_gbps: int | None = Field(
        default=None,
        ge=100,
        le=1600,
        description="compute (east-west) port speed asked for in Gb/s ('400G' is 400): only "
        "platforms whose compute ports run at it are weighed",
    )
    rack_power_kw: RackKw | None = Field(default=None, description="power limit of one rack in kW")
    growth_gpus: int | None = Field(
        default=None,
        ge=1,
        le=MAX_GPUS,
        description="GPUs the cluster must be able to grow to later ('room to grow to 1024'): "
        "the design is built for today's size and a check says whether its fabric's tiers "
        "reach the later one",
    )
    spare_nodes: int | None = Field(
        default=None,
        ge=1,
        le=MAX_NODES,
        description="spare nodes beyond the size ('N+1')",
    )
    max_racks: int | None = Field(
        default=None,
        ge=1,
        le=MAX_NODES,
        description="racks the site has room for ('space for 10 racks'): the design's racks, "
        "compute and network, are checked against it and a cap sizes no more compute racks",
    )
    cooling: Cooling | None = Field(default=None, description="how racks are cooled")
    rack_power: Literal["ac", "busbar"] | None = Field(
        default=None,
        description="how racks feed their systems: AC rack PDUs, or DC power shelves on a busbar",
    )
    storage_tier: Tier | None = Field(default=None, description="SuperPOD storage performance tier")
    objective: Objective | None = Field(
        default=None,
        description=(
            "what the trade study maximises: most-gpus (the most GPUs, e.g. 'max GPUs under "
            "0.5 MW'), perf-per-watt (the most dense PFLOPS per MW of IT power, e.g. 'best "
            "performance per watt'); None follows the request (least IT power for a GPU count or a workload, "
            "most dense compute for a cap alone)"
        ),
    )
    fit: bool | None = Field(
        default=None,
        description="when the GPUs or workload asked for do not fit under the cap, build the "
        "largest design that does instead of refusing",
    )
    model: str | None = Field(default=None, description="language model id in models.yaml")
    model_params_b: float | None = Field(
        default=None, ge=TINY, le=100_000, description="model size in billions of parameters"
    )
    active_params_b: float | None = Field(
        default=None,
        ge=TINY,
        le=100_000,
        description="billions of parameters active per token (mixture of experts), e.g. 37",
    )
    training_method: TrainingMethod | None = Field(
        default=None,
        description=(
            "how the weights are trained: full (every weight), lora (low-rank adapters), qlora "
            "(adapters on 4-bit base weights) or continued-pretraining"
        ),
    )
    training_tokens_t: float | None = Field(
        default=None, ge=TINY, le=10_000, description="training tokens in trillions"
    )
    training_days: float | None = Field(
        default=None, ge=TINY, le=3650, description="wall-clock days the run may take"
    )
    precision: Precision | None = Field(default=None, description="number format of the math")
    sequence_tokens: int | None = Field(
        default=None, ge=128, le=10_000_000, description="training sequence length"
    )
    output_tokens_per_s: float | None = Field(
        default=None, ge=TINY, le=1e10, description="serving target, output tokens/s in total"
    )
    isl_tokens: int | None = Field(
        default=None, ge=1, le=10_000_000, description="input (prompt) tokens per request"
    )
    osl_tokens: int | None = Field(
        default=None, ge=1, le=10_000_000, description="output tokens per request"
    )
    ttft_ms: float | None = Field(
        default=None, ge=TINY, le=1e7, description="time-to-first-token limit"
    )
    tpot_ms: float | None = Field(
        default=None, ge=TINY, le=1e6, description="time-per-output-token limit"
    )
    latency_percentile: float | None = Field(
        default=None,
        ge=50,
        lt=100,
        description="percentile the latency limits and figures are stated at (p99 -> 99); "
        "None: the mean",
    )
    interactive: bool | None = Field(
        default=None,
        description="people wait on each reply (chat); False: offline batch serving",
    )
    # --- how the model is served (issue 36: engine, disaggregation, speculative decoding) ---
    serving_engine: ServingEngine | None = Field(
        default=None,
        description="the serving engine: tensorrt-llm, vllm, sglang or dynamo (None: "
        "TensorRT-LLM, the published tables' engine)",
    )
    disaggregated: bool | None = Field(
        default=None,
        description="prefill and decode on separate GPU pools (Dynamo, llm-d); False or None: "
        "aggregated (None also says when disaggregated would give clearly more per GPU)",
    )
    speculative_decoding: bool | None = Field(
        default=None,
        description="speculative decoding (MTP heads, EAGLE): several tokens per decode step",
    )
    tensor_parallel_gpus: int | None = Field(
        default=None,
        ge=1,
        le=576,
        description="GPUs one model copy is split over, as the request fixes it ('TP8', 'tensor "
        "parallel 4'): only layouts of that width are weighed (None: the estimator chooses)",
    )
    # --- end of the serving block ---
    budget_usd: float | None = Field(default=None, ge=TINY, le=1e13, description="spend limit, USD")
    price_per_gpu_hour: float | None = Field(
        default=None, ge=TINY, le=1000, description="USD per GPU-hour"
    )
    price_per_node_hour: float | None = Field(
        default=None, ge=TINY, le=100_000, description="USD per node-hour of the platform"
    )
    capital_budget_usd: float | None = Field(
        default=None,
        ge=TINY,
        le=1e13,
        description="the most the cluster's hardware may cost (the BOM's priced lines), USD: "
        "a cap the design is sized under, beside the power cap",
    )
    usd_per_kwh: float | None = Field(
        default=None, ge=0, le=10, description="energy price for the cost of ownership, USD/kWh"
    )
    tco_years: float | None = Field(
        default=None, gt=0, le=30, description="term of the cost of ownership, years"
    )
    dataset_layout: Layout | None = Field(
        default=None, description="how the training data is stored"
    )
    storage_system: StorageSystem | None = Field(
        default=None,
        description="the data path's storage system: parallel-fs (Lustre, GPFS, WEKA ...), "
        "object-store or local-nvme",
    )
    # 1 GB = 1000 MB
    sample_mb: float | None = Field(
        default=None, ge=TINY, le=1e6, description="one sample (one file) in MB"
    )
    checkpoint_gb: float | None = Field(
        default=None, ge=TINY, le=1e7, description="one checkpoint in GB"
    )
    # --- issue 35: constraints as the customer states them (exclusions, storage needs) ---
    cooling_excluded: Cooling | None = Field(
        default=None,
        description="a cooling the site cannot take ('no liquid cooling in the building' is "
        "liquid): only systems that run without it are weighed",
    )
    fabric_excluded: Fabric | None = Field(
        default=None,
        description="a compute fabric technology ruled out ('our network team will not run "
        "InfiniBand' is infiniband): only the other is weighed",
    )
    storage_excluded: bool | None = Field(
        default=None,
        description="storage is out of scope: the customer's own storage serves the cluster "
        "('we'll use our existing Lustre', 'we don't need storage'); no storage system is "
        "quoted or powered, and a storage fabric the RA has still reaches it",
    )
    storage_fabric: Fabric | None = Field(
        default=None,
        description="the storage fabric's technology where it is said apart from the compute "
        "fabric's ('Ethernet storage' on an InfiniBand SuperPOD): the RA's storage fabric of it",
    )
    platforms_excluded: list[str] | None = Field(
        default=None,
        description="systems or GPUs ruled out ('not interested in GB200', 'no H100s'): a "
        "system is weighed only when neither its id nor its GPU's is listed",
    )
    gpus_weighed: list[str] | None = Field(
        default=None,
        description="GPUs the trade study weighs, and only they ('B200 or GB200', 'compare H200 "
        "and B200'): the systems with one of them, the answer the best by the objective",
    )
    platforms_avoided: list[str] | None = Field(
        default=None,
        description="systems or GPUs the request would rather not have ('we'd rather avoid "
        "GB200', 'no H100s if possible'): weighed only when no other system is left",
    )
    gpu_architecture: str | None = Field(
        default=None,
        description="GPU architecture asked for, as the catalog names it ('512 Blackwell GPUs' "
        "is Blackwell): only systems with a GPU of it are weighed",
    )
    storage_capacity_tb: float | None = Field(
        default=None,
        ge=TINY,
        le=1e8,
        description="usable storage capacity wanted, TB ('5 PB usable' is 5000): the "
        "appliances are counted to hold it",
    )
    storage_capacity_per: Literal["node", "gpu"] | None = Field(
        default=None,
        description="the stated capacity is per host or per GPU ('20 TB per node'): multiplied "
        "by the design's own",
    )
    storage_bandwidth_per: Literal["node", "gpu"] | None = Field(
        default=None,
        description="the stated read and write bandwidth is per host (a server, or a rack-scale "
        "system's compute tray) or per GPU, not in total: the design multiplies it by its own "
        "hosts or GPUs",
    )
    storage_read_gb_per_s: float | None = Field(
        default=None,
        ge=TINY,
        le=1e6,
        description="storage read bandwidth wanted in total, GB/s: the appliances are counted "
        "to deliver it",
    )
    storage_write_gb_per_s: float | None = Field(
        default=None,
        ge=TINY,
        le=1e6,
        description="storage write bandwidth wanted in total, GB/s ('200 GB/s checkpoint "
        "write' is 200): the appliances are counted to deliver it",
    )
    checkpoint_interval_s: float | None = Field(
        default=None,
        ge=TINY,
        le=1e7,
        description="seconds between checkpoints ('every 30 minutes' is 1800): how often a "
        "checkpoint is written, not a deadline",
    )
    schedule_reserve_days: float | None = Field(
        default=None,
        ge=0,
        le=3650,
        description="days of the run's duration held back for restarts, evaluation and slips "
        "('with two weeks of buffer' is 14): the run is sized to finish before them",
    )
    schedule_reserve_share: float | None = Field(
        default=None,
        ge=0,
        lt=1,
        description="share of the run's duration held back ('leave 10% slack' is 0.1); None: "
        "the catalog's default reserve",
    )
    serving_share: float | None = Field(
        default=None,
        gt=0,
        lt=1,
        description="of `gpus`, the share that serves a model ('half for inference' is 0.5); "
        "the rest trains, on its own pool (a training platform, a non-blocking fabric)",
    )
    # --- end of issue 35's block ---
    # --- issue 35: an installation the design extends or replaces ---
    existing_platform: str | None = Field(
        default=None,
        description="system (or GPU) id of an existing installation the design extends, e.g. "
        "dgx-h100; None with another existing_* field: the design's own platform",
    )
    existing_gpus: int | None = Field(
        default=None,
        ge=1,
        le=MAX_GPUS,
        description="GPUs the existing installation has ('our existing 512 H100 SuperPOD' is "
        "512); the design is the increment on its fabric (gpus/nodes: what it adds)",
    )
    existing_nodes: int | None = Field(
        default=None, ge=1, le=MAX_NODES, description="nodes the existing installation has"
    )
    existing_sus: int | None = Field(
        default=None,
        ge=1,
        le=1024,
        description="scalable units the existing installation has, of its reference "
        "architecture ('we run 4 SUs of DGX H100' is 4)",
    )
    existing_fabric: Fabric | None = Field(
        default=None,
        description="compute fabric technology of the existing installation (the increment "
        "joins it); None: the design's own",
    )
    existing_spine_free_ports: int | None = Field(
        default=None,
        ge=0,
        le=1_000_000,
        description="free ports on the existing fabric's spine (core) tier, as stated; None: "
        "derived from the installation as its reference architecture builds it",
    )
    power_cap_scope: Literal["increment"] | None = Field(
        default=None,
        description="increment: on an existing installation, the power cap is what is left for "
        "the increment alone ('1.5 MW left for the new pods'); None: the cap holds the whole "
        "installation, what stands included",
    )
    existing_power_w: float | None = Field(
        default=None,
        ge=1,
        le=MAX_POWER_W,
        description="IT power the existing installation draws in W; the power checks add it "
        "to the increment's (None: unknown, and a cap check says so)",
    )
    replaced_platform: str | None = Field(
        default=None,
        description="system or GPU id of a fleet the design replaces ('replace our 64 DGX "
        "A100' is dgx-a100): the design is its successor, never it",
    )
    replaced_gpus: int | None = Field(
        default=None, ge=1, le=MAX_GPUS, description="GPUs of the fleet the design replaces"
    )
    replaced_power_w: float | None = Field(
        default=None,
        ge=1,
        le=MAX_POWER_W,
        description="power envelope of the replaced fleet in W (IT): with no power cap, the "
        "successor is sized within it (None: the replaced fleet's own estimated IT power)",
    )
    replaced_one_for_one: bool | None = Field(
        default=None,
        description="the replaced fleet's count is kept ('the same node count'): no power "
        "envelope from the old fleet",
    )
    # --- end of the installation block ---
    understood: list[str] = Field(
        default_factory=empty_list, description="phrase -> field, as read"
    )
    not_understood: list[str] = Field(
        default_factory=empty_list,
        description="words of the text that said nothing the parser reads",
    )
    su_architecture: str | None = Field(
        default=None,
        description="the reference architecture whose scalable units the text counted (its id); "
        "the design keeps it",
    )

    @model_validator(mode="after")
    def _pue_needs_facility(self) -> "DesignRequest":
        if self.power_cap_w is None and self.power_cap_basis is not None:
            raise ValueError("power_cap_basis given without power_cap_w")
        if self.power_cap_w is None and self.power_cap_scope is not None:
            raise ValueError("power_cap_scope given without power_cap_w")
        return self

    @model_validator(mode="after")
    def _named_is_not_ruled_out(self) -> "DesignRequest":
        for field in ("platform", "gpu"):
            value = getattr(self, field)
            if value is not None and value in (self.platforms_excluded or ()):
                raise ValueError(f"{field} {value} is both asked for and ruled out")
        return self

    @model_validator(mode="after")
    def _exclusion_leaves_the_other(self) -> "DesignRequest":
        """Cooling and fabric technology are each one of two: ruling one out asks for the
        other, so every consumer of `cooling` and `fabric` honours the exclusion."""
        for field, values in (("cooling", ("air", "liquid")), ("fabric", OWN_FABRICS)):
            value, excluded = getattr(self, field), getattr(self, f"{field}_excluded")
            if excluded is None:
                continue
            if value == excluded:
                raise ValueError(f"{field} {value} is both asked for and ruled out")
            if value is None:
                setattr(self, field, next(v for v in values if v != excluded))
        return self


class FieldWords(NamedTuple):
    """What a request field is called where a person reads it, and how a command line spells it.
    Its description for models is the field's own `description` above."""

    #: what a message or the memo calls it ("rack power limit")
    name: str
    #: unit of the field's value as a person writes it ("kW"); empty for words and counts
    unit: str = ""
    #: its own command-line option, without the dashes; None: given only as `--set field=value`
    flag: str | None = None
    #: what the option takes when it differs from the field: a unit ("MW" for a cap in W) or a
    #: form ("e.g. 15T or 500B")
    flag_unit: str = ""
    #: option value x flag_scale = field value
    flag_scale: float = 1.0


#: every DesignRequest field's words; tests hold it to the model (no field without its words)
REQUEST_FIELDS: dict[str, FieldWords] = {
    "text": FieldWords("request text"),
    "gpus": FieldWords("GPU count", flag="gpus"),
    "nodes": FieldWords("node count"),
    "power_cap_w": FieldWords("power cap", unit="W", flag="cap-mw", flag_unit="MW", flag_scale=1e6),
    "power_cap_basis": FieldWords("power cap basis"),
    "pue": FieldWords("PUE"),
    "workload": FieldWords("workload", flag="workload"),
    "gpu": FieldWords("GPU", flag="gpu"),
    "platform": FieldWords("platform", flag="platform"),
    "fabric": FieldWords("fabric", flag="fabric"),
    "oversubscription": FieldWords("oversubscription", flag="oversubscription"),
    "compute_planes": FieldWords("compute-fabric planes"),
    "fabric_tiers": FieldWords("fabric tiers"),
    "compute_pflops": FieldWords("dense compute", unit="PFLOPS"),
    "compute_link_gbps": FieldWords("compute link speed", unit="Gb/s"),
    "rack_power_kw": FieldWords("rack power limit", unit="kW", flag="rack-kw"),
    "growth_gpus": FieldWords("GPUs to grow to", flag="grow-to-gpus"),
    "spare_nodes": FieldWords("spare nodes", flag="spare-nodes"),
    "max_racks": FieldWords("rack positions", flag="max-racks"),
    "cooling": FieldWords("cooling"),
    "rack_power": FieldWords("rack power distribution"),
    "storage_tier": FieldWords("storage tier", flag="storage-tier"),
    "objective": FieldWords("objective"),
    "fit": FieldWords("build the largest that fits", flag="fit"),
    "model": FieldWords(
        "language model", flag="workload-model", flag_unit="e.g. 'Llama 3.1 405B' or 70B"
    ),
    "model_params_b": FieldWords("model size", unit="billion parameters"),
    "active_params_b": FieldWords("active parameter count", unit="billion parameters"),
    "training_method": FieldWords("training method"),
    "training_tokens_t": FieldWords(
        "token count", unit="trillion tokens", flag="tokens", flag_unit="e.g. 15T or 500B"
    ),
    "training_days": FieldWords("duration", unit="days", flag="days"),
    "precision": FieldWords("precision"),
    "sequence_tokens": FieldWords("sequence length", unit="tokens", flag="seq"),
    "output_tokens_per_s": FieldWords("serving target", unit="tokens/s", flag="tokens-per-s"),
    "isl_tokens": FieldWords("input length", unit="tokens"),
    "osl_tokens": FieldWords("output length", unit="tokens"),
    "ttft_ms": FieldWords("TTFT limit", unit="ms", flag="ttft-ms"),
    "tpot_ms": FieldWords("TPOT limit", unit="ms", flag="tpot-ms"),
    "latency_percentile": FieldWords("latency percentile", flag="latency-percentile"),
    "interactive": FieldWords("interactivity"),
    "serving_engine": FieldWords("serving engine"),
    "disaggregated": FieldWords("disaggregated prefill/decode"),
    "speculative_decoding": FieldWords("speculative decoding"),
    "tensor_parallel_gpus": FieldWords("tensor-parallel width"),
    "budget_usd": FieldWords("budget", unit="USD"),
    "price_per_gpu_hour": FieldWords("price per GPU-hour", unit="USD", flag="price-per-gpu-hour"),
    "price_per_node_hour": FieldWords("price per node-hour", unit="USD"),
    "capital_budget_usd": FieldWords("capital budget", unit="USD", flag="capital-usd"),
    "usd_per_kwh": FieldWords("energy price", unit="USD/kWh", flag="usd-per-kwh"),
    "tco_years": FieldWords("cost-of-ownership term", unit="years", flag="tco-years"),
    "dataset_layout": FieldWords("dataset layout"),
    "storage_system": FieldWords("storage system"),
    "sample_mb": FieldWords("sample size", unit="MB"),
    "checkpoint_gb": FieldWords("checkpoint size", unit="GB"),
    # issue 35: constraints as the customer states them
    "cooling_excluded": FieldWords("cooling ruled out"),
    "fabric_excluded": FieldWords("fabric ruled out"),
    "storage_excluded": FieldWords("storage out of scope (the customer's own)"),
    "storage_fabric": FieldWords("storage fabric"),
    "platforms_excluded": FieldWords("systems or GPUs ruled out"),
    "gpus_weighed": FieldWords("GPUs weighed against each other"),
    "platforms_avoided": FieldWords("systems or GPUs avoided where possible"),
    "gpu_architecture": FieldWords("GPU architecture"),
    "storage_capacity_tb": FieldWords("usable storage capacity", unit="TB"),
    "storage_capacity_per": FieldWords("storage capacity stated per"),
    "storage_bandwidth_per": FieldWords("storage bandwidth stated per"),
    "storage_read_gb_per_s": FieldWords("storage read bandwidth", unit="GB/s"),
    "storage_write_gb_per_s": FieldWords("storage write bandwidth", unit="GB/s"),
    "checkpoint_interval_s": FieldWords("checkpoint interval", unit="s"),
    "schedule_reserve_days": FieldWords("schedule reserve", unit="days"),
    "schedule_reserve_share": FieldWords("schedule reserve share"),
    "serving_share": FieldWords("serving share of the GPUs"),
    "existing_platform": FieldWords("existing installation's platform"),
    "existing_gpus": FieldWords("existing installation's GPUs"),
    "existing_nodes": FieldWords("existing installation's nodes"),
    "existing_sus": FieldWords("existing installation's scalable units", unit="SU"),
    "existing_fabric": FieldWords("existing installation's fabric"),
    "existing_spine_free_ports": FieldWords("free spine ports of the existing fabric"),
    "power_cap_scope": FieldWords("power cap scope (the whole site, or only what is added)"),
    "existing_power_w": FieldWords("existing installation's IT power", unit="W"),
    "replaced_platform": FieldWords("platform replaced"),
    "replaced_gpus": FieldWords("GPUs replaced"),
    "replaced_power_w": FieldWords("replaced fleet's power envelope", unit="W"),
    "replaced_one_for_one": FieldWords("replaced fleet's count kept"),
    "understood": FieldWords("phrases understood"),
    "not_understood": FieldWords("words not understood"),
    "su_architecture": FieldWords("reference architecture whose SUs were counted"),
}


def human_name(field: str) -> str:
    """A request field as a message names it: 'rack_power_kw' -> 'rack power limit'; a name
    that is not a request field is spelt out ('su_nodes' -> 'su nodes')."""
    words = REQUEST_FIELDS.get(field)
    return words.name if words else field.replace("_", " ")


def said_as(field: str) -> str:
    """A request field (or the catalog assumption named after it, "isl-tokens") in the words a
    person reads: its name and unit ("input length (tokens)"); any other name as it is."""
    words = REQUEST_FIELDS.get(field.replace("-", "_"))
    if words is None:
        return field
    return f"{words.name} ({words.unit})" if words.unit else words.name
