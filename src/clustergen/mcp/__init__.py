"""clustergen's typed tools served over the Model Context Protocol (read-only).

This package is `clustergen.mcp`; the SDK is the top-level `mcp`. Every module here imports the SDK
with absolute imports, so the two never shadow each other.
"""
