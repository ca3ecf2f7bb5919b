"""A busbar design's files show its DC power shelves: rack plan, NetBox device types, BOM."""

from clustergen.catalog import load_catalog
from clustergen.engine.report.files.bomfile import bom_csv
from clustergen.engine.report.files.rackplan import device_types_yaml_of, rack_plan, rack_plan_csv
from clustergen.engine.request import merge_request
from clustergen.engine.search.planner import plan_design


def test_the_shelves_stand_in_the_compute_racks_of_every_file() -> None:
    catalog = load_catalog()
    d = plan_design(catalog, merge_request(catalog, "64 DGX B300 Spectrum-X, DC busbar", {}))
    racks = rack_plan(d)
    compute = [r for r in racks if r.role == "compute"]
    assert compute
    assert all(sum(x.group == "shelf" for x in r.devices) == 4 for r in compute)
    rows = [row for row in rack_plan_csv(d).splitlines() if row.startswith("shelf-")]
    assert len(rows) == 4 * len(compute)
    assert all(",power," in row for row in rows)
    assert 'model: "33 kW power shelf (6 x 5.5 kW PSUs)"' in device_types_yaml_of(d)
    assert "power-shelf,33 kW power shelf" in bom_csv(d)
