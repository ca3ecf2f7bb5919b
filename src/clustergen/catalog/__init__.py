"""Catalogs: the facts clustergen designs with, each with its source.

Every kind of entry is a model class that names its kind and file
(`class Cdu(Entry, kind="cdus", file="cdus.yaml")`); the loader reads every kind's file, and
`Catalog.get(Cdu, name)` / `Catalog.all(Cdu)` look entries up. This package exports the catalog
and every class `models.py` exports, so a kind added there is exported here with no edit.
"""

from clustergen.catalog import models
from clustergen.catalog.architectures import Architecture, RaPattern, SuTable
from clustergen.catalog.loader import (
    Catalog,
    builtin_catalog_dir,
    load_catalog,
    validate_catalog,
)
from clustergen.catalog.models import *  # noqa: F403 - every kind models.py defines, by its __all__
from clustergen.catalog.reader import Problem
from clustergen.catalog.workload_models import (
    HourlyPrice,
    InferenceTable,
    LanguageModel,
    MlperfBenchmark,
    TrainingRow,
)

__all__ = [
    "Architecture",
    "Catalog",
    "HourlyPrice",
    "InferenceTable",
    "LanguageModel",
    "MlperfBenchmark",
    "Problem",
    "RaPattern",
    "SuTable",
    "TrainingRow",
    "builtin_catalog_dir",
    "load_catalog",
    "validate_catalog",
]
__all__ += models.__all__
