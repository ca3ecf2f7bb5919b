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
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar, overload

from pydantic import ValidationError

from clustergen.catalog.answers import Answers

# The kinds are the Entry classes of models.py and of the two modules beside it; importing them
# registers them in KINDS.
from clustergen.catalog.architectures import Architecture
from clustergen.catalog.models import (
    KINDS,
    Assumption,
    Cdu,
    Entry,
    Gpu,
    Nic,
    Optic,
    RackType,
    StorageTier,
    Switch,
    System,
    normalise_name,
)
from clustergen.catalog.reader import Problem, read_rows
from clustergen.catalog.workload_models import LanguageModel
from clustergen.errors import CatalogError, NotFoundError
from clustergen.resources import data_dir
from clustergen.units import plural
from clustergen.untrusted import file_kind

E = TypeVar("E", bound=Entry)
T = TypeVar("T")

#: file stem -> model of each entry: every class declared `class X(Entry, kind=...)`. A catalog
#: directory holds any subset of these files.
FILES: dict[str, type[Entry]] = KINDS


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


def _check_refs(
    entries: dict[str, dict[str, Entry]], raw: RawRows, problems: list[Problem]
) -> None:
    """Ids that point at other entries (the fields typed with a `Ref`) must exist. An entry that
    exists but failed validation has its own problems already; pointing at it is not one more."""
    for stem, rows in entries.items():
        file = FILES[stem].catalog_file
        for entry in rows.values():
            for ref in entry.references():
                if ref.target not in entries[ref.kind] and ref.target not in raw[ref.kind]:
                    where = FILES[ref.kind].catalog_file
                    problems.append(
                        Problem(
                            file, entry.id, ref.field, f"{ref.target!r} is not an id in {where}"
                        )
                    )


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

    @overload
    def all(self, kind: type[E], /) -> list[E]: ...
    @overload
    def all(self, kind: str, model: type[E], /) -> list[E]: ...
    def all(self, kind: type[E] | str, model: type[E] | None = None, /) -> list[E]:
        """Every entry of one kind, in id order (a new list each call; the entries are shared):
        `all(System)`. The older spelling names the file stem and the model (or a base of it,
        `Entry`) its entries are returned as: `all("systems", System)`."""
        if isinstance(kind, str):
            stem, model = _stem_of(kind, model)
        else:
            stem, model = kind.catalog_kind, kind
        rows = self.entries[stem]
        found = self._answers.get(
            ("all", stem, model),
            lambda: [e for _, e in sorted(rows.items()) if isinstance(e, model)],
        )
        return list(found)

    @overload
    def get(self, kind: type[E], name: str, /) -> E: ...
    @overload
    def get(self, kind: str, model: type[E], name: str, noun: str | None = None, /) -> E: ...
    def get(self, kind: type[E] | str, *args: Any) -> E:
        """Find an entry of one kind by id, name or alias, forgiving case, punctuation and vendor
        prefix: `get(Cdu, "in-row 1.3 MW")`. The older spelling names the file stem and the model
        (or a base of it), and may word the kind itself: `get("cdus", Cdu, name, "CDU")`."""
        model: type[E]
        if not isinstance(kind, str) and len(args) == 1:
            # the common case first (an id, as the engine passes one): one dict look-up
            found = self.entries[kind.catalog_kind].get(args[0])
            # (pydantic's metaclass makes isinstance slow: an entry of the exact model first)
            if type(found) is kind or isinstance(found, kind):
                return found
        if isinstance(kind, str):
            stem, model = _stem_of(kind, args[0])
            name: str = args[1]
            noun: str = args[2] if len(args) > 2 and args[2] else FILES[stem].noun
        else:
            stem, model, (name,), noun = kind.catalog_kind, kind, args, kind.noun
        return self._find(stem, model, name, noun)

    def _find(self, stem: str, model: type[E], name: str, noun: str) -> E:
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
                raise NotFoundError(noun, name, self.closest(stem, name))
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
        return self.get(Gpu, name)

    def system(self, name: str) -> System:
        """A system (server, NVL rack, appliance) by forgiving name."""
        found = self.entries[System.catalog_kind].get(name)  # an id, as the engine passes one
        return found if type(found) is System else self.get(System, name)

    def switch(self, name: str) -> Switch:
        """A switch by forgiving name."""
        found = self.entries[Switch.catalog_kind].get(name)  # an id, as the engine passes one
        return found if type(found) is Switch else self.get(Switch, name)

    def nic(self, name: str) -> Nic:
        """A NIC or DPU by forgiving name."""
        return self.get(Nic, name)

    def optic(self, name: str) -> Optic:
        """A transceiver or cable by forgiving name."""
        found = self.entries[Optic.catalog_kind].get(name)  # an id, as the engine passes one
        return found if type(found) is Optic else self.get(Optic, name)

    def architecture(self, name: str) -> Architecture:
        """A reference architecture by forgiving name."""
        return self.get(Architecture, name)

    def storage_tier(self, name: str) -> StorageTier:
        """A storage performance tier by name."""
        return self.get(StorageTier, name)

    def rack(self, name: str) -> RackType:
        """A rack type by name."""
        return self.get(RackType, name)

    def cdu(self, name: str) -> Cdu:
        """A coolant distribution unit class by name."""
        return self.get(Cdu, name)

    def model(self, name: str) -> LanguageModel:
        """A language model's architecture by forgiving name ("Llama 3.1 405B", "405B")."""
        return self.get(LanguageModel, name)

    def assumption(self, name: str) -> Assumption:
        """A named default with its source."""
        return self.get(Assumption, name)

    def architecture_for(
        self,
        system_id: str,
        technology: str | None = None,
        nodes: int | None = None,
        link_gbps: float | None = None,
    ) -> Architecture | None:
        """The reference architecture a system follows, if any. A system with several (DGX B300 has
        an XDR InfiniBand and a Spectrum-X Ethernet SuperPOD; DGX H100 a BasePOD for small
        clusters and a SuperPOD above) gets the one whose compute fabric is `technology` and
        whose node range holds `nodes`; with no technology named, InfiniBand first, as NVIDIA's
        SuperPOD RAs lead with it. A compute port speed asked for (`link_gbps`: "16 DGX H100 at
        NDR400") keeps the architectures whose ports run at it, one past its node range when
        none in range does (DGX BasePOD runs 9-16 nodes at NDR200 only)."""

        def of_system() -> list[Architecture]:  # the same for every node count
            matches = [a for a in self.all(Architecture) if system_id in a.systems]
            if technology is not None:
                matches = [
                    a for a in matches if a.compute_fabric.technology == technology
                ] or matches
            return matches

        def find() -> Architecture | None:
            every = self._answers.get(("architectures_of", system_id, technology), of_system)
            matches = [a for a in every if a.covers(nodes)] or list(every)
            if link_gbps is not None:
                system = self.system(system_id)
                native = system.compute.port_speed_gbps if system.compute else None

                def at_speed(a: Architecture) -> bool:
                    return (a.compute_fabric.port_speed_gbps or native) == link_gbps

                matches = (
                    [a for a in matches if at_speed(a)]
                    or [a for a in every if at_speed(a)]
                    or matches
                )
            # With no size given, the architecture that scales (no upper bound) speaks for it.
            matches.sort(
                key=lambda a: (
                    # past every range: one whose range ends below the size holds it least
                    nodes is not None and a.max_nodes is not None and nodes > a.max_nodes,
                    a.compute_fabric.technology != "infiniband",
                    nodes is None and a.max_nodes is not None,
                )
            )
            return matches[0] if matches else None

        return self._answers.get(
            ("architecture_for", system_id, technology, nodes, link_gbps), find
        )


def _stem_of(stem: str, model: type[E] | None) -> tuple[str, type[E]]:
    """The older look-up spelling's file stem, checked, and the model it asks for."""
    if model is None or stem not in FILES or not issubclass(FILES[stem], model):
        raise CatalogError(f"{stem!r} is not a catalog kind whose entries are {model!r}")
    return stem, model


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
    _check_refs(entries, raw, problems)
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
