"""The catalog as MCP resources: an index per kind (GPUs, systems, switches, language models) with
each entry's source, and every entry whole, with its sources, one read away.

    clustergen://catalog/gpus            every GPU: id, name, source, as_of, placeholder
    clustergen://catalog/gpus/h100-sxm   the entry as the catalog holds it
"""

from __future__ import annotations

import json

from mcp import types

from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import Entry
from clustergen.errors import RequestError

SCHEME = "clustergen"
#: the kinds served: catalog file stem -> what one entry is
KINDS = {
    "gpus": "GPU",
    "systems": "system (server, NVL rack, appliance)",
    "switches": "switch",
    "models": "language model",
}
#: what an error calls one entry of a kind
_ONE = {"gpus": "GPU", "systems": "system", "switches": "switch", "models": "model"}


def _entries(catalog: Catalog, kind: str) -> list[Entry]:
    return catalog.all(kind, Entry)


def resources(catalog: Catalog) -> list[types.Resource]:
    """One index resource per kind."""
    return [
        types.Resource(
            name=f"catalog-{kind}",
            title=f"Catalog: {kind}",
            uri=f"{SCHEME}://catalog/{kind}",
            description=f"every {what} in catalog {catalog.hash}: id, name, source, as_of",
            mime_type="application/json",
        )
        for kind, what in KINDS.items()
    ]


def templates() -> list[types.ResourceTemplate]:
    return [
        types.ResourceTemplate(
            name="catalog-entry",
            title="Catalog entry",
            uri_template=SCHEME + "://catalog/{kind}/{id}",
            description=f"one entry with its sources; kind is one of {', '.join(KINDS)}",
            mime_type="application/json",
        ),
        types.ResourceTemplate(
            name="design-file",
            title="Design file",
            uri_template=SCHEME + "://design/{id}/{file}",
            description="a file of a design made in this session (design_cluster lists them)",
        ),
    ]


def read(catalog: Catalog, uri: str) -> str | None:
    """The JSON text of a catalog resource, None for a URI that is not one; a RequestError
    (NotFoundError) for an unknown kind or entry."""
    prefix = f"{SCHEME}://catalog/"
    if not uri.startswith(prefix):
        return None
    kind, _, entry_id = uri[len(prefix) :].partition("/")
    if kind not in KINDS:
        raise RequestError(f"no catalog kind {kind!r}; the kinds are: {', '.join(KINDS)}")
    if entry_id:
        entry = catalog.get(kind, Entry, entry_id, _ONE[kind])
        return entry.model_dump_json(indent=1, exclude_none=True)
    index = [
        {"id": e.id, "name": e.name, "source": e.source, "as_of": e.as_of, "placeholder": True}
        if e.placeholder
        else {"id": e.id, "name": e.name, "source": e.source, "as_of": e.as_of}
        for e in _entries(catalog, kind)
    ]
    return json.dumps(index, indent=1, default=str)
