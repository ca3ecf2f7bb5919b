"""The rule tables a request is read by: one small `Rule` per kind of phrase that maps to a field.

`rules` holds the table in reading order (`RULES`), gathering the tables of `workload` (money,
tokens, jobs), `serving`, `load`, `durations` and `model`; `phrases` is their vocabulary (`Rule`,
`Reading`, `num`, `rule`). `counts`, `pods` and `storage` read the phrases that name a count, a pod
or a storage product against the catalog, for the passes (`request/passes/`) to place.
"""

from __future__ import annotations

from clustergen.engine.request.rules.phrases import Reading, Rule, num, rule
from clustergen.engine.request.rules.rules import RULES
from clustergen.engine.request.rules.workload import MONEY_RULES

__all__ = ["MONEY_RULES", "RULES", "Reading", "Rule", "num", "rule"]
