"""Fixtures for the agent tests (they live in support/nim_wire.py so the CLI tests share them)."""

from support.nim_wire import catalog, client, router, settings, sleeps

__all__ = ["catalog", "client", "router", "settings", "sleeps"]
