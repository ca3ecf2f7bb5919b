"""The sizing engine: pure functions over catalog models. Imports nothing above it."""
