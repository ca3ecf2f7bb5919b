"""The devices at each end of a cable-schedule row, by the names `rack_plan.csv` gives them, so
a data-centre team can tie every link group to devices it has imported.

A link end names what it plugs into as the design words it ("QM9700 leaf", "NVIDIA DGX H100",
"nodes, switches, servers and PDUs"). A rack-plan device answers to an end when:
- a node (or a rack-scale system's compute tray): the end names the platform or "nodes";
- a switch: the end says "switches", or names its model and the tier its BOM line ends with
  (leaf, spine, core), on the compute fabric's switches for a compute link and the others'
  otherwise; a model with no tier is an access or uplink switch of a management network (or,
  where none is, every switch of that model);
- a server or appliance: the end says "servers" (a management server, a fabric manager), or
  names the device as its BOM line does.
PDUs are not in the rack plan, so an end naming them answers with the other devices it names."""

from __future__ import annotations

from clustergen.engine.model.design import Design
from clustergen.engine.report.rackplan import Device, Rack

_TIERS = ("leaf", "spine", "core")


class EndNames:
    """Rack-plan device names for link ends of one design."""

    def __init__(self, d: Design, racks: list[Rack]) -> None:
        self.platform = d.platform.name.lower()
        self.devices = [x for r in racks for x in r.devices]

    def of(self, end: str, fabric: str) -> str:
        """The names of the devices at an end, as ranges per device family ("node-0001 ..
        node-0128; ddn-ai400x2t-001 .. ddn-ai400x2t-003"); empty where none answers."""
        found = [x for x in self.devices if self._answers(x, end.lower(), fabric)]
        if not found:  # a switch model named with no tier that serves no management line: the
            # converged leaf an uplink lands on (the storage and in-band leaf of a small design)
            found = [x for x in self.devices if x.role == "network" and _model_in(x, end)]
        return "; ".join(ranges([x.name for x in found]))

    def _answers(self, x: Device, end: str, fabric: str) -> bool:
        words = end.replace(",", " ").split()
        if x.name.startswith("node-") or "compute tray" in x.kind:
            return self.platform in end or "nodes" in words
        kind = x.kind.lower()
        if x.role == "network":
            if "switches" in words:
                return True
            if not kind or kind not in end:
                return False
            tier = next((t for t in _TIERS if t in words), None)
            line = x.line.lower()
            if tier is None:
                return "management" in line
            compute = "compute fabric" in line
            return line.endswith(tier) and compute == (fabric == "compute")
        if "servers" in words and x.role == "management":
            return True
        head = x.line.split(",")[0].split(" (")[0].lower()
        return bool(head) and head in end


def _model_in(x: Device, end: str) -> bool:
    return bool(x.kind) and x.kind.lower() in end.lower()


def ranges(names: list[str]) -> list[str]:
    """Names as runs of one family with consecutive numbers ("qm9700-001 .. qm9700-032"), in
    order; a lone name as is. A run never spans a gap, so it names only the devices found."""
    out: list[list[str]] = []

    def follows(prev: str, name: str) -> bool:
        (fa, _, na), (fb, _, nb) = prev.rpartition("-"), name.rpartition("-")
        return fa == fb and na.isdigit() and nb.isdigit() and int(nb) == int(na) + 1

    for name in names:
        if out and follows(out[-1][-1], name):
            out[-1].append(name)
        else:
            out.append([name])
    return [run[0] if len(run) == 1 else f"{run[0]} .. {run[-1]}" for run in out]
