"""`cable_schedule.csv`: one row per link group with both ends (what each end plugs into and
the rack-plan devices that are it), the cable, its media and length class."""

from __future__ import annotations

import csv
import io

from clustergen.engine.model.design import Design
from clustergen.engine.report.files.rackplan import (
    end_names,
    names_by_group,
    rack_plan,
    ranges,
    standing_names,
)
from clustergen.engine.report.plain_text import cell_text


def cable_schedule_csv(d: Design) -> str:
    """One row per link group: both ends (device, the rack plan's names of those devices, port,
    transceiver part and count), the cable part, media, speed and length class, and how many
    links."""

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    names, standing = names_by_group(rack_plan(d)), standing_names(d)
    w.writerow(
        [
            "fabric",
            "segment",
            "links",
            "speed_gbps",
            "side_a_device",
            "side_a_names",
            "side_a_port",
            "side_a_transceiver",
            "side_a_transceivers",
            "side_b_device",
            "side_b_names",
            "side_b_port",
            "side_b_transceiver",
            "side_b_transceivers",
            "cable",
            "cable_supplied_by",
            "media",
            "length_class",
        ]
    )
    for g in d.links:
        w.writerow(
            [
                cell_text(v)
                for v in (
                    g.fabric,
                    g.segment,
                    g.links,
                    g.speed_gbps,
                    g.a.device,
                    "; ".join(ranges(end_names(g, "a", names, standing))),
                    g.a.port,
                    g.a.transceiver or "",
                    g.a.transceivers,
                    g.b.device,
                    "; ".join(ranges(end_names(g, "b", names, standing))),
                    g.b.port,
                    g.b.transceiver or "",
                    g.b.transceivers,
                    g.cable or "",
                    "buyer" if g.cable_supply == "order" else g.cable_supply,
                    g.media,
                    g.length_class,
                )
            ]
        )
    return buf.getvalue()
