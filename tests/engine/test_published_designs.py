"""Whole designs at the sizes NVIDIA publishes, against the published counts (issues 23 and 25:
"published designs you have not seen are checked"). Each row builds the design the CLI builds
for the request and compares every fabric's switch count, the fabric managers, the management
servers and the racks with the document and table cited beside it. Fabric-only tables (leaf,
spine, core per SU count) are in tests/engine/sizing/fabric/test_superpod_tables.py."""

from __future__ import annotations

from typing import Any

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.model.design import Design
from clustergen.engine.request import merge_request
from clustergen.engine.search.planner import plan_design

CAT = load_catalog()

H100_T78 = "DGX SuperPOD H100 RA (RA-11333-001 V11) Tables 7 and 8, 4 SU / 127 DGX H100"
B200_F32 = "DGX SuperPOD B200 RA (RA-11334-001 V08) Figures 3.1 and 3.2 (secondary figure reading)"
B300_T3 = "DGX SuperPOD B300 XDR RA (RA-11339-001 V01) Table 3"
B300E_T3 = "DGX SuperPOD B300 Spectrum-4 RA (RA-11337-001 V01) Table 3, 1 SU of 64 DGX B300"
GB200_CF = (
    "DGX SuperPOD GB200 RA (RA-11338-001 V01), Compute Fabric: 4 SLGs per SU, '8 leaf switches "
    "(one for each compute rack) and 6 spine switches in each SLG'; DGX GB Rack Scale User "
    "Guide: '2x TOR Switches for management' per rack"
)
ERA_2_4_3 = (
    "Enterprise RA ERA-00008-001 (2-4-3-200) Tables 10/11 as NVIDIA's ERA tooling transcribes "
    "them: 'SU 1-4: 2 core leaves + 2 OOB; SU 5-6: 3 OOB; SU 7-8: 4 OOB' (SU = 4 nodes)"
)
B200_T = (
    "DGX SuperPOD B200 RA (RA-11334-001), DGX SuperPOD Architecture, larger-SuperPOD table "
    "(leaf / spine / core per SU count; 32 nodes per SU, one node slot given to UFM as H100 RA "
    "Table 4)"
)
B300E_TABLE = (
    "DGX SuperPOD B300 Spectrum-4 RA (RA-11337-001), Table 3 'Larger DGX SuperPOD component counts'"
)
BASEPOD_T42 = (
    "DGX BasePOD RA (RA-11127-001 V5) Table 4.2 (secondary transcriptions) and System Architecture"
)

CASES: list[tuple[str, str, dict[str, Any]]] = (
    [
        (
            "127 DGX H100, InfiniBand",
            H100_T78,
            {
                "compute_switches": 48,  # 32 leaf + 16 spine QM9700
                "storage_switches": 16,  # QM9700
                "inband_switches": 8,  # SN4600C
                "oob_switches": 8,  # SN2201
                "fabric_managers": 4,  # UFM 3.1
                "management_servers": 4,  # BCM
                "total_racks": 38,
                "pdus": 108,  # 32 compute racks x 3 + 12 PX3-5747V-V2
            },
        ),
        (
            "127 DGX B200, InfiniBand",
            B200_F32,
            {
                "compute_switches": 48,
                "storage_switches": 12,  # 8 storage leaves + 4 storage spines (Figure 3.2)
                "oob_switches": 16,
                "fabric_managers": 4,  # 2 compute + 2 storage UFM
                "management_servers": 7,  # 2 BCM + 5 service
                "compute_racks": 64,  # 16 racks per SU, 2 DGX B200 each
                "management_racks": 5,  # Figure 3.2's racks 1-5
            },
        ),
        ("72 DGX B300, InfiniBand", B300_T3, {"leaf": 8, "spine": 4}),
        (
            "576 DGX B300, InfiniBand",
            B300_T3 + "; management: 2 BCM + 3 Kubernetes + 2 Slurm login for 8 SU (secondary)",
            {"leaf": 64, "spine": 36, "management_servers": 7},
        ),
        ("64 DGX B300, Ethernet", B300E_T3, {"leaf": 16, "spine": 8, "node_links": 512}),
        (
            "8 GB200 NVL72 racks",
            GB200_CF,
            {"leaf": 32, "spine": 24, "core": 0, "in_rack_oob": 16, "compute_racks": 8},
        ),
        (
            "4 DGX H100",
            BASEPOD_T42 + ": 4 DGX",
            {
                "compute_switches": 2,
                "storage_switches": 2,
                "oob_switches": 1,
                "management_servers": 5,
            },
        ),
        (
            "8 DGX H100",
            BASEPOD_T42 + ": 8 DGX",
            {
                "compute_switches": 2,
                "storage_switches": 2,
                "oob_switches": 2,
                "management_servers": 5,
            },
        ),
    ]
    + [
        (f"{nodes} DGX B200, InfiniBand", B200_T, {"leaf": leaf, "spine": spine, "core": core})
        for nodes, leaf, spine, core in (
            (63, 16, 8, 0),
            (255, 64, 32, 0),
            (511, 128, 128, 64),
            (1023, 256, 256, 128),
            (2047, 512, 512, 256),
        )
    ]
    + [
        (
            f"{nodes} DGX B300, Ethernet",
            B300E_TABLE,
            {"leaf": leaf, "spine": spine, "node_links": links},
        )
        for nodes, leaf, spine, links in (
            (128, 32, 16, 1024),
            (256, 64, 32, 2048),
            (1024, 256, 128, 8192),
        )
    ]
    + [
        (
            f"{nodes} DGX B300, InfiniBand",
            B300_T3,
            {"leaf": leaf, "spine": spine, "node_links": links},
        )
        for nodes, leaf, spine, links in (
            (144, 16, 8, 1152),
            (288, 32, 18, 2304),
            (1296, 144, 72, 10368),
        )
    ]
    + [
        (f"{nodes} pcie-4gpu-l40s nodes", ERA_2_4_3, {"compute_switches": 2, "oob_switches": oob})
        for nodes, oob in ((4, 2), (16, 2), (20, 3), (24, 3), (28, 4), (32, 4))
    ]
)


def _figures(d: Design) -> dict[str, Any]:
    f = d.fabrics
    cf = f.compute
    return {
        "compute_switches": cf.total_switches if cf else 0,
        "leaf": cf.leaf_switches if cf else 0,
        "spine": cf.spine_switches if cf else 0,
        "core": cf.core_switches if cf else 0,
        "node_links": cf.node_links if cf else 0,
        "storage_switches": f.storage.total_switches if f.storage else 0,
        "inband_switches": f.inband.total_switches if f.inband else 0,
        "oob_switches": f.oob.total_switches if f.oob else 0,
        "in_rack_oob": f.oob.in_rack_switches if f.oob else 0,
        "fabric_managers": d.servers.fabric_managers,
        "management_servers": d.servers.management_servers,
        "compute_racks": d.racks.compute.compute_racks,
        "management_racks": d.racks.network_racks,
        "total_racks": d.racks.total_racks,
        "pdus": d.racks.pdus,
        "cdus": d.racks.cooling.cdus if d.racks.cooling else 0,
    }


@pytest.mark.parametrize(("text", "source", "published"), CASES, ids=[c[0] for c in CASES])
def test_a_published_design_keeps_its_published_counts(
    text: str, source: str, published: dict[str, Any]
) -> None:
    d = plan_design(CAT, merge_request(CAT, text, {}))
    ours = _figures(d)
    assert {k: ours[k] for k in published} == published, source
