"""The parsed-catalog cache: a hit gives exactly what parsing gives, and nothing about the cache
can break or change a catalog."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from clustergen.catalog import builtin_catalog_dir, cache, validate_catalog


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CLUSTERGEN_CACHE_DIR", str(tmp_path / "cache"))
    directory = cache.cache_dir()
    assert directory is not None
    return directory


def _dump(user_dir: Path | None = None) -> tuple[str, dict[str, dict[str, object]]]:
    catalog, problems = validate_catalog(user_dir)
    assert catalog is not None, problems
    entries = {
        stem: {eid: e.model_dump() for eid, e in rows.items()}
        for stem, rows in catalog.entries.items()
    }
    return catalog.hash, entries


def test_a_cached_catalog_equals_a_parsed_one(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = _dump()  # parses every file and fills the cache
    assert len(list(cache_dir.glob("*.json"))) == len(list(builtin_catalog_dir().glob("*.yaml")))
    assert _dump() == first  # every file from the cache
    monkeypatch.setenv("CLUSTERGEN_NO_CACHE", "1")
    assert cache.cache_dir() is None
    assert _dump() == first  # and with the cache off


def test_dates_and_numbers_come_back_as_parsed(cache_dir: Path) -> None:
    data = [{"id": "x", "as_of": dt.date(2023, 9, 22), "w": 0.1, "n": 7, "ok": True, "v": None}]
    cache.store("abc", data)
    hit, back = cache.load("abc")
    assert hit
    assert back == data
    assert type(back[0]["as_of"]) is dt.date
    assert type(back[0]["w"]) is float


@pytest.mark.parametrize(
    "data",
    [
        [{1: "integer key"}],
        [{"at": dt.datetime(2026, 1, 1, 12, 0)}],
        [{"$date": "2026-01-01", "id": "clashes with the date tag"}],
        [{"tags": {"a", "b"}}],
    ],
)
def test_what_json_cannot_give_back_is_not_cached(cache_dir: Path, data: object) -> None:
    cache.store("abc", data)
    assert cache.load("abc") == (False, None)


def test_a_damaged_entry_is_parsed_again(cache_dir: Path) -> None:
    first = _dump()
    for entry in cache_dir.glob("*.json"):
        entry.write_text('{"truncated": ', encoding="utf-8")
    assert _dump() == first


def test_an_unusable_cache_directory_is_ignored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory", encoding="utf-8")
    monkeypatch.setenv("CLUSTERGEN_CACHE_DIR", str(blocker))
    catalog, problems = validate_catalog()
    assert catalog is not None, problems


def test_an_edited_file_is_read_afresh(cache_dir: Path, tmp_path: Path) -> None:
    user = tmp_path / "mine"
    user.mkdir()
    racks = user / "racks.yaml"
    template = "- {{id: my-rack, name: My rack, rack_units: 48, power_limit_kw: {kw}, cooling: air, source: site survey, as_of: 2026-01}}\n"
    racks.write_text(template.format(kw=20), encoding="utf-8")
    _, first = _dump(user)
    racks.write_text(template.format(kw=40), encoding="utf-8")
    _, second = _dump(user)
    assert first["racks"]["my-rack"]["power_limit_kw"] == 20
    assert second["racks"]["my-rack"]["power_limit_kw"] == 40


def test_a_hit_skips_the_checks_only_for_a_file_that_passed_them(
    cache_dir: Path, tmp_path: Path
) -> None:
    from clustergen.catalog.reader import Problem, read_rows

    clean = tmp_path / "racks.yaml"
    clean.write_text("- {id: r1, name: Rack one, source: survey}\n", encoding="utf-8")
    first: list[Problem] = []
    rows = read_rows(clean, first, trusted=True)
    assert first == []
    assert len(list(cache_dir.glob("*.json"))) == 1
    again: list[Problem] = []
    assert read_rows(clean, again, trusted=True) == rows
    assert again == []

    # a shipped file with a fault is never stored, so every load reports the fault again
    faulty = tmp_path / "gpus.yaml"
    faulty.write_text('- {id: g1, name: "G\\x1b[31m1", source: sheet}\n', encoding="utf-8")
    for _ in range(2):
        problems: list[Problem] = []
        read_rows(faulty, problems, trusted=True)
        assert [p.field for p in problems] == ["name"]
    assert len(list(cache_dir.glob("*.json"))) == 1
