"""What a request says that was not understood comes first, in every output, and --strict
refuses it (issue 24)."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable

import pytest

Cli = Callable[..., tuple[int, str, str]]

TRAIN = "train llama 3.1 8b on 100B tokens in 12 hours, blorp"


def test_estimate_says_what_was_not_understood_on_its_first_line(cli: Cli) -> None:
    code, out, _ = cli("estimate", TRAIN)
    assert code == 0
    assert out.splitlines()[0].startswith("not understood: blorp")


def test_estimate_json_carries_not_understood_assumptions_and_warnings(cli: Cli) -> None:
    code, out, _ = cli("estimate", "--json", TRAIN + " with lora")
    assert code == 0
    data = json.loads(out)
    assert data["not_understood"] == ["blorp"]
    assert {a["field"] for a in data["assumptions"]} >= {"gpu", "precision"}
    assert isinstance(data["warnings"], list)
    assert "(lora)" in data["method"]  # the method is modelled, not just recorded
    assert data["days"] == pytest.approx(0.45, abs=0.01)  # 12 h less the 10% schedule reserve


@pytest.mark.parametrize("command", ["estimate", "design"])
def test_strict_refuses_a_request_with_words_not_understood(cli: Cli, command: str) -> None:
    code, out, err = cli(command, "--strict", TRAIN)
    assert code == 2
    assert "not understood: blorp" in err
    assert out == ""


@pytest.mark.parametrize("command", ["estimate", "design"])
def test_strict_passes_a_request_read_whole(cli: Cli, command: str) -> None:
    code, _, _ = cli(command, "--strict", "train llama 3.1 8b on 100B tokens in two weeks")
    assert code == 0


def test_design_says_what_was_not_understood_on_its_first_line(cli: Cli) -> None:
    code, out, _ = cli("design", "512 GPUs training, 5 MW, zorp")
    assert code == 0
    assert out.splitlines()[0].startswith("not understood: zorp")


def test_serving_percentile_is_modelled(cli: Cli) -> None:
    code, out, _ = cli(
        "estimate", "serve llama 3.1 70b at 5000 tokens per second, p99 TTFT 500ms, 8k input"
    )
    assert code == 0
    flat = " ".join(out.split())
    assert "p99 TTFT" in flat  # the limit and the figure at p99, with the 8k prompts read
    assert "ISL/OSL 8000/" in flat


def test_estimate_json_warns_of_what_is_not_met(cli: Cli) -> None:
    code, out, _ = cli("estimate", "--json", "train llama 3.1 405b on 1T tokens on 8 L40S GPUs")
    assert code == 3  # NOT MET exits non-zero, with the figures and what is not met
    data = json.loads(out)
    assert not data["feasible"]
    assert any(w.startswith("not met: ") for w in data["warnings"])


def test_a_deadline_is_shown_with_the_date_it_was_counted_from(cli: Cli) -> None:
    year = dt.date.today().year + 1
    code, out, _ = cli("estimate", f"train llama 3.1 8b on 100B tokens by the end of {year}")
    assert code == 0
    assert out.splitlines()[0].startswith(f"read 'by the end of {year}' -> deadline {year}-12-31")
    assert " days from " in out.splitlines()[0]
