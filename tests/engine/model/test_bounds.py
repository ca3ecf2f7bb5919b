"""The physical ranges the engine takes numbers in: finite, within bounds, one line otherwise."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from clustergen.engine.model.bounds import MAX_NODES, check_number
from clustergen.engine.model.compute import FabricChoices
from clustergen.engine.model.request import DesignRequest
from clustergen.engine.model.storage import IoWorkload
from clustergen.errors import RequestError


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -float("inf"), 0, 10**400, 1e300])
def test_check_number_refuses_what_is_not_finite_or_in_range(value: float) -> None:
    with pytest.raises(RequestError) as err:
        check_number("nodes", value, ge=1, le=MAX_NODES)
    assert err.value.one_line().startswith(
        "nodes must be a finite number at least 1 and at most 1,000,000; got "
    )
    assert (err.value.field, err.value.limit) == ("nodes", "at least 1 and at most 1,000,000")


def test_check_number_passes_what_is_in_range() -> None:
    assert check_number("x", 5, gt=0, le=10) == 5
    assert check_number("x", 1e-3, ge=1e-6) == 1e-3


@pytest.mark.parametrize(
    ("model", "fields"),
    [
        (IoWorkload, {"gpus": 8, "sample_mb": 5e-324}),
        (IoWorkload, {"gpus": 8, "samples_per_s_per_gpu": float("inf")}),
        (IoWorkload, {"gpus": 8, "read_gb_per_s": float("nan")}),
        (IoWorkload, {"gpus": 10**12}),
        (IoWorkload, {"gpus": 8, "checkpoint_budget_fraction": 5e-324}),
        (DesignRequest, {"gpus": 8, "model_params_b": float("inf")}),
        (DesignRequest, {"nodes": 10**12}),
        (DesignRequest, {"gpus": 8, "power_cap_w": 5e-324}),
        (FabricChoices, {"port_speed_gbps": float("nan")}),
        (FabricChoices, {"planes": 10**6}),
        (FabricChoices, {"oversubscription": float("inf")}),
    ],
)
def test_input_models_refuse_non_finite_and_unphysical_numbers(
    model: type[IoWorkload | DesignRequest | FabricChoices], fields: dict[str, float]
) -> None:
    with pytest.raises(ValidationError):
        model.model_validate(fields)
