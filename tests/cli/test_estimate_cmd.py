"""`clustergen estimate` and the workload flags of `design`: every request form, its flags, and
one clear line for bad input."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from clustergen.engine.model.workload import WorkloadEstimate

Cli = Callable[..., tuple[int, str, str]]

FORMS = [
    "train a 70B model on 15T tokens in 60 days",
    "serve Llama 3.1 405B at 20,000 output tokens/s with TTFT under 2 s",
    "fine-tune 8B models on a $2M budget at $2.50 per GPU-hour",
    "we have 2,048 A100s: how long for 65B on 1.4T tokens?",
]

#: the fields issue 14 names, in `estimate --json` and `design.workload`
FIELDS = {
    "kind", "model", "model_params_b", "active_params_b", "precision", "gpu",
    "tokens_per_s_per_gpu", "mfu", "goodput", "gpus_required", "days", "gpu_hours",
    "gpus_per_replica", "replicas", "ttft_ms", "tpot_ms", "cost_usd", "price_per_gpu_hour",
    "feasible", "band_pct", "method", "sources",
    # issue 24: time in hours, interactivity, latency percentile, method, advice
    "hours", "tokens_per_s_per_user", "latency_percentile", "training_method", "interactivity",
    "meets_on", "warnings",
    # issue 24, cost: serving's $ per million output tokens and the cost's basis
    "usd_per_million_output_tokens", "cost_basis",
    # issue 35: the days of a training deadline held back as reserve
    "reserve_days",
    # issue 36: input and total token prices, the prompts' GPU share that splits them, and
    # output tokens/s per MW provisioned (full and target load)
    "usd_per_million_input_tokens", "usd_per_million_total_tokens", "prompt_gpu_share",
    "output_tokens_per_s_per_mw", "output_tokens_per_s_per_mw_at_load",
    # issue 36: a training run with no precision given, at BF16 and at FP8
    "by_precision",
}  # fmt: skip
#: what the reading adds (issue 24): words not understood, defaults taken, what is not modelled
READING = {"not_understood", "assumptions", "warnings"}


@pytest.mark.parametrize("text", FORMS)
def test_every_form_gives_an_estimate_with_exactly_the_issues_fields(cli: Cli, text: str) -> None:
    code, out, _ = cli("estimate", text, "--json")
    assert code == 0, out
    data = json.loads(out)
    assert set(data) == FIELDS | READING
    assert data["not_understood"] == []
    est = WorkloadEstimate.model_validate({k: v for k, v in data.items() if k not in READING})
    assert est.feasible
    assert est.gpus_required
    assert est.band_pct > 0


def test_the_forms_answer_what_they_ask(cli: Cli) -> None:
    train = json.loads(cli("estimate", FORMS[0], "--json")[1])
    serve = json.loads(cli("estimate", FORMS[1], "--json")[1])
    budget = json.loads(cli("estimate", FORMS[2], "--json")[1])
    have = json.loads(cli("estimate", FORMS[3], "--json")[1])
    assert train["days"] <= 60
    assert train["replicas"] is None
    # decode replicas, plus a prefill pool where disaggregated serving was chosen
    assert serve["replicas"] * serve["gpus_per_replica"] <= serve["gpus_required"]
    assert serve["ttft_ms"] <= 2000
    assert serve["mfu"] is None
    assert budget["cost_usd"] <= 2e6
    assert budget["price_per_gpu_hour"] == 2.5
    assert have["gpus_required"] == 2048
    assert have["gpu"] == "a100-80gb"
    assert have["days"] > 0


def test_flags_say_the_same_as_the_text(cli: Cli) -> None:
    text = json.loads(cli("estimate", FORMS[0], "--json")[1])
    flags = json.loads(
        cli("estimate", "--model", "70B", "--tokens", "15T", "--days", "60", "--json")[1]
    )
    assert flags["gpus_required"] == text["gpus_required"]
    serve = json.loads(
        cli(
            "estimate", "--model", "Llama 3.1 405B", "--tokens-per-s", "20000", "--ttft-ms",
            "2000", "--set", "isl_tokens=1000", "--set", "osl_tokens=1000", "--json",
        )[1]
    )  # fmt: skip
    assert (
        serve["gpus_required"]
        == json.loads(cli("estimate", FORMS[1], "--json")[1])["gpus_required"]
    )


def test_the_terminal_shows_the_method_band_and_assumptions(cli: Cli) -> None:
    code, out, _ = cli("estimate", FORMS[0])
    assert code == 0
    assert "workload: training" in out
    band = json.loads(cli("estimate", FORMS[0], "--json")[1])["band_pct"]
    assert f"+/-{band:g}%" in out
    assert "method:" in out
    assert "assumed GPU = h100-sxm" in out


@pytest.mark.parametrize(
    ("args", "code", "match"),
    [
        (["serve Llama 5 900B at 1,000 tokens/s"], 1, "unknown model"),
        (["--model", "70B", "--tokens", "15", "--days", "60"], 2, "no unit"),
        (["train a 70B model on 15 TB of text in 60 days"], 2, "data size"),
        (["fine-tune 8B models on a $2M budget"], 2, "needs a price"),
        (["serve Llama 3.1 405B with TTFT under 1 ms"], 2, "below what any GPU"),
        (["Llama 3.1 405B"], 2, "nothing to size"),
    ],
)
def test_bad_input_is_one_line_and_a_non_zero_exit(
    cli: Cli, args: list[str], code: int, match: str
) -> None:
    got, out, err = cli("estimate", *args)
    assert got == code
    assert out == ""
    assert err.count("\n") == 1
    assert match in err
    got, out, _ = cli("estimate", *args, "--json")
    assert got == code
    assert match in json.loads(out)["error"]["message"] + json.loads(out)["error"].get("hint", "")


@pytest.mark.parametrize("text", FORMS[:2] + FORMS[3:])
def test_design_carries_the_estimate_and_sizes_the_cluster_for_it(cli: Cli, text: str) -> None:
    code, out, _ = cli("design", text, "--offline", "--json")
    assert code == 0
    d = json.loads(out)
    w = d["workload"]
    assert set(w) == FIELDS
    assert w["gpu"] == d["platform"]["gpu"]
    assert d["compute"]["gpus"] >= w["gpus_required"]
    assert all(c["passed"] for c in d["checks"] if c["severity"] == "error")


def test_design_takes_the_workload_flags(cli: Cli) -> None:
    code, out, _ = cli(
        "design", "--workload-model", "70B", "--tokens", "15T", "--days", "60", "--gpu", "B200",
        "--offline", "--json",
    )  # fmt: skip
    assert code == 0
    d = json.loads(out)
    assert d["workload"]["model"] == "llama-3.1-70b"
    assert d["platform"]["gpu"] == "b200"


def test_a_budget_design_with_an_example_price_layer(cli: Cli) -> None:
    code, out, _ = cli(
        "design", FORMS[2].replace(" at $2.50 per GPU-hour", ""), "--catalog", "examples/prices",
        "--offline", "--json",
    )  # fmt: skip
    assert code == 0
    d = json.loads(out)
    assert d["workload"]["price_per_gpu_hour"] > 0
    assert d["workload"]["cost_usd"] <= 2e6


def test_not_met_exits_non_zero_and_names_what_meets_it(cli: Cli) -> None:
    """'50 tokens/s per user' of Llama 3.1 405B on H100: NOT MET, exit 3, the GPUs that meet it
    named, and the throughput-vs-interactivity table printed."""
    code, out, _ = cli(
        "estimate", "serve Llama 3.1 405B at 20,000 output tokens/s", "--gpu", "H100",
        "--tpot-ms", "20",
    )  # fmt: skip
    assert code == 3
    assert "NOT MET" in out
    assert "meets it instead: " in out
    assert "tokens/s/user" in out
    code, out, _ = cli(
        "estimate", "serve Llama 3.1 405B at 20,000 output tokens/s", "--gpu", "H100",
        "--tpot-ms", "20", "--json",
    )  # fmt: skip
    assert code == 3
    assert json.loads(out)["meets_on"]


def test_the_serving_example_states_its_interactivity(cli: Cli) -> None:
    code, out, _ = cli("estimate", FORMS[1])
    assert code == 0
    assert "tokens/s per user" in out
    assert "at the target load" in out
    assert "assumed TPOT limit (ms)" in out


def test_each_warning_is_printed_once_at_the_top(cli: Cli) -> None:
    """The estimate's warnings come before the headline, and none is repeated after it."""
    _code, out, _ = cli("estimate", "serve deepseek-r1 at 5000 tokens/s, 50 tokens/s per user")
    lines = [line for line in out.splitlines() if line.startswith("warning: ")]
    head = next(i for i, line in enumerate(out.splitlines()) if line.startswith("workload: "))
    assert all(out.splitlines().index(line) < head for line in lines)
    assert len(lines) == len(set(lines))
    assert out.count("warning: ") == len(lines)


def test_a_serving_design_carries_the_interactivity_it_was_sized_at(cli: Cli) -> None:
    """The design JSON, the terminal and the tool summary carry the table on the design's GPU."""
    text = "serve llama 3.1 70b at 5000 tokens/s, 50 tokens/s per user"
    code, out, _ = cli("design", text, "--gpu", "h100-sxm", "--offline", "--json")
    assert code == 0
    w = json.loads(out)["workload"]
    assert w["tokens_per_s_per_user"] >= 50
    assert {p["gpu"] for p in w["interactivity"]} == {"h100-sxm"}
    at_50 = next(p for p in w["interactivity"] if p["tokens_per_s_per_user"] == 50)
    assert at_50["tokens_per_s_per_gpu"] == pytest.approx(w["tokens_per_s_per_gpu"], rel=0.01)
    code, out, _ = cli("design", text, "--gpu", "h100-sxm", "--offline")
    assert code == 0
    assert "interactivity" in out
    assert "50/user" in out


def test_a_design_not_met_exits_non_zero_and_names_what_meets_it(cli: Cli) -> None:
    code, _, err = cli(
        "design", "serve llama 3.1 405b at 5000 tokens/s, 75 tokens/s per user", "--gpu",
        "h100-sxm", "--offline",
    )  # fmt: skip
    assert code == 3
    assert "meets it instead: " in err


#: a long-context chat request (issue 36): the first token takes tens of seconds
LONG_CHAT = "Serve Llama 3.1 70B with 128k-token prompts, 100 concurrent users, 30 ms per token"


@pytest.mark.parametrize("command", [("estimate",), ("design", "--offline")])
def test_a_long_first_token_is_the_first_line_said(cli: Cli, command: tuple[str, ...]) -> None:
    _code, out, err = cli(command[0], LONG_CHAT, *command[1:])
    first = (out + err).strip().splitlines()[0]
    assert first.startswith("warning: the first token takes"), first
    # said once, not again among the footnotes
    assert (out + err).count("the first token takes") == 1
