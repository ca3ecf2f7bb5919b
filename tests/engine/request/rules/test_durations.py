"""Durations in any unit, in digits or words, and deadlines counted from today (issues 24, 26)."""

from __future__ import annotations

import datetime as dt

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.request import parse_request
from clustergen.engine.request.rules import durations
from clustergen.errors import RequestError
from support.rules import read

CAT = load_catalog()


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("in two weeks", 14.0),
        ("within 2 weeks", 14.0),
        ("a month", 365.2425 / 12),
        ("in one month", 365.2425 / 12),
        ("in 12 hours", 0.5),
        ("12h", 0.5),
        ("in 36 hrs", 1.5),
        ("in 1 year", 365.2425),
        ("in a year", 365.2425),
        ("over 18 months", 18 * 365.2425 / 12),
        ("twenty-one days", 21.0),
        ("a 3-week run", 21.0),
        ("90 minutes", 90 / 1440),
        ("90d", 90.0),
        ("in 60 days", 60.0),
        ("an hour", 1 / 24),
        ("a couple of weeks", 14.0),
        ("in a fortnight", 14.0),
        ("one and a half days", 1.5),
        ("in 2 and a half weeks", 17.5),
        ("in half a year", 365.2425 / 2),
        ("within 48 hours", 2.0),
        ("in 2.5 days", 2.5),
        ("in six weeks", 42.0),
    ],
)
def test_a_span_in_any_unit_reads_as_days(text: str, days: float) -> None:
    (reading,) = read("days", text)
    assert reading.field == "training_days"
    assert reading.value == pytest.approx(days)


@pytest.mark.parametrize(
    "text", ["and then", "ad serving", "8 h100s", "a hundred gpus", "8 hours per day", "12h/day"]
)
def test_words_that_only_look_like_a_span_are_not_one(text: str) -> None:
    assert not [m for r in durations.DURATION_RULES for m in r.pattern.finditer(text)]


@pytest.mark.parametrize("text", ["in a few weeks", "several months", "a few days"])
def test_a_vague_span_is_refused(text: str) -> None:
    with pytest.raises(RequestError, match="not a length of time"):
        read("days", text)


@pytest.fixture
def november(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(durations, "today", lambda: dt.date(2026, 11, 25))


@pytest.mark.usefixtures("november")
@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("by march", 96.0),  # next March, its first day (the safe side)
        ("by the end of march", 126.0),
        ("by march 15", 110.0),
        ("by march 15th, 2027", 110.0),
        ("by 2027-01-15", 51.0),
        ("before dec 25", 30.0),
        ("no later than june 2027", 188.0),
        ("by q2 2027", 127.0),  # the quarter's first day
        ("by the end of q1", 126.0),
        ("by end of year", 36.0),
        ("by the end of 2027", 401.0),
        ("before christmas", 29.0),  # Christmas Eve, the safe side
        ("before the holidays", 29.0),
        ("by new year", 36.0),
    ],
)
def test_a_deadline_counts_days_from_today(text: str, days: float) -> None:
    r = parse_request(CAT, f"train a 70B model on 2T tokens {text}")
    assert r.not_understood == []
    assert r.training_days == days


@pytest.mark.usefixtures("november")
def test_a_month_deadline_reads_alone() -> None:
    (reading,) = read("deadline", "by march")
    assert (reading.field, reading.value) == ("training_days", 96.0)


@pytest.mark.usefixtures("november")
@pytest.mark.parametrize(
    "text", ["by 2026-01-01", "by march 2025", "by november 25", "by q1 2026", "by end of 2025"]
)
def test_a_deadline_not_after_today_is_refused(text: str) -> None:
    with pytest.raises(RequestError, match="not after today"):
        parse_request(CAT, f"train a 70B model on 2T tokens {text}")


@pytest.mark.usefixtures("november")
def test_a_deadline_reads_whole_in_a_request() -> None:
    r = parse_request(CAT, "train a 70B model on 2T tokens by March")
    assert r.training_days == 96.0
    assert r.not_understood == []


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("train a 70B model on 2T tokens in two weeks", 14.0),
        ("train a 70B model on 2T tokens in 12 hours", 0.5),
        ("train a 70B model on 2T tokens in 1 year", 365.2425),
        ("fine-tune llama 3.1 8b on 1B tokens in a day", 1.0),
    ],
)
def test_a_request_with_a_duration_is_sized_for_it(text: str, days: float) -> None:
    r = parse_request(CAT, text)
    assert r.training_days == pytest.approx(days)
    assert r.not_understood == []


@pytest.mark.parametrize(
    ("rule", "text", "field", "value"),
    [
        ("reserve_span", "with two weeks of buffer", "schedule_reserve_days", 14.0),
        ("reserve_span", "10 days of slack", "schedule_reserve_days", 10.0),
        ("reserve_span_after", "a buffer of 3 weeks", "schedule_reserve_days", 21.0),
        ("reserve_share", "leave 10% slack", "schedule_reserve_share", 0.1),
        ("reserve_share", "schedule margin of 15%", "schedule_reserve_share", 0.15),
    ],
)
def test_a_named_buffer_is_the_reserve(rule: str, text: str, field: str, value: float) -> None:
    first = read(rule, text)[0]
    assert (first.field, first.value) == (field, pytest.approx(value))


def test_a_buffer_beside_a_duration_is_not_a_second_deadline() -> None:
    req = parse_request(
        CAT, "train Llama 3.1 70B on 15T tokens in 200 days with two weeks of buffer"
    )
    assert (req.training_days, req.schedule_reserve_days) == (200.0, 14.0)
    assert req.not_understood == []


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("fine-tune Llama 3.1 8B with LoRA on 50M tokens overnight", 0.5),
        ("fine-tune a 70B model on 1B tokens over a weekend", 2.0),
    ],
)
def test_a_span_named_without_a_number_is_read_as_its_hours(text: str, days: float) -> None:
    r = parse_request(load_catalog(), text)
    assert r.training_days == days
    assert not r.not_understood


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("retrain our 30B model every week on 500B new tokens", 7.0),
        ("retrain our 30B model every 2 weeks on 500B new tokens", 14.0),
        ("a fortnightly refresh of our 7B model on 50B tokens", 14.0),
    ],
)
def test_a_cadence_is_the_time_each_run_has(text: str, days: float) -> None:
    r = parse_request(CAT, text)
    assert r.training_days == days
    assert r.training_tokens_t == pytest.approx(0.5 if "500b" in text.lower() else 0.05)


def test_a_date_from_now_without_a_job_is_no_deadline() -> None:
    r = parse_request(CAT, "We need 128 GPUs a month from now")
    assert r.training_days is None
    assert r.not_understood == []


def test_done_a_span_from_now_is_still_a_deadline() -> None:
    r = parse_request(CAT, "train 7B on 1T tokens, done 6 weeks from now")
    assert r.training_days == 42.0


@pytest.mark.parametrize(
    ("text", "days"),
    [
        # the tighter bound is the run's time: a deadline inside the cadence, or the cadence
        ("7B params, 500B tokens monthly retrain, must finish in 5 days", 5.0),
        ("monthly retrain of a 7B model on 200B tokens, must finish within 45 days", None),
        ("retrain a 7B model on 200B tokens every week", 7.0),
    ],
)
def test_a_cadence_beside_a_deadline_takes_the_tighter(text: str, days: float | None) -> None:
    r = parse_request(CAT, text)
    assert r.training_days is not None
    if days is None:  # the month's length
        assert 28 < r.training_days < 32
    else:
        assert r.training_days == days
