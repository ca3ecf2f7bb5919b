"""Workload sizing: what a request's workload needs (`estimate`, which dispatches to `serving/` or
`training/`). At the top, what both share: the request read into `inputs`, the model catalog read
as an architecture (`llm`) and as published throughput (`published`), and the budget and its
token cost.

Other packages import only the names below; the modules are this package's own.
"""

from clustergen.engine.sizing.workload.estimate import (
    check_workload,
    design_estimate,
    estimate_request,
    estimate_workload,
    not_met_elsewhere,
    with_interactivity,
    workload_gpus,
)
from clustergen.engine.sizing.workload.inputs import (
    WorkloadInputs,
    dense_field,
    resolve_workload,
    unmodelled_warnings,
    wants_estimate,
)
from clustergen.engine.sizing.workload.serving.estimate import (
    anchor,
    choose_replica,
    is_slow_first_token,
)
from clustergen.engine.sizing.workload.serving.replica import Efficiency, build_replica
from clustergen.engine.sizing.workload.training.estimate import (
    peak_flops,
    tokens_per_s_per_gpu,
    training_rate,
)

__all__ = [
    "Efficiency",
    "WorkloadInputs",
    "anchor",
    "build_replica",
    "check_workload",
    "choose_replica",
    "dense_field",
    "design_estimate",
    "estimate_request",
    "estimate_workload",
    "is_slow_first_token",
    "not_met_elsewhere",
    "peak_flops",
    "resolve_workload",
    "tokens_per_s_per_gpu",
    "training_rate",
    "unmodelled_warnings",
    "wants_estimate",
    "with_interactivity",
    "workload_gpus",
]
