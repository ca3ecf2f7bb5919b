"""Data only: the contract types every layer may import (tools, agent, MCP, evals, schemas), and
the engine records that sit beside the contract types they build (`FabricPlan`, `Capital`).

No catalog look-ups and no arithmetic live here, so importing a model never imports the pipeline
(pint's definitions-apart-from-objects rule).

Two kinds of types, decided once (issue 34; the measurements are in CONTRIBUTING.md, "Start-up"):

- **Contract types are pydantic models**: catalog entries, `DesignRequest`, the `Design` tree,
  tool arguments and results, files users give (fleet inventory, seed config) and JSON the CLI
  prints. They validate what crosses an edge, and their JSON Schemas are the published ones.
  Every pydantic model in this package is reachable from `Design`, `DesignRequest` or a tool's
  arguments or result (`tests/engine/model/test_init.py`).
- **Engine records are plain**: `NamedTuple`s for immutable values (a `FabricPlan` keys the
  engine's cache; `_replace` makes a variant), `__slots__` classes where a record is mutable or
  has a field named like a tuple method (`Notes`, `Leaves`). Their inputs were validated where
  they entered; building one costs a tuple's construction, not a validation. No engine module
  defines a dataclass or a pydantic model that no contract carries (the same test).

Modules that declare contract types (here and in `catalog/`) do not postpone annotations (no
`from __future__ import annotations`): pydantic would compile every field's annotation string
when it builds the class, ~4% of a design process; a forward reference is quoted instead.

Pydantic stays, and its cost is the floor: its import and the contract classes' schemas are most
of a design process's start-up, and the catalog's strict, located validation is worth it.
"""
