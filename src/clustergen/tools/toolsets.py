"""The tool sets clustergen serves, joined explicitly (pydantic-ai's `CombinedToolset`).

Each tool module declares its tools on its own `Registry`; this module names the modules and their
order, so which tools exist never depends on what happened to be imported first.
"""

from __future__ import annotations

from clustergen.tools import builtin, workload
from clustergen.tools.registry import Registry

#: Tool modules in the order their tools are listed (the design tools first, then the workload
#: estimates).
MODULES = (builtin, workload)


def default_registry() -> Registry:
    """Every built-in tool: each module's in declaration order, module by module."""
    joined = Registry()
    for module in MODULES:
        for t in module.TOOLS.tools.values():
            joined.add(t)
    return joined
