"""Judging a submission: the one tool call that can end a run (pydantic-ai's node classes are the
model: the loop asks, calls tools and hands each `submit_design` to the judge).

The engine rebuilds the design from the submitted choices; the model supplies no figure. The judge
1. reconciles the submitted requirements with what the user stated (the user's values stand; the
   first contradiction is sent back once, later ones become a warning),
2. rebuilds the design and sends it back if it fails a check, and
3. matches every number of the memo against the design, sending unmatched ones back for a bounded
   number of rounds, then marking those left [unverified].
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from clustergen.agent import prompts
from clustergen.agent.grounding import Grounder, flag_unmatched, normalise
from clustergen.agent.trace import Trace
from clustergen.catalog.loader import Catalog
from clustergen.engine.model.design import Design
from clustergen.engine.model.request import PARSE_FIELDS
from clustergen.engine.model.run import GroundedNumber, GroundingReport
from clustergen.engine.report.documents.summary import DesignSummary, summarize
from clustergen.engine.request import DesignRequest
from clustergen.engine.search.proposal import design_from_choices, request_from_fields
from clustergen.errors import ClustergenError
from clustergen.tools.builtin import SubmitArgs
from clustergen.units import plural


def user_fields(request: DesignRequest) -> dict[str, Any]:
    """The requirements the user stated: every field set, none of the parse bookkeeping."""
    return {
        k: v for k, v in request.model_dump().items() if k not in PARSE_FIELDS and v is not None
    }


def _differs(a: Any, b: Any) -> bool:
    if isinstance(a, int | float) and isinstance(b, int | float):
        return abs(float(a) - float(b)) > 1e-6 * max(1.0, abs(float(b)))
    return bool(a != b)


class Rejected(Exception):
    """A submission sent back for repair: the problem, and whether it counts against the limit."""

    def __init__(self, problem: str, *, counts: bool = True) -> None:
        super().__init__(problem)
        self.problem = problem
        self.counts = counts


class Ungrounded(Exception):
    """A submission whose memo has numbers the design does not hold: the message to the model."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass
class Judge:
    """Judges the `submit_design` calls of one run, and remembers what it has told the model."""

    catalog: Catalog
    request: DesignRequest
    grounding_rounds_allowed: int
    trace: Trace
    conflicts_told: bool = False
    grounding_rounds: int = 0
    warnings: list[str] = field(default_factory=list)
    user: dict[str, Any] = field(init=False)

    def __post_init__(self) -> None:
        self.user = user_fields(self.request)

    def judge(self, args: SubmitArgs) -> Design:
        """The accepted design, with the memo checked and every unmatched number marked.

        Raises Rejected (a problem to repair) or Ungrounded (numbers to fix)."""
        design = self._build(args)
        summary = summarize(design)
        if summary.checks_failed:
            failed = "; ".join(f"{c.name} ({c.figure})" for c in summary.checks_failed)
            raise Rejected(f"the design fails checks: {failed}")
        return self._ground(design, summary, args.memo)

    def _requirements(self, args: SubmitArgs) -> DesignRequest:
        """The submitted requirements with the user's stated values standing over them."""
        user = self.user
        proposed = {k: v for k, v in args.requirements.model_dump().items() if v is not None}
        try:
            normalised = user_fields(request_from_fields(self.catalog, proposed))
        except ClustergenError as exc:
            raise Rejected(exc.one_line()) from None
        conflicts = [
            f"{k}: the request says {user[k]!r}, you submitted {normalised[k]!r}"
            for k in user
            if k in normalised and _differs(normalised[k], user[k])
        ]
        if conflicts and not self.conflicts_told:
            self.conflicts_told = True
            raise Rejected(
                "your requirements contradict what the customer stated ("
                + "; ".join(conflicts)
                + "); the customer's values stand. Resubmit with them.",
                counts=False,
            )
        if conflicts:
            self.warnings.append(
                "the model's reading of the request differed and was overruled: "
                + "; ".join(conflicts)
            )
        try:
            final = request_from_fields(
                self.catalog, {**normalised, **user}, text=self.request.text
            )
        except ClustergenError as exc:
            raise Rejected(exc.one_line()) from None
        return final.model_copy(
            update={
                "understood": self.request.understood,
                "not_understood": self.request.not_understood,
            }
        )

    def _build(self, args: SubmitArgs) -> Design:
        """The engine's design for the submitted requirements and choices."""
        request = self._requirements(args)
        try:
            return design_from_choices(
                self.catalog,
                request,
                args.choices,
                mode="agent",
                reason=args.reason.strip() or "chosen by the model",
            )
        except ClustergenError as exc:
            raise Rejected(exc.one_line()) from None

    def _ground(self, design: Design, summary: DesignSummary, memo: str) -> Design:
        """The design with the memo, its grounding report and any warnings; Ungrounded while
        unmatched numbers remain and rounds are left. The memo kept is the normalised text the
        numbers were read from (no invisible characters, no markup comments): what was checked is
        what a reader reads."""
        memo = normalise(memo)
        checked = self._grounder(design).check(memo)
        unmatched = [n.text for n in checked if not n.matched]
        if unmatched and self.grounding_rounds < self.grounding_rounds_allowed:
            self.grounding_rounds += 1
            self.trace.event("grounding", unmatched=unmatched, round=self.grounding_rounds)
            raise Ungrounded(_ungrounded_message(summary, unmatched))
        warnings = list(self.warnings)
        if unmatched:
            warnings.append(
                f"{plural(len(unmatched), 'number')} in the model's memo "
                f"{'matches' if len(unmatched) == 1 else 'match'} nothing in the design and "
                f"are marked [unverified]: {', '.join(unmatched)}"
            )
        return design.model_copy(
            update={
                "memo": flag_unmatched(memo, checked),
                "grounding": self._report(checked, unmatched),
                "warnings": design.warnings + warnings,
            }
        )

    def _report(self, checked: list[GroundedNumber], unmatched: list[str]) -> GroundingReport:
        return GroundingReport(
            numbers=len(checked),
            matched=len(checked) - len(unmatched),
            unmatched=unmatched,
            rounds=self.grounding_rounds,
            checked=checked,
        )

    def _grounder(self, design: Design) -> Grounder:
        return design_grounder(self.catalog, design)


def design_grounder(cat: Catalog, design: Design) -> Grounder:
    """Figures a memo's numbers may match: the design and the catalog facts of its parts."""
    parts: dict[str, Any] = {"design": design.model_dump(mode="json")}
    parts["gpu"] = cat.gpu(design.platform.gpu).model_dump(mode="json")
    parts["system"] = cat.system(design.platform.system).model_dump(mode="json")
    cf = design.fabrics.compute
    switches = {cf.leaf_switch, cf.spine_switch} if cf is not None else set()
    if design.fabrics.storage is not None:
        switches.add(design.fabrics.storage.leaf_switch)
    parts["switches"] = [
        cat.switch(s).model_dump(mode="json") for s in sorted(x for x in switches if x)
    ]
    return Grounder.from_data(**parts)


_FLAG = " [unverified]"


def recheck_memo(cat: Catalog, design: Design) -> tuple[Design, str | None]:
    """`design` with its model-written memo checked again against its own figures (`render`
    after an edit: the memo was checked against the design as it was when the model wrote it).
    Numbers that no longer match are marked [unverified] and listed in `warnings` and the
    grounding report; returns the design and one line saying what changed, or None when the memo
    still matches as it did (or there is none)."""
    if not design.memo:
        return design, None
    memo = normalise(design.memo.replace(_FLAG, ""))
    checked = design_grounder(cat, design).check(memo)
    unmatched = [n.text for n in checked if not n.matched]
    before = design.grounding.unmatched if design.grounding is not None else None
    if before is not None and sorted(before) == sorted(unmatched):
        return design, None
    rounds = design.grounding.rounds if design.grounding is not None else 0
    report = GroundingReport(
        numbers=len(checked),
        matched=len(checked) - len(unmatched),
        unmatched=unmatched,
        rounds=rounds,
        checked=checked,
    )
    line = (
        "the model's memo was written for other inputs; its numbers were checked again against "
        f"this design: {len(unmatched)} of {len(checked)} no longer match"
        + (f" and are marked [unverified] ({', '.join(unmatched)})" if unmatched else "")
    )
    return design.model_copy(
        update={
            "memo": flag_unmatched(memo, checked),
            "grounding": report,
            "warnings": [*design.warnings, line],
        }
    ), line


def _ungrounded_message(summary: DesignSummary, unmatched: list[str]) -> str:
    """The tool error that lists the unmatched numbers beside the design's key figures."""
    figures = summary.model_dump(
        mode="json",
        exclude={"checks_failed", "warnings", "compute_fabric", "storage_fabric"},
    )
    cf = summary.compute_fabric
    figures["compute_fabric"] = cf.model_dump(mode="json") if cf is not None else None
    return json.dumps(
        {
            "error": prompts.render(
                "grounding",
                unmatched=", ".join(unmatched),
                figures=json.dumps(figures, separators=(",", ":")),
            ),
            "kind": "ungrounded_numbers",
        }
    )
