"""Case files: the shipped suites load; every malformed case is named by file, case id and field."""

from __future__ import annotations

import pytest

from clustergen.errors import EvalCaseError, RequestError
from clustergen.evals.cases import DesignCase, FabricCase, error_codes, load_cases

from .conftest import WriteCases

GOOD = """
- id: one
  title: a design case
  text: "31 DGX H100"
  expected:
    - {path: fabrics.compute.leaf_switches, value: 8, source: "H100-RA Table 4"}
- id: two
  title: a fabric case
  kind: fabric
  call: {platform: dgx-h100, nodes: 31}
  expected:
    - {path: fabric.spine_switches, value: 4, source: "H100-RA Table 4"}
"""


def test_shipped_suites_load_with_sources_on_every_figure() -> None:
    cases = load_cases()
    suites = {c.suite for c in cases}
    assert {"golden", "adversarial"} <= suites
    golden = [c for c in cases if c.suite == "golden"]
    assert len(golden) >= 15
    assert all(e.source.strip() for c in cases for e in c.expected)
    adversarial = [c for c in cases if c.suite == "adversarial"]
    assert all(c.outcome != "ok" for c in adversarial)


def test_suite_comes_from_the_folder_and_kind_defaults_to_design(write_cases: WriteCases) -> None:
    root = write_cases("golden/a.yaml", GOOD)
    one, two = load_cases(root)
    assert isinstance(one, DesignCase)
    assert isinstance(two, FabricCase)
    assert one.suite == two.suite == "golden"
    assert two.call.nodes == 31


def test_select_by_suite_and_id(write_cases: WriteCases) -> None:
    root = write_cases("golden/a.yaml", GOOD)
    write_cases("other/b.yaml", GOOD.replace("id: one", "id: three").replace("id: two", "id: four"))
    assert [c.id for c in load_cases(root, suites=["other"])] == ["three", "four"]
    assert [c.id for c in load_cases(root, case_ids=["two"])] == ["two"]
    with pytest.raises(RequestError, match="no eval suite 'nope'"):
        load_cases(root, suites=["nope"])
    with pytest.raises(RequestError, match="no eval case 'twoo'") as info:
        load_cases(root, case_ids=["twoo"])
    assert info.value.hint == "closest: two"


def _problems(write_cases: WriteCases, text: str) -> list[str]:
    root = write_cases("golden/bad.yaml", text)
    with pytest.raises(EvalCaseError) as info:
        load_cases(root)
    problems = info.value.details["problems"]
    assert isinstance(problems, list)
    return [str(p) for p in problems]


@pytest.mark.parametrize(
    ("edit", "field", "message"),
    [
        ("path: fabrics.compute.leaf_switchs", "", "did you mean leaf_switches"),
        ("source: ''", "expected.0.source", "at least 3 characters"),
        ("value: 8, rel_tol: 0.01", "expected.0", "counts are exact"),
        ("value: 8, at_most: 9", "expected.0", "exactly one of value"),
        ("value: 8, reduce: sum", "expected.0", "reduce needs a path"),
        ("value: 8, colour: red", "expected.0.colour", "Extra inputs"),
        ("value: [8]", "expected.0.value", ""),
    ],
)
def test_expectation_problems_name_file_case_and_field(
    write_cases: WriteCases, edit: str, field: str, message: str
) -> None:
    key, _, rest = edit.partition(":")
    base = '{path: fabrics.compute.leaf_switches, value: 8, source: "H100-RA Table 4"}'
    if key == "path":
        expect = base.replace("fabrics.compute.leaf_switches", rest.strip())
    elif key == "source":
        expect = base.replace('"H100-RA Table 4"', "''")
    else:
        expect = base.replace("value: 8", edit)
    text = f"""
- id: bad-one
  title: a broken case
  text: "31 DGX H100"
  expected:
    - {expect}
"""
    problems = _problems(write_cases, text)
    assert all(p.startswith("golden/bad.yaml: case 'bad-one': ") for p in problems)
    assert any(field in p and message in p for p in problems), problems


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("outcome: refused", "needs error_types"),
        ("outcome: refused\n  error_types: [infeasable]", "unknown error type(s) infeasable"),
        ("outcome: ok\n  error_types: [infeasible]", "need a refusal outcome"),
        ("flagged_by: [power under cap]", "flagged_by needs a flagged outcome"),
        ("kind: fabric\n  call: {platform: dgx-h100}", "call.nodes"),
        ("kind: nonsense", "does not match any of the expected tags"),
        ("request: {gpu_count: 8}", "unknown field(s) gpu_count"),
        ("request: {gpus: 0}", "request: gpus: Input should be greater than or equal to 1"),
    ],
)
def test_case_problems(write_cases: WriteCases, body: str, message: str) -> None:
    text = f"""
- id: bad-two
  title: a broken case
  text: "512 GPUs"
  {body}
"""
    problems = _problems(write_cases, text)
    assert any("case 'bad-two'" in p and message in p for p in problems), problems


def test_every_problem_in_every_file_is_reported(write_cases: WriteCases) -> None:
    write_cases("golden/a.yaml", "- id: x\n  title: no checks\n  text: '8 GPUs'\n")
    root = write_cases(
        "adversarial/b.yaml", "- {id: y, title: refused, text: '8', outcome: refused}\n"
    )
    write_cases("golden/c.yaml", "just: a mapping\n")
    with pytest.raises(EvalCaseError) as info:
        load_cases(root)
    problems = info.value.details["problems"]
    assert len(problems) == 3
    assert "3 problem(s)" in info.value.message
    assert any(p.startswith("golden/c.yaml: a case file is a YAML list") for p in problems)


def test_duplicate_ids_and_unreadable_yaml(write_cases: WriteCases) -> None:
    write_cases("golden/a.yaml", GOOD)
    root = write_cases("golden/b.yaml", GOOD)
    with pytest.raises(EvalCaseError, match="duplicate case id"):
        load_cases(root)
    bad = write_cases("golden/b.yaml", "- id: [unclosed\n")
    with pytest.raises(EvalCaseError, match=r"golden/b\.yaml: cannot read"):
        load_cases(bad)


def test_a_case_outside_a_suite_folder_needs_a_suite(write_cases: WriteCases) -> None:
    root = write_cases("loose.yaml", GOOD)
    with pytest.raises(EvalCaseError, match="no suite"):
        load_cases(root)
    root = write_cases(
        "loose.yaml", GOOD.replace("title: a design case", "title: d\n  suite: mine")
    )
    with pytest.raises(EvalCaseError, match="case 'two': suite"):
        load_cases(root)


def test_error_codes_cover_the_exception_tree() -> None:
    assert {"infeasible", "request_error", "not_found", "config_error"} <= error_codes()
