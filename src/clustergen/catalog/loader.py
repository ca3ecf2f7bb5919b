"""Load catalog YAML files, layer a user's directory over the built-in one, validate, look up.

Reading one file (and locating what is wrong in it) is `reader.py`'s job.
"""

from __future__ import annotations

import difflib
import errno
import hashlib
import json
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

from pydantic import ValidationError

from clustergen.catalog.answers import Answers
from clustergen.catalog.architectures import Architecture, RaPattern
from clustergen.catalog.models import (
    Assumption,
    Cage,
    Cdu,
    Entry,
    Gpu,
    Nic,
    Optic,
    RackType,
    StorageModel,
    StorageTier,
    Switch,
    System,
    normalise_name,
)
from clustergen.catalog.reader import Problem, read_rows
from clustergen.catalog.workload_models import (
    HourlyPrice,
    InferenceTable,
    LanguageModel,
    TrainingRow,
)
from clustergen.errors import CatalogError, NotFoundError
from clustergen.resources import data_dir
from clustergen.units import plural
from clustergen.untrusted import file_kind

E = TypeVar("E", bound=Entry)
T = TypeVar("T")


#: file stem -> model of each entry. A catalog directory holds any subset of these files.
FILES: dict[str, type[Entry]] = {
    "gpus": Gpu,
    "systems": System,
    "switches": Switch,
    "nics": Nic,
    "optics": Optic,
    "cages": Cage,
    "ra_patterns": RaPattern,
    "architectures": Architecture,
    "storage_tiers": StorageTier,
    "assumptions": Assumption,
    "racks": RackType,
    "cdus": Cdu,
    "storage_models": StorageModel,
    "models": LanguageModel,
    "training_throughput": TrainingRow,
    "inference_throughput": InferenceTable,
    "hourly_prices": HourlyPrice,
}


def builtin_catalog_dir() -> Path:
    """The catalog shipped with clustergen: inside the wheel, or at the repository root."""
    return data_dir("catalog")


#: file stem -> entry id -> raw fields
RawRows = dict[str, dict[str, dict[str, Any]]]


def _raw_layers(
    dirs: list[Path], problems: list[Problem]
) -> tuple[RawRows, dict[str, dict[str, str]]]:
    """Merge raw rows: a later directory's entry overrides an earlier one field by field. Also
    returns the file that last touched each entry, kept apart so no YAML key can collide with it."""
    merged: RawRows = {stem: {} for stem in FILES}
    origin: dict[str, dict[str, str]] = {stem: {} for stem in FILES}
    for n, directory in enumerate(dirs):
        missing = _not_a_directory(directory)
        if missing:
            problems.append(Problem(str(directory), "-", "", missing))
            continue
        for path in sorted(directory.glob("*.y*ml")):
            if path.stem not in FILES:
                known = ", ".join(f"{s}.yaml" for s in FILES)
                problems.append(
                    Problem(path.name, "-", "", f"unknown catalog file; known: {known}")
                )
                continue
            # The first directory is the built-in catalog.
            for row in read_rows(path, problems, trusted=n == 0):
                base = merged[path.stem].get(row["id"], {})
                merged[path.stem][row["id"]] = {**base, **row}
                origin[path.stem][row["id"]] = path.name
    return merged, origin


def _field_names(model: type[Any], seen: set[type[Any]] | None = None) -> set[str]:
    """Every field name of a catalog model and of the models nested in it."""
    seen = seen if seen is not None else set()
    names: set[str] = set()
    if model in seen or not hasattr(model, "model_fields"):
        return names
    seen.add(model)
    for name, f in model.model_fields.items():
        names.add(name)
        for arg in (f.annotation, *getattr(f.annotation, "__args__", ())):
            if isinstance(arg, type) and hasattr(arg, "model_fields"):
                names |= _field_names(arg, seen)
    return names


def _did_you_mean(key: str, model: type[Any]) -> str:
    near = difflib.get_close_matches(key, sorted(_field_names(model)), n=1, cutoff=0.6)
    return f"; did you mean {near[0]!r}?" if near else ""


def _not_a_directory(directory: Path) -> str | None:
    """Why `directory` cannot be a catalog directory (missing, a file, a symlink loop), or None."""
    try:
        mode = directory.stat().st_mode
    except OSError as exc:
        if exc.errno == errno.ENOENT:
            return "catalog directory does not exist"
        return f"cannot read the catalog directory: {exc.strerror or exc}"
    if not stat.S_ISDIR(mode):
        return f"--catalog must be a directory; this is {file_kind(mode)}"
    return None


def _validate_rows(
    raw: RawRows, origin: dict[str, dict[str, str]], problems: list[Problem]
) -> dict[str, dict[str, Entry]]:
    entries: dict[str, dict[str, Entry]] = {stem: {} for stem in FILES}
    for stem, rows in raw.items():
        model = FILES[stem]
        for entry_id, row in rows.items():
            try:
                entries[stem][entry_id] = model.model_validate(row)
            except ValidationError as exc:
                for err in exc.errors():
                    loc = ".".join(str(p) for p in err["loc"])
                    msg = err["msg"]
                    if err["type"] == "extra_forbidden":
                        msg = "unknown field" + _did_you_mean(str(err["loc"][-1]), model)
                    problems.append(Problem(origin[stem][entry_id], entry_id, loc, msg))
    return entries


def _check_references(
    entries: dict[str, dict[str, Entry]], raw: RawRows, problems: list[Problem]
) -> None:
    """Ids that point at other entries must exist. An entry that exists but failed validation
    has its own problems already; pointing at it is not one more."""

    def need(stem: str, ref: str | None, file: str, entry: str, fld: str) -> None:
        if ref is not None and ref not in entries[stem] and ref not in raw[stem]:
            problems.append(Problem(file, entry, fld, f"{ref!r} is not an id in {stem}.yaml"))

    for s in entries["systems"].values():
        assert isinstance(s, System)
        need("gpus", s.gpu, "systems.yaml", s.id, "gpu")
        need("cdus", s.cdu, "systems.yaml", s.id, "cdu")
        refs = [("systems", sid, "superseded_by") for sid in s.superseded_by]
        refs += [
            ("nics", getattr(s, g).nic, f"{g}.nic")
            for g in ("compute", "storage", "inband", "oob")
            if getattr(s, g) is not None
        ]
        for stem, ref, fld in refs:
            need(stem, ref, "systems.yaml", s.id, fld)
    _check_cdu_default(entries, need)
    for a in entries["architectures"].values():
        assert isinstance(a, Architecture)
        for sid in a.systems:
            need("systems", sid, "architectures.yaml", a.id, "systems")
        need("systems", a.fabric_manager, "architectures.yaml", a.id, "fabric_manager")
        need("systems", a.management_server, "architectures.yaml", a.id, "management_server")
        need("systems", a.storage_appliance, "architectures.yaml", a.id, "storage_appliance")
        for name in (
            "compute_fabric",
            "storage_fabric",
            "ethernet_storage_fabric",
            "inband_fabric",
            "oob_fabric",
        ):
            spec = getattr(a, name)
            if spec is not None:
                need("switches", spec.switch, "architectures.yaml", a.id, f"{name}.switch")
        need("storage_tiers", a.storage_tier_default, "architectures.yaml", a.id, "storage_tier")
    for stem in ("training_throughput", "inference_throughput"):
        for row in entries[stem].values():
            assert isinstance(row, TrainingRow | InferenceTable)
            need("models", row.model, f"{stem}.yaml", row.id, "model")
            need("gpus", row.gpu, f"{stem}.yaml", row.id, "gpu")
    for price in entries["hourly_prices"].values():
        assert isinstance(price, HourlyPrice)
        need("gpus", price.gpu, "hourly_prices.yaml", price.id, "gpu")
        need("systems", price.system, "hourly_prices.yaml", price.id, "system")
    for p in entries["ra_patterns"].values():
        assert isinstance(p, RaPattern)
        for sid in p.systems:
            need("systems", sid, "ra_patterns.yaml", p.id, "systems")
        need(
            "switches", p.networking.leaf_switch, "ra_patterns.yaml", p.id, "networking.leaf_switch"
        )
        need(
            "switches",
            p.networking.spine_switch,
            "ra_patterns.yaml",
            p.id,
            "networking.spine_switch",
        )


def _check_cdu_default(
    entries: dict[str, dict[str, Entry]], need: Callable[[str, str | None, str, str, str], None]
) -> None:
    """The CDU class designs are sized with by default (the `cdu` assumption) must exist."""
    cdu = entries["assumptions"].get("cdu")
    if isinstance(cdu, Assumption) and isinstance(cdu.value, str):
        need("cdus", cdu.value, "assumptions.yaml", cdu.id, "value")


def _check_names(
    entries: dict[str, dict[str, Entry]], problems: list[Problem]
) -> dict[str, dict[str, str]]:
    """A name or alias answers for one entry of its file; a second one would silently lose.
    Returns the look-up index this builds (file stem -> normalised name -> id), which the Catalog
    takes rather than folding every name again.

    Entries are visited in load order (built-in before a user's layer, then file order), the order
    look-ups index them in, so the problem names the entry that came later."""
    index: dict[str, dict[str, str]] = {}
    for stem, rows in entries.items():
        owner: dict[str, str] = index.setdefault(stem, {})
        for entry_id, entry in rows.items():
            for name, key in zip(
                (entry.id, entry.name, *entry.aliases), entry.names(), strict=True
            ):
                first = owner.setdefault(key, entry_id)
                if first != entry_id:
                    problems.append(
                        Problem(
                            f"{stem}.yaml",
                            entry_id,
                            "aliases" if name in entry.aliases else "name",
                            f"{name!r} already names entry {first!r}; look-ups would find that one",
                        )
                    )
    return index


@dataclass
class Catalog:
    """Every catalog entry, by file stem and id, with forgiving look-ups."""

    entries: dict[str, dict[str, Entry]]
    directories: list[Path]
    hash: str
    _index: dict[str, dict[str, str]] = field(default_factory=dict, repr=False)
    # The catalog's own answers from its entries, which never change once loaded: the sorted
    # lists `all` returns and `architecture_for`. The engine keeps its answers in engine/cache.
    _answers: Answers = field(default_factory=Answers, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for stem, rows in self.entries.items():
            if stem in self._index:  # given by the loader, which built it checking the names
                continue
            index: dict[str, str] = {}
            for entry in rows.values():
                for name in entry.names():
                    index.setdefault(name, entry.id)
            self._index[stem] = index

    def all(self, stem: str, model: type[E]) -> list[E]:
        """Every entry of one file, in id order (a new list each call; the entries are shared)."""
        rows = self.entries[stem]
        found = self._answers.get(
            ("all", stem, model),
            lambda: [e for _, e in sorted(rows.items()) if isinstance(e, model)],
        )
        return list(found)

    def get(self, stem: str, model: type[E], name: str, kind: str | None = None) -> E:
        """Find an entry by id, name or alias, forgiving case, punctuation and vendor prefix."""
        kind = kind or stem.rstrip("s").replace("_", " ")
        rows = self.entries[stem]
        if name in rows:
            found = rows[name]
        else:
            key = normalise_name(name)
            index = self._index[stem]
            entry_id = index.get(key)
            if entry_id is None and key:
                starts = sorted({v for k, v in index.items() if k.startswith(key)})
                if len(starts) == 1:
                    entry_id = starts[0]
            if entry_id is None:
                raise NotFoundError(kind, name, self.closest(stem, name))
            found = rows[entry_id]
        if not isinstance(found, model):  # pragma: no cover - FILES fixes the model per stem
            raise CatalogError(f"{stem}.yaml entry {found.id!r} is not a {model.__name__}")
        return found

    def closest(self, stem: str, name: str, n: int = 5) -> list[str]:
        """Ids whose names look most like `name`."""
        key = normalise_name(name)
        index = self._index[stem]
        names = difflib.get_close_matches(key, list(index), n=n * 3, cutoff=0.4)
        names += sorted(k for k in index if key and (key in k or k in key))
        out: list[str] = []
        for k in names:
            if index[k] not in out:
                out.append(index[k])
        if out:
            return out[:n]
        # Nothing alike: the entries a user most likely meant to name (for systems, the compute
        # platforms rather than appliances and head nodes), first by id.
        rows = self.entries[stem]
        compute = [i for i, e in rows.items() if getattr(e, "gpus_per_node", None)]
        return sorted(compute or rows)[:n]

    def gpu(self, name: str) -> Gpu:
        """A GPU by forgiving name."""
        return self.get("gpus", Gpu, name, "GPU")

    def system(self, name: str) -> System:
        """A system (server, NVL rack, appliance) by forgiving name."""
        return self.get("systems", System, name, "system")

    def switch(self, name: str) -> Switch:
        """A switch by forgiving name."""
        return self.get("switches", Switch, name, "switch")

    def nic(self, name: str) -> Nic:
        """A NIC or DPU by forgiving name."""
        return self.get("nics", Nic, name, "NIC")

    def optic(self, name: str) -> Optic:
        """A transceiver or cable by forgiving name."""
        return self.get("optics", Optic, name, "optic")

    def architecture(self, name: str) -> Architecture:
        """A reference architecture by forgiving name."""
        return self.get("architectures", Architecture, name, "architecture")

    def storage_tier(self, name: str) -> StorageTier:
        """A storage performance tier by name."""
        return self.get("storage_tiers", StorageTier, name, "storage tier")

    def rack(self, name: str) -> RackType:
        """A rack type by name."""
        return self.get("racks", RackType, name, "rack type")

    def cdu(self, name: str) -> Cdu:
        """A coolant distribution unit class by name."""
        return self.get("cdus", Cdu, name, "CDU")

    def model(self, name: str) -> LanguageModel:
        """A language model's architecture by forgiving name ("Llama 3.1 405B", "405B")."""
        return self.get("models", LanguageModel, name, "model")

    def assumption(self, name: str) -> Assumption:
        """A named default with its source."""
        return self.get("assumptions", Assumption, name, "assumption")

    def architecture_for(
        self, system_id: str, technology: str | None = None, nodes: int | None = None
    ) -> Architecture | None:
        """The reference architecture a system follows, if any. A system with several (DGX B300 has
        an XDR InfiniBand and a Spectrum-X Ethernet SuperPOD; DGX H100 a BasePOD for small
        clusters and a SuperPOD above) gets the one whose compute fabric is `technology` and
        whose node range holds `nodes`; with no technology named, InfiniBand first, as NVIDIA's
        SuperPOD RAs lead with it."""

        def find() -> Architecture | None:
            matches = [a for a in self.all("architectures", Architecture) if system_id in a.systems]
            if technology is not None:
                matches = [
                    a for a in matches if a.compute_fabric.technology == technology
                ] or matches
            matches = [a for a in matches if a.covers(nodes)] or matches
            # With no size given, the architecture that scales (no upper bound) speaks for it.
            matches.sort(
                key=lambda a: (
                    a.compute_fabric.technology != "infiniband",
                    nodes is None and a.max_nodes is not None,
                )
            )
            return matches[0] if matches else None

        return self._answers.get(("architecture_for", system_id, technology, nodes), find)


def _hash(entries: dict[str, dict[str, Entry]]) -> str:
    blob = {
        stem: {eid: e.model_dump(mode="json") for eid, e in sorted(rows.items())}
        for stem, rows in sorted(entries.items())
    }
    text = json.dumps(blob, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def validate_catalog(user_dir: Path | None = None) -> tuple[Catalog | None, list[Problem]]:
    """Load and check the catalog; return it (None if broken) and every problem found."""
    dirs = [builtin_catalog_dir()]
    if user_dir is not None:
        dirs.append(Path(user_dir))
    problems: list[Problem] = []
    raw, origin = _raw_layers(dirs, problems)
    entries = _validate_rows(raw, origin, problems)
    _check_references(entries, raw, problems)
    index = _check_names(entries, problems)
    if problems:
        return None, problems
    return Catalog(entries=entries, directories=dirs, hash=_hash(entries), _index=index), problems


@lru_cache(maxsize=8)
def _load_cached(user_dir: str | None) -> Catalog:
    catalog, problems = validate_catalog(Path(user_dir) if user_dir else None)
    if catalog is None:
        shown = "; ".join(str(p) for p in problems[:3])
        more = f" (+{len(problems) - 3} more)" if len(problems) > 3 else ""
        raise CatalogError(
            f"catalog has {plural(len(problems), 'problem')}: {shown}{more}",
            hint="run `clustergen catalog validate` for the full list",
            problems=[str(p) for p in problems],
        )
    return catalog


def load_catalog(user_dir: Path | str | None = None) -> Catalog:
    """The built-in catalog, with `user_dir` layered over it when given. Cached per directory."""
    # realpath, not Path.resolve: a symlink loop must reach validation as a problem, not raise here
    return _load_cached(os.path.realpath(user_dir) if user_dir else None)
