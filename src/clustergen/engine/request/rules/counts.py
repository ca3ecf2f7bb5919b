"""Counts of a named system: "4 DGX B200 systems", "a single DGX H100", "one GB200 NVL72 rack",
"DGX H100 4 SU", "2 scalable units of DGX B200".

A count right before a system's name counts that system's nodes; a rack-scale system (an NVL72
rack is one node) counts in racks; a count of scalable units is the SUs of the system's reference
architecture, built as the RA builds them (`su_node_count`). Counts in words are read for systems
only: "an H100" in "train on an H100 cluster" is not one GPU.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from clustergen.catalog.architectures import Architecture
from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import System
from clustergen.errors import RequestError
from clustergen.units import plural

#: counts written as words; "a" and "an" count only when a unit word or the end of a clause
#: follows the name ("an HGX H200 server", "a DGX H100."), never in "a DGX H100 cluster", and
#: only when nothing else in the request sizes the design (a workload, a power cap)
WORD_COUNTS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "single": 1,
    "a single": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "twelve": 12,
    "sixteen": 16,
}
_WORDS = "|".join(sorted((re.escape(w) for w in WORD_COUNTS), key=len, reverse=True))
#: a count right before a name: digits (with a thousands 'k') or a count word, an optional 'x'
BEFORE_NAME = re.compile(
    # "64 DGX H100", "4x B200", and "a 64-node DGX A100 cluster" (the unit written with it)
    rf"(?<![\w.])(-?)(?:(\d[\d,]*(?:\.\d+)?)(k)?|({_WORDS}))\s*(?:x\s*|-?nodes?\s+)?$"
)
#: a count of scalable units anywhere in the request ("4 SU", "2 scalable units", "one SU")
SU_COUNT = re.compile(
    rf"(?<![\w.])(?:(\d[\d,]*)|({_WORDS}))\s*(?:x\s*)?"
    # "four SuperPOD SUs", "2 DGX SuperPOD scalable units": the pod's name qualifies the unit
    r"(?:(?:nvidia\s+)?(?:dgx\s+)?superpod\s+)?(?:sus?|scalable[- ]units?)\b"
)
#: a count and its unit before "of" and the name: "two racks of GB300 NVL72", "4 nodes of DGX B200"
UNITS_OF_NAME = re.compile(
    rf"(?<![\w.])(?:(\d[\d,]*)|({_WORDS}))\s+(?:nodes?|systems?|servers?|boxes|racks?)\s+of"
    r"\s+(?:the\s+)?(?:nvidia\s+)?$"
)
#: what may follow a name counted with "a"/"an": the end of a clause
_CLAUSE_END = re.compile(r"\s*(?:$|[,.;:!?)]|(?:for|with|to|at|under|running|and)\b)")
_UNITS = re.compile(r"(?:nodes?|systems?|servers?|boxes|racks?)$")


class Count(NamedTuple):
    """A count read before a name: its value, where its words start and end, and its words."""

    value: int
    start: int
    end: int
    words: str


def count_before(
    low: str, start: int, end: int, unit: str | None, articles: bool = True
) -> Count | None:
    """The count right before the name at low[start:end] (`unit` the unit word after it, if
    any); None when there is none, or it is "a"/"an" not closing a phrase or not to be read as a
    count (`articles` off: "serve 70B on an HGX H200 server" names the platform, the workload
    sizes it)."""
    m = BEFORE_NAME.search(low[:start])
    if not m:
        return _units_of(low, start, articles) or _times_after(low, end)
    if m.group(1) and (m.start() == 0 or not low[m.start() - 1].isalnum()):
        raise RequestError(f"{m.group(0).strip()!r} is negative", hint="give a positive count")
    if m.group(2):
        value = round(float(m.group(2).replace(",", "")) * (1000 if m.group(3) else 1))
        return Count(value, m.start(2), m.end(), m.group(0).strip())
    word = " ".join(m.group(4).split())
    named_unit = unit or _UNITS.search(low[start:end])
    if word in {"a", "an"} and (
        not articles or (not named_unit and not _CLAUSE_END.match(low, end))
    ):
        # "a GB200 NVL72 deployment - 4 racks -": the article counts nothing, a count after may
        return _times_after(low, end)
    return Count(WORD_COUNTS[word], m.start(4), m.end(), m.group(0).strip())


#: "GB200 NVL72 x 4 racks", "DGX B200 x 16", "H100 x 256": a count written after the name, as
#: a quote line is; "GB200 NVL72 deployment - 4 racks -", "DGX B200 (16 systems)": a count set
#: off by a dash, bracket, colon or comma ("GB200 NVL72, 8 racks"), its unit word then required;
#: not "x 2 SU" (an SU count, read by `su_count`)
_TIMES_AFTER = re.compile(
    r"\s*[x*]\s*(\d+(?:,\d{3})*)(?!\d|[.,]\d)(?:\s*(racks?|nodes?|servers?|systems?|gpus?))?"
    r"(?!\s*(?:su|sus|scalable)\b)"
    r"|(?:\s+(?:deployment|cluster|build|order|config(?:uration)?))?\s*[-\u2013\u2014(:,]\s*"
    r"(\d+(?:,\d{3})*|one|a\s+single|single)\s*(racks?|nodes?|servers?|systems?|gpus?)\b"
)


def _times_after(low: str, end: int) -> Count | None:
    m = _TIMES_AFTER.match(low, end)
    if not m:
        return None
    digits = m.group(1) or m.group(3)
    value = int(digits.replace(",", "")) if digits[0].isdigit() else 1  # "one", "single"
    return Count(value, m.start(), m.end(), m.group(0).strip())


def _units_of(low: str, start: int, articles: bool) -> Count | None:
    """ "two racks of GB300 NVL72": the count with its unit before the name (the words say
    which unit, so the caller can tell racks from nodes)."""
    m = UNITS_OF_NAME.search(low[:start])
    if not m:
        return None
    if m.group(1):
        return Count(int(m.group(1).replace(",", "")), m.start(), start, m.group(0).strip())
    word = " ".join(m.group(2).split())
    if word in {"a", "an"} and not articles:
        return None
    return Count(WORD_COUNTS[word], m.start(), start, m.group(0).strip())


def su_count(low: str) -> Count | None:
    """A count of scalable units anywhere in the request."""
    m = SU_COUNT.search(low)
    if not m:
        return None
    value = int(m.group(1).replace(",", "")) if m.group(1) else WORD_COUNTS[m.group(2)]
    if value < 1:
        raise RequestError(f"{m.group(0)!r} is no scalable unit", hint="give 1 SU or more")
    return Count(value, m.start(), m.end(), m.group(0).strip())


class SuNodes(NamedTuple):
    """Nodes in a count of scalable units, how they were counted, and the RA whose SU it is."""

    nodes: int
    basis: str
    architecture: Architecture


def su_node_count(catalog: Catalog, system_id: str, technology: str | None, sus: int) -> SuNodes:
    """Nodes in `sus` scalable units of the system's scaling reference architecture, as the RA
    builds them: a SuperPOD whose fabric manager takes a node slot (H100 RA Table 4: 1 SU = 31
    DGX) holds one node fewer. Raises RequestError when the system has no architecture.

    An SU count names the RA whose SU it counted, so the request keeps that RA: with no fabric
    named, the RA the system scales on (InfiniBand first, as `architecture_for` orders them), and
    the returned architecture's compute fabric is the one the design is built on (DGX B300 8 SU
    is 8 XDR SUs of 72, 576 nodes on InfiniBand; "DGX B300 8 SU ethernet" is 8 Spectrum-4 SUs
    of 64, 512 nodes)."""
    arch = catalog.architecture_for(system_id, technology)
    if arch is None:
        raise RequestError(
            f"{system_id} has no reference architecture, so a scalable unit of it is not defined",
            hint="give a node or GPU count instead",
        )
    slot = 1 if arch.fabric_manager_links else 0
    nodes = sus * arch.su_nodes - slot
    basis = f"{sus} SU of {arch.su_nodes} ({arch.id})"
    if slot:
        basis += ", one node slot to the fabric manager as the RA builds it"
    return SuNodes(nodes, basis, arch)


def recount_sus(catalog: Catalog, fields: dict[str, Any]) -> None:
    """Text read as SUs of one RA ("DGX B300 8 SU") with another fabric given as a field
    (`fabric: ethernet`): the same SU count of the RA on that fabric, so the count still
    names the RA the design is built on."""
    counted, fabric, platform = (fields.get(k) for k in ("su_architecture", "fabric", "platform"))
    if not (counted and fabric and platform and fields.get("nodes")):
        return
    arch = catalog.architecture(str(counted))
    if arch.compute_fabric.technology == fabric:
        return
    sus = (int(fields["nodes"]) + (1 if arch.fabric_manager_links else 0)) // arch.su_nodes
    nodes, _, other = su_node_count(catalog, str(platform), str(fabric), sus)
    if other.compute_fabric.technology == fabric:
        fields["nodes"], fields["su_architecture"] = nodes, other.id
    else:  # no RA of the system on that fabric: the nodes stand, counted in no SU of it
        fields["su_architecture"] = None


def su_rule(catalog: Catalog, system_id: str, architecture: Architecture, nodes: int) -> str:
    """The why-line words of a design sized by an SU count, said after "follows <the RA>": the
    SUs counted are that RA's, and the design keeps it; for a system with RAs on more than one
    compute-fabric technology, how to count the other's SUs."""
    noun = "rack" if catalog.system(system_id).kind == "nvl-rack" else "node"
    sus = (nodes + (1 if architecture.fabric_manager_links else 0)) // architecture.su_nodes
    others = sorted(
        {
            (a.compute_fabric.technology, a.su_nodes)
            for a in catalog.all("architectures", Architecture)
            if system_id in a.systems
            and a.compute_fabric.technology != architecture.compute_fabric.technology
            and a.max_nodes is None
        }
    )
    words = (
        f"the {plural(sus, 'SU')} asked for are its SUs of {plural(architecture.su_nodes, noun)}: "
        "an SU count keeps the RA whose SU it counts"
    )
    if others:
        words += (
            " (" + "; ".join(f"say '{t}' for SUs of {plural(n, noun)}" for t, n in others) + ")"
        )
    return words


def racks_to_nodes(catalog: Catalog, system_id: str, racks: int) -> tuple[int, str]:
    """Nodes in `racks` racks of a system: a rack-scale system is one node per rack; another
    system's rack holds its RA's published nodes per rack. Raises RequestError when unknown."""
    system = catalog.system(system_id)
    if system.kind == "nvl-rack":
        return racks, f"{racks} {system_id} rack{'s' if racks != 1 else ''} (one node each)"
    arch = catalog.architecture_for(system_id)
    if arch is None or arch.nodes_per_rack is None:
        raise RequestError(
            f"how many {system_id} nodes a rack holds depends on the rack's power limit",
            hint=f'give a node count, e.g. "4 {system_id} nodes"',
        )
    nodes = racks * arch.nodes_per_rack
    return nodes, (
        f"{plural(racks, 'rack')} x {plural(arch.nodes_per_rack, 'node')} per rack ({arch.id})"
    )


def gpus_per_server(catalog: Catalog, gpu: str) -> int:
    """GPUs in one server of a GPU's own systems: 8 where one of them is an 8-GPU server (the
    HGX/DGX baseboard: "64 V100 nodes" are DGX-1-class, not 16-GPU DGX-2s), else the most any
    has."""
    counts = {x.gpus_per_node for x in catalog.all("systems", System) if x.gpu == gpu}
    counts.discard(0)
    return 8 if 8 in counts else max(counts, default=1)
