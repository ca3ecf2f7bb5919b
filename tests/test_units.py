"""Units as people write them."""

from clustergen.units import per_kwh, power_words


def test_a_cap_under_a_megawatt_is_said_in_kilowatts_as_customers_write_it() -> None:
    assert power_words(600e3) == "600 kW"
    assert power_words(3.82e6) == "3.82 MW"
    assert power_words(1.2e6, 3) == "1.200 MW"


def test_an_energy_price_is_written_as_a_bill_writes_it() -> None:
    assert per_kwh(0.1) == "$0.10/kWh"
    assert per_kwh(0.085) == "$0.085/kWh"
    assert per_kwh(0.12) == "$0.12/kWh"
