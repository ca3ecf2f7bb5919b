"""`clustergen serve`: the design in a browser, on the same engine as the CLI and the MCP server.

Imports point down: the CLI starts it; it calls the engine (and the agent when a key is
configured); nothing below imports it."""
