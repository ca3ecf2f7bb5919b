"""clustergen: constraints in, a validated GPU-cluster reference design and draft BOM out."""

__version__ = "0.1.0"
