"""The designs issue #25 names (the README request, DGX H100 4 SU, DGX B200 4 SU, HGX B200 64
nodes, GB200 4 SU, GB300 2 SU) as request fields, and every GPU platform of the catalog, for
tests that hold a rule over all of them."""

from __future__ import annotations

from clustergen.catalog import load_catalog
from clustergen.catalog.models import System

NAMED = [
    {"gpus": 512, "power_cap_w": 5e6, "workload": "training"},
    {"platform": "dgx-h100", "nodes": 128},
    {"platform": "dgx-b200", "nodes": 128},
    {"platform": "hgx-b200", "nodes": 64},
    {"platform": "gb200-nvl72", "nodes": 32},
    {"platform": "gb300-nvl72", "nodes": 16},
]
PLATFORMS = sorted(s.id for s in load_catalog().all("systems", System) if s.gpu)

#: the named designs as drawn in the bundles reviewed (the SuperPOD RA's 127 nodes, where NAMED
#: asks for 128), with part-built scalable units: pictures and their counts are held over these
DRAWN: list[dict[str, object]] = [
    {"gpus": 512, "power_cap_w": 5e6, "workload": "training"},
    {"platform": "dgx-h100", "nodes": 127},
    {"platform": "dgx-b200", "nodes": 127},
    {"platform": "hgx-b200", "nodes": 64},
    {"platform": "gb200-nvl72", "nodes": 32},
    {"platform": "gb300-nvl72", "nodes": 16},
    {"platform": "gb200-nvl72", "nodes": 28},
    {"platform": "gb300-nvl72", "nodes": 28},
    {"platform": "dgx-h100", "nodes": 223},
]
