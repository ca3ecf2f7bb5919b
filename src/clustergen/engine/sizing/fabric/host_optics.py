"""The transceiver a host's port takes: one that fits the adapter's cage, not only its rate.

A single-port OSFP ConnectX-7 takes a single-port OSFP module (MMA4Z00-NS400), never the QSFP112
part of the same rate (MMA1Z00-NS400) that fits a ConnectX-7 QSFP112 card; a host cage is flat
top (NVIDIA's finned-top OSFP modules are made for the switch cages: MMA4Z00-NS product
specification, "finned top for Quantum-2/Spectrum-4 switches"), so a flat-top module is preferred
where the catalog has both. A single-port module whose half-lane rate is the port's (a 400G SR4
run at 200G on a 1:2 splitter fiber) fits when no full-rate module does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import Cage, Optic, PortGroup, Switch
from clustergen.engine.cache import cached
from clustergen.errors import CatalogGapError


def fits_cage(optic: Optic, cage_form: str | None, accepts: Sequence[str] = ()) -> bool:
    """Whether an optic's form factor is the cage's (OSFP, QSFP112, ...) or one the cage is
    documented to take (`accepts`, a port group's `cage_accepts`); True when the cage is not
    known. A splitter cable's plug into a host cage is one of its split ends (`split_end_form`:
    QSFP56 on a twin-port OSFP to 2x QSFP56 cable), its head being the switch's."""
    if not cage_form:
        return True
    # "QSFP112" must not match a "QSFP1120" or an OSFP module match "QSFP": compare the first
    # word of each, so a switch's "OSFP (twin-port)" cage takes an "OSFP (twin-port ...)" module
    forms = {_form_word(cage_form), *(_form_word(a) for a in accepts)}
    return _form_word(optic.split_end_form or optic.form_factor or "") in forms


def _form_word(form: str) -> str:
    return form.upper().split(" ")[0].split("(")[0]


def same_family(optic: Optic, cage_form: str | None) -> bool:
    """Whether a part's plug is of the cage's family at all: any QSFP plug (QSFP28, QSFP56,
    QSFP112) is the QSFP form, which an OSFP cage never takes, nor a QSFP cage an OSFP plug
    (NVIDIA Cable Management Guidelines and FAQ, Cable and Connector Definitions: QSFP28 and
    QSFP56 are "4 x ... in a QSFP form factor", OSFP a form of its own). True when the cage is
    not known. A rate check is the caller's. A splitter cable's head (its `form_factor`) is the
    plug this checks; its split ends are `fits_cage`'s."""
    if not cage_form:
        return True
    return _family(optic.form_factor or "") == _family(cage_form)


def _family(form: str) -> str:
    word = _form_word(form)
    return next((f for f in ("OSFP", "QSFP", "SFP") if word.startswith(f)), word)


def accepted_forms(catalog: Catalog, group: PortGroup | None) -> tuple[str, ...]:
    """The forms a host port group's cage takes besides its own: what the catalog's cage entry
    for that form documents (a QSFP112 cage takes QSFP56 and QSFP28 parts: cages.yaml) and what
    the port group itself adds (`cage_accepts`). Empty for an unknown cage."""
    if group is None or not group.cage_form:
        return ()
    if "cages" not in catalog.entries:  # a hand-built catalog without the file
        return tuple(group.cage_accepts)
    form = _form_word(group.cage_form)
    documented = [a for c in catalog.all(Cage) if _form_word(c.form) == form for a in c.accepts]
    return tuple(dict.fromkeys([*documented, *group.cage_accepts]))


def transceivers(catalog: Catalog, *fields: str) -> list[Optic]:
    """The catalog's transceivers, each with the fields a look-up reads (see `optics_of_kind`)."""
    return optics_of_kind(catalog.all(Optic), "transceiver", *fields)


def optics_of_kind(optics: list[Optic], kind: str, *fields: str) -> list[Optic]:
    """The optics of a kind (transceiver, dac, fiber, ...), each with the fields a choice reads:
    a null one is a named gap (CatalogGapError), never a part silently passed over for another."""
    out = [o for o in optics if o.kind == kind]
    noun = "transceiver" if kind == "transceiver" else "cable"
    for o in out:
        for name in fields:
            if getattr(o, name) is None:
                raise CatalogGapError(
                    f"{noun} {o.id} has no {name} in the catalog",
                    entry=o.id,
                    field=name,
                    hint=f"add {name} to {o.id} in a layered catalog",
                )
    return out


def _runs_at(optic: Optic, total_gbps: float, ports: int) -> bool:
    """Whether the module carries `ports` logical ports of `total_gbps` in all: at its full rate,
    or a single-port module with half its lanes lit on a 1:2 splitter fiber (a 400G SR4 at 200G,
    MMA1Z00-NS400-T overview)."""
    if optic.total_gbps == total_gbps and optic.ports == ports:
        return True
    return ports == 1 == optic.ports and optic.split_port_speed_gbps == total_gbps


def host_optic(
    catalog: Catalog,
    *,
    total_gbps: float,
    ports: int,
    cage_form: str | None,
    technology: str | None,
) -> Optic | None:
    """The transceiver for a host cage of `total_gbps` carrying `ports` logical ports, of the
    cage's form factor: multimode first, flat top first; None when the catalog has none, or when
    the cage form is not known (a module picked for an unknown cage may not fit it: the end is
    then a transceiver to choose, flagged, never a silent guess)."""
    if not cage_form:
        return None

    def first() -> Optic | None:
        fits = [
            o
            for o in transceivers(catalog, "total_gbps", "media", "form_factor")
            if _runs_at(o, total_gbps, ports)
            and fits_cage(o, cage_form)
            and (not technology or not o.technologies or technology in o.technologies)
        ]
        rank = {"multimode": 0, "singlemode": 1}
        fits.sort(
            key=lambda o: (
                o.total_gbps != total_gbps,  # a module at its full rate before a split one
                rank.get(o.media or "", 2),
                "flat top" not in (o.form_factor or ""),
            )
        )
        return fits[0] if fits else None

    return cached(catalog, ("host_optic", total_gbps, ports, cage_form, technology), first)


class AccessOptics(NamedTuple):
    """The parts of an optical host-to-switch link where no active cable fits: the host's
    module, the switch's module (how many host links one carries) and the fiber (how many links
    one carries)."""

    host: Optic
    switch: Optic
    links_per_switch_module: int
    fiber: Optic


def access_optics(
    catalog: Catalog, *, port_gbps: float, cage_form: str | None, switch: Switch
) -> AccessOptics | None:
    """A host port of `cage_form` at `port_gbps` to a switch's cage over transceivers and fiber:
    the host module of the cage's form (`host_optic`, a 400G QSFP112 SR4 run at 200G where the
    port is 200G), a switch module of the switch cage's form and rate in the same media (the
    switch cage's finned module first), and a straight fiber, or a 1:2 splitter when the host
    module runs at half its lanes. NVIDIA documents the combination for BlueField-3 QSFP112
    ports on Spectrum-4: MMA1Z00-NS400-T overview, "linked to a single 800Gb/s Twin-port 2x400G
    OSFP transceiver (MMA4Z00-NS) in a Spectrum-4 Ethernet switch ... 1:2 splitter ... (MFP7E20)
    ... links to four 200Gb/s ... BlueField-3/QSFP112 adapter cards". None when a part is
    missing from the catalog."""
    host = host_optic(
        catalog,
        total_gbps=port_gbps,
        ports=1,
        cage_form=cage_form,
        technology=switch.technology,
    )
    if host is None or not switch.cage_form or not switch.cage_gbps:
        return None
    modules = [
        o
        for o in transceivers(catalog, "total_gbps", "media", "form_factor")
        if fits_cage(o, switch.cage_form)
        and o.total_gbps == switch.cage_gbps
        and o.media == host.media
        and (not o.technologies or switch.technology in o.technologies)
    ]
    modules.sort(key=lambda o: "flat top" in (o.form_factor or ""))  # a switch cage: finned
    split = host.total_gbps != port_gbps
    fibers = [
        o
        for o in optics_of_kind(catalog.all(Optic), "fiber", "media", "port_speed_gbps")
        if o.media == host.media
        and ((o.ports > 1 and o.port_speed_gbps == port_gbps) if split else o.ports == 1)
    ]
    if not modules or not fibers:
        return None
    return AccessOptics(host, modules[0], max(1, int(switch.cage_gbps // port_gbps)), fibers[0])
