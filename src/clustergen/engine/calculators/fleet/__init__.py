"""Fleet planning: tier a mixed GPU inventory against job classes (`plan`), from an inventory
and a policy read under limits (`inputs`).

Other packages import only the names below."""

from clustergen.engine.calculators.fleet.inputs import FleetPolicy, Inventory, parse_inventory
from clustergen.engine.calculators.fleet.plan import FleetPlan, plan_fleet

__all__ = ["FleetPlan", "FleetPolicy", "Inventory", "parse_inventory", "plan_fleet"]
