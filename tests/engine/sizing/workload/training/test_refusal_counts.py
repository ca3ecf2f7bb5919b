"""A run the GPUs given cannot meet is refused with the count that would: the GPUs that finish
in the time asked, or the fewest that hold the model's training state."""

import re

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.request import parse_request
from clustergen.engine.search.planner import plan_design
from clustergen.errors import InfeasibleDesignError

CAT = load_catalog()


def _refusal(text: str) -> str:
    with pytest.raises(InfeasibleDesignError) as e:
        plan_design(CAT, parse_request(CAT, text))
    return str(e.value)


def test_a_yes_no_question_on_time_gets_the_count_that_finishes() -> None:
    msg = _refusal("Can 64 B200s pretrain Llama 3 8B on 15T tokens in a month?")
    m = re.search(
        r"64 GPUs take ([\d.]+) days, over the ([\d.]+) days asked; finishing in time "
        r"needs about ([\d,]+) GPUs",
        msg,
    )
    assert m is not None, msg
    took, asked, need = float(m[1]), float(m[2]), int(m[3].replace(",", ""))
    assert took > asked
    # more GPUs finish sooner: the count named is at least the ratio of the times
    assert need >= 64 * took / asked * 0.99


def test_a_model_too_big_to_train_names_the_fewest_gpus_that_hold_it() -> None:
    msg = _refusal("train Llama 3.1 405B on 16 B200")
    m = re.search(r"does not fit 16 x .* in any parallel layout: it needs at least ([\d,]+)", msg)
    assert m is not None, msg
    assert int(m[1].replace(",", "")) > 16
