"""The report layer projects the design and matches no text: no module under `report/` compares a
BOM line's category (or names a part kind to branch on), and none reads a line's description
text (splits it, searches it, compares it). What a kind is to a projection is the part-kind
table's (`engine/model/inventory.py PARTS`, `ROLES`)."""

import ast
from pathlib import Path

import pytest

REPORT = Path(__file__).parents[3] / "src" / "clustergen" / "engine" / "report"


def _is(node: ast.AST, attr: str) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == attr


def findings(source: str) -> list[str]:
    """Every place the source branches on a category or reads description text, as
    'line: what'."""
    out = []
    for node in ast.walk(ast.parse(source)):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                if _is(side, "category"):
                    out.append(f"{line}: compares a category")
                if _is(side, "description"):
                    out.append(f"{line}: compares or searches description text")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if _is(node.func.value, "description") or _is(node.func.value, "category"):
                out.append(f"{line}: reads {node.func.value.attr} text ({node.func.attr})")  # type: ignore[attr-defined]
        elif isinstance(node, ast.Subscript) and _is(node.value, "description"):
            out.append(f"{line}: slices description text")
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "PartKind"
        ):
            out.append(f"{line}: names a part kind (PartKind.{node.attr})")
    return out


@pytest.mark.parametrize(
    "bad",
    [
        'if ln.category == "switch": pass',
        "x = [ln for ln in bom if ln.category in (PartKind.PDU,)]",
        'leaf = ln.description.endswith(" leaf")',
        'mgmt = "management" in ln.description',
        'name = ln.description.split(",")[0]',
        "head = ln.description[:5]",
        "flag = ln.category is PartKind.COMPUTE",
    ],
)
def test_the_scan_finds_a_branch_on_kind_or_text(bad: str) -> None:
    assert findings(bad)


def test_the_scan_lets_a_projection_write_text() -> None:
    assert not findings(
        'row = [cell_text(ln.description), PARTS[ln.category].noun, f"{ln.category}"]'
    )


def test_no_report_module_branches_on_kind_or_reads_description_text() -> None:
    modules = sorted(REPORT.rglob("*.py"))
    assert len(modules) > 20  # the scan reads the report layer, not an empty folder
    found = [
        f"{path.relative_to(REPORT)}:{hit}"
        for path in modules
        for hit in findings(path.read_text(encoding="utf-8"))
    ]
    assert found == []
