"""The passes a request is read by, in order: `PASSES`.

A rule (`request/rules/`) maps one phrase to one field. A pass reads what a rule cannot: words
the catalog names, a phrase whose meaning needs the rest of the request (a count beside a name,
a budget beside a price), or a refusal that needs the whole reading. Each pass is a function of
the `Draft`, and its docstring says what it reads and why it is a pass. The rule tables are
read by two of them, at the place their words must be taken: prices before catalog names, the
other rules after.
"""

from __future__ import annotations

from collections.abc import Callable

from clustergen.engine.request.draft import Draft
from clustergen.engine.request.passes.counts import (
    read_bare_count,
    read_part_count,
    read_su_count,
    read_su_size,
)
from clustergen.engine.request.passes.installed import (
    read_cap_scope,
    read_existing_installation,
    read_replaced_details,
)
from clustergen.engine.request.passes.meanings import (
    budget_meaning,
    cadence_meaning,
    capacity_meaning,
    checkpoint_meaning,
    context_meaning,
    cooling_included_meaning,
    data_meaning,
    e2e_meaning,
    need_meaning,
    note_readings,
    racks_meaning,
    resolve_members,
)
from clustergen.engine.request.passes.mlperf import apply_mlperf, read_mlperf
from clustergen.engine.request.passes.names import (
    find_names,
    priced_gpu,
    read_architecture_names,
    read_compute_multiple,
    read_gpu_architecture,
    read_platforms,
    read_pod,
    read_replaced_fleet,
    read_storage,
    refuse_other_variant,
    rule_out_names,
)
from clustergen.engine.request.passes.per_node import read_gpus_per_node
from clustergen.engine.request.passes.refusals import (
    refuse_air_for_liquid,
    refuse_moe_without_active,
    refuse_nothing_to_size,
    refuse_pod_count,
    refuse_two_model_sizes,
    refuse_unknown_model,
    refuse_unknown_named_gpu,
    refuse_unknown_product,
    refuse_unnamed_model,
    refuse_unsized_job,
)
from clustergen.engine.request.passes.scope import (
    read_cap_basis,
    read_cap_per_room,
    read_cap_reserved,
    read_limit_words,
    read_permissions,
    read_scope,
)
from clustergen.engine.request.passes.tables import read_price_rules, read_rules, tokens_from_load

Pass = Callable[[Draft], None]

#: Every pass, in the order it reads: an earlier pass takes its words first, and a later one
#: sees what the earlier ones found.
PASSES: tuple[Pass, ...] = (
    # rules and names: a phrase's words are taken by the first to read them
    read_price_rules,
    read_architecture_names,
    find_names,
    priced_gpu,
    refuse_other_variant,
    rule_out_names,
    read_gpu_architecture,
    read_compute_multiple,
    read_replaced_fleet,
    read_replaced_details,
    read_existing_installation,
    read_platforms,
    read_pod,
    read_storage,
    read_scope,
    read_mlperf,
    read_rules,
    apply_mlperf,
    read_cap_basis,
    read_cap_per_room,
    read_cap_reserved,
    read_cap_scope,
    read_gpus_per_node,
    # readings of the whole request
    cadence_meaning,
    e2e_meaning,  # before the load: a concurrency's tokens/s is read at the TPOT it sets
    tokens_from_load,
    read_su_count,
    read_part_count,
    read_bare_count,
    read_su_size,
    read_permissions,
    resolve_members,
    read_limit_words,
    budget_meaning,
    context_meaning,
    data_meaning,
    racks_meaning,
    checkpoint_meaning,
    cooling_included_meaning,
    capacity_meaning,
    need_meaning,
    note_readings,
    # refusals: a question the reading cannot size is refused, never answered as another
    refuse_unknown_model,
    refuse_unnamed_model,
    refuse_moe_without_active,
    refuse_two_model_sizes,
    refuse_unknown_product,
    refuse_unknown_named_gpu,
    refuse_pod_count,
    refuse_unsized_job,
    refuse_nothing_to_size,
    refuse_air_for_liquid,
)

__all__ = ["PASSES", "Pass"]
