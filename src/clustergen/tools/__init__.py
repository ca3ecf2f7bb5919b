"""Typed tools over the engine, shared by the agent, the MCP server and the eval harness."""

from clustergen.tools.registry import Registry, Tool, ToolCallError, ToolContext, ToolOutcome
from clustergen.tools.toolsets import default_registry

__all__ = [
    "Registry",
    "Tool",
    "ToolCallError",
    "ToolContext",
    "ToolOutcome",
    "default_registry",
]
